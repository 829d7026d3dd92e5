/*
 * superscalar.h: SuperscalarHash (specification, chapter 6): generating a
 * program by simulating the reference CPU, and running it on 8 registers.
 * Internal to the library.
 */
#ifndef RX_SUPERSCALAR_H
#define RX_SUPERSCALAR_H

#include <stdint.h>

#include "blake2-generator.h"
#include "rx-params.h"

/*
 * Instruction types, numbered as the reference numbers them (the numbers
 * are part of the known answers: the reference's test hashes the program
 * bytes).  The C7/C8/C9 forms are the same operation; the digit is the
 * size of the slot the generator put it in.
 */
typedef enum {
	RX_SS_ISUB_R = 0,
	RX_SS_IXOR_R = 1,
	RX_SS_IADD_RS = 2,
	RX_SS_IMUL_R = 3,
	RX_SS_IROR_C = 4,
	RX_SS_IADD_C7 = 5,
	RX_SS_IXOR_C7 = 6,
	RX_SS_IADD_C8 = 7,
	RX_SS_IXOR_C8 = 8,
	RX_SS_IADD_C9 = 9,
	RX_SS_IXOR_C9 = 10,
	RX_SS_IMULH_R = 11,
	RX_SS_ISMULH_R = 12,
	RX_SS_IMUL_RCP = 13,
	RX_SS_COUNT = 14
} rx_ss_opcode;

/*
 * One instruction as the generator emits it, in the reference's 8-byte
 * layout: opcode, dst, src (dst itself when the instruction has no source),
 * mod (IADD_RS shifts by (mod >> 2) & 3), imm32 (IROR_C's count, the
 * constant of IADD_C / IXOR_C sign-extended, IMUL_RCP's divisor).
 */
typedef struct {
	uint8_t opcode;
	uint8_t dst;
	uint8_t src;
	uint8_t mod;
	uint32_t imm32;
} rx_ss_instr;

/*
 * The same instruction decoded for execution: kind is an rx_ss_opcode with
 * the C8/C9 forms folded into C7; k is the shift or rotation count, the
 * sign-extended constant or the reciprocal, ready to use.
 */
typedef struct {
	uint8_t kind;
	uint8_t dst;
	uint8_t src;
	uint8_t shift;
	uint32_t unused;
	uint64_t k;
} rx_ss_op;

/*
 * A generated program.  address_reg is the register with the longest
 * dependency chain (at one cycle per instruction): the dataset takes the
 * next cache index from it.  The statistics are those of the reference
 * CPU's simulation, for tests and curiosity.
 */
typedef struct {
	uint32_t size;			/* instructions, at most MAX_SIZE */
	uint32_t address_reg;		/* 0 .. 7 */
	int cpu_latency;		/* cycle the last result is ready */
	int asic_latency;		/* longest chain, 1 cycle each */
	int mul_count;			/* IMUL_R, IMULH_R, ISMULH_R, IMUL_RCP */
	int code_size;			/* bytes of x86 code */
	int macro_ops;
	int decode_cycles;
	rx_ss_instr instr[RX_SUPERSCALAR_MAX_SIZE];
	rx_ss_op op[RX_SUPERSCALAR_MAX_SIZE];	/* instr, decoded */
} rx_ss_program;

/*
 * rx_superscalar_generate(prog, gen):
 * Generate the next SuperscalarHash program from gen (chapter 6.3), fill
 * in its decoded form (reciprocals included) and statistics.  The same
 * generator state gives the reference's program, byte for byte.
 * Thread-safe for distinct prog and gen.
 */
void rx_superscalar_generate(rx_ss_program *prog, rx_blake2_generator *gen);

/*
 * rx_superscalar_execute(r, prog):
 * Run prog on the registers r[0 .. 7] in place.  Reads prog only, so any
 * number of threads may run one program at once.
 */
void rx_superscalar_execute(uint64_t r[8], const rx_ss_program *prog);

/*
 * rx_superscalar_execute_batch(r, prog):
 * Run prog on RX_SS_BATCH register sets at once: r[j][i] is register j of
 * set i.  Same results as rx_superscalar_execute on each set, faster per
 * set (one dispatch per instruction for all of them; 64 sets measured
 * faster than 8, 16 or 32 on Zen 3).  Reads prog only.
 */
#define RX_SS_BATCH 64
void rx_superscalar_execute_batch(uint64_t r[8][RX_SS_BATCH],
    const rx_ss_program *prog);

#endif /* !RX_SUPERSCALAR_H */
