/*
 * argon2d.c: Argon2d's memory fill for the RandomX cache: the initial
 * hash, H', the pass/slice order, the choice of block compression, and
 * the portable compression itself.
 *
 * Blocks are worked on as native 64-bit words; the cache is defined as
 * little-endian words, so a big-endian host swaps them once at the end.
 */
#include <errno.h>
#include <string.h>

#include "blake2b.h"
#include "randomx/cpu.h"
#include "sysendian.h"
#include "randomx/argon2d.h"

#define ARGON2_VERSION 0x13
#define ARGON2_TYPE_D 0
#define H0_BYTES 64

void rx_argon2_hash_long(uint8_t *out, size_t outlen, const void *in,
    size_t inlen)
{
	pow_blake2b_ctx ctx;
	uint8_t len[4], v[64];

	le32enc(len, (uint32_t)outlen);
	pow_blake2b_init(&ctx, outlen < 64 ? outlen : 64, NULL, 0);
	pow_blake2b_update(&ctx, len, sizeof(len));
	pow_blake2b_update(&ctx, in, inlen);
	if (outlen <= 64) {
		pow_blake2b_final(&ctx, out);
		return;
	}
	/* Longer outputs: a chain of 64-byte hashes, each giving its first
	 * half, and a last hash of exactly the bytes still missing. */
	pow_blake2b_final(&ctx, v);
	for (;;) {
		memcpy(out, v, 32);
		out += 32;
		outlen -= 32;
		if (outlen <= 64)
			break;
		pow_blake2b(v, 64, NULL, 0, v, 64);
	}
	pow_blake2b(out, outlen, NULL, 0, v, 64);
}

static void absorb_u32(pow_blake2b_ctx *ctx, uint32_t x)
{
	uint8_t b[4];

	le32enc(b, x);
	pow_blake2b_update(ctx, b, sizeof(b));
}

/*
 * H0: BLAKE2b-512 over the parameters and inputs, each length-prefixed,
 * all numbers 32-bit little-endian (lanes, tag length, memory, passes,
 * version, type, then password, salt, secret and associated data).
 */
static void initial_hash(uint8_t h0[H0_BYTES], uint32_t blocks,
    uint32_t passes, const void *pwd, size_t pwdlen, const void *salt,
    size_t saltlen)
{
	pow_blake2b_ctx ctx;

	pow_blake2b_init(&ctx, H0_BYTES, NULL, 0);
	absorb_u32(&ctx, RX_ARGON2_LANES);
	absorb_u32(&ctx, 0);
	absorb_u32(&ctx, blocks);
	absorb_u32(&ctx, passes);
	absorb_u32(&ctx, ARGON2_VERSION);
	absorb_u32(&ctx, ARGON2_TYPE_D);
	absorb_u32(&ctx, (uint32_t)pwdlen);
	pow_blake2b_update(&ctx, pwd, pwdlen);
	absorb_u32(&ctx, (uint32_t)saltlen);
	pow_blake2b_update(&ctx, salt, saltlen);
	absorb_u32(&ctx, 0);
	absorb_u32(&ctx, 0);
	pow_blake2b_final(&ctx, h0);
}

/* Block k (0 or 1) of the lane: H'(1024, H0 || LE32(k) || LE32(lane 0)). */
static void first_block(rx_argon2_block *b, const uint8_t h0[H0_BYTES],
    uint32_t k)
{
	uint8_t seed[H0_BYTES + 8], bytes[RX_ARGON2_BLOCK_BYTES];
	int i;

	memcpy(seed, h0, H0_BYTES);
	le32enc(seed + H0_BYTES, k);
	le32enc(seed + H0_BYTES + 4, 0);
	rx_argon2_hash_long(bytes, sizeof(bytes), seed, sizeof(seed));
	for (i = 0; i < RX_ARGON2_QWORDS; i++)
		b->v[i] = le64dec(bytes + 8 * i);
}

int rx_argon2_impl_available(rx_argon2_impl impl)
{
	switch (impl) {
	case RX_ARGON2_PORTABLE:
		return 1;
	case RX_ARGON2_SSSE3:
		return rx_cpu_uses(RX_USE_ARGON2_SSSE3);
	case RX_ARGON2_AVX2:
		return rx_cpu_uses(RX_USE_ARGON2_AVX2);
	case RX_ARGON2_AVX512:
		return rx_cpu_uses(RX_USE_ARGON2_AVX512);
	default:
		return 0;
	}
}

rx_argon2_impl rx_argon2_impl_best(void)
{
	if (rx_argon2_impl_available(RX_ARGON2_AVX512))
		return RX_ARGON2_AVX512;
	if (rx_argon2_impl_available(RX_ARGON2_AVX2))
		return RX_ARGON2_AVX2;
	if (rx_argon2_impl_available(RX_ARGON2_SSSE3))
		return RX_ARGON2_SSSE3;
	return RX_ARGON2_PORTABLE;
}

rx_argon2_impl rx_argon2_impl_avx2(void)
{
	return rx_argon2_impl_available(RX_ARGON2_AVX512) ?
	    RX_ARGON2_AVX512 : RX_ARGON2_AVX2;
}

const char *rx_argon2_impl_name(rx_argon2_impl impl)
{
	switch (impl) {
	case RX_ARGON2_PORTABLE:
		return "portable";
	case RX_ARGON2_SSSE3:
		return "ssse3";
	case RX_ARGON2_AVX2:
		return "avx2";
	case RX_ARGON2_AVX512:
		return "avx512";
	}
	return NULL;
}

typedef void segment_fn(rx_argon2_block *mem, uint32_t lane_blocks,
    uint32_t pass, uint32_t slice);

static segment_fn *segment_filler(rx_argon2_impl impl)
{
#ifdef RX_X86_ISAS
	if (impl == RX_ARGON2_SSSE3)
		return rx_argon2d_fill_segment_ssse3;
	if (impl == RX_ARGON2_AVX2)
		return rx_argon2d_fill_segment_avx2;
	if (impl == RX_ARGON2_AVX512)
		return rx_argon2d_fill_segment_avx512;
#else
	(void)impl;
#endif
	return rx_argon2d_fill_segment_portable;
}

int rx_argon2d_fill(uint8_t *memory, uint32_t blocks, uint32_t passes,
    const void *pwd, size_t pwdlen, const void *salt, size_t saltlen,
    rx_argon2_impl impl)
{
	rx_argon2_block *mem = (rx_argon2_block *)memory;
	segment_fn *fill;
	uint8_t h0[H0_BYTES];
	uint32_t pass, slice;

	if (blocks < 8 || blocks % RX_ARGON2_SYNC_POINTS || passes < 1 ||
	    saltlen < 8 || saltlen > UINT32_MAX || pwdlen > UINT32_MAX ||
	    (!pwd && pwdlen) || !salt || !rx_argon2_impl_available(impl)) {
		errno = EINVAL;
		return -1;
	}
	fill = segment_filler(impl);
	initial_hash(h0, blocks, passes, pwd, pwdlen, salt, saltlen);
	first_block(&mem[0], h0, 0);
	first_block(&mem[1], h0, 1);
	for (pass = 0; pass < passes; pass++)
		for (slice = 0; slice < RX_ARGON2_SYNC_POINTS; slice++)
			fill(mem, blocks, pass, slice);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	{
		uint64_t *w = mem[0].v;
		size_t i;

		for (i = 0; i < (size_t)blocks * RX_ARGON2_QWORDS; i++)
			le64enc(&w[i], w[i]);
	}
#endif
	return 0;
}

/* ---- the portable block compression ---- */

static inline uint64_t rotr64(uint64_t x, unsigned c)
{
	return (x >> c) | (x << (64 - c));
}

/* BlaMka's mix: BLAKE2b's G with a + b replaced by a + b + 2 lo(a) lo(b). */
static inline uint64_t blamka(uint64_t a, uint64_t b)
{
	return a + b + 2 * (uint64_t)(uint32_t)a * (uint32_t)b;
}

#define G(a, b, c, d) do { \
	a = blamka(a, b); d = rotr64(d ^ a, 32); \
	c = blamka(c, d); b = rotr64(b ^ c, 24); \
	a = blamka(a, b); d = rotr64(d ^ a, 16); \
	c = blamka(c, d); b = rotr64(b ^ c, 63); \
} while (0)

/* BLAKE2b's round without message words, on the 16 words v[i0], v[i0 +
 * step], v[i0 + 2 step]... taken in pairs (p, p + 1) of the step. */
static inline void round16(uint64_t *v, const unsigned idx[16])
{
	uint64_t *w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = &v[idx[i]];
	G(*w[0], *w[4], *w[8], *w[12]);
	G(*w[1], *w[5], *w[9], *w[13]);
	G(*w[2], *w[6], *w[10], *w[14]);
	G(*w[3], *w[7], *w[11], *w[15]);
	G(*w[0], *w[5], *w[10], *w[15]);
	G(*w[1], *w[6], *w[11], *w[12]);
	G(*w[2], *w[7], *w[8], *w[13]);
	G(*w[3], *w[4], *w[9], *w[14]);
}

/*
 * Argon2's G on blocks: R = prev ^ ref seen as an 8 x 8 matrix of 16-byte
 * registers; the round runs on each row of 8 (words 16i .. 16i + 15), then
 * on each column (word pairs 2i, 2i + 1 of every row); the result is
 * R ^ Z, xored into next from the second pass on.  Column 0 finishes word
 * 0 of the result, which names the successor's reference block: it is
 * prefetched then, while the other seven columns are computed.
 */
static void compress_portable(const rx_argon2_block *prev,
    const rx_argon2_block *ref, rx_argon2_block *next, int with_xor,
    const rx_argon2d_position *pos)
{
	uint64_t r[RX_ARGON2_QWORDS], z[RX_ARGON2_QWORDS];
	unsigned idx[16];
	int i, j;

	for (i = 0; i < RX_ARGON2_QWORDS; i++)
		r[i] = z[i] = prev->v[i] ^ ref->v[i];
	/* The block after this one is written next: the hardware's stream
	 * prefetch stops at each 4 KiB page, every fourth block. */
	if (pos->prefetch_next)
		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			__builtin_prefetch((const char *)(next + 1) + i, 0, 3);
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 16; j++)
			idx[j] = 16 * i + j;
		round16(z, idx);
	}
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 8; j++) {
			idx[2 * j] = 2 * i + 16 * j;
			idx[2 * j + 1] = 2 * i + 16 * j + 1;
		}
		round16(z, idx);
		if (i == 0 && pos->prefetch_next) {
			uint64_t w0 = r[0] ^ z[0] ^ (with_xor ? next->v[0] : 0);
			const char *nref = rx_argon2d_successor_ref(pos, w0);

			for (j = 0; j < RX_ARGON2_BLOCK_BYTES; j += 64)
				__builtin_prefetch(nref + j, 0, 3);
		}
	}
	if (with_xor)
		for (i = 0; i < RX_ARGON2_QWORDS; i++)
			next->v[i] ^= r[i] ^ z[i];
	else
		for (i = 0; i < RX_ARGON2_QWORDS; i++)
			next->v[i] = r[i] ^ z[i];
}

void rx_argon2d_fill_segment_portable(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice)
{
	rx_argon2d_fill_segment(mem, lane_blocks, pass, slice,
	    compress_portable);
}
