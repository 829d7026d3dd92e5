/*
 * jit-x86.h: the x86-64 program compiler's internals, shared by its
 * driver (jit-x86.c: the loop around the program, light mode's items, the
 * VM's side) and the emitters of the instruction groups:
 *
 *	jit-x86-int.c	integer operations
 *	jit-x86-fp.c	floating-point operations
 *	jit-x86-ctl.c	CBRANCH, CFROUND and ISTORE
 *
 * Not part of jit.h's interface (another target's compiler has its own
 * internals beside it).  Register allocation, for the whole loop:
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
 */
#ifndef RX_JIT_X86_H
#define RX_JIT_X86_H

#include "randomx/jit.h"

#if RX_JIT_X86_64

#include "randomx/jit-x86-asm.h"
#include "randomx/program.h"

#define VREG(i) (RX_R8 + (i))	/* integer register ri */
#define XA(i) (8 + (i))		/* ai */
#define XTMP 12
#define XEAND 13
#define XEOR 14
#define XSCALE 15

/*
 * Code memory: the constant pool, then the code, on its own page.  The
 * code has room for a head and four copies of a v1 loop COPY_STRIDE apart
 * from a COPY_ALIGN boundary (see jit-x86.c's emit_copies).
 */
#define POOL_BYTES 4096
#define CODE_BYTES 69632
#define JIT_BYTES (POOL_BYTES + CODE_BYTES)
#define COPY_STRIDE 8192u	/* = 1 << 13: the copy of mode m at m << 13 */
#define COPY_ALIGN (4 * COPY_STRIDE)
#define COPY_MODE_BITS 0x6000u	/* bits 13-14: MXCSR's RC, and the copy */

#define MXCSR_DEFAULT 0x1f80u	/* all exceptions masked, round to nearest */

/* ---- the stack frame of the compiled function ---- */

#define F_CTX 0
#define F_SP0 8		/* scratchpad + spAddr0: where F is stored */
#define F_SP1 16	/* scratchpad + spAddr1: where R is stored */
#define F_MXCSR 24	/* CFROUND's new MXCSR */
#define F_CALLER_MXCSR 28
#define F_XMM 32	/* 16 x 16 bytes around calls to C */
#define F_GPR (F_XMM + 256)	/* r8 .. r11, rsi, rdi */
#define F_ENTRY (F_GPR + 48)	/* emit_copies: the copy to start in */
#define FRAME (F_GPR + 48 + 8)	/* + 8: 16-byte aligned after 6 pushes */

/* ---- compiling one program ---- */

typedef struct {
	rx_asm a;		/* writes the code memory's writable view */
	uintptr_t run_at;	/* where a.buf's first byte runs */
	size_t *head_len, *top;	/* the VM's: emitted once */
	int *head_copies;
	uint64_t *pool;		/* POOL_BYTES / 8 constants */
	unsigned npool;
	uint32_t *pos;		/* where each operation's code starts */
	int bmi2, v2, full, hard_aes;
	/* emit_copies: AVX-512 rounding, and where each operation's mode is */
	int copies;
	size_t copy_base;
	unsigned nrc;
	uint16_t rc_at[RX_PROGRAM_MAX_SIZE];
	void (*mix_fe)(uint64_t f[8], const uint64_t e[8]);
} rx_x86_compiler;

/* Room for any one operation's code (the longest, IMULH_M, is 27 bytes). */
#define INSN_ROOM 64

/*
 * An operation's emitter: its code at c->a's position, which it moves on.
 * The driver has checked for INSN_ROOM bytes of room.  The table that
 * picks one by operation is jit-x86.c's.
 */
typedef void rx_x86_emitter(rx_x86_compiler *c, const rx_insn *in);

/* jit-x86-int.c */
rx_x86_emitter rx_x86_iadd_rs, rx_x86_iadd_m, rx_x86_iadd_c, rx_x86_isub_r,
    rx_x86_isub_m, rx_x86_imul_r, rx_x86_imul_m, rx_x86_imul_c,
    rx_x86_imulh_r, rx_x86_imulh_m, rx_x86_ismulh_r, rx_x86_ismulh_m,
    rx_x86_ineg_r, rx_x86_ixor_r, rx_x86_ixor_m, rx_x86_ixor_c,
    rx_x86_iror_r, rx_x86_irol_r, rx_x86_iror_c, rx_x86_iswap_r;
/* jit-x86-fp.c */
rx_x86_emitter rx_x86_fswap_r, rx_x86_fadd_r, rx_x86_fadd_m, rx_x86_fsub_r,
    rx_x86_fsub_m, rx_x86_fscal_r, rx_x86_fmul_r, rx_x86_fdiv_m,
    rx_x86_fsqrt_r;
/* jit-x86-ctl.c */
rx_x86_emitter rx_x86_cbranch, rx_x86_cfround, rx_x86_istore;

/* Where the next operation's bytes go, and the position after them. */
static inline rx_bp rx_x86_at(const rx_x86_compiler *c)
{
	return c->a.buf + c->a.pos;
}

static inline void rx_x86_done(rx_x86_compiler *c, rx_bp p)
{
	c->a.pos = (size_t)(p - c->a.buf);
}

/* ---- scratchpad operands ---- */

/*
 * The address of a scratchpad operand into tmp (rax or rcx): lea tmp32,
 * [r + imm]; and tmp32, mask.  Nothing for the immediate-only form
 * (register RX_REG_ZERO), whose address is the displacement (rx_x86_mem).
 */
static inline rx_bp rx_x86_addr(rx_bp p, const rx_insn *in, unsigned areg,
    int tmp)
{
	if (areg == RX_REG_ZERO)
		return p;
	*p++ = 0x41;		/* lea tmp32, [r + imm] */
	*p++ = 0x8d;
	p = rx_t_disp(p, tmp, VREG(areg), (int32_t)in->imm);
	if (tmp == RX_RAX) {
		*p++ = 0x25;	/* and eax, imm32 */
	} else {
		*p++ = 0x81;	/* and ecx, imm32 */
		*p++ = 0xe1;
	}
	return rx_t_put32(p, in->mask);
}

/*
 * The ModRM/SIB/disp of [rsi + tmp], or of [rsi + (imm & mask)] for the
 * immediate-only form, with field reg.
 */
static inline rx_bp rx_x86_mem(rx_bp p, const rx_insn *in, unsigned areg,
    int tmp, int reg)
{
	if (areg == RX_REG_ZERO) {
		*p++ = (uint8_t)(0x86 | (reg & 7) << 3);
		return rx_t_put32(p, (uint32_t)in->imm & in->mask);
	}
	*p++ = (uint8_t)(0x04 | (reg & 7) << 3);
	*p++ = tmp == RX_RAX ? 0x06 : 0x0e;
	return p;
}

#endif /* RX_JIT_X86_64 */

#endif /* !RX_JIT_X86_H */
