/*
 * rx-params.h: the parameters of RandomX (the specification's table 1.2.1
 * and the instruction frequencies of its tables 5.2.1 to 5.5.1), with the
 * sizes derived from them.  Internal to the library; every RandomX file
 * takes its numbers from here.
 *
 * These are the values Monero uses.  Changing one gives another proof of
 * work, whose known answers this library's tests do not have.
 */
#ifndef RX_PARAMS_H
#define RX_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* Cache construction (Argon2d, chapter 7.1) */
#define RX_ARGON2_MEMORY_KIB 262144	/* RANDOMX_ARGON_MEMORY: 1 KiB blocks */
#define RX_ARGON2_ITERATIONS 3		/* RANDOMX_ARGON_ITERATIONS */
#define RX_ARGON2_LANES 1		/* RANDOMX_ARGON_LANES */
#define RX_ARGON2_SALT "RandomX\x03"	/* RANDOMX_ARGON_SALT */
#define RX_ARGON2_SALT_BYTES (sizeof(RX_ARGON2_SALT) - 1)

/* Dataset (chapters 6 and 7) */
#define RX_CACHE_ACCESSES 8		/* RANDOMX_CACHE_ACCESSES */
#define RX_SUPERSCALAR_LATENCY 170	/* RANDOMX_SUPERSCALAR_LATENCY */
#define RX_DATASET_BASE_SIZE 2147483648ULL	/* RANDOMX_DATASET_BASE_SIZE */
#define RX_DATASET_EXTRA_SIZE 33554368ULL	/* RANDOMX_DATASET_EXTRA_SIZE */

/* The virtual machine (chapters 4 and 5) */
#define RX_PROGRAM_SIZE_V1 256		/* RANDOMX_PROGRAM_SIZE, RandomX v1 */
#define RX_PROGRAM_SIZE_V2 384		/* RANDOMX_PROGRAM_SIZE, RandomX v2 */
#define RX_PROGRAM_MAX_SIZE 384
#define RX_PROGRAM_ITERATIONS 2048	/* RANDOMX_PROGRAM_ITERATIONS */
#define RX_PROGRAM_COUNT 8		/* RANDOMX_PROGRAM_COUNT */
#define RX_JUMP_BITS 8			/* RANDOMX_JUMP_BITS */
#define RX_JUMP_OFFSET 8		/* RANDOMX_JUMP_OFFSET */
#define RX_SCRATCHPAD_L3 2097152	/* RANDOMX_SCRATCHPAD_L3, bytes */
#define RX_SCRATCHPAD_L2 262144		/* RANDOMX_SCRATCHPAD_L2, bytes */
#define RX_SCRATCHPAD_L1 16384		/* RANDOMX_SCRATCHPAD_L1, bytes */

/* Instruction frequencies, out of 256 opcodes (they sum to 256) */
#define RX_FREQ_IADD_RS 16
#define RX_FREQ_IADD_M 7
#define RX_FREQ_ISUB_R 16
#define RX_FREQ_ISUB_M 7
#define RX_FREQ_IMUL_R 16
#define RX_FREQ_IMUL_M 4
#define RX_FREQ_IMULH_R 4
#define RX_FREQ_IMULH_M 1
#define RX_FREQ_ISMULH_R 4
#define RX_FREQ_ISMULH_M 1
#define RX_FREQ_IMUL_RCP 8
#define RX_FREQ_INEG_R 2
#define RX_FREQ_IXOR_R 15
#define RX_FREQ_IXOR_M 5
#define RX_FREQ_IROR_R 8
#define RX_FREQ_IROL_R 2
#define RX_FREQ_ISWAP_R 4
#define RX_FREQ_FSWAP_R 4
#define RX_FREQ_FADD_R 16
#define RX_FREQ_FADD_M 5
#define RX_FREQ_FSUB_R 16
#define RX_FREQ_FSUB_M 5
#define RX_FREQ_FSCAL_R 6
#define RX_FREQ_FMUL_R 32
#define RX_FREQ_FDIV_M 4
#define RX_FREQ_FSQRT_R 6
#define RX_FREQ_CBRANCH 25
#define RX_FREQ_CFROUND 1
#define RX_FREQ_ISTORE 16
#define RX_FREQ_NOP 0

/* Derived sizes */
#define RX_ARGON2_BLOCK_BYTES 1024
#define RX_CACHE_BYTES ((size_t)RX_ARGON2_MEMORY_KIB * 1024)
#define RX_DATASET_ITEM_BYTES 64
#define RX_CACHE_ITEMS (RX_CACHE_BYTES / RX_DATASET_ITEM_BYTES)
#define RX_DATASET_BYTES (RX_DATASET_BASE_SIZE + RX_DATASET_EXTRA_SIZE)
#define RX_DATASET_ITEMS (RX_DATASET_BYTES / RX_DATASET_ITEM_BYTES)
#define RX_SUPERSCALAR_MAX_SIZE (3 * RX_SUPERSCALAR_LATENCY + 2)
#define RX_KEY_MAX_BYTES 60	/* longer keys: BlakeGenerator uses 60 */

#endif /* !RX_PARAMS_H */
