/*
 * yespower-opt.c: the optimized mixing core, SMix for yespower 0.5 and 1.0.
 *
 * This one source is compiled once per instruction set, each time with its
 * own flags and YESPOWER_CORE naming the build (see the Makefile):
 * "portable" (plain C, any target), "sse2", "avx", "xop", "avx512vl".  The
 * SIMD builds share the SSE2 code; what differs between them is what the
 * compiler may emit for it (VEX encodings, three-operand forms) and the
 * 32-bit rotates that XOP and AVX-512VL provide for Salsa20.  Each build
 * exports one yespower_core_t, and yespower-dispatch.c picks one at run time.
 *
 * On ARM it also builds "neon" (aarch64, and 32-bit ARM with -mfpu=neon):
 * NEON takes SSE2's place in the group layer and Salsa20, below.
 *
 * Data layout.  A 128*r-byte block is 2r sub-blocks of 64 bytes.  In memory
 * (V, XY, S) a sub-block is 8 lanes of 64 bits in host order: lane m holds
 * the shuffled words 2m (low half) and 2m + 1 (high half), where shuffled
 * word i is Salsa20 word 5i mod 16 (see yespower-ref.c).  pwxform works on
 * pairs of lanes ("groups"), Salsa20 on the four 128-bit rows, which in
 * this order are exactly its diagonals.
 */

#include <stdint.h>
#include <string.h>

#include "sysendian.h"
#include "yespower-impl.h"

#ifndef YESPOWER_CORE
#define YESPOWER_CORE portable
#define YESPOWER_CORE_PORTABLE 1
#endif

#if defined(__SSE2__) && !defined(YESPOWER_CORE_PORTABLE)
#define USE_SSE2 1
#include <emmintrin.h>
#if defined(__XOP__)
#include <x86intrin.h>
#elif defined(__AVX512VL__)
#include <immintrin.h>
#endif
#else
#define USE_SSE2 0
#endif

/*
 * NEON (the "neon" build): aarch64, where it is always there, and 32-bit
 * ARM built with -mfpu=neon, where the dispatcher asks the kernel first.
 * Little-endian only: the layer below reads a group's 64-bit lanes as
 * 32-bit words in memory order, which big-endian NEON numbers otherwise.
 */
#if defined(__ARM_NEON) && !defined(YESPOWER_CORE_PORTABLE) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define USE_NEON 1
#include <arm_neon.h>
#else
#define USE_NEON 0
#endif

#if defined(YESPOWER_CORE_NEON) && !USE_NEON
#error "the neon core needs NEON (on 32-bit ARM, -mfpu=neon) and little-endian"
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define NOINLINE static __attribute__((noinline))
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define ALWAYS_INLINE static inline
#define NOINLINE static
#define PREFETCH(p) ((void)(p))
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

typedef union {
	uint64_t d[8];
#if USE_SSE2
	__m128i q[4];
#endif
} block64;

/* pwxform constants: S-box entry masks (byte offsets of 16-byte entries,
 * one per 32-bit half) and the 1.0 write-position wrap. */
#define SMASK_0_5 ((uint32_t)(YESPOWER_SBOX1(0) - 16))
#define SMASK_1_0 ((uint32_t)(YESPOWER_SBOX1(1) - 16))
#define SMASK2(m) (((uint64_t)(m) << 32) | (m))
#define WMASK_1_0 (YESPOWER_SBOX1(1) - 1)
#define SBOX_MAX YESPOWER_SBOX1(1)	/* bytes of the largest S-box (1.0) */

/* ---- groups: two 64-bit lanes, the unit pwxform works on ---- */

#if USE_SSE2

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

#elif USE_NEON

/*
 * A group is one NEON register of two 64-bit lanes.  No scalar shadow
 * here: it would add six general-register instructions per group and
 * round (shift, multiply, two loads, add, xor) to save one vector-to-
 * general move on the index chain, and whether that pays depends on the
 * core (in-order Cortex-A53/A55 issue every instruction, out-of-order
 * cores hide some of the move's latency); without hardware to measure on,
 * the shorter code wins.
 */
typedef struct {
	uint64x2_t v;
} grp;

ALWAYS_INLINE grp grp_from_vec(uint32x4_t v)
{
	grp x;

	x.v = vreinterpretq_u64_u32(v);
	return x;
}

ALWAYS_INLINE grp grp_load(const block64 *b, int k)
{
	grp x;

	x.v = vld1q_u64(&b->d[2 * k]);
	return x;
}

ALWAYS_INLINE void grp_store(block64 *b, int k, grp x)
{
	vst1q_u64(&b->d[2 * k], x.v);
}

ALWAYS_INLINE grp grp_xor(grp a, grp b)
{
	grp x;

	x.v = veorq_u64(a.v, b.v);
	return x;
}

#define SH(K) 0

ALWAYS_INLINE uint32_t grp_low32(grp x, const int sh)
{
	(void)sh;
	return (uint32_t)vgetq_lane_u64(x.v, 0);
}

/*
 * pwxform's step, as in the SSE2 layer: each lane's high word times its
 * low word (vmull_u32 of the narrowed halves: the low words by a plain
 * narrow, the high ones by a shift-right-narrow), plus the S0 entry, xor
 * the S1 entry, both chosen by lane 0.
 */
ALWAYS_INLINE grp pwx_grp(grp x, const uint8_t *S0, const uint8_t *S1,
    uint64_t smask2, const int sh)
{
	uint64_t m = vgetq_lane_u64(x.v, 0) & smask2;
	uint64x2_t p = vmull_u32(vshrn_n_u64(x.v, 32), vmovn_u64(x.v));
	grp y;

	(void)sh;
	p = vaddq_u64(p, vld1q_u64((const uint64_t *)(S0 + (uint32_t)m)));
	y.v = veorq_u64(p, vld1q_u64((const uint64_t *)(S1 + (m >> 32))));
	return y;
}

ALWAYS_INLINE void grp_store_s(uint8_t *S, size_t w, grp x)
{
	vst1q_u64((uint64_t *)(S + w), x.v);
}
#else /* portable */

typedef struct {
	uint64_t l0, l1;
} grp;

ALWAYS_INLINE grp grp_load(const block64 *b, int k)
{
	grp x = { b->d[2 * k], b->d[2 * k + 1] };

	return x;
}

ALWAYS_INLINE void grp_store(block64 *b, int k, grp x)
{
	b->d[2 * k] = x.l0;
	b->d[2 * k + 1] = x.l1;
}

ALWAYS_INLINE grp grp_xor(grp a, grp b)
{
	grp x = { a.l0 ^ b.l0, a.l1 ^ b.l1 };

	return x;
}

#define SH(K) 0

ALWAYS_INLINE uint32_t grp_low32(grp x, const int sh)
{
	(void)sh;
	return (uint32_t)x.l0;
}

ALWAYS_INLINE grp pwx_grp(grp x, const uint8_t *S0, const uint8_t *S1,
    uint64_t smask2, const int sh)
{
	uint64_t m = x.l0 & smask2;
	const uint64_t *p0 = (const uint64_t *)(S0 + (uint32_t)m);
	const uint64_t *p1 = (const uint64_t *)(S1 + (m >> 32));

	(void)sh;
	x.l0 = ((x.l0 >> 32) * (uint32_t)x.l0 + p0[0]) ^ p1[0];
	x.l1 = ((x.l1 >> 32) * (uint32_t)x.l1 + p0[1]) ^ p1[1];
	return x;
}

ALWAYS_INLINE void grp_store_s(uint8_t *S, size_t w, grp x)
{
	uint64_t *p = (uint64_t *)(S + w);

	p[0] = x.l0;
	p[1] = x.l1;
}

#endif

/* A sub-block held in registers: four groups. */
typedef struct {
	grp g0, g1, g2, g3;
} xblk;

ALWAYS_INLINE xblk xblk_load(const block64 *b)
{
	xblk x = { grp_load(b, 0), grp_load(b, 1), grp_load(b, 2),
	    grp_load(b, 3) };

	return x;
}

ALWAYS_INLINE void xblk_store(block64 *b, xblk x)
{
	grp_store(b, 0, x.g0);
	grp_store(b, 1, x.g1);
	grp_store(b, 2, x.g2);
	grp_store(b, 3, x.g3);
}

ALWAYS_INLINE xblk xblk_xor(xblk a, xblk b)
{
	xblk x = { grp_xor(a.g0, b.g0), grp_xor(a.g1, b.g1),
	    grp_xor(a.g2, b.g2), grp_xor(a.g3, b.g3) };

	return x;
}

/* Integerify reads the low word of a block's last sub-block. */
ALWAYS_INLINE uint32_t xblk_integerify(xblk x, const int sh)
{
	return grp_low32(x.g0, sh);
}

/* ---- Salsa20 ---- */

#if USE_SSE2

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

#elif USE_NEON

/* No vector rotate on NEON: shift left, then shift right and insert. */
#define ROTL32_NEON(x, n) vsriq_n_u32(vshlq_n_u32((x), (n)), (x), 32 - (n))

#define ARX_NEON(o, a, b, n) \
	(o) = veorq_u32((o), ROTL32_NEON(vaddq_u32((a), (b)), (n)))

/*
 * salsa20(x, doublerounds), as the SSE2 version: the same diagonal rows,
 * with vextq_u32 rotating the words of rows 1-3 (by 3, 2, 1 positions
 * for the row round, and back by 1, 2, 3).
 */
ALWAYS_INLINE xblk salsa20(xblk in, int doublerounds)
{
	uint32x4_t i0 = vreinterpretq_u32_u64(in.g0.v),
	    i1 = vreinterpretq_u32_u64(in.g1.v),
	    i2 = vreinterpretq_u32_u64(in.g2.v),
	    i3 = vreinterpretq_u32_u64(in.g3.v);
	uint32x4_t x0 = i0, x1 = i1, x2 = i2, x3 = i3;
	xblk out;

	do {
		ARX_NEON(x1, x0, x3, 7);
		ARX_NEON(x2, x1, x0, 9);
		ARX_NEON(x3, x2, x1, 13);
		ARX_NEON(x0, x3, x2, 18);
		x1 = vextq_u32(x1, x1, 3);
		x2 = vextq_u32(x2, x2, 2);
		x3 = vextq_u32(x3, x3, 1);
		ARX_NEON(x3, x0, x1, 7);
		ARX_NEON(x2, x3, x0, 9);
		ARX_NEON(x1, x2, x3, 13);
		ARX_NEON(x0, x1, x2, 18);
		x1 = vextq_u32(x1, x1, 1);
		x2 = vextq_u32(x2, x2, 2);
		x3 = vextq_u32(x3, x3, 3);
	} while (--doublerounds);

	out.g0 = grp_from_vec(vaddq_u32(i0, x0));
	out.g1 = grp_from_vec(vaddq_u32(i1, x1));
	out.g2 = grp_from_vec(vaddq_u32(i2, x2));
	out.g3 = grp_from_vec(vaddq_u32(i3, x3));
	return out;
}
#else /* portable */

ALWAYS_INLINE uint32_t rotl32(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

#define QR(a, b, c, d) \
	x[b] ^= rotl32(x[a] + x[d], 7); \
	x[c] ^= rotl32(x[b] + x[a], 9); \
	x[d] ^= rotl32(x[c] + x[b], 13); \
	x[a] ^= rotl32(x[d] + x[c], 18);

/* Shuffled word i of a sub-block in registers, and back. */
ALWAYS_INLINE uint32_t xblk_word(const uint64_t lane[8], int i)
{
	return (uint32_t)(lane[i / 2] >> (32 * (i & 1)));
}

ALWAYS_INLINE xblk salsa20(xblk in, int doublerounds)
{
	uint64_t lane[8] = { in.g0.l0, in.g0.l1, in.g1.l0, in.g1.l1,
	    in.g2.l0, in.g2.l1, in.g3.l0, in.g3.l1 };
	uint32_t x[16];
	xblk out;
	int i;

	for (i = 0; i < 16; i++)
		x[(5 * i) % 16] = xblk_word(lane, i);

	do {
		QR(0, 4, 8, 12) QR(5, 9, 13, 1) QR(10, 14, 2, 6) QR(15, 3, 7, 11)
		QR(0, 1, 2, 3) QR(5, 6, 7, 4) QR(10, 11, 8, 9) QR(15, 12, 13, 14)
	} while (--doublerounds);

	for (i = 0; i < 8; i++) {
		uint32_t lo = xblk_word(lane, 2 * i) + x[(10 * i) % 16];
		uint32_t hi = xblk_word(lane, 2 * i + 1) + x[(10 * i + 5) % 16];

		lane[i] = (uint64_t)lo | ((uint64_t)hi << 32);
	}
	out.g0.l0 = lane[0]; out.g0.l1 = lane[1];
	out.g1.l0 = lane[2]; out.g1.l1 = lane[3];
	out.g2.l0 = lane[4]; out.g2.l1 = lane[5];
	out.g3.l0 = lane[6]; out.g3.l1 = lane[7];
	return out;
}

#endif

/* ---- pwxform, on K independent hashes at once ---- */

/*
 * Interleaving.  Every function from here down to smix() works on K
 * independent hashes at once (K = 1 .. KMAX, a constant at each
 * instantiation), step by step in lockstep: K chains of dependent
 * multiply-load-add-xor steps whose latencies overlap, where one chain
 * alone would leave most of the core idle.  The loops over k are unrolled,
 * so each hash's state stays in registers.
 */
/*
 * K's limit in this core (its kmax): 4 where there are 32 vector
 * registers, which hold four hashes' 16 groups and the temporaries of
 * their pwxform steps; 3 elsewhere.  On a Zen 5 (doc/yespower.md, Zen 5
 * (family 26 model 2)) four hashes ran 1.03 to 1.09 times as fast as three in the avx512vl
 * core, and 0.98 to 1.03 times in the avx2 core, which has 16.
 */
#if USE_SSE2 && defined(__AVX512VL__) && defined(__x86_64__)
#define KMAX 4
#else
#define KMAX 3
#endif
#if KMAX > YESPOWER_KMAX
#error "KMAX exceeds YESPOWER_KMAX"
#endif

/* clang unrolls these small constant loops by itself once inlined; asked
 * to, it tries before inlining too, fails and warns. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL _Pragma("GCC unroll 8")
#else
#define UNROLL
#endif

#define FOR_K(k) UNROLL for ((k) = 0; (k) < K; (k)++)

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
#if USE_SSE2 && defined(__AVX2__)
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
#elif USE_SSE2
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
#else
	FOR_K(k) x[k] = salsa20(x[k], doublerounds);
#endif
}

/*
 * The S-boxes and, for 1.0, the write position; kept in locals by the
 * BlockMix loops so the compiler can hold them in registers.  One state
 * serves a whole batch: its hashes run in lockstep, so their write
 * positions and box rotations are always equal, and hash k's boxes lie
 * YESPOWER_SSTRIDE(v10) * k bytes after hash 0's (smix's contract).  Each
 * hash's box is then hash 0's register plus a constant in the address,
 * where a pointer each (twelve for four 1.0 hashes) did not fit in the
 * general registers: the BlockMix loop spilled them and moved them
 * through the stack at every rotation.
 */
typedef struct {
	uint8_t *S0, *S1, *S2;
	size_t w;
} pwx_state;

#define SOFF(k, v10) ((size_t)(k) * YESPOWER_SSTRIDE(v10))

/* One pwxform round on the four groups of a sub-block (version 0.5), on
 * the boxes off bytes after s's. */
ALWAYS_INLINE void pwx_round(xblk *x, const pwx_state *s, size_t off,
    uint64_t m, const int sh)
{
	const uint8_t *S0 = s->S0 + off, *S1 = s->S1 + off;

	x->g0 = pwx_grp(x->g0, S0, S1, m, sh);
	x->g1 = pwx_grp(x->g1, S0, S1, m, sh);
	x->g2 = pwx_grp(x->g2, S0, S1, m, sh);
	x->g3 = pwx_grp(x->g3, S0, S1, m, sh);
}

/*
 * One pwxform round of version 1.0: each new group is written back into
 * S0 (groups 0, 2) or S1 (groups 1, 3) at w, all four in the first round
 * and groups 0 and 1 after that.  Stores and loads must stay in this
 * order: a later group may read what an earlier one wrote.
 */
ALWAYS_INLINE void pwx_round_write(xblk *x, const pwx_state *s, size_t off,
    uint64_t m, int first, const int sh)
{
	uint8_t *S0 = s->S0 + off, *S1 = s->S1 + off;
	size_t w = s->w;

	x->g0 = pwx_grp(x->g0, S0, S1, m, sh);
	grp_store_s(S0, w, x->g0);
	x->g1 = pwx_grp(x->g1, S0, S1, m, sh);
	grp_store_s(S1, w, x->g1);
	x->g2 = pwx_grp(x->g2, S0, S1, m, sh);
	if (first)
		grp_store_s(S0, w + 16, x->g2);
	x->g3 = pwx_grp(x->g3, S0, S1, m, sh);
	if (first)
		grp_store_s(S1, w + 16, x->g3);
}

/*
 * pwxform(K, x, s, v10): pwxform on one sub-block of each of K hashes.
 * Version 0.5: six rounds, read-only S-boxes.  Version 1.0: three rounds
 * with writes, then the write position wraps and the boxes rotate:
 * (S0, S1, S2) <- (S2, S0, S1).
 */
ALWAYS_INLINE void pwxform(const int K, xblk x[], pwx_state *s,
    const int v10)
{
	uint8_t *S2;
	int i, k;

	if (!v10) {
		UNROLL for (i = 0; i < 6; i++)
			FOR_K(k) pwx_round(&x[k], s, SOFF(k, 0),
			    SMASK2(SMASK_0_5), SH(K));
		return;
	}

	UNROLL for (i = 0; i < 3; i++) {
		FOR_K(k) pwx_round_write(&x[k], s, SOFF(k, 1),
		    SMASK2(SMASK_1_0), i == 0, SH(K));
		s->w += i == 0 ? 32 : 16;
	}
	s->w &= WMASK_1_0;
	S2 = s->S2;
	s->S2 = s->S1;
	s->S1 = s->S0;
	s->S0 = S2;
}

/* ---- BlockMix ---- */

/*
 * in2 (SMix's V_j) is a block at a random place in V, which may be in L3
 * or memory.  In a batch its sub-blocks are asked for PREFETCH_AHEAD
 * sub-blocks before they are read, the last (read first) and the first
 * few at once.  All of K blocks at once, as one hash still does, gained
 * nothing over no prefetch at all in batches on a Zen 5, where this gained
 * 5 to 10% with 8 and 16 MiB per hash (doc/yespower.md, Zen 5 (family 26
 * model 2)): a burst of
 * 4 x 64 prefetches (r = 32) left the first lines waiting behind the
 * rest.  SMix1's out, the next block of V, which the batch writes to
 * lines it must first fetch, is asked for as far ahead from r = 16 on:
 * there it gained 2 to 6% on the Zen 5 (2048/32, 4096/16, 4096/32), at r
 * = 8 it cost 2 to 3% (the hardware prefetcher had those); PREFETCHW
 * instead measured the same.
 */
#define PREFETCH_AHEAD 4

/*
 * blockmix_pwxform(K, in1, in2, out, n, ctx, v10, xor_in2, save, idx):
 * For each hash k: out[k] = BlockMix_pwxform(in1[k] xor in2[k]) over n =
 * 2r sub-blocks, where in2 takes part only if xor_in2; if save, in2[k]
 * also receives in1[k] xor in2[k] (the write-back of SMix2).  out[k] may
 * be in1[k].  idx[k] receives Integerify(out[k]).  The flags are constants
 * at every call, so each use compiles to its own straight loop.
 */
ALWAYS_INLINE void blockmix_pwxform(const int K, block64 *const in1[],
    block64 *const in2[], block64 *const out[], size_t n, pwx_state *ctx,
    const int v10, const int xor_in2, const int save, uint32_t idx[])
{
	/* One hash asks for the whole of in2 at once: 1% faster for 0.5 on
	 * the Zen 5 than PREFETCH_AHEAD. */
	const size_t ahead = K > 1 ? PREFETCH_AHEAD : n;
	pwx_state s = *ctx;
	xblk x[KMAX];
	size_t i;
	int k;

	FOR_K(k) {
		x[k] = xblk_load(&in1[k][n - 1]);
		if (xor_in2) {
			PREFETCH(&in2[k][n - 1]);
			for (i = 0; i < ahead && i + 1 < n; i++)
				PREFETCH(&in2[k][i]);
			x[k] = xblk_xor(x[k], xblk_load(&in2[k][n - 1]));
		}
	}

	for (i = 0; i < n; i++) {
		if (xor_in2 && i + ahead + 1 < n)
			FOR_K(k) PREFETCH(&in2[k][i + ahead]);
		if (xor_in2 && !save && K > 1 && n >= 32 &&
		    i + PREFETCH_AHEAD < n)
			FOR_K(k) PREFETCH(&out[k][i + PREFETCH_AHEAD]);
		FOR_K(k) {
			xblk t = xblk_load(&in1[k][i]);

			if (xor_in2) {
				t = xblk_xor(t, xblk_load(&in2[k][i]));
				if (save)
					xblk_store(&in2[k][i], t);
			}
			x[k] = xblk_xor(x[k], t);
		}
		pwxform(K, x, &s, v10);
		if (i + 1 < n)
			FOR_K(k) xblk_store(&out[k][i], x[k]);
	}

	salsa20_k(K, x, v10 ? 1 : 4);
	FOR_K(k) {
		xblk_store(&out[k][n - 1], x[k]);
		idx[k] = xblk_integerify(x[k], SH(K));
	}
	*ctx = s;
}

/*
 * blockmix_salsa(in1, in2, out, v10, xor_in2):
 * scrypt's BlockMix with r = 1 (two sub-blocks) on in1 (xor in2), with
 * Salsa20/8 for 0.5 or Salsa20/2 for 1.0: only used to fill the S-boxes.
 */
ALWAYS_INLINE uint32_t blockmix_salsa(const block64 *in1, const block64 *in2,
    block64 *out, const int v10, const int xor_in2)
{
	xblk a = xblk_load(&in1[0]), b = xblk_load(&in1[1]), x;

	if (xor_in2) {
		a = xblk_xor(a, xblk_load(&in2[0]));
		b = xblk_xor(b, xblk_load(&in2[1]));
	}
	x = salsa20(xblk_xor(b, a), v10 ? 1 : 4);
	xblk_store(&out[0], x);
	x = salsa20(xblk_xor(x, b), v10 ? 1 : 4);
	xblk_store(&out[1], x);
	return xblk_integerify(x, 1);
}

/* ---- conversion between PBKDF2's bytes and the lane layout ---- */

static void block_from_bytes(block64 *X, const uint8_t *B, size_t n)
{
	size_t k;
	int m;

	for (k = 0; k < n; k++, B += 64) {
		for (m = 0; m < 8; m++) {
			uint32_t lo = le32dec(&B[4 * ((10 * m) % 16)]);
			uint32_t hi = le32dec(&B[4 * ((10 * m + 5) % 16)]);

			X[k].d[m] = (uint64_t)lo | ((uint64_t)hi << 32);
		}
	}
}

static void block_to_bytes(uint8_t *B, const block64 *X, size_t n)
{
	size_t k;
	int m;

	for (k = 0; k < n; k++, B += 64) {
		for (m = 0; m < 8; m++) {
			le32enc(&B[4 * ((10 * m) % 16)], (uint32_t)X[k].d[m]);
			le32enc(&B[4 * ((10 * m + 5) % 16)],
			    (uint32_t)(X[k].d[m] >> 32));
		}
	}
}

/* ---- SMix ---- */

/*
 * smix1_sbox(V, N, out, v10):
 * SMix's first loop with Salsa20 BlockMix and r = 1, which fills the
 * S-boxes: V[0..1] holds the input; V_{i+1} = H(V_i xor V_j) with j =
 * Wrap(Integerify(V_i), i) for i > 1, written straight into V, and the
 * last result goes to out.  N is not a power of 2 for 1.0 (768), hence
 * Wrap.  A small part of the work, so it runs one hash at a time.
 */
ALWAYS_INLINE void smix1_sbox(block64 *V, uint32_t N, block64 *out,
    const int v10)
{
	uint32_t i, j, x, p2 = 2;

	blockmix_salsa(&V[0], NULL, &V[2], v10, 0);
	x = blockmix_salsa(&V[2], NULL, &V[4], v10, 0);
	for (i = 2; i < N; i++) {
		block64 *dst = (i + 1 < N) ? &V[(size_t)(i + 1) * 2] : out;

		if (i == 2 * p2)
			p2 = i;		/* largest power of 2 <= i */
		j = (x & (p2 - 1)) + (i - p2);
		x = blockmix_salsa(&V[(size_t)i * 2], &V[(size_t)j * 2], dst,
		    v10, 1);
	}
}

/*
 * smix1(K, V, n, N, out, ctx, v10):
 * SMix's first loop for K hashes, each over its own V (n sub-blocks per
 * block, N blocks, a power of 2), as smix1_sbox but with
 * BlockMix_pwxform.
 */
ALWAYS_INLINE void smix1(const int K, block64 *const V[], size_t n,
    uint32_t N, block64 *const out[], pwx_state *ctx, const int v10)
{
	block64 *a[KMAX], *b[KMAX], *c[KMAX];
	uint32_t i, x[KMAX], p2 = 2;
	int k;

	FOR_K(k) {
		a[k] = V[k];
		b[k] = &V[k][n];
		c[k] = &V[k][2 * n];
	}
	blockmix_pwxform(K, a, NULL, b, n, ctx, v10, 0, 0, x);
	blockmix_pwxform(K, b, NULL, c, n, ctx, v10, 0, 0, x);

	for (i = 2; i < N; i++) {
		if (i == 2 * p2)
			p2 = i;		/* largest power of 2 <= i */
		FOR_K(k) {
			uint32_t j = (x[k] & (p2 - 1)) + (i - p2);

			a[k] = &V[k][(size_t)i * n];
			b[k] = &V[k][(size_t)j * n];
			c[k] = (i + 1 < N) ? &V[k][(size_t)(i + 1) * n] :
			    out[k];
		}
		blockmix_pwxform(K, a, b, c, n, ctx, v10, 1, 0, x);
	}
}

/*
 * smix2(K, X, Y, n, N, Nloop, V, ctx, v10):
 * SMix's second loop for K hashes: Nloop steps X = H(X xor V_j), j =
 * Integerify(X) mod N, each also writing X xor V_j back to V_j, except in
 * a loop of exactly two steps (yespower 0.5's tail), which only reads V
 * and so needs the second buffer Y.  X[k] is left pointing at the result.
 */
ALWAYS_INLINE void smix2(const int K, block64 *X[], block64 *Y[], size_t n,
    uint32_t N, uint32_t Nloop, block64 *const V[], pwx_state *ctx,
    const int v10)
{
	block64 *Vj[KMAX];
	uint32_t i, x[KMAX];
	int k;

	FOR_K(k) x[k] = (uint32_t)X[k][n - 1].d[0];

	if (Nloop == 2) {
		for (i = 0; i < Nloop; i++) {
			FOR_K(k) Vj[k] = &V[k][(size_t)(x[k] & (N - 1)) * n];
			blockmix_pwxform(K, X, Vj, Y, n, ctx, v10, 1, 0, x);
			FOR_K(k) {
				block64 *t = X[k];

				X[k] = Y[k];
				Y[k] = t;
			}
		}
		return;
	}

	for (i = 0; i < Nloop; i++) {
		FOR_K(k) Vj[k] = &V[k][(size_t)(x[k] & (N - 1)) * n];
		blockmix_pwxform(K, X, Vj, X, n, ctx, v10, 1, 1, x);
	}
}

/*
 * smix(K, B, r, N, V, XY, S, v10):
 * For each of K hashes: the S-boxes are filled by a Salsa20 SMix1 over
 * the first 128 bytes of B (which it also updates), then B goes through
 * SMix1 over N blocks and SMix2 over about N/3 steps.
 */
ALWAYS_INLINE void smix(const int K, uint8_t *const B[], uint32_t r,
    uint32_t N, block64 *const V[], block64 *const XY[],
    block64 *const S[], const int v10)
{
	size_t n = 2 * (size_t)r, sbox_bytes = YESPOWER_SBOX1(v10);
	uint32_t Nloop_all = (N + 2) / 3, Nloop_rw = Nloop_all;
	pwx_state ctx;
	block64 *X[KMAX], *Y[KMAX];
	uint32_t unused[KMAX];
	size_t m;
	int k;

	Nloop_all = (Nloop_all + 1) & ~(uint32_t)1;
	Nloop_rw = v10 ? (Nloop_rw + 1) & ~(uint32_t)1 : Nloop_rw & ~(uint32_t)1;

	FOR_K(k) {
		/* S-boxes: Salsa20 SMix1 with r = 1 over S itself. */
		block_from_bytes(S[k], B[k], 2);
		smix1_sbox(S[k], YESPOWER_SBYTES(v10) / 128, XY[k], v10);
		block_to_bytes(B[k], XY[k], 2);
		block_from_bytes(V[k], B[k], n);
	}
	ctx.S0 = (uint8_t *)S[0];	/* and S[k] at SOFF(k, v10) */
	ctx.S1 = ctx.S0 + sbox_bytes;
	ctx.S2 = ctx.S1 + sbox_bytes;
	ctx.w = 0;

	/* 1.0 derives 128-byte blocks 1 .. r-1 of the input from block 0. */
	if (v10) {
		for (m = 1; m < r; m++) {
			block64 *in[KMAX], *out[KMAX];

			FOR_K(k) {
				in[k] = &V[k][2 * (m - 1)];
				out[k] = &V[k][2 * m];
			}
			blockmix_pwxform(K, in, NULL, out, 2, &ctx, v10, 0, 0,
			    unused);
		}
	}

	smix1(K, V, n, N, XY, &ctx, v10);
	FOR_K(k) {
		X[k] = XY[k];
		Y[k] = XY[k] + n;
	}
	smix2(K, X, Y, n, N, Nloop_rw, V, &ctx, v10);
	if (Nloop_all > Nloop_rw) {
		FOR_K(k) Y[k] = (X[k] == XY[k]) ? XY[k] + n : XY[k];
		smix2(K, X, Y, n, N, Nloop_all - Nloop_rw, V, &ctx, v10);
	}
	FOR_K(k) block_to_bytes(B[k], X[k], n);
}

/* One function per version and K, each its own straight-line code. */
#define SMIX_INSTANCE(K, v10) \
NOINLINE void smix_##K##_##v10(uint8_t *const B[], uint32_t r, uint32_t N, \
    void *const V[], void *const XY[], void *const S[]) \
{ \
	smix(K, B, r, N, (block64 *const *)V, (block64 *const *)XY, \
	    (block64 *const *)S, v10); \
}

SMIX_INSTANCE(1, 0)
SMIX_INSTANCE(1, 1)

#ifdef YESPOWER_PLAIN
/*
 * The plain twin differs from its core only for one hash (SH(K) is 0 for
 * K > 1), so it compiles K = 1 alone and hands batches to the core built
 * from this same file with the shadow.
 */
extern const yespower_core_t CAT(yespower_core_, YESPOWER_CORE);

static void smix_entry(unsigned K, uint8_t *const B[], uint32_t r,
    uint32_t N, yespower_version_t version, void *const V[],
    void *const XY[], void *const S[])
{
	if (K > 1) {
		CAT(yespower_core_, YESPOWER_CORE).smix(K, B, r, N, version,
		    V, XY, S);
		return;
	}
	if (version == YESPOWER_1_0)
		smix_1_1(B, r, N, V, XY, S);
	else
		smix_1_0(B, r, N, V, XY, S);
}
#else
SMIX_INSTANCE(2, 0)
SMIX_INSTANCE(2, 1)
SMIX_INSTANCE(3, 0)
SMIX_INSTANCE(3, 1)
#if KMAX >= 4
SMIX_INSTANCE(4, 0)
SMIX_INSTANCE(4, 1)
#endif

typedef void smix_fn(uint8_t *const B[], uint32_t r, uint32_t N,
    void *const V[], void *const XY[], void *const S[]);

static smix_fn *const smix_table[KMAX][2] = {
	{ smix_1_0, smix_1_1 }, { smix_2_0, smix_2_1 },
	{ smix_3_0, smix_3_1 },
#if KMAX >= 4
	{ smix_4_0, smix_4_1 },
#endif
};

/*
 * A batch's hashes share one pwx_state, which needs hash k's S-boxes at
 * SOFF(k) bytes from hash 0's (yespower-impl.h).  Memory laid out
 * otherwise is hashed one input at a time: the same answers, slower.
 */
static void smix_entry(unsigned K, uint8_t *const B[], uint32_t r,
    uint32_t N, yespower_version_t version, void *const V[],
    void *const XY[], void *const S[])
{
	int v10 = (version == YESPOWER_1_0);
	unsigned k;

	for (k = 1; k < K; k++) {
		if ((uint8_t *)S[k] != (uint8_t *)S[0] + SOFF(k, v10))
			break;
	}
	if (k == K) {
		smix_table[K - 1][v10](B, r, N, V, XY, S);
		return;
	}
	for (k = 0; k < K; k++)
		smix_table[0][v10](&B[k], r, N, &V[k], &XY[k], &S[k]);
}
#endif

/* ---- component micro-benchmarks (benchmark --components) ---- */

/* Fill S as a real hash would, from a fixed block, and set up pwxform. */
static void component_setup(pwx_state *ctx, block64 *S, block64 *XY, int v10)
{
	uint8_t B[128];
	size_t i;

	for (i = 0; i < sizeof(B); i++)
		B[i] = (uint8_t)i;
	block_from_bytes(S, B, 2);
	smix1_sbox(S, YESPOWER_SBYTES(v10) / 128, XY, v10);
	ctx->S0 = (uint8_t *)S;
	ctx->S1 = ctx->S0 + YESPOWER_SBOX1(v10);
	ctx->S2 = ctx->S1 + YESPOWER_SBOX1(v10);
	ctx->w = 0;
}

NOINLINE uint32_t component_salsa20(uint64_t count, block64 *XY, int v10)
{
	xblk x = xblk_load(XY);

	while (count--)
		x = v10 ? salsa20(x, 1) : salsa20(x, 4);
	return xblk_integerify(x, 1);
}

/* BlockMix_pwxform over a block xored with another, as in SMix. */
NOINLINE uint32_t component_blockmix(uint64_t count, size_t n, block64 *V,
    block64 *XY, block64 *S, int v10)
{
	block64 *in1[1] = { XY }, *in2[1] = { &V[n] };
	pwx_state ctx[1];
	uint32_t x[1], sum = 0;

	component_setup(&ctx[0], S, XY, v10);
	while (count--) {
		if (v10)
			blockmix_pwxform(1, in1, in2, in1, n, ctx, 1, 1, 0, x);
		else
			blockmix_pwxform(1, in1, in2, in1, n, ctx, 0, 1, 0, x);
		sum += x[0];
	}
	return sum;
}

NOINLINE uint32_t component_smix(uint64_t count, size_t n, uint32_t N,
    block64 *V, block64 *XY, block64 *S, int v10, int loop2)
{
	uint32_t Nloop = ((N + 2) / 3 + 1) & ~(uint32_t)1;
	block64 *Vs[1] = { V }, *X[1] = { XY }, *Y[1] = { XY + n };
	pwx_state ctx[1];
	uint32_t sum = 0;

	component_setup(&ctx[0], S, XY, v10);
	while (count--) {
		if (loop2 && v10)
			smix2(1, X, Y, n, N, Nloop, Vs, ctx, 1);
		else if (loop2)
			smix2(1, X, Y, n, N, Nloop, Vs, ctx, 0);
		else if (v10)
			smix1(1, Vs, n, N, X, ctx, 1);
		else
			smix1(1, Vs, n, N, X, ctx, 0);
		sum += (uint32_t)X[0]->d[0];
	}
	return sum;
}

/*
 * pwxform's rounds alone, without the rest of BlockMix: count calls of
 * pwxform (6 rounds in 0.5, 3 in 1.0) on one sub-block of each of K
 * hashes, whose S-boxes are filled as a hash fills them, the first in S,
 * the others in V.  K = 1 is a single hash's four chains; more show what
 * interleaving gains; both versions instantiated, so v10 is a constant.
 */
ALWAYS_INLINE uint32_t pwxform_k(const int K, uint64_t count, block64 *X,
    pwx_state *ctx, const int v10)
{
	xblk x[KMAX];
	uint32_t sum = 0;
	int k;

	FOR_K(k) x[k] = xblk_load(&X[k]);
	while (count--)
		pwxform(K, x, ctx, v10);
	FOR_K(k) {
		xblk_store(&X[k], x[k]);	/* all four groups live */
		sum += (uint32_t)X[k].d[0];
	}
	return sum;
}

#define PWXFORM_K_INSTANCE(K) \
NOINLINE uint32_t component_pwxform_##K(uint64_t count, block64 *X, \
    pwx_state *ctx, int v10) \
{ \
	return v10 ? pwxform_k(K, count, X, ctx, 1) : \
	    pwxform_k(K, count, X, ctx, 0); \
}

PWXFORM_K_INSTANCE(1)
PWXFORM_K_INSTANCE(2)
PWXFORM_K_INSTANCE(3)
#if KMAX >= 4
PWXFORM_K_INSTANCE(4)
#endif

/*
 * One group's chain alone, without writes: count times the rounds of a
 * pwxform call; its time per round is the latency of one lookup step.
 */
NOINLINE uint32_t component_pwx_chain(uint64_t count, block64 *X,
    const pwx_state *ctx, int v10)
{
	uint64_t m = v10 ? SMASK2(SMASK_1_0) : SMASK2(SMASK_0_5);
	grp g = grp_load(X, 0);
	int i, rounds = v10 ? 3 : 6;

	while (count--)
		for (i = 0; i < rounds; i++)
			g = pwx_grp(g, ctx->S0, ctx->S1, m, SH(1));
	return grp_low32(g, SH(1));
}

static uint32_t component_rounds(yespower_component_t which, uint64_t count,
    size_t n, block64 *V, block64 *XY, block64 *S, int v10)
{
	pwx_state ctx;
	int k;

	(void)n;
	(void)S;
	/* Each hash's boxes where smix expects them: hash k's SOFF(k) bytes
	 * after hash 0's, all in V (1 MiB or more for valid parameters). */
	for (k = KMAX - 1; k >= 0; k--)
		component_setup(&ctx, (block64 *)((uint8_t *)V + SOFF(k, v10)),
		    XY, v10);
	switch (which) {
	case YESPOWER_COMPONENT_PWX_CHAIN:
		return component_pwx_chain(count, XY, &ctx, v10);
	case YESPOWER_COMPONENT_PWXFORM_2:
		return component_pwxform_2(count, XY, &ctx, v10);
	case YESPOWER_COMPONENT_PWXFORM_3:
		return component_pwxform_3(count, XY, &ctx, v10);
#if KMAX >= 4
	case YESPOWER_COMPONENT_PWXFORM_4:
		return component_pwxform_4(count, XY, &ctx, v10);
#endif
	default:
		return component_pwxform_1(count, XY, &ctx, v10);
	}
}

static uint32_t component_entry(yespower_component_t which,
    yespower_version_t version, uint32_t r, uint32_t N, uint64_t count,
    void *V, void *XY, void *S)
{
	int v10 = (version == YESPOWER_1_0);
	size_t n = 2 * (size_t)r;

	switch (which) {
	case YESPOWER_COMPONENT_SALSA20:
		return component_salsa20(count, XY, v10);
	case YESPOWER_COMPONENT_BLOCKMIX:
		return component_blockmix(count, n, V, XY, S, v10);
	case YESPOWER_COMPONENT_SMIX1:
		return component_smix(count, n, N, V, XY, S, v10, 0);
	case YESPOWER_COMPONENT_SMIX2:
		return component_smix(count, n, N, V, XY, S, v10, 1);
	case YESPOWER_COMPONENT_PWX_CHAIN:
	case YESPOWER_COMPONENT_PWXFORM_1:
	case YESPOWER_COMPONENT_PWXFORM_2:
	case YESPOWER_COMPONENT_PWXFORM_3:
	case YESPOWER_COMPONENT_PWXFORM_4:
		return component_rounds(which, count, n, V, XY, S, v10);
	}
	return 0;
}

/*
 * The core's name and symbol.  YESPOWER_PLAIN builds the twin without the
 * shadow, "NAME-plain" (x86-64 only; the Makefile builds one per SIMD
 * core): the same hashes, and the same code but for one hash at a time.
 * Which of the two runs faster depends on the CPU (doc/yespower.md, Zen 3
 * and Intel Xeon), and the dispatcher chooses.
 */
#ifdef YESPOWER_PLAIN
#define CORE_SYMBOL CAT(CAT(yespower_core_, YESPOWER_CORE), _plain)
#define CORE_NAME STR(YESPOWER_CORE) "-plain"
#else
#define CORE_SYMBOL CAT(yespower_core_, YESPOWER_CORE)
#define CORE_NAME STR(YESPOWER_CORE)
#endif

const yespower_core_t CORE_SYMBOL = {
	CORE_NAME, KMAX, smix_entry, component_entry
};
