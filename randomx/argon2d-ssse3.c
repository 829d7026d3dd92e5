/*
 * argon2d-ssse3.c: Argon2d's block compression on SSSE3 (compiled with
 * -mssse3; called only where the CPU has SSSE3).  Same results as the
 * portable one.
 *
 * The block is 64 registers of two words.  A BLAKE2b round on 16 words
 * uses 8 of them, two per row of the 4 x 4 matrix: the column step works
 * lane by lane, the diagonal step first rotates rows 1-3 by 1-3 words
 * across their register pair (palignr), then rotates them back.
 */
#include <immintrin.h>

#include "randomx/argon2d.h"

static inline __m128i blamka(__m128i a, __m128i b)
{
	__m128i p = _mm_mul_epu32(a, b);

	return _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(p, p));
}

/* 64-bit rotations right by 32, 24, 16 (byte shuffles) and 63. */
static inline __m128i ror32(__m128i x)
{
	return _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}

static inline __m128i ror24(__m128i x)
{
	const __m128i m = _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2,
	    11, 12, 13, 14, 15, 8, 9, 10);

	return _mm_shuffle_epi8(x, m);
}

static inline __m128i ror16(__m128i x)
{
	const __m128i m = _mm_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1,
	    10, 11, 12, 13, 14, 15, 8, 9);

	return _mm_shuffle_epi8(x, m);
}

static inline __m128i ror63(__m128i x)
{
	return _mm_xor_si128(_mm_srli_epi64(x, 63), _mm_add_epi64(x, x));
}

/* G on two lanes at once: rows a, b, c, d of one register each. */
#define G2(a, b, c, d) do { \
	a = blamka(a, b); d = ror32(_mm_xor_si128(d, a)); \
	c = blamka(c, d); b = ror24(_mm_xor_si128(b, c)); \
	a = blamka(a, b); d = ror16(_mm_xor_si128(d, a)); \
	c = blamka(c, d); b = ror63(_mm_xor_si128(b, c)); \
} while (0)

/*
 * One BLAKE2b round on the 16 words held in (a0 a1) (b0 b1) (c0 c1)
 * (d0 d1), words 0-3 being a0's two then a1's two, and so on.
 */
static inline __attribute__((always_inline)) void round_ssse3(
    __m128i *a0, __m128i *a1, __m128i *b0, __m128i *b1,
    __m128i *c0, __m128i *c1, __m128i *d0, __m128i *d1)
{
	__m128i t0, t1;

	G2(*a0, *b0, *c0, *d0);
	G2(*a1, *b1, *c1, *d1);
	/* Diagonalize: row b left by 1 word, c by 2, d by 3. */
	t0 = _mm_alignr_epi8(*b1, *b0, 8);
	t1 = _mm_alignr_epi8(*b0, *b1, 8);
	*b0 = t0;
	*b1 = t1;
	t0 = *c0;
	*c0 = *c1;
	*c1 = t0;
	t0 = _mm_alignr_epi8(*d0, *d1, 8);
	t1 = _mm_alignr_epi8(*d1, *d0, 8);
	*d0 = t0;
	*d1 = t1;
	G2(*a0, *b0, *c0, *d0);
	G2(*a1, *b1, *c1, *d1);
	t0 = _mm_alignr_epi8(*b0, *b1, 8);
	t1 = _mm_alignr_epi8(*b1, *b0, 8);
	*b0 = t0;
	*b1 = t1;
	t0 = *c0;
	*c0 = *c1;
	*c1 = t0;
	t0 = _mm_alignr_epi8(*d1, *d0, 8);
	t1 = _mm_alignr_epi8(*d0, *d1, 8);
	*d0 = t0;
	*d1 = t1;
}

/* Row rounds on two rows (8 registers each), written side by side. */
static inline __attribute__((always_inline)) void round2_ssse3(__m128i *v,
    __m128i *w)
{
	__m128i a0 = v[0], a1 = v[1], b0 = v[2], b1 = v[3];
	__m128i c0 = v[4], c1 = v[5], d0 = v[6], d1 = v[7];
	__m128i e0 = w[0], e1 = w[1], f0 = w[2], f1 = w[3];
	__m128i g0 = w[4], g1 = w[5], h0 = w[6], h1 = w[7];

	round_ssse3(&a0, &a1, &b0, &b1, &c0, &c1, &d0, &d1);
	round_ssse3(&e0, &e1, &f0, &f1, &g0, &g1, &h0, &h1);
	v[0] = a0;
	v[1] = a1;
	v[2] = b0;
	v[3] = b1;
	v[4] = c0;
	v[5] = c1;
	v[6] = d0;
	v[7] = d1;
	w[0] = e0;
	w[1] = e1;
	w[2] = f0;
	w[3] = f1;
	w[4] = g0;
	w[5] = g1;
	w[6] = h0;
	w[7] = h1;
}

/*
 * next = R ^ P(R) with R = prev ^ ref (xored into next's old contents if
 * with_xor), P being the row rounds (registers 8i .. 8i + 7, two rows at
 * a time for independent chains) then the column rounds (registers i,
 * i + 8, ..., i + 56).  Column round 0 finishes word 0 of the result,
 * which gives the successor's reference block: it is prefetched then,
 * while the other seven column rounds run.
 */
static inline __attribute__((always_inline)) void compress_ssse3(
    const rx_argon2_block *prev, const rx_argon2_block *ref,
    rx_argon2_block *next, int with_xor, const rx_argon2d_position *pos)
{
	const __m128i *p = (const __m128i *)prev->v;
	const __m128i *q = (const __m128i *)ref->v;
	__m128i *out = (__m128i *)next->v;
	__m128i r[64], z[64];
	int i;

	for (i = 0; i < 64; i++) {
		r[i] = _mm_xor_si128(_mm_load_si128(&p[i]),
		    _mm_load_si128(&q[i]));
		z[i] = r[i];
	}
	/* The block after this one is written next: the hardware's stream
	 * prefetch stops at each 4 KiB page, every fourth block. */
	if (pos->prefetch_next) {
		const char *after = (const char *)(next + 1);

		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			_mm_prefetch(after + i, _MM_HINT_T0);
	}
	for (i = 0; i < 8; i += 2)
		round2_ssse3(&z[8 * i], &z[8 * i + 8]);
	round_ssse3(&z[0], &z[8], &z[16], &z[24], &z[32], &z[40], &z[48],
	    &z[56]);
	if (pos->prefetch_next) {
		uint64_t w0;
		const char *nref;

		/* (a store, not _mm_cvtsi128_si64: i686 lacks that) */
		_mm_storel_epi64((__m128i *)&w0, _mm_xor_si128(r[0], z[0]));

		if (with_xor)
			w0 ^= next->v[0];
		nref = rx_argon2d_successor_ref(pos, w0);
		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			_mm_prefetch(nref + i, _MM_HINT_T0);
	}
	for (i = 1; i < 8; i++)
		round_ssse3(&z[i], &z[i + 8], &z[i + 16], &z[i + 24],
		    &z[i + 32], &z[i + 40], &z[i + 48], &z[i + 56]);
	if (with_xor) {
		for (i = 0; i < 64; i++)
			_mm_store_si128(&out[i], _mm_xor_si128(
			    _mm_load_si128(&out[i]),
			    _mm_xor_si128(r[i], z[i])));
	} else {
		for (i = 0; i < 64; i++)
			_mm_store_si128(&out[i], _mm_xor_si128(r[i], z[i]));
	}
}

void rx_argon2d_fill_segment_ssse3(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice)
{
	rx_argon2d_fill_segment(mem, lane_blocks, pass, slice,
	    compress_ssse3);
}
