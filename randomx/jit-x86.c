/*
 * jit-x86.c: RandomX programs compiled to x86-64 (see jit.h).
 *
 * The program is decoded by program-decode.h's step, as for the
 * interpreter (the same operations, no-ops left out, CBRANCH targets in
 * the decoded numbering), one instruction word at a time, and each
 * operation becomes one to six x86 instructions inside the program loop
 * of chapter 4.6.2, which is compiled around it.  Registers
 * live in machine registers throughout:
 *
 *	r8 .. r15	r0 .. r7
 *	xmm0 .. xmm3	f0 .. f3	xmm4 .. xmm7	e0 .. e3
 *	xmm8 .. xmm11	a0 .. a3	xmm12		scratch
 *	xmm13		group E AND mask (the low 56 bits of each half)
 *	xmm14		group E OR mask (the program's, 4.5.6)
 *	xmm15		FSCAL_R's XOR mask
 *	rsi		scratchpad	rdi	dataset + datasetOffset
 *	rbp		the memory registers: v1 ma:mx (mx in the low half),
 *			v2 mx:ma (ma in the low half), so that the one the
 *			iteration XORs is always the low half
 *	rbx		iterations left	rax, rcx, rdx	scratch
 *
 * The rounding mode is MXCSR's RC field, which has fprc's encoding; the
 * caller's MXCSR is saved and restored.  Group E conversion and FP
 * arithmetic are SSE2's, IEEE-754 double, as the interpreter's C.  Where
 * rx_jit_rounding_copies() says so (v1 on AMD's AVX-512 cores), the mode
 * is instead the copy of the program that runs (emit_copies), and the
 * rounding FP operations are AVX-512's with the mode in the instruction.
 *
 * Differences from a line-by-line translation, for speed:
 * - IMULH uses BMI2's MULX where the CPU has it; 64-bit multipliers
 *   (IMUL_RCP) are immediates of a mov into rax; 64-bit addends (IADD_C)
 *   are loaded from a constant pool in front of the code.
 * - Light mode: the item numbers of the next iteration (v1) or two (v2)
 *   are known before they are needed, so items are computed two or three
 *   at a time (rx_ss_jit_items), which overlaps their cache misses.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit.h"

#if RX_HAVE_JIT

#include <fenv.h>

#include "randomx/jit-x86-asm.h"
#include "randomx/program-decode.h"

/*
 * Code memory: the constant pool, then the code, on its own page.  The
 * code has room for a head and four copies of a v1 loop COPY_STRIDE apart
 * from a COPY_ALIGN boundary (see emit_copies).
 */
#define POOL_BYTES 4096
#define CODE_BYTES 69632
#define JIT_BYTES (POOL_BYTES + CODE_BYTES)
#define COPY_STRIDE 8192u	/* = 1 << 13: the copy of mode m at m << 13 */
#define COPY_ALIGN (4 * COPY_STRIDE)
#define COPY_MODE_BITS 0x6000u	/* bits 13-14: MXCSR's RC, and the copy */

#define VREG(i) (RX_R8 + (i))	/* integer register ri */
#define XA(i) (8 + (i))		/* ai */
#define XTMP 12
#define XEAND 13
#define XEOR 14
#define XSCALE 15

#define MXCSR_DEFAULT 0x1f80u	/* all exceptions masked, round to nearest */

/* Most light items computed at once: two in v1, three in v2. */
#define LIGHT_GROUP 3

/*
 * What the compiled loop reads and writes.  The offsets are used by the
 * generated code (offsetof); a, the masks and the results are 16-byte
 * aligned for movapd.
 */
typedef struct rx_jit_ctx {
	uint64_t r[8];
	uint64_t f[8];
	uint64_t e[8];
	uint64_t a[8];
	uint64_t e_and[2], e_or[2], scale[2];
	uint8_t *scratchpad;
	const uint8_t *memory;		/* full mode: dataset + offset */
	uint64_t mem;			/* rbp at the start */
	uint32_t sp0, sp1;		/* first iteration's addresses */
	uint32_t iterations;
	uint32_t mxcsr;			/* in, and out at the end */
	/* light mode */
	const rx_ss_jit *ss;
	const rx_cache_state *cache;
	void (*item_trace)(void *ctx, uint64_t item_number);
	void *item_trace_ctx;
	uint64_t dataset_offset;
	uint32_t done, pending, next;
	int v2;
	uint64_t numbers[LIGHT_GROUP];
	uint8_t items[LIGHT_GROUP][64] __attribute__((aligned(64)));
} rx_jit_ctx;

typedef void (*program_fn)(rx_jit_ctx *ctx);

struct rx_jit_vm {
	rx_jit_ctx ctx __attribute__((aligned(64)));
	rx_exec_mem mem;
	program_fn fn;
	size_t head_len, top;	/* the head, the same for every program */
	int head_copies;	/* which head: emit_copies' or the plain one */
	uint32_t pos[RX_PROGRAM_MAX_SIZE + 1];	/* each operation's code */
};

/* ---- the stack frame of the compiled function ---- */

#define SAVED_REGS 6
static const int callee_saved[SAVED_REGS] = {
	RX_RBX, RX_RBP, RX_R12, RX_R13, RX_R14, RX_R15
};
#define F_CTX 0
#define F_SP0 8		/* scratchpad + spAddr0: where F is stored */
#define F_SP1 16	/* scratchpad + spAddr1: where R is stored */
#define F_MXCSR 24	/* CFROUND's new MXCSR */
#define F_CALLER_MXCSR 28
#define F_XMM 32	/* 16 x 16 bytes around calls to C */
#define F_GPR (F_XMM + 256)	/* r8 .. r11, rsi, rdi */
#define F_ENTRY (F_GPR + 48)	/* emit_copies: the copy to start in */
#define FRAME (F_GPR + 48 + 8)	/* + 8: 16-byte aligned after 6 pushes */

_Static_assert(FRAME % 16 == 8, "the frame keeps calls 16-byte aligned");

/* ---- compiling one program ---- */

typedef struct {
	rx_asm a;
	size_t *head_len, *top;	/* the VM's: emitted once */
	int *head_copies;
	uint64_t *pool;		/* POOL_BYTES / 8 constants */
	unsigned npool;
	uint32_t *pos;
	int bmi2, v2, full, hard_aes;
	/* emit_copies: AVX-512 rounding, and where each operation's mode is */
	int copies;
	size_t copy_base;
	unsigned nrc;
	uint16_t rc_at[RX_PROGRAM_MAX_SIZE];
	void (*mix_fe)(uint64_t f[8], const uint64_t e[8]);
} compiler;

/* A 64-bit constant in the pool, as a RIP-relative operand. */
static rx_rm pool_const(compiler *c, uint64_t k)
{
	unsigned i;

	for (i = 0; i < c->npool; i++)
		if (c->pool[i] == k)
			return rx_rip(&c->pool[i]);
	if (c->npool == POOL_BYTES / 8) {
		c->a.overflow = 1;
		return rx_rip(&c->pool[0]);
	}
	c->pool[c->npool] = k;
	return rx_rip(&c->pool[c->npool++]);
}

/* dst += k (a 64-bit constant) */
static void emit_add_const(compiler *c, int dst, uint64_t k)
{
	if (rx_fits_i32((int64_t)k)) {
		rx_alu_imm(&c->a, 1, 0, rx_reg(dst), (int32_t)k);
	} else if (rx_fits_i32(-(int64_t)k)) {
		rx_alu_imm(&c->a, 1, 5, rx_reg(dst), (int32_t)-(int64_t)k);
	} else if (c->copies) {
		/* the pool is RIP-relative, and the copies move */
		rx_mov_imm(&c->a, RX_RAX, k);
		rx_alu(&c->a, RX_ADD, dst, rx_reg(RX_RAX));
	} else {
		rx_alu(&c->a, RX_ADD, dst, pool_const(c, k));
	}
}

/*
 * CFROUND: the new mode into MXCSR or, with emit_copies, a jump to the
 * same place in the new mode's copy: this address with bits 13-14 (the
 * copy's number) replaced by the mode.
 */
static void emit_cfround(compiler *c, const rx_insn *in)
{
	static const uint8_t to_copy[] = {
		0x48, 0x8d, 0x0d, 12, 0, 0, 0,	/* lea rcx, [rip + 12] */
		0x48, 0x81, 0xe1, 0xff, 0x9f, 0xff, 0xff, /* and rcx, ~0x6000 */
		0x48, 0x09, 0xc1,		/* or rcx, rax */
		0xff, 0xe1			/* jmp rcx */
	};
	rx_asm *a = &c->a;
	unsigned rot = (13 - (unsigned)in->imm) & 63;
	size_t skip = 0;

	/* rotl by 13 - imm: bits 0-1 of the rotated value land in RC */
	rx_alu(a, RX_MOV, RX_RAX, rx_reg(VREG(in->src)));
	if (rot)
		rx_shift_imm(a, 1, 0, RX_RAX, rot);
	if (c->v2) {
		/* v2 takes the new mode only if bits 2-5 are zero */
		rx_test_imm(a, 0, rx_reg(RX_RAX), 0x3c << 13);
		skip = rx_jump8_fwd(a, 5);
	}
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), COPY_MODE_BITS);
	if (c->copies) {
		memcpy(a->buf + a->pos, to_copy, sizeof(to_copy));
		a->pos += sizeof(to_copy);
	} else {
		rx_alu_imm(a, 0, 1, rx_reg(RX_RAX), MXCSR_DEFAULT);
		rx_store32(a, rx_mem(RX_RSP, F_MXCSR), RX_RAX);
		rx_ldmxcsr(a, rx_mem(RX_RSP, F_MXCSR));
	}
	if (c->v2)
		rx_patch8(a, skip);
}

/*
 * The operations are written byte by byte from templates rather than
 * through the general encoder: compiling runs eight times a hash, and
 * this is most of it.  Every register here is fixed by the allocation
 * above (r8..r15, xmm0..xmm15, rax/rcx/rdx, rsi), so each template is a
 * few constant bytes with register numbers ORed in.
 */
typedef uint8_t *bp;

static inline bp put32(bp p, uint32_t x)
{
	memcpy(p, &x, 4);
	return p + 4;
}

/* REX.W with R = 1 (reg field r8..r15) and B from rm */
#define REX_WRB(rm) (0x4c | ((rm) >> 3))

/* op d, s with d and s in r8..r15 (the r, r/m form of opcode opc) */
static inline bp t_rr(bp p, unsigned opc, int d, int s)
{
	p[0] = 0x4d;
	p[1] = (uint8_t)opc;
	p[2] = (uint8_t)(0xc0 | (d & 7) << 3 | (s & 7));
	return p + 3;
}

/* ModRM (+ SIB) + disp for [base + disp], base r8..r15, 32-bit or 8-bit */
static inline bp t_disp(bp p, int reg, int base, int32_t disp)
{
	int mod8 = rx_fits_i8(disp);

	*p++ = (uint8_t)((mod8 ? 0x40 : 0x80) | (reg & 7) << 3 | (base & 7));
	if ((base & 7) == 4)
		*p++ = 0x24;
	if (mod8) {
		*p++ = (uint8_t)(int8_t)disp;
		return p;
	}
	return put32(p, (uint32_t)disp);
}

/*
 * The address of a scratchpad operand: tmp (rax or rcx) = (r + imm) &
 * mask; then the ModRM byte for [rsi + tmp] with register field reg.
 * Returns where the ModRM byte goes; *after is set past the SIB.  For the
 * immediate-only form (reg RX_REG_ZERO) it is [rsi + disp32].
 */
static inline bp t_addr(bp p, const rx_insn *in, unsigned areg, int tmp)
{
	if (areg == RX_REG_ZERO)
		return p;
	*p++ = 0x41;		/* lea tmp32, [r + imm] */
	*p++ = 0x8d;
	p = t_disp(p, tmp, VREG(areg), (int32_t)in->imm);
	if (tmp == RX_RAX) {
		*p++ = 0x25;	/* and eax, imm32 */
	} else {
		*p++ = 0x81;	/* and ecx, imm32 */
		*p++ = 0xe1;
	}
	return put32(p, in->mask);
}

/* The ModRM/SIB/disp of [rsi + tmp] (or [rsi + imm & mask]), field reg. */
static inline bp t_mem(bp p, const rx_insn *in, unsigned areg, int tmp,
    int reg)
{
	if (areg == RX_REG_ZERO) {
		*p++ = (uint8_t)(0x86 | (reg & 7) << 3);
		return put32(p, (uint32_t)in->imm & in->mask);
	}
	*p++ = (uint8_t)(0x04 | (reg & 7) << 3);
	*p++ = tmp == RX_RAX ? 0x06 : 0x0e;
	return p;
}

/* op d, [scratchpad operand] (64-bit, opcode bytes op0 [op1]) */
static inline bp t_rm(bp p, const rx_insn *in, unsigned opc, int nopc, int d)
{
	p = t_addr(p, in, in->src, RX_RAX);
	*p++ = 0x4c;		/* REX.W R */
	if (nopc == 2)
		*p++ = 0x0f;
	*p++ = (uint8_t)opc;
	return t_mem(p, in, in->src, RX_RAX, d);
}

/* op d, imm (group 1 digit), the short form when it fits */
static inline bp t_ri(bp p, int digit, int d, int32_t imm)
{
	*p++ = 0x49;
	if (rx_fits_i8(imm)) {
		*p++ = 0x83;
		*p++ = (uint8_t)(0xc0 | digit << 3 | (d & 7));
		*p++ = (uint8_t)(int8_t)imm;
		return p;
	}
	*p++ = 0x81;
	*p++ = (uint8_t)(0xc0 | digit << 3 | (d & 7));
	return put32(p, (uint32_t)imm);
}

/* high half of d * s: s a register (mem 0) or the scratchpad operand */
static inline bp t_mulh(bp p, const compiler *c, const rx_insn *in, int d,
    int s, int mem, int is_signed)
{
	if (mem)
		p = t_addr(p, in, in->src, RX_RCX);
	if (!is_signed && c->bmi2) {
		p[0] = 0x49;	/* mov rdx, d */
		p[1] = 0x8b;
		p[2] = (uint8_t)(0xd0 | (d & 7));
		p[3] = 0xc4;	/* mulx d, rax, s: VEX with R = 1, B = 1 */
		p[4] = mem ? 0x62 : 0x42;	/* or [rsi + rcx]: X, B = 0 */
		p[5] = 0xfb;
		p[6] = 0xf6;
		p += 7;
		if (mem)
			return t_mem(p, in, in->src, RX_RCX, d);
		*p++ = (uint8_t)(0xc0 | (d & 7) << 3 | (s & 7));
		return p;
	}
	p[0] = 0x49;		/* mov rax, d */
	p[1] = 0x8b;
	p[2] = (uint8_t)(0xc0 | (d & 7));
	p += 3;
	if (mem) {
		*p++ = 0x48;	/* mul/imul qword [...] */
		*p++ = 0xf7;
		p = t_mem(p, in, in->src, RX_RCX, is_signed ? 5 : 4);
	} else {
		p[0] = 0x49;	/* mul/imul s */
		p[1] = 0xf7;
		p[2] = (uint8_t)((is_signed ? 0xe8 : 0xe0) | (s & 7));
		p += 3;
	}
	p[0] = 0x4c;		/* mov d, rdx */
	p[1] = 0x8b;
	p[2] = (uint8_t)(0xc2 | (d & 7) << 3);
	return p + 3;
}

/* An SSE op xmm d, xmm s: [pfx] [REX] 0F opc ModRM */
static inline bp t_sse(bp p, unsigned pfx, unsigned opc, int d, int s)
{
	if (pfx)
		*p++ = (uint8_t)pfx;
	if ((d | s) & 8)
		*p++ = (uint8_t)(0x40 | (d & 8) >> 1 | (s & 8) >> 3);
	p[0] = 0x0f;
	p[1] = (uint8_t)opc;
	p[2] = (uint8_t)(0xc0 | (d & 7) << 3 | (s & 7));
	return p + 3;
}

/*
 * emit_copies' rounding operations: d{k1}{z} = v op s on zmm registers,
 * EVEX.512.66.0F.W1 opc with the rounding mode in the instruction (b set,
 * L'L = RC: round to nearest here, set per copy through rc_at).  k1 holds
 * 3, so only the two doubles RandomX has are computed and the upper
 * lanes are zeroed.  v = 0 where the operation has one source.
 */
static inline bp t_evex(compiler *c, bp p, unsigned opc, int d, int v,
    int s)
{
	p[0] = 0x62;
	p[1] = (uint8_t)((~d & 8) << 4 | 0x40 | (~s & 8) << 2 | 0x10 | 0x01);
	p[2] = (uint8_t)(0x80 | (~v & 15) << 3 | 0x04 | 0x01);
	p[3] = 0x80 | 0x10 | 0x08 | 0x01;
	c->rc_at[c->nrc++] = (uint16_t)(p + 3 - (c->a.buf + c->copy_base));
	p[4] = (uint8_t)opc;
	p[5] = (uint8_t)(0xc0 | (d & 7) << 3 | (s & 7));
	return p + 6;
}

/* xmm12 = the scratchpad operand's two int32 as doubles */
static inline bp t_cvt(bp p, const rx_insn *in)
{
	p = t_addr(p, in, in->src, RX_RAX);
	p[0] = 0xf3;
	p[1] = 0x44;
	p[2] = 0x0f;
	p[3] = 0xe6;
	return t_mem(p + 4, in, in->src, RX_RAX, XTMP);
}

/* Room for any one operation's code (the longest, IMULH_M, is 27 bytes). */
#define INSN_ROOM 64

/* Always inlined into emit_program's loop: see there. */
static inline __attribute__((always_inline)) void emit_insn(compiler *c,
    const rx_insn *in)
{
	rx_asm *a = &c->a;
	int d = VREG(in->dst), s = VREG(in->src & 7), x = in->dst;
	bp p, p0;

	if (a->pos + INSN_ROOM > a->cap) {
		a->overflow = 1;
		return;
	}
	if (in->op == RX_OP_CFROUND) {
		emit_cfround(c, in);
		return;
	}
	if (in->op == RX_OP_CBRANCH) {
		a->pos = (size_t)(t_ri(a->buf + a->pos, 0, d,
		    (int32_t)in->imm) - a->buf);
		rx_test_imm(a, 1, rx_reg(d), (int32_t)in->mask);
		rx_jump(a, 4, a->buf + c->pos[in->target]);
		return;
	}
	p = p0 = a->buf + a->pos;
	switch (in->op) {
	case RX_OP_IADD_RS: {
		int32_t k = (int32_t)in->imm;
		int mod = k == 0 && (d & 7) != 5 ? 0 : rx_fits_i8(k) ? 1 : 2;

		p[0] = 0x4f;	/* lea d, [d + s << shift + k] */
		p[1] = 0x8d;
		p[2] = (uint8_t)(mod << 6 | (d & 7) << 3 | 4);
		p[3] = (uint8_t)(in->shift << 6 | (s & 7) << 3 | (d & 7));
		p += 4;
		if (mod == 1)
			*p++ = (uint8_t)(int8_t)k;
		else if (mod == 2)
			p = put32(p, (uint32_t)k);
		break;
	}
	case RX_OP_IADD_M:
		p = t_rm(p, in, 0x03, 1, d);
		break;
	case RX_OP_IADD_C:
		if (rx_fits_i32((int64_t)in->imm)) {
			p = t_ri(p, 0, d, (int32_t)in->imm);
		} else {
			a->pos = (size_t)(p - a->buf);
			emit_add_const(c, d, in->imm);
			return;
		}
		break;
	case RX_OP_ISUB_R:
		p = t_rr(p, 0x2b, d, s);
		break;
	case RX_OP_ISUB_M:
		p = t_rm(p, in, 0x2b, 1, d);
		break;
	case RX_OP_IMUL_R:
		p[0] = 0x4d;
		p[1] = 0x0f;
		p[2] = 0xaf;
		p[3] = (uint8_t)(0xc0 | (d & 7) << 3 | (s & 7));
		p += 4;
		break;
	case RX_OP_IMUL_M:
		p = t_rm(p, in, 0xaf, 2, d);
		break;
	case RX_OP_IMUL_C:
		if (rx_fits_i32((int64_t)in->imm)) {
			p[0] = 0x4d;	/* imul d, d, imm32 */
			p[1] = 0x69;
			p[2] = (uint8_t)(0xc0 | (d & 7) << 3 | (d & 7));
			p = put32(p + 3, (uint32_t)in->imm);
		} else {
			/* mov rax, imm64; imul d, rax (measured faster than
			 * a load from a constant pool) */
			p[0] = 0x48;
			p[1] = 0xb8;
			memcpy(p + 2, &in->imm, 8);
			p[10] = 0x4c;
			p[11] = 0x0f;
			p[12] = 0xaf;
			p[13] = (uint8_t)(0xc0 | (d & 7) << 3);
			p += 14;
		}
		break;
	case RX_OP_IMULH_R:
		p = t_mulh(p, c, in, d, s, 0, 0);
		break;
	case RX_OP_IMULH_M:
		p = t_mulh(p, c, in, d, s, 1, 0);
		break;
	case RX_OP_ISMULH_R:
		p = t_mulh(p, c, in, d, s, 0, 1);
		break;
	case RX_OP_ISMULH_M:
		p = t_mulh(p, c, in, d, s, 1, 1);
		break;
	case RX_OP_INEG_R:
		p[0] = 0x49;
		p[1] = 0xf7;
		p[2] = (uint8_t)(0xd8 | (d & 7));
		p += 3;
		break;
	case RX_OP_IXOR_R:
		p = t_rr(p, 0x33, d, s);
		break;
	case RX_OP_IXOR_M:
		p = t_rm(p, in, 0x33, 1, d);
		break;
	case RX_OP_IXOR_C:
		p = t_ri(p, 6, d, (int32_t)in->imm);
		break;
	case RX_OP_IROR_R:
	case RX_OP_IROL_R:
		p[0] = 0x41;	/* mov ecx, s32 */
		p[1] = 0x8b;
		p[2] = (uint8_t)(0xc8 | (s & 7));
		p[3] = 0x49;	/* ror/rol d, cl */
		p[4] = 0xd3;
		p[5] = (uint8_t)((in->op == RX_OP_IROR_R ? 0xc8 : 0xc0) |
		    (d & 7));
		p += 6;
		break;
	case RX_OP_IROR_C:
		if (in->imm & 63) {
			p[0] = 0x49;
			p[1] = 0xc1;
			p[2] = (uint8_t)(0xc8 | (d & 7));
			p[3] = (uint8_t)(in->imm & 63);
			p += 4;
		}
		break;
	case RX_OP_ISWAP_R:
		p = t_rr(p, 0x87, d, s);
		break;
	case RX_OP_FSWAP_R:
		p = t_sse(p, 0x66, 0xc6, x, x);
		*p++ = 1;
		break;
	case RX_OP_FADD_R:
	case RX_OP_FSUB_R:
	case RX_OP_FMUL_R: {
		unsigned opc = in->op == RX_OP_FADD_R ? 0x58 :
		    in->op == RX_OP_FSUB_R ? 0x5c : 0x59;

		p = c->copies ? t_evex(c, p, opc, x, x, XA(in->src)) :
		    t_sse(p, 0x66, opc, x, XA(in->src));
		break;
	}
	case RX_OP_FADD_M:
	case RX_OP_FSUB_M: {
		unsigned opc = in->op == RX_OP_FADD_M ? 0x58 : 0x5c;

		p = t_cvt(p, in);
		p = c->copies ? t_evex(c, p, opc, x, x, XTMP) :
		    t_sse(p, 0x66, opc, x, XTMP);
		break;
	}
	case RX_OP_FSCAL_R:
		p = t_sse(p, 0, 0x57, x, XSCALE);
		break;
	case RX_OP_FDIV_M:
		p = t_cvt(p, in);
		p = t_sse(p, 0, 0x54, XTMP, XEAND);
		p = t_sse(p, 0, 0x56, XTMP, XEOR);
		p = c->copies ? t_evex(c, p, 0x5e, x, x, XTMP) :
		    t_sse(p, 0x66, 0x5e, x, XTMP);
		break;
	case RX_OP_FSQRT_R:
		p = c->copies ? t_evex(c, p, 0x51, x, 0, x) :
		    t_sse(p, 0x66, 0x51, x, x);
		break;
	case RX_OP_ISTORE:
		p = t_addr(p, in, in->dst, RX_RAX);
		*p++ = 0x4c;	/* mov [rsi + rax], s */
		*p++ = 0x89;
		p = t_mem(p, in, in->dst, RX_RAX, s);
		break;
	default:
		break;
	}
	a->pos += (size_t)(p - p0);
}

/* eax = readReg2 ^ readReg3 (32 bits) */
static void emit_mix23(compiler *c, const rx_program_config *cfg)
{
	rx_alu32(&c->a, RX_MOV, RX_RAX, rx_reg(VREG(cfg->read_reg[2])));
	rx_alu32(&c->a, RX_XOR, RX_RAX, rx_reg(VREG(cfg->read_reg[3])));
}

/* mx ^= eax, and the prefetch of the dataset line it names (v1, full). */
static void emit_v1_prefetch(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	emit_mix23(c, cfg);
	rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
	rx_alu32(a, RX_MOV, RX_RAX, rx_reg(RX_RBP));
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), (int32_t)RX_DATASET_ADDR_MASK);
	rx_prefetch(a, 0, rx_mem_idx(RX_RDI, RX_RAX, 0, 0));
}

/* r0 .. r7 ^= the 64 bytes at [base + index] */
static void emit_xor_item(rx_asm *a, int base, int index)
{
	int i;

	for (i = 0; i < 8; i++)
		rx_alu(a, RX_XOR, VREG(i), index < 0 ? rx_mem(base, 8 * i) :
		    rx_mem_idx(base, index, 0, 8 * i));
}

/*
 * Around a call to C: the registers a C function may change and the
 * loop needs (r8 .. r11, rsi, rdi, xmm0 .. xmm15) go to the frame and
 * back.
 */
static void emit_save(rx_asm *a)
{
	int i;

	for (i = 0; i < 4; i++)
		rx_store(a, rx_mem(RX_RSP, F_GPR + 8 * i), VREG(i));
	rx_store(a, rx_mem(RX_RSP, F_GPR + 32), RX_RSI);
	rx_store(a, rx_mem(RX_RSP, F_GPR + 40), RX_RDI);
	for (i = 0; i < 16; i++)
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RSP, F_XMM + 16 * i));
}

static void emit_restore(rx_asm *a)
{
	int i;

	for (i = 0; i < 16; i++)
		rx_sse(a, RX_MOVAPD_LOAD, i, rx_mem(RX_RSP, F_XMM + 16 * i));
	for (i = 0; i < 4; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RSP, F_GPR + 8 * i));
	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RSP, F_GPR + 32));
	rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RSP, F_GPR + 40));
}

static const uint8_t *light_item(rx_jit_ctx *x, uint64_t old_mem,
    uint64_t new_mem);

/* k1 = 3, emit_copies' mask: the low two lanes of a zmm register */
static void emit_k1(rx_asm *a)
{
	rx_b(a, 0xb9);		/* mov ecx, 3 */
	rx_b32(a, 3);
	rx_b(a, 0xc5);		/* kmovw k1, ecx */
	rx_b(a, 0xf8);
	rx_b(a, 0x92);
	rx_b(a, 0xc9);
}

/* Steps 7 (the dataset item) and the memory registers' swap. */
static void emit_read_dataset(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	if (!c->full) {
		/* light_item(ctx, rbp before, rbp after the XOR) */
		emit_save(a);
		rx_alu(a, RX_MOV, RX_RSI, rx_reg(RX_RBP));
		emit_mix23(c, cfg);
		rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
		rx_alu(a, RX_MOV, RX_RDX, rx_reg(RX_RBP));
		rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RSP, F_CTX));
		rx_mov_imm(a, RX_RAX, (uint64_t)(uintptr_t)light_item);
		rx_call_reg(a, RX_RAX);
		emit_restore(a);
		if (c->copies)
			emit_k1(a);	/* C may have used it */
		emit_xor_item(a, RX_RAX, -1);
	} else if (!c->v2) {
		/*
		 * ma's address from rbp as it came into the iteration,
		 * before mx's XOR: read after it, the CPU would wait for
		 * readReg2 and readReg3 (two of the program's last results)
		 * before it could load the item, and the next iteration's
		 * scratchpad addresses wait for the item.
		 */
		rx_alu(a, RX_MOV, RX_RCX, rx_reg(RX_RBP));
		rx_shift_imm(a, 1, 5, RX_RCX, 32);
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		emit_v1_prefetch(c, cfg);
		emit_xor_item(a, RX_RDI, RX_RCX);
	} else {
		rx_alu32(a, RX_MOV, RX_RCX, rx_reg(RX_RBP));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		emit_mix23(c, cfg);
		rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
		rx_alu32(a, RX_MOV, RX_RDX, rx_reg(RX_RBP));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RDX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		rx_prefetch(a, 0, rx_mem_idx(RX_RDI, RX_RDX, 0, 0));
		emit_xor_item(a, RX_RDI, RX_RCX);
	}
	rx_shift_imm(a, 1, 1, RX_RBP, 32);	/* ror: swap ma and mx */
}

/* Steps 8 to 11: R to spAddr1, F (mixed with E) to spAddr0. */
static void emit_store(compiler *c)
{
	rx_asm *a = &c->a;
	int i, k;

	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_SP1));
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RCX, 8 * i), VREG(i));
	if (!c->v2) {
		for (i = 0; i < 4; i++)
			rx_sse(a, RX_XORPD, i, rx_reg(4 + i));
	} else if (c->hard_aes) {
		for (k = 0; k < 4; k++)
			for (i = 0; i < 4; i++)
				rx_sse(a, i & 1 ? RX_AESDEC : RX_AESENC, i,
				    rx_reg(4 + k));
	} else {
		emit_save(a);
		rx_lea(a, 1, RX_RDI, rx_mem(RX_RSP, F_XMM));
		rx_lea(a, 1, RX_RSI, rx_mem(RX_RSP, F_XMM + 64));
		rx_mov_imm(a, RX_RAX, (uint64_t)(uintptr_t)c->mix_fe);
		rx_call_reg(a, RX_RAX);
		emit_restore(a);
	}
	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_SP0));
	for (i = 0; i < 4; i++)
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RCX, 16 * i));
}

/* Step 1 and 2 of the next iteration's addresses: eax, edx. */
static void emit_next_addresses(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	rx_alu(a, RX_MOV, RX_RAX, rx_reg(VREG(cfg->read_reg[0])));
	rx_alu(a, RX_XOR, RX_RAX, rx_reg(VREG(cfg->read_reg[1])));
	rx_alu(a, RX_MOV, RX_RDX, rx_reg(RX_RAX));
	rx_shift_imm(a, 1, 5, RX_RDX, 32);
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), (int32_t)RX_L3_MASK64);
	rx_alu_imm(a, 0, 4, rx_reg(RX_RDX), (int32_t)RX_L3_MASK64);
	rx_prefetch(a, 1, rx_mem_idx(RX_RSI, RX_RAX, 0, 0));
	rx_prefetch(a, 1, rx_mem_idx(RX_RSI, RX_RDX, 0, 0));
}

/* Steps 3 and 4: R from spAddr0, F and E from spAddr1 (eax, edx). */
static void emit_loop_load(rx_asm *a)
{
	int i;

	rx_lea(a, 1, RX_RCX, rx_mem_idx(RX_RSI, RX_RAX, 0, 0));
	rx_store(a, rx_mem(RX_RSP, F_SP0), RX_RCX);
	emit_xor_item(a, RX_RCX, -1);
	rx_lea(a, 1, RX_RCX, rx_mem_idx(RX_RSI, RX_RDX, 0, 0));
	rx_store(a, rx_mem(RX_RSP, F_SP1), RX_RCX);
	for (i = 0; i < 8; i++)
		rx_sse(a, RX_CVTDQ2PD, i, rx_mem(RX_RCX, 8 * i));
	for (i = 4; i < 8; i++)
		rx_sse(a, RX_ANDPS, i, rx_reg(XEAND));
	for (i = 4; i < 8; i++)
		rx_sse(a, RX_ORPS, i, rx_reg(XEOR));
}

static void emit_prologue(rx_asm *a)
{
	int i;

	for (i = 0; i < SAVED_REGS; i++)
		rx_push(a, callee_saved[i]);
	rx_alu_imm(a, 1, 5, rx_reg(RX_RSP), FRAME);
	rx_store(a, rx_mem(RX_RSP, F_CTX), RX_RDI);
	rx_stmxcsr(a, rx_mem(RX_RSP, F_CALLER_MXCSR));
	rx_ldmxcsr(a, rx_mem(RX_RDI, offsetof(rx_jit_ctx, mxcsr)));
	for (i = 0; i < 4; i++)
		rx_sse(a, RX_MOVAPD_LOAD, XA(i),
		    rx_mem(RX_RDI, offsetof(rx_jit_ctx, a) + 16 * i));
	rx_sse(a, RX_MOVAPD_LOAD, XEAND,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, e_and)));
	rx_sse(a, RX_MOVAPD_LOAD, XEOR,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, e_or)));
	rx_sse(a, RX_MOVAPD_LOAD, XSCALE,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, scale)));
	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, scratchpad)));
	rx_alu(a, RX_MOV, RX_RBP, rx_mem(RX_RDI, offsetof(rx_jit_ctx, mem)));
	rx_alu32(a, RX_MOV, RX_RBX, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, iterations)));
	rx_alu32(a, RX_MOV, RX_RAX, rx_mem(RX_RDI, offsetof(rx_jit_ctx, sp0)));
	rx_alu32(a, RX_MOV, RX_RDX, rx_mem(RX_RDI, offsetof(rx_jit_ctx, sp1)));
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RDI,
		    offsetof(rx_jit_ctx, r) + 8 * i));
	rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, memory)));
}

/* With copies, the final rounding mode is the number of the copy. */
static void emit_epilogue(rx_asm *a, int copies)
{
	int i;

	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_CTX));
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, r) + 8 * i),
		    VREG(i));
	for (i = 0; i < 4; i++) {
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, f) + 16 * i));
		rx_sse(a, RX_MOVAPD_STORE, 4 + i, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, e) + 16 * i));
	}
	if (copies) {
		rx_b(a, 0x48);		/* lea rax, [rip] */
		rx_b(a, 0x8d);
		rx_b(a, 0x05);
		rx_b32(a, 0);
		rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), COPY_MODE_BITS);
		rx_alu_imm(a, 0, 1, rx_reg(RX_RAX), MXCSR_DEFAULT);
		rx_store32(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, mxcsr)),
		    RX_RAX);
	} else {
		rx_stmxcsr(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, mxcsr)));
	}
	rx_ldmxcsr(a, rx_mem(RX_RSP, F_CALLER_MXCSR));
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSP), FRAME);
	for (i = SAVED_REGS - 1; i >= 0; i--)
		rx_pop(a, callee_saved[i]);
	if (copies)
		rx_vzeroupper(a);
	rx_ret(a);
}

/* emit_insn as rx_decode_word's sink. */
static inline __attribute__((always_inline)) void emit_decoded(void *ctx,
    const rx_insn *in)
{
	emit_insn((compiler *)ctx, in);
}

/*
 * The program's instructions, count words: each decoded and compiled at
 * once.  The decoder's step calls emit_insn (both inlined) in each of its
 * cases with the operation known, so the compiler folds emit_insn's
 * switch to that operation's encoding: one dispatch an instruction,
 * where decoding the whole program first and then compiling it took two
 * (measured: PERFORMANCE section 7).  pos[k] is where operation k's code
 * starts, for the CBRANCHes that jump back to it.
 */
static void emit_program(compiler *c, const uint8_t *words, unsigned count)
{
	rx_decoder d;
	rx_insn in;
	unsigned i;

	rx_decoder_init(&d);
	for (i = 0; i < count; i++) {
		c->pos[d.n] = (uint32_t)c->a.pos;
		rx_decode_word(&d, words + 8 * i, &in, emit_decoded, c);
	}
}

/* The program and the rest of the loop, back to top, and the epilogue. */
static void emit_loop_rest(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg, const uint8_t *top)
{
	rx_asm *a = &c->a;

	emit_program(c, words, count);
	emit_read_dataset(c, cfg);
	/*
	 * The next iteration's addresses, and their prefetch, as soon as
	 * they are final, unless the store calls soft AES (which clobbers
	 * rax and rdx).
	 */
	if (c->v2 && !c->hard_aes) {
		emit_store(c);
		emit_next_addresses(c, cfg);
	} else {
		emit_next_addresses(c, cfg);
		emit_store(c);
	}
	rx_alu_imm(a, 0, 5, rx_reg(RX_RBX), 1);
	rx_jump(a, 5, top);
	emit_epilogue(a, c->copies);
}

/*
 * Programs as four copies, one for each rounding mode (PERFORMANCE
 * section 9: LDMXCSR that changes the mode cost about 57 cycles on a Zen
 * 5, and v1 changes it about 0.75 times an iteration).  Each copy's FP
 * operations carry their mode in the instruction (AVX-512's embedded
 * rounding, t_evex), CFROUND jumps to the same place in the copy of the
 * new mode, and MXCSR's mode is left alone.  The copies lie COPY_STRIDE
 * apart from a COPY_ALIGN boundary, so that bits 13-14 of an address in
 * them are the mode (as in MXCSR); nothing in a copy refers outside it
 * but for absolute addresses, so the other three are the first copied,
 * with their rounding bits set.  The head (emitted once per VM) starts
 * the copy of ctx->mxcsr's mode.  -1 if a copy would not fit.
 */
#define COPIES_HEAD_ROOM 512

static int emit_copies(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg)
{
	rx_asm *a = &c->a;
	uint8_t *copy0 = (uint8_t *)(((uintptr_t)a->buf + COPIES_HEAD_ROOM +
	    COPY_ALIGN - 1) & ~(uintptr_t)(COPY_ALIGN - 1));
	size_t len, m, i;

	c->copy_base = (size_t)(copy0 - a->buf);
	if (c->copy_base + COPY_ALIGN > a->cap)
		return -1;
	if (!*c->head_len || !*c->head_copies) {
		a->pos = 0;
		emit_prologue(a);
		emit_k1(a);
		rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_CTX));
		rx_alu32(a, RX_MOV, RX_RCX, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, mxcsr)));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX), COPY_MODE_BITS);
		rx_store(a, rx_mem(RX_RSP, F_ENTRY), RX_RCX);
		rx_mov_imm(a, RX_RCX, (uint64_t)(uintptr_t)copy0);
		rx_alu(a, RX_ADD, RX_RCX, rx_mem(RX_RSP, F_ENTRY));
		rx_b(a, 0xff);		/* jmp rcx */
		rx_b(a, 0xe1);
		if (a->overflow || a->pos > COPIES_HEAD_ROOM)
			return -1;
		*c->head_len = a->pos;
		*c->head_copies = 1;
	}
	a->pos = c->copy_base;
	c->nrc = 0;
	emit_loop_load(a);
	emit_loop_rest(c, words, count, cfg, copy0);
	len = a->pos - c->copy_base;
	if (a->overflow || len > COPY_STRIDE)
		return -1;
	for (m = 1; m < 4; m++) {
		uint8_t *copy = copy0 + m * COPY_STRIDE;

		memcpy(copy, copy0, len);
		for (i = 0; i < c->nrc; i++)
			copy[c->rc_at[i]] |= (uint8_t)(m << 5);
	}
	return 0;
}

/* The whole function for a program of count instruction words. */
static void emit_function(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg)
{
	rx_asm *a = &c->a;
	size_t to_top;

	if (c->copies) {
		if (emit_copies(c, words, count, cfg) == 0)
			return;
		/* too long for a copy: as usual */
		c->copies = 0;
		a->overflow = 0;
		*c->head_len = 0;
	}
	/* The prologue and the loop's first steps: only once per VM. */
	if (*c->head_len && !*c->head_copies) {
		a->pos = *c->head_len;
	} else {
		a->pos = 0;
		emit_prologue(a);
		to_top = rx_jump8_fwd(a, -1);
		rx_align(a, 64);
		rx_patch8(a, to_top);
		*c->top = a->pos;
		emit_loop_load(a);
		*c->head_copies = 0;
		*c->head_len = a->overflow ? 0 : a->pos;
	}
	emit_loop_rest(c, words, count, cfg, a->buf + *c->top);
}

/* ---- light mode's items ---- */

static uint64_t item_number(const rx_jit_ctx *x, uint32_t m)
{
	return (x->dataset_offset + (m & RX_DATASET_ADDR_MASK)) /
	    RX_DATASET_ITEM_BYTES;
}

/*
 * The item this iteration mixes in, from the compiled loop (light mode):
 * old_mem and new_mem are rbp before and after the iteration's XOR.  When
 * none is left from before, it computes this one together with those the
 * next iterations will read, which the memory registers already name:
 * v1 reads ma (high half) now and the new mx next; v2 reads ma (low half)
 * now, mx next, the new ma after that.
 */
static const uint8_t *light_item(rx_jit_ctx *x, uint64_t old_mem,
    uint64_t new_mem)
{
	uint32_t k, left = x->iterations - x->done, n;

	if (x->next >= x->pending) {
		if (x->v2) {
			x->numbers[0] = item_number(x, (uint32_t)old_mem);
			x->numbers[1] = item_number(x, (uint32_t)(new_mem >> 32));
			x->numbers[2] = item_number(x, (uint32_t)new_mem);
			n = 3;
		} else {
			x->numbers[0] = item_number(x, (uint32_t)(old_mem >> 32));
			x->numbers[1] = item_number(x, (uint32_t)new_mem);
			n = 2;
		}
		if (n > left)
			n = left;
		if (x->ss)
			rx_ss_jit_items(x->ss, x->cache->memory, x->numbers, n,
			    x->items[0]);
		else
			for (k = 0; k < n; k++)
				rx_dataset_item(x->cache, x->numbers[k],
				    x->items[k]);
		x->pending = n;
		x->next = 0;
	}
	k = x->next++;
	x->done++;
	if (x->item_trace)
		x->item_trace(x->item_trace_ctx, x->numbers[k]);
	return x->items[k];
}

/* ---- the VM's side ---- */

rx_jit_vm *rx_jit_vm_new(int secure)
{
	rx_jit_vm *j;

	if (posix_memalign((void **)&j, 64, sizeof(*j)))
		return NULL;
	memset(j, 0, sizeof(*j));
	if (rx_exec_alloc(&j->mem, JIT_BYTES, secure)) {
		free(j);
		return NULL;
	}
	return j;
}

void rx_jit_vm_free(rx_jit_vm *j)
{
	if (!j)
		return;
	rx_exec_free(&j->mem);
	free(j);
}

const void *rx_jit_vm_code(const rx_jit_vm *j)
{
	return j->mem.base;
}

int rx_jit_vm_compile(rx_jit_vm *j, const rx_vm_state *vm)
{
	compiler c;

	j->fn = NULL;
	if (rx_exec_writable(&j->mem))
		return -1;
	rx_asm_init(&c.a, j->mem.base + POOL_BYTES, CODE_BYTES);
	c.pool = (uint64_t *)(void *)j->mem.base;
	c.npool = 0;
	c.pos = j->pos;
	c.head_len = &j->head_len;
	c.head_copies = &j->head_copies;
	c.top = &j->top;
	c.copies = rx_jit_rounding_copies(vm->v2);
	c.bmi2 = rx_cpu_uses(RX_USE_JIT_MULX);
	c.v2 = vm->v2;
	c.full = vm->dataset != NULL;
	c.mix_fe = vm->aes->mix_fe;
	c.hard_aes = 0;
#ifdef RX_X86_ISAS
	c.hard_aes = vm->aes == &rx_aes_aesni;
#endif
	emit_function(&c, vm->program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(vm->v2), &vm->cfg);
	if (rx_exec_executable(&j->mem) || c.a.overflow)
		return -1;
	j->fn = (program_fn)(void *)(j->mem.base + POOL_BYTES);
	return 0;
}

/* The context for a run of the loop on vm with configuration cfg. */
static void setup(rx_jit_ctx *x, const rx_program_config *cfg,
    const rx_vm_state *vm, const rx_ss_jit *ss)
{
	unsigned i;

	memset(x->r, 0, sizeof(x->r));
	memcpy(x->a, vm->regs.a, sizeof(x->a));
	x->e_and[0] = x->e_and[1] = UINT64_C(0x00ffffffffffffff);
	x->e_or[0] = cfg->e_mask[0];
	x->e_or[1] = cfg->e_mask[1];
	x->scale[0] = x->scale[1] = UINT64_C(0x80f0000000000000);
	x->scratchpad = vm->scratchpad;
	x->memory = vm->dataset ? vm->dataset + cfg->dataset_offset : NULL;
	if (vm->v2)
		x->mem = (uint64_t)cfg->mx << 32 | cfg->ma;
	else
		x->mem = (uint64_t)cfg->ma << 32 | cfg->mx;
	x->sp0 = cfg->mx & RX_L3_MASK64;
	x->sp1 = cfg->ma & RX_L3_MASK64;
	x->iterations = RX_PROGRAM_ITERATIONS;
	x->mxcsr = MXCSR_DEFAULT | (vm->fprc & 3) << 13;
	x->ss = ss;
	x->cache = vm->cache;
	x->item_trace = vm->item_trace;
	x->item_trace_ctx = vm->item_trace_ctx;
	x->dataset_offset = cfg->dataset_offset;
	x->done = x->pending = x->next = 0;
	x->v2 = vm->v2;
	for (i = 0; i < LIGHT_GROUP; i++)
		x->numbers[i] = 0;
}

static void finish(const rx_jit_ctx *x, rx_vm_state *vm)
{
	memcpy(vm->regs.r, x->r, sizeof(x->r));
	memcpy(vm->regs.f, x->f, sizeof(x->f));
	memcpy(vm->regs.e, x->e, sizeof(x->e));
	vm->fprc = (x->mxcsr >> 13) & 3;
}

void rx_jit_vm_run(rx_jit_vm *j, rx_vm_state *vm, const rx_ss_jit *ss)
{
	setup(&j->ctx, &vm->cfg, vm, ss);
	j->fn(&j->ctx);
	finish(&j->ctx, vm);
}

void rx_jit_vm_run_program(rx_jit_vm *j, rx_vm_state *vm,
    const uint8_t seed[64], const rx_ss_jit *ss)
{
	rx_program_generate(vm->aes, seed, vm->program, vm->v2);
	rx_program_configure(vm->program, &vm->cfg);
	memcpy(vm->regs.a, vm->cfg.a, sizeof(vm->regs.a));
	if (rx_jit_vm_compile(j, vm) == 0) {
		rx_jit_vm_run(j, vm, ss);
		return;
	}
	rx_program_decode(vm->program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(vm->v2), vm->code);
	rx_vm_execute(vm);
}

#endif /* RX_HAVE_JIT */
