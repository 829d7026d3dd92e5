/*
 * BLAKE2b (RFC 7693), and MicroBitcoin's HMAC-BLAKE2b-256 / PBKDF2 for
 * power2b.  Portable C99; byte order is handled through sysendian.h, so the
 * results do not depend on the host's endianness or alignment rules.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "blake2b.h"
#include "insecure_memzero.h"
#include "sysendian.h"

#define BLOCKBYTES POW_BLAKE2B_BLOCKBYTES
#define HMAC_BYTES POW_HMAC_BLAKE2B256_BYTES

/* MicroBitcoin pads HMAC keys to 64 bytes, half a BLAKE2b block. */
#define HMAC_PADBYTES 64

static const uint64_t blake2b_iv[8] = {
	UINT64_C(0x6a09e667f3bcc908), UINT64_C(0xbb67ae8584caa73b),
	UINT64_C(0x3c6ef372fe94f82b), UINT64_C(0xa54ff53a5f1d36f1),
	UINT64_C(0x510e527fade682d1), UINT64_C(0x9b05688c2b3e6c1f),
	UINT64_C(0x1f83d9abfb41bd6b), UINT64_C(0x5be0cd19137e2179)
};

/* Rounds 10 and 11 reuse permutations 0 and 1, so only ten are stored. */
static const uint8_t blake2b_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 }
};

static inline uint64_t rotr64(uint64_t x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

static inline void mix(uint64_t v[16], int a, int b, int c, int d,
    uint64_t x, uint64_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = rotr64(v[d] ^ v[a], 32);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 24);
	v[a] = v[a] + v[b] + y;
	v[d] = rotr64(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 63);
}

static void round_fn(uint64_t v[16], const uint64_t m[16], const uint8_t *s)
{
	mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
	mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
	mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
	mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
	mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
	mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
	mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
	mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/*
 * The compression function F.  The byte counter must already include this
 * block; last selects the finalization flag f0 (f1 stays 0: no tree mode).
 */
static void compress(pow_blake2b_ctx *ctx, const uint8_t *block,
    int last)
{
	uint64_t m[16], v[16];
	int i;

	for (i = 0; i < 16; i++)
		m[i] = le64dec(block + 8 * i);
	for (i = 0; i < 8; i++) {
		v[i] = ctx->h[i];
		v[i + 8] = blake2b_iv[i];
	}
	v[12] ^= ctx->t[0];
	v[13] ^= ctx->t[1];
	if (last)
		v[14] = ~v[14];

	for (i = 0; i < 12; i++)
		round_fn(v, m, blake2b_sigma[i % 10]);

	for (i = 0; i < 8; i++)
		ctx->h[i] ^= v[i] ^ v[i + 8];
}

static void add_to_counter(pow_blake2b_ctx *ctx, size_t n)
{
	ctx->t[0] += (uint64_t)n;
	if (ctx->t[0] < (uint64_t)n)
		ctx->t[1]++;
}

/*
 * Parameter block (RFC 7693 section 2.5) for the sequential, unsalted,
 * unpersonalized case: only its first word differs from zero, so it is
 * folded into h[0] instead of being built as 64 bytes.
 */
int pow_blake2b_init(pow_blake2b_ctx *ctx, size_t outlen,
    const void *key, size_t keylen)
{
	if (outlen == 0 || outlen > POW_BLAKE2B_OUTBYTES ||
	    keylen > POW_BLAKE2B_KEYBYTES) {
		errno = EINVAL;
		return -1;
	}

	memcpy(ctx->h, blake2b_iv, sizeof(ctx->h));
	ctx->h[0] ^= UINT64_C(0x01010000) ^ ((uint64_t)keylen << 8) ^
	    (uint64_t)outlen;
	ctx->t[0] = ctx->t[1] = 0;
	ctx->outlen = outlen;
	memset(ctx->buf, 0, sizeof(ctx->buf));
	ctx->buflen = 0;

	/* The key is a whole zero-padded first block, never compressed here:
	 * for an empty message it is also the last block. */
	if (keylen > 0) {
		memcpy(ctx->buf, key, keylen);
		ctx->buflen = BLOCKBYTES;
	}
	return 0;
}

/*
 * Blocks are compressed only once input beyond them exists, because the
 * final block needs the f0 flag and BLAKE2b cannot know which block is last
 * until pow_blake2b_final is called.
 */
void pow_blake2b_update(pow_blake2b_ctx *ctx,
    const void *in, size_t inlen)
{
	const uint8_t *p = (const uint8_t *)in;
	size_t fill;

	if (inlen == 0)
		return;

	fill = BLOCKBYTES - ctx->buflen;
	if (inlen > fill) {
		memcpy(ctx->buf + ctx->buflen, p, fill);
		add_to_counter(ctx, BLOCKBYTES);
		compress(ctx, ctx->buf, 0);
		ctx->buflen = 0;
		p += fill;
		inlen -= fill;

		while (inlen > BLOCKBYTES) {
			add_to_counter(ctx, BLOCKBYTES);
			compress(ctx, p, 0);
			p += BLOCKBYTES;
			inlen -= BLOCKBYTES;
		}
	}

	memcpy(ctx->buf + ctx->buflen, p, inlen);
	ctx->buflen += inlen;
}

void pow_blake2b_final(pow_blake2b_ctx *ctx, uint8_t *out)
{
	size_t i;

	add_to_counter(ctx, ctx->buflen);
	memset(ctx->buf + ctx->buflen, 0, BLOCKBYTES - ctx->buflen);
	compress(ctx, ctx->buf, 1);

	/* Byte by byte, so an outlen that is not a multiple of 8 needs no
	 * temporary copy of the full 64-byte state. */
	for (i = 0; i < ctx->outlen; i++)
		out[i] = (uint8_t)(ctx->h[i / 8] >> (8 * (i % 8)));

	insecure_memzero(ctx, sizeof(*ctx));
}

int pow_blake2b(void *out, size_t outlen, const void *key, size_t keylen,
    const void *in, size_t inlen)
{
	pow_blake2b_ctx ctx;

	if (pow_blake2b_init(&ctx, outlen, key, keylen))
		return -1;
	pow_blake2b_update(&ctx, in, inlen);
	pow_blake2b_final(&ctx, (uint8_t *)out);
	return 0;
}

/* Unkeyed BLAKE2b-256 cannot fail, so its callers need no error path. */
static void blake2b256_init(pow_blake2b_ctx *ctx)
{
	(void)pow_blake2b_init(ctx, HMAC_BYTES, NULL, 0);
}

static void absorb_padded_key(pow_blake2b_ctx *ctx,
    const uint8_t *key, size_t keylen, uint8_t padbyte)
{
	uint8_t pad[HMAC_PADBYTES];
	size_t i;

	memset(pad, padbyte, sizeof(pad));
	for (i = 0; i < keylen; i++)
		pad[i] ^= key[i];

	blake2b256_init(ctx);
	pow_blake2b_update(ctx, pad, sizeof(pad));
	insecure_memzero(pad, sizeof(pad));
}

void pow_hmac_blake2b256_init(pow_hmac_blake2b256_ctx *hctx,
    const void *key, size_t keylen)
{
	const uint8_t *k = (const uint8_t *)key;
	uint8_t khash[HMAC_BYTES];

	/* MicroBitcoin hashes long keys to 32 bytes (BLAKE2b-256), not to a
	 * full 64-byte BLAKE2b digest; a 64-byte key is used as is. */
	if (keylen > HMAC_PADBYTES) {
		blake2b256_init(&hctx->inner);
		pow_blake2b_update(&hctx->inner, k, keylen);
		pow_blake2b_final(&hctx->inner, khash);
		k = khash;
		keylen = sizeof(khash);
	}

	absorb_padded_key(&hctx->inner, k, keylen, 0x36);
	absorb_padded_key(&hctx->outer, k, keylen, 0x5c);
	insecure_memzero(khash, sizeof(khash));
}

void pow_hmac_blake2b256_update(pow_hmac_blake2b256_ctx *hctx,
    const void *in, size_t inlen)
{
	pow_blake2b_update(&hctx->inner, in, inlen);
}

void pow_hmac_blake2b256_final(pow_hmac_blake2b256_ctx *hctx,
    uint8_t out[POW_HMAC_BLAKE2B256_BYTES])
{
	uint8_t ihash[HMAC_BYTES];

	pow_blake2b_final(&hctx->inner, ihash);
	pow_blake2b_update(&hctx->outer, ihash, sizeof(ihash));
	pow_blake2b_final(&hctx->outer, out);
	insecure_memzero(ihash, sizeof(ihash));
}

void pow_hmac_blake2b256(uint8_t out[POW_HMAC_BLAKE2B256_BYTES],
    const void *key, size_t keylen, const void *in, size_t inlen)
{
	pow_hmac_blake2b256_ctx hctx;

	pow_hmac_blake2b256_init(&hctx, key, keylen);
	pow_hmac_blake2b256_update(&hctx, in, inlen);
	pow_hmac_blake2b256_final(&hctx, out);
}

/*
 * One PBKDF2 output block.  Pctx is the MAC state keyed with P and PSctx
 * the same after absorbing S; copying them saves re-deriving the padded
 * key (and re-hashing a long password) on every iteration.
 */
static void pbkdf2_block(const pow_hmac_blake2b256_ctx *Pctx,
    const pow_hmac_blake2b256_ctx *PSctx, uint32_t blocknum,
    uint64_t c, uint8_t T[HMAC_BYTES])
{
	pow_hmac_blake2b256_ctx hctx;
	uint8_t ivec[4], U[HMAC_BYTES];
	uint64_t j;
	size_t k;

	be32enc(ivec, blocknum);
	hctx = *PSctx;
	pow_hmac_blake2b256_update(&hctx, ivec, sizeof(ivec));
	pow_hmac_blake2b256_final(&hctx, U);
	memcpy(T, U, sizeof(U));

	for (j = 2; j <= c; j++) {
		hctx = *Pctx;
		pow_hmac_blake2b256_update(&hctx, U, sizeof(U));
		pow_hmac_blake2b256_final(&hctx, U);
		for (k = 0; k < sizeof(U); k++)
			T[k] ^= U[k];
	}

	insecure_memzero(U, sizeof(U));
}

void pow_pbkdf2_blake2b256(const uint8_t *passwd, size_t passwdlen,
    const uint8_t *salt, size_t saltlen, uint64_t c,
    uint8_t *buf, size_t dkLen)
{
	pow_hmac_blake2b256_ctx Pctx, PSctx;
	uint8_t T[HMAC_BYTES];
	size_t done, clen;
	uint32_t blocknum;

	pow_hmac_blake2b256_init(&Pctx, passwd, passwdlen);
	PSctx = Pctx;
	pow_hmac_blake2b256_update(&PSctx, salt, saltlen);

	for (done = 0, blocknum = 1; done < dkLen; done += clen, blocknum++) {
		pbkdf2_block(&Pctx, &PSctx, blocknum, c, T);
		clen = dkLen - done;
		if (clen > sizeof(T))
			clen = sizeof(T);
		memcpy(buf + done, T, clen);
	}

	/* Neither state reached _final, which is what wipes. */
	insecure_memzero(&Pctx, sizeof(Pctx));
	insecure_memzero(&PSctx, sizeof(PSctx));
	insecure_memzero(T, sizeof(T));
}
