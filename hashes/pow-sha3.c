/*
 * pow-sha3.c: SHA3-256 (FIPS 202), streaming and one-shot, and the
 * many-64-byte-inputs entry point of pow-hash.h.  Compiled with no
 * instruction-set flags: the single-state permutation is the portable
 * one (a single SHA3 state is a chain of dependent rounds, which SIMD
 * lanes do not shorten); the many-at-once function goes through the
 * dispatcher's Keccak kernels.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "insecure_memzero.h"
#include "pow-hash.h"
#include "pow-hash-impl.h"
#include "sysendian.h"

/* SHA3-256's rate: 1600 - 2 * 256 bits. */
#define RATE 136

static int fail(uint8_t *digest)
{
	if (digest)
		memset(digest, 0xff, 32);
	errno = EINVAL;
	return -1;
}

int pow_sha3_256_init(pow_sha3_256_ctx *ctx)
{
	if (!ctx) {
		errno = EINVAL;
		return -1;
	}
	memset(ctx, 0, sizeof(*ctx));
	return 0;
}

/* XOR len bytes into the state from byte offset `at` of the block on. */
static void absorb_bytes(uint64_t lanes[25], size_t at, const uint8_t *p,
    size_t len)
{
	for (; len; len--, at++, p++)
		lanes[at / 8] ^= (uint64_t)*p << (8 * (at % 8));
}

int pow_sha3_256_update(pow_sha3_256_ctx *ctx, const void *in, size_t len)
{
	const uint8_t *p = in;
	size_t i;

	if (!ctx || (!in && len)) {
		errno = EINVAL;
		return -1;
	}
	if (ctx->have >= RATE) {	/* not from pow_sha3_256_init() */
		errno = EINVAL;
		return -1;
	}

	if (ctx->have) {
		size_t take = RATE - ctx->have;

		if (take > len)
			take = len;
		absorb_bytes(ctx->lanes, ctx->have, p, take);
		ctx->have += take;
		p += take;
		len -= take;
		if (ctx->have < RATE)
			return 0;
		pow_keccakf1600_portable(ctx->lanes);
		ctx->have = 0;
	}

	/* Whole blocks a lane at a time. */
	for (; len >= RATE; len -= RATE, p += RATE) {
		for (i = 0; i < RATE / 8; i++)
			ctx->lanes[i] ^= le64dec(&p[8 * i]);
		pow_keccakf1600_portable(ctx->lanes);
	}

	absorb_bytes(ctx->lanes, 0, p, len);
	ctx->have = len;
	return 0;
}

int pow_sha3_256_final(pow_sha3_256_ctx *ctx, uint8_t digest[32])
{
	int i;

	if (!ctx || !digest || ctx->have >= RATE) {
		if (ctx)
			insecure_memzero(ctx, sizeof(*ctx));
		return fail(digest);
	}
	/* The SHA3 domain bits 01, then pad10*1 (FIPS 202, B.2). */
	ctx->lanes[ctx->have / 8] ^= (uint64_t)0x06 << (8 * (ctx->have % 8));
	ctx->lanes[(RATE - 1) / 8] ^= (uint64_t)0x80 << (8 * ((RATE - 1) % 8));
	pow_keccakf1600_portable(ctx->lanes);
	for (i = 0; i < 4; i++)
		le64enc(&digest[8 * i], ctx->lanes[i]);
	insecure_memzero(ctx, sizeof(*ctx));
	return 0;
}

int pow_sha3_256(const void *in, size_t len, uint8_t digest[32])
{
	pow_sha3_256_ctx ctx;

	if (!digest || (!in && len))
		return fail(digest);
	pow_sha3_256_init(&ctx);
	pow_sha3_256_update(&ctx, in, len);
	return pow_sha3_256_final(&ctx, digest);
}

int pow_sha3_256_64(uint8_t *out, const uint8_t *in, size_t blocks)
{
	if (!blocks)
		return 0;
	if (!out || !in || blocks > SIZE_MAX / 64) {
		if (out && blocks <= SIZE_MAX / 64)
			memset(out, 0xff, 32 * blocks);
		errno = EINVAL;
		return -1;
	}
	pow_keccak_in_use()->sha3_64(out, in, blocks);
	return 0;
}
