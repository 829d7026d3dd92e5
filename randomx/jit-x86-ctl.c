/*
 * jit-x86-ctl.c: the x86-64 code of RandomX's control and store
 * operations, CBRANCH, CFROUND and ISTORE (see jit-x86.h).
 */
#include "randomx/jit-x86.h"

#if RX_JIT_X86_64

/*
 * dst += imm, then a jump back to the operation after the last one that
 * changed dst (in->target) if the bits in->mask of dst are all zero.
 */
void rx_x86_cbranch(rx_x86_compiler *c, const rx_insn *in)
{
	int d = VREG(in->dst);

	rx_x86_done(c, rx_t_alu_ri(rx_x86_at(c), 0, d, (int32_t)in->imm));
	rx_test_imm(&c->a, 1, rx_reg(d), (int32_t)in->mask);
	rx_jump(&c->a, 4, c->a.buf + c->pos[in->target]);
}

/*
 * In emit_copies' copies: a jump to the same place in the copy of the new
 * mode (in rax's bits 13-14): the address after this sequence with its
 * bits 13-14 (the copy's number) replaced.
 */
static void emit_to_copy(rx_asm *a)
{
	/* lea, and, or and jmp: 7 + 7 + 3 + 2 bytes */
	const uint8_t *after = rx_asm_here(a) + 19;

	rx_op(a, 0, 1, 0x8d, 1, RX_RCX, rx_rip(after), 0);
	rx_alu_imm(a, 1, 4, rx_reg(RX_RCX), (int32_t)~COPY_MODE_BITS);
	rx_op(a, 0, 1, 0x09, 1, RX_RAX, rx_reg(RX_RCX), 0); /* or rcx, rax */
	rx_jmp_reg(a, RX_RCX);
}

/*
 * CFROUND: src rotated right by imm; its low two bits are the new mode,
 * into MXCSR or, with emit_copies, a jump to the new mode's copy.  v2
 * takes the new mode only if bits 2-5 of the rotated value are zero.
 */
void rx_x86_cfround(rx_x86_compiler *c, const rx_insn *in)
{
	rx_asm *a = &c->a;
	unsigned rot = (13 - (unsigned)in->imm) & 63;
	size_t skip = 0;

	/* rotl by 13 - imm: bits 0-1 of the rotated value land in RC */
	rx_alu(a, RX_MOV, RX_RAX, rx_reg(VREG(in->src)));
	if (rot)
		rx_shift_imm(a, 1, 0, RX_RAX, rot);
	if (c->v2) {
		rx_test_imm(a, 0, rx_reg(RX_RAX), 0x3c << 13);
		skip = rx_jump8_fwd(a, 5);
	}
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), COPY_MODE_BITS);
	if (c->copies) {
		emit_to_copy(a);
	} else {
		rx_alu_imm(a, 0, 1, rx_reg(RX_RAX), MXCSR_DEFAULT);
		rx_store32(a, rx_mem(RX_RSP, F_MXCSR), RX_RAX);
		rx_ldmxcsr(a, rx_mem(RX_RSP, F_MXCSR));
	}
	if (c->v2)
		rx_patch8(a, skip);
}

/* [scratchpad + ((dst + imm) & mask)] = src */
void rx_x86_istore(rx_x86_compiler *c, const rx_insn *in)
{
	int s = VREG(in->src & 7);
	rx_bp p = rx_x86_addr(rx_x86_at(c), in, in->dst, RX_RAX);

	p = rx_t_rexw_op(p, s, RX_RAX, 0x89, 0);	/* mov [rsi + rax], s */
	rx_x86_done(c, rx_x86_mem(p, in, in->dst, RX_RAX, s));
}

#endif /* RX_JIT_X86_64 */
