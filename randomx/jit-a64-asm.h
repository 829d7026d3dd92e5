/*
 * jit-a64-asm.h: an AArch64 instruction encoder for RandomX's JIT
 * compilers (jit-a64.c, jit-superscalar-a64.c).  Internal.
 *
 * Each function appends one 32-bit instruction word; encodings are those
 * of the Arm Architecture Reference Manual (A64).  Registers are numbers:
 * 0-30 general-purpose (31 is XZR or SP as the instruction reads it),
 * 0-31 SIMD&FP.  Only the forms the compilers need are here.  Running out
 * of room sets overflow, and later words are dropped, so that a compiler
 * checks once at the end.
 */
#ifndef RX_JIT_A64_ASM_H
#define RX_JIT_A64_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
	uint32_t *buf;
	size_t pos, cap;	/* in instructions */
	int overflow;
} a64_asm;

#define A64_XZR 31
#define A64_SP 31

/* condition codes */
#define A64_EQ 0
#define A64_NE 1

static inline void a64_init(a64_asm *a, void *buf, size_t bytes)
{
	a->buf = buf;
	a->pos = 0;
	a->cap = bytes / 4;
	a->overflow = 0;
}

static inline void a64_put(a64_asm *a, uint32_t w)
{
	if (a->pos < a->cap)
		a->buf[a->pos++] = w;
	else
		a->overflow = 1;
}

/* ---- integer ---- */

/* op: 0x8b000000 ADD, 0xcb000000 SUB, 0x8a000000 AND, 0xaa000000 ORR,
 * 0xca000000 EOR, 0xea000000 ANDS; shift: 0 LSL, 1 LSR, 2 ASR, 3 ROR */
static inline void a64_rrr(a64_asm *a, uint32_t op, int d, int n, int m,
    unsigned shift, unsigned amount)
{
	a64_put(a, op | shift << 22 | (uint32_t)m << 16 | (amount & 63) << 10 |
	    (uint32_t)n << 5 | (uint32_t)d);
}
#define A64_ADD 0x8b000000u
#define A64_SUB 0xcb000000u
#define A64_AND 0x8a000000u
#define A64_ORR 0xaa000000u
#define A64_EOR 0xca000000u
#define A64_ANDS 0xea000000u
#define A64_ADD32 0x0b000000u

/* ADD/SUB (immediate), 64 or 32 bits: imm12, optionally << 12 */
static inline void a64_addi(a64_asm *a, int sf, int sub, int d, int n,
    uint32_t imm12, int lsl12)
{
	a64_put(a, (sf ? 0x91000000u : 0x11000000u) | (sub ? 0x40000000u : 0) |
	    (lsl12 ? 1u << 22 : 0) | (imm12 & 0xfff) << 10 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

/* ADD Xd, Xn, Wm, SXTW */
static inline void a64_add_sxtw(a64_asm *a, int d, int n, int m)
{
	a64_put(a, 0x8b20c000u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

/*
 * The N:immr:imms fields of a logical immediate for the 64-bit value x,
 * or -1 if x is not one (a rotated run of ones, repeated in 2..64-bit
 * elements; not 0 or all ones).
 */
static inline int32_t a64_bitmask(uint64_t x)
{
	unsigned size, ones, rot;
	uint64_t mask, e;

	if (x == 0 || ~x == 0)
		return -1;
	for (size = 64; size > 2; size /= 2) {
		mask = (UINT64_C(1) << (size / 2)) - 1;
		if ((x & mask) != ((x >> (size / 2)) & mask))
			break;
	}
	mask = size == 64 ? ~UINT64_C(0) : (UINT64_C(1) << size) - 1;
	e = x & mask;
	/* rotate the element right until its ones run from bit 0 */
	for (rot = 0; rot < size; rot++) {
		uint64_t r = rot ? ((e >> rot) | (e << (size - rot))) & mask : e;

		if ((r & 1) && !((r >> (size - 1)) & 1)) {
			/* ones from bit 0, a zero at the top: a run? */
			ones = 0;
			while (ones < size && ((r >> ones) & 1))
				ones++;
			if ((r >> ones) != 0)
				return -1;
			{
				uint32_t immr = (size - rot) & (size - 1);
				uint32_t imms = ((~(size * 2 - 1) << 0) & 0x3f) |
				    (ones - 1);
				uint32_t nbit = size == 64;

				if (size == 64)
					imms = ones - 1;
				return (int32_t)(nbit << 12 | immr << 6 | imms);
			}
		}
	}
	return -1;
}

/* op: 0x92000000 AND, 0xb2000000 ORR, 0xd2000000 EOR, 0xf2000000 ANDS;
 * enc from a64_bitmask (must not be -1) */
static inline void a64_logi(a64_asm *a, uint32_t op, int d, int n,
    int32_t enc)
{
	a64_put(a, op | (uint32_t)enc << 10 | (uint32_t)n << 5 | (uint32_t)d);
}
#define A64_ANDI 0x92000000u
#define A64_ORRI 0xb2000000u
#define A64_EORI 0xd2000000u
#define A64_ANDSI 0xf2000000u

/* MOVZ / MOVN / MOVK Xd, #imm16, LSL #(16 * hw) */
static inline void a64_movw(a64_asm *a, uint32_t op, int d, uint32_t imm16,
    unsigned hw)
{
	a64_put(a, op | hw << 21 | (imm16 & 0xffff) << 5 | (uint32_t)d);
}
#define A64_MOVZ 0xd2800000u
#define A64_MOVN 0x92800000u
#define A64_MOVK 0xf2800000u

static inline void a64_mov(a64_asm *a, int d, int m)
{
	a64_rrr(a, A64_ORR, d, A64_XZR, m, 0, 0);
}

/* MUL, UMULH, SMULH Xd, Xn, Xm */
static inline void a64_mul(a64_asm *a, int d, int n, int m)
{
	a64_put(a, 0x9b007c00u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

static inline void a64_umulh(a64_asm *a, int d, int n, int m)
{
	a64_put(a, 0x9bc07c00u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

static inline void a64_smulh(a64_asm *a, int d, int n, int m)
{
	a64_put(a, 0x9b407c00u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

/* RORV Xd, Xn, Xm; ROR Xd, Xn, #k (EXTR) */
static inline void a64_rorv(a64_asm *a, int d, int n, int m)
{
	a64_put(a, 0x9ac02c00u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

static inline void a64_rori(a64_asm *a, int d, int n, unsigned k)
{
	a64_put(a, 0x93c00000u | (uint32_t)n << 16 | (k & 63) << 10 |
	    (uint32_t)n << 5 | (uint32_t)d);
}

/* LSR Xd, Xn, #k (UBFM) */
static inline void a64_lsri(a64_asm *a, int d, int n, unsigned k)
{
	a64_put(a, 0xd340fc00u | (k & 63) << 16 | (uint32_t)n << 5 |
	    (uint32_t)d);
}

/* UBFX Xd, Xn, #lsb, #width (UBFM) */
static inline void a64_ubfx(a64_asm *a, int d, int n, unsigned lsb,
    unsigned width)
{
	a64_put(a, 0xd3400000u | lsb << 16 | (lsb + width - 1) << 10 |
	    (uint32_t)n << 5 | (uint32_t)d);
}

static inline void a64_rbit(a64_asm *a, int d, int n)
{
	a64_put(a, 0xdac00000u | (uint32_t)n << 5 | (uint32_t)d);
}

/* MSR FPCR, Xt; MRS Xt, FPCR */
static inline void a64_msr_fpcr(a64_asm *a, int t)
{
	a64_put(a, 0xd51b4400u | (uint32_t)t);
}

static inline void a64_mrs_fpcr(a64_asm *a, int t)
{
	a64_put(a, 0xd53b4400u | (uint32_t)t);
}

/* ---- loads and stores ---- */

/* LDR / STR Xt, [Xn, #off] (off a multiple of 8, below 32768) */
static inline void a64_ldr_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0xf9400000u | (off / 8) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

static inline void a64_str_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0xf9000000u | (off / 8) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

/* LDR Wt, [Xn, #off] (off a multiple of 4) */
static inline void a64_ldrw_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0xb9400000u | (off / 4) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

static inline void a64_strw_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0xb9000000u | (off / 4) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

/* LDR / STR Xt, [Xn, Xm] */
static inline void a64_ldr_reg(a64_asm *a, int t, int n, int m)
{
	a64_put(a, 0xf8606800u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

static inline void a64_str_reg(a64_asm *a, int t, int n, int m)
{
	a64_put(a, 0xf8206800u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

/* LDR Dt, [Xn, Xm]; LDR Dt, [Xn, #off] */
static inline void a64_ldrd_reg(a64_asm *a, int t, int n, int m)
{
	a64_put(a, 0xfc606800u | (uint32_t)m << 16 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

static inline void a64_ldrd_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0xfd400000u | (off / 8) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

/* LDR / STR Qt, [Xn, #off] (off a multiple of 16) */
static inline void a64_ldrq_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0x3dc00000u | (off / 16) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

static inline void a64_strq_imm(a64_asm *a, int t, int n, uint32_t off)
{
	a64_put(a, 0x3d800000u | (off / 16) << 10 | (uint32_t)n << 5 |
	    (uint32_t)t);
}

/* LDP / STP Xt1, Xt2, [Xn, #off] (signed offset, a multiple of 8) */
static inline void a64_ldp(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0xa9400000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

static inline void a64_stp(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0xa9000000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

/* STP pre-index / LDP post-index Xt1, Xt2 with SP (frames) */
static inline void a64_stp_pre(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0xa9800000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

static inline void a64_ldp_post(a64_asm *a, int t1, int t2, int n,
    int32_t off)
{
	a64_put(a, 0xa8c00000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

/* LDP / STP Qt1, Qt2, [Xn, #off] (a multiple of 16) */
static inline void a64_ldpq(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0xad400000u | ((uint32_t)(off / 16) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

static inline void a64_stpq(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0xad000000u | ((uint32_t)(off / 16) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

/* LDP / STP Dt1, Dt2, [Xn, #off] (a multiple of 8) */
static inline void a64_ldpd(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0x6d400000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

static inline void a64_stpd(a64_asm *a, int t1, int t2, int n, int32_t off)
{
	a64_put(a, 0x6d000000u | ((uint32_t)(off / 8) & 0x7f) << 15 |
	    (uint32_t)t2 << 10 | (uint32_t)n << 5 | (uint32_t)t1);
}

/* LDR Xt, literal at byte distance off from this instruction */
static inline void a64_ldr_lit(a64_asm *a, int t, int32_t off)
{
	a64_put(a, 0x58000000u | ((uint32_t)(off / 4) & 0x7ffff) << 5 |
	    (uint32_t)t);
}

/* PRFM PLDL1KEEP (0) / PLDL2KEEP (2) / ..., [Xn, Xm] */
static inline void a64_prfm_reg(a64_asm *a, unsigned op, int n, int m)
{
	a64_put(a, 0xf8a06800u | (uint32_t)m << 16 | (uint32_t)n << 5 | op);
}

/* ---- branches ---- */

/* the word for a branch from instruction from to instruction to */
static inline uint32_t a64_bcond_word(unsigned cond, size_t from, size_t to)
{
	return 0x54000000u | ((uint32_t)(to - from) & 0x7ffff) << 5 | cond;
}

static inline uint32_t a64_b_word(size_t from, size_t to)
{
	return 0x14000000u | ((uint32_t)(to - from) & 0x3ffffff);
}

static inline void a64_blr(a64_asm *a, int n)
{
	a64_put(a, 0xd63f0000u | (uint32_t)n << 5);
}

static inline void a64_ret(a64_asm *a)
{
	a64_put(a, 0xd65f03c0u);
}

/* ---- SIMD & FP, on two doubles (.2D) or 16 bytes (.16B) ---- */

/* op | m << 16 | n << 5 | d */
static inline void a64_v3(a64_asm *a, uint32_t op, int d, int n, int m)
{
	a64_put(a, op | (uint32_t)m << 16 | (uint32_t)n << 5 | (uint32_t)d);
}
#define A64_FADD 0x4e60d400u
#define A64_FSUB 0x4ee0d400u
#define A64_FMUL 0x6e60dc00u
#define A64_FDIV 0x6e60fc00u
#define A64_VEOR 0x6e201c00u
#define A64_VAND 0x4e201c00u
#define A64_VORR 0x4ea01c00u
#define A64_EXT8 0x6e004000u	/* EXT .16B, #8 */
#define A64_BIF 0x6ee01c00u	/* Vd = (Vn & ~Vm) | (Vd & Vm) */

/* op | n << 5 | d */
static inline void a64_v2(a64_asm *a, uint32_t op, int d, int n)
{
	a64_put(a, op | (uint32_t)n << 5 | (uint32_t)d);
}
#define A64_FSQRT 0x6ee1f800u
#define A64_SXTL 0x0f20a400u	/* .2D from the low .2S */
#define A64_SXTL2 0x4f20a400u	/* .2D from the high .2S */
#define A64_SCVTF 0x4e61d800u
#define A64_AESE 0x4e284800u
#define A64_AESD 0x4e285800u
#define A64_AESMC 0x4e286800u
#define A64_AESIMC 0x4e287800u

/* MOVI Vd.2D, #0 */
static inline void a64_vzero(a64_asm *a, int d)
{
	a64_put(a, 0x6f00e400u | (uint32_t)d);
}

#endif /* !RX_JIT_A64_ASM_H */
