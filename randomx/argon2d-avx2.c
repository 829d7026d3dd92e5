/*
 * argon2d-avx2.c: Argon2d's block compression on AVX2 (compiled with
 * -mavx2; called only where the CPU has AVX2).  Same results as the
 * portable one.
 *
 * The block is 32 registers of four words.  A row round (words 16i ..
 * 16i + 15) is the BLAKE2b round on registers 4i .. 4i + 3, one row of the
 * 4 x 4 matrix each, diagonalized with cross-lane permutes.  Column rounds
 * go two at a time: rounds 2k and 2k + 1 use the low and high halves of
 * the same 8 registers (k, k + 4, ..., k + 28), so their column step is
 * lane-wise as it is, and their diagonal step pairs words from two
 * registers with a blend and an in-half swap.
 *
 * Memory, not arithmetic, bounds a 256 MiB fill: each block reads a
 * reference block at a random place.  Its successor's reference is known
 * once word 0 of the block is, so that block is prefetched early.
 */
#include <immintrin.h>

#include "randomx/argon2d.h"

static inline __m256i blamka(__m256i a, __m256i b)
{
	__m256i p = _mm256_mul_epu32(a, b);

	return _mm256_add_epi64(_mm256_add_epi64(a, b),
	    _mm256_add_epi64(p, p));
}

static inline __m256i ror32(__m256i x)
{
	return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}

static inline __m256i ror24(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2,
	    11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5, 6, 7, 0, 1, 2,
	    11, 12, 13, 14, 15, 8, 9, 10);

	return _mm256_shuffle_epi8(x, m);
}

static inline __m256i ror16(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1,
	    10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1,
	    10, 11, 12, 13, 14, 15, 8, 9);

	return _mm256_shuffle_epi8(x, m);
}

static inline __m256i ror63(__m256i x)
{
	return _mm256_xor_si256(_mm256_srli_epi64(x, 63),
	    _mm256_add_epi64(x, x));
}

#define G4(a, b, c, d) do { \
	a = blamka(a, b); d = ror32(_mm256_xor_si256(d, a)); \
	c = blamka(c, d); b = ror24(_mm256_xor_si256(b, c)); \
	a = blamka(a, b); d = ror16(_mm256_xor_si256(d, a)); \
	c = blamka(c, d); b = ror63(_mm256_xor_si256(b, c)); \
} while (0)

/* Rotate rows b, c, d of a 4 x 4 matrix left by 1, 2, 3 words for the
 * diagonal step, and back. */
#define ROW_DIAG(b, c, d) do { \
	b = _mm256_permute4x64_epi64(b, _MM_SHUFFLE(0, 3, 2, 1)); \
	c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(2, 1, 0, 3)); \
} while (0)

#define ROW_UNDIAG(b, c, d) do { \
	b = _mm256_permute4x64_epi64(b, _MM_SHUFFLE(2, 1, 0, 3)); \
	c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(0, 3, 2, 1)); \
} while (0)

/*
 * Row rounds on four rows of 16 words, v[4i .. 4i + 3] being row i's
 * (words 0-3, ..., 12-15).  One row's round is a long chain of dependent
 * operations; four independent ones written side by side keep the
 * execution units busy (measured: faster than one or two at a time,
 * despite the register spills).
 */
static inline __attribute__((always_inline)) void row_rounds4(__m256i *v)
{
	__m256i a = v[0], b = v[1], c = v[2], d = v[3];
	__m256i e = v[4], f = v[5], g = v[6], h = v[7];
	__m256i i = v[8], j = v[9], k = v[10], l = v[11];
	__m256i m = v[12], n = v[13], o = v[14], p = v[15];

	G4(a, b, c, d);
	G4(e, f, g, h);
	G4(i, j, k, l);
	G4(m, n, o, p);
	ROW_DIAG(b, c, d);
	ROW_DIAG(f, g, h);
	ROW_DIAG(j, k, l);
	ROW_DIAG(n, o, p);
	G4(a, b, c, d);
	G4(e, f, g, h);
	G4(i, j, k, l);
	G4(m, n, o, p);
	ROW_UNDIAG(b, c, d);
	ROW_UNDIAG(f, g, h);
	ROW_UNDIAG(j, k, l);
	ROW_UNDIAG(n, o, p);
	v[0] = a;
	v[1] = b;
	v[2] = c;
	v[3] = d;
	v[4] = e;
	v[5] = f;
	v[6] = g;
	v[7] = h;
	v[8] = i;
	v[9] = j;
	v[10] = k;
	v[11] = l;
	v[12] = m;
	v[13] = n;
	v[14] = o;
	v[15] = p;
}

/* Words 1 and 3 of x with words 0 and 2 of y, each pair of words then
 * swapped: the result is (x1 y0 x3 y2). */
static inline __m256i pair_swap(__m256i x, __m256i y)
{
	return _mm256_shuffle_epi32(_mm256_blend_epi32(x, y, 0x33),
	    _MM_SHUFFLE(1, 0, 3, 2));
}

/*
 * Column rounds 2k and 2k + 1: v points at register k; the rows of the
 * matrix are registers (0, 4), (8, 12), (16, 20), (24, 28) from there.
 */
static inline __attribute__((always_inline)) void column_rounds(__m256i *v)
{
	__m256i a0 = v[0], a1 = v[4], b0 = v[8], b1 = v[12];
	__m256i c0 = v[16], c1 = v[20], d0 = v[24], d1 = v[28];
	__m256i t0, t1;

	G4(a0, b0, c0, d0);
	G4(a1, b1, c1, d1);
	t0 = pair_swap(b0, b1);		/* words 5, 6 */
	t1 = pair_swap(b1, b0);		/* words 7, 4 */
	b0 = t0;
	b1 = t1;
	t0 = pair_swap(d1, d0);		/* words 15, 12 */
	t1 = pair_swap(d0, d1);		/* words 13, 14 */
	d0 = t0;
	d1 = t1;
	G4(a0, b0, c1, d0);
	G4(a1, b1, c0, d1);
	v[0] = a0;
	v[4] = a1;
	v[8] = pair_swap(b1, b0);
	v[12] = pair_swap(b0, b1);
	v[16] = c0;
	v[20] = c1;
	v[24] = pair_swap(d0, d1);
	v[28] = pair_swap(d1, d0);
}

/*
 * next = R ^ P(R) with R = prev ^ ref (xored into next's old contents if
 * with_xor), P being the row rounds then the column rounds; meanwhile the
 * successor's reference block is prefetched if pos says it is in this
 * segment.  Blocks are 64-byte aligned.
 */
static inline __attribute__((always_inline)) void compress_avx2(
    const rx_argon2_block *prev, const rx_argon2_block *ref,
    rx_argon2_block *next, int with_xor, const rx_argon2d_position *pos)
{
	const __m256i *p = (const __m256i *)prev->v;
	const __m256i *q = (const __m256i *)ref->v;
	__m256i *out = (__m256i *)next->v;
	__m256i r[32], z[32];
	int i;

	for (i = 0; i < 32; i++) {
		r[i] = _mm256_xor_si256(_mm256_load_si256(&p[i]),
		    _mm256_load_si256(&q[i]));
		z[i] = r[i];
	}
	/* The block after this one is written next: the hardware's stream
	 * prefetch stops at each 4 KiB page, every fourth block. */
	if (pos->prefetch_next) {
		const char *after = (const char *)(next + 1);

		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			_mm_prefetch(after + i, _MM_HINT_T0);
	}
	row_rounds4(&z[0]);
	row_rounds4(&z[16]);
	column_rounds(&z[0]);
	/* Start loading the next block's reference block now, so that the
	 * other six column rounds run while its 16 lines come from memory. */
	if (pos->prefetch_next) {
		uint64_t w0;
		const char *nref;

		/* (a store, not _mm256_extract_epi64: i686 lacks that) */
		_mm_storel_epi64((__m128i *)&w0, _mm256_castsi256_si128(
		    _mm256_xor_si256(r[0], z[0])));
		nref = rx_argon2d_successor_ref(pos, with_xor ?
		    w0 ^ next->v[0] : w0);

		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			_mm_prefetch(nref + i, _MM_HINT_T0);
	}
	column_rounds(&z[1]);
	column_rounds(&z[2]);
	column_rounds(&z[3]);
	if (with_xor) {
		for (i = 0; i < 32; i++)
			_mm256_store_si256(&out[i], _mm256_xor_si256(
			    _mm256_load_si256(&out[i]),
			    _mm256_xor_si256(r[i], z[i])));
	} else {
		for (i = 0; i < 32; i++)
			_mm256_store_si256(&out[i],
			    _mm256_xor_si256(r[i], z[i]));
	}
}

void rx_argon2d_fill_segment_avx2(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice)
{
	rx_argon2d_fill_segment(mem, lane_blocks, pass, slice,
	    compress_avx2);
}
