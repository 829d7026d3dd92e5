/*
 * jit-a64.c: RandomX programs compiled to AArch64 (see jit.h).
 *
 * The program is decoded as for the interpreter (program.h's operations,
 * no-ops left out, CBRANCH targets in the decoded numbering) and each
 * operation becomes one to five A64 instructions inside the program loop
 * of chapter 4.6.2, compiled around it.  Registers live in machine
 * registers throughout:
 *
 *	x19 .. x26	r0 .. r7
 *	v0 .. v3	f0 .. f3	v4 .. v7	e0 .. e3
 *	v8 .. v11	a0 .. a3	v12	group E: the bits kept (22-55)
 *	v13		group E OR mask	v14	FSCAL_R's XOR mask
 *	v15		zero (the AES rounds' key)
 *	x27		scratchpad	x29	dataset + datasetOffset (full
 *			mode), datasetOffset / 64 (light mode)
 *	x28		the memory registers, the one the iteration XORs in
 *			the high half: v1 mx:ma, v2 ma:mx (ROR 32 swaps them)
 *	x0		the context	x1, x2	scratchpad + spAddr0, spAddr1
 *	x3		iterations left	x4 .. x7	scratch (x7 the cache
 *			in light mode, for the compiled SuperscalarHash)
 *	x8 .. x17	the program's constants that take more than one
 *			instruction to make, loaded once before the loop (in
 *			light mode only x16 and x17, which the compiled
 *			SuperscalarHash called in the loop leaves alone)
 *
 * The rounding mode is FPCR's RMode (RandomX's 1 and 2 are its 2 and 1);
 * the caller's FPCR is saved and restored.  Constants are never reloaded
 * inside the loop where a register can hold them, and the flags are set
 * only by CBRANCH's TST right before its branch.  The next dataset line is
 * prefetched as soon as its address is known (the end of the iteration
 * before in v1, two iterations ahead in v2).  Light mode calls back into C
 * for its item (light_item) through a stub that keeps the loop's registers,
 * unless the compiled SuperscalarHash can be called directly (jit-a64.h).
 * Code is written, then made coherent with the instruction cache where it
 * runs (rx_exec_sync) before it runs.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit.h"

#if RX_JIT_A64

#include "randomx/jit-a64-asm.h"
#include "randomx/jit-a64.h"

#define POOL_BYTES 4096
#define CODE_BYTES 65536
#define JIT_BYTES (POOL_BYTES + CODE_BYTES)

#define R(i) (19 + (i))		/* integer register ri */
#define XSP 27
#define XMEM 28
#define XDS 29
#define XCTX 0
#define XP0 1
#define XP1 2
#define XCNT 3
#define T0 4
#define T1 5
#define T2 6
#define T3 7
#define KREG0 8
#define NKREGS 10
#define VA(i) (8 + (i))
#define VESEL 12
#define VEOR 13
#define VSCALE 14
#define VZERO 15
#define VT0 16
#define VT1 17
#define VT2 18
#define VT3 19

#define DMASK ((uint64_t)RX_DATASET_ADDR_MASK)

/*
 * Group E conversion (4.3.2) is (x & 0x00ffffffffffffff) | mask, where x
 * is a signed 32-bit integer converted exactly, so its fraction's low 22
 * bits are 0, and the mask has only bits 0-21 and 56-62: the same as
 * taking bits 22-55 from x and the others from the mask, one BIF.
 */
#define E_SELECT UINT64_C(0x00ffffffffc00000)

/* what the compiled loop reads and writes (offsets used by the code) */
typedef struct rx_a64_ctx {
	uint64_t r[8];
	uint64_t f[8];
	uint64_t e[8];
	uint64_t a[8];
	uint64_t e_sel[2], e_or[2], scale[2];
	uint8_t *scratchpad;
	const uint8_t *memory;		/* full mode: dataset + offset */
	uint64_t mem;			/* x28 at the start */
	uint64_t sp0, sp1;		/* first iteration's spAddr0, 1 */
	uint64_t iterations;
	uint64_t fpcr;			/* in, and out at the end */
	/* light mode: the compiled SuperscalarHash's single-item routine
	 * (jit-a64.h), or NULL, and then C called from the loop */
	const void *ss_single;
	const uint8_t *cache_memory;
	/* light mode without it, and software AES: C called from the loop */
	const uint8_t *(*item_fn)(struct rx_a64_ctx *x, uint64_t n);
	void (*mix_fe)(uint64_t f[8], const uint64_t e[8]);
	const rx_ss_jit *ss;
	const rx_cache_state *cache;
	void (*item_trace)(void *ctx, uint64_t item_number);
	void *item_trace_ctx;
	uint64_t dataset_offset;
	uint64_t item_base;		/* light mode: datasetOffset / 64 */
	uint64_t fbuf[8] __attribute__((aligned(16)));
	uint64_t ebuf[8] __attribute__((aligned(16)));
	uint8_t item[64] __attribute__((aligned(64)));
} rx_a64_ctx;

#define OFF(f) ((uint32_t)offsetof(rx_a64_ctx, f))

typedef void (*program_fn)(rx_a64_ctx *ctx);

struct rx_jit_vm {
	rx_a64_ctx ctx __attribute__((aligned(64)));
	rx_exec_mem mem;
	program_fn fn;
	const void *stub;	/* light mode: emit_light_stub's code */
	rx_insn code[RX_PROGRAM_MAX_SIZE + 1];
	uint32_t pos[RX_PROGRAM_MAX_SIZE + 1];
};

/* ---- the stack frame ---- */

#define F_CALLER_FPCR 160
#define F_CTX 168
#define F_SAVE_X 176	/* x1 .. x3, x8 .. x17 around calls: 13 x 8 */
#define F_SAVE_V 288	/* v0 .. v15 around calls */
#define FRAME 544

typedef struct {
	a64_asm a;
	uint64_t *pool;
	unsigned npool;
	size_t pool_pc;		/* the pool's first word, in instructions
				   before the code (negative distance) */
	uint64_t kval[NKREGS];
	unsigned nk, nkmax;
	int kbase;
	size_t stub;		/* emit_light_stub's code */
	size_t kslots;		/* where the constant loads go */
	int v2, full, hard_aes;
} compiler;

/* the pool word index of k, added if new (or -1 when full) */
static int pool_index(compiler *c, uint64_t k)
{
	unsigned i;

	for (i = 0; i < c->npool; i++)
		if (c->pool[i] == k)
			return (int)i;
	if (c->npool == POOL_BYTES / 8)
		return -1;
	c->pool[c->npool] = k;
	return (int)c->npool++;
}

/* LDR Xt from the pool word for k */
static void emit_ldr_pool(compiler *c, int t, uint64_t k)
{
	int i = pool_index(c, k);

	if (i < 0) {
		c->a.overflow = 1;
		return;
	}
	/* the pool ends where the code starts */
	a64_ldr_lit(&c->a, t,
	    (int32_t)(8 * i - POOL_BYTES - 4 * (int32_t)c->a.pos));
}

/* k sign-extended from 32 bits, or as a MOVZ / MOVN: one instruction? */
static int mov1(a64_asm *a, int t, uint64_t k, int emit)
{
	unsigned hw;

	for (hw = 0; hw < 4; hw++) {
		if ((k & ~(UINT64_C(0xffff) << (16 * hw))) == 0) {
			if (emit)
				a64_movw(a, A64_MOVZ, t,
				    (uint32_t)(k >> (16 * hw)), hw);
			return 1;
		}
		if ((~k & ~(UINT64_C(0xffff) << (16 * hw))) == 0) {
			if (emit)
				a64_movw(a, A64_MOVN, t,
				    (uint32_t)(~k >> (16 * hw)), hw);
			return 1;
		}
	}
	if (a64_bitmask(k) >= 0) {
		if (emit)
			a64_logi(a, A64_ORRI, t, A64_XZR, a64_bitmask(k));
		return 1;
	}
	return 0;
}

/*
 * The register holding k: t after one instruction that makes it, or one
 * of the constant registers (the first NKREGS such constants of the
 * program, loaded before the loop), or t loaded from the pool.
 */
static int const_reg(compiler *c, int t, uint64_t k)
{
	unsigned i;

	if (k == 0)
		return A64_XZR;
	if (mov1(&c->a, t, k, 1))
		return t;
	for (i = 0; i < c->nk; i++)
		if (c->kval[i] == k)
			return c->kbase + (int)i;
	if (c->nk < c->nkmax) {
		c->kval[c->nk] = k;
		return c->kbase + (int)c->nk++;
	}
	emit_ldr_pool(c, t, k);
	return t;
}

/* d = n + k (64-bit) */
static void emit_add_const(compiler *c, int d, int n, uint64_t k)
{
	uint64_t m = 0 - k;

	if (k < 4096) {
		a64_addi(&c->a, 1, 0, d, n, (uint32_t)k, 0);
	} else if (m < 4096) {
		a64_addi(&c->a, 1, 1, d, n, (uint32_t)m, 0);
	} else if (k < (1u << 24)) {
		a64_addi(&c->a, 1, 0, d, n, (uint32_t)(k >> 12), 1);
		if (k & 0xfff)
			a64_addi(&c->a, 1, 0, d, d, (uint32_t)k & 0xfff, 0);
	} else if (m < (1u << 24)) {
		a64_addi(&c->a, 1, 1, d, n, (uint32_t)(m >> 12), 1);
		if (m & 0xfff)
			a64_addi(&c->a, 1, 1, d, d, (uint32_t)m & 0xfff, 0);
	} else {
		a64_rrr(&c->a, A64_ADD, d, n, const_reg(c, T1, k), 0, 0);
	}
}

/*
 * The scratchpad offset of a memory operand into T0 (32-bit arithmetic:
 * the mask keeps fewer bits), or -1 and *off the constant offset when the
 * address is the immediate alone.
 */
static int emit_addr(compiler *c, unsigned src, uint64_t imm, uint32_t mask,
    uint32_t *off)
{
	uint32_t span = (mask | 7u) + 1, k = (uint32_t)imm & (span - 1);
	uint32_t m = (span - k) & (span - 1);
	int n;

	if (src == RX_REG_ZERO) {
		*off = (uint32_t)imm & mask;
		return -1;
	}
	n = R(src);
	/* bits of imm above the mask's do not reach the address */
	if (k == 0) {
		a64_rrr(&c->a, A64_ADD32, T0, n, A64_XZR, 0, 0);
	} else if (k < 4096) {
		a64_addi(&c->a, 0, 0, T0, n, k, 0);
	} else if (m < 4096) {
		a64_addi(&c->a, 0, 1, T0, n, m, 0);
	} else if (!(k & 0xfff)) {
		a64_addi(&c->a, 0, 0, T0, n, k >> 12, 1);
	} else {
		a64_addi(&c->a, 0, 0, T0, n, k >> 12, 1);
		a64_addi(&c->a, 0, 0, T0, T0, k & 0xfff, 0);
	}
	a64_logi(&c->a, A64_ANDI, T0, T0, a64_bitmask(mask));
	return T0;
}

/* Xt = k, in one instruction or from the pool */
static void emit_mov_const(compiler *c, int t, uint64_t k)
{
	if (!mov1(&c->a, t, k, 1))
		emit_ldr_pool(c, t, k);
}

/* Xt = the 8 bytes of a memory operand */
static void emit_load(compiler *c, int t, const rx_insn *in)
{
	uint32_t off;
	int r = emit_addr(c, in->src, in->imm, in->mask, &off);

	if (r >= 0) {
		a64_ldr_reg(&c->a, t, XSP, r);
	} else if (off < 32768) {
		a64_ldr_imm(&c->a, t, XSP, off);
	} else {
		emit_mov_const(c, T0, off);
		a64_ldr_reg(&c->a, t, XSP, T0);
	}
}

/* Vt = the memory operand's two int32 as doubles */
static void emit_load_cvt(compiler *c, int vt, const rx_insn *in)
{
	uint32_t off;
	int r = emit_addr(c, in->src, in->imm, in->mask, &off);

	if (r >= 0) {
		a64_ldrd_reg(&c->a, vt, XSP, r);
	} else if (off < 32768) {
		a64_ldrd_imm(&c->a, vt, XSP, off);
	} else {
		emit_mov_const(c, T0, off);
		a64_ldrd_reg(&c->a, vt, XSP, T0);
	}
	a64_v2(&c->a, A64_SXTL, vt, vt);
	a64_v2(&c->a, A64_SCVTF, vt, vt);
}

/*
 * CFROUND: FPCR.RMode (bits 22-23) gets bits 1 and 0 of the rotated
 * source, swapped.  RBIT puts bit i at 63 - i; rotating that right by
 * 40 - imm brings the rotated source's bit 0 to 23 and bit 1 to 22, and
 * bits 2-5 (v2's condition) to 21-18.
 */
static void emit_cfround(compiler *c, const rx_insn *in)
{
	a64_asm *a = &c->a;
	size_t skip = 0;

	a64_rbit(a, T0, R(in->src));
	a64_rori(a, T0, T0, (unsigned)(40 - in->imm) & 63);
	if (c->v2) {
		a64_logi(a, A64_ANDSI, A64_XZR, T0, a64_bitmask(0x3c0000));
		skip = a->pos;
		a64_put(a, 0);
	}
	a64_logi(a, A64_ANDI, T0, T0, a64_bitmask(0xc00000));
	a64_msr_fpcr(a, T0);
	if (c->v2 && a->pos <= a->cap)
		a->buf[skip] = a64_bcond_word(A64_NE, skip, a->pos);
}

static void emit_insn(compiler *c, const rx_insn *in, const uint32_t *pos)
{
	a64_asm *a = &c->a;
	int d = R(in->dst), s = R(in->src & 7), k;
	int vd = in->dst, va = VA(in->src & 3);

	switch (in->op) {
	case RX_OP_IADD_RS:
		a64_rrr(a, A64_ADD, d, d, s, 0, in->shift);
		if (in->imm)
			emit_add_const(c, d, d, in->imm);
		break;
	case RX_OP_IADD_M:
		emit_load(c, T1, in);
		a64_rrr(a, A64_ADD, d, d, T1, 0, 0);
		break;
	case RX_OP_IADD_C:
		emit_add_const(c, d, d, in->imm);
		break;
	case RX_OP_ISUB_R:
		a64_rrr(a, A64_SUB, d, d, s, 0, 0);
		break;
	case RX_OP_ISUB_M:
		emit_load(c, T1, in);
		a64_rrr(a, A64_SUB, d, d, T1, 0, 0);
		break;
	case RX_OP_IMUL_R:
		a64_mul(a, d, d, s);
		break;
	case RX_OP_IMUL_M:
		emit_load(c, T1, in);
		a64_mul(a, d, d, T1);
		break;
	case RX_OP_IMUL_C:
		a64_mul(a, d, d, const_reg(c, T1, in->imm));
		break;
	case RX_OP_IMULH_R:
		a64_umulh(a, d, d, s);
		break;
	case RX_OP_IMULH_M:
		emit_load(c, T1, in);
		a64_umulh(a, d, d, T1);
		break;
	case RX_OP_ISMULH_R:
		a64_smulh(a, d, d, s);
		break;
	case RX_OP_ISMULH_M:
		emit_load(c, T1, in);
		a64_smulh(a, d, d, T1);
		break;
	case RX_OP_INEG_R:
		a64_rrr(a, A64_SUB, d, A64_XZR, d, 0, 0);
		break;
	case RX_OP_IXOR_R:
		a64_rrr(a, A64_EOR, d, d, s, 0, 0);
		break;
	case RX_OP_IXOR_M:
		emit_load(c, T1, in);
		a64_rrr(a, A64_EOR, d, d, T1, 0, 0);
		break;
	case RX_OP_IXOR_C:
		if ((k = a64_bitmask(in->imm)) >= 0)
			a64_logi(a, A64_EORI, d, d, k);
		else
			a64_rrr(a, A64_EOR, d, d, const_reg(c, T1, in->imm),
			    0, 0);
		break;
	case RX_OP_IROR_R:
		a64_rorv(a, d, d, s);
		break;
	case RX_OP_IROL_R:
		a64_rrr(a, A64_SUB, T1, A64_XZR, s, 0, 0);
		a64_rorv(a, d, d, T1);
		break;
	case RX_OP_IROR_C:
		a64_rori(a, d, d, (unsigned)in->imm & 63);
		break;
	case RX_OP_ISWAP_R:
		a64_mov(a, T1, d);
		a64_mov(a, d, s);
		a64_mov(a, s, T1);
		break;
	case RX_OP_FSWAP_R:
		a64_v3(a, A64_EXT8, vd, vd, vd);
		break;
	case RX_OP_FADD_R:
		a64_v3(a, A64_FADD, vd, vd, va);
		break;
	case RX_OP_FADD_M:
		emit_load_cvt(c, VT0, in);
		a64_v3(a, A64_FADD, vd, vd, VT0);
		break;
	case RX_OP_FSUB_R:
		a64_v3(a, A64_FSUB, vd, vd, va);
		break;
	case RX_OP_FSUB_M:
		emit_load_cvt(c, VT0, in);
		a64_v3(a, A64_FSUB, vd, vd, VT0);
		break;
	case RX_OP_FSCAL_R:
		a64_v3(a, A64_VEOR, vd, vd, VSCALE);
		break;
	case RX_OP_FMUL_R:
		a64_v3(a, A64_FMUL, vd, vd, va);
		break;
	case RX_OP_FDIV_M:
		emit_load_cvt(c, VT0, in);
		a64_v3(a, A64_BIF, VT0, VEOR, VESEL);
		a64_v3(a, A64_FDIV, vd, vd, VT0);
		break;
	case RX_OP_FSQRT_R:
		a64_v2(a, A64_FSQRT, vd, vd);
		break;
	case RX_OP_CBRANCH: {
		size_t at;

		emit_add_const(c, d, d, in->imm);
		a64_logi(a, A64_ANDSI, A64_XZR, d, a64_bitmask(in->mask));
		at = a->pos;
		a64_put(a, a64_bcond_word(A64_EQ, at, pos[in->target]));
		break;
	}
	case RX_OP_CFROUND:
		emit_cfround(c, in);
		break;
	case RX_OP_ISTORE: {
		uint32_t off;
		int r = emit_addr(c, in->dst, in->imm, in->mask, &off);

		if (r < 0) {	/* not made by the decoder; kept correct */
			emit_mov_const(c, T0, off);
			r = T0;
		}
		a64_str_reg(a, s, XSP, r);
		break;
	}
	default:
		break;
	}
}

/* ---- around the program ---- */

/* the caller-saved state the loop keeps, to the frame and back */
static void emit_save(a64_asm *a)
{
	int i;

	a64_str_imm(a, XP0, A64_SP, F_SAVE_X);
	a64_stp(a, XP1, XCNT, A64_SP, F_SAVE_X + 8);
	for (i = 0; i < NKREGS; i += 2)
		a64_stp(a, KREG0 + i, KREG0 + i + 1, A64_SP,
		    F_SAVE_X + 24 + 8 * i);
	for (i = 0; i < 16; i += 2)
		a64_stpq(a, i, i + 1, A64_SP, F_SAVE_V + 16 * i);
}

static void emit_restore(a64_asm *a)
{
	int i;

	a64_ldr_imm(a, XCTX, A64_SP, F_CTX);
	a64_ldr_imm(a, XP0, A64_SP, F_SAVE_X);
	a64_ldp(a, XP1, XCNT, A64_SP, F_SAVE_X + 8);
	for (i = 0; i < NKREGS; i += 2)
		a64_ldp(a, KREG0 + i, KREG0 + i + 1, A64_SP,
		    F_SAVE_X + 24 + 8 * i);
	for (i = 0; i < 16; i += 2)
		a64_ldpq(a, i, i + 1, A64_SP, F_SAVE_V + 16 * i);
}

static void emit_prologue(compiler *c)
{
	a64_asm *a = &c->a;
	int i;

	a64_addi(a, 1, 1, A64_SP, A64_SP, FRAME, 0);
	a64_stp(a, 29, 30, A64_SP, 0);
	for (i = 0; i < 10; i += 2)
		a64_stp(a, 19 + i, 20 + i, A64_SP, 16 + 8 * i);
	for (i = 0; i < 8; i += 2)
		a64_stpd(a, 8 + i, 9 + i, A64_SP, 96 + 8 * i);
	a64_mrs_fpcr(a, T0);
	a64_str_imm(a, T0, A64_SP, F_CALLER_FPCR);
	a64_str_imm(a, XCTX, A64_SP, F_CTX);
	for (i = 0; i < 8; i += 2)
		a64_ldp(a, R(i), R(i + 1), XCTX, (int32_t)(OFF(r) + 8 * i));
	a64_ldpq(a, VA(0), VA(1), XCTX, (int32_t)OFF(a));
	a64_ldpq(a, VA(2), VA(3), XCTX, (int32_t)OFF(a) + 32);
	a64_ldrq_imm(a, VESEL, XCTX, OFF(e_sel));
	a64_ldrq_imm(a, VEOR, XCTX, OFF(e_or));
	a64_ldrq_imm(a, VSCALE, XCTX, OFF(scale));
	a64_vzero(a, VZERO);
	a64_ldr_imm(a, XSP, XCTX, OFF(scratchpad));
	a64_ldr_imm(a, XDS, XCTX, c->full ? OFF(memory) : OFF(item_base));
	a64_ldr_imm(a, XMEM, XCTX, OFF(mem));
	a64_ldr_imm(a, XCNT, XCTX, OFF(iterations));
	a64_ldr_imm(a, T0, XCTX, OFF(fpcr));
	a64_msr_fpcr(a, T0);
	/* the constant registers: filled in once the program is compiled */
	c->kslots = a->pos;
	for (i = 0; i < NKREGS; i++)
		a64_put(a, 0xd503201fu);	/* NOP */
	/* the first iteration's addresses: spAddr0,1 start as mx, ma */
	a64_ldr_imm(a, T2, XCTX, OFF(sp0));
	a64_ldr_imm(a, T3, XCTX, OFF(sp1));
}

/*
 * Step 2 of 4.6.2: spMix into T0, then XP0 and XP1 (the scratchpad plus
 * spAddr0, 1).  first: the iteration where the addresses start from
 * T2, T3 (mx, ma) rather than 0.
 */
static void emit_addresses(compiler *c, const rx_program_config *cfg,
    int first)
{
	a64_asm *a = &c->a;
	int32_t m = a64_bitmask(RX_L3_MASK64);

	a64_rrr(a, A64_EOR, T0, R(cfg->read_reg[0]), R(cfg->read_reg[1]), 0, 0);
	if (first) {
		a64_rrr(a, A64_EOR, T1, T2, T0, 0, 0);
		a64_logi(a, A64_ANDI, T1, T1, m);
		a64_rrr(a, A64_EOR, T2, T3, T0, 1, 32);
		a64_logi(a, A64_ANDI, T2, T2, m);
	} else {
		/* spAddr1 masked where it is, then shifted by the ADD */
		a64_logi(a, A64_ANDI, T1, T0, m);
		a64_logi(a, A64_ANDI, T2, T0,
		    a64_bitmask((uint64_t)RX_L3_MASK64 << 32));
		a64_rrr(a, A64_ADD, XP0, XSP, T1, 0, 0);
		a64_rrr(a, A64_ADD, XP1, XSP, T2, 1, 32);
		return;
	}
	a64_rrr(a, A64_ADD, XP0, XSP, T1, 0, 0);
	a64_rrr(a, A64_ADD, XP1, XSP, T2, 0, 0);
}

/* Steps 3 and 4: r ^= the line at spAddr0; f, e from the one at spAddr1 */
static void emit_loop_load(a64_asm *a)
{
	int i;

	for (i = 0; i < 8; i += 2) {
		a64_ldp(a, T0, T1, XP0, 8 * i);
		a64_rrr(a, A64_EOR, R(i), R(i), T0, 0, 0);
		a64_rrr(a, A64_EOR, R(i + 1), R(i + 1), T1, 0, 0);
	}
	a64_ldpq(a, VT0, VT1, XP1, 0);
	a64_ldpq(a, VT2, VT3, XP1, 32);
	for (i = 0; i < 4; i++) {
		a64_v2(a, i & 1 ? A64_SXTL2 : A64_SXTL, i, VT0 + i / 2);
		a64_v2(a, i & 1 ? A64_SXTL2 : A64_SXTL, 4 + i, VT2 + i / 2);
	}
	for (i = 0; i < 8; i++)
		a64_v2(a, A64_SCVTF, i, i);
	for (i = 4; i < 8; i++)
		a64_v3(a, A64_BIF, i, VEOR, VESEL);
}

/*
 * r ^= the item: at XDS + T1 in full mode (T1 >> 32 in v2); in light mode
 * number x4 + XDS, where XDS holds datasetOffset / 64, computed by the
 * routine at ctx->ss_single with jit-a64.h's convention: the compiled
 * SuperscalarHash's, or emit_light_stub's when there is none (no
 * compiled programs, or a test tracing the items).
 */
static void emit_read_item(compiler *c)
{
	a64_asm *a = &c->a;
	int i;

	if (c->full) {
		a64_rrr(a, A64_ADD, T1, XDS, T1, c->v2 ? 1 : 0,
		    c->v2 ? 32 : 0);
		for (i = 0; i < 8; i += 2) {
			a64_ldp(a, T2, T3, T1, 8 * i);
			a64_rrr(a, A64_EOR, R(i), R(i), T2, 0, 0);
			a64_rrr(a, A64_EOR, R(i + 1), R(i + 1), T3, 0, 0);
		}
		return;
	}
	a64_rrr(a, A64_ADD, 4, 4, XDS, 0, 0);
	a64_ldr_imm(a, T1, XCTX, OFF(ss_single));
	a64_blr(a, T1);
	for (i = 0; i < 8; i++)
		a64_rrr(a, A64_EOR, R(i), R(i), 8 + i, 0, 0);
}

/*
 * Light mode's item from C (light_item) behind jit-a64.h's convention:
 * the registers the loop keeps and C may change (x0 .. x3, x7, x16, x17,
 * x30 and all of v0 .. v15) saved on the stack around the call.
 */
#define STUB_FRAME 320
static void emit_light_stub(a64_asm *a)
{
	int i;

	a64_addi(a, 1, 1, A64_SP, A64_SP, STUB_FRAME, 0);
	a64_stp(a, 30, XCTX, A64_SP, 0);
	a64_stp(a, XP0, XP1, A64_SP, 16);
	a64_stp(a, XCNT, 16, A64_SP, 32);
	a64_stp(a, 17, 7, A64_SP, 48);
	for (i = 0; i < 16; i += 2)
		a64_stpq(a, i, i + 1, A64_SP, 64 + 16 * i);
	a64_mov(a, 1, 4);
	a64_ldr_imm(a, T1, XCTX, OFF(item_fn));
	a64_blr(a, T1);
	for (i = 0; i < 8; i += 2)
		a64_ldp(a, 8 + i, 9 + i, 0, 8 * i);
	for (i = 0; i < 16; i += 2)
		a64_ldpq(a, i, i + 1, A64_SP, 64 + 16 * i);
	a64_ldp(a, 17, 7, A64_SP, 48);
	a64_ldp(a, XCNT, 16, A64_SP, 32);
	a64_ldp(a, XP0, XP1, A64_SP, 16);
	a64_ldp(a, 30, XCTX, A64_SP, 0);
	a64_addi(a, 1, 0, A64_SP, A64_SP, STUB_FRAME, 0);
	a64_ret(a);
}

/*
 * v2's step 10 with the Crypto Extensions.  x86's AESENC(s, k) is
 * AESMC(AESE(s, 0)) ^ k, and AESE XORs its key in first, so round j's key
 * goes into round j + 1's AESE (AESD likewise): four rounds are AESE or
 * AESD and AESMC or AESIMC four times each, keyed 0, e0, e1, e2, then an
 * EOR with e3.
 */
static void emit_mix_fe_hard(a64_asm *a)
{
	int i, j;

	for (j = 0; j < 4; j++)
		for (i = 0; i < 4; i++) {
			a64_v2(a, i & 1 ? A64_AESD : A64_AESE, i,
			    j ? 4 + j - 1 : VZERO);
			a64_v2(a, i & 1 ? A64_AESIMC : A64_AESMC, i, i);
		}
	for (i = 0; i < 4; i++)
		a64_v3(a, A64_VEOR, i, i, 7);
}

/* Steps 5 to 12, the loop's end */
static void emit_loop_end(compiler *c, const rx_program_config *cfg,
    size_t top)
{
	a64_asm *a = &c->a;
	int i;

	/* mx (v1) or ma (v2) ^= readReg2 ^ readReg3, in x28's high half;
	 * this iteration's item at ma before it: the low half in v1, the
	 * high half in v2 */
	a64_rrr(a, A64_EOR, T2, R(cfg->read_reg[2]), R(cfg->read_reg[3]), 0, 0);
	if (c->full)	/* the item's byte offset, in place */
		a64_logi(a, A64_ANDI, T1, XMEM,
		    a64_bitmask(c->v2 ? DMASK << 32 : DMASK));
	else		/* the item's number less datasetOffset's, into x4 */
		a64_ubfx(a, 4, XMEM, c->v2 ? 38 : 6, 25);
	a64_rrr(a, A64_EOR, XMEM, XMEM, T2, 0, 32);
	a64_rori(a, XMEM, XMEM, 32);
	if (c->full) {
		/* the line the loop reads next (v1) or after next (v2) */
		a64_logi(a, A64_ANDI, T0, XMEM, a64_bitmask(DMASK));
		a64_prfm_reg(a, 0, XDS, T0);
	}
	emit_read_item(c);
	for (i = 0; i < 8; i += 2)
		a64_stp(a, R(i), R(i + 1), XP1, 8 * i);
	if (!c->v2) {
		for (i = 0; i < 4; i++)
			a64_v3(a, A64_VEOR, i, i, 4 + i);
	} else if (c->hard_aes) {
		emit_mix_fe_hard(a);
	} else {
		emit_save(a);
		a64_stpq(a, 0, 1, XCTX, (int32_t)OFF(fbuf));
		a64_stpq(a, 2, 3, XCTX, (int32_t)OFF(fbuf) + 32);
		a64_stpq(a, 4, 5, XCTX, (int32_t)OFF(ebuf));
		a64_stpq(a, 6, 7, XCTX, (int32_t)OFF(ebuf) + 32);
		a64_ldr_imm(a, T0, XCTX, OFF(mix_fe));
		a64_addi(a, 1, 0, 1, XCTX, OFF(ebuf), 0);
		a64_addi(a, 1, 0, 0, XCTX, OFF(fbuf), 0);
		a64_blr(a, T0);
		emit_restore(a);
		if (!c->full)
			a64_ldr_imm(a, 7, XCTX, OFF(cache_memory));
		a64_ldpq(a, 0, 1, XCTX, (int32_t)OFF(fbuf));
		a64_ldpq(a, 2, 3, XCTX, (int32_t)OFF(fbuf) + 32);
	}
	a64_stpq(a, 0, 1, XP0, 0);
	a64_stpq(a, 2, 3, XP0, 32);
	a64_addi(a, 1, 1, XCNT, XCNT, 1, 0);
	a64_put(a, 0);
	/* SUBS would set flags for the branch: use CBNZ on the counter */
	a->buf[a->pos - 1] = 0xb5000000u |
	    ((uint32_t)(top - (a->pos - 1)) & 0x7ffff) << 5 | XCNT;
}

static void emit_epilogue(a64_asm *a)
{
	int i;

	for (i = 0; i < 8; i += 2)
		a64_stp(a, R(i), R(i + 1), XCTX, (int32_t)(OFF(r) + 8 * i));
	a64_stpq(a, 0, 1, XCTX, (int32_t)OFF(f));
	a64_stpq(a, 2, 3, XCTX, (int32_t)OFF(f) + 32);
	a64_stpq(a, 4, 5, XCTX, (int32_t)OFF(e));
	a64_stpq(a, 6, 7, XCTX, (int32_t)OFF(e) + 32);
	a64_mrs_fpcr(a, T0);
	a64_str_imm(a, T0, XCTX, OFF(fpcr));
	a64_ldr_imm(a, T0, A64_SP, F_CALLER_FPCR);
	a64_msr_fpcr(a, T0);
	for (i = 0; i < 8; i += 2)
		a64_ldpd(a, 8 + i, 9 + i, A64_SP, 96 + 8 * i);
	for (i = 0; i < 10; i += 2)
		a64_ldp(a, 19 + i, 20 + i, A64_SP, 16 + 8 * i);
	a64_ldp(a, 29, 30, A64_SP, 0);
	a64_addi(a, 1, 0, A64_SP, A64_SP, FRAME, 0);
	a64_ret(a);
}

static void emit_function(compiler *c, const rx_insn *code, unsigned n,
    uint32_t *pos, const rx_program_config *cfg)
{
	a64_asm *a = &c->a;
	size_t top, body;
	unsigned i;

	emit_prologue(c);
	emit_addresses(c, cfg, 1);
	if (!c->full)	/* x7 (T3) holds the cache in light mode's loop */
		a64_ldr_imm(a, 7, XCTX, OFF(cache_memory));
	body = a->pos;
	a64_put(a, 0);		/* B body_entry */
	top = a->pos;
	emit_addresses(c, cfg, 0);
	if (a->pos <= a->cap)
		a->buf[body] = a64_b_word(body, a->pos);
	emit_loop_load(a);
	for (i = 0; i < n; i++) {
		pos[i] = (uint32_t)a->pos;
		emit_insn(c, &code[i], pos);
	}
	pos[n] = (uint32_t)a->pos;
	emit_loop_end(c, cfg, top);
	emit_epilogue(a);
	c->stub = a->pos;
	if (!c->full)
		emit_light_stub(a);
	for (i = 0; i < c->nk; i++) {
		size_t at = a->pos;

		/* assemble the pool load at the end, then move it */
		emit_ldr_pool(c, c->kbase + (int)i, c->kval[i]);
		if (a->pos == at + 1) {
			uint32_t w = a->buf[at];
			int32_t off = (int32_t)(((w >> 5) & 0x7ffff) ^
			    0x40000u) - 0x40000;

			off += (int32_t)(at - (c->kslots + i));
			a->buf[c->kslots + i] = (w & ~(0x7ffffu << 5)) |
			    ((uint32_t)off & 0x7ffff) << 5;
			a->pos = at;
		}
	}
}

/* ---- light mode's items ---- */

static const uint8_t *light_item(rx_a64_ctx *x, uint64_t n)
{
	if (x->item_trace)
		x->item_trace(x->item_trace_ctx, n);
	if (x->ss)
		rx_ss_jit_items(x->ss, x->cache->memory, &n, 1, x->item);
	else
		rx_dataset_item(x->cache, n, x->item);
	return x->item;
}

/* ---- the VM's side ---- */

rx_jit_vm *rx_jit_vm_new(int secure)
{
	return rx_exec_owner_new(sizeof(rx_jit_vm), offsetof(rx_jit_vm, mem),
	    JIT_BYTES, secure);
}

void rx_jit_vm_free(rx_jit_vm *j)
{
	rx_exec_owner_free(j, offsetof(rx_jit_vm, mem));
}

const void *rx_jit_vm_code(const rx_jit_vm *j)
{
	return j->mem.x;
}

int rx_jit_vm_compile(rx_jit_vm *j, const rx_vm_state *vm)
{
	compiler c;
	unsigned n;

	j->fn = NULL;
	if (rx_exec_writable(&j->mem) < 0)	/* 1: all is written anyway */
		return -1;
	n = rx_program_decode(vm->program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(vm->v2), j->code);
	a64_init(&c.a, j->mem.w + POOL_BYTES, CODE_BYTES);
	c.pool = (uint64_t *)(void *)j->mem.w;
	c.npool = 0;
	c.nk = 0;
	c.nkmax = vm->dataset ? NKREGS : 2;
	c.kbase = vm->dataset ? KREG0 : 16;
	c.v2 = vm->v2;
	c.full = vm->dataset != NULL;
	c.hard_aes = 0;
#ifdef RX_A64_ISAS
	c.hard_aes = vm->aes == &rx_aes_armv8;
#endif
	emit_function(&c, j->code, n, j->pos, &vm->cfg);
	rx_exec_sync(&j->mem, JIT_BYTES);
	if (rx_exec_executable(&j->mem) || c.a.overflow)
		return -1;
	j->fn = (program_fn)(void *)(j->mem.x + POOL_BYTES);
	j->stub = j->mem.x + POOL_BYTES + 4 * c.stub;
	j->ctx.mix_fe = vm->aes->mix_fe;
	return 0;
}

/* FPCR.RMode of RandomX's rounding mode, and back (1 and 2 swap) */
static uint64_t fpcr_of(unsigned fprc)
{
	return (uint64_t)(((fprc & 1) << 1) | ((fprc >> 1) & 1)) << 22;
}

static unsigned fprc_of(uint64_t fpcr)
{
	unsigned m = (unsigned)(fpcr >> 22) & 3;

	return ((m & 1) << 1) | ((m >> 1) & 1);
}

static void setup(rx_a64_ctx *x, const rx_program_config *cfg,
    const rx_vm_state *vm, const rx_ss_jit *ss, const void *stub)
{
	memset(x->r, 0, sizeof(x->r));
	memcpy(x->a, vm->regs.a, sizeof(x->a));
	x->e_sel[0] = x->e_sel[1] = E_SELECT;
	x->e_or[0] = cfg->e_mask[0];
	x->e_or[1] = cfg->e_mask[1];
	x->scale[0] = x->scale[1] = UINT64_C(0x80f0000000000000);
	x->scratchpad = vm->scratchpad;
	x->memory = vm->dataset ? vm->dataset + cfg->dataset_offset : NULL;
	if (vm->v2)
		x->mem = (uint64_t)cfg->ma << 32 | cfg->mx;
	else
		x->mem = (uint64_t)cfg->mx << 32 | cfg->ma;
	x->sp0 = cfg->mx;
	x->sp1 = cfg->ma;
	x->iterations = RX_PROGRAM_ITERATIONS;
	x->fpcr = fpcr_of(vm->fprc);
	x->item_fn = light_item;
	x->ss_single = ss && !vm->item_trace ? rx_ss_jit_a64_single(ss) :
	    NULL;
	if (!x->ss_single)
		x->ss_single = stub;
	x->cache_memory = vm->cache ? vm->cache->memory : NULL;
	x->ss = ss;
	x->cache = vm->cache;
	x->item_trace = vm->item_trace;
	x->item_trace_ctx = vm->item_trace_ctx;
	x->dataset_offset = cfg->dataset_offset;
	x->item_base = cfg->dataset_offset / RX_DATASET_ITEM_BYTES;
}

static void finish(const rx_a64_ctx *x, rx_vm_state *vm)
{
	memcpy(vm->regs.r, x->r, sizeof(x->r));
	memcpy(vm->regs.f, x->f, sizeof(x->f));
	memcpy(vm->regs.e, x->e, sizeof(x->e));
	vm->fprc = fprc_of(x->fpcr);
}

void rx_jit_vm_run(rx_jit_vm *j, rx_vm_state *vm, const rx_ss_jit *ss)
{
	setup(&j->ctx, &vm->cfg, vm, ss, j->stub);
	j->fn(&j->ctx);
	finish(&j->ctx, vm);
}

#endif /* RX_JIT_A64 */
