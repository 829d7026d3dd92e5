/*
 * cpu-features.c: ask the CPU (cpuid) what it implements and the OS
 * (xgetbv) which register state it saves on context switches; on ARM, ask
 * the kernel.  Compiled with no instruction-set flags.
 *
 * AVX needs the YMM state enabled in XCR0, AVX-512 the opmask and both ZMM
 * states too: without them the instructions fault even where cpuid lists
 * them (a hypervisor or a kernel booted with them off).
 */
#include "cpu-features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned long long read_xcr0(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}

static unsigned detect(void)
{
	unsigned int a = 0, b = 0, c = 0, d = 0, feat = 0;
	unsigned long long xcr0 = 0;
	int sse41_ssse3;

	/* "GenuineIntel" in EBX, EDX, ECX */
	if (__get_cpuid(0, &a, &b, &c, &d) && b == 0x756e6547u &&
	    d == 0x49656e69u && c == 0x6c65746eu)
		feat |= POW_CPU_INTEL;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return feat;
	if (d & (1u << 26))
		feat |= POW_CPU_SSE2;
	if (c & (1u << 9))
		feat |= POW_CPU_SSSE3;
	if (c & (1u << 19))
		feat |= POW_CPU_SSE41;
	sse41_ssse3 = (c & (1u << 19)) && (c & (1u << 9));
	if ((c & (1u << 25)) && (feat & POW_CPU_SSE2))
		feat |= POW_CPU_AES;
	/* OSXSAVE: the OS uses XSAVE, so xgetbv tells what it saves. */
	if (c & (1u << 27))
		xcr0 = read_xcr0();
	/* AVX needs SSE and YMM state saved (XCR0 bits 1, 2). */
	if ((c & (1u << 28)) && (xcr0 & 0x6) == 0x6)
		feat |= POW_CPU_AVX;

	if ((feat & POW_CPU_AVX) && __get_cpuid(0x80000001, &a, &b, &c, &d) &&
	    (c & (1u << 11)))
		feat |= POW_CPU_XOP;

	if (__get_cpuid_max(0, 0) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if ((feat & POW_CPU_AVX) && (b & (1u << 5)))
			feat |= POW_CPU_AVX2;
		if (b & (1u << 3))
			feat |= POW_CPU_BMI1;
		if (b & (1u << 8))
			feat |= POW_CPU_BMI2;
		/* AVX-512F (bit 16) with opmask and both ZMM states saved
		 * (XCR0 bits 5, 6, 7); VL (bit 31) and BW (bit 30) on top. */
		if ((feat & POW_CPU_AVX) && (b & (1u << 16)) &&
		    (xcr0 & 0xe6) == 0xe6) {
			feat |= POW_CPU_AVX512F;
			if (b & (1u << 31))
				feat |= POW_CPU_AVX512VL;
			if (b & (1u << 30))
				feat |= POW_CPU_AVX512BW;
		}
		/* SHA (bit 29): XMM registers only, no OS state needed. */
		if ((b & (1u << 29)) && (feat & POW_CPU_SSE2) && sse41_ssse3)
			feat |= POW_CPU_SHANI;
		/* VAES (ECX bit 9) on YMM: needs AVX2's state. */
		if ((c & (1u << 9)) && (feat & POW_CPU_AVX2) &&
		    (feat & POW_CPU_AES))
			feat |= POW_CPU_VAES;
	}
	return feat;
}
#elif defined(__aarch64__)
/* aarch64 always has Advanced SIMD. */
static unsigned detect(void)
{
	return POW_CPU_NEON;
}
#elif defined(__arm__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1 << 12)	/* Linux's HWCAP_NEON */
#endif

/* 32-bit ARM may lack NEON; the kernel says. */
static unsigned detect(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_ARM_NEON) ? POW_CPU_NEON : 0;
}
#else
static unsigned detect(void)
{
	return 0;
}
#endif

/* The bits, with KNOWN set once they have been found. */
#define KNOWN (1u << 31)
static unsigned cached;

/*
 * Two threads may both detect on the first call; they find the same bits,
 * so either store is right, and no lock is needed.
 */
unsigned pow_cpu_features(void)
{
	unsigned feat = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (!(feat & KNOWN)) {
		feat = detect() | KNOWN;
		__atomic_store_n(&cached, feat, __ATOMIC_RELAXED);
	}
	return feat & ~KNOWN;
}
