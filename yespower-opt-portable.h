/*
 * yespower-opt-portable.h: the mixing core's primitives in plain C: the
 * portable build of yespower-opt.c, for any target.
 *
 * Included by yespower-opt.c alone, once, after its definitions of
 * block64, ALWAYS_INLINE and the interleaving (KMAX, FOR_K); it defines
 * grp (a group), xblk (a sub-block in registers: four groups), salsa20()
 * and salsa20_k() for the builds named above.
 */
#ifndef YESPOWER_OPT_PORTABLE_H
#define YESPOWER_OPT_PORTABLE_H

/* ---- groups: two 64-bit lanes, the unit pwxform works on ---- */

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

/* A sub-block held in registers: four groups. */
typedef struct {
	grp g0, g1, g2, g3;
} xblk;

/* ---- Salsa20 ---- */

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

/* salsa20_k(K, x, doublerounds): salsa20() on each of K hashes. */
ALWAYS_INLINE void salsa20_k(const int K, xblk x[], int doublerounds)
{
	int k;

	FOR_K(k) x[k] = salsa20(x[k], doublerounds);
}

#endif /* !YESPOWER_OPT_PORTABLE_H */
