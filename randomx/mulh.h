/*
 * mulh.h: the high 64 bits of 64 x 64-bit products, unsigned and signed
 * (IMULH and ISMULH in programs and in SuperscalarHash).  Inline, for the
 * interpreter's and the SuperscalarHash executor's inner loops.  Internal.
 */
#ifndef RX_MULH_H
#define RX_MULH_H

#include <stdint.h>

#ifdef __SIZEOF_INT128__
static inline uint64_t rx_mulh(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static inline uint64_t rx_smulh(uint64_t a, uint64_t b)
{
	return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
}
#else
/* From 32-bit pieces, where the compiler has no 128-bit integers. */
static inline uint64_t rx_mulh(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/*
 * The signed product's high half differs from the unsigned one by b for a
 * negative a and by a for a negative b.
 */
static inline uint64_t rx_smulh(uint64_t a, uint64_t b)
{
	uint64_t h = rx_mulh(a, b);

	if ((int64_t)a < 0)
		h -= b;
	if ((int64_t)b < 0)
		h -= a;
	return h;
}
#endif

#endif /* !RX_MULH_H */
