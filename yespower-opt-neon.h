/*
 * yespower-opt-neon.h: the mixing core's primitives with ARM's NEON: the
 * neon build of yespower-opt.c (aarch64, and 32-bit ARM with -mfpu=neon).
 *
 * Included by yespower-opt.c alone, once, after its definitions of
 * block64, ALWAYS_INLINE and the interleaving (KMAX, FOR_K); it defines
 * grp (a group), xblk (a sub-block in registers: four groups), salsa20()
 * and salsa20_k() for the builds named above.
 */
#ifndef YESPOWER_OPT_NEON_H
#define YESPOWER_OPT_NEON_H

/* ---- groups: two 64-bit lanes, the unit pwxform works on ---- */

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

/* A sub-block held in registers: four groups. */
typedef struct {
	grp g0, g1, g2, g3;
} xblk;

/* ---- Salsa20 ---- */

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

/* salsa20_k(K, x, doublerounds): salsa20() on each of K hashes. */
ALWAYS_INLINE void salsa20_k(const int K, xblk x[], int doublerounds)
{
	int k;

	FOR_K(k) x[k] = salsa20(x[k], doublerounds);
}

#endif /* !YESPOWER_OPT_NEON_H */
