/*
 * program.h: RandomX programs (specification, chapters 4.5 and 5): the
 * configuration words and instruction words a program is made of, what
 * the configuration sets up, and the decoding of instruction words into
 * the interpreter's form.  Internal.
 *
 * A program is 128 + 8 * size bytes of AesGenerator4R output: 16
 * little-endian configuration words, then size instruction words (opcode,
 * dst, src, mod, imm32 little-endian).  size is 256 in v1, 384 in v2.
 */
#ifndef RX_PROGRAM_H
#define RX_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "randomx/aes.h"
#include "randomx/rx-params.h"

#define RX_PROGRAM_CONFIG_BYTES 128
#define RX_PROGRAM_BYTES(size) (RX_PROGRAM_CONFIG_BYTES + 8 * (size_t)(size))
#define RX_PROGRAM_MAX_BYTES RX_PROGRAM_BYTES(RX_PROGRAM_MAX_SIZE)

/* Scratchpad address masks (table 4.2.1): 8-byte and 64-byte aligned. */
#define RX_L1_MASK ((RX_SCRATCHPAD_L1 - 1) & ~7u)
#define RX_L2_MASK ((RX_SCRATCHPAD_L2 - 1) & ~7u)
#define RX_L3_MASK ((RX_SCRATCHPAD_L3 - 1) & ~7u)
#define RX_L3_MASK64 ((RX_SCRATCHPAD_L3 - 1) & ~63u)

/* The 64-byte-aligned part of ma / mx that addresses the dataset. */
#define RX_DATASET_ADDR_MASK ((uint32_t)((RX_DATASET_BASE_SIZE - 1) & ~63ULL))

/*
 * What a program's configuration words set up (chapter 4.5):
 * a: registers a0..a3 as double bit patterns, a[2i] the low half of ai;
 * ma, mx: the memory registers; read_reg: readReg0..3 (register numbers);
 * dataset_offset: in bytes; e_mask: the group E masks, low and high half,
 * in the form the conversion ORs in (fraction bits 0-21, exponent bits).
 */
typedef struct rx_program_config {
	uint64_t a[8];
	uint32_t ma, mx;
	uint8_t read_reg[4];
	uint64_t dataset_offset;
	uint64_t e_mask[2];
} rx_program_config;

/*
 * The interpreter's operations.  Instruction words decode to these; forms
 * with an immediate source get their own operation, ISUB_R with an
 * immediate becomes IADD_C (of the negation), IROL_R with one IROR_C,
 * IMUL_RCP IMUL_C of the reciprocal, and no-ops (IMUL_RCP of 0 or a power
 * of 2, ISWAP_R of a register with itself) are left out.  END follows the
 * last instruction.
 */
enum rx_op {
	RX_OP_IADD_RS, RX_OP_IADD_M, RX_OP_IADD_C, RX_OP_ISUB_R,
	RX_OP_ISUB_M, RX_OP_IMUL_R, RX_OP_IMUL_M, RX_OP_IMUL_C,
	RX_OP_IMULH_R, RX_OP_IMULH_M, RX_OP_ISMULH_R, RX_OP_ISMULH_M,
	RX_OP_INEG_R, RX_OP_IXOR_R, RX_OP_IXOR_M, RX_OP_IXOR_C,
	RX_OP_IROR_R, RX_OP_IROL_R, RX_OP_IROR_C, RX_OP_ISWAP_R,
	RX_OP_FSWAP_R, RX_OP_FADD_R, RX_OP_FADD_M, RX_OP_FSUB_R,
	RX_OP_FSUB_M, RX_OP_FSCAL_R, RX_OP_FMUL_R, RX_OP_FDIV_M,
	RX_OP_FSQRT_R, RX_OP_CBRANCH, RX_OP_CFROUND, RX_OP_ISTORE,
	RX_OP_END,
	RX_OP_COUNT
};

/*
 * Register 8 of the interpreter's integer file always holds 0: a memory
 * operand whose src is its dst reads from the immediate address alone.
 */
#define RX_REG_ZERO 8

/*
 * One decoded instruction (16 bytes).
 * dst, src: integer registers 0-7 (src may be RX_REG_ZERO); for FP
 *	operations dst indexes f0-f3, e0-e3 as 0-7 (FSWAP_R any, FADD/FSUB/
 *	FSCAL 0-3, FMUL/FDIV/FSQRT 4-7) and src is an a register (0-3) for
 *	the _R forms, an integer register for the _M ones.
 * shift: IADD_RS's shift.  target: CBRANCH's destination, an index into
 *	the decoded program.  mask: the scratchpad address mask of a memory
 *	operand or ISTORE, CBRANCH's condition mask.
 * imm: the sign-extended immediate (address offset, constant, IMUL_C's
 *	multiplier, CBRANCH's cimm, CFROUND's rotation, IROR_C's count).
 */
typedef struct rx_insn {
	uint8_t op;
	uint8_t dst;
	union {
		struct {
			uint8_t src;
			uint8_t shift;
		};
		uint16_t target;
	};
	uint32_t mask;
	uint64_t imm;
} rx_insn;

/*
 * rx_program_size(v2): instructions in a v1 or a v2 program.
 */
static inline unsigned rx_program_size(int v2)
{
	return v2 ? RX_PROGRAM_SIZE_V2 : RX_PROGRAM_SIZE_V1;
}

/*
 * rx_program_generate(aes, seed, bytes, v2):
 * The program of the 64-byte seed: RX_PROGRAM_BYTES(rx_program_size(v2))
 * bytes of AesGenerator4R(seed) into bytes.  seed is not changed.
 * Reentrant, as are the two functions below.
 */
void rx_program_generate(const rx_aes_impl *aes, const uint8_t seed[64],
    uint8_t *bytes, int v2);

/*
 * rx_program_configure(bytes, cfg):
 * The configuration (chapters 4.5.2 to 4.5.6) from a program's first 128
 * bytes.
 */
void rx_program_configure(const uint8_t *bytes, rx_program_config *cfg);

/*
 * rx_program_decode(words, count, code):
 * Decode count instruction words (8 bytes each) into code, which must
 * have room for count + 1 entries; returns how many operations were
 * written before the END that closes them.  CBRANCH targets follow
 * chapter 5.4.2 in the decoded numbering.  Reentrant.
 */
unsigned rx_program_decode(const uint8_t *words, unsigned count,
    rx_insn *code);

#endif /* !RX_PROGRAM_H */
