/*
 * program.c: program generation, configuration and decoding (see
 * program.h).
 */
#include <stdint.h>
#include <string.h>

#include "randomx/program.h"
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

/*
 * Each instruction owns RX_FREQ_x consecutive opcodes, in table order;
 * END_x is one past its last.
 */
#define END_IADD_RS RX_FREQ_IADD_RS
#define END_IADD_M (END_IADD_RS + RX_FREQ_IADD_M)
#define END_ISUB_R (END_IADD_M + RX_FREQ_ISUB_R)
#define END_ISUB_M (END_ISUB_R + RX_FREQ_ISUB_M)
#define END_IMUL_R (END_ISUB_M + RX_FREQ_IMUL_R)
#define END_IMUL_M (END_IMUL_R + RX_FREQ_IMUL_M)
#define END_IMULH_R (END_IMUL_M + RX_FREQ_IMULH_R)
#define END_IMULH_M (END_IMULH_R + RX_FREQ_IMULH_M)
#define END_ISMULH_R (END_IMULH_M + RX_FREQ_ISMULH_R)
#define END_ISMULH_M (END_ISMULH_R + RX_FREQ_ISMULH_M)
#define END_IMUL_RCP (END_ISMULH_M + RX_FREQ_IMUL_RCP)
#define END_INEG_R (END_IMUL_RCP + RX_FREQ_INEG_R)
#define END_IXOR_R (END_INEG_R + RX_FREQ_IXOR_R)
#define END_IXOR_M (END_IXOR_R + RX_FREQ_IXOR_M)
#define END_IROR_R (END_IXOR_M + RX_FREQ_IROR_R)
#define END_IROL_R (END_IROR_R + RX_FREQ_IROL_R)
#define END_ISWAP_R (END_IROL_R + RX_FREQ_ISWAP_R)
#define END_FSWAP_R (END_ISWAP_R + RX_FREQ_FSWAP_R)
#define END_FADD_R (END_FSWAP_R + RX_FREQ_FADD_R)
#define END_FADD_M (END_FADD_R + RX_FREQ_FADD_M)
#define END_FSUB_R (END_FADD_M + RX_FREQ_FSUB_R)
#define END_FSUB_M (END_FSUB_R + RX_FREQ_FSUB_M)
#define END_FSCAL_R (END_FSUB_M + RX_FREQ_FSCAL_R)
#define END_FMUL_R (END_FSCAL_R + RX_FREQ_FMUL_R)
#define END_FDIV_M (END_FMUL_R + RX_FREQ_FDIV_M)
#define END_FSQRT_R (END_FDIV_M + RX_FREQ_FSQRT_R)
#define END_CBRANCH (END_FSQRT_R + RX_FREQ_CBRANCH)
#define END_CFROUND (END_CBRANCH + RX_FREQ_CFROUND)
#define END_ISTORE (END_CFROUND + RX_FREQ_ISTORE)
#define END_NOP (END_ISTORE + RX_FREQ_NOP)

_Static_assert(END_NOP == 256, "instruction frequencies must sum to 256");

/*
 * The instruction of every opcode.  Entries default to 0 (K_IADD_RS),
 * which is right for opcodes below END_IADD_RS; every other range is
 * listed.  A zero-frequency instruction would need its range left out.
 */
#define RANGE(k, start) [start ... END_##k - 1] = K_##k
static const uint8_t opcode_kind[256] = {
	RANGE(IADD_M, END_IADD_RS),
	RANGE(ISUB_R, END_IADD_M),
	RANGE(ISUB_M, END_ISUB_R),
	RANGE(IMUL_R, END_ISUB_M),
	RANGE(IMUL_M, END_IMUL_R),
	RANGE(IMULH_R, END_IMUL_M),
	RANGE(IMULH_M, END_IMULH_R),
	RANGE(ISMULH_R, END_IMULH_M),
	RANGE(ISMULH_M, END_ISMULH_R),
	RANGE(IMUL_RCP, END_ISMULH_M),
	RANGE(INEG_R, END_IMUL_RCP),
	RANGE(IXOR_R, END_INEG_R),
	RANGE(IXOR_M, END_IXOR_R),
	RANGE(IROR_R, END_IXOR_M),
	RANGE(IROL_R, END_IROR_R),
	RANGE(ISWAP_R, END_IROL_R),
	RANGE(FSWAP_R, END_ISWAP_R),
	RANGE(FADD_R, END_FSWAP_R),
	RANGE(FADD_M, END_FADD_R),
	RANGE(FSUB_R, END_FADD_M),
	RANGE(FSUB_M, END_FSUB_R),
	RANGE(FSCAL_R, END_FSUB_M),
	RANGE(FMUL_R, END_FSCAL_R),
	RANGE(FDIV_M, END_FMUL_R),
	RANGE(FSQRT_R, END_FDIV_M),
	RANGE(CBRANCH, END_FSQRT_R),
	RANGE(CFROUND, END_CBRANCH),
	RANGE(ISTORE, END_CFROUND)
};
#undef RANGE

void rx_program_generate(const rx_aes_impl *aes, const uint8_t seed[64],
    uint8_t *bytes, int v2)
{
	aes->fill4r(seed, bytes, RX_PROGRAM_BYTES(rx_program_size(v2)));
}

/* +1.fraction x 2^exponent, exponent 0-31 from the top 5 bits (4.5.2). */
static uint64_t small_positive_float(uint64_t entropy)
{
	uint64_t exponent = (entropy >> 59) + 1023;

	return (exponent << 52) | (entropy & ((1ULL << 52) - 1));
}

/*
 * The group E mask of chapter 4.5.6, as the bits a conversion ORs in: the
 * fraction mask (bits 0-21) and an exponent whose bits 8-9 are set and
 * bits 4-7 come from the word's top 4 bits.  With the exponent's low 4
 * bits kept from the converted value and the sign cleared, every E value
 * is positive, at least 2^-255 and below 2.
 */
static uint64_t e_mask(uint64_t entropy)
{
	uint64_t exponent = 0x300 | ((entropy >> 60) << 4);

	return (entropy & ((1ULL << 22) - 1)) | (exponent << 52);
}

void rx_program_configure(const uint8_t *bytes, rx_program_config *cfg)
{
	uint64_t w[16];
	unsigned i;

	for (i = 0; i < 16; i++)
		w[i] = le64dec(bytes + 8 * i);
	for (i = 0; i < 8; i++)
		cfg->a[i] = small_positive_float(w[i]);
	cfg->ma = (uint32_t)w[8] & RX_DATASET_ADDR_MASK;
	cfg->mx = (uint32_t)w[10];
	for (i = 0; i < 4; i++)
		cfg->read_reg[i] = (uint8_t)(2 * i + ((w[12] >> i) & 1));
	cfg->dataset_offset = (w[13] % (RX_DATASET_EXTRA_SIZE / 64 + 1)) * 64;
	cfg->e_mask[0] = e_mask(w[14]);
	cfg->e_mask[1] = e_mask(w[15]);
}

static uint64_t sign_extend(uint32_t x)
{
	return (uint64_t)(int64_t)(int32_t)x;
}

/* The scratchpad level of a load, or of ISTORE (table 5.1.4). */
static uint32_t load_mask(unsigned mod, int same_reg)
{
	if (same_reg)
		return RX_L3_MASK;
	return (mod & 3) ? RX_L1_MASK : RX_L2_MASK;
}

static uint32_t store_mask(unsigned mod)
{
	if ((mod >> 4) >= 14)
		return RX_L3_MASK;
	return (mod & 3) ? RX_L1_MASK : RX_L2_MASK;
}

/*
 * Decoding state: next[r] is where a CBRANCH on integer register r jumps,
 * the decoded instruction after the last one that modified r (0 if none
 * did yet).
 */
typedef struct {
	rx_insn *code;
	unsigned n;
	uint16_t next[8];
} decoder;

static rx_insn *emit(decoder *d, unsigned op, unsigned dst)
{
	rx_insn *in = &d->code[d->n++];

	memset(in, 0, sizeof(*in));
	in->op = (uint8_t)op;
	in->dst = (uint8_t)dst;
	return in;
}

static void modified(decoder *d, unsigned reg)
{
	d->next[reg] = (uint16_t)d->n;
}

/* An integer operation: op_r on a register source, op_c on imm if none. */
static void int_rc(decoder *d, unsigned op_r, unsigned op_c, unsigned dst,
    unsigned src, uint64_t imm)
{
	rx_insn *in;

	if (src != dst) {
		in = emit(d, op_r, dst);
		in->src = (uint8_t)src;
	} else {
		in = emit(d, op_c, dst);
		in->imm = imm;
	}
	modified(d, dst);
}

/* dst = dst OP [mem]: the address is src + imm, or imm alone. */
static void int_m(decoder *d, unsigned op, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	rx_insn *in = emit(d, op, dst);

	in->src = (uint8_t)(src != dst ? src : RX_REG_ZERO);
	in->mask = load_mask(mod, src == dst);
	in->imm = sign_extend(imm32);
	modified(d, dst);
}

/* An FP operation with a memory source (never L3: src is integer). */
static void fp_m(decoder *d, unsigned op, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	rx_insn *in = emit(d, op, dst);

	in->src = (uint8_t)src;
	in->mask = load_mask(mod, 0);
	in->imm = sign_extend(imm32);
}

static void fp_r(decoder *d, unsigned op, unsigned dst, unsigned src)
{
	rx_insn *in = emit(d, op, dst);

	in->src = (uint8_t)src;
}

static void cbranch(decoder *d, unsigned dst, unsigned mod, uint32_t imm32)
{
	unsigned b = (mod >> 4) + RX_JUMP_OFFSET;
	rx_insn *in = emit(d, RX_OP_CBRANCH, dst);
	unsigned r;

	in->target = d->next[dst];
	in->imm = sign_extend(imm32) | (1ULL << b);
	if (b > 0)
		in->imm &= ~(1ULL << (b - 1));
	in->mask = (uint32_t)(((1u << RX_JUMP_BITS) - 1) << b);
	for (r = 0; r < 8; r++)
		modified(d, r);
}

static void decode_one(decoder *d, const uint8_t w[8])
{
	unsigned kind = opcode_kind[w[0]], mod = w[3];
	unsigned dst = w[1] & 7, src = w[2] & 7;
	uint32_t imm32 = le32dec(w + 4);
	rx_insn *in;

	switch (kind) {
	case K_IADD_RS:
		in = emit(d, RX_OP_IADD_RS, dst);
		in->src = (uint8_t)src;
		in->shift = (uint8_t)((mod >> 2) & 3);
		/* only r5 adds the immediate (the specification's rule) */
		in->imm = dst == 5 ? sign_extend(imm32) : 0;
		modified(d, dst);
		break;
	case K_IADD_M:
		int_m(d, RX_OP_IADD_M, dst, src, mod, imm32);
		break;
	case K_ISUB_R:
		int_rc(d, RX_OP_ISUB_R, RX_OP_IADD_C, dst, src,
		    0 - sign_extend(imm32));
		break;
	case K_ISUB_M:
		int_m(d, RX_OP_ISUB_M, dst, src, mod, imm32);
		break;
	case K_IMUL_R:
		int_rc(d, RX_OP_IMUL_R, RX_OP_IMUL_C, dst, src,
		    sign_extend(imm32));
		break;
	case K_IMUL_M:
		int_m(d, RX_OP_IMUL_M, dst, src, mod, imm32);
		break;
	case K_IMULH_R:
	case K_ISMULH_R:
		in = emit(d, kind == K_IMULH_R ? RX_OP_IMULH_R :
		    RX_OP_ISMULH_R, dst);
		in->src = (uint8_t)src;
		modified(d, dst);
		break;
	case K_IMULH_M:
		int_m(d, RX_OP_IMULH_M, dst, src, mod, imm32);
		break;
	case K_ISMULH_M:
		int_m(d, RX_OP_ISMULH_M, dst, src, mod, imm32);
		break;
	case K_IMUL_RCP:
		if (rx_ss_is_zero_or_power_of_2(imm32))
			break;
		in = emit(d, RX_OP_IMUL_C, dst);
		in->imm = rx_reciprocal(imm32);
		modified(d, dst);
		break;
	case K_INEG_R:
		emit(d, RX_OP_INEG_R, dst);
		modified(d, dst);
		break;
	case K_IXOR_R:
		int_rc(d, RX_OP_IXOR_R, RX_OP_IXOR_C, dst, src,
		    sign_extend(imm32));
		break;
	case K_IXOR_M:
		int_m(d, RX_OP_IXOR_M, dst, src, mod, imm32);
		break;
	case K_IROR_R:
		int_rc(d, RX_OP_IROR_R, RX_OP_IROR_C, dst, src, imm32 & 63);
		break;
	case K_IROL_R:
		/* rotl by n is rotr by 64 - n */
		int_rc(d, RX_OP_IROL_R, RX_OP_IROR_C, dst, src,
		    (64 - (imm32 & 63)) & 63);
		break;
	case K_ISWAP_R:
		if (src == dst)
			break;
		in = emit(d, RX_OP_ISWAP_R, dst);
		in->src = (uint8_t)src;
		modified(d, dst);
		modified(d, src);
		break;
	case K_FSWAP_R:
		emit(d, RX_OP_FSWAP_R, dst);
		break;
	case K_FADD_R:
		fp_r(d, RX_OP_FADD_R, dst & 3, src & 3);
		break;
	case K_FADD_M:
		fp_m(d, RX_OP_FADD_M, dst & 3, src, mod, imm32);
		break;
	case K_FSUB_R:
		fp_r(d, RX_OP_FSUB_R, dst & 3, src & 3);
		break;
	case K_FSUB_M:
		fp_m(d, RX_OP_FSUB_M, dst & 3, src, mod, imm32);
		break;
	case K_FSCAL_R:
		emit(d, RX_OP_FSCAL_R, dst & 3);
		break;
	case K_FMUL_R:
		fp_r(d, RX_OP_FMUL_R, 4 + (dst & 3), src & 3);
		break;
	case K_FDIV_M:
		fp_m(d, RX_OP_FDIV_M, 4 + (dst & 3), src, mod, imm32);
		break;
	case K_FSQRT_R:
		emit(d, RX_OP_FSQRT_R, 4 + (dst & 3));
		break;
	case K_CBRANCH:
		cbranch(d, dst, mod, imm32);
		break;
	case K_CFROUND:
		in = emit(d, RX_OP_CFROUND, 0);
		in->src = (uint8_t)src;
		in->imm = imm32 & 63;
		break;
	case K_ISTORE:
		in = emit(d, RX_OP_ISTORE, dst);
		in->src = (uint8_t)src;
		in->mask = store_mask(mod);
		in->imm = sign_extend(imm32);
		break;
	default:	/* K_NOP */
		break;
	}
}

unsigned rx_program_decode(const uint8_t *words, unsigned count,
    rx_insn *code)
{
	decoder d;
	unsigned i;

	d.code = code;
	d.n = 0;
	memset(d.next, 0, sizeof(d.next));
	for (i = 0; i < count; i++)
		decode_one(&d, words + 8 * i);
	emit(&d, RX_OP_END, 0);
	return d.n - 1;
}
