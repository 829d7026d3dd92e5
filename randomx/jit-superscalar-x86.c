/*
 * jit-superscalar-x86.c: SuperscalarHash compiled to x86-64 (see jit.h).
 *
 * A dataset item is 8 programs, each followed by a read of a cache line
 * whose address only the program's result gives.  Computed one item at a
 * time that is 8 trips to memory in a chain (256 MiB of cache: each one a
 * miss), and waiting for them costs more than the programs.  Here a batch
 * of items takes turns instead: program k runs for item 0, 1, ... n-1 in
 * turn, each turn ending with the prefetch of that item's next line, which
 * is used only in the next pass, after the n-1 other items' programs.
 *
 * The routine, f(state, lines, n, cache), with the System V ABI:
 *	state: n items' registers r0..r7 (64 bytes each), in and out;
 *	lines: n pointers, the cache line each item mixes in next (in: the
 *	       first ones; they are advanced in place);
 *	for k = 0 .. 7: for each item: load its registers, run program k,
 *	       XOR its line into them, find and prefetch its next line (k < 7),
 *	       store them.
 * Registers inside: r8..r15 hold the item's r0..r7 (so every instruction
 * is one x86 instruction with REX.B/R); rax and rdx are the multiplier's;
 * rsi walks the states, rbx the line pointers, rbp is the states' end,
 * rdi the cache, rcx a line pointer.
 *
 * Where the CPU has AVX2, the dataset is built by a second routine that
 * computes four items in each instruction stream: ymm0..ymm7 hold r0..r7
 * of four items, one per 64-bit lane, and every instruction becomes one
 * to twenty AVX2 instructions (AVX2 has no 64-bit multiply: products are
 * put together from 32 x 32-bit ones).  The scalar code keeps the
 * integer multiplier busy on one item; the vector code spreads four over
 * the vector units, which more than makes up for the longer sequences
 * (see PERFORMANCE).  Its state is four items at a time, register by
 * register (256 bytes a group: r0 of the four, r1 of the four...), and
 * its line pointers are offsets into the cache.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit.h"

#if RX_JIT_X86_64

#include "randomx/jit-x86-asm.h"
#include "sysendian.h"

/* The largest routine: 8 programs of the longest instructions, and loops. */
#define SS_CODE_BYTES ((size_t)RX_CACHE_ACCESSES * \
	(RX_SUPERSCALAR_MAX_SIZE * 14 + 256) + 256)
/* The AVX2 routine: up to 100 bytes an instruction, and its constants. */
#define SS_VPOOL_BYTES ((size_t)RX_CACHE_ACCESSES * RX_SUPERSCALAR_MAX_SIZE * 64)
#define SS_VCODE_BYTES ((size_t)RX_CACHE_ACCESSES * \
	(RX_SUPERSCALAR_MAX_SIZE * 100 + 1024) + 256)
#define SS_SCALAR_AT 0
#define SS_VPOOL_AT ((SS_CODE_BYTES + 4095) & ~(size_t)4095)
#define SS_VCODE_AT (SS_VPOOL_AT + SS_VPOOL_BYTES)
#define SS_MEM_BYTES (SS_VCODE_AT + SS_VCODE_BYTES)

typedef void (*ss_routine)(uint8_t *state, const uint8_t **lines, size_t n,
    const uint8_t *cache);
/* state: groups of four (256 bytes); lines: offsets; n: groups. */
typedef void (*ss_vroutine)(uint8_t *state, uint64_t *lines, size_t groups,
    const uint8_t *cache);

struct rx_ss_jit {
	rx_exec_mem mem;
	ss_routine fn;		/* NULL until compiled */
	ss_vroutine vfn;	/* NULL without AVX2 */
};

#define VREG(i) (RX_R8 + (i))	/* SuperscalarHash register i */

static void emit_op(rx_asm *a, const rx_ss_op *op, int bmi2)
{
	int d = VREG(op->dst), s = VREG(op->src);

	switch (op->kind) {
	case RX_SS_ISUB_R:
		rx_alu(a, RX_SUB, d, rx_reg(s));
		break;
	case RX_SS_IXOR_R:
		rx_alu(a, RX_XOR, d, rx_reg(s));
		break;
	case RX_SS_IADD_RS:
		rx_lea(a, 1, d, rx_mem_idx(d, s, op->shift, 0));
		break;
	case RX_SS_IMUL_R:
		rx_imul(a, d, rx_reg(s));
		break;
	case RX_SS_IROR_C:
		if (op->shift)
			rx_shift_imm(a, 1, 1, d, op->shift);
		break;
	case RX_SS_IADD_C7:
		rx_alu_imm(a, 1, 0, rx_reg(d), (int32_t)op->k);
		break;
	case RX_SS_IXOR_C7:
		rx_alu_imm(a, 1, 6, rx_reg(d), (int32_t)op->k);
		break;
	case RX_SS_IMULH_R:
		if (bmi2) {
			rx_alu(a, RX_MOV, RX_RDX, rx_reg(d));
			rx_mulx(a, d, RX_RAX, rx_reg(s));
		} else {
			rx_alu(a, RX_MOV, RX_RAX, rx_reg(d));
			rx_grp3(a, 4, rx_reg(s));
			rx_alu(a, RX_MOV, d, rx_reg(RX_RDX));
		}
		break;
	case RX_SS_ISMULH_R:
		rx_alu(a, RX_MOV, RX_RAX, rx_reg(d));
		rx_grp3(a, 5, rx_reg(s));
		rx_alu(a, RX_MOV, d, rx_reg(RX_RDX));
		break;
	default:	/* RX_SS_IMUL_RCP */
		rx_mov_imm(a, RX_RAX, op->k);
		rx_imul(a, d, rx_reg(RX_RAX));
		break;
	}
}

/* Stack slots of the routine: the states, the lines, the states' end. */
#define SLOT_STATE 0
#define SLOT_LINES 8
#define SLOT_END 16

static void emit_pass(rx_asm *a, const rx_ss_program *p, int last, int bmi2)
{
	const uint8_t *top;
	uint32_t i;

	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RSP, SLOT_STATE));
	rx_alu(a, RX_MOV, RX_RBX, rx_mem(RX_RSP, SLOT_LINES));
	rx_align(a, 16);
	top = rx_asm_here(a);
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RSI, 8 * (int32_t)i));
	for (i = 0; i < p->size; i++)
		emit_op(a, &p->op[i], bmi2);
	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RBX, 0));
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_XOR, VREG(i), rx_mem(RX_RCX, 8 * (int32_t)i));
	if (!last) {
		/* the next line: cache + 64 * (r[address_reg] mod items) */
		rx_alu32(a, RX_MOV, RX_RCX, rx_reg(VREG(p->address_reg)));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX), (int32_t)(RX_CACHE_ITEMS - 1));
		rx_shift_imm(a, 1, 4, RX_RCX, 6);
		rx_alu(a, RX_ADD, RX_RCX, rx_reg(RX_RDI));
		rx_prefetch(a, 1, rx_mem(RX_RCX, 0));
		rx_store(a, rx_mem(RX_RBX, 0), RX_RCX);
	}
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RSI, 8 * (int32_t)i), VREG(i));
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSI), 64);
	rx_alu_imm(a, 1, 0, rx_reg(RX_RBX), 8);
	rx_alu(a, RX_CMP, RX_RSI, rx_reg(RX_RBP));
	rx_jump(a, 2, top);		/* jb */
}

static const int saved[] = {
	RX_RBX, RX_RBP, RX_R12, RX_R13, RX_R14, RX_R15
};

/*
 * Both routines' entry: the callee-saved registers pushed, the stack
 * slots filled (states in rdi, lines in rsi, rdx the number of
 * 2^shift-byte groups of states), rbp = the states' end, rdi = the cache
 * (from rcx).
 */
static void emit_prologue(rx_asm *a, int shift)
{
	int i;

	for (i = 0; i < 6; i++)
		rx_push(a, saved[i]);
	rx_alu_imm(a, 1, 5, rx_reg(RX_RSP), 24);
	rx_store(a, rx_mem(RX_RSP, SLOT_STATE), RX_RDI);
	rx_store(a, rx_mem(RX_RSP, SLOT_LINES), RX_RSI);
	rx_shift_imm(a, 1, 4, RX_RDX, shift);
	rx_alu(a, RX_ADD, RX_RDX, rx_reg(RX_RDI));
	rx_store(a, rx_mem(RX_RSP, SLOT_END), RX_RDX);
	rx_alu(a, RX_MOV, RX_RBP, rx_reg(RX_RDX));
	rx_alu(a, RX_MOV, RX_RDI, rx_reg(RX_RCX));
}

/* Both routines' exit: the slots freed, the registers restored. */
static void emit_epilogue(rx_asm *a)
{
	int i;

	rx_alu_imm(a, 1, 0, rx_reg(RX_RSP), 24);
	for (i = 5; i >= 0; i--)
		rx_pop(a, saved[i]);
	rx_ret(a);
}

/* The routine for c's programs into a, from its start: 64-byte states. */
static void emit_routine(rx_asm *a, const rx_cache_state *c, int bmi2)
{
	int i;

	emit_prologue(a, 6);
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		emit_pass(a, &c->programs[i], i == RX_CACHE_ACCESSES - 1, bmi2);
	emit_epilogue(a);
}

/* ---- the AVX2 routine: four items per instruction ---- */

/*
 * Registers: ymm0..ymm7 the four items' r0..r7, ymm8..ymm15 scratch.
 * Constants (32 bytes, the same value in each lane, or vpshufb's masks)
 * are in a pool before the code, addressed RIP-relative.
 */
typedef struct {
	rx_asm *a;
	uint8_t *pool;
	size_t npool;		/* 32-byte entries used */
} vcompiler;

#define VT(i) (8 + (i))	/* scratch register i, 0 .. 7 */

/* VEX.256.66 instruction in map 1 (0F), 2 (0F38) or 3 (0F3A): d = v OP rm */
static void vop(vcompiler *c, int map, unsigned op, int d, int v, rx_rm rm)
{
	rx_vex(c->a, map, 1, 0, 1, v, op, d, rm, 0);
}

#define VPADDQ 0xd4
#define VPSUBQ 0xfb
#define VPXOR 0xef
#define VPOR 0xeb
#define VPAND 0xdb
#define VPMULUDQ 0xf4
#define VPUNPCKLQDQ 0x6c
#define VPUNPCKHQDQ 0x6d
#define VPSHUFB 0x00		/* map 2 */
#define VPCMPGTQ 0x37		/* map 2 */

static void vadd(vcompiler *c, int d, int v, int s)
{
	vop(c, 1, VPADDQ, d, v, rx_reg(s));
}

/* d = s shifted by count: digit 2 right, 6 left (64-bit lanes) */
static void vshift(vcompiler *c, int digit, int d, int s, unsigned count)
{
	rx_vex(c->a, 1, 1, 0, 1, d, 0x73, digit, rx_reg(s), 1);
	rx_b(c->a, count);
}

/* A 32-byte constant in the pool (deduplicated), as an operand. */
static rx_rm vconst(vcompiler *c, const uint8_t k[32])
{
	size_t i;

	for (i = 0; i < c->npool; i++)
		if (!memcmp(c->pool + 32 * i, k, 32))
			return rx_rip(c->pool + 32 * i);
	if (32 * (c->npool + 1) > SS_VPOOL_BYTES) {
		c->a->overflow = 1;
		return rx_rip(c->pool);
	}
	memcpy(c->pool + 32 * c->npool, k, 32);
	return rx_rip(c->pool + 32 * c->npool++);
}

static rx_rm vconst64(vcompiler *c, uint64_t x)
{
	uint8_t k[32];
	int i;

	for (i = 0; i < 4; i++)
		memcpy(k + 8 * i, &x, 8);
	return vconst(c, k);
}

/* d = low 64 bits of d * s (s a register), or of d * k (s < 0) */
static void vmul_lo(vcompiler *c, int d, int s, uint64_t k)
{
	if (s >= 0) {
		vshift(c, 2, VT(0), d, 32);
		vshift(c, 2, VT(1), s, 32);
		vop(c, 1, VPMULUDQ, VT(0), VT(0), rx_reg(s));
		vop(c, 1, VPMULUDQ, VT(1), VT(1), rx_reg(d));
		vop(c, 1, VPMULUDQ, d, d, rx_reg(s));
	} else {
		vshift(c, 2, VT(0), d, 32);
		vop(c, 1, VPMULUDQ, VT(0), VT(0), vconst64(c, k & 0xffffffff));
		vop(c, 1, VPMULUDQ, VT(1), d, vconst64(c, k >> 32));
		vop(c, 1, VPMULUDQ, d, d, vconst64(c, k & 0xffffffff));
	}
	vadd(c, VT(0), VT(0), VT(1));
	vshift(c, 6, VT(0), VT(0), 32);
	vadd(c, d, d, VT(0));
}

/*
 * d = high 64 bits of d * s, unsigned: with d = dh:dl and s = sh:sl in
 * 32-bit halves, t = dh*sl + (dl*sl >> 32) and u = dl*sh + (t mod 2^32)
 * cannot overflow, and the high half is dh*sh + (t >> 32) + (u >> 32).
 * Signed: less s where d < 0 and d where s < 0.
 */
static void vmul_hi(vcompiler *c, int d, int s, int is_signed)
{
	if (is_signed) {
		vop(c, 1, VPXOR, VT(5), VT(5), rx_reg(VT(5)));
		vop(c, 2, VPCMPGTQ, VT(6), VT(5), rx_reg(d));
		vop(c, 2, VPCMPGTQ, VT(7), VT(5), rx_reg(s));
		vop(c, 1, VPAND, VT(6), VT(6), rx_reg(s));
		vop(c, 1, VPAND, VT(7), VT(7), rx_reg(d));
		vadd(c, VT(6), VT(6), VT(7));
	}
	vshift(c, 2, VT(0), d, 32);
	vshift(c, 2, VT(1), s, 32);
	vop(c, 1, VPMULUDQ, VT(2), d, rx_reg(s));
	vop(c, 1, VPMULUDQ, VT(3), VT(0), rx_reg(s));
	vop(c, 1, VPMULUDQ, VT(4), d, rx_reg(VT(1)));
	vop(c, 1, VPMULUDQ, VT(0), VT(0), rx_reg(VT(1)));
	vshift(c, 2, VT(2), VT(2), 32);
	vadd(c, VT(3), VT(3), VT(2));
	vop(c, 1, VPAND, VT(2), VT(3), vconst64(c, 0xffffffff));
	vadd(c, VT(4), VT(4), VT(2));
	vshift(c, 2, VT(3), VT(3), 32);
	vshift(c, 2, VT(4), VT(4), 32);
	vadd(c, VT(0), VT(0), VT(3));
	vadd(c, d, VT(0), VT(4));
	if (is_signed)
		vop(c, 1, VPSUBQ, d, d, rx_reg(VT(6)));
}

/* d = d rotated right by n (1 .. 63) */
static void vror(vcompiler *c, int d, unsigned n)
{
	uint8_t k[32];
	int i;

	if (n == 32) {		/* vpshufd: swap the dwords */
		rx_vex(c->a, 1, 1, 0, 1, 0, 0x70, d, rx_reg(d), 1);
		rx_b(c->a, 0xb1);
	} else if (n % 8 == 0) {	/* whole bytes: vpshufb */
		for (i = 0; i < 32; i++)
			k[i] = (uint8_t)((i & ~7) | ((i + n / 8) & 7));
		vop(c, 2, VPSHUFB, d, d, vconst(c, k));
	} else {
		vshift(c, 6, VT(0), d, 64 - n);
		vshift(c, 2, d, d, n);
		vop(c, 1, VPOR, d, d, rx_reg(VT(0)));
	}
}

static void emit_vop(vcompiler *c, const rx_ss_op *op)
{
	int d = op->dst, s = op->src;

	switch (op->kind) {
	case RX_SS_ISUB_R:
		vop(c, 1, VPSUBQ, d, d, rx_reg(s));
		break;
	case RX_SS_IXOR_R:
		vop(c, 1, VPXOR, d, d, rx_reg(s));
		break;
	case RX_SS_IADD_RS:
		if (op->shift) {
			vshift(c, 6, VT(0), s, op->shift);
			vadd(c, d, d, VT(0));
		} else {
			vadd(c, d, d, s);
		}
		break;
	case RX_SS_IMUL_R:
		vmul_lo(c, d, s, 0);
		break;
	case RX_SS_IROR_C:
		if (op->shift)
			vror(c, d, op->shift);
		break;
	case RX_SS_IADD_C7:
		vop(c, 1, VPADDQ, d, d, vconst64(c, op->k));
		break;
	case RX_SS_IXOR_C7:
		vop(c, 1, VPXOR, d, d, vconst64(c, op->k));
		break;
	case RX_SS_IMULH_R:
		vmul_hi(c, d, s, 0);
		break;
	case RX_SS_ISMULH_R:
		vmul_hi(c, d, s, 1);
		break;
	default:	/* RX_SS_IMUL_RCP */
		vmul_lo(c, d, -1, op->k);
		break;
	}
}

/* vmovdqa ymm, m256 / m256, ymm; vmovdqu xmm, m128 */
static void vload(vcompiler *c, int y, rx_rm m)
{
	rx_vex(c->a, 1, 1, 0, 1, 0, 0x6f, y, m, 0);
}

static void vstore(vcompiler *c, rx_rm m, int y)
{
	rx_vex(c->a, 1, 1, 0, 1, 0, 0x7f, y, m, 0);
}

static void vload128(vcompiler *c, int x, rx_rm m)
{
	rx_vex(c->a, 1, 2, 0, 0, 0, 0x6f, x, m, 0);
}

/* vinserti128 y, y, m128, 1: m into the high half */
static void vinsert_hi(vcompiler *c, int y, rx_rm m)
{
	rx_vex(c->a, 3, 1, 0, 1, y, 0x38, y, m, 1);
	rx_b(c->a, 1);
}

/* The line pointers of a group: rax, rcx, rdx, r8 (offsets into rdi). */
static const int line_reg[4] = { RX_RAX, RX_RCX, RX_RDX, RX_R8 };

/*
 * r0..r7 ^= the group's four lines.  Each line is one item's eight
 * words; for registers 2p and 2p + 1 the items' 16-byte pieces at 16p
 * are paired up (items 0 and 2, 1 and 3 in the two halves) and
 * interleaved.
 */
static void emit_vxor_lines(vcompiler *c)
{
	int p, i;

	for (i = 0; i < 4; i++)
		rx_alu(c->a, RX_MOV, line_reg[i], rx_mem(RX_RBX, 8 * i));
	for (p = 0; p < 4; p++) {
		vload128(c, VT(0), rx_mem_idx(RX_RDI, line_reg[0], 0, 16 * p));
		vinsert_hi(c, VT(0), rx_mem_idx(RX_RDI, line_reg[2], 0, 16 * p));
		vload128(c, VT(1), rx_mem_idx(RX_RDI, line_reg[1], 0, 16 * p));
		vinsert_hi(c, VT(1), rx_mem_idx(RX_RDI, line_reg[3], 0, 16 * p));
		vop(c, 1, VPUNPCKLQDQ, VT(2), VT(0), rx_reg(VT(1)));
		vop(c, 1, VPUNPCKHQDQ, VT(3), VT(0), rx_reg(VT(1)));
		vop(c, 1, VPXOR, 2 * p, 2 * p, rx_reg(VT(2)));
		vop(c, 1, VPXOR, 2 * p + 1, 2 * p + 1, rx_reg(VT(3)));
	}
}

static void emit_vpass(vcompiler *c, const rx_ss_program *p, int last)
{
	rx_asm *a = c->a;
	const uint8_t *top;
	uint32_t i;

	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RSP, SLOT_STATE));
	rx_alu(a, RX_MOV, RX_RBX, rx_mem(RX_RSP, SLOT_LINES));
	rx_align(a, 16);
	top = rx_asm_here(a);
	for (i = 0; i < 8; i++)
		vload(c, (int)i, rx_mem(RX_RSI, 32 * (int32_t)i));
	for (i = 0; i < p->size; i++)
		emit_vop(c, &p->op[i]);
	emit_vxor_lines(c);
	if (!last) {
		vop(c, 1, VPAND, VT(0), (int)p->address_reg,
		    vconst64(c, RX_CACHE_ITEMS - 1));
		vshift(c, 6, VT(0), VT(0), 6);
		vstore(c, rx_mem(RX_RBX, 0), VT(0));
		for (i = 0; i < 4; i++) {
			rx_alu(a, RX_MOV, line_reg[i],
			    rx_mem(RX_RBX, 8 * (int32_t)i));
			rx_prefetch(a, 1, rx_mem_idx(RX_RDI, line_reg[i], 0, 0));
		}
	}
	for (i = 0; i < 8; i++)
		vstore(c, rx_mem(RX_RSI, 32 * (int32_t)i), (int)i);
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSI), 256);
	rx_alu_imm(a, 1, 0, rx_reg(RX_RBX), 32);
	rx_alu(a, RX_CMP, RX_RSI, rx_reg(RX_RBP));
	rx_jump(a, 2, top);		/* jb */
}

/* The routine as emit_routine's, with groups of four: 256-byte states. */
static void emit_vroutine(vcompiler *c, const rx_cache_state *cs)
{
	rx_asm *a = c->a;
	int i;

	emit_prologue(a, 8);
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		emit_vpass(c, &cs->programs[i], i == RX_CACHE_ACCESSES - 1);
	rx_vzeroupper(a);
	emit_epilogue(a);
}

rx_ss_jit *rx_ss_jit_new(int secure)
{
	return rx_exec_owner_new(sizeof(rx_ss_jit), offsetof(rx_ss_jit, mem),
	    SS_MEM_BYTES, secure);
}

void rx_ss_jit_free(rx_ss_jit *j)
{
	rx_exec_owner_free(j, offsetof(rx_ss_jit, mem));
}

int rx_ss_jit_compile(rx_ss_jit *j, const rx_cache_state *c)
{
	rx_asm a;

	rx_asm v;
	vcompiler vc;
	int avx2 = rx_cpu_uses(RX_USE_JIT_SS_AVX2);

	j->fn = NULL;
	j->vfn = NULL;
	if (rx_exec_writable(&j->mem) < 0)
		return -1;
	rx_asm_init(&a, j->mem.w + SS_SCALAR_AT, SS_CODE_BYTES);
	emit_routine(&a, c, rx_cpu_uses(RX_USE_JIT_MULX));
	if (avx2) {
		rx_asm_init(&v, j->mem.w + SS_VCODE_AT, SS_VCODE_BYTES);
		vc.a = &v;
		vc.pool = j->mem.w + SS_VPOOL_AT;
		vc.npool = 0;
		emit_vroutine(&vc, c);
	}
	if (rx_exec_executable(&j->mem) || a.overflow)
		return -1;
	j->fn = (ss_routine)(void *)(j->mem.x + SS_SCALAR_AT);
	if (avx2 && !v.overflow)
		j->vfn = (ss_vroutine)(void *)(j->mem.x + SS_VCODE_AT);
	return 0;
}

/* Step 1 of chapter 7.3 for item n into state (rx_item_registers). */
static void init_registers(uint8_t *state, uint64_t n)
{
	rx_item_registers((uint64_t *)(void *)state, n);
}

static const uint8_t *first_line(const uint8_t *cache, uint64_t n)
{
	const uint8_t *line = cache + (n & (RX_CACHE_ITEMS - 1)) *
	    RX_DATASET_ITEM_BYTES;

	__builtin_prefetch(line, 0, 3);
	return line;
}

void rx_ss_jit_items(const rx_ss_jit *j, const uint8_t *cache_memory,
    const uint64_t *items, size_t n, uint8_t *out)
{
	const uint8_t *lines[RX_SS_JIT_MAX_BATCH];
	uint64_t state[RX_SS_JIT_MAX_BATCH * 8];
	size_t i;

	for (i = 0; i < n; i++) {
		lines[i] = first_line(cache_memory, items[i]);
		init_registers((uint8_t *)&state[8 * i], items[i]);
	}
	j->fn((uint8_t *)state, lines, n, cache_memory);
	for (i = 0; i < 8 * n; i++)
		le64enc(out + 8 * i, state[i]);
}

/* Items per call when building the dataset (see the file's comment). */
#define DATASET_BATCH 16
#define VBATCH 32	/* AVX2: 8 groups of 4 */

/* Items n .. n + VBATCH - 1 with the AVX2 routine, into out (64 each). */
static void vbatch(const rx_ss_jit *j, const rx_cache_state *c, uint64_t n,
    uint8_t *out)
{
	uint64_t state[VBATCH * 8] __attribute__((aligned(32)));
	uint64_t lines[VBATCH] __attribute__((aligned(32)));
	uint8_t one[64];
	int i, k;

	for (i = 0; i < VBATCH; i++) {
		const uint64_t *r = (const uint64_t *)(const void *)one;

		lines[i] = ((n + (uint64_t)i) & (RX_CACHE_ITEMS - 1)) *
		    RX_DATASET_ITEM_BYTES;
		__builtin_prefetch(c->memory + lines[i], 0, 3);
		init_registers(one, n + (uint64_t)i);
		for (k = 0; k < 8; k++)
			state[32 * (i / 4) + 4 * k + i % 4] = r[k];
	}
	j->vfn((uint8_t *)state, lines, VBATCH / 4, c->memory);
	for (i = 0; i < VBATCH; i++)
		for (k = 0; k < 8; k++)
			le64enc(out + RX_DATASET_ITEM_BYTES * i + 8 * k,
			    state[32 * (i / 4) + 4 * k + i % 4]);
}

void rx_ss_jit_dataset_init(const rx_ss_jit *j, const rx_cache_state *c,
    uint8_t *dataset, uint64_t start_item, uint64_t item_count)
{
	const uint8_t *lines[DATASET_BATCH];
	uint64_t n = start_item, end = start_item + item_count;

	if (j->vfn)
		for (; end - n >= VBATCH; n += VBATCH)
			vbatch(j, c, n, dataset + n * RX_DATASET_ITEM_BYTES);
	/* The routine works on the dataset's own slots (little-endian). */
	while (n < end) {
		size_t b = end - n < DATASET_BATCH ? (size_t)(end - n) :
		    DATASET_BATCH, i;
		uint8_t *slot = dataset + n * RX_DATASET_ITEM_BYTES;

		for (i = 0; i < b; i++) {
			lines[i] = first_line(c->memory, n + i);
			init_registers(slot + RX_DATASET_ITEM_BYTES * i, n + i);
		}
		j->fn(slot, lines, b, c->memory);
		n += b;
	}
}

#endif /* RX_JIT_X86_64 */
