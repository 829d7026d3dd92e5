/*
 * argon2d-avx512.c: Argon2d's block compression on AVX-512F (compiled with
 * -mavx512f; called only where the CPU has it).  Same results as the
 * portable one.
 *
 * The block is 16 registers of eight words.  Register 4p + q holds words
 * 4q .. 4q + 3 of rows 2p and 2p + 1, one row in each 256-bit half:
 *
 * - A row round runs on registers 4p .. 4p + 3, two rows at once, one row
 *   of the BLAKE2b 4 x 4 matrix in each register's halves; its diagonal
 *   step turns words within the halves (VPERMQ with an immediate).
 * - The same registers serve the column rounds unchanged: registers q,
 *   4 + q, 8 + q, 12 + q are columns 2q and 2q + 1, whose column step is
 *   lane-wise as the words lie.  Their diagonal step pairs words across
 *   the halves, three fixed permutes.
 *
 * Against AVX2 that is half the instructions a G, and the rotations are
 * single VPRORQs.  Memory still bounds a 256 MiB fill (each block reads a
 * reference block at a random place), so the successor's reference block
 * is prefetched as soon as word 0 of this block is known, as the AVX2
 * code does; the arithmetic saved shortens the time until then, which
 * the wait for memory cannot overlap.
 */
#include <immintrin.h>

#include "randomx/argon2d.h"

static inline __m512i blamka(__m512i a, __m512i b)
{
	__m512i p = _mm512_mul_epu32(a, b);

	return _mm512_add_epi64(_mm512_add_epi64(a, b),
	    _mm512_add_epi64(p, p));
}

#define G8(a, b, c, d) do { \
	a = blamka(a, b); \
	d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 32); \
	c = blamka(c, d); \
	b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 24); \
	a = blamka(a, b); \
	d = _mm512_ror_epi64(_mm512_xor_si512(d, a), 16); \
	c = blamka(c, d); \
	b = _mm512_ror_epi64(_mm512_xor_si512(b, c), 63); \
} while (0)

/* Row rounds: rows b, c, d of each half's matrix turned left by 1, 2, 3
 * words for the diagonal step, and back. */
#define ROW_DIAG(b, c, d) do { \
	b = _mm512_permutex_epi64(b, _MM_SHUFFLE(0, 3, 2, 1)); \
	c = _mm512_permutex_epi64(c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm512_permutex_epi64(d, _MM_SHUFFLE(2, 1, 0, 3)); \
} while (0)

#define ROW_UNDIAG(b, c, d) do { \
	b = _mm512_permutex_epi64(b, _MM_SHUFFLE(2, 1, 0, 3)); \
	c = _mm512_permutex_epi64(c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm512_permutex_epi64(d, _MM_SHUFFLE(0, 3, 2, 1)); \
} while (0)

/*
 * Column rounds' diagonal step.  In a column register lanes 0, 1, 4, 5
 * belong to one column and 2, 3, 6, 7 to the other; for column 2q, lane 0
 * holds its BLAKE2b word v0 (or v4, v8, v12 in b, c, d), lane 1 v1, lane 4
 * v2, lane 5 v3.  The diagonal G that takes v0 takes v5, v10 and v15,
 * found in lanes 1, 4 and 5 of b, c and d; and so on.  b and d are moved
 * by two permutations that undo each other, c by swapping its halves.
 */
#define COL_B_IDX _mm512_setr_epi64(1, 4, 3, 6, 5, 0, 7, 2)
#define COL_D_IDX _mm512_setr_epi64(5, 0, 7, 2, 1, 4, 3, 6)

#define COL_DIAG(b, c, d, ib, id) do { \
	b = _mm512_permutexvar_epi64(ib, b); \
	c = _mm512_shuffle_i64x2(c, c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm512_permutexvar_epi64(id, d); \
} while (0)

#define COL_UNDIAG(b, c, d, ib, id) do { \
	b = _mm512_permutexvar_epi64(id, b); \
	c = _mm512_shuffle_i64x2(c, c, _MM_SHUFFLE(1, 0, 3, 2)); \
	d = _mm512_permutexvar_epi64(ib, d); \
} while (0)

/*
 * The row rounds on all eight rows, then the column rounds on columns 0
 * and 1, then on the other six.  Each phase is four independent chains of
 * dependent operations, written side by side so that they overlap:
 * latency, not the number of instructions, bounds a round (a loop over
 * the four, which gcc left rolled, took about 170 ns a block, hot, on a
 * Zen 5, against 106 to 148 for this).
 */
static inline __attribute__((always_inline)) void row_rounds(__m512i *v)
{
	__m512i a0 = v[0], b0 = v[1], c0 = v[2], d0 = v[3];
	__m512i a1 = v[4], b1 = v[5], c1 = v[6], d1 = v[7];
	__m512i a2 = v[8], b2 = v[9], c2 = v[10], d2 = v[11];
	__m512i a3 = v[12], b3 = v[13], c3 = v[14], d3 = v[15];

	G8(a0, b0, c0, d0);
	G8(a1, b1, c1, d1);
	G8(a2, b2, c2, d2);
	G8(a3, b3, c3, d3);
	ROW_DIAG(b0, c0, d0);
	ROW_DIAG(b1, c1, d1);
	ROW_DIAG(b2, c2, d2);
	ROW_DIAG(b3, c3, d3);
	G8(a0, b0, c0, d0);
	G8(a1, b1, c1, d1);
	G8(a2, b2, c2, d2);
	G8(a3, b3, c3, d3);
	ROW_UNDIAG(b0, c0, d0);
	ROW_UNDIAG(b1, c1, d1);
	ROW_UNDIAG(b2, c2, d2);
	ROW_UNDIAG(b3, c3, d3);
	v[0] = a0; v[1] = b0; v[2] = c0; v[3] = d0;
	v[4] = a1; v[5] = b1; v[6] = c1; v[7] = d1;
	v[8] = a2; v[9] = b2; v[10] = c2; v[11] = d2;
	v[12] = a3; v[13] = b3; v[14] = c3; v[15] = d3;
}

/* Column rounds on columns 2q and 2q + 1 (v points at register q). */
static inline __attribute__((always_inline)) void column_rounds(__m512i *v)
{
	const __m512i ib = COL_B_IDX, id = COL_D_IDX;
	__m512i a = v[0], b = v[4], c = v[8], d = v[12];

	G8(a, b, c, d);
	COL_DIAG(b, c, d, ib, id);
	G8(a, b, c, d);
	COL_UNDIAG(b, c, d, ib, id);
	v[0] = a;
	v[4] = b;
	v[8] = c;
	v[12] = d;
}

/* Column rounds on columns 2 to 7, three chains side by side. */
static inline __attribute__((always_inline)) void column_rounds3(__m512i *v)
{
	const __m512i ib = COL_B_IDX, id = COL_D_IDX;
	__m512i a1 = v[1], b1 = v[5], c1 = v[9], d1 = v[13];
	__m512i a2 = v[2], b2 = v[6], c2 = v[10], d2 = v[14];
	__m512i a3 = v[3], b3 = v[7], c3 = v[11], d3 = v[15];

	G8(a1, b1, c1, d1);
	G8(a2, b2, c2, d2);
	G8(a3, b3, c3, d3);
	COL_DIAG(b1, c1, d1, ib, id);
	COL_DIAG(b2, c2, d2, ib, id);
	COL_DIAG(b3, c3, d3, ib, id);
	G8(a1, b1, c1, d1);
	G8(a2, b2, c2, d2);
	G8(a3, b3, c3, d3);
	COL_UNDIAG(b1, c1, d1, ib, id);
	COL_UNDIAG(b2, c2, d2, ib, id);
	COL_UNDIAG(b3, c3, d3, ib, id);
	v[1] = a1; v[5] = b1; v[9] = c1; v[13] = d1;
	v[2] = a2; v[6] = b2; v[10] = c2; v[14] = d2;
	v[3] = a3; v[7] = b3; v[11] = c3; v[15] = d3;
}

/*
 * Load the block at x ^ y (y may be NULL) into the register layout above:
 * rows 2p and 2p + 1 as eight words each (x0 .. x3) become registers
 * 4p .. 4p + 3 by taking 256-bit halves.
 */
static inline __attribute__((always_inline)) void load_xor(__m512i *r,
    const __m512i *x, const __m512i *y)
{
	int p;

	for (p = 0; p < 4; p++) {
		__m512i lo0 = _mm512_xor_si512(_mm512_load_si512(&x[4 * p]),
		    _mm512_load_si512(&y[4 * p]));
		__m512i hi0 = _mm512_xor_si512(
		    _mm512_load_si512(&x[4 * p + 1]),
		    _mm512_load_si512(&y[4 * p + 1]));
		__m512i lo1 = _mm512_xor_si512(
		    _mm512_load_si512(&x[4 * p + 2]),
		    _mm512_load_si512(&y[4 * p + 2]));
		__m512i hi1 = _mm512_xor_si512(
		    _mm512_load_si512(&x[4 * p + 3]),
		    _mm512_load_si512(&y[4 * p + 3]));

		/* (lo0, hi0) is row 2p, (lo1, hi1) row 2p + 1 */
		r[4 * p] = _mm512_shuffle_i64x2(lo0, lo1, 0x44);
		r[4 * p + 1] = _mm512_shuffle_i64x2(lo0, lo1, 0xee);
		r[4 * p + 2] = _mm512_shuffle_i64x2(hi0, hi1, 0x44);
		r[4 * p + 3] = _mm512_shuffle_i64x2(hi0, hi1, 0xee);
	}
}

/* The inverse: registers 4p .. 4p + 3 back to rows 2p and 2p + 1 in
 * memory order, each xored with what out holds there if with_xor. */
static inline __attribute__((always_inline)) void store_rows(__m512i *out,
    const __m512i *r, int with_xor)
{
	int p, i;

	for (p = 0; p < 4; p++) {
		__m512i w[4];

		w[0] = _mm512_shuffle_i64x2(r[4 * p], r[4 * p + 1], 0x44);
		w[1] = _mm512_shuffle_i64x2(r[4 * p + 2], r[4 * p + 3], 0x44);
		w[2] = _mm512_shuffle_i64x2(r[4 * p], r[4 * p + 1], 0xee);
		w[3] = _mm512_shuffle_i64x2(r[4 * p + 2], r[4 * p + 3], 0xee);
		for (i = 0; i < 4; i++) {
			if (with_xor)
				w[i] = _mm512_xor_si512(w[i],
				    _mm512_load_si512(&out[4 * p + i]));
			_mm512_store_si512(&out[4 * p + i], w[i]);
		}
	}
}

/*
 * next = R ^ P(R) with R = prev ^ ref (xored into next's old contents if
 * with_xor), P being the row rounds then the column rounds; meanwhile the
 * successor's reference block is prefetched if pos says it is in this
 * segment.  Blocks are 64-byte aligned.
 */
static inline __attribute__((always_inline)) void compress_avx512(
    const rx_argon2_block *prev, const rx_argon2_block *ref,
    rx_argon2_block *next, int with_xor, const rx_argon2d_position *pos)
{
	__m512i r[16], z[16];
	int i;

	load_xor(r, (const __m512i *)prev->v, (const __m512i *)ref->v);
	for (i = 0; i < 16; i++)
		z[i] = r[i];
	/* Unlike the AVX2 code, no prefetch of the block written next: on a
	 * Zen 5 that made the fill 4 to 10% slower, whether for every block
	 * or at each 4 KiB page (the reference block's lines should be the
	 * first ones in flight). */
	row_rounds(z);
	/* Columns 0 and 1 first: word 0 of the result is then known, and the
	 * next block's reference block can come from memory while the other
	 * six columns are computed. */
	column_rounds(&z[0]);
	if (pos->prefetch_next) {
		uint64_t w0;
		const char *nref;

		/* (a store, not a 64-bit extract: i686 lacks that) */
		_mm_storel_epi64((__m128i *)&w0, _mm512_castsi512_si128(
		    _mm512_xor_si512(r[0], z[0])));
		nref = rx_argon2d_successor_ref(pos, with_xor ?
		    w0 ^ next->v[0] : w0);
		for (i = 0; i < RX_ARGON2_BLOCK_BYTES; i += 64)
			_mm_prefetch(nref + i, _MM_HINT_T0);
	}
	column_rounds3(z);
	for (i = 0; i < 16; i++)
		z[i] = _mm512_xor_si512(z[i], r[i]);
	store_rows((__m512i *)next->v, z, with_xor);
}

void rx_argon2d_fill_segment_avx512(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice)
{
	rx_argon2d_fill_segment(mem, lane_blocks, pass, slice,
	    compress_avx512);
}
