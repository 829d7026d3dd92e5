/*
 * cpu.c: RandomX's implementation choices from the CPU (see cpu.h).
 */
#include "randomx/cpu.h"
#include "randomx/jit.h"

#ifdef RX_X86_ISAS
#define X86 1
#else
#define X86 0
#endif
#ifdef RX_A64_ISAS
#include <sys/auxv.h>
#ifndef HWCAP_AES
#define HWCAP_AES (1 << 3)	/* Linux's arm64 hwcap for AESE/AESD */
#endif
#define A64 1
#else
#define A64 0
#endif

/*
 * Each choice: the features it needs, whether this build has its code,
 * and whether tests may withhold it (the JIT's, rx_jit_limit_features).
 */
static const struct {
	unsigned need;
	unsigned char built, jit;
} uses[RX_USE_COUNT] = {
	[RX_USE_AESNI] = { POW_CPU_AES, X86, 0 },
	[RX_USE_ARMV8_AES] = { 0, A64, 0 },	/* asked of the kernel, below */
	[RX_USE_ARGON2_SSSE3] = { POW_CPU_SSSE3, X86, 0 },
	[RX_USE_ARGON2_AVX2] = { POW_CPU_AVX2, X86, 0 },
	[RX_USE_ARGON2_AVX512] = { POW_CPU_AVX512F, X86, 0 },
	[RX_USE_JIT_MULX] = { POW_CPU_BMI2, RX_JIT_X86_64, 1 },
	[RX_USE_JIT_SS_AVX2] = { POW_CPU_AVX2, RX_JIT_X86_64, 1 },
	[RX_USE_JIT_ROUNDING_COPIES] = { POW_CPU_AVX512F, RX_JIT_X86_64, 1 },
};

static unsigned jit_mask = ~0u;

unsigned rx_jit_features(void)
{
	return pow_cpu_features() & jit_mask &
	    (POW_CPU_BMI2 | POW_CPU_AVX2 | POW_CPU_AVX512F);
}

void rx_jit_limit_features(unsigned mask)
{
	jit_mask = mask;
}

int rx_cpu_uses(rx_cpu_use u)
{
	unsigned have;

	if ((unsigned)u >= RX_USE_COUNT || !uses[u].built)
		return 0;
#ifdef RX_A64_ISAS
	if (u == RX_USE_ARMV8_AES)
		return (getauxval(AT_HWCAP) & HWCAP_AES) != 0;
#endif
	have = uses[u].jit ? rx_jit_features() : pow_cpu_features();
	if ((have & uses[u].need) != uses[u].need)
		return 0;
	/*
	 * The rounding copies were measured on AMD's AVX-512 cores only
	 * (Intel's run 512-bit operations differently).
	 */
	if (u == RX_USE_JIT_ROUNDING_COPIES)
		return !(pow_cpu_features() & POW_CPU_INTEL);
	return 1;
}

#if RX_HAVE_JIT
/*
 * v1 only: v2 changes the mode once in 16 CFROUNDs and gained nothing
 * from the copies.
 */
int rx_jit_rounding_copies(int v2)
{
	return !v2 && rx_cpu_uses(RX_USE_JIT_ROUNDING_COPIES);
}
#endif
