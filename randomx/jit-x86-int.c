/*
 * jit-x86-int.c: the x86-64 code of RandomX's integer operations (see
 * jit-x86.h).  Each operation's emitter writes one to six instructions on
 * the registers the loop keeps ri in (r8 .. r15); scratchpad operands go
 * through rax or rcx.
 */
#include "randomx/jit-x86.h"

#if RX_JIT_X86_64

/* dst = dst OP [scratchpad operand] (opcode opc, 0F-prefixed if two_byte) */
static void emit_int_m(rx_x86_compiler *c, const rx_insn *in, unsigned opc,
    int two_byte)
{
	int d = VREG(in->dst);
	rx_bp p = rx_x86_addr(rx_x86_at(c), in, in->src, RX_RAX);

	p = rx_t_rexw_op(p, d, RX_RAX, opc, two_byte);
	rx_x86_done(c, rx_x86_mem(p, in, in->src, RX_RAX, d));
}

/* dst = dst OP src, both ri registers */
static void emit_int_rr(rx_x86_compiler *c, const rx_insn *in, unsigned opc)
{
	rx_x86_done(c, rx_t_rr(rx_x86_at(c), opc, VREG(in->dst),
	    VREG(in->src & 7)));
}

void rx_x86_iadd_rs(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rx_t_lea_add(rx_x86_at(c), VREG(in->dst),
	    VREG(in->src & 7), in->shift, (int32_t)in->imm));
}

void rx_x86_iadd_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_m(c, in, 0x03, 0);
}

/* A 64-bit constant in the pool, as a RIP-relative operand. */
static rx_rm pool_const(rx_x86_compiler *c, uint64_t k)
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

/*
 * dst += imm: an immediate where it fits, else a constant from the pool
 * or, in emit_copies' copies (which move, so the pool's RIP-relative
 * address would not hold), through rax.
 */
void rx_x86_iadd_c(rx_x86_compiler *c, const rx_insn *in)
{
	int d = VREG(in->dst);
	uint64_t k = in->imm;

	if (rx_fits_i32((int64_t)k))
		rx_x86_done(c, rx_t_alu_ri(rx_x86_at(c), 0, d, (int32_t)k));
	else if (rx_fits_i32(-(int64_t)k))
		rx_alu_imm(&c->a, 1, 5, rx_reg(d), (int32_t)-(int64_t)k);
	else if (c->copies) {
		rx_mov_imm(&c->a, RX_RAX, k);
		rx_alu(&c->a, RX_ADD, d, rx_reg(RX_RAX));
	} else {
		rx_alu(&c->a, RX_ADD, d, pool_const(c, k));
	}
}

void rx_x86_isub_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_rr(c, in, 0x2b);
}

void rx_x86_isub_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_m(c, in, 0x2b, 0);
}

void rx_x86_imul_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rx_t_imul_rr(rx_x86_at(c), VREG(in->dst),
	    VREG(in->src & 7)));
}

void rx_x86_imul_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_m(c, in, 0xaf, 1);
}

/*
 * dst *= imm (IMUL_RCP's reciprocals too): imul with an immediate, or
 * the 64-bit value by mov rax, imm64 (measured faster than a load from
 * the constant pool).
 */
void rx_x86_imul_c(rx_x86_compiler *c, const rx_insn *in)
{
	int d = VREG(in->dst);
	rx_bp p = rx_x86_at(c);

	if (rx_fits_i32((int64_t)in->imm)) {
		p = rx_t_imul_rri(p, d, d, (int32_t)in->imm);
	} else {
		p = rx_t_mov_imm64(p, RX_RAX, in->imm);
		p = rx_t_imul_rr(p, d, RX_RAX);
	}
	rx_x86_done(c, p);
}

/*
 * dst = the high half of dst * src, src a register (mem 0) or the
 * scratchpad operand (through rcx): unsigned with BMI2's MULX where the
 * CPU has it, else mul or imul on rdx:rax.
 */
static void emit_mulh(rx_x86_compiler *c, const rx_insn *in, int mem,
    int is_signed)
{
	int d = VREG(in->dst), s = VREG(in->src & 7);
	rx_bp p = rx_x86_at(c);

	if (mem)
		p = rx_x86_addr(p, in, in->src, RX_RCX);
	if (!is_signed && c->bmi2) {
		p = rx_t_rr(p, 0x8b, RX_RDX, d);	/* mov rdx, d */
		p = rx_t_mulx_rax(p, mem);		/* mulx d, rax, src */
		if (mem)
			p = rx_x86_mem(p, in, in->src, RX_RCX, d);
		else
			*p++ = rx_t_modrm_rr(d, s);
		rx_x86_done(c, p);
		return;
	}
	p = rx_t_rr(p, 0x8b, RX_RAX, d);		/* mov rax, d */
	if (mem) {
		/* mul or imul qword [...] */
		p = rx_t_rexw_op(p, 0, RX_RAX, 0xf7, 0);
		p = rx_x86_mem(p, in, in->src, RX_RCX, is_signed ? 5 : 4);
	} else {
		p = rx_t_grp3_r(p, is_signed ? 5 : 4, s);
	}
	rx_x86_done(c, rx_t_rr(p, 0x8b, d, RX_RDX));	/* mov d, rdx */
}

void rx_x86_imulh_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_mulh(c, in, 0, 0);
}

void rx_x86_imulh_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_mulh(c, in, 1, 0);
}

void rx_x86_ismulh_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_mulh(c, in, 0, 1);
}

void rx_x86_ismulh_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_mulh(c, in, 1, 1);
}

void rx_x86_ineg_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rx_t_grp3_r(rx_x86_at(c), 3, VREG(in->dst)));
}

void rx_x86_ixor_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_rr(c, in, 0x33);
}

void rx_x86_ixor_m(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_m(c, in, 0x33, 0);
}

void rx_x86_ixor_c(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rx_t_alu_ri(rx_x86_at(c), 6, VREG(in->dst),
	    (int32_t)in->imm));
}

/* dst rotated by src's low 6 bits (through cl): digit 1 ror, 0 rol */
static void emit_rot_r(rx_x86_compiler *c, const rx_insn *in, int digit)
{
	rx_bp p = rx_t_mov32_rr(rx_x86_at(c), RX_RCX, VREG(in->src & 7));

	rx_x86_done(c, rx_t_rot_cl(p, digit, VREG(in->dst)));
}

void rx_x86_iror_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_rot_r(c, in, 1);
}

void rx_x86_irol_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_rot_r(c, in, 0);
}

/* IROL_C arrives as IROR_C by 64 - n; by 0 it is nothing. */
void rx_x86_iror_c(rx_x86_compiler *c, const rx_insn *in)
{
	if (in->imm & 63)
		rx_x86_done(c, rx_t_rot_imm(rx_x86_at(c), 1, VREG(in->dst),
		    (unsigned)(in->imm & 63)));
}

void rx_x86_iswap_r(rx_x86_compiler *c, const rx_insn *in)
{
	emit_int_rr(c, in, 0x87);
}

#endif /* RX_JIT_X86_64 */
