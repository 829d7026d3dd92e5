/*
 * pow-simd-emu.h: vector registers emulated in plain C, for the tests'
 * builds of the AVX-512 kernels (pow-sha256-simd.c with -DPOW_SIMD_EMU16,
 * pow-keccak-avx512.c with -DPOW_KECCAK_EMU8).  Each operation is its
 * instruction's definition, lane by lane, so that the kernels' code and
 * constants are checked on CPUs that cannot run the real instructions.
 *
 * Define EMU_T (the lane type) and EMU_N (the lane count) first; this
 * gives the type V and emu_set1, emu_load, emu_ternlog, and EMU_OP to
 * define two-operand operations.
 */
#ifndef POW_SIMD_EMU_H
#define POW_SIMD_EMU_H

#include <string.h>

typedef struct {
	EMU_T l[EMU_N];
} V;

#define EMU_INLINE static inline __attribute__((always_inline, unused))

/* EMU_OP(name, expr): V name(V a, V b), lane i of the result expr. */
#define EMU_OP(name, expr) \
EMU_INLINE V name(V a, V b) \
{ \
	V r; \
	int i; \
	for (i = 0; i < EMU_N; i++) \
		r.l[i] = (expr); \
	return r; \
}

EMU_INLINE V emu_set1(EMU_T x)
{
	V r;
	int i;

	for (i = 0; i < EMU_N; i++)
		r.l[i] = x;
	return r;
}

EMU_INLINE V emu_load(const void *p)
{
	V r;

	memcpy(r.l, p, sizeof(r.l));
	return r;
}

/* VPTERNLOGD/Q: bit j of the result is bit (a_j b_j c_j, a 3-bit number
 * with a_j the high bit) of imm; here as the union of imm's minterms. */
EMU_INLINE V emu_ternlog(V a, V b, V c, int imm)
{
	V r;
	int i, m;

	for (i = 0; i < EMU_N; i++) {
		r.l[i] = 0;
		for (m = 0; m < 8; m++)
			if (imm >> m & 1)
				r.l[i] |= ((m & 4) ? a.l[i] : ~a.l[i]) &
				    ((m & 2) ? b.l[i] : ~b.l[i]) &
				    ((m & 1) ? c.l[i] : ~c.l[i]);
	}
	return r;
}

#endif /* !POW_SIMD_EMU_H */
