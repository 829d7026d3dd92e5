/*
 * cpu-features.h: what the CPU we run on implements, and what the OS lets
 * it use.  Internal to the libraries (yespower, RandomX, the hashing API):
 * every dispatcher asks here, so the CPU is asked once per process.
 */
#ifndef CPU_FEATURES_H
#define CPU_FEATURES_H

/*
 * Feature bits.  A bit is set only when the instructions run here: the CPU
 * has them and, for AVX and AVX-512, the OS saves the register state they
 * need (XCR0), so that code compiled for them does not fault.
 */
enum {
	POW_CPU_SSE2 = 1u << 0,
	POW_CPU_SSSE3 = 1u << 1,
	POW_CPU_SSE41 = 1u << 2,
	POW_CPU_AVX = 1u << 3,
	POW_CPU_AVX2 = 1u << 4,
	POW_CPU_XOP = 1u << 5,
	POW_CPU_AVX512F = 1u << 6,
	POW_CPU_AVX512VL = 1u << 7,	/* with AVX-512F */
	POW_CPU_AVX512BW = 1u << 8,	/* with AVX-512F */
	POW_CPU_SHANI = 1u << 9,	/* SHA, with SSSE3 and SSE4.1 */
	POW_CPU_AES = 1u << 10,		/* AES-NI, with SSE2 */
	POW_CPU_VAES = 1u << 11,	/* VAES on YMM registers, with AVX2 */
	POW_CPU_BMI2 = 1u << 12,
	POW_CPU_BMI1 = 1u << 13,
	POW_CPU_NEON = 1u << 16,	/* ARM Advanced SIMD */
	/*
	 * Not an instruction set: the vendor string is "GenuineIntel".  A
	 * tuning hint for choices that measured differently on Intel's and
	 * AMD's cores (yespower-dispatch.c); no implementation needs it.
	 */
	POW_CPU_INTEL = 1u << 20
};

/*
 * pow_cpu_features():
 * The POW_CPU_* bits of this CPU, found on the first call and cached.
 * Thread-safe; cheap after the first call.
 */
unsigned pow_cpu_features(void);

/*
 * pow_cpu_has(need):
 * Whether every bit of need is set in pow_cpu_features().
 */
static inline int pow_cpu_has(unsigned need)
{
	return (pow_cpu_features() & need) == need;
}

#endif /* !CPU_FEATURES_H */
