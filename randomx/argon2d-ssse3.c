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

/*
 * next = (prev ^ ref) ^ P(prev ^ ref), xored into next if with_xor, where
 * P is the row rounds (registers 8i .. 8i + 7) then the column rounds
 * (registers i, i + 8, ..., i + 56).
 */
static void compress_ssse3(const rx_argon2_block *prev,
    const rx_argon2_block *ref, rx_argon2_block *next, int with_xor)
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
	for (i = 0; i < 8; i++) {
		__m128i *v = &z[8 * i];

		round_ssse3(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		    &v[7]);
	}
	for (i = 0; i < 8; i++)
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
