/*
 * program-decode.h: one instruction word decoded into the interpreter's
 * form (program.h's rx_insn), as an inline step.  rx_program_decode runs
 * it over a whole program; the JIT runs it word by word and compiles each
 * operation as soon as it is decoded, so that the compiler can go from
 * each decoded case straight to its encoding (one dispatch an instruction
 * instead of one to decode and one to compile).  Internal.
 */
#ifndef RX_PROGRAM_DECODE_H
#define RX_PROGRAM_DECODE_H

#include <stdint.h>
#include <string.h>

#include "randomx/program.h"
#include "randomx/reciprocal.h"
#include "randomx/superscalar.h"
#include "sysendian.h"

/* The specification's instructions, in the order of its tables. */
enum rx_kind {
	K_IADD_RS, K_IADD_M, K_ISUB_R, K_ISUB_M, K_IMUL_R, K_IMUL_M,
	K_IMULH_R, K_IMULH_M, K_ISMULH_R, K_ISMULH_M, K_IMUL_RCP, K_INEG_R,
	K_IXOR_R, K_IXOR_M, K_IROR_R, K_IROL_R, K_ISWAP_R, K_FSWAP_R,
	K_FADD_R, K_FADD_M, K_FSUB_R, K_FSUB_M, K_FSCAL_R, K_FMUL_R,
	K_FDIV_M, K_FSQRT_R, K_CBRANCH, K_CFROUND, K_ISTORE, K_NOP
};

/* The instruction (enum rx_kind) of every opcode byte (program.c). */
extern const uint8_t rx_opcode_kind[256];

/*
 * Decoding state: n operations decoded so far; next[r] is where a CBRANCH
 * on integer register r jumps, the operation after the last one that
 * modified r (0 if none did yet).
 */
typedef struct {
	unsigned n;
	uint16_t next[8];
} rx_decoder;

static inline void rx_decoder_init(rx_decoder *d)
{
	d->n = 0;
	memset(d->next, 0, sizeof(d->next));
}

static inline uint64_t rx_dec_sext(uint32_t x)
{
	return (uint64_t)(int64_t)(int32_t)x;
}

/* The scratchpad level of a load, or of ISTORE (table 5.1.4). */
static inline uint32_t rx_dec_load_mask(unsigned mod, int same_reg)
{
	if (same_reg)
		return RX_L3_MASK;
	return (mod & 3) ? RX_L1_MASK : RX_L2_MASK;
}

static inline uint32_t rx_dec_store_mask(unsigned mod)
{
	if ((mod >> 4) >= 14)
		return RX_L3_MASK;
	return (mod & 3) ? RX_L1_MASK : RX_L2_MASK;
}

/* *in becomes operation number d->n: op on dst, every other field 0. */
static inline rx_insn *rx_dec_op(rx_decoder *d, rx_insn *in, unsigned op,
    unsigned dst)
{
	memset(in, 0, sizeof(*in));
	in->op = (uint8_t)op;
	in->dst = (uint8_t)dst;
	d->n++;
	return in;
}

/* Called after rx_dec_op: the operation just decoded modifies reg. */
static inline void rx_dec_modified(rx_decoder *d, unsigned reg)
{
	d->next[reg] = (uint16_t)d->n;
}

/* dst = dst OP [mem]: the address is src + imm, or imm alone. */
static inline void rx_dec_int_m(rx_decoder *d, rx_insn *in, unsigned op,
    unsigned dst, unsigned src, unsigned mod, uint32_t imm32)
{
	rx_dec_op(d, in, op, dst);
	in->src = (uint8_t)(src != dst ? src : RX_REG_ZERO);
	in->mask = rx_dec_load_mask(mod, src == dst);
	in->imm = rx_dec_sext(imm32);
	rx_dec_modified(d, dst);
}

/* An FP operation with a memory source (never L3: src is integer). */
static inline void rx_dec_fp_m(rx_decoder *d, rx_insn *in, unsigned op,
    unsigned dst, unsigned src, unsigned mod, uint32_t imm32)
{
	rx_dec_op(d, in, op, dst);
	in->src = (uint8_t)src;
	in->mask = rx_dec_load_mask(mod, 0);
	in->imm = rx_dec_sext(imm32);
}

/* An operation on dst with a register source and no immediate. */
static inline void rx_dec_rr(rx_decoder *d, rx_insn *in, unsigned op,
    unsigned dst, unsigned src)
{
	rx_dec_op(d, in, op, dst)->src = (uint8_t)src;
}

static inline void rx_dec_cbranch(rx_decoder *d, rx_insn *in, unsigned dst,
    unsigned mod, uint32_t imm32)
{
	unsigned b = (mod >> 4) + RX_JUMP_OFFSET, r;

	rx_dec_op(d, in, RX_OP_CBRANCH, dst);
	in->target = d->next[dst];
	in->imm = rx_dec_sext(imm32) | (1ULL << b);
	if (b > 0)
		in->imm &= ~(1ULL << (b - 1));
	in->mask = (uint32_t)(((1u << RX_JUMP_BITS) - 1) << b);
	for (r = 0; r < 8; r++)
		rx_dec_modified(d, r);
}

/*
 * What rx_decode_word hands each decoded operation to (NULL: nothing).
 * An always-inline function passed here is inlined into every case with
 * the operation known, so that the JIT's encoder switch folds away.
 */
typedef void (*rx_decode_sink)(void *ctx, const rx_insn *in);

/* The end of a decoded operation: to the sink, and 1 for "decoded". */
#define RX_DEC_DONE() do { if (sink) sink(ctx, in); return 1; } while (0)

/*
 * An integer operation: op_r on a register source, op_c on imm if none.
 * The sink is called in each branch, so that each sees its op constant.
 */
static inline __attribute__((always_inline)) int rx_dec_int_rc(
    rx_decoder *d, rx_insn *in, unsigned op_r, unsigned op_c, unsigned dst,
    unsigned src, uint64_t imm, rx_decode_sink sink, void *ctx)
{
	if (src != dst) {
		rx_dec_op(d, in, op_r, dst)->src = (uint8_t)src;
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	}
	rx_dec_op(d, in, op_c, dst)->imm = imm;
	rx_dec_modified(d, dst);
	RX_DEC_DONE();
}

/*
 * rx_decode_word(d, w, in, sink, ctx): decode instruction word w into
 * *in, which becomes operation number d->n (counted before the call), and
 * call sink(ctx, in) if sink is set.  Returns 1, or 0 for a no-op (*in and
 * d unchanged, sink not called).  Always inlined: the JIT's loop depends
 * on it.
 */
static inline __attribute__((always_inline)) int rx_decode_word(
    rx_decoder *d, const uint8_t w[8], rx_insn *in, rx_decode_sink sink,
    void *ctx)
{
	unsigned kind = rx_opcode_kind[w[0]], mod = w[3];
	unsigned dst = w[1] & 7, src = w[2] & 7;
	uint32_t imm32 = le32dec(w + 4);

	switch (kind) {
	case K_IADD_RS:
		rx_dec_op(d, in, RX_OP_IADD_RS, dst);
		in->src = (uint8_t)src;
		in->shift = (uint8_t)((mod >> 2) & 3);
		/* only r5 adds the immediate (the specification's rule) */
		in->imm = dst == 5 ? rx_dec_sext(imm32) : 0;
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	case K_IADD_M:
		rx_dec_int_m(d, in, RX_OP_IADD_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_ISUB_R:
		return rx_dec_int_rc(d, in, RX_OP_ISUB_R, RX_OP_IADD_C, dst, src,
		    0 - rx_dec_sext(imm32), sink, ctx);
	case K_ISUB_M:
		rx_dec_int_m(d, in, RX_OP_ISUB_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_IMUL_R:
		return rx_dec_int_rc(d, in, RX_OP_IMUL_R, RX_OP_IMUL_C, dst, src,
		    rx_dec_sext(imm32), sink, ctx);
	case K_IMUL_M:
		rx_dec_int_m(d, in, RX_OP_IMUL_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_IMULH_R:
		rx_dec_rr(d, in, RX_OP_IMULH_R, dst, src);
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	case K_ISMULH_R:
		rx_dec_rr(d, in, RX_OP_ISMULH_R, dst, src);
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	case K_IMULH_M:
		rx_dec_int_m(d, in, RX_OP_IMULH_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_ISMULH_M:
		rx_dec_int_m(d, in, RX_OP_ISMULH_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_IMUL_RCP:
		if (rx_ss_is_zero_or_power_of_2(imm32))
			return 0;
		rx_dec_op(d, in, RX_OP_IMUL_C, dst)->imm =
		    rx_reciprocal(imm32);
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	case K_INEG_R:
		rx_dec_op(d, in, RX_OP_INEG_R, dst);
		rx_dec_modified(d, dst);
		RX_DEC_DONE();
	case K_IXOR_R:
		return rx_dec_int_rc(d, in, RX_OP_IXOR_R, RX_OP_IXOR_C, dst, src,
		    rx_dec_sext(imm32), sink, ctx);
	case K_IXOR_M:
		rx_dec_int_m(d, in, RX_OP_IXOR_M, dst, src, mod, imm32);
		RX_DEC_DONE();
	case K_IROR_R:
		return rx_dec_int_rc(d, in, RX_OP_IROR_R, RX_OP_IROR_C, dst, src,
		    imm32 & 63, sink, ctx);
	case K_IROL_R:
		/* rotl by n is rotr by 64 - n */
		return rx_dec_int_rc(d, in, RX_OP_IROL_R, RX_OP_IROR_C, dst, src,
		    (64 - (imm32 & 63)) & 63, sink, ctx);
	case K_ISWAP_R:
		if (src == dst)
			return 0;
		rx_dec_rr(d, in, RX_OP_ISWAP_R, dst, src);
		rx_dec_modified(d, dst);
		rx_dec_modified(d, src);
		RX_DEC_DONE();
	case K_FSWAP_R:
		rx_dec_op(d, in, RX_OP_FSWAP_R, dst);
		RX_DEC_DONE();
	case K_FADD_R:
		rx_dec_rr(d, in, RX_OP_FADD_R, dst & 3, src & 3);
		RX_DEC_DONE();
	case K_FADD_M:
		rx_dec_fp_m(d, in, RX_OP_FADD_M, dst & 3, src, mod, imm32);
		RX_DEC_DONE();
	case K_FSUB_R:
		rx_dec_rr(d, in, RX_OP_FSUB_R, dst & 3, src & 3);
		RX_DEC_DONE();
	case K_FSUB_M:
		rx_dec_fp_m(d, in, RX_OP_FSUB_M, dst & 3, src, mod, imm32);
		RX_DEC_DONE();
	case K_FSCAL_R:
		rx_dec_op(d, in, RX_OP_FSCAL_R, dst & 3);
		RX_DEC_DONE();
	case K_FMUL_R:
		rx_dec_rr(d, in, RX_OP_FMUL_R, 4 + (dst & 3), src & 3);
		RX_DEC_DONE();
	case K_FDIV_M:
		rx_dec_fp_m(d, in, RX_OP_FDIV_M, 4 + (dst & 3), src, mod,
		    imm32);
		RX_DEC_DONE();
	case K_FSQRT_R:
		rx_dec_op(d, in, RX_OP_FSQRT_R, 4 + (dst & 3));
		RX_DEC_DONE();
	case K_CBRANCH:
		rx_dec_cbranch(d, in, dst, mod, imm32);
		RX_DEC_DONE();
	case K_CFROUND:
		rx_dec_op(d, in, RX_OP_CFROUND, 0);
		in->src = (uint8_t)src;
		in->imm = imm32 & 63;
		RX_DEC_DONE();
	case K_ISTORE:
		rx_dec_op(d, in, RX_OP_ISTORE, dst);
		in->src = (uint8_t)src;
		in->mask = rx_dec_store_mask(mod);
		in->imm = rx_dec_sext(imm32);
		RX_DEC_DONE();
	default:	/* K_NOP */
		return 0;
	}
}

#undef RX_DEC_DONE

#endif /* !RX_PROGRAM_DECODE_H */
