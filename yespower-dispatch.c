/*
 * yespower-dispatch.c: choose the mixing core for the CPU we run on.
 *
 * This file is compiled with no instruction-set flags.  On x86 it asks the
 * CPU (cpuid) what it implements and the OS (xgetbv) which register state
 * it saves on context switches: AVX needs the YMM state enabled, AVX-512 the
 * opmask and ZMM states too, or the instructions fault.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yespower-impl.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

enum {
	CPU_SSE2 = 1 << 0,
	CPU_AVX = 1 << 1,
	CPU_XOP = 1 << 2,
	CPU_AVX512VL = 1 << 3
};

static unsigned long long read_xcr0(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}

static unsigned cpu_features(void)
{
	unsigned int a, b, c, d, max, feat = 0;
	unsigned long long xcr0 = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	if (d & (1u << 26))
		feat |= CPU_SSE2;
	/* OSXSAVE: the OS uses XSAVE, so xgetbv tells what it saves. */
	if (c & (1u << 27))
		xcr0 = read_xcr0();
	/* AVX needs SSE and YMM state saved (XCR0 bits 1, 2). */
	if ((c & (1u << 28)) && (xcr0 & 0x6) == 0x6)
		feat |= CPU_AVX;

	if ((feat & CPU_AVX) && __get_cpuid(0x80000001, &a, &b, &c, &d) &&
	    (c & (1u << 11)))
		feat |= CPU_XOP;

	/* AVX-512F (7.0 ebx bit 16) and VL (bit 31), with opmask and both
	 * ZMM states saved (XCR0 bits 5, 6, 7). */
	max = __get_cpuid_max(0, NULL);
	if ((feat & CPU_AVX) && max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if ((b & (1u << 16)) && (b & (1u << 31)) &&
		    (xcr0 & 0xe6) == 0xe6)
			feat |= CPU_AVX512VL;
	}
	return feat;
}

/* Best first. */
static const struct {
	const yespower_core_t *core;
	unsigned need;
} cores[] = {
	{ &yespower_core_avx512vl, CPU_SSE2 | CPU_AVX | CPU_AVX512VL },
	{ &yespower_core_xop, CPU_SSE2 | CPU_AVX | CPU_XOP },
	{ &yespower_core_avx, CPU_SSE2 | CPU_AVX },
	{ &yespower_core_sse2, CPU_SSE2 },
	{ &yespower_core_portable, 0 },
};

#else

enum { CPU_NONE = 0 };

static unsigned cpu_features(void)
{
	return 0;
}

static const struct {
	const yespower_core_t *core;
	unsigned need;
} cores[] = {
	{ &yespower_core_portable, 0 },
};

#endif

#define NCORES (sizeof(cores) / sizeof(cores[0]))

static unsigned cached_features(void)
{
	static unsigned feat;	/* bit 31: detected */
	unsigned f = __atomic_load_n(&feat, __ATOMIC_RELAXED);

	if (!f) {
		f = cpu_features() | 1u << 31;
		__atomic_store_n(&feat, f, __ATOMIC_RELAXED);
	}
	return f;
}

static int core_runs_here(size_t i)
{
	return (cached_features() & cores[i].need) == cores[i].need;
}

static const yespower_core_t *best_core(void)
{
	size_t i;

	for (i = 0; i < NCORES; i++)
		if (core_runs_here(i))
			return cores[i].core;
	return &yespower_core_portable;
}

/*
 * find_core(name, &core): 0 and the core, or -1 with errno EINVAL (no such
 * core in this build) or ENOTSUP (this CPU cannot run it).  "auto" is the
 * best core for this CPU.
 */
static int find_core(const char *name, const yespower_core_t **core)
{
	size_t i;

	if (!strcmp(name, "auto")) {
		*core = best_core();
		return 0;
	}
	for (i = 0; i < NCORES; i++) {
		if (strcmp(name, cores[i].core->name))
			continue;
		if (!core_runs_here(i)) {
			errno = ENOTSUP;
			return -1;
		}
		*core = cores[i].core;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

/*
 * The core to start with: the best, unless the environment variable
 * YESPOWER_IMPL names another.  A name we cannot honour is reported once
 * on stderr and the best core is used: a typo must not stop a miner or a
 * node, but it must not pass unnoticed either.
 */
static const yespower_core_t *initial_core(void)
{
	const char *env = getenv("YESPOWER_IMPL");
	const yespower_core_t *core;

	if (!env || !*env)
		return best_core();
	if (find_core(env, &core)) {
		core = best_core();
		fprintf(stderr, "libyespower: YESPOWER_IMPL=%s: %s; using %s\n",
		    env, errno == ENOTSUP ? "this CPU cannot run it" :
		    "no such implementation", core->name);
	}
	return core;
}

/*
 * Every thread computes the same answer, so a race between two first
 * calls is harmless; the atomics only keep the pointer itself whole.
 */
static const yespower_core_t *selected;

const yespower_core_t *yespower_select_core(void)
{
	const yespower_core_t *core = __atomic_load_n(&selected,
	    __ATOMIC_ACQUIRE);

	if (!core) {
		core = initial_core();
		__atomic_store_n(&selected, core, __ATOMIC_RELEASE);
	}
	return core;
}

int yespower_set_impl(const char *name)
{
	const yespower_core_t *core;

	if (find_core(name ? name : "auto", &core))
		return -1;
	__atomic_store_n(&selected, core, __ATOMIC_RELEASE);
	return 0;
}

const char *yespower_impl_name(void)
{
	return yespower_select_core()->name;
}
