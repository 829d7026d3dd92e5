/*
 * tests-hashes.c: the hashing API (pow-hash.h) against known answers.
 *
 *   tests-hashes [--quick] [--expect-impl NAME] [VECTOR-DIR]
 *
 * VECTOR-DIR holds the files of test/vectors: the standards' vectors
 * (FIPS 180-4, FIPS 202, RFC 4231, RFC 7914), the merkle roots of real
 * Bitcoin blocks, published recursive SHA-256 answers, and Merkle roots
 * computed with Python's hashlib and XKCP; each file says where its
 * answers come from.  Every kernel set this CPU runs is then compared
 * with the portable one on random inputs and every count from 0 to 40,
 * the Merkle roots with straightforward level-by-level ones built on the
 * one-shot functions, and invalid arguments must fail cleanly.  Kernel
 * sets this CPU cannot run are named as skipped.  --expect-impl checks
 * what the first use chose (make check-hashes sets POW_HASH_IMPL); with
 * no VECTOR-DIR, only that and the spec syntax are tested.  --quick
 * leaves out the four 10,000,000-times recursive answers (for runs under
 * an emulator), and says so.
 *
 * Prints "ok ..." per group of checks and "FAIL ..." per failure, then
 * "tests-hashes: N passed, N failed[, N skipped (why)]"; exits 1 on
 * failure.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu-features.h"
#include "hashes/pow-hash.h"
#include "hashes/pow-hash-impl.h"
#include "tools/util.h"
#include "yespower.h"

#define TEST_NAME "tests-hashes"
#include "test/report.h"

static int quick;

/* One check, its description formatted only when it failed. */
static int checkf(int ok, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (ok)
		return check(fmt, 1);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return check(what, 0);
}

static void group_done(const char *what, int failed_before)
{
	if (failed == failed_before)
		printf("ok %s\n", what);
}

static void skip_one(const char *what, const char *why)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, why);
	skip(msg);
}

/* ---- helpers ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void random_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rng();
}

/*
 * Parse a vector file's message field: hex, "-" (empty), or
 * "<N x 'c'>" (N copies of the character c).  A malloc'd buffer (NULL
 * only if out of memory) and its length; exits on a malformed field.
 */
static uint8_t *parse_bytes(const char *s, size_t *len)
{
	unsigned long long n;
	char c, msg[96];
	uint8_t *p;

	if (!strcmp(s, "-")) {
		*len = 0;
		return malloc(1);
	}
	if (sscanf(s, "<%llu x '%c'>", &n, &c) == 2) {
		*len = (size_t)n;
		p = malloc(*len + 1);
		if (p)
			memset(p, c, *len);
		return p;
	}
	if (!(p = util_hex_decode_alloc(s, len, msg, sizeof(msg)))) {
		fprintf(stderr, "tests-hashes: %s: %s\n", s, msg);
		exit(2);
	}
	return p;
}

/* The 32 bytes of a 64-digit hex field, reversed if `reverse`. */
static void parse_hash(const char *s, uint8_t out[32], int reverse)
{
	size_t len, i;
	uint8_t *p = parse_bytes(s, &len);

	if (!p || len != 32) {
		fprintf(stderr, "tests-hashes: not a 32-byte hash: %s\n", s);
		exit(2);
	}
	for (i = 0; i < 32; i++)
		out[i] = p[reverse ? 31 - i : i];
	free(p);
}

static int all_ff(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != 0xff)
			return 0;
	return 1;
}

/* The lines of VECTOR-DIR/name split into at most 4096 fields each. */
struct vec_file {
	FILE *fp;
	char line[1 << 20];
	char *field[4096];
	int nfields;
};

static struct vec_file *vec_open(const char *dir, const char *name)
{
	char path[4096];
	struct vec_file *v = malloc(sizeof(*v));

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!v || !(v->fp = fopen(path, "r"))) {
		fprintf(stderr, "tests-hashes: cannot open %s\n", path);
		exit(2);
	}
	return v;
}

/* The next non-comment line's fields; 0 at the end. */
static int vec_next(struct vec_file *v)
{
	while (fgets(v->line, sizeof(v->line), v->fp)) {
		char *save, *tok;

		if (v->line[0] == '#' || v->line[0] == '\n')
			continue;
		v->nfields = 0;
		for (tok = strtok_r(v->line, " \t\r\n", &save);
		    tok && v->nfields < 4096;
		    tok = strtok_r(NULL, " \t\r\n", &save))
			v->field[v->nfields++] = tok;
		/* "<N x 'a'>" is one field with spaces: glue it back. */
		if (v->nfields >= 4 && v->field[1][0] == '<') {
			v->field[1][strlen(v->field[1])] = ' ';
			v->field[2][strlen(v->field[2])] = ' ';
			memmove(&v->field[2], &v->field[4],
			    (v->nfields - 4) * sizeof(char *));
			v->nfields -= 2;
		}
		return 1;
	}
	return 0;
}

static void vec_close(struct vec_file *v)
{
	fclose(v->fp);
	free(v);
}

/* ---- the constants ---- */

static uint32_t rotr32(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/*
 * The padding block's W + K, recomputed from FIPS 180-4 (6.2.2 step 1),
 * and the iota constants from FIPS 202's rc(t) LFSR (3.2.5): the tables
 * the kernels use must be these.
 */
static void test_constants(void)
{
	static const uint32_t K[64] = {
		0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
		0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
		0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
		0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
		0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
		0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
		0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
		0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
		0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
		0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
		0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
		0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
		0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
	};
	uint32_t W[64] = { 0x80000000 };
	unsigned lfsr = 1;
	int t, i, j, before = failed;

	W[15] = 512;
	for (t = 16; t < 64; t++)
		W[t] = (rotr32(W[t - 2], 17) ^ rotr32(W[t - 2], 19) ^
		    (W[t - 2] >> 10)) + W[t - 7] + (rotr32(W[t - 15], 7) ^
		    rotr32(W[t - 15], 18) ^ (W[t - 15] >> 3)) + W[t - 16];
	for (t = 0; t < 64; t++)
		checkf(pow_sha256_pad64_wk[t] == W[t] + K[t],
		    "pad64 W+K[%d]", t);

	/* rc(t): x^8 + x^6 + x^5 + x^4 + 1; RC[i] bit 2^j - 1 = rc(j + 7i). */
	for (i = 0; i < 24; i++) {
		uint64_t rc = 0;

		for (j = 0; j < 7; j++) {
			if (lfsr & 1)
				rc |= (uint64_t)1 << ((1 << j) - 1);
			lfsr = (lfsr << 1) ^ ((lfsr & 0x80) ? 0x171 : 0);
		}
		checkf(pow_keccak_rc[i] == rc, "Keccak RC[%d]", i);
	}
	group_done("constants: padding schedule (FIPS 180-4), Keccak RC "
	    "(FIPS 202)", before);
}

/* ---- SHA-256, HMAC, PBKDF2 ---- */

/* SHA-256 of p in pieces of `step` bytes through the streaming API. */
static void sha256_pieces(const uint8_t *p, size_t len, size_t step,
    uint8_t out[32])
{
	pow_sha256_ctx ctx;
	size_t i;

	pow_sha256_init(&ctx);
	for (i = 0; i < len; i += step)
		pow_sha256_update(&ctx, &p[i], len - i < step ? len - i : step);
	pow_sha256_final(&ctx, out);
}

static void test_sha256_file(const char *dir, const char *compression)
{
	struct vec_file *v = vec_open(dir, "sha256.txt");
	uint8_t want[32], got[32];
	char what[128];
	int n = 0, before = failed;

	while (vec_next(v)) {
		size_t len, steps[] = { 1, 7, 63, 64, 65, 1000 }, s;
		uint8_t *m = parse_bytes(v->field[1], &len);
		int dbl = !strcmp(v->field[0], "SHA256D");

		if (!m)
			exit(2);
		parse_hash(v->field[3], want, 0);
		if (dbl) {
			pow_sha256d(m, len, got);
			checkf(!memcmp(got, want, 32), "SHA-256d line %d", n);
		} else {
			pow_sha256(m, len, got);
			checkf(!memcmp(got, want, 32), "SHA-256 %s", v->field[1]);
			for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
				if (len > 4096 && steps[s] < 64)
					continue;
				sha256_pieces(m, len, steps[s], got);
				checkf(!memcmp(got, want, 32), "SHA-256 %s in "
				    "pieces of %zu", v->field[1], steps[s]);
			}
		}
		free(m);
		n++;
	}
	vec_close(v);
	snprintf(what, sizeof(what), "SHA-256 and SHA-256d: %d vectors, "
	    "compression %s", n, compression);
	group_done(what, before);
}

static void test_hmac_pbkdf2_file(const char *dir)
{
	struct vec_file *v = vec_open(dir, "hmac-pbkdf2.txt");
	int n = 0, before = failed;
	char what[128];

	while (vec_next(v)) {
		size_t klen, mlen, wlen;
		uint8_t *k = parse_bytes(v->field[1], &klen);
		uint8_t *m = parse_bytes(v->field[2], &mlen);
		uint8_t *want, *got;

		if (!k || !m)
			exit(2);
		if (!strcmp(v->field[0], "HMAC_SHA256")) {
			pow_hmac_sha256_ctx ctx;
			uint8_t mac[32];
			size_t i;

			want = parse_bytes(v->field[4], &wlen);
			pow_hmac_sha256(k, klen, m, mlen, mac);
			checkf(want && !memcmp(mac, want, wlen),
			    "HMAC-SHA256 line %d", n);
			pow_hmac_sha256_init(&ctx, k, klen);
			for (i = 0; i < mlen; i++)
				pow_hmac_sha256_update(&ctx, &m[i], 1);
			pow_hmac_sha256_final(&ctx, mac);
			checkf(want && !memcmp(mac, want, wlen),
			    "HMAC-SHA256 streaming line %d", n);
		} else {
			uint64_t c = strtoull(v->field[3], NULL, 10);
			size_t dklen = strtoul(v->field[4], NULL, 10);

			want = parse_bytes(v->field[6], &wlen);
			got = malloc(dklen + 1);
			checkf(want && got && wlen == dklen &&
			    !pow_pbkdf2_sha256(k, klen, m, mlen, c, got, dklen) &&
			    !memcmp(got, want, dklen), "PBKDF2 line %d", n);
			free(got);
		}
		free(want);
		free(k);
		free(m);
		n++;
	}
	vec_close(v);
	snprintf(what, sizeof(what), "HMAC-SHA256 (RFC 4231), PBKDF2-HMAC-"
	    "SHA256 (RFC 7914): %d vectors", n);
	group_done(what, before);
}

/* ---- SHA3-256 ---- */

static void sha3_pieces(const uint8_t *p, size_t len, size_t step,
    uint8_t out[32])
{
	pow_sha3_256_ctx ctx;
	size_t i;

	pow_sha3_256_init(&ctx);
	for (i = 0; i < len; i += step)
		pow_sha3_256_update(&ctx, &p[i], len - i < step ? len - i : step);
	pow_sha3_256_final(&ctx, out);
}

static void test_sha3_file(const char *dir)
{
	struct vec_file *v = vec_open(dir, "sha3-256.txt");
	uint8_t want[32], got[32];
	int n = 0, before = failed;
	char what[96];

	while (vec_next(v)) {
		size_t len, steps[] = { 1, 8, 135, 136, 137, 1000 }, s;
		uint8_t *m = parse_bytes(v->field[1], &len);

		if (!m)
			exit(2);
		parse_hash(v->field[3], want, 0);
		pow_sha3_256(m, len, got);
		checkf(!memcmp(got, want, 32), "SHA3-256 %s", v->field[1]);
		for (s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			if (len > 4096 && steps[s] < 64)
				continue;
			sha3_pieces(m, len, steps[s], got);
			checkf(!memcmp(got, want, 32), "SHA3-256 %s in pieces "
			    "of %zu", v->field[1], steps[s]);
		}
		free(m);
		n++;
	}
	vec_close(v);
	snprintf(what, sizeof(what), "SHA3-256 (FIPS 202): %d vectors", n);
	group_done(what, before);
}

/* ---- references for the kernels ---- */

/* Bitcoin's root and mutation flag, level by level, on pow_sha256d. */
static void naive_bitcoin_root(uint8_t root[32], const uint8_t *leaves,
    size_t count, int *mutated)
{
	uint8_t *row;
	size_t n = count, i;

	*mutated = 0;
	if (!count) {
		memset(root, 0, 32);
		return;
	}
	row = malloc(32 * (count + 1));
	if (!row)
		exit(2);
	memcpy(row, leaves, 32 * count);
	while (n > 1) {
		for (i = 0; i + 1 < n; i += 2)
			if (!memcmp(&row[32 * i], &row[32 * i + 32], 32))
				*mutated = 1;
		if (n & 1) {
			memcpy(&row[32 * n], &row[32 * (n - 1)], 32);
			n++;
		}
		for (i = 0; i < n / 2; i++)
			pow_sha256d(&row[64 * i], 64, &row[32 * i]);
		n /= 2;
	}
	memcpy(root, row, 32);
	free(row);
}

/* A binary tree's root, level by level, on a one-shot hash of 64 bytes. */
static void naive_binary_root(uint8_t root[32], const uint8_t *leaves,
    size_t count, int (*hash)(const void *, size_t, uint8_t *))
{
	uint8_t *row = malloc(32 * count);
	size_t n, i;

	if (!row)
		exit(2);
	memcpy(row, leaves, 32 * count);
	for (n = count; n > 1; n /= 2)
		for (i = 0; i < n / 2; i++)
			hash(&row[64 * i], 64, &row[32 * i]);
	memcpy(root, row, 32);
	free(row);
}

/* The leaf pattern of merkle-binary.txt. */
static uint8_t *pattern_leaves(size_t count)
{
	uint8_t *p = malloc(32 * count);
	size_t q;

	if (!p)
		exit(2);
	for (q = 0; q < 32 * count; q++)
		p[q] = (uint8_t)((uint64_t)q * 2654435761u >> 13);
	return p;
}

static int sha256d_oneshot(const void *in, size_t len, uint8_t *out)
{
	return pow_sha256d(in, len, out);
}

/* ---- the SHA-256 kernel sets ---- */

/* Kernel set k against the portable one on counts 0 .. 40, random
 * inputs, out of place and in place, at an odd address. */
static void test_d64_kernels(const pow_sha256_kernels *k)
{
	uint8_t in[1 + 40 * 64], a[40 * 32], b[40 * 64 + 1];
	size_t n;

	for (n = 0; n <= 40; n++) {
		random_bytes(in, sizeof(in));
		memset(a, 0, sizeof(a));
		pow_sha256_kernels_portable.d64(a, in + 1, n);
		memset(b, 0x55, sizeof(b));
		k->d64(b + 1, in + 1, n);
		checkf(!memcmp(a, b + 1, 32 * n) && b[1 + 32 * n] == 0x55,
		    "%s d64, %zu inputs", k->name, n);
		memcpy(b + 1, in + 1, 64 * n);
		k->d64(b + 1, b + 1, n);
		checkf(!memcmp(a, b + 1, 32 * n), "%s d64 in place, %zu inputs",
		    k->name, n);
		if (n) {
			uint8_t one[32];

			pow_sha256d(in + 1 + 64 * (n - 1), 64, one);
			checkf(!memcmp(one, a + 32 * (n - 1), 32),
			    "%s d64 against pow_sha256d, %zu", k->name, n);
		}
	}
}

static void test_recursive_kernels(const pow_sha256_kernels *k)
{
	uint8_t in[1 + 40 * 32], a[40 * 32], b[1 + 40 * 32];
	size_t n;
	uint64_t iters[] = { 1, 2, 3, 7 };
	unsigned i;

	for (n = 0; n <= 40; n++)
		for (i = 0; i < sizeof(iters) / sizeof(iters[0]); i++) {
			random_bytes(in, sizeof(in));
			memcpy(a, in + 1, 32 * n);
			pow_sha256_kernels_portable.recursive(a, n, iters[i]);
			memcpy(b + 1, in + 1, 32 * n);
			k->recursive(b + 1, n, iters[i]);
			checkf(!memcmp(a, b + 1, 32 * n), "%s recursive, %zu "
			    "chains, %llu times", k->name, n,
			    (unsigned long long)iters[i]);
		}
}

/* pow_sha256_recursive against a loop of one-shot calls. */
static void test_recursive_api(const char *name)
{
	uint8_t h[32], want[32], got[32];
	uint64_t n;

	random_bytes(h, sizeof(h));
	memcpy(want, h, 32);
	for (n = 0; n <= 300; n++) {
		checkf(!pow_sha256_recursive(got, h, n) &&
		    !memcmp(got, want, 32), "%s pow_sha256_recursive n=%llu",
		    name, (unsigned long long)n);
		pow_sha256(want, 32, want);
	}
	/* In place: want is now h hashed 301 times. */
	memcpy(got, h, 32);
	checkf(!pow_sha256_recursive(got, got, 301) && !memcmp(got, want, 32),
	    "%s pow_sha256_recursive in place", name);
}

static void test_recursive_file(const char *dir, const char *name,
    int long_ones)
{
	struct vec_file *v = vec_open(dir, "recursive.txt");
	uint8_t start[4][32], want[4][32], got[4 * 32];
	int longs = 0, t;

	while (vec_next(v)) {
		uint64_t n = strtoull(v->field[2], NULL, 10);
		uint8_t s[32], w[32];

		parse_hash(v->field[1], s, 0);
		parse_hash(v->field[4], w, 0);
		if (n < 1000000) {
			checkf(!pow_sha256_recursive(got, s, n) &&
			    !memcmp(got, w, 32), "%s recursive vector %s x %llu",
			    name, v->field[1], (unsigned long long)n);
		} else if (longs < 4) {
			memcpy(start[longs], s, 32);
			memcpy(want[longs], w, 32);
			longs++;
		}
	}
	vec_close(v);
	if (!long_ones)
		return;
	if (quick) {
		skip_one("recursive 10,000,000 times", "--quick");
		return;
	}
	/* The four published 10,000,000-times answers, as four chains at
	 * once on all threads. */
	for (t = 0; t < longs; t++)
		memcpy(&got[32 * t], start[t], 32);
	checkf(!pow_sha256_recursive_chains(got, got, (size_t)longs, 10000000,
	    0), "recursive chains call");
	for (t = 0; t < longs; t++)
		checkf(!memcmp(&got[32 * t], want[t], 32), "%s recursive "
		    "10,000,000 times, chain %d", name, t);
}

static void test_bitcoin_file(const char *dir, const char *name)
{
	struct vec_file *v = vec_open(dir, "merkle-bitcoin.txt");
	static const int threads[] = { 1, 2, 3 };

	while (vec_next(v)) {
		int mut = !strcmp(v->field[0], "BTC_MUTATED");
		int first = mut ? 3 : 2, count = v->nfields - first, i;
		int want_flag = mut ? atoi(v->field[1]) : 0, flag;
		uint8_t want[32], got[32], *leaves = malloc(32 * count + 1);
		unsigned t;

		if (!leaves)
			exit(2);
		parse_hash(v->field[first - 1], want, 1);
		for (i = 0; i < count; i++)
			parse_hash(v->field[first + i], &leaves[32 * i], 1);
		for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
			flag = -1;
			checkf(!pow_merkle_root_bitcoin(got, leaves, count,
			    &flag, threads[t]) && !memcmp(got, want, 32) &&
			    flag == want_flag, "%s Bitcoin merkle root, %d "
			    "leaves (%s), %d threads", name, count,
			    v->field[first - 1], threads[t]);
			checkf(!pow_merkle_root_bitcoin(got, leaves, count,
			    NULL, threads[t]) && !memcmp(got, want, 32),
			    "%s Bitcoin merkle root without the flag", name);
		}
		free(leaves);
	}
	vec_close(v);
}

/* Random leaf lists, some with repeated tails, against the naive root. */
static void test_bitcoin_random(const char *name)
{
	static const size_t big[] = { 1023, 1024, 1025, 4097, 10000, 65537 };
	uint8_t *leaves = malloc(32 * 65537), want[32], got[32];
	size_t n, i;
	int wf, gf, t;

	if (!leaves)
		exit(2);
	for (n = 0; n <= 40 + sizeof(big) / sizeof(big[0]); n++) {
		size_t count = n <= 40 ? n : big[n - 41];

		random_bytes(leaves, 32 * count);
		/* Every third list repeats its tail, some a whole pair. */
		if (count >= 3 && n % 3 == 0)
			memcpy(&leaves[32 * (count - 1)],
			    &leaves[32 * (count - 2)], 32);
		if (count >= 6 && n % 6 == 0) {
			for (i = 0; i < 2; i++)
				memcpy(&leaves[32 * (count - 2 + i)],
				    &leaves[32 * (count - 4 + i)], 32);
		}
		naive_bitcoin_root(want, leaves, count, &wf);
		for (t = 1; t <= 4; t += 3) {
			gf = -1;
			checkf(!pow_merkle_root_bitcoin(got, leaves, count, &gf,
			    t) && !memcmp(got, want, 32) && gf == wf,
			    "%s Bitcoin merkle root of %zu random leaves, %d "
			    "threads (flag %d, want %d)", name, count, t, gf,
			    wf);
		}
	}
	free(leaves);
}

static void test_binary_file(const char *dir, const char *prefix,
    int (*root)(uint8_t *, const uint8_t *, size_t, int), const char *name)
{
	struct vec_file *v = vec_open(dir, "merkle-binary.txt");
	static const int threads[] = { 1, 2, 0, 5 };

	while (vec_next(v)) {
		int k = atoi(v->field[1]);
		size_t count = (size_t)1 << k;
		uint8_t want[32], got[32], *leaves;
		unsigned t;

		if (strcmp(v->field[0], prefix))
			continue;
		parse_hash(v->field[3], want, 0);
		leaves = pattern_leaves(count);
		for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
			if (k > 16 && threads[t] == 5)
				continue;
			checkf(!root(got, leaves, count, threads[t]) &&
			    !memcmp(got, want, 32), "%s %s 2^%d leaves, %d "
			    "threads", name, prefix, k, threads[t]);
		}
		free(leaves);
	}
	vec_close(v);
}

static void test_binary_random(const char *name)
{
	uint8_t *leaves = malloc(32 << 13), want[32], got[32];
	int k;

	if (!leaves)
		exit(2);
	for (k = 0; k <= 13; k++) {
		size_t count = (size_t)1 << k;

		random_bytes(leaves, 32 * count);
		naive_binary_root(want, leaves, count, sha256d_oneshot);
		checkf(!pow_merkle_root_sha256d(got, leaves, count, 3) &&
		    !memcmp(got, want, 32), "%s SHA-256d tree of 2^%d random "
		    "leaves", name, k);
		naive_binary_root(want, leaves, count, pow_sha3_256);
		checkf(!pow_merkle_root_sha3_256(got, leaves, count, 3) &&
		    !memcmp(got, want, 32), "%s SHA3-256 tree of 2^%d random "
		    "leaves", name, k);
	}
	free(leaves);
}

/* Force kernel set `spec`; 1 if done, 0 (and a skip) if this CPU lacks it. */
static int force(const char *spec, const char *name)
{
	char what[96];

	if (!pow_hash_set_impl(spec))
		return 1;
	snprintf(what, sizeof(what), "%s", spec);
	if (errno == ENOTSUP) {
		skip_one(what, "this CPU cannot run it");
	} else {
		checkf(0, "pow_hash_set_impl(%s): %s", spec, strerror(errno));
	}
	(void)name;
	return 0;
}

static void test_sha256_sets(const char *dir)
{
	const pow_sha256_kernels *k;
	size_t i;
	int first = 1;

	for (i = 0; (k = pow_sha256_kernels_at(i)); i++) {
		char spec[64], what[256];
		int before = failed;

		snprintf(spec, sizeof(spec), "sha256=%s", k->name);
		if (!force(spec, k->name))
			continue;
		checkf(!strncmp(pow_hash_impl_name(), spec, strlen(spec)),
		    "impl name %s after forcing %s", pow_hash_impl_name(), spec);
		test_d64_kernels(k);
		test_recursive_kernels(k);
		test_recursive_api(k->name);
		test_recursive_file(dir, k->name, first);
		test_bitcoin_file(dir, k->name);
		test_bitcoin_random(k->name);
		test_binary_file(dir, "MERKLE_SHA256D", pow_merkle_root_sha256d,
		    k->name);
		snprintf(what, sizeof(what), "SHA-256 kernels %s: d64 and "
		    "recursive against portable (counts 0-40), recursive "
		    "vectors%s, Bitcoin blocks, SHA-256d trees", k->name,
		    first ? " incl. 10,000,000 times" : "");
		group_done(what, before);
		first = 0;
	}
	pow_hash_set_impl("sha256=auto");

	/* The AVX-512 code on emulated lanes, here on every CPU. */
	k = &pow_sha256_kernels_avx512emu;
	{
		int before = failed;

		test_d64_kernels(k);
		test_recursive_kernels(k);
		group_done("SHA-256 kernels avx512-emulated (the avx512 set's "
		    "16-lane code, VPTERNLOGD as defined): d64 and recursive "
		    "against portable (counts 0-40)", before);
	}
}

/*
 * Keccak kernel set k's sha3_64 against the portable one on counts 0 ..
 * 40, random inputs, at an odd address, untouched past the end; in place
 * through the API (k is the set in use) or, if !in_use, k itself; and
 * the last input against the one-shot SHA3-256.
 */
static void test_sha3_64_kernel(const pow_keccak_kernels *k, int in_use)
{
	uint8_t in[1 + 40 * 64], a[40 * 32], b[1 + 40 * 64], one[32];
	size_t n;

	for (n = 0; n <= 40; n++) {
		random_bytes(in, sizeof(in));
		pow_keccak_kernels_portable.sha3_64(a, in + 1, n);
		memset(b, 0x55, sizeof(b));
		k->sha3_64(b + 1, in + 1, n);
		checkf(!memcmp(a, b + 1, 32 * n) && b[1 + 32 * n] == 0x55,
		    "%s sha3_64, %zu inputs", k->name, n);
		memcpy(b + 1, in + 1, 64 * n);
		if (in_use)
			checkf(!pow_sha3_256_64(b + 1, b + 1, n),
			    "%s pow_sha3_256_64 in place, %zu", k->name, n);
		else
			k->sha3_64(b + 1, b + 1, n);
		checkf(!memcmp(a, b + 1, 32 * n), "%s sha3_64 in place, %zu",
		    k->name, n);
		if (n) {
			pow_sha3_256(in + 1 + 64 * (n - 1), 64, one);
			checkf(!memcmp(one, a + 32 * (n - 1), 32),
			    "%s sha3_64 against pow_sha3_256", k->name);
		}
	}
}

static void test_keccak_sets(const char *dir)
{
	const pow_keccak_kernels *k;
	size_t i;

	for (i = 0; (k = pow_keccak_kernels_at(i)); i++) {
		char spec[64], what[256];
		int before = failed;

		snprintf(spec, sizeof(spec), "keccak=%s", k->name);
		if (!force(spec, k->name))
			continue;
		test_sha3_64_kernel(k, 1);
		test_binary_file(dir, "MERKLE_SHA3_256",
		    pow_merkle_root_sha3_256, k->name);
		snprintf(what, sizeof(what), "Keccak kernels %s: against "
		    "portable (counts 0-40), SHA3-256 trees", k->name);
		group_done(what, before);
	}
	pow_hash_set_impl("keccak=auto");

	{
		int before = failed;

		test_sha3_64_kernel(&pow_keccak_kernels_avx512emu, 0);
		group_done("Keccak kernels avx512-emulated (the avx512 set's "
		    "8-state code, VPTERNLOGQ as defined): against portable "
		    "(counts 0-40)", before);
	}
}

/* ---- errors ---- */

#define EXPECT_EINVAL(call, what) do { \
	errno = 0; \
	checkf((call) == -1 && errno == EINVAL, "%s: not -1/EINVAL", what); \
} while (0)

static void test_errors(void)
{
	uint8_t out[64], in[64] = { 0 }, big[4 * 64];
	pow_sha256_ctx c;
	pow_sha3_256_ctx c3;
	pow_hmac_sha256_ctx hc;
	int flag = 7, before = failed;

#define FF(call, what) do { \
	memset(out, 0, sizeof(out)); \
	EXPECT_EINVAL(call, what); \
	checkf(all_ff(out, 32), "%s: output not 0xff", what); \
} while (0)

	FF(pow_sha256(NULL, 1, out), "pow_sha256(NULL, 1)");
	FF(pow_sha256d(NULL, 5, out), "pow_sha256d(NULL, 5)");
	EXPECT_EINVAL(pow_sha256(in, 1, NULL), "pow_sha256 NULL digest");
	checkf(!pow_sha256(NULL, 0, out), "pow_sha256(NULL, 0) is the empty "
	    "message");
	EXPECT_EINVAL(pow_sha256_init(NULL), "pow_sha256_init(NULL)");
	pow_sha256_init(&c);
	EXPECT_EINVAL(pow_sha256_update(&c, NULL, 3), "update(NULL, 3)");
	EXPECT_EINVAL(pow_sha256_update(NULL, in, 3), "update(ctx NULL)");
	FF(pow_sha256_final(NULL, out), "pow_sha256_final(NULL ctx)");
	FF(pow_hmac_sha256(NULL, 2, in, 1, out), "HMAC NULL key");
	FF(pow_hmac_sha256(in, 2, NULL, 1, out), "HMAC NULL message");
	EXPECT_EINVAL(pow_hmac_sha256_init(&hc, NULL, 1), "HMAC init");
	FF(pow_pbkdf2_sha256(in, 1, in, 1, 0, out, 32), "PBKDF2 c = 0");
	FF(pow_pbkdf2_sha256(NULL, 1, in, 1, 1, out, 32), "PBKDF2 NULL pw");
	EXPECT_EINVAL(pow_pbkdf2_sha256(in, 1, in, 1, 1, NULL, 32),
	    "PBKDF2 NULL dk");
	FF(pow_sha3_256(NULL, 1, out), "pow_sha3_256(NULL, 1)");
	EXPECT_EINVAL(pow_sha3_256_init(NULL), "pow_sha3_256_init(NULL)");
	pow_sha3_256_init(&c3);
	EXPECT_EINVAL(pow_sha3_256_update(&c3, NULL, 1), "SHA3 update NULL");
	c3.have = 999;
	FF(pow_sha3_256_final(&c3, out), "SHA3 final of a corrupt context");

	FF(pow_sha256d64(out, NULL, 1), "d64 NULL input");
	EXPECT_EINVAL(pow_sha256d64(NULL, in, 1), "d64 NULL output");
	checkf(!pow_sha256d64(NULL, NULL, 0), "d64 of nothing");
	FF(pow_sha3_256_64(out, NULL, 1), "sha3_64 NULL input");
	FF(pow_sha256_recursive(out, NULL, 5), "recursive NULL input");
	EXPECT_EINVAL(pow_sha256_recursive(NULL, in, 5), "recursive NULL out");
	FF(pow_sha256_recursive_chains(out, NULL, 1, 5, 1), "chains NULL in");
	FF(pow_sha256_recursive_chains(out, in, 1, 5, -1), "chains threads -1");
	FF(pow_sha256_recursive_chains(out, in, 1, 5,
	    POW_HASH_MAX_THREADS + 1), "chains too many threads");
	checkf(!pow_sha256_recursive_chains(NULL, NULL, 0, 5, 1),
	    "no chains");

	FF(pow_merkle_root_bitcoin(out, NULL, 3, &flag, 1), "bitcoin NULL");
	checkf(flag == 0, "mutated flag cleared on error");
	FF(pow_merkle_root_bitcoin(out, in, 1, NULL, -2), "bitcoin threads");
	EXPECT_EINVAL(pow_merkle_root_bitcoin(NULL, in, 1, NULL, 1),
	    "bitcoin NULL root");
	memset(out, 0x11, 32);
	memset(big, 0, sizeof(big));
	checkf(!pow_merkle_root_bitcoin(out, NULL, 0, &flag, 1) &&
	    !memcmp(out, big, 32), "bitcoin root of no leaves is zero");
	FF(pow_merkle_root_sha3_256(out, big, 3, 1), "SHA3 tree of 3");
	FF(pow_merkle_root_sha3_256(out, big, 0, 1), "SHA3 tree of 0");
	FF(pow_merkle_root_sha256d(out, big, 6, 1), "SHA-256d tree of 6");
	FF(pow_merkle_root_sha256d(out, NULL, 4, 1), "SHA-256d tree NULL");
	FF(pow_merkle_root_sha256d(out, big, 4, POW_HASH_MAX_THREADS + 1),
	    "SHA-256d tree threads");
	checkf(!pow_merkle_root_sha256d(out, big, 4, POW_HASH_MAX_THREADS),
	    "SHA-256d tree, the most threads allowed");
	group_done("invalid arguments: -1, EINVAL and 0xff outputs", before);
#undef FF
}

/* ---- choosing implementations ---- */

static void test_impl_api(const char *expect)
{
	const char *name = pow_hash_impl_name();
	static const char *bad[] = { "sha256", "sha256=", "sha256=foo",
		"keccak=shani", "core=sse2", "sha256=auto,sha256=auto", ",",
		"sha256=portable,", "x" };
	unsigned i;
	int before = failed;

	if (expect)
		checkf(!strcmp(name, expect), "first use chose %s, not %s "
		    "(POW_HASH_IMPL)", name, expect);
	checkf(!strncmp(name, "sha256=", 7) && strstr(name, ",keccak="),
	    "impl name format: %s", name);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		checkf(pow_hash_set_impl(bad[i]) == -1 && errno == EINVAL,
		    "pow_hash_set_impl(\"%s\") accepted", bad[i]);
		checkf(!strcmp(pow_hash_impl_name(), name), "a refused spec "
		    "changed the choice");
	}
	checkf(!pow_hash_set_impl("sha256=portable,keccak=portable") &&
	    !strcmp(pow_hash_impl_name(), "sha256=portable,keccak=portable"),
	    "forcing both portable sets");
	checkf(!pow_hash_set_impl("") && !pow_hash_set_impl(NULL) &&
	    !pow_hash_set_impl("keccak=auto,sha256=auto"), "auto specs");
	if (!expect || !strcmp(expect, name))
		checkf(!strcmp(pow_hash_impl_name(), name) || expect,
		    "auto chose %s again, not %s", pow_hash_impl_name(), name);
	group_done("implementation names and specs", before);
}

/* ---- threads ---- */

struct worker {
	uint8_t leaves[32 * 4096], want[2][32];
	int ok;
};

static void *worker_run(void *p)
{
	struct worker *w = p;
	uint8_t got[32];
	int i;

	for (i = 0; i < 40; i++) {
		if (pow_merkle_root_sha256d(got, w->leaves, 4096, 2) ||
		    memcmp(got, w->want[0], 32))
			w->ok = 0;
		if (pow_merkle_root_sha3_256(got, w->leaves, 4096, 1) ||
		    memcmp(got, w->want[1], 32))
			w->ok = 0;
	}
	return NULL;
}

/* Threads hashing while the main thread switches implementations. */
static void test_threads(void)
{
	static const char *specs[] = { "sha256=portable", "keccak=portable",
		"sha256=auto", "keccak=auto", "sha256=sse2", "sha256=avx2",
		"keccak=avx2", "sha256=shani" };
	static struct worker w[4];
	pthread_t tid[4];
	int i, j, before = failed;

	for (i = 0; i < 4; i++) {
		random_bytes(w[i].leaves, sizeof(w[i].leaves));
		naive_binary_root(w[i].want[0], w[i].leaves, 4096,
		    sha256d_oneshot);
		naive_binary_root(w[i].want[1], w[i].leaves, 4096,
		    pow_sha3_256);
		w[i].ok = 1;
		if (pthread_create(&tid[i], NULL, worker_run, &w[i])) {
			checkf(0, "pthread_create");
			return;
		}
	}
	for (j = 0; j < 400; j++)
		(void)pow_hash_set_impl(specs[j % 8]);
	for (i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		checkf(w[i].ok, "thread %d got a wrong root", i);
	}
	pow_hash_set_impl(NULL);
	group_done("4 threads hashing while the implementation changes",
	    before);
}

/* ---- main ---- */

int main(int argc, char **argv)
{
	const char *expect = NULL, *dir;
	static const char *compressions[] = { "sha256=shani",
		"sha256=portable" };
	unsigned i;

	for (;;) {
		if (argc >= 3 && !strcmp(argv[1], "--expect-impl")) {
			expect = argv[2];
			argv += 2;
			argc -= 2;
		} else if (argc >= 2 && !strcmp(argv[1], "--quick")) {
			quick = 1;
			argv++;
			argc--;
		} else {
			break;
		}
	}
	if (argc != 2 && !(argc == 1 && expect)) {
		fprintf(stderr, "usage: tests-hashes [--quick] [--expect-impl "
		    "NAME] [VECTOR-DIR]\n");
		return 2;
	}
	dir = argv[1];

	test_impl_api(expect);
	if (!dir)
		goto done;
	test_constants();
	/* The streaming SHA-256 through each of yespower's compression
	 * functions. */
	for (i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++) {
		if (yespower_set_impl(compressions[i])) {
			if (errno == ENOTSUP)
				skip_one(compressions[i] + 7, "this CPU cannot run "
				    "this SHA-256 compression function");
			else if (errno == EINVAL)
				skip_one(compressions[i] + 7, "not in this build");
			else
				checkf(0, "yespower_set_impl(%s)",
				    compressions[i]);
			continue;
		}
		test_sha256_file(dir, compressions[i] + 7);
	}
	yespower_set_impl(NULL);
	test_hmac_pbkdf2_file(dir);
	test_sha3_file(dir);
	test_sha256_sets(dir);
	test_keccak_sets(dir);
	test_binary_random(pow_hash_impl_name());
	test_errors();
	test_threads();

done:
	return summary();
}
