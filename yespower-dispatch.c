/*
 * yespower-dispatch.c: choose the mixing core for the CPU we run on, check
 * it, and let the caller choose others.  The SHA-256 compression function
 * is sha256.c's to choose; a spec's sha256=NAME is passed on to it.
 *
 * This file is compiled with no instruction-set flags; what the CPU runs
 * comes from cpu-features.c.
 *
 * The choice is made once, on first use (pthread_once): the best core
 * this CPU runs, unless the environment variable YESPOWER_IMPL names
 * another; yespower_set_impl() changes it later.  A core is used only
 * after it has given the right answer on a known-answer self-test here;
 * one that fails is reported once on stderr and the portable one is used
 * instead.  sha256.c does the same for its compression functions, on its
 * own first use (which may come earlier, from the hashing API): a
 * sha256=NAME here replaces its choice from then on.
 *
 * The names (YESPOWER_IMPL and yespower_set_impl()).  A spec is a list of
 * items separated by commas:
 *     core=NAME    the mixing core: portable, sse2, avx, avx2, xop, avx512vl
 *                  (native in a `make native` build) or auto; on x86-64
 *                  also each SIMD core's twin NAME-plain (see below)
 *     NAME         the same as core=NAME
 *     sha256=NAME  the SHA-256 compression function: portable, shani or
 *                  auto
 *     CORE+SHA     both at once, as yespower_impl_name() writes them
 *                  (e.g. "avx512vl+shani")
 * Each part may be named once; a part not named is chosen automatically.
 * So "sse2,sha256=portable" fixes both, "sha256=portable" only SHA-256.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "yespower-impl.h"

#include "cpu-features.h"
#include "impl-spec.h"

#if defined(__x86_64__) || defined(__i386__)
#define X86 1
#else
#define X86 0
#endif

/*
 * Every mixing core of this build in one table, best first, the portable
 * core last.  need is the POW_CPU_* bits it runs with.  The SHA-256
 * compression functions are sha256.c's (yespower_sha256_impl_at()).
 */
enum { KIND_CORE, KIND_SHA };

/*
 * A SIMD core on x86-64 comes in two builds (yespower-opt.c): with the
 * general-register shadow of one hash's pwxform (HAS_TWIN) and without it
 * ("NAME-plain", IS_TWIN).  Batches run the same code in both.  The
 * automatic choice takes the shadow on AMD's cores, where one hash ran
 * 1.04 to 1.12 times as fast with it on a Zen 4 and 1.25 to 1.33 on a
 * Zen 5 (figures reported when the shadow was written, not measured in
 * these sessions), and the plain twin on Intel's, where the shadow's
 * extra instructions compete with the vector code for issue slots: on a
 * Xeon of family 6 model 167 (doc/yespower.md, Intel Xeon)
 * the plain build was level while the host was quiet and 1.06 to 1.4
 * times as fast while it was busy.
 */
enum { NO_TWIN, HAS_TWIN, IS_TWIN };

/* A core's entry, and its plain twin's after it where it has one. */
#if defined(YESPOWER_HAVE_PLAIN)
#define CORE(name, need) \
	{ #name, need, &yespower_core_##name, HAS_TWIN }, \
	{ #name "-plain", need, &yespower_core_##name##_plain, IS_TWIN },
#else
#define CORE(name, need) \
	{ #name, need, &yespower_core_##name, NO_TWIN },
#endif

static const struct impl {
	const char *name;		/* as yespower_impl_at() gives it */
	unsigned need;
	const yespower_core_t *core;
	int twin;			/* NO_TWIN, HAS_TWIN, IS_TWIN */
} impls[] = {
#if defined(YESPOWER_NATIVE)
	/* Built for the build machine (-march=native): trusted blindly. */
	{ "native", 0, &yespower_core_native, NO_TWIN },
#elif X86
#ifndef YESPOWER_NO_AVX512
	CORE(avx512vl, POW_CPU_SSE2 | POW_CPU_AVX | POW_CPU_AVX512VL |
	    POW_CPU_BMI1 | POW_CPU_BMI2)
#endif
#ifndef YESPOWER_NO_XOP
	CORE(xop, POW_CPU_SSE2 | POW_CPU_AVX | POW_CPU_XOP)
#endif
#ifndef YESPOWER_NO_AVX2
	CORE(avx2, POW_CPU_SSE2 | POW_CPU_AVX | POW_CPU_AVX2 | POW_CPU_BMI1 |
	    POW_CPU_BMI2)
#endif
#ifndef YESPOWER_NO_AVX
	CORE(avx, POW_CPU_SSE2 | POW_CPU_AVX)
#endif
#ifndef YESPOWER_NO_SSE2
	CORE(sse2, POW_CPU_SSE2)
#endif
#elif defined(YESPOWER_HAVE_NEON_CORE)
	CORE(neon, POW_CPU_NEON)
#endif
	{ "portable", 0, &yespower_core_portable, NO_TWIN },
};

#define NIMPLS (sizeof(impls) / sizeof(impls[0]))
#define PORTABLE (NIMPLS - 1)
#define AUTO IMPL_SPEC_AUTO

/* What the first use finds out, before anything else is read. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned features;

/* The core in use, as an index into impls[]. */
static size_t in_use = AUTO;

/*
 * What the caller (or YESPOWER_IMPL) last asked for, and whether a
 * self-test of it could not run for want of memory: then the portable
 * implementation stands in, and the next hash tries again.
 */
static size_t wanted[2] = { AUTO, AUTO };
static int retry;
static pthread_mutex_t retry_lock = PTHREAD_MUTEX_INITIALIZER;

/* Self-test results: 0 not run yet, 1 passed, -1 failed; and whether a
 * test's want of memory was reported. */
static int status[NIMPLS], nomem_said[NIMPLS];

static int runs_here(size_t i)
{
	return (features & impls[i].need) == impls[i].need;
}

/* ---- self-tests ---- */

/*
 * Record a self-test's result; the thread that records a failure reports
 * it, so it is reported once.  Return ok.
 */
static int record(int *status, int ok, const char *name, int portable)
{
	int untested = 0;

	if (__atomic_compare_exchange_n(status, &untested, ok ? 1 : -1, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED) && !ok)
		fprintf(stderr, "libyespower: the %s mixing core failed its "
		    "known-answer self-test; %s\n", name, portable ?
		    "this build of the library computes wrong hashes" :
		    "it will not be used");
	return ok;
}

/*
 * The mixing core's known answers: SMix from a fixed block with r = 8 and
 * N = 1024, the smallest parameters yespower allows, once as yespower 1.0
 * and once as 0.5 (Salsa20/2 or /8, 3 or 2 S-boxes, different pwxform
 * rounds).  The answers are SHA-256 digests of the output block, as the
 * portable core computes them; every core agrees, and `make check` ties
 * the cores to the published hashes.  The cost, once per core per process:
 * 2 MiB of memory for a moment, and on this project's test machine (AMD
 * EPYC, Zen 5, shared) 1.2 to 1.5 ms of CPU time, about 0.4 of a hash with
 * the usual parameters (1.0, N = 2048, r = 32): worth it for a result that
 * is then trusted for the life of the process.  One hash at a time is the
 * path a node takes to check a block; the interleaved paths of the batch
 * functions are the same instructions in another order, and `make check`
 * runs them.
 */
#define KAT_R 8
#define KAT_N 1024
#define KAT_B (128 * KAT_R)
#define KAT_V ((size_t)KAT_B * KAT_N)
#define KAT_XY (256 * KAT_R)
#define KAT_S YESPOWER_SBYTES_1_0
#define KAT_REGION ((size_t)2 << 20)
typedef char kat_region_is_large_enough[
    KAT_V + KAT_XY + KAT_S + KAT_B <= KAT_REGION ? 1 : -1];

static const struct {
	yespower_version_t version;
	uint8_t digest[32];
} core_kats[] = {
	{ YESPOWER_1_0, {
	    0x1f, 0x94, 0xd8, 0x67, 0x70, 0xe7, 0xbf, 0x40,
	    0xcb, 0x32, 0x62, 0x74, 0x60, 0xac, 0x96, 0x96,
	    0xc3, 0xc1, 0xfe, 0x36, 0xd1, 0x2c, 0xfc, 0x85,
	    0x65, 0xb0, 0xc5, 0x4c, 0x2d, 0x17, 0x11, 0x55 } },
	{ YESPOWER_0_5, {
	    0xc6, 0x7f, 0x71, 0x49, 0x85, 0x80, 0xdb, 0xf9,
	    0x9a, 0x27, 0x2d, 0xee, 0xfe, 0xa2, 0x15, 0x4e,
	    0x2b, 0x39, 0x83, 0xd2, 0x77, 0x90, 0xd8, 0xd3,
	    0x75, 0x7e, 0xb0, 0x05, 0xa2, 0x08, 0x08, 0xf4 } },
};

/* 1 passed, 0 failed, -1 no memory to run the test. */
static int core_known_answers(const yespower_core_t *core)
{
	yespower_region_t region;
	uint8_t *B[1], digest[32];
	void *V[1], *XY[1], *S[1];
	size_t i, j;
	int ok = 1;

	/* 2 MiB, not the 1.1 MiB needed: a region that large gets a huge
	 * page (see yespower-platform.c), one page fault instead of 280,
	 * which in a virtual machine saves milliseconds. */
	if (pow_region_alloc(&region, KAT_REGION))
		return -1;
	V[0] = region.aligned;
	XY[0] = (uint8_t *)V[0] + KAT_V;
	S[0] = (uint8_t *)XY[0] + KAT_XY;
	B[0] = (uint8_t *)S[0] + KAT_S;
	for (i = 0; i < sizeof(core_kats) / sizeof(core_kats[0]); i++) {
		for (j = 0; j < KAT_B; j++)
			B[0][j] = (uint8_t)(j * 13 + 7);
		core->smix(1, B, KAT_R, KAT_N, core_kats[i].version, V, XY, S);
		sha256_buf(B[0], KAT_B, digest);
		ok &= !memcmp(digest, core_kats[i].digest, sizeof(digest));
	}
	pow_region_free(&region);
	return ok;
}

/*
 * self_test(i): 1 if core i gave the known answers (now or before), 0 if
 * it did not, -1 if there was no memory to run the test (not recorded: a
 * later choice tries again).
 */
static int self_test(size_t i)
{
	const struct impl *im = &impls[i];
	int st = __atomic_load_n(&status[i], __ATOMIC_RELAXED);

	if (st)
		return st > 0;
	st = core_known_answers(im->core);
	if (st < 0) {
		/* Said once: later hashes try again, silently. */
		if (!__atomic_exchange_n(&nomem_said[i], 1, __ATOMIC_RELAXED))
			fprintf(stderr, "libyespower: no memory for the "
			    "self-test of the %s core; using the portable "
			    "core until there is\n", im->name);
		return -1;
	}
	return record(&status[i], st, im->name, i == PORTABLE);
}

/* ---- choosing ---- */

/*
 * The best core this CPU runs: the first in the table, and of a core and
 * its twin the one for this CPU's vendor.
 */
static size_t best(void)
{
	int other = features & POW_CPU_INTEL ? HAS_TWIN : IS_TWIN;
	size_t i;

	for (i = 0; i < NIMPLS; i++)
		if (runs_here(i) && impls[i].twin != other)
			return i;
	return PORTABLE;
}

/*
 * Pass SHA-256 function choice[1] on to sha256.c (AUTO: its best), then
 * install core choice[0] (AUTO: the best) after its self-test, or the
 * portable one if that fails, or (for now: retry is set) if it found no
 * memory.  SHA-256 first: the core's self-test hashes its output.  Called
 * at first use, then with retry_lock held.
 */
static void install(const size_t choice[2])
{
	size_t i = choice[KIND_CORE] == AUTO ? best() : choice[KIND_CORE];
	int st;

	wanted[0] = choice[0];
	wanted[1] = choice[1];
	yespower_sha256_choose(choice[KIND_SHA]);
	st = self_test(i);
	if (st != 1)
		i = PORTABLE;
	__atomic_store_n(&in_use, i, __ATOMIC_RELEASE);
	__atomic_store_n(&retry, st < 0, __ATOMIC_RELEASE);
}

/* ---- parsing a spec ---- */

/*
 * A name among the implementations of a kind (impl-spec.h's find): 0 and
 * its index, or EINVAL (not in this build), ENOTSUP (not on this CPU).
 * SHA-256's names are sha256.c's.
 */
static int find_in(const void *ctx, int kind, const char *s, size_t n,
    size_t *index)
{
	size_t i;

	(void)ctx;
	if (kind == KIND_SHA)
		return yespower_sha256_find(s, n, index);
	for (i = 0; i < NIMPLS; i++) {
		if (strlen(impls[i].name) != n || memcmp(s, impls[i].name, n))
			continue;
		if (!runs_here(i))
			return ENOTSUP;
		*index = i;
		return 0;
	}
	return EINVAL;
}

/* "core=NAME" (or "NAME"), "sha256=NAME", or "CORE+SHA256". */
static const impl_spec_grammar grammar = {
	{ "core", "sha256" }, 1, 1, 0, find_in, NULL
};

static int parse(const char *spec, size_t choice[2], char *bad,
    size_t badlen)
{
	return impl_spec_parse(&grammar, spec, choice, bad, badlen);
}

/* ---- first use ---- */

/* "core+sha" for every pair, filled on first use: yespower_impl_name(). */
static char names[NIMPLS][YESPOWER_SHA256_IMPLS_MAX][32];

/* The name of what is installed now. */
static const char *current_name(void)
{
	return names[__atomic_load_n(&in_use, __ATOMIC_ACQUIRE)]
	    [yespower_sha256_chosen()];
}

static void first_use(void)
{
	const char *env = getenv("YESPOWER_IMPL");
	size_t i, j, choice[2] = { AUTO, AUTO };
	char bad[64];
	int err = 0;

	features = pow_cpu_features();
	for (i = 0; i < NIMPLS; i++)
		for (j = 0; yespower_sha256_impl_at(j); j++)
			snprintf(names[i][j], sizeof(names[i][j]), "%s+%s",
			    impls[i].name, strchr(yespower_sha256_impl_at(j),
			    '=') + 1);

	if (env && *env)
		err = parse(env, choice, bad, sizeof(bad));
	install(choice);
	/*
	 * A name we cannot honour is reported and that part is chosen
	 * automatically: a typo must not stop a miner or a node, but it must
	 * not pass unnoticed either.
	 */
	if (err)
		fprintf(stderr, "libyespower: YESPOWER_IMPL=%s: %s: %s; "
		    "using %s\n", env, bad, err == ENOTSUP ?
		    "this CPU cannot run it" : "no such implementation",
		    current_name());
}

static void ensure_chosen(void)
{
	pthread_once(&once, first_use);
}

/* After a self-test found no memory: try the choice again, once at a time. */
static void retry_install(void)
{
	pthread_mutex_lock(&retry_lock);
	if (__atomic_load_n(&retry, __ATOMIC_ACQUIRE))
		install(wanted);
	pthread_mutex_unlock(&retry_lock);
}

const yespower_core_t *yespower_select_core(void)
{
	ensure_chosen();
	if (__atomic_load_n(&retry, __ATOMIC_RELAXED))
		retry_install();
	return impls[__atomic_load_n(&in_use, __ATOMIC_ACQUIRE)].core;
}

/*
 * The spec is checked whole before anything changes: a named part that
 * fails its self-test gives EIO, one whose self-test finds no memory
 * ENOMEM.
 */
int yespower_set_impl(const char *name)
{
	size_t choice[2] = { AUTO, AUTO };
	int kind, err = 0;

	ensure_chosen();
	if (name)
		err = parse(name, choice, NULL, 0);
	for (kind = KIND_SHA; kind >= KIND_CORE && !err; kind--) {
		int st = choice[kind] == AUTO ? 1 : kind == KIND_SHA ?
		    yespower_sha256_self_test(choice[kind]) :
		    self_test(choice[kind]);

		if (st != 1)
			err = st < 0 ? ENOMEM : EIO;
	}
	if (err) {
		errno = err;
		return -1;
	}
	pthread_mutex_lock(&retry_lock);
	install(choice);
	pthread_mutex_unlock(&retry_lock);
	return 0;
}

const char *yespower_impl_name(void)
{
	yespower_select_core();
	return current_name();
}

/* The cores, then sha256.c's names ("sha256=shani"). */
const char *yespower_impl_at(size_t i)
{
	return i < NIMPLS ? impls[i].name : yespower_sha256_impl_at(i - NIMPLS);
}
