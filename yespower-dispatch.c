/*
 * yespower-dispatch.c: choose the mixing core and the SHA-256 compression
 * function for the CPU we run on, check them, and let the caller choose
 * others.
 *
 * This file is compiled with no instruction-set flags; what the CPU runs
 * comes from cpu-features.c.
 *
 * The choice is made once, on first use (pthread_once): the best of each
 * kind this CPU runs, unless the environment variable YESPOWER_IMPL names
 * others; yespower_set_impl() changes it later.  An implementation is used
 * only after it has given the right answer on a known-answer self-test
 * here; one that fails is reported once on stderr and the portable one is
 * used instead.
 *
 * The names (YESPOWER_IMPL and yespower_set_impl()).  A spec is a list of
 * items separated by commas:
 *     core=NAME    the mixing core: portable, sse2, avx, xop, avx512vl
 *                  (native in a `make native` build) or auto
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

#if defined(__x86_64__) || defined(__i386__)
#define X86 1
#else
#define X86 0
#endif

/* Mixing cores, best first; the portable core comes last, always. */
static const struct {
	const yespower_core_t *core;
	unsigned need;
} cores[] = {
#if defined(YESPOWER_NATIVE)
	/* Built for the build machine (-march=native): trusted blindly. */
	{ &yespower_core_native, 0 },
#elif X86
#ifndef YESPOWER_NO_AVX512
	{ &yespower_core_avx512vl,
	    POW_CPU_SSE2 | POW_CPU_AVX | POW_CPU_AVX512VL },
#endif
#ifndef YESPOWER_NO_XOP
	{ &yespower_core_xop, POW_CPU_SSE2 | POW_CPU_AVX | POW_CPU_XOP },
#endif
#ifndef YESPOWER_NO_AVX
	{ &yespower_core_avx, POW_CPU_SSE2 | POW_CPU_AVX },
#endif
#ifndef YESPOWER_NO_SSE2
	{ &yespower_core_sse2, POW_CPU_SSE2 },
#endif
#elif defined(YESPOWER_HAVE_NEON_CORE)
	{ &yespower_core_neon, POW_CPU_NEON },
#endif
	{ &yespower_core_portable, 0 },
};

/* SHA-256 compression functions, best first; portable last, always. */
static const struct {
	const char *name;
	yespower_sha256_blocks_fn *blocks;
	unsigned need;
} shas[] = {
#if X86 && !defined(YESPOWER_NO_SHANI)
	{ "shani", yespower_sha256_blocks_shani, POW_CPU_SHANI },
#endif
	{ "portable", yespower_sha256_blocks_portable, 0 },
};

#define NCORES (sizeof(cores) / sizeof(cores[0]))
#define NSHAS (sizeof(shas) / sizeof(shas[0]))
#define PORTABLE_CORE (NCORES - 1)
#define PORTABLE_SHA (NSHAS - 1)
#define AUTO ((size_t)-1)

/* What the first use finds out, before anything else is read. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned features;
static char names[NCORES][NSHAS][32];	/* "avx512vl+shani" */

/* The core in use; the SHA-256 function in use is sha256.c's. */
static const yespower_core_t *selected;

/* Self-test results: 0 not run yet, 1 passed, -1 failed. */
static int core_status[NCORES], sha_status[NSHAS];

static int core_runs_here(size_t i)
{
	return (features & cores[i].need) == cores[i].need;
}

static int sha_runs_here(size_t i)
{
	return (features & shas[i].need) == shas[i].need;
}

/* ---- self-tests ---- */

/*
 * Record a self-test's result; the thread that records a failure reports
 * it, so it is reported once.  Return ok.
 */
static int record(int *status, int ok, const char *what, const char *name,
    int portable)
{
	int untested = 0;

	if (__atomic_compare_exchange_n(status, &untested, ok ? 1 : -1, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED) && !ok)
		fprintf(stderr, "libyespower: the %s %s failed its known-answer "
		    "self-test; %s\n", name, what, portable ?
		    "this build of the library computes wrong hashes" :
		    "it will not be used");
	return ok;
}

/*
 * SHA-256 of "abc" (one block) and of the 56-byte message of FIPS 180-2's
 * second example (two blocks, in one call), both at an odd address, as
 * state words.
 */
static int sha_known_answers(yespower_sha256_blocks_fn *blocks)
{
	static const uint32_t H0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};
	static const uint32_t abc[8] = {
		0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
		0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad
	};
	static const uint32_t two[8] = {
		0x248d6a61, 0xd20638b8, 0xe5c02693, 0x0c3e6039,
		0xa33ce459, 0x64ff2167, 0xf6ecedd4, 0x19db06c1
	};
	static const char msg2[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	uint8_t buf[1 + 128];
	uint8_t *block = buf + 1;
	uint32_t state[8];
	int ok;

	memset(buf, 0, sizeof(buf));
	memcpy(block, "abc", 3);
	block[3] = 0x80;
	block[63] = 3 * 8;
	memcpy(state, H0, sizeof(state));
	blocks(state, block, 1);
	ok = !memcmp(state, abc, sizeof(state));

	memset(buf, 0, sizeof(buf));
	memcpy(block, msg2, 56);
	block[56] = 0x80;
	block[126] = (56 * 8) >> 8;
	block[127] = (56 * 8) & 0xff;
	memcpy(state, H0, sizeof(state));
	blocks(state, block, 2);
	ok &= !memcmp(state, two, sizeof(state));
	return ok;
}

static int sha_self_test(size_t i)
{
	int status = __atomic_load_n(&sha_status[i], __ATOMIC_RELAXED);

	if (status)
		return status > 0;
	return record(&sha_status[i], sha_known_answers(shas[i].blocks),
	    "SHA-256 compression function", shas[i].name, i == PORTABLE_SHA);
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
	if (yespower_region_alloc(&region, KAT_REGION))
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
	yespower_region_free(&region);
	return ok;
}

static int core_self_test(size_t i)
{
	int status = __atomic_load_n(&core_status[i], __ATOMIC_RELAXED);

	if (status)
		return status > 0;
	status = core_known_answers(cores[i].core);
	if (status < 0) {
		/* Not recorded: the next choice tries again. */
		fprintf(stderr, "libyespower: no memory for the self-test of "
		    "the %s core; not using it for now\n",
		    cores[i].core->name);
		return 0;
	}
	return record(&core_status[i], status, "mixing core",
	    cores[i].core->name, i == PORTABLE_CORE);
}

/* ---- choosing ---- */

static size_t best_core(void)
{
	size_t i;

	for (i = 0; i < NCORES; i++)
		if (core_runs_here(i))
			break;
	return i < NCORES ? i : PORTABLE_CORE;
}

static size_t best_sha(void)
{
	size_t i;

	for (i = 0; i < NSHAS; i++)
		if (sha_runs_here(i))
			break;
	return i < NSHAS ? i : PORTABLE_SHA;
}

/*
 * Install core i and SHA-256 function j (AUTO: the best), each after its
 * self-test, or the portable one if that fails.  SHA-256 first: the
 * core's self-test hashes its output.
 */
static void install(size_t i, size_t j)
{
	if (j == AUTO)
		j = best_sha();
	if (!sha_self_test(j))
		j = PORTABLE_SHA;
	yespower_sha256_use(shas[j].blocks);

	if (i == AUTO)
		i = best_core();
	if (!core_self_test(i))
		i = PORTABLE_CORE;
	__atomic_store_n(&selected, cores[i].core, __ATOMIC_RELEASE);
}

/* ---- parsing a spec ---- */

static int name_is(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(s, name, n);
}

/*
 * find_in(s, n, kind, &index): look up the n-character name s among the
 * cores (kind 0) or the SHA-256 functions (kind 1).  0 and the index
 * (AUTO for "auto"), or an errno value: EINVAL (no such name in this
 * build), ENOTSUP (this CPU cannot run it).
 */
static int find_in(const char *s, size_t n, int kind, size_t *index)
{
	size_t i, count = kind ? NSHAS : NCORES;

	if (name_is(s, n, "auto")) {
		*index = AUTO;
		return 0;
	}
	for (i = 0; i < count; i++) {
		if (!name_is(s, n, kind ? shas[i].name : cores[i].core->name))
			continue;
		if (!(kind ? sha_runs_here(i) : core_runs_here(i)))
			return ENOTSUP;
		*index = i;
		return 0;
	}
	return EINVAL;
}

/*
 * parse_item(s, n, choice): apply one item of a spec (n characters at s)
 * to choice[0] (core) and choice[1] (SHA-256), which hold AUTO or an index
 * and, in seen[], whether a part was named already.  0, or an errno value
 * as find_in's (EINVAL also for a malformed item or a part named twice).
 */
static int parse_item(const char *s, size_t n, size_t choice[2], int seen[2])
{
	const char *plus = memchr(s, '+', n);
	int kind = 0, err;

	if (plus) {	/* CORE+SHA */
		size_t m = (size_t)(plus - s);

		if (seen[0] || seen[1])
			return EINVAL;
		seen[0] = seen[1] = 1;
		err = find_in(s, m, 0, &choice[0]);
		return err ? err : find_in(plus + 1, n - m - 1, 1, &choice[1]);
	}
	if (n > 7 && !memcmp(s, "sha256=", 7)) {
		s += 7;
		n -= 7;
		kind = 1;
	} else if (n > 5 && !memcmp(s, "core=", 5)) {
		s += 5;
		n -= 5;
	}
	if (seen[kind])
		return EINVAL;
	seen[kind] = 1;
	return find_in(s, n, kind, &choice[kind]);
}

/*
 * parse(spec, choice, bad, badlen): choice[] as parse_item's, all AUTO to
 * begin with.  With bad == NULL, stop at the first bad item and return its
 * error; otherwise skip bad items (their part stays AUTO) and return the
 * first error, with the first bad item copied to bad.
 */
static int parse(const char *spec, size_t choice[2], char *bad,
    size_t badlen)
{
	int seen[2] = { 0, 0 }, first = 0;

	choice[0] = choice[1] = AUTO;
	for (;;) {
		size_t n = strcspn(spec, ","), saved[2];
		int err;

		saved[0] = choice[0];
		saved[1] = choice[1];
		err = n ? parse_item(spec, n, choice, seen) : EINVAL;
		if (err) {
			if (!bad)
				return err;
			choice[0] = saved[0];
			choice[1] = saved[1];
			if (!first) {
				first = err;
				snprintf(bad, badlen, "%.*s", (int)n, spec);
			}
		}
		if (!spec[n])
			return first;
		spec += n + 1;
	}
}

/* ---- first use ---- */

static void first_use(void)
{
	const char *env = getenv("YESPOWER_IMPL");
	size_t i, j, choice[2] = { AUTO, AUTO };
	char bad[64];
	int err = 0;

	features = pow_cpu_features();
	for (i = 0; i < NCORES; i++)
		for (j = 0; j < NSHAS; j++)
			snprintf(names[i][j], sizeof(names[i][j]), "%s+%s",
			    cores[i].core->name, shas[j].name);

	if (env && *env)
		err = parse(env, choice, bad, sizeof(bad));
	install(choice[0], choice[1]);
	/*
	 * A name we cannot honour is reported and that part is chosen
	 * automatically: a typo must not stop a miner or a node, but it must
	 * not pass unnoticed either.
	 */
	if (err)
		fprintf(stderr, "libyespower: YESPOWER_IMPL=%s: %s: %s; "
		    "using %s\n", env, bad, err == ENOTSUP ?
		    "this CPU cannot run it" : "no such implementation",
		    yespower_impl_name());
}

static void ensure_chosen(void)
{
	pthread_once(&once, first_use);
}

const yespower_core_t *yespower_select_core(void)
{
	const yespower_core_t *core = __atomic_load_n(&selected,
	    __ATOMIC_ACQUIRE);

	if (!core) {
		ensure_chosen();
		core = __atomic_load_n(&selected, __ATOMIC_ACQUIRE);
	}
	return core;
}

/*
 * The spec is checked whole before anything changes; a named part that
 * fails its self-test gives EIO.
 */
int yespower_set_impl(const char *name)
{
	size_t choice[2] = { AUTO, AUTO };
	int err;

	ensure_chosen();
	if (name) {
		err = parse(name, choice, NULL, 0);
		if (!err && choice[1] != AUTO && !sha_self_test(choice[1]))
			err = EIO;
		if (!err && choice[0] != AUTO && !core_self_test(choice[0]))
			err = EIO;
		if (err) {
			errno = err;
			return -1;
		}
	}
	install(choice[0], choice[1]);
	return 0;
}

const char *yespower_impl_name(void)
{
	const yespower_core_t *core = yespower_select_core();
	yespower_sha256_blocks_fn *blocks = yespower_sha256_in_use();
	size_t i, j;

	for (i = 0; i < NCORES && cores[i].core != core; i++)
		;
	for (j = 0; j < NSHAS && shas[j].blocks != blocks; j++)
		;
	if (i == NCORES || j == NSHAS)	/* cannot happen */
		return core->name;
	return names[i][j];
}
