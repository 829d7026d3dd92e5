/*
 * yespower-ref.c: the reference implementation of yespower 0.5 and 1.0.
 *
 * This file is the executable specification: it follows the algorithm step
 * by step, favours clarity over speed and allocates its memory afresh on
 * every call.  yespower-opt.c must give the same answers; the tests check
 * it does.  Link this file instead of the optimized one with `make ref`.
 *
 * Notation.  yespower works on blocks of 128*r bytes, seen as 2*r
 * sub-blocks of 64 bytes, each of 16 little-endian 32-bit words.  Inside the
 * mixing functions a sub-block is kept in "shuffled" order: shuffled word i
 * is Salsa20 word (5 * i) mod 16.  The order matters, because pwxform reads
 * the words of a sub-block as 64-bit lanes (word 2m low, word 2m + 1 high)
 * and Integerify reads word 0 of the last sub-block; both are defined on the
 * shuffled order, which is what the first SIMD implementations used.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "insecure_memzero.h"
#include "sysendian.h"
#include "yespower-hashes.h"
#include "yespower.h"

/* pwxform's shape: each round processes PWX_GATHER groups of PWX_SIMPLE
 * 64-bit lanes, i.e. exactly one 64-byte sub-block. */
#define PWX_SIMPLE 2
#define PWX_GATHER 4
#define PWX_WORDS (PWX_GATHER * PWX_SIMPLE * 2)	/* 32-bit words: 16 */

/* What distinguishes the two versions inside the mixing core. */
typedef struct {
	unsigned salsa20_rounds;	/* Salsa20/8 or Salsa20/2 */
	unsigned pwx_rounds;		/* pwxform rounds per sub-block */
	unsigned swidth;		/* log2 of S-box entries */
	unsigned sboxes;		/* S0, S1 (and S2, the write target) */
} version_consts;

static const version_consts consts_0_5 = { 8, 6, 8, 2 };
static const version_consts consts_1_0 = { 2, 3, 11, 3 };

/*
 * The pwxform state.  Each S-box has 2^swidth entries of PWX_SIMPLE 64-bit
 * lanes (4 words).  Version 1.0 also writes into the boxes as it goes and
 * rotates their roles after every sub-block.
 */
typedef struct {
	yespower_version_t version;
	const version_consts *vc;
	uint32_t *S;		/* all boxes, contiguous: also smix1's V for S */
	size_t S_words;
	uint32_t *S0, *S1, *S2;
	uint32_t smask;		/* byte offset of an entry, masked */
	size_t w;		/* write position, in 64-bit lanes */
} pwxform_ctx;

static void block_copy(uint32_t *dst, const uint32_t *src, size_t words)
{
	memcpy(dst, src, words * sizeof(uint32_t));
}

static void block_xor(uint32_t *dst, const uint32_t *src, size_t words)
{
	size_t i;

	for (i = 0; i < words; i++)
		dst[i] ^= src[i];
}

static uint32_t rotl32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

/* One Salsa20 quarter-round on words a, b, c, d of x. */
static void quarter_round(uint32_t x[16], int a, int b, int c, int d)
{
	x[b] ^= rotl32(x[a] + x[d], 7);
	x[c] ^= rotl32(x[b] + x[a], 9);
	x[d] ^= rotl32(x[c] + x[b], 13);
	x[a] ^= rotl32(x[d] + x[c], 18);
}

/*
 * salsa20(B, rounds):
 * The Salsa20 core (rounds = 8 or 2) applied in place to a shuffled
 * sub-block: B = B + Salsa20_rounds(B), word by word.
 */
static void salsa20(uint32_t B[16], unsigned rounds)
{
	uint32_t x[16];
	unsigned i;

	for (i = 0; i < 16; i++)
		x[(5 * i) % 16] = B[i];

	for (i = 0; i < rounds; i += 2) {
		/* columns */
		quarter_round(x, 0, 4, 8, 12);
		quarter_round(x, 5, 9, 13, 1);
		quarter_round(x, 10, 14, 2, 6);
		quarter_round(x, 15, 3, 7, 11);
		/* rows */
		quarter_round(x, 0, 1, 2, 3);
		quarter_round(x, 5, 6, 7, 4);
		quarter_round(x, 10, 11, 8, 9);
		quarter_round(x, 15, 12, 13, 14);
	}

	for (i = 0; i < 16; i++)
		B[i] += x[(5 * i) % 16];
}

/*
 * blockmix_salsa(B, rounds):
 * scrypt's BlockMix with r = 1 on a 128-byte block, used only to fill the
 * S-boxes.  For r = 1 the output reordering of BlockMix is the identity.
 */
static void blockmix_salsa(uint32_t B[32], unsigned rounds)
{
	uint32_t X[16];
	int i;

	block_copy(X, &B[16], 16);
	for (i = 0; i < 2; i++) {
		block_xor(X, &B[i * 16], 16);
		salsa20(X, rounds);
		block_copy(&B[i * 16], X, 16);
	}
}

/* A 64-bit lane of a shuffled sub-block or S-box entry. */
static uint64_t lane_get(const uint32_t *p)
{
	return (uint64_t)p[0] | ((uint64_t)p[1] << 32);
}

static void lane_set(uint32_t *p, uint64_t x)
{
	p[0] = (uint32_t)x;
	p[1] = (uint32_t)(x >> 32);
}

/*
 * pwxform(X, ctx):
 * The parallel wide transformation on one 64-byte sub-block X.  In every
 * round, each group of two lanes picks one S0 entry by the low word of its
 * first lane and one S1 entry by the high word, and every lane becomes
 * (hi * lo + S0 lane) xor S1 lane.  Version 1.0 writes some of the new
 * lanes into the boxes (groups 0 and 2 into S0, 1 and 3 into S1, at
 * position w) and rotates the boxes at the end: (S0, S1, S2) <- (S2, S0, S1).
 */
static void pwxform(uint32_t X[PWX_WORDS], pwxform_ctx *ctx)
{
	uint32_t *S0 = ctx->S0, *S1 = ctx->S1;
	size_t w = ctx->w;
	int v1 = (ctx->version == YESPOWER_1_0);
	unsigned round, j, k;

	for (round = 0; round < ctx->vc->pwx_rounds; round++) {
		for (j = 0; j < PWX_GATHER; j++) {
			uint32_t *g = &X[j * PWX_SIMPLE * 2];
			/* byte offsets, masked to an entry, as word indices */
			const uint32_t *p0 = S0 + (g[0] & ctx->smask) / 4;
			const uint32_t *p1 = S1 + (g[1] & ctx->smask) / 4;

			for (k = 0; k < PWX_SIMPLE; k++) {
				uint64_t x = (uint64_t)g[2 * k + 1] * g[2 * k];

				x += lane_get(&p0[2 * k]);
				x ^= lane_get(&p1[2 * k]);
				lane_set(&g[2 * k], x);
			}

			/* Version 1.0 writes all groups in round 0, then only
			 * groups 0 and 1. */
			if (v1 && (round == 0 || j < PWX_GATHER / 2)) {
				uint32_t *Sw = (j & 1) ? S1 : S0;

				for (k = 0; k < PWX_SIMPLE; k++) {
					Sw[(w + k) * 2] = g[2 * k];
					Sw[(w + k) * 2 + 1] = g[2 * k + 1];
				}
				if (j & 1)
					w += PWX_SIMPLE;
			}
		}
	}

	if (v1) {
		ctx->S0 = ctx->S2;
		ctx->S1 = S0;
		ctx->S2 = S1;
		ctx->w = w % ((size_t)PWX_SIMPLE << ctx->vc->swidth);
	}
}

/*
 * blockmix_pwxform(B, r, ctx):
 * yespower's BlockMix on a block of r 128-byte blocks, i.e. 2r sub-blocks:
 * a chain of pwxform over the sub-blocks, each xored with the previous
 * result, then Salsa20 on the last sub-block only.  (The definition goes on
 * to chain Salsa20 over the sub-blocks after it; with these pwxform sizes
 * there are none.)
 */
static void blockmix_pwxform(uint32_t *B, size_t r, pwxform_ctx *ctx)
{
	size_t n = 2 * r;	/* sub-blocks; always at least 2 */
	uint32_t X[PWX_WORDS];
	size_t i;

	block_copy(X, &B[(n - 1) * PWX_WORDS], PWX_WORDS);
	for (i = 0; i < n; i++) {
		block_xor(X, &B[i * PWX_WORDS], PWX_WORDS);
		pwxform(X, ctx);
		block_copy(&B[i * PWX_WORDS], X, PWX_WORDS);
	}

	salsa20(&B[(n - 1) * 16], ctx->vc->salsa20_rounds);
}

/* Integerify: the low 32 bits of the last sub-block, read as an integer. */
static uint32_t integerify(const uint32_t *B, size_t r)
{
	return B[(2 * r - 1) * 16];
}

/* Wrap(x, i): x reduced into the last p2floor(i) of 0 .. i - 1, where
 * p2floor(i) is the largest power of 2 not above i. */
static uint32_t wrap(uint32_t x, uint32_t i)
{
	uint32_t n = i;

	while (n & (n - 1))
		n &= n - 1;
	return (x & (n - 1)) + (i - n);
}

/* Load a block of little-endian bytes into shuffled words, and back. */
static void block_load(uint32_t *X, const uint8_t *B, size_t r)
{
	size_t k, i;

	for (k = 0; k < 2 * r; k++)
		for (i = 0; i < 16; i++)
			X[k * 16 + i] = le32dec(&B[(k * 16 + (5 * i) % 16) * 4]);
}

static void block_store(uint8_t *B, const uint32_t *X, size_t r)
{
	size_t k, i;

	for (k = 0; k < 2 * r; k++)
		for (i = 0; i < 16; i++)
			le32enc(&B[(k * 16 + (5 * i) % 16) * 4], X[k * 16 + i]);
}

/*
 * smix1(B, r, N, V, X, ctx):
 * The first, sequential-write loop of SMix on the 128r-byte block B: fill
 * V_0 .. V_{N-1}, each block mixed with a pseudo-random earlier one, and
 * return the last state in B.  When V is the S-box area this is the S-box
 * initialization and uses scrypt's Salsa20 BlockMix; otherwise it uses
 * BlockMix_pwxform.  N need not be a power of 2 (it is 768 for the 1.0
 * S-boxes), hence Wrap.
 */
static void smix1(uint8_t *B, size_t r, uint32_t N, uint32_t *V,
    uint32_t *X, pwxform_ctx *ctx)
{
	size_t s = 32 * r;	/* words per block */
	int sbox_fill = (V == ctx->S);
	uint32_t i;
	size_t k;

	block_load(X, B, r);

	/* Version 1.0 derives 128-byte blocks 1 .. r-1 from block 0. */
	if (ctx->version == YESPOWER_1_0) {
		for (k = 1; k < r; k++) {
			block_copy(&X[k * 32], &X[(k - 1) * 32], 32);
			blockmix_pwxform(&X[k * 32], 1, ctx);
		}
	}

	for (i = 0; i < N; i++) {
		block_copy(&V[i * s], X, s);
		if (i > 1)
			block_xor(X, &V[wrap(integerify(X, r), i) * s], s);
		if (sbox_fill)
			blockmix_salsa(X, ctx->vc->salsa20_rounds);
		else
			blockmix_pwxform(X, r, ctx);
	}

	block_store(B, X, r);
}

/*
 * smix2(B, r, N, Nloop, V, X, ctx):
 * The second loop of SMix: Nloop random reads of V, each block read also
 * written back mixed (except in a loop of exactly 2 iterations, which
 * yespower 0.5 uses as a read-only tail).
 */
static void smix2(uint8_t *B, size_t r, uint32_t N, uint32_t Nloop,
    uint32_t *V, uint32_t *X, pwxform_ctx *ctx)
{
	size_t s = 32 * r;
	uint32_t i, j;

	block_load(X, B, r);

	for (i = 0; i < Nloop; i++) {
		j = integerify(X, r) & (N - 1);
		block_xor(X, &V[j * s], s);
		if (Nloop != 2)
			block_copy(&V[j * s], X, s);
		blockmix_pwxform(X, r, ctx);
	}

	block_store(B, X, r);
}

/*
 * smix(B, r, N, V, X, ctx):
 * SMix as yespower uses it: initialize the S-boxes from B, then the
 * sequential loop over N blocks and about N/3 random read-write steps.
 */
static void smix(uint8_t *B, size_t r, uint32_t N, uint32_t *V,
    uint32_t *X, pwxform_ctx *ctx)
{
	uint32_t Nloop_all = (N + 2) / 3;	/* N/3, rounded up */
	uint32_t Nloop_rw = Nloop_all;

	Nloop_all = (Nloop_all + 1) & ~(uint32_t)1;	/* up to even */
	if (ctx->version == YESPOWER_0_5)
		Nloop_rw &= ~(uint32_t)1;		/* down to even */
	else
		Nloop_rw = (Nloop_rw + 1) & ~(uint32_t)1;

	smix1(B, 1, (uint32_t)(ctx->S_words / 32), ctx->S, X, ctx);
	smix1(B, r, N, V, X, ctx);
	smix2(B, r, N, Nloop_rw, V, X, ctx);
	smix2(B, r, N, Nloop_all - Nloop_rw, V, X, ctx);
}

static int params_valid(const yespower_params_t *p)
{
	return (p->version == YESPOWER_0_5 || p->version == YESPOWER_1_0) &&
	    p->N >= 1024 && p->N <= 512 * 1024 && (p->N & (p->N - 1)) == 0 &&
	    p->r >= 8 && p->r <= 32 && (p->pers || !p->perslen);
}

/*
 * yespower_kdf(h, src, srclen, params, dst):
 * The whole hash with the hash functions h.  Front end: B = PBKDF2(H(src),
 * salt, 1, 128r), where the salt is src itself in 0.5 and the
 * personalization in 1.0.  Then SMix.  Back end, 0.5: PBKDF2(B_0[0..31],
 * B, 1, 32), and if there is a personalization, H(HMAC(that, pers)); 1.0:
 * HMAC(key = the last 64 bytes of B, B_0[0..31]), where B_0[0..31] is the
 * start of B as PBKDF2 produced it.  Memory is allocated and freed here on
 * every call.
 */
static int yespower_kdf(const yespower_hash_family *h, const uint8_t *src,
    size_t srclen, const yespower_params_t *params, yespower_binary_t *dst)
{
	const version_consts *vc;
	pwxform_ctx ctx;
	size_t B_size, S_bytes;
	uint8_t *B = NULL;
	uint32_t *V = NULL, *X = NULL, *S = NULL;
	uint8_t prehash[32], B0[32], out[32];
	const uint8_t *salt;
	size_t saltlen;

	if (!dst) {
		errno = EINVAL;
		return -1;
	}
	if (!params || !params_valid(params) || (!src && srclen)) {
		memset(dst, 0xff, sizeof(*dst));
		errno = EINVAL;
		return -1;
	}

	vc = (params->version == YESPOWER_0_5) ? &consts_0_5 : &consts_1_0;
	B_size = (size_t)128 * params->r;
	S_bytes = vc->sboxes * ((size_t)PWX_SIMPLE * 8 << vc->swidth);

	B = malloc(B_size);
	X = malloc(B_size);
	S = malloc(S_bytes);
	V = malloc(B_size * params->N);
	if (!B || !X || !S || !V) {
		free(B); free(X); free(S); free(V);
		memset(dst, 0xff, sizeof(*dst));
		errno = ENOMEM;
		return -1;
	}

	ctx.version = params->version;
	ctx.vc = vc;
	ctx.S = S;
	ctx.S_words = S_bytes / 4;
	ctx.S0 = S;
	ctx.S1 = S + (PWX_SIMPLE * 2 << vc->swidth);
	ctx.S2 = S + 2 * (PWX_SIMPLE * 2 << vc->swidth);
	ctx.smask = ((1u << vc->swidth) - 1) * PWX_SIMPLE * 8;
	ctx.w = 0;

	h->hash(src, srclen, prehash);
	if (params->version == YESPOWER_0_5) {
		salt = src;
		saltlen = srclen;
	} else {
		salt = params->pers;
		saltlen = params->pers ? params->perslen : 0;
	}
	h->pbkdf2(prehash, sizeof(prehash), salt, saltlen, 1, B, B_size);
	memcpy(B0, B, sizeof(B0));

	smix(B, params->r, params->N, V, X, &ctx);

	/* The result goes to dst last: src and pers may lie in it. */
	if (params->version == YESPOWER_0_5) {
		h->pbkdf2(B0, sizeof(B0), B, B_size, 1, out, sizeof(out));
		if (params->pers) {
			uint8_t mac[32];

			h->hmac(out, sizeof(out), params->pers,
			    params->perslen, mac);
			h->hash(mac, sizeof(mac), out);
		}
	} else {
		h->hmac(B + B_size - 64, 64, B0, sizeof(B0), out);
	}
	memcpy(dst->uc, out, sizeof(out));

	insecure_memzero(prehash, sizeof(prehash));
	insecure_memzero(B0, sizeof(B0));
	free(B); free(X); free(S); free(V);
	return 0;
}

/* The reference allocates on every call, so local is not used. */
int yespower(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	(void)local;
	return yespower_kdf(&yespower_family_sha256, src, srclen, params, dst);
}

/* power2b exists only for version 1.0. */
int yespower_b2b(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	(void)local;
	if (params && params->version != YESPOWER_1_0) {
		errno = EINVAL;
		if (dst)
			memset(dst, 0xff, sizeof(*dst));
		return -1;
	}
	return yespower_kdf(&yespower_family_blake2b, src, srclen, params, dst);
}

int yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return yespower_b2b(NULL, src, srclen, params, dst);
}

int yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return yespower(NULL, src, srclen, params, dst);
}

/*
 * The batch functions, one input at a time: the same answers and errors
 * as the optimized library's, without its interleaving.
 */
typedef int hash_one_fn(yespower_local_t *local, const uint8_t *src,
    size_t srclen, const yespower_params_t *params, yespower_binary_t *dst);

/* Do the len bytes at p share a byte with the count outputs at dst? */
static int in_outputs(const void *p, size_t len, const yespower_binary_t *dst,
    size_t count)
{
	uintptr_t a = (uintptr_t)p, lo = (uintptr_t)dst,
	    hi = (uintptr_t)(dst + count);

	return p && len && a < hi && (a >= lo || lo - a < len);
}

static int batch_loop(hash_one_fn *one, yespower_local_t *local,
    const uint8_t *const src[], const size_t srclen[], size_t count,
    const yespower_params_t *params, yespower_binary_t dst[])
{
	size_t i;

	if (!count)
		return 0;
	if (!dst) {
		errno = EINVAL;
		return -1;
	}
	if (!src || !srclen) {
		errno = EINVAL;
		goto fail;
	}
	/* As the optimized library, which would give wrong hashes. */
	if (count > 1 && params &&
	    in_outputs(params->pers, params->perslen, dst, count)) {
		errno = EINVAL;
		goto fail;
	}
	for (i = 0; count > 1 && i < count; i++)
		if (in_outputs(src[i], srclen[i], dst, count)) {
			errno = EINVAL;
			goto fail;
		}
	for (i = 0; i < count; i++)
		if (one(local, src[i], srclen[i], params, &dst[i]))
			goto fail;
	return 0;

fail:
	for (i = 0; i < count; i++)
		memset(&dst[i], 0xff, sizeof(dst[i]));
	return -1;
}

int yespower_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return batch_loop(yespower, local, src, srclen, count, params, dst);
}

int yespower_batch_tls(const uint8_t *const src[], const size_t srclen[],
    size_t count, const yespower_params_t *params, yespower_binary_t dst[])
{
	return batch_loop(yespower, NULL, src, srclen, count, params, dst);
}

int yespower_b2b_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return batch_loop(yespower_b2b, local, src, srclen, count, params, dst);
}

int yespower_b2b_batch_tls(const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return batch_loop(yespower_b2b, NULL, src, srclen, count, params, dst);
}

int yespower_init_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	local->base = local->aligned = NULL;
	local->base_size = local->aligned_size = 0;
	return 0;
}

int yespower_free_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The reference has a single implementation of its own. */
const char *yespower_impl_name(void)
{
	return "reference";
}

const char *yespower_impl_at(size_t i)
{
	return i == 0 ? "reference" : NULL;
}

int yespower_set_impl(const char *name)
{
	if (name && !strncmp(name, "core=", 5))
		name += 5;
	if (name && strcmp(name, "auto") && strcmp(name, "reference")) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
