/*
 * jit-x86-fp.c: the x86-64 code of RandomX's floating-point operations
 * (see jit-x86.h).  Groups F and E live in xmm0 .. xmm7 as pairs of
 * doubles, a in xmm8 .. xmm11; a memory operand is converted into xmm12.
 * The rounding operations are SSE2's under MXCSR's mode or, in
 * emit_copies' copies, AVX-512's with the mode in the instruction.
 */
#include "randomx/jit-x86.h"

#if RX_JIT_X86_64

/*
 * d = v op s with the copy's rounding (k1 holds 3, so only RandomX's two
 * doubles are computed and the upper lanes are zeroed).  The byte that
 * holds the mode is noted in rc_at for emit_copies to set per copy.
 */
static rx_bp evex_rounding(rx_x86_compiler *c, rx_bp p, unsigned opc, int d,
    int v, int s)
{
	c->rc_at[c->nrc++] = (uint16_t)(p + 3 - (c->a.buf + c->copy_base));
	return rx_t_evex_er(p, opc, d, v, s);
}

/* d = d op s (opc an SSE2 packed-double operation), rounded as it must */
static rx_bp rounding_op(rx_x86_compiler *c, rx_bp p, unsigned opc, int d,
    int s)
{
	if (c->copies)
		return evex_rounding(c, p, opc, d, d, s);
	return rx_t_sse(p, 0x66, opc, d, s);
}

/* xmm12 = the scratchpad operand's two int32 as doubles (cvtdq2pd) */
static rx_bp convert_m(rx_bp p, const rx_insn *in)
{
	p = rx_x86_addr(p, in, in->src, RX_RAX);
	p = rx_t_sse_m(p, 0xf3, 0xe6, XTMP);
	return rx_x86_mem(p, in, in->src, RX_RAX, XTMP);
}

void rx_x86_fswap_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_bp p = rx_t_sse(rx_x86_at(c), 0x66, 0xc6, in->dst, in->dst);

	*p++ = 1;	/* shufpd x, x, 1: swap the halves */
	rx_x86_done(c, p);
}

void rx_x86_fadd_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rounding_op(c, rx_x86_at(c), 0x58, in->dst,
	    XA(in->src)));
}

void rx_x86_fsub_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rounding_op(c, rx_x86_at(c), 0x5c, in->dst,
	    XA(in->src)));
}

void rx_x86_fmul_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rounding_op(c, rx_x86_at(c), 0x59, in->dst,
	    XA(in->src)));
}

void rx_x86_fadd_m(rx_x86_compiler *c, const rx_insn *in)
{
	rx_bp p = convert_m(rx_x86_at(c), in);

	rx_x86_done(c, rounding_op(c, p, 0x58, in->dst, XTMP));
}

void rx_x86_fsub_m(rx_x86_compiler *c, const rx_insn *in)
{
	rx_bp p = convert_m(rx_x86_at(c), in);

	rx_x86_done(c, rounding_op(c, p, 0x5c, in->dst, XTMP));
}

/* xorps with the mask that flips the sign and exponent bits FSCAL_R's way */
void rx_x86_fscal_r(rx_x86_compiler *c, const rx_insn *in)
{
	rx_x86_done(c, rx_t_sse(rx_x86_at(c), 0, 0x57, in->dst, XSCALE));
}

/* The divisor takes group E's form (andps, orps with its masks) first. */
void rx_x86_fdiv_m(rx_x86_compiler *c, const rx_insn *in)
{
	rx_bp p = convert_m(rx_x86_at(c), in);

	p = rx_t_sse(p, 0, 0x54, XTMP, XEAND);
	p = rx_t_sse(p, 0, 0x56, XTMP, XEOR);
	rx_x86_done(c, rounding_op(c, p, 0x5e, in->dst, XTMP));
}

void rx_x86_fsqrt_r(rx_x86_compiler *c, const rx_insn *in)
{
	int x = in->dst;
	rx_bp p = rx_x86_at(c);

	p = c->copies ? evex_rounding(c, p, 0x51, x, 0, x) :
	    rx_t_sse(p, 0x66, 0x51, x, x);
	rx_x86_done(c, p);
}

#endif /* RX_JIT_X86_64 */
