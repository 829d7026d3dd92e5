/*
 * pow-sha256-shani.c: the many-at-once SHA-256 kernels with the x86 SHA
 * extensions (SHA-NI), 1 to 4 independent messages interleaved.
 *
 * Compiled alone with -msha -msse4.1 (the Makefile), called only when
 * cpuid reports SHA-NI.  sha256-shani.c explains how SHA256RNDS2,
 * SHA256MSG1 and SHA256MSG2 split the work and the ABEF/CDGH register
 * layout; the rounds here are the same, for S streams at once.
 *
 * Why interleave.  SHA256RNDS2 has a latency of 4 cycles on the CPUs
 * this was measured on (AMD Zen 3 and 4) and each depends on the one
 * before, so one message takes at least 32 x 4 = 128 cycles per block;
 * but a Zen 4 starts one per cycle and a Zen 3 one every 2 cycles, so
 * 2 (Zen 3) to 4 (Zen 4) independent streams fill the unit.  A chain of
 * recursive hashes cannot be split, so 1 chain runs at the latency and
 * the work saved there is on the critical path between two hashes:
 * the next message is taken straight from the state registers with one
 * shuffle (shufps picks two dwords from each), and the feed-forward
 * addition of the initial state is folded into the round constants of
 * the next hash's first rounds.
 *
 * SHA-256d of a 64-byte message is 3 compressions: the message block;
 * the padding block, whose schedule is the same for every message
 * (pow_sha256_pad64_wk: 32 SHA256RNDS2 and no schedule); and the
 * 32-byte digest with its padding, whose last 8 message words are
 * constants.
 */
#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#include "cpu-features.h"
#include "pow-hash-impl.h"
#include "sha256.h"

#if defined(__SHA__) && defined(__SSE4_1__)
#define TARGET_SHANI
#else
#define TARGET_SHANI __attribute__((target("sha,sse4.1,ssse3")))
#endif
#define INLINE static inline __attribute__((always_inline)) TARGET_SHANI

/* Streams are loops over s < S with S a constant; unrolled, the arrays
 * below become registers. */
#define EACH(s) _Pragma("GCC unroll 4") for (int s = 0; s < S; s++)

/* The initial state in the ABEF and CDGH layouts, and as message words
 * A B C D and E F G H (what a digest of a chain feeds forward). */
#define H0_ABEF _mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f, \
	(int)0x9b05688c)
#define H0_CDGH _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, \
	0x5be0cd19)
#define H0_ABCD _mm_set_epi32((int)0xa54ff53a, 0x3c6ef372, (int)0xbb67ae85, \
	0x6a09e667)
#define H0_EFGH _mm_set_epi32(0x5be0cd19, 0x1f83d9ab, (int)0x9b05688c, \
	0x510e527f)

/* Message words 8 .. 15 of a 32-byte message: 0x80, zeros, 256 bits. */
#define PAD32_W8 _mm_set_epi32(0, 0, 0, (int)0x80000000)
#define PAD32_W12 _mm_set_epi32(256, 0, 0, 0)

/* shufps picks dwords 3, 2 of the first operand then 3, 2 of the second
 * (A B C D from ABEF and CDGH), or 1, 0 and 1, 0 (E F G H). */
#define PICK_ABCD 0xbb
#define PICK_EFGH 0x11

#define pick(abef, cdgh, which) _mm_castps_si128(_mm_shuffle_ps( \
	_mm_castsi128_ps(abef), _mm_castsi128_ps(cdgh), which))

INLINE __m128i bswap_mask(void)
{
	return _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
}

INLINE __m128i load_be(const uint8_t *p)
{
	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
	    bswap_mask());
}

INLINE void store_be(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, _mm_shuffle_epi8(v, bswap_mask()));
}

INLINE __m128i K4(const int g)
{
	return _mm_load_si128((const __m128i *)&yespower_sha256_K[4 * g]);
}

/*
 * quad(S, g, abef, cdgh, w, wk0): rounds 4g .. 4g + 3 of each stream,
 * with W[4g ..] in w[s][g % 4], finishing W[4g + 4 ..] and starting
 * W[4g + 12 ..] as sha256-shani.c's QUAD does.  For g = 0, wk0 (if not
 * NULL) holds W + K already.
 */
INLINE void quad(const int S, const int g, __m128i *abef, __m128i *cdgh,
    __m128i (*w)[4], const __m128i *wk0)
{
	const int v = g & 3, prev = (g + 3) & 3, next = (g + 1) & 3;
	__m128i wk[4];

	EACH(s) {
		wk[s] = (g == 0 && wk0) ? wk0[s] :
		    _mm_add_epi32(w[s][v], K4(g));
		cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk[s]);
	}
	if (g >= 3 && g <= 14) {
		EACH(s) {
			w[s][next] = _mm_add_epi32(w[s][next],
			    _mm_alignr_epi8(w[s][v], w[s][prev], 4));
			w[s][next] = _mm_sha256msg2_epu32(w[s][next], w[s][v]);
		}
	}
	EACH(s)
		abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s],
		    _mm_shuffle_epi32(wk[s], 0x0e));
	if (g >= 1 && g <= 12) {
		EACH(s)
			w[s][prev] = _mm_sha256msg1_epu32(w[s][prev], w[s][v]);
	}
}

/* All 64 rounds of each stream from its message words w (consumed). */
INLINE void rounds(const int S, __m128i *abef, __m128i *cdgh,
    __m128i (*w)[4], const __m128i *wk0)
{
	quad(S, 0, abef, cdgh, w, wk0);
	quad(S, 1, abef, cdgh, w, NULL);
	quad(S, 2, abef, cdgh, w, NULL);
	quad(S, 3, abef, cdgh, w, NULL);
	quad(S, 4, abef, cdgh, w, NULL);
	quad(S, 5, abef, cdgh, w, NULL);
	quad(S, 6, abef, cdgh, w, NULL);
	quad(S, 7, abef, cdgh, w, NULL);
	quad(S, 8, abef, cdgh, w, NULL);
	quad(S, 9, abef, cdgh, w, NULL);
	quad(S, 10, abef, cdgh, w, NULL);
	quad(S, 11, abef, cdgh, w, NULL);
	quad(S, 12, abef, cdgh, w, NULL);
	quad(S, 13, abef, cdgh, w, NULL);
	quad(S, 14, abef, cdgh, w, NULL);
	quad(S, 15, abef, cdgh, w, NULL);
}

/* 64 rounds with W + K from a table: the padding block of 64 bytes. */
INLINE void rounds_pad64(const int S, __m128i *abef, __m128i *cdgh)
{
	_Pragma("GCC unroll 16")
	for (int g = 0; g < 16; g++) {
		const __m128i wk = _mm_load_si128(
		    (const __m128i *)&pow_sha256_pad64_wk[4 * g]);
		const __m128i wk_hi = _mm_shuffle_epi32(wk, 0x0e);

		EACH(s)
			cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk);
		EACH(s)
			abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], wk_hi);
	}
}

/* The S 64-byte messages at in to their SHA-256d at out. */
INLINE void d64_streams(const int S, uint8_t *out, const uint8_t *in)
{
	__m128i abef[4], cdgh[4], abef1[4], cdgh1[4], w[4][4];

	EACH(s) {
		w[s][0] = load_be(&in[64 * s]);
		w[s][1] = load_be(&in[64 * s + 16]);
		w[s][2] = load_be(&in[64 * s + 32]);
		w[s][3] = load_be(&in[64 * s + 48]);
		abef[s] = H0_ABEF;
		cdgh[s] = H0_CDGH;
	}
	rounds(S, abef, cdgh, w, NULL);
	EACH(s) {
		abef1[s] = abef[s] = _mm_add_epi32(abef[s], H0_ABEF);
		cdgh1[s] = cdgh[s] = _mm_add_epi32(cdgh[s], H0_CDGH);
	}
	rounds_pad64(S, abef, cdgh);
	EACH(s) {
		abef[s] = _mm_add_epi32(abef[s], abef1[s]);
		cdgh[s] = _mm_add_epi32(cdgh[s], cdgh1[s]);
		w[s][0] = pick(abef[s], cdgh[s], PICK_ABCD);
		w[s][1] = pick(abef[s], cdgh[s], PICK_EFGH);
		w[s][2] = PAD32_W8;
		w[s][3] = PAD32_W12;
		abef[s] = H0_ABEF;
		cdgh[s] = H0_CDGH;
	}
	rounds(S, abef, cdgh, w, NULL);
	EACH(s) {
		abef[s] = _mm_add_epi32(abef[s], H0_ABEF);
		cdgh[s] = _mm_add_epi32(cdgh[s], H0_CDGH);
		store_be(&out[32 * s], pick(abef[s], cdgh[s], PICK_ABCD));
		store_be(&out[32 * s + 16], pick(abef[s], cdgh[s], PICK_EFGH));
	}
}

/*
 * S chains at h, each hashed iters (>= 1) times.  Between two hashes the
 * critical path is: last SHA256RNDS2, shufps, paddd (the state words
 * plus the feed-forward and K, one constant), first SHA256RNDS2.
 */
INLINE void recursive_streams(const int S, uint8_t *h, uint64_t iters)
{
	const __m128i abcd_k = _mm_add_epi32(H0_ABCD, K4(0));
	__m128i abef[4], cdgh[4], w[4][4], wk0[4];

	EACH(s) {
		w[s][0] = load_be(&h[32 * s]);
		w[s][1] = load_be(&h[32 * s + 16]);
		wk0[s] = _mm_add_epi32(w[s][0], K4(0));
	}
	for (;;) {
		EACH(s) {
			w[s][2] = PAD32_W8;
			w[s][3] = PAD32_W12;
			abef[s] = H0_ABEF;
			cdgh[s] = H0_CDGH;
		}
		rounds(S, abef, cdgh, w, wk0);
		EACH(s) {
			const __m128i abcd = pick(abef[s], cdgh[s], PICK_ABCD);

			wk0[s] = _mm_add_epi32(abcd, abcd_k);
			w[s][0] = _mm_add_epi32(abcd, H0_ABCD);
			w[s][1] = _mm_add_epi32(pick(abef[s], cdgh[s],
			    PICK_EFGH), H0_EFGH);
		}
		if (!--iters)
			break;
	}
	EACH(s) {
		store_be(&h[32 * s], w[s][0]);
		store_be(&h[32 * s + 16], w[s][1]);
	}
}

#define STREAM_FUNCS(S) \
TARGET_SHANI static void d64_x##S(uint8_t *out, const uint8_t *in) \
{ \
	d64_streams(S, out, in); \
} \
TARGET_SHANI static void recursive_x##S(uint8_t *h, uint64_t iters) \
{ \
	recursive_streams(S, h, iters); \
}
STREAM_FUNCS(1)
STREAM_FUNCS(2)
STREAM_FUNCS(3)
STREAM_FUNCS(4)

typedef void d64_group_fn(uint8_t *out, const uint8_t *in);
typedef void recursive_group_fn(uint8_t *h, uint64_t iters);
static d64_group_fn *const d64_x[5] = {
	NULL, d64_x1, d64_x2, d64_x3, d64_x4
};
static recursive_group_fn *const recursive_x[5] = {
	NULL, recursive_x1, recursive_x2, recursive_x3, recursive_x4
};

/*
 * Groups of `ways` messages (1 to 4), then what is left in one smaller
 * group.  Inputs are read in groups before the group's outputs are
 * written, and output i never lies after input i, so out == in works.
 */
void pow_sha256_shani_d64_ways(uint8_t *out, const uint8_t *in, size_t n,
    int ways)
{
	for (; n >= (size_t)ways; n -= ways, in += 64 * ways, out += 32 * ways)
		d64_x[ways](out, in);
	if (n)
		d64_x[n](out, in);
}

void pow_sha256_shani_recursive_ways(uint8_t *h, size_t chains,
    uint64_t iters, int ways)
{
	if (!iters)
		return;
	for (; chains >= (size_t)ways; chains -= ways, h += 32 * ways)
		recursive_x[ways](h, iters);
	if (chains)
		recursive_x[chains](h, iters);
}

/* The widths used by default (the measurements are in notes/hashes.md). */
#define D64_WAYS 2
#define RECURSIVE_WAYS 3

static void d64_shani(uint8_t *out, const uint8_t *in, size_t n)
{
	pow_sha256_shani_d64_ways(out, in, n, D64_WAYS);
}

static void recursive_shani(uint8_t *h, size_t chains, uint64_t iters)
{
	pow_sha256_shani_recursive_ways(h, chains, iters, RECURSIVE_WAYS);
}

const pow_sha256_kernels pow_sha256_kernels_shani = {
	"shani", POW_CPU_SHANI, d64_shani, recursive_shani,
	RECURSIVE_WAYS
};
