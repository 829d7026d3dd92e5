/*
 * yespower-opt-sse.h: the mixing core's primitives on x86 (SSE2, and
 * what AVX, AVX2, XOP and AVX-512VL add): the sse2, avx, avx2, xop and
 * avx512vl builds of yespower-opt.c.
 *
 * Included by yespower-opt.c alone, once, after its definitions of
 * block64, ALWAYS_INLINE and the interleaving (KMAX, FOR_K); it defines
 * grp (a group), xblk (a sub-block in registers: four groups), salsa20()
 * and salsa20_k() for the builds named above.
 */
#ifndef YESPOWER_OPT_SSE_H
#define YESPOWER_OPT_SSE_H

/* ---- groups: two 64-bit lanes, the unit pwxform works on ---- */

/*
 * A group lives in a vector register, and on x86-64 its first lane also in
 * a general register ("shadow").  pwxform's S-box indices come from that
 * lane after every round, and the chain index -> load -> add -> xor is the
 * latency of the whole hash.  Computed in the vector unit it would include
 * a vector-to-integer move and the longer vector load latency; the shadow
 * computes the same lane with scalar instructions, which only need the
 * loads' data, so the indices are known several cycles earlier and the
 * vector loads of the next round start sooner.  Both halves are computed
 * from the same S-box entries, so they stay equal; the shadow is reloaded
 * from memory (never moved out of a vector register) wherever a group is
 * loaded, and only Salsa20's output needs moves.
 */
#if defined(__x86_64__) && !defined(YESPOWER_NO_SHADOW) && \
    !defined(YESPOWER_PLAIN)
#define SHADOW 1
#else
#define SHADOW 0
#endif

typedef struct {
	__m128i v;
#if SHADOW
	uint64_t s;
#endif
} grp;

ALWAYS_INLINE grp grp_from_vec(__m128i v)
{
	grp x;

	x.v = v;
#if SHADOW
	x.s = (uint64_t)_mm_cvtsi128_si64(v);
#endif
	return x;
}

ALWAYS_INLINE grp grp_load(const block64 *b, int k)
{
	grp x;

	x.v = b->q[k];
#if SHADOW
	x.s = b->d[2 * k];
#endif
	return x;
}

ALWAYS_INLINE void grp_store(block64 *b, int k, grp x)
{
	b->q[k] = x.v;
}

ALWAYS_INLINE grp grp_xor(grp a, grp b)
{
	grp x;

	x.v = _mm_xor_si128(a.v, b.v);
#if SHADOW
	x.s = a.s ^ b.s;
#endif
	return x;
}

/*
 * sh: use the shadow.  Only the single-hash path does: with several hashes
 * interleaved, the shadows would not all fit in the general registers, and
 * the interleaving hides the longer chain anyway.  When sh is 0 the shadow
 * is never read, so the compiler drops every instruction that computes it.
 */
#define SH(K) (SHADOW && (K) == 1)

ALWAYS_INLINE uint32_t grp_low32(grp x, const int sh)
{
#if SHADOW
	if (sh)
		return (uint32_t)x.s;
#endif
	(void)sh;
	return (uint32_t)_mm_cvtsi128_si32(x.v);
}

/*
 * pwx_offsets(x, smask2, &lo, &ho): the S-box offsets a group selects, from
 * its first lane in the vector register: lo (for S0) from the low word, ho
 * (for S1) from the high word, each masked.  smask2 holds the mask in both
 * halves.
 */
ALWAYS_INLINE void pwx_offsets(grp x, uint64_t smask2, uint64_t *lo,
    uint64_t *ho)
{
#if defined(__x86_64__)
	uint64_t m = (uint64_t)_mm_cvtsi128_si64(x.v);

#if defined(__BMI__) && defined(__BMI2__) && defined(__GNUC__)
	uint64_t notmask = ~(uint64_t)(uint32_t)smask2, h;

	__asm__("andnq %1, %2, %0" : "=r"(*lo) : "r"(m), "r"(notmask));
	__asm__("rorxq $32, %1, %0" : "=r"(h) : "r"(m));
	*ho = (uint32_t)h & (uint32_t)smask2;
#else
	*lo = m & (uint32_t)smask2;
	*ho = (m >> 32) & (uint32_t)smask2;
#endif
#else
	*lo = (uint32_t)_mm_cvtsi128_si32(x.v) & (uint32_t)smask2;
	*ho = (uint32_t)_mm_cvtsi128_si32(_mm_srli_epi64(x.v, 32)) &
	    (uint32_t)smask2;
#endif
}

#if SHADOW
/*
 * pwx_offsets_shadow(s, smask2, &lo, &hi, &ho): the same from the shadow s,
 * and hi, s's high word, which the shadow's multiply needs.  With BMI1 and
 * BMI2 (andn, shrx), each is one instruction that leaves s intact, where
 * plain x86-64 needs a copy first: 3 instructions fewer on the chain's
 * critical resource, the core's instruction throughput (the avx2 core, on
 * Zen 3).  Not in the avx512vl core: on an Intel Xeon (doc/yespower.md,
 * Intel Xeon) the plain form was 3% faster for one input per call, while
 * BMI in that core's batches (pwx_offsets) gained 3 to 4%.
 */
ALWAYS_INLINE void pwx_offsets_shadow(uint64_t s, uint64_t smask2,
    uint64_t *lo, uint64_t *hi, uint64_t *ho)
{
#if defined(__BMI__) && defined(__BMI2__) && defined(__GNUC__) && \
    !defined(__AVX512VL__)
	uint64_t notmask = ~(uint64_t)(uint32_t)smask2, h;

	__asm__("shrxq %2, %1, %0" : "=r"(h) : "r"(s), "r"(32ULL));
	__asm__("andnq %1, %2, %0" : "=r"(*lo) : "r"(s), "r"(notmask));
	__asm__("andnq %1, %2, %0" : "=r"(*ho) : "r"(h), "r"(notmask));
	*hi = h;
#else
	*lo = s & (uint32_t)smask2;
	*hi = s >> 32;
	*ho = *hi & (uint32_t)smask2;
#endif
}
#endif

/*
 * One pwxform step on a group: for both lanes, (hi * lo + S0 lane) xor
 * S1 lane, with the S0 entry chosen by the low word of lane 0 and the S1
 * entry by its high word.  This is the latency-critical chain of the whole
 * hash: extract, mask, load, add, xor.
 */
ALWAYS_INLINE grp pwx_grp(grp x, const uint8_t *S0, const uint8_t *S1,
    uint64_t smask2, const int sh)
{
	__m128i p = _mm_mul_epu32(_mm_srli_epi64(x.v, 32), x.v);
	uint64_t lo, ho;
	grp y;

#if SHADOW
	if (sh) {
		uint64_t t = x.s, hi;

		pwx_offsets_shadow(t, smask2, &lo, &hi, &ho);
		t = (uint64_t)(uint32_t)t * hi;
		p = _mm_add_epi64(p, *(const __m128i *)(S0 + lo));
		y.v = _mm_xor_si128(p, *(const __m128i *)(S1 + ho));
#if defined(__GNUC__)
		/*
		 * Base + index addressing, the offsets in registers: given
		 * the entries as memory operands, the compiler adds base and
		 * offset once for this load and the vector one, an
		 * instruction more per lookup.  The boxes as a whole are the
		 * memory operands instead, to order the asm after the
		 * stores into them (version 1.0).
		 */
		__asm__("addq (%1,%2), %0\n\txorq (%3,%4), %0" : "+r"(t)
		    : "r"((uint64_t)(uintptr_t)S0), "r"(lo),
		    "r"((uint64_t)(uintptr_t)S1), "r"(ho),
		    "m"(*(const uint8_t (*)[SBOX_MAX])S0),
		    "m"(*(const uint8_t (*)[SBOX_MAX])S1));
#else
		t = (t + *(const uint64_t *)(S0 + lo)) ^
		    *(const uint64_t *)(S1 + ho);
#endif
		y.s = t;
		return y;
	}
#endif
	(void)sh;
	pwx_offsets(x, smask2, &lo, &ho);
	p = _mm_add_epi64(p, *(const __m128i *)(S0 + lo));
	y.v = _mm_xor_si128(p, *(const __m128i *)(S1 + ho));
	return y;
}

ALWAYS_INLINE void grp_store_s(uint8_t *S, size_t w, grp x)
{
	*(__m128i *)(S + w) = x.v;
}

/* A sub-block held in registers: four groups. */
typedef struct {
	grp g0, g1, g2, g3;
} xblk;

/* ---- Salsa20 ---- */

#if defined(__XOP__)
#define ROTL32(x, n) _mm_roti_epi32((x), (n))
#elif defined(__AVX512VL__)
#define ROTL32(x, n) _mm_rol_epi32((x), (n))
#else
#define ROTL32(x, n) \
	_mm_or_si128(_mm_slli_epi32((x), (n)), _mm_srli_epi32((x), 32 - (n)))
#endif

#define ARX(o, a, b, n) \
	(o) = _mm_xor_si128((o), ROTL32(_mm_add_epi32((a), (b)), (n)))

#if defined(__AVX2__)
#include <immintrin.h>
#if defined(__AVX512VL__)
#define ROTL32_256(x, n) _mm256_rol_epi32((x), (n))
#else
#define ROTL32_256(x, n) _mm256_or_si256(_mm256_slli_epi32((x), (n)), \
	_mm256_srli_epi32((x), 32 - (n)))
#endif
#define ARX256(o, a, b, n) \
	(o) = _mm256_xor_si256((o), ROTL32_256(_mm256_add_epi32((a), (b)), (n)))
#endif

/*
 * salsa20(x, doublerounds): x + Salsa20_{2 * doublerounds}(x).  The rows
 * g0..g3 are the diagonals (0,5,10,15), (4,9,14,3), (8,13,2,7), (12,1,6,11)
 * so that a column round is four vector operations, and rotating the words
 * of rows 1-3 turns the row round into the same shape.
 */
ALWAYS_INLINE xblk salsa20(xblk in, int doublerounds)
{
	__m128i x0 = in.g0.v, x1 = in.g1.v, x2 = in.g2.v, x3 = in.g3.v;
	xblk out;

	do {
		ARX(x1, x0, x3, 7);
		ARX(x2, x1, x0, 9);
		ARX(x3, x2, x1, 13);
		ARX(x0, x3, x2, 18);
		x1 = _mm_shuffle_epi32(x1, 0x93);
		x2 = _mm_shuffle_epi32(x2, 0x4e);
		x3 = _mm_shuffle_epi32(x3, 0x39);
		ARX(x3, x0, x1, 7);
		ARX(x2, x3, x0, 9);
		ARX(x1, x2, x3, 13);
		ARX(x0, x1, x2, 18);
		x1 = _mm_shuffle_epi32(x1, 0x39);
		x2 = _mm_shuffle_epi32(x2, 0x4e);
		x3 = _mm_shuffle_epi32(x3, 0x93);
	} while (--doublerounds);

	out.g0 = grp_from_vec(_mm_add_epi32(in.g0.v, x0));
	out.g1 = grp_from_vec(_mm_add_epi32(in.g1.v, x1));
	out.g2 = grp_from_vec(_mm_add_epi32(in.g2.v, x2));
	out.g3 = grp_from_vec(_mm_add_epi32(in.g3.v, x3));
	return out;
}

/*
 * salsa20_k(K, x, doublerounds): x[k] = salsa20(x[k], doublerounds) for
 * each of K hashes.  Salsa20 is one long dependent chain, about 180
 * instructions for 0.5's Salsa20/8: one after another, K of them hardly
 * overlap (the core's window holds about one), so with SSE2 they go in
 * lockstep, step by step, and take little longer than one.
 */
ALWAYS_INLINE void salsa20_k(const int K, xblk x[], int doublerounds)
{
	int k;
#if defined(__AVX2__)
	/* Two hashes' rows share a 256-bit register: half the instructions. */
	__m256i y0[KMAX / 2], y1[KMAX / 2], y2[KMAX / 2], y3[KMAX / 2];
	__m128i x0 = _mm_setzero_si128(), x1 = x0, x2 = x0, x3 = x0;
	const int P = K / 2;
	int p;

#define PAIR(g, p) _mm256_inserti128_si256( \
	_mm256_castsi128_si256(x[2 * (p)].g.v), x[2 * (p) + 1].g.v, 1)
	UNROLL for (p = 0; p < P; p++) {
		y0[p] = PAIR(g0, p);
		y1[p] = PAIR(g1, p);
		y2[p] = PAIR(g2, p);
		y3[p] = PAIR(g3, p);
	}
#undef PAIR
	if (K & 1) {
		x0 = x[K - 1].g0.v;
		x1 = x[K - 1].g1.v;
		x2 = x[K - 1].g2.v;
		x3 = x[K - 1].g3.v;
	}
	do {
#define STEP(o, a, b, n) do { \
	UNROLL for (p = 0; p < P; p++) \
		ARX256(y##o[p], y##a[p], y##b[p], n); \
	if (K & 1) \
		ARX(x##o, x##a, x##b, n); \
} while (0)
#define SHUF(r1, r2, r3) do { \
	UNROLL for (p = 0; p < P; p++) { \
		y1[p] = _mm256_shuffle_epi32(y1[p], r1); \
		y2[p] = _mm256_shuffle_epi32(y2[p], r2); \
		y3[p] = _mm256_shuffle_epi32(y3[p], r3); \
	} \
	if (K & 1) { \
		x1 = _mm_shuffle_epi32(x1, r1); \
		x2 = _mm_shuffle_epi32(x2, r2); \
		x3 = _mm_shuffle_epi32(x3, r3); \
	} \
} while (0)
		STEP(1, 0, 3, 7);
		STEP(2, 1, 0, 9);
		STEP(3, 2, 1, 13);
		STEP(0, 3, 2, 18);
		SHUF(0x93, 0x4e, 0x39);
		STEP(3, 0, 1, 7);
		STEP(2, 3, 0, 9);
		STEP(1, 2, 3, 13);
		STEP(0, 1, 2, 18);
		SHUF(0x39, 0x4e, 0x93);
#undef STEP
#undef SHUF
	} while (--doublerounds);
#define UNPAIR(g, y, p) do { \
	x[2 * (p)].g = grp_from_vec(_mm_add_epi32(x[2 * (p)].g.v, \
	    _mm256_castsi256_si128(y[p]))); \
	x[2 * (p) + 1].g = grp_from_vec(_mm_add_epi32(x[2 * (p) + 1].g.v, \
	    _mm256_extracti128_si256(y[p], 1))); \
} while (0)
	UNROLL for (p = 0; p < P; p++) {
		UNPAIR(g0, y0, p);
		UNPAIR(g1, y1, p);
		UNPAIR(g2, y2, p);
		UNPAIR(g3, y3, p);
	}
#undef UNPAIR
	if (K & 1) {
		x[K - 1].g0 = grp_from_vec(_mm_add_epi32(x[K - 1].g0.v, x0));
		x[K - 1].g1 = grp_from_vec(_mm_add_epi32(x[K - 1].g1.v, x1));
		x[K - 1].g2 = grp_from_vec(_mm_add_epi32(x[K - 1].g2.v, x2));
		x[K - 1].g3 = grp_from_vec(_mm_add_epi32(x[K - 1].g3.v, x3));
	}
	(void)k;
#else
	__m128i x0[KMAX], x1[KMAX], x2[KMAX], x3[KMAX];

	FOR_K(k) {
		x0[k] = x[k].g0.v;
		x1[k] = x[k].g1.v;
		x2[k] = x[k].g2.v;
		x3[k] = x[k].g3.v;
	}
	do {
		FOR_K(k) ARX(x1[k], x0[k], x3[k], 7);
		FOR_K(k) ARX(x2[k], x1[k], x0[k], 9);
		FOR_K(k) ARX(x3[k], x2[k], x1[k], 13);
		FOR_K(k) ARX(x0[k], x3[k], x2[k], 18);
		FOR_K(k) {
			x1[k] = _mm_shuffle_epi32(x1[k], 0x93);
			x2[k] = _mm_shuffle_epi32(x2[k], 0x4e);
			x3[k] = _mm_shuffle_epi32(x3[k], 0x39);
		}
		FOR_K(k) ARX(x3[k], x0[k], x1[k], 7);
		FOR_K(k) ARX(x2[k], x3[k], x0[k], 9);
		FOR_K(k) ARX(x1[k], x2[k], x3[k], 13);
		FOR_K(k) ARX(x0[k], x1[k], x2[k], 18);
		FOR_K(k) {
			x1[k] = _mm_shuffle_epi32(x1[k], 0x39);
			x2[k] = _mm_shuffle_epi32(x2[k], 0x4e);
			x3[k] = _mm_shuffle_epi32(x3[k], 0x93);
		}
	} while (--doublerounds);
	FOR_K(k) {
		x[k].g0 = grp_from_vec(_mm_add_epi32(x[k].g0.v, x0[k]));
		x[k].g1 = grp_from_vec(_mm_add_epi32(x[k].g1.v, x1[k]));
		x[k].g2 = grp_from_vec(_mm_add_epi32(x[k].g2.v, x2[k]));
		x[k].g3 = grp_from_vec(_mm_add_epi32(x[k].g3.v, x3[k]));
	}
#endif
}

#endif /* !YESPOWER_OPT_SSE_H */
