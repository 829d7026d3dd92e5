/*
 * sha256.c: SHA-256, HMAC-SHA256 and PBKDF2-HMAC-SHA256, the portable
 * compression function, and the choice of the compression function these
 * use, made here at run time (see sha256.h); sha256-shani.c has the SHA-NI
 * one.  Compiled with no instruction-set flags beyond the target's own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cpu-features.h"
#include "insecure_memzero.h"
#include "sha256.h"
#include "sysendian.h"

/* Round constants: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes (FIPS 180-4, 4.2.2).  Shared with the
 * SHA-NI compression, which loads them four at a time (hence aligned). */
const uint32_t yespower_sha256_K[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

/* Initial hash value: fractional parts of the square roots of the first
 * 8 primes (FIPS 180-4, 5.3.3). */
const uint32_t yespower_sha256_H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z) ((x & (y ^ z)) ^ z)
#define MAJ(x, y, z) ((x & (y | z)) | (y & z))
#define SIGMA0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define SIGMA1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define sigma0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define sigma1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

/*
 * sha256_compress(state, block):
 * The SHA-256 compression function on one 64-byte block.  The message
 * schedule is kept as a rolling window of 16 words rather than 64, which is
 * what lets compilers keep most of it in registers.
 */
static void sha256_compress(uint32_t state[8], const uint8_t block[64])
{
	uint32_t W[16];
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	int i;

	for (i = 0; i < 64; i++) {
		uint32_t w, t1, t2;

		if (i < 16) {
			w = W[i] = be32dec(&block[i * 4]);
		} else {
			w = W[i & 15] += sigma1(W[(i - 2) & 15]) +
			    W[(i - 7) & 15] + sigma0(W[(i - 15) & 15]);
		}
		t1 = h + SIGMA1(e) + CH(e, f, g) + yespower_sha256_K[i] + w;
		t2 = SIGMA0(a) + MAJ(a, b, c);
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}

	state[0] += a; state[1] += b; state[2] += c; state[3] += d;
	state[4] += e; state[5] += f; state[6] += g; state[7] += h;

	insecure_memzero(W, sizeof(W));
}

void yespower_sha256_blocks_portable(uint32_t state[8], const uint8_t *in,
    size_t nblocks)
{
	for (; nblocks; nblocks--, in += 64)
		sha256_compress(state, in);
}

/* ---- the choice of the compression function ---- */

#if (defined(__x86_64__) || defined(__i386__)) && !defined(YESPOWER_NO_SHANI)
#define HAVE_SHANI 1
#else
#define HAVE_SHANI 0
#endif

/* This build's compression functions, best first, the portable one last;
 * need is the POW_CPU_* bits each runs with. */
static const struct {
	const char *name;
	unsigned need;
	yespower_sha256_blocks_fn *blocks;
} impls[] = {
#if HAVE_SHANI
	{ "sha256=shani", POW_CPU_SHANI, yespower_sha256_blocks_shani },
#endif
	{ "sha256=portable", 0, yespower_sha256_blocks_portable },
};

#define NIMPLS (sizeof(impls) / sizeof(impls[0]))
#define PORTABLE (NIMPLS - 1)
typedef char impls_fit_the_names[NIMPLS <= YESPOWER_SHA256_IMPLS_MAX ? 1 : -1];

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Self-test results: 0 not run yet, 1 passed, -1 failed. */
static int status[NIMPLS];

/* The index in use, and its function (written together, read apart). */
static size_t chosen = PORTABLE;

static void first_use(void);

/*
 * Until the first use has chosen, the function "in use" is this one: it
 * chooses, then compresses with the choice.  So the hashing functions
 * below read one pointer, as they would with no choice at all.
 */
static void blocks_first_use(uint32_t state[8], const uint8_t *in,
    size_t nblocks)
{
	pthread_once(&once, first_use);
	impls[__atomic_load_n(&chosen, __ATOMIC_RELAXED)].blocks(state, in,
	    nblocks);
}

/*
 * The compression function in use.  Only the pointer is shared, and the
 * code it points to never changes, so relaxed atomics are enough: they
 * keep the pointer whole, and either value gives the same answers.
 */
static yespower_sha256_blocks_fn *blocks_in_use = blocks_first_use;

/* Static, so that it is inlined even in a -fPIC build. */
static yespower_sha256_blocks_fn *compress_in_use(void)
{
	return __atomic_load_n(&blocks_in_use, __ATOMIC_RELAXED);
}

static const char *short_name(size_t i)
{
	return strchr(impls[i].name, '=') + 1;
}

/*
 * SHA-256 of "abc" (one block) and of the 56-byte message of FIPS 180-2's
 * second example (two blocks, in one call), both at an odd address, as
 * state words.
 */
static int known_answers(yespower_sha256_blocks_fn *blocks)
{
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
	memcpy(state, yespower_sha256_H0, sizeof(state));
	blocks(state, block, 1);
	ok = !memcmp(state, abc, sizeof(state));

	memset(buf, 0, sizeof(buf));
	memcpy(block, msg2, 56);
	block[56] = 0x80;
	block[126] = (56 * 8) >> 8;
	block[127] = (56 * 8) & 0xff;
	memcpy(state, yespower_sha256_H0, sizeof(state));
	blocks(state, block, 2);
	ok &= !memcmp(state, two, sizeof(state));
	return ok;
}

/* The test itself; the thread that records a failure reports it, so it
 * is reported once. */
static int self_test(size_t i)
{
	int st = __atomic_load_n(&status[i], __ATOMIC_RELAXED);
	int ok, untested = 0;

	if (st)
		return st > 0;
	ok = known_answers(impls[i].blocks);
	if (__atomic_compare_exchange_n(&status[i], &untested, ok ? 1 : -1,
	    0, __ATOMIC_RELAXED, __ATOMIC_RELAXED) && !ok)
		fprintf(stderr, "libyespower: the %s SHA-256 compression "
		    "function failed its known-answer self-test; %s\n",
		    short_name(i), i == PORTABLE ?
		    "this build of the library computes wrong hashes" :
		    "it will not be used");
	return ok;
}

static int runs_here(size_t i)
{
	return (pow_cpu_features() & impls[i].need) == impls[i].need;
}

/* Install i (the best for AUTO) after its self-test, or the portable one. */
static void install(size_t i)
{
	/* Best first; the portable one, last, needs nothing and ends the
	 * search (a bound i < PORTABLE would be "< 0" where it is alone). */
	if (i == YESPOWER_SHA256_AUTO)
		for (i = 0; !runs_here(i); i++)
			;
	if (!self_test(i))
		i = PORTABLE;
	__atomic_store_n(&chosen, i, __ATOMIC_RELAXED);
	__atomic_store_n(&blocks_in_use, impls[i].blocks, __ATOMIC_RELAXED);
}

static void first_use(void)
{
	install(YESPOWER_SHA256_AUTO);
}

const char *yespower_sha256_impl_at(size_t i)
{
	return i < NIMPLS ? impls[i].name : NULL;
}

int yespower_sha256_find(const char *name, size_t n, size_t *index)
{
	size_t i;

	for (i = 0; i < NIMPLS; i++) {
		if (strlen(short_name(i)) != n || memcmp(name, short_name(i), n))
			continue;
		if (!runs_here(i))
			return ENOTSUP;
		*index = i;
		return 0;
	}
	return EINVAL;
}

int yespower_sha256_self_test(size_t i)
{
	return i < NIMPLS && self_test(i);
}

/* The first use chooses before any later choice, so that it cannot undo
 * one. */
void yespower_sha256_choose(size_t i)
{
	pthread_once(&once, first_use);
	install(i < NIMPLS ? i : YESPOWER_SHA256_AUTO);
}

size_t yespower_sha256_chosen(void)
{
	pthread_once(&once, first_use);
	return __atomic_load_n(&chosen, __ATOMIC_RELAXED);
}

/*
 * pad_block(block, have, marker, bits):
 * Complete the 64-byte block, whose first have bytes (0 to 63) are data:
 * the byte 0x80 at block[have] if marker, zeros after it, and the 64-bit
 * big-endian bits in the last 8 bytes (which must be free if bits != 0).
 *
 * With SSE2, each 16-byte quarter the padding touches is written with one
 * store, the data bytes in it merged by masks: the compression functions
 * load the block 16 bytes at a time, and a load can take its bytes from one
 * store still in flight, but one that needs several must wait until they
 * reach the cache, which is most of the time a dependent hash (an HMAC's
 * outer hash, the next hash of a chain) would otherwise lose here.
 */
#if defined(__SSE2__)
static void pad_block(uint8_t block[64], size_t have, int marker,
    uint64_t bits)
{
	/* 16 x 0xff then 16 x 0: 16 bytes from &ff_00[16 - n] keep n. */
	static const uint8_t ff_00[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	/* 0x80 after 16 zeros: 16 bytes from &at80[16 - n] have it at n. */
	static const uint8_t at80[32] = { [16] = 0x80 };
	uint8_t be[8];
	size_t lo;

	be64enc(be, bits);
	for (lo = have & ~(size_t)15; lo < 64; lo += 16) {
		__m128i q = _mm_setzero_si128();

		if (lo < have)
			q = _mm_and_si128(_mm_loadu_si128((const __m128i *)
			    &block[lo]), _mm_loadu_si128((const __m128i *)
			    &ff_00[16 - (have - lo)]));
		if (marker && have - lo < 16)
			q = _mm_or_si128(q, _mm_loadu_si128((const __m128i *)
			    &at80[16 - (have - lo)]));
		if (lo == 48)
			q = _mm_or_si128(q, _mm_slli_si128(
			    _mm_loadl_epi64((const __m128i *)be), 8));
		_mm_storeu_si128((__m128i *)&block[lo], q);
	}
}
#else
static void pad_block(uint8_t block[64], size_t have, int marker,
    uint64_t bits)
{
	if (marker)
		block[have++] = 0x80;
	memset(&block[have], 0, 64 - have);
	if (bits)
		be64enc(&block[56], bits);
}
#endif

void sha256_init(sha256_ctx *ctx)
{
	memcpy(ctx->state, yespower_sha256_H0, sizeof(ctx->state));
	ctx->count = 0;
}

void sha256_update(sha256_ctx *ctx, const void *in, size_t len)
{
	yespower_sha256_blocks_fn *compress = compress_in_use();
	const uint8_t *p = (const uint8_t *)in;
	size_t have = (size_t)(ctx->count & 63);

	if (len == 0)	/* in may be NULL then; memcpy must not see it */
		return;
	ctx->count += len;

	/* Complete a partial block first. */
	if (have) {
		size_t take = 64 - have;

		if (len < take) {
			memcpy(&ctx->buf[have], p, len);
			return;
		}
		memcpy(&ctx->buf[have], p, take);
		compress(ctx->state, ctx->buf, 1);
		p += take;
		len -= take;
	}

	/* Whole blocks straight from the caller's buffer, in one call. */
	if (len >= 64) {
		compress(ctx->state, p, len / 64);
		p += len & ~(size_t)63;
		len &= 63;
	}

	if (len)
		memcpy(ctx->buf, p, len);
}

void sha256_final(sha256_ctx *ctx, uint8_t digest[32])
{
	yespower_sha256_blocks_fn *compress = compress_in_use();
	size_t have = (size_t)(ctx->count & 63);
	int i;

	/* 0x80, zeros, and the message length in bits: one more block, or
	 * two if the length does not fit after the 0x80. */
	if (have < 56) {
		pad_block(ctx->buf, have, 1, ctx->count << 3);
	} else {
		pad_block(ctx->buf, have, 1, 0);
		compress(ctx->state, ctx->buf, 1);
		pad_block(ctx->buf, 0, 0, ctx->count << 3);
	}
	compress(ctx->state, ctx->buf, 1);

	for (i = 0; i < 8; i++)
		be32enc(&digest[i * 4], ctx->state[i]);

	insecure_memzero(ctx, sizeof(*ctx));
}

void sha256_buf(const void *in, size_t len, uint8_t digest[32])
{
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, in, len);
	sha256_final(&ctx, digest);
}

void hmac_sha256_init(hmac_sha256_ctx *ctx, const void *key, size_t keylen)
{
	uint8_t pad[64];
	uint8_t khash[32];
	size_t i;

	if (keylen > 64) {
		sha256_buf(key, keylen, khash);
		key = khash;
		keylen = sizeof(khash);
	}

	/* Inner: SHA256((K xor ipad) || ...); outer: SHA256((K xor opad) || ...). */
	memset(pad, 0x36, sizeof(pad));
	for (i = 0; i < keylen; i++)
		pad[i] ^= ((const uint8_t *)key)[i];
	sha256_init(&ctx->inner);
	sha256_update(&ctx->inner, pad, sizeof(pad));

	memset(pad, 0x5c, sizeof(pad));
	for (i = 0; i < keylen; i++)
		pad[i] ^= ((const uint8_t *)key)[i];
	sha256_init(&ctx->outer);
	sha256_update(&ctx->outer, pad, sizeof(pad));

	insecure_memzero(pad, sizeof(pad));
	insecure_memzero(khash, sizeof(khash));
}

void hmac_sha256_update(hmac_sha256_ctx *ctx, const void *in, size_t len)
{
	sha256_update(&ctx->inner, in, len);
}

void hmac_sha256_final(hmac_sha256_ctx *ctx, uint8_t mac[32])
{
	uint8_t ihash[32];

	sha256_final(&ctx->inner, ihash);
	sha256_update(&ctx->outer, ihash, sizeof(ihash));
	sha256_final(&ctx->outer, mac);

	insecure_memzero(ihash, sizeof(ihash));
}

void hmac_sha256_buf(const void *key, size_t keylen, const void *in,
    size_t len, uint8_t mac[32])
{
	hmac_sha256_ctx ctx;

	hmac_sha256_init(&ctx, key, keylen);
	hmac_sha256_update(&ctx, in, len);
	hmac_sha256_final(&ctx, mac);
}

void pbkdf2_sha256(const uint8_t *passwd, size_t passwdlen,
    const uint8_t *salt, size_t saltlen, uint64_t c,
    uint8_t *buf, size_t dklen)
{
	hmac_sha256_ctx keyed, salted, ctx;
	uint8_t ivec[4], U[32], T[32];
	uint32_t blockno;
	uint64_t j;
	size_t i, k, clen;

	/*
	 * The password is absorbed into the HMAC key schedule once and the salt
	 * once; each output block then costs only its counter and the
	 * iterations.  yespower's PBKDF2 calls make up to 128 blocks from one
	 * password and salt, so this saves most of the front end's work.
	 */
	hmac_sha256_init(&keyed, passwd, passwdlen);
	salted = keyed;
	hmac_sha256_update(&salted, salt, saltlen);

	for (i = 0, blockno = 1; i < dklen; i += 32, blockno++) {
		/* U_1 = HMAC(P, S || INT(blockno)) */
		be32enc(ivec, blockno);
		ctx = salted;
		hmac_sha256_update(&ctx, ivec, sizeof(ivec));
		hmac_sha256_final(&ctx, U);
		memcpy(T, U, sizeof(T));

		/* U_j = HMAC(P, U_{j-1}); T = U_1 xor U_2 xor ... */
		for (j = 2; j <= c; j++) {
			ctx = keyed;
			hmac_sha256_update(&ctx, U, sizeof(U));
			hmac_sha256_final(&ctx, U);
			for (k = 0; k < sizeof(T); k++)
				T[k] ^= U[k];
		}

		clen = dklen - i;
		if (clen > sizeof(T))
			clen = sizeof(T);
		memcpy(&buf[i], T, clen);
	}

	insecure_memzero(&keyed, sizeof(keyed));
	insecure_memzero(&salted, sizeof(salted));
	insecure_memzero(U, sizeof(U));
	insecure_memzero(T, sizeof(T));
}
