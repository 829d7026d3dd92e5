/*
 * program.c: program generation, configuration and decoding (see
 * program.h).
 */
#include <stdint.h>
#include <string.h>

#include "randomx/program-decode.h"
#include "sysendian.h"

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
const uint8_t rx_opcode_kind[256] = {
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

unsigned rx_program_decode(const uint8_t *words, unsigned count,
    rx_insn *code)
{
	rx_decoder d;
	unsigned i;

	rx_decoder_init(&d);
	for (i = 0; i < count; i++)
		rx_decode_word(&d, words + 8 * i, &code[d.n], NULL, NULL);
	memset(&code[d.n], 0, sizeof(code[d.n]));
	code[d.n].op = RX_OP_END;
	return d.n;
}
