/*
 * pow-hash-dispatch.c: choose the many-at-once SHA-256 and Keccak
 * kernels (pow-hash-impl.h) for the CPU we run on, check them, and let
 * the caller choose others (pow_hash_impl_name(), pow_hash_set_impl()).
 * Compiled with no instruction-set flags; what the CPU runs comes from
 * cpu-features.c.
 *
 * As yespower-dispatch.c does for the mixing cores: the choice is made on
 * first use (pthread_once), the best kernels this CPU runs unless
 * POW_HASH_IMPL names others; a kernel set is used only after it has
 * given the right answers on a known-answer self-test, and one that fails
 * is reported once on stderr and replaced by the portable set.  The
 * streaming SHA-256 is sha256.c's, which chooses its own compression
 * function on its first use.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime, in strict C modes too */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu-features.h"
#include "impl-spec.h"
#include "pow-hash.h"
#include "pow-hash-impl.h"
#include "sha256.h"

#if defined(__x86_64__) || defined(__i386__)
#define X86 1
#else
#define X86 0
#endif

/* Best first; the portable set last, always. */
static const pow_sha256_kernels *const sha256_sets[] = {
#if X86 && !defined(POW_NO_SHANI)
	&pow_sha256_kernels_shani,
	&pow_sha256_kernels_shani_sse,
#endif
#if X86 && !defined(POW_NO_AVX512)
	&pow_sha256_kernels_avx512,
#endif
#if X86 && !defined(POW_NO_AVX2)
	&pow_sha256_kernels_avx2,
#endif
#if X86 && !defined(POW_NO_SSE2)
	&pow_sha256_kernels_sse2,
#endif
	&pow_sha256_kernels_portable,
};

static const pow_keccak_kernels *const keccak_sets[] = {
#if X86 && !defined(POW_NO_AVX512)
	&pow_keccak_kernels_avx512,
#endif
#if X86 && !defined(POW_NO_AVX2)
	&pow_keccak_kernels_avx2,
#endif
	&pow_keccak_kernels_portable,
};

#define NSHA (sizeof(sha256_sets) / sizeof(sha256_sets[0]))
#define NKECCAK (sizeof(keccak_sets) / sizeof(keccak_sets[0]))
#define AUTO IMPL_SPEC_AUTO

static pthread_once_t once = PTHREAD_ONCE_INIT;
static unsigned features;
static char names[NSHA][NKECCAK][48];	/* "sha256=shani,keccak=avx2" */

/* The sets in use: NULL until first use. */
static const pow_sha256_kernels *sha256_selected;
static const pow_keccak_kernels *keccak_selected;

/* Self-test results: 0 not run yet, 1 passed, -1 failed. */
static int sha256_status[NSHA], keccak_status[NKECCAK];

const pow_sha256_kernels *pow_sha256_kernels_at(size_t i)
{
	return i < NSHA ? sha256_sets[i] : NULL;
}

const pow_keccak_kernels *pow_keccak_kernels_at(size_t i)
{
	return i < NKECCAK ? keccak_sets[i] : NULL;
}

static int runs_here(unsigned need)
{
	return (features & need) == need;
}

/* ---- self-tests ---- */

/* Record a result once; the thread that records a failure reports it. */
static int record(int *status, int ok, const char *what, const char *name,
    int portable)
{
	int untested = 0;

	if (__atomic_compare_exchange_n(status, &untested, ok ? 1 : -1, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED) && !ok)
		fprintf(stderr, "libyespower: the %s %s kernels failed their "
		    "known-answer self-test; %s\n", name, what, portable ?
		    "this build of the library computes wrong hashes" :
		    "they will not be used");
	return ok;
}

/* Byte j of test input i: a pattern with no two inputs alike. */
static void fill(uint8_t *buf, size_t len, unsigned mul, unsigned add)
{
	size_t j;

	for (j = 0; j < len; j++)
		buf[j] = (uint8_t)(j * mul + add);
}

/*
 * The known answers are SHA-256 digests of the kernels' whole outputs,
 * computed with Python's hashlib (independent of this library): 19
 * double hashes of 64 bytes (two groups of 8 lanes and 3 more), 11
 * chains hashed 3 times, 11 SHA3-256 of 64 bytes; all at an odd
 * address, so that no alignment is assumed.
 */
static const uint8_t d64_answer[32] = {
	0x55, 0x3e, 0xf8, 0x25, 0x99, 0x74, 0xc1, 0x0f,
	0x9d, 0x72, 0x51, 0x22, 0xfe, 0x45, 0xa6, 0xb9,
	0x07, 0x59, 0x6c, 0xde, 0x38, 0x90, 0x0d, 0xea,
	0xa8, 0xc7, 0x1f, 0x95, 0xfa, 0x8a, 0xcb, 0xb6
};
static const uint8_t recursive_answer[32] = {
	0x12, 0xdd, 0xfe, 0x0f, 0x41, 0x16, 0xf1, 0x90,
	0x45, 0xdc, 0xbc, 0x22, 0x5f, 0x58, 0xd5, 0x48,
	0x5e, 0x84, 0xae, 0xbf, 0xe2, 0x62, 0x51, 0x99,
	0xf6, 0x93, 0xbe, 0x9b, 0x72, 0x98, 0xdb, 0xea
};
static const uint8_t sha3_answer[32] = {
	0xf5, 0x89, 0x26, 0x65, 0x59, 0xea, 0xcf, 0x63,
	0xe6, 0x20, 0x14, 0x9f, 0xdc, 0xa3, 0x3f, 0xa5,
	0x0e, 0xcc, 0x9c, 0xbc, 0x5a, 0x59, 0xc3, 0x24,
	0xe5, 0x0c, 0xad, 0x24, 0x5c, 0x51, 0x77, 0x90
};

static int sha256_known_answers(const pow_sha256_kernels *k)
{
	uint8_t buf[1 + 19 * 64], digest[32];
	uint8_t *in = buf + 1;
	int ok;

	/* In place, as merkle levels run. */
	fill(in, 19 * 64, 37, 11);
	k->d64(in, in, 19);
	sha256_buf(in, 19 * 32, digest);
	ok = !memcmp(digest, d64_answer, sizeof(digest));

	fill(in, 11 * 32, 53, 5);
	k->recursive(in, 11, 3);
	sha256_buf(in, 11 * 32, digest);
	ok &= !memcmp(digest, recursive_answer, sizeof(digest));
	return ok;
}

static int keccak_known_answers(const pow_keccak_kernels *k)
{
	uint8_t buf[1 + 11 * 64], digest[32];
	uint8_t *in = buf + 1;

	fill(in, 11 * 64, 29, 3);
	k->sha3_64(in, in, 11);
	sha256_buf(in, 11 * 32, digest);
	return !memcmp(digest, sha3_answer, sizeof(digest));
}

static int sha256_self_test(size_t i)
{
	int status = __atomic_load_n(&sha256_status[i], __ATOMIC_RELAXED);

	if (status)
		return status > 0;
	return record(&sha256_status[i],
	    sha256_known_answers(sha256_sets[i]), "SHA-256",
	    sha256_sets[i]->name, i == NSHA - 1);
}

static int keccak_self_test(size_t i)
{
	int status = __atomic_load_n(&keccak_status[i], __ATOMIC_RELAXED);

	if (status)
		return status > 0;
	return record(&keccak_status[i],
	    keccak_known_answers(keccak_sets[i]), "Keccak",
	    keccak_sets[i]->name, i == NKECCAK - 1);
}

/* ---- choosing ---- */

#if X86 && !defined(POW_NO_SHANI)
static size_t sha256_index(const pow_sha256_kernels *k)
{
	size_t i;

	for (i = 0; i + 1 < NSHA && sha256_sets[i] != k; i++)
		;
	return i;
}
#endif

/* The set for what a vector group would leave with idle lanes: NULL
 * (portable) until first use has self-tested SHA-NI. */
static const pow_sha256_kernels *rest_set;

const pow_sha256_kernels *pow_sha256_rest_kernels(void)
{
	const pow_sha256_kernels *k = __atomic_load_n(&rest_set,
	    __ATOMIC_ACQUIRE);

	return k ? k : &pow_sha256_kernels_portable;
}

#if X86 && !defined(POW_NO_SHANI) && !defined(POW_NO_AVX512)
static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The fastest of 5 runs of set k's SHA256D64 on 64 inputs, about 5 to 10
 * us each. */
static double d64_time(const pow_sha256_kernels *k, uint8_t *buf)
{
	double best = 1e9, t;
	int run;

	for (run = 0; run < 5; run++) {
		t = seconds();
		k->d64(buf, buf, 64);
		t = seconds() - t;
		if (t < best)
			best = t;
	}
	return best;
}

/*
 * Which of SHA-NI's streams and AVX-512's 16 lanes hashes many messages
 * faster depends on the core, not on the instruction sets: on an Intel
 * Xeon of the Sapphire Rapids class the 16 lanes ran SHA256D64 1.5 times
 * as fast as 4 SHA-NI streams (doc/hashes.md, Intel Xeon), where an AMD core
 * with SHA-NI at one SHA256RNDS2 a cycle is expected to favour SHA-NI.
 * So where both run (and pass their self-tests) they are timed once, side
 * by side, at first use; the faster is the automatic choice.  Either way
 * one message, and the few a group would leave idle lanes for, go through
 * SHA-NI (pow_sha256_rest_kernels).
 */
static size_t faster_of_shani_avx512(size_t shani)
{
	/* The first answer stands (0: not timed yet; else index + 1), so
	 * that a later pow_hash_set_impl("auto") gets the same choice. */
	static size_t timed;
	size_t avx = sha256_index(&pow_sha256_kernels_avx512), pick;
	uint8_t buf[64 * 64];
	double ts = 0, tv = 0;
	int round;

	pick = __atomic_load_n(&timed, __ATOMIC_RELAXED);
	if (pick)
		return pick - 1;
	if (!runs_here(sha256_sets[avx]->need) || !sha256_self_test(avx))
		return shani;
	fill(buf, sizeof(buf), 7, 1);
	for (round = 0; round < 2; round++) {
		ts += d64_time(sha256_sets[shani], buf);
		tv += d64_time(sha256_sets[avx], buf);
	}
	pick = (tv < ts ? avx : shani) + 1;
	/* Two threads may time at once: the first to store wins. */
	if (!__atomic_compare_exchange_n(&timed, &(size_t){ 0 }, pick, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		pick = __atomic_load_n(&timed, __ATOMIC_RELAXED);
	return pick - 1;
}
#endif

static size_t best_sha256(void)
{
	size_t i;

	for (i = 0; i + 1 < NSHA && !runs_here(sha256_sets[i]->need); i++)
		;
#if X86 && !defined(POW_NO_SHANI) && !defined(POW_NO_AVX512)
	if (sha256_sets[i] == &pow_sha256_kernels_shani &&
	    sha256_self_test(i))
		return faster_of_shani_avx512(i);
#endif
	return i;
}

static size_t best_keccak(void)
{
	size_t i;

	for (i = 0; i + 1 < NKECCAK && !runs_here(keccak_sets[i]->need);
	    i++)
		;
	return i;
}

/* Install sets i and j (AUTO: the best), each after its self-test. */
static void install(size_t i, size_t j)
{
	if (i == AUTO)
		i = best_sha256();
	if (!sha256_self_test(i))
		i = NSHA - 1;
	__atomic_store_n(&sha256_selected, sha256_sets[i], __ATOMIC_RELEASE);

	if (j == AUTO)
		j = best_keccak();
	if (!keccak_self_test(j))
		j = NKECCAK - 1;
	__atomic_store_n(&keccak_selected, keccak_sets[j], __ATOMIC_RELEASE);
}

/* ---- parsing a spec ---- */

/*
 * A kernel set of a kind (0 SHA-256, 1 Keccak) by name (impl-spec.h's
 * find): 0 and its index, or EINVAL (not in this build), ENOTSUP (not on
 * this CPU).
 */
static int find_set(const void *ctx, int kind, const char *s, size_t n,
    size_t *index)
{
	size_t i, count = kind ? NKECCAK : NSHA;

	(void)ctx;
	for (i = 0; i < count; i++) {
		const char *name = kind ? keccak_sets[i]->name :
		    sha256_sets[i]->name;
		unsigned need = kind ? keccak_sets[i]->need :
		    sha256_sets[i]->need;

		if (strlen(name) != n || memcmp(s, name, n))
			continue;
		if (!runs_here(need))
			return ENOTSUP;
		*index = i;
		return 0;
	}
	return EINVAL;
}

/* "sha256=NAME", "keccak=NAME"; "" is the automatic choice. */
static const impl_spec_grammar grammar = {
	{ "sha256", "keccak" }, 0, 0, 1, find_set, NULL
};

static int parse(const char *spec, size_t choice[2], char *bad,
    size_t badlen)
{
	return impl_spec_parse(&grammar, spec, choice, bad, badlen);
}

/* ---- first use ---- */

static void first_use(void)
{
	const char *env = getenv("POW_HASH_IMPL");
	size_t i, j, choice[2] = { AUTO, AUTO };
	char bad[64];
	int err = 0;

	features = pow_cpu_features();
#if X86 && !defined(POW_NO_SHANI)
	i = sha256_index(&pow_sha256_kernels_shani);
	if (runs_here(sha256_sets[i]->need) && sha256_self_test(i))
		__atomic_store_n(&rest_set, sha256_sets[i], __ATOMIC_RELEASE);
#endif
	for (i = 0; i < NSHA; i++)
		for (j = 0; j < NKECCAK; j++)
			snprintf(names[i][j], sizeof(names[i][j]),
			    "sha256=%s,keccak=%s", sha256_sets[i]->name,
			    keccak_sets[j]->name);

	if (env && *env)
		err = parse(env, choice, bad, sizeof(bad));
	install(choice[0], choice[1]);
	if (err)
		fprintf(stderr, "libyespower: POW_HASH_IMPL=%s: %s: %s; "
		    "using %s\n", env, bad, err == ENOTSUP ?
		    "this CPU cannot run it" : "no such implementation",
		    pow_hash_impl_name());
}

void pow_hash_ensure_ready(void)
{
	pthread_once(&once, first_use);
}

const pow_sha256_kernels *pow_sha256_in_use(void)
{
	const pow_sha256_kernels *k = __atomic_load_n(&sha256_selected,
	    __ATOMIC_ACQUIRE);

	if (!k) {
		pow_hash_ensure_ready();
		k = __atomic_load_n(&sha256_selected, __ATOMIC_ACQUIRE);
	}
	return k;
}

const pow_keccak_kernels *pow_keccak_in_use(void)
{
	const pow_keccak_kernels *k = __atomic_load_n(&keccak_selected,
	    __ATOMIC_ACQUIRE);

	if (!k) {
		pow_hash_ensure_ready();
		k = __atomic_load_n(&keccak_selected, __ATOMIC_ACQUIRE);
	}
	return k;
}

/* The spec is checked whole before anything changes. */
int pow_hash_set_impl(const char *spec)
{
	size_t choice[2] = { AUTO, AUTO };
	int err;

	pow_hash_ensure_ready();
	if (spec) {
		err = parse(spec, choice, NULL, 0);
		if (!err && choice[0] != AUTO && !sha256_self_test(choice[0]))
			err = EIO;
		if (!err && choice[1] != AUTO && !keccak_self_test(choice[1]))
			err = EIO;
		if (err) {
			errno = err;
			return -1;
		}
	}
	install(choice[0], choice[1]);
	return 0;
}

const char *pow_hash_impl_name(void)
{
	const pow_sha256_kernels *s = pow_sha256_in_use();
	const pow_keccak_kernels *k = pow_keccak_in_use();
	size_t i, j;

	for (i = 0; i < NSHA && sha256_sets[i] != s; i++)
		;
	for (j = 0; j < NKECCAK && keccak_sets[j] != k; j++)
		;
	if (i == NSHA || j == NKECCAK)	/* cannot happen */
		return "unknown";
	return names[i][j];
}
