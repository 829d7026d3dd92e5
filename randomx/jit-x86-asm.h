/*
 * jit-x86-asm.h: a small x86-64 instruction encoder shared by the two JIT
 * compilers (jit-x86.c for programs, jit-superscalar-x86.c for
 * SuperscalarHash).  Internal; static inline functions only, so each
 * compiler gets its own copy and no symbol is exported.
 *
 * Code goes into a caller's buffer through an rx_asm cursor.  Writing past
 * the end sets `overflow` and writes nothing more (the position keeps
 * counting, so a caller can tell how much it would have needed); the
 * compilers check it once at the end and fall back to the interpreter.
 * An instruction is copied out 24 bytes at a time, so the last 24 bytes of
 * a buffer stay unused.
 *
 * Registers are numbered as the hardware numbers them: RX_RAX = 0 ..
 * RX_R15 = 15, and XMM0 .. XMM15 likewise 0 .. 15 (which kind a number
 * names is the instruction's business).  An operand (rx_rm) is a register,
 * a memory reference base + index * 2^scale + disp, or a RIP-relative
 * reference to an absolute address.
 */
#ifndef RX_JIT_X86_ASM_H
#define RX_JIT_X86_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
	RX_RAX, RX_RCX, RX_RDX, RX_RBX, RX_RSP, RX_RBP, RX_RSI, RX_RDI,
	RX_R8, RX_R9, RX_R10, RX_R11, RX_R12, RX_R13, RX_R14, RX_R15
};

typedef struct {
	uint8_t *buf;
	size_t pos, cap;
	int overflow;
} rx_asm;

/* An operand: kind 0 a register (reg), 1 memory, 2 RIP-relative (addr). */
typedef struct {
	int kind;
	int reg;		/* kind 0 */
	int base, index;	/* kind 1; index < 0: none */
	int scale;		/* kind 1: log2 of the index's factor */
	int32_t disp;		/* kind 1 */
	const void *addr;	/* kind 2 */
} rx_rm;

static inline rx_rm rx_reg(int r)
{
	rx_rm o = { 0, r, 0, -1, 0, 0, NULL };

	return o;
}

static inline rx_rm rx_mem(int base, int32_t disp)
{
	rx_rm o = { 1, 0, base, -1, 0, disp, NULL };

	return o;
}

static inline rx_rm rx_mem_idx(int base, int index, int scale, int32_t disp)
{
	rx_rm o = { 1, 0, base, index, scale, disp, NULL };

	return o;
}

static inline rx_rm rx_rip(const void *addr)
{
	rx_rm o = { 2, 0, 0, -1, 0, 0, addr };

	return o;
}

static inline void rx_asm_init(rx_asm *a, uint8_t *buf, size_t cap)
{
	a->buf = buf;
	a->pos = 0;
	a->cap = cap;
	a->overflow = 0;
}

/* The address the next byte goes to. */
static inline uint8_t *rx_asm_here(const rx_asm *a)
{
	return a->buf + a->pos;
}

static inline void rx_b(rx_asm *a, unsigned byte)
{
	if (a->pos < a->cap)
		a->buf[a->pos] = (uint8_t)byte;
	else
		a->overflow = 1;
	a->pos++;
}

static inline void rx_b32(rx_asm *a, uint32_t x)
{
	uint8_t b[4];

	b[0] = (uint8_t)x;
	b[1] = (uint8_t)(x >> 8);
	b[2] = (uint8_t)(x >> 16);
	b[3] = (uint8_t)(x >> 24);
	if (a->pos + 4 <= a->cap)
		memcpy(a->buf + a->pos, b, 4);
	else
		a->overflow = 1;
	a->pos += 4;
}

static inline void rx_b64(rx_asm *a, uint64_t x)
{
	rx_b32(a, (uint32_t)x);
	rx_b32(a, (uint32_t)(x >> 32));
}

static inline int rx_fits_i8(int64_t x)
{
	return x >= -128 && x <= 127;
}

static inline int rx_fits_i32(int64_t x)
{
	return x >= INT32_MIN && x <= INT32_MAX;
}

/*
 * An instruction is put together in a small local buffer and copied out
 * in one piece: byte-by-byte stores through the cursor would make the
 * compiler reload the cursor after every byte (a byte store may alias
 * it), and compiling is a few percent of a hash.
 */
typedef struct {
	uint8_t b[24];
	int n;
} rx_ins;

static inline void rx_ins_flush(rx_asm *a, const rx_ins *in)
{
	if (a->pos + sizeof(in->b) <= a->cap)
		memcpy(a->buf + a->pos, in->b, sizeof(in->b));
	else
		a->overflow = 1;
	a->pos += (size_t)in->n;
}

/*
 * The ModRM byte and what follows it (SIB, displacement) for register or
 * digit `reg` and operand rm.  imm_bytes: how many immediate bytes the
 * instruction has after this, which a RIP-relative displacement counts
 * from.
 */
static inline void rx_modrm(rx_asm *a, rx_ins *in, int reg, rx_rm rm,
    int imm_bytes)
{
	int r = reg & 7, mod, base, need_sib;

	if (rm.kind == 0) {
		in->b[in->n++] = (uint8_t)(0xc0 | (r << 3) | (rm.reg & 7));
		return;
	}
	if (rm.kind == 2) {
		int64_t disp;
		int32_t d32;

		in->b[in->n++] = (uint8_t)((r << 3) | 5);
		disp = (const uint8_t *)rm.addr -
		    (a->buf + a->pos + in->n + 4 + imm_bytes);
		if (!rx_fits_i32(disp))
			a->overflow = 1;	/* out of reach: give up */
		d32 = (int32_t)disp;
		memcpy(in->b + in->n, &d32, 4);
		in->n += 4;
		return;
	}
	base = rm.base & 7;
	need_sib = rm.index >= 0 || base == 4;
	if (rm.disp == 0 && base != 5)
		mod = 0;
	else if (rx_fits_i8(rm.disp))
		mod = 1;
	else
		mod = 2;
	in->b[in->n++] = (uint8_t)((mod << 6) | (r << 3) |
	    (need_sib ? 4 : base));
	if (need_sib)
		in->b[in->n++] = (uint8_t)((rm.scale << 6) |
		    ((rm.index >= 0 ? rm.index & 7 : 4) << 3) | base);
	if (mod == 1) {
		in->b[in->n++] = (uint8_t)(int8_t)rm.disp;
	} else if (mod == 2) {
		memcpy(in->b + in->n, &rm.disp, 4);
		in->n += 4;
	}
}

/* A REX prefix if any of its bits is needed (or `force`). */
static inline void rx_rex(rx_ins *in, int w, int reg, rx_rm rm, int force)
{
	int rex = 0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0);

	if (rm.kind == 0)
		rex |= (rm.reg & 8) ? 1 : 0;
	else if (rm.kind == 1)
		rex |= ((rm.base & 8) ? 1 : 0) |
		    ((rm.index >= 0 && (rm.index & 8)) ? 2 : 0);
	if (rex != 0x40 || force)
		in->b[in->n++] = (uint8_t)rex;
}

/*
 * A legacy-encoded instruction: [pfx] [REX] opcode (nop bytes of op,
 * most significant first) ModRM..., with REX.W if w.  pfx is 0 or a
 * mandatory prefix (0x66, 0xF2, 0xF3).  imm_bytes as for rx_modrm; the
 * caller writes the immediate.
 */
static inline void rx_op(rx_asm *a, unsigned pfx, int w, uint32_t op,
    int nop, int reg, rx_rm rm, int imm_bytes)
{
	rx_ins in;
	int i;

	in.n = 0;
	if (pfx)
		in.b[in.n++] = (uint8_t)pfx;
	rx_rex(&in, w, reg, rm, 0);
	for (i = nop - 1; i >= 0; i--)
		in.b[in.n++] = (uint8_t)(op >> (8 * i));
	rx_modrm(a, &in, reg, rm, imm_bytes);
	rx_ins_flush(a, &in);
}

/*
 * A VEX-encoded instruction with the three-byte prefix: map 1 (0F), 2
 * (0F38) or 3 (0F3A); pp 0 none, 1 66, 2 F3, 3 F2; vvvv the extra source
 * register; l the vector length bit.
 */
static inline void rx_vex(rx_asm *a, int map, int pp, int w, int l, int vvvv,
    unsigned op, int reg, rx_rm rm, int imm_bytes)
{
	int rbit = !(reg & 8), xbit = 1, bbit = 1;
	rx_ins in;

	if (rm.kind == 0) {
		bbit = !(rm.reg & 8);
	} else if (rm.kind == 1) {
		bbit = !(rm.base & 8);
		xbit = !(rm.index >= 0 && (rm.index & 8));
	}
	in.n = 4;
	in.b[0] = 0xc4;
	in.b[1] = (uint8_t)((rbit << 7) | (xbit << 6) | (bbit << 5) | map);
	in.b[2] = (uint8_t)(((w ? 1 : 0) << 7) | ((~vvvv & 15) << 3) |
	    ((l ? 1 : 0) << 2) | pp);
	in.b[3] = (uint8_t)op;
	rx_modrm(a, &in, reg, rm, imm_bytes);
	rx_ins_flush(a, &in);
}

/* ---- the instructions the compilers use ---- */

/* Two-operand ALU forms, 64-bit: dst OP= rm (opcode of the r, r/m form). */
#define RX_ADD 0x03
#define RX_SUB 0x2b
#define RX_XOR 0x33
#define RX_AND 0x23
#define RX_MOV 0x8b
#define RX_CMP 0x3b

static inline void rx_alu(rx_asm *a, unsigned opc, int dst, rx_rm rm)
{
	rx_op(a, 0, 1, opc, 1, dst, rm, 0);
}

/* 32-bit form (upper half of dst cleared, for mov and xor). */
static inline void rx_alu32(rx_asm *a, unsigned opc, int dst, rx_rm rm)
{
	rx_op(a, 0, 0, opc, 1, dst, rm, 0);
}

/* mov [mem], src (64-bit) */
static inline void rx_store(rx_asm *a, rx_rm mem, int src)
{
	rx_op(a, 0, 1, 0x89, 1, src, mem, 0);
}

/* mov dword [mem], src */
static inline void rx_store32(rx_asm *a, rx_rm mem, int src)
{
	rx_op(a, 0, 0, 0x89, 1, src, mem, 0);
}

/* Group-1 ALU with an immediate: digit 0 add, 4 and, 5 sub, 6 xor, 7 cmp. */
static inline void rx_alu_imm(rx_asm *a, int w, int digit, rx_rm rm,
    int32_t imm)
{
	if (rx_fits_i8(imm)) {
		rx_op(a, 0, w, 0x83, 1, digit, rm, 1);
		rx_b(a, (uint8_t)(int8_t)imm);
	} else {
		rx_op(a, 0, w, 0x81, 1, digit, rm, 4);
		rx_b32(a, (uint32_t)imm);
	}
}

/* lea dst, [mem]; w 0 gives the 32-bit result, zero-extended. */
static inline void rx_lea(rx_asm *a, int w, int dst, rx_rm mem)
{
	rx_op(a, 0, w, 0x8d, 1, dst, mem, 0);
}

/* imul dst, rm */
static inline void rx_imul(rx_asm *a, int dst, rx_rm rm)
{
	rx_op(a, 0, 1, 0x0faf, 2, dst, rm, 0);
}

/* imul dst, rm, imm32 */
static inline void rx_imul_imm(rx_asm *a, int dst, rx_rm rm, int32_t imm)
{
	if (rx_fits_i8(imm)) {
		rx_op(a, 0, 1, 0x6b, 1, dst, rm, 1);
		rx_b(a, (uint8_t)(int8_t)imm);
	} else {
		rx_op(a, 0, 1, 0x69, 1, dst, rm, 4);
		rx_b32(a, (uint32_t)imm);
	}
}

/* Group 3 on rm (64-bit): digit 3 neg, 4 mul, 5 imul (rdx:rax). */
static inline void rx_grp3(rx_asm *a, int digit, rx_rm rm)
{
	rx_op(a, 0, 1, 0xf7, 1, digit, rm, 0);
}

/* test rm, imm32 (64-bit, the immediate sign-extended) */
static inline void rx_test_imm(rx_asm *a, int w, rx_rm rm, int32_t imm)
{
	rx_op(a, 0, w, 0xf7, 1, 0, rm, 4);
	rx_b32(a, (uint32_t)imm);
}

/* Rotations and shifts (group 2): 0 rol, 1 ror, 4 shl, 5 shr. */
static inline void rx_shift_imm(rx_asm *a, int w, int digit, int reg,
    unsigned count)
{
	if (count == 1) {
		rx_op(a, 0, w, 0xd1, 1, digit, rx_reg(reg), 0);
	} else {
		rx_op(a, 0, w, 0xc1, 1, digit, rx_reg(reg), 1);
		rx_b(a, count);
	}
}

static inline void rx_shift_cl(rx_asm *a, int digit, int reg)
{
	rx_op(a, 0, 1, 0xd3, 1, digit, rx_reg(reg), 0);
}

/* xchg a, b (64-bit) */
static inline void rx_xchg(rx_asm *a, int r1, int r2)
{
	rx_op(a, 0, 1, 0x87, 1, r1, rx_reg(r2), 0);
}

/* mov reg, imm64 (the short forms when the value allows) */
static inline void rx_mov_imm(rx_asm *a, int reg, uint64_t imm)
{
	if (imm <= 0xffffffffu) {
		if (reg & 8)
			rx_b(a, 0x41);
		rx_b(a, 0xb8 + (reg & 7));
		rx_b32(a, (uint32_t)imm);
	} else if (rx_fits_i32((int64_t)imm)) {
		rx_op(a, 0, 1, 0xc7, 1, 0, rx_reg(reg), 4);
		rx_b32(a, (uint32_t)imm);
	} else {
		rx_b(a, 0x48 | ((reg & 8) ? 1 : 0));
		rx_b(a, 0xb8 + (reg & 7));
		rx_b64(a, imm);
	}
}

/* mulx hi, lo, rm (BMI2): rdx * rm; hi and lo may not be the same. */
static inline void rx_mulx(rx_asm *a, int hi, int lo, rx_rm rm)
{
	rx_vex(a, 2, 3, 1, 0, lo, 0xf6, hi, rm, 0);
}

/* prefetch: hint 0 nta, 1 t0, 2 t1, 3 t2; prefetchw is 0F 0D /1 */
static inline void rx_prefetch(rx_asm *a, int hint, rx_rm mem)
{
	rx_op(a, 0, 0, 0x0f18, 2, hint, mem, 0);
}

/* SSE2 packed-double and friends: op xmm, rm (xmm or m128). */
#define RX_ADDPD 0x660f58
#define RX_SUBPD 0x660f5c
#define RX_MULPD 0x660f59
#define RX_DIVPD 0x660f5e
#define RX_SQRTPD 0x660f51
#define RX_XORPD 0x660f57
#define RX_ANDPS 0x000f54
#define RX_ORPS 0x000f56
#define RX_XORPS 0x000f57
#define RX_CVTDQ2PD 0xf30fe6	/* xmm, xmm/m64 */
#define RX_MOVUPD_LOAD 0x660f10
#define RX_MOVUPD_STORE 0x660f11	/* m128, xmm */
#define RX_MOVAPD_LOAD 0x660f28
#define RX_MOVAPD_STORE 0x660f29
#define RX_AESENC 0x660f38dc
#define RX_AESDEC 0x660f38de

static inline void rx_sse(rx_asm *a, uint32_t code, int xmm, rx_rm rm)
{
	unsigned pfx = code >> 16 & 0xff;

	if (code > 0xffffff) {		/* four bytes: 66 0F 38 xx */
		rx_op(a, code >> 24, 0, code & 0xffffff, 3, xmm, rm, 0);
		return;
	}
	rx_op(a, pfx, 0, code & 0xffff, 2, xmm, rm, 0);
}

/* shufpd xmm, xmm, imm8 */
static inline void rx_shufpd(rx_asm *a, int dst, int src, unsigned imm)
{
	rx_op(a, 0x66, 0, 0x0fc6, 2, dst, rx_reg(src), 1);
	rx_b(a, imm);
}

/* ldmxcsr / stmxcsr [mem] */
static inline void rx_ldmxcsr(rx_asm *a, rx_rm mem)
{
	rx_op(a, 0, 0, 0x0fae, 2, 2, mem, 0);
}

static inline void rx_stmxcsr(rx_asm *a, rx_rm mem)
{
	rx_op(a, 0, 0, 0x0fae, 2, 3, mem, 0);
}

static inline void rx_push(rx_asm *a, int reg)
{
	if (reg & 8)
		rx_b(a, 0x41);
	rx_b(a, 0x50 + (reg & 7));
}

static inline void rx_pop(rx_asm *a, int reg)
{
	if (reg & 8)
		rx_b(a, 0x41);
	rx_b(a, 0x58 + (reg & 7));
}

static inline void rx_ret(rx_asm *a)
{
	rx_b(a, 0xc3);
}

/*
 * vzeroupper: code that has dirtied the upper halves of the vector
 * registers runs it before returning to compiled C, whose legacy-SSE
 * instructions would otherwise pay for the merge on some cores.
 */
static inline void rx_vzeroupper(rx_asm *a)
{
	rx_b(a, 0xc5);
	rx_b(a, 0xf8);
	rx_b(a, 0x77);
}

/* call reg */
static inline void rx_call_reg(rx_asm *a, int reg)
{
	rx_op(a, 0, 0, 0xff, 1, 2, rx_reg(reg), 0);
}

/* jmp reg */
static inline void rx_jmp_reg(rx_asm *a, int reg)
{
	rx_op(a, 0, 0, 0xff, 1, 4, rx_reg(reg), 0);
}

/* kmovw k, r32 (AVX-512: an opmask register from a 32-bit register) */
static inline void rx_kmovw_k_r32(rx_asm *a, int k, int reg)
{
	rx_b(a, 0xc5);
	rx_b(a, 0xf8);
	rx_b(a, 0x92);
	rx_b(a, (uint8_t)(0xc0 | (k & 7) << 3 | (reg & 7)));
}

/* lea reg, [rip]: the address of the next instruction */
static inline void rx_lea_next(rx_asm *a, int reg)
{
	rx_op(a, 0, 1, 0x8d, 1, reg, rx_rip(rx_asm_here(a) + 7), 0);
}

/*
 * ---- templates: the program compiler's fast path ----
 *
 * The byte writers below put one instruction at p and return the address
 * after it, with no operand structure and no overflow check: the caller
 * has checked for room once.  Compiling a program's operations runs eight
 * times a hash, and going through rx_op for each was most of the compile
 * time.  Registers are hardware numbers as above; "r" operands are
 * 64-bit general registers (REX.W), "x" operands XMM registers.
 */
typedef uint8_t *rx_bp;

static inline rx_bp rx_t_put32(rx_bp p, uint32_t x)
{
	memcpy(p, &x, 4);
	return p + 4;
}

/* REX.W with R from reg and B from rm (reg and rm 0 .. 15) */
static inline uint8_t rx_t_rexw(int reg, int rm)
{
	return (uint8_t)(0x48 | (reg & 8) >> 1 | (rm & 8) >> 3);
}

/* A ModRM byte for two registers (mod 3). */
static inline uint8_t rx_t_modrm_rr(int reg, int rm)
{
	return (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7));
}

/* op d, s: the 64-bit r, r/m form of one-byte opcode opc */
static inline rx_bp rx_t_rr(rx_bp p, unsigned opc, int d, int s)
{
	p[0] = rx_t_rexw(d, s);
	p[1] = (uint8_t)opc;
	p[2] = rx_t_modrm_rr(d, s);
	return p + 3;
}

/* mov d32, s32 (the upper half of d cleared) */
static inline rx_bp rx_t_mov32_rr(rx_bp p, int d, int s)
{
	if ((d | s) & 8)
		*p++ = (uint8_t)(0x40 | (d & 8) >> 1 | (s & 8) >> 3);
	p[0] = 0x8b;
	p[1] = rx_t_modrm_rr(d, s);
	return p + 2;
}

/* REX.W [0F] opc for an r, r/m form whose ModRM the caller writes */
static inline rx_bp rx_t_rexw_op(rx_bp p, int reg, int rm, unsigned opc,
    int two_byte)
{
	*p++ = rx_t_rexw(reg, rm);
	if (two_byte)
		*p++ = 0x0f;
	*p++ = (uint8_t)opc;
	return p;
}

/* ModRM (+ SIB) + disp8/disp32 for [base + disp], field reg */
static inline rx_bp rx_t_disp(rx_bp p, int reg, int base, int32_t disp)
{
	int mod8 = rx_fits_i8(disp);

	*p++ = (uint8_t)((mod8 ? 0x40 : 0x80) | (reg & 7) << 3 | (base & 7));
	if ((base & 7) == 4)
		*p++ = 0x24;
	if (mod8) {
		*p++ = (uint8_t)(int8_t)disp;
		return p;
	}
	return rx_t_put32(p, (uint32_t)disp);
}

/* lea d, [d + s * 2^shift + k] (no displacement byte when k is 0) */
static inline rx_bp rx_t_lea_add(rx_bp p, int d, int s, unsigned shift,
    int32_t k)
{
	int mod = k == 0 && (d & 7) != 5 ? 0 : rx_fits_i8(k) ? 1 : 2;

	p[0] = (uint8_t)(0x48 | (d & 8) >> 1 | (s & 8) >> 2 | (d & 8) >> 3);
	p[1] = 0x8d;
	p[2] = (uint8_t)(mod << 6 | (d & 7) << 3 | 4);
	p[3] = (uint8_t)(shift << 6 | (s & 7) << 3 | (d & 7));
	p += 4;
	if (mod == 1)
		*p++ = (uint8_t)(int8_t)k;
	else if (mod == 2)
		p = rx_t_put32(p, (uint32_t)k);
	return p;
}

/* Group 1 with an immediate on d (0 add, 4 and, 6 xor...), short if fits */
static inline rx_bp rx_t_alu_ri(rx_bp p, int digit, int d, int32_t imm)
{
	*p++ = rx_t_rexw(0, d);
	if (rx_fits_i8(imm)) {
		*p++ = 0x83;
		*p++ = rx_t_modrm_rr(digit, d);
		*p++ = (uint8_t)(int8_t)imm;
		return p;
	}
	*p++ = 0x81;
	*p++ = rx_t_modrm_rr(digit, d);
	return rx_t_put32(p, (uint32_t)imm);
}

/* imul d, s */
static inline rx_bp rx_t_imul_rr(rx_bp p, int d, int s)
{
	p = rx_t_rexw_op(p, d, s, 0xaf, 1);
	*p++ = rx_t_modrm_rr(d, s);
	return p;
}

/* imul d, s, imm32 */
static inline rx_bp rx_t_imul_rri(rx_bp p, int d, int s, int32_t imm)
{
	p = rx_t_rexw_op(p, d, s, 0x69, 0);
	*p++ = rx_t_modrm_rr(d, s);
	return rx_t_put32(p, (uint32_t)imm);
}

/* mov r, imm64 (always the ten-byte form) */
static inline rx_bp rx_t_mov_imm64(rx_bp p, int r, uint64_t imm)
{
	p[0] = rx_t_rexw(0, r);
	p[1] = (uint8_t)(0xb8 | (r & 7));
	memcpy(p + 2, &imm, 8);
	return p + 10;
}

/* Group 3 on register r: 3 neg, 4 mul, 5 imul (rdx:rax = rax * r) */
static inline rx_bp rx_t_grp3_r(rx_bp p, int digit, int r)
{
	p[0] = rx_t_rexw(0, r);
	p[1] = 0xf7;
	p[2] = rx_t_modrm_rr(digit, r);
	return p + 3;
}

/* Rotations (group 2) of r: digit 0 rol, 1 ror; by cl, or by n */
static inline rx_bp rx_t_rot_cl(rx_bp p, int digit, int r)
{
	p[0] = rx_t_rexw(0, r);
	p[1] = 0xd3;
	p[2] = rx_t_modrm_rr(digit, r);
	return p + 3;
}

static inline rx_bp rx_t_rot_imm(rx_bp p, int digit, int r, unsigned n)
{
	p[0] = rx_t_rexw(0, r);
	p[1] = 0xc1;
	p[2] = rx_t_modrm_rr(digit, r);
	p[3] = (uint8_t)n;
	return p + 4;
}

/*
 * mulx hi, rax, src (BMI2, rdx * src) up to the ModRM byte, which the
 * caller writes: hi is r8 .. r15; src a register r8 .. r15 (mem 0) or
 * memory with base and index below r8 (mem 1).
 */
static inline rx_bp rx_t_mulx_rax(rx_bp p, int mem)
{
	p[0] = 0xc4;
	p[1] = mem ? 0x62 : 0x42;	/* R set; B set for a register */
	p[2] = 0xfb;			/* W1, vvvv = rax, F2 */
	p[3] = 0xf6;
	return p + 4;
}

/* An SSE op x d, x s: [pfx] [REX] 0F opc ModRM */
static inline rx_bp rx_t_sse(rx_bp p, unsigned pfx, unsigned opc, int d,
    int s)
{
	if (pfx)
		*p++ = (uint8_t)pfx;
	if ((d | s) & 8)
		*p++ = (uint8_t)(0x40 | (d & 8) >> 1 | (s & 8) >> 3);
	p[0] = 0x0f;
	p[1] = (uint8_t)opc;
	p[2] = rx_t_modrm_rr(d, s);
	return p + 3;
}

/* The same up to the ModRM byte, for a memory source the caller writes */
static inline rx_bp rx_t_sse_m(rx_bp p, unsigned pfx, unsigned opc, int d)
{
	if (pfx)
		*p++ = (uint8_t)pfx;
	if (d & 8)
		*p++ = 0x44;
	p[0] = 0x0f;
	p[1] = (uint8_t)opc;
	return p + 2;
}

/*
 * EVEX.512.66.0F.W1 opc d{k1}{z}, v, s with embedded rounding (b set, L'L
 * the rounding control: round to nearest here; the byte holding it is
 * p + 3, which the caller may change).  v = 0 where the operation has one
 * source.
 */
static inline rx_bp rx_t_evex_er(rx_bp p, unsigned opc, int d, int v, int s)
{
	p[0] = 0x62;
	p[1] = (uint8_t)((~d & 8) << 4 | 0x40 | (~s & 8) << 2 | 0x10 | 0x01);
	p[2] = (uint8_t)(0x80 | (~v & 15) << 3 | 0x04 | 0x01);
	p[3] = 0x80 | 0x10 | 0x08 | 0x01;
	p[4] = (uint8_t)opc;
	p[5] = rx_t_modrm_rr(d, s);
	return p + 6;
}

/*
 * A conditional jump (cc: 4 z, 5 nz, 2 b, 3 ae...) or, with cc < 0, a
 * jmp, to an address already emitted (backward) or at least known.
 */
static inline void rx_jump(rx_asm *a, int cc, const uint8_t *target)
{
	int64_t d = target - (rx_asm_here(a) + 2);

	if (rx_fits_i8(d)) {
		rx_b(a, cc < 0 ? 0xeb : 0x70 + cc);
		rx_b(a, (uint8_t)(int8_t)d);
		return;
	}
	if (cc < 0) {
		d = target - (rx_asm_here(a) + 5);
		rx_b(a, 0xe9);
	} else {
		d = target - (rx_asm_here(a) + 6);
		rx_b(a, 0x0f);
		rx_b(a, 0x80 + cc);
	}
	rx_b32(a, (uint32_t)(int32_t)d);
}

/*
 * A forward conditional jump with an 8-bit displacement, patched by
 * rx_patch8 once the target is emitted; returns the displacement's
 * position.
 */
static inline size_t rx_jump8_fwd(rx_asm *a, int cc)
{
	rx_b(a, cc < 0 ? 0xeb : 0x70 + cc);
	rx_b(a, 0);
	return a->pos - 1;
}

static inline void rx_patch8(rx_asm *a, size_t at)
{
	int64_t d = (int64_t)a->pos - (int64_t)(at + 1);

	if (!rx_fits_i8(d) || at >= a->cap)
		a->overflow = 1;
	else
		a->buf[at] = (uint8_t)(int8_t)d;
}

/* NOPs up to the next multiple of align (a power of 2, at most 64). */
static inline void rx_align(rx_asm *a, unsigned align)
{
	static const uint8_t nops[9][9] = {
		{ 0 }, { 0x90 }, { 0x66, 0x90 }, { 0x0f, 0x1f, 0x00 },
		{ 0x0f, 0x1f, 0x40, 0x00 }, { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 }
	};

	while ((uintptr_t)rx_asm_here(a) & (align - 1)) {
		unsigned n = align - ((uintptr_t)rx_asm_here(a) & (align - 1)), i;

		if (n > 8)
			n = 8;
		for (i = 0; i < n; i++)
			rx_b(a, nops[n][i]);
	}
}

#endif /* !RX_JIT_X86_ASM_H */
