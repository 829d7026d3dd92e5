/*
 * cpu.h: every choice RandomX makes from the CPU, in one place (cpu.c).
 *
 * The CPU is asked once per process (cpu-features.c, shared with the other
 * modules); each implementation choice of the module is a row of cpu.c's
 * table: what it needs from the CPU, and whether this build has code for
 * it.  aes.c, argon2d.c and the JIT compilers ask here and nowhere else.
 * Internal.
 */
#ifndef RX_CPU_H
#define RX_CPU_H

#include "cpu-features.h"

typedef enum {
	RX_USE_AESNI,		/* aes.c: AES-NI for the generators and hash */
	RX_USE_ARMV8_AES,	/* aes.c: ARMv8's AESE/AESMC likewise */
	RX_USE_ARGON2_SSSE3,	/* argon2d.c's fills, each ISA's own file */
	RX_USE_ARGON2_AVX2,
	RX_USE_ARGON2_AVX512,
	RX_USE_JIT_MULX,	/* the JITs: BMI2's MULX for high products */
	RX_USE_JIT_SS_AVX2,	/* SuperscalarHash JIT: items in AVX2 lanes */
	/* program JIT: v1 as four copies with AVX-512's rounding */
	RX_USE_JIT_ROUNDING_COPIES,
	RX_USE_COUNT
} rx_cpu_use;

/*
 * rx_cpu_uses(u):
 * 1 if the module uses implementation u here: this build has it and the
 * CPU (and OS) can run it; for the JIT's rows, the features not withheld by
 * rx_jit_limit_features.  Thread-safe (the first call probes the CPU).
 */
int rx_cpu_uses(rx_cpu_use u);

/*
 * rx_jit_features(), rx_jit_limit_features(mask):
 * The CPU features the JIT compilers use (POW_CPU_BMI2 for MULX,
 * POW_CPU_AVX2 for the vector SuperscalarHash, POW_CPU_AVX512F for the
 * rounding copies), and a way for tests to withhold some (mask: the ones
 * allowed; ~0u for all), so that every code path runs here.  Takes effect
 * at the next compile; not to be called while another thread compiles.
 * The other rows (AES, Argon2d) are not affected: their implementations
 * are chosen by name in the tests.
 */
unsigned rx_jit_features(void);
void rx_jit_limit_features(unsigned mask);

#endif /* !RX_CPU_H */
