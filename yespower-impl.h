/*
 * yespower-impl.h: the interface between the optimized front end
 * (yespower-api.c) and the mixing cores (yespower-opt.c, compiled once per
 * instruction set).  Internal to the library.
 */
#ifndef YESPOWER_IMPL_H
#define YESPOWER_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "yespower.h"

/* One S-box: 2^Swidth entries of 16 bytes (Swidth = 8 in 0.5, 11 in 1.0;
 * v10 nonzero for 1.0).  0.5 uses two boxes, 1.0 three. */
#define YESPOWER_SBOX1(v10) ((size_t)16 << ((v10) ? 11 : 8))
#define YESPOWER_SBYTES_0_5 (2 * YESPOWER_SBOX1(0))
#define YESPOWER_SBYTES_1_0 (3 * YESPOWER_SBOX1(1))
#define YESPOWER_SBYTES(v10) ((v10) ? YESPOWER_SBYTES_1_0 : YESPOWER_SBYTES_0_5)

/*
 * In a batch, hash k's S-boxes start k * YESPOWER_SSTRIDE(v10) bytes after
 * hash 0's.  For 1.0 that is 17 cache lines more than the boxes: at
 * exactly 96 KiB apart, a multiple of 4 KiB, the K hashes' writes into
 * their boxes all fell on the same L1 sets and page offsets, and 1.0
 * batches ran 1 to 5% slower on a Zen 5 (doc/yespower.md, Zen 5
 * (family 26 model 2)); 0.5
 * writes no boxes and showed no difference, so it keeps them back to back.
 */
#define YESPOWER_SGAP_1_0 ((size_t)17 * 64)
#define YESPOWER_SSTRIDE(v10) \
	((v10) ? YESPOWER_SBYTES_1_0 + YESPOWER_SGAP_1_0 : YESPOWER_SBYTES_0_5)

/* The most hashes any core computes interleaved in one call (each core
 * has its own limit, its kmax, at most this). */
#define YESPOWER_KMAX 4

/*
 * yespower_batch_width(params):
 * How many hashes of these (valid) parameters the batch functions
 * interleave on this machine with the core in use, 1 .. its kmax: the
 * number that gives the most hashes per second, chosen from the version,
 * the core, the vendor and the L1 and L2 cache sizes (yespower-api.c says
 * how).  A batch call with at least this many inputs per call runs at
 * that rate.  Thread-safe.
 *
 * yespower_force_batch_width(k):
 * From now on interleave k hashes (at most the core's kmax) whatever the
 * rule says; 0 returns to the rule.  For tests and measurements: it
 * applies to every thread's later calls.
 */
unsigned yespower_batch_width(const yespower_params_t *params);
void yespower_force_batch_width(unsigned k);

/*
 * The parts of a core that `benchmark --components` times.  For version
 * 0.5 or 1.0: SALSA20 is Salsa20/8 or Salsa20/2 on one 64-byte sub-block;
 * BLOCKMIX is BlockMix_pwxform on a 128*r-byte block xored with another
 * (as SMix does it); SMIX1 is SMix's first loop over N blocks, SMIX2 its
 * second loop (about N/3 read-write steps).  The rest time pwxform's rounds
 * alone, one call (6 rounds in 0.5, 3 in 1.0) at a time: PWX_CHAIN one
 * group's dependent chain (no S-box writes), the latency of a round;
 * PWXFORM_1 one hash's sub-block (four chains), PWXFORM_2 to _4 two to
 * four hashes' interleaved as the batch functions run them (_4 only in a
 * core whose kmax is 4).
 */
typedef enum {
	YESPOWER_COMPONENT_SALSA20,
	YESPOWER_COMPONENT_BLOCKMIX,
	YESPOWER_COMPONENT_SMIX1,
	YESPOWER_COMPONENT_SMIX2,
	YESPOWER_COMPONENT_PWX_CHAIN,
	YESPOWER_COMPONENT_PWXFORM_1,
	YESPOWER_COMPONENT_PWXFORM_2,
	YESPOWER_COMPONENT_PWXFORM_3,
	YESPOWER_COMPONENT_PWXFORM_4
} yespower_component_t;

/*
 * A mixing core: SMix for both versions, built for one instruction set.
 *
 * kmax: the most hashes its smix interleaves, 3, or 4 in a core whose
 * instruction set has 32 vector registers (avx512vl on x86-64): four
 * hashes' sub-blocks (16 groups) and their pwxform temporaries do not fit
 * in 16.
 *
 * smix(K, B, r, N, version, V, XY, S):
 * For k = 0 .. K-1 (K from 1 to kmax), replace the 128*r bytes at
 * B[k] (as PBKDF2 produced them) by SMix's output; the K hashes run
 * interleaved.  V[k] (128*r*N bytes), XY[k] (256*r bytes) and S[k]
 * (YESPOWER_SBYTES_* bytes) are each hash's scratch memory, each aligned
 * to 64 bytes.  The K hashes interleave only if their S-boxes lie
 * YESPOWER_SSTRIDE apart, S[k] = S[0] + k * YESPOWER_SSTRIDE(v10) (the
 * batch then needs one box pointer, not one a hash); otherwise they run
 * one at a time.
 * Parameters are valid (the caller checked them).
 * Thread-safe: it touches only the memory given.
 *
 * component(which, version, r, N, count, V, XY, S):
 * Run that part count times on the given memory (sized and aligned as for
 * smix; S is filled from a fixed block first) and return a value that
 * depends on the work done, so that it cannot be optimized away.
 */
typedef struct {
	const char *name;
	unsigned kmax;
	void (*smix)(unsigned K, uint8_t *const B[], uint32_t r, uint32_t N,
	    yespower_version_t version, void *const V[], void *const XY[],
	    void *const S[]);
	uint32_t (*component)(yespower_component_t which,
	    yespower_version_t version, uint32_t r, uint32_t N,
	    uint64_t count, void *V, void *XY, void *S);
} yespower_core_t;

/*
 * The builds of yespower-opt.c; which exist depends on the target and on
 * the Makefile's switches (NO_SSE2=1 defines YESPOWER_NO_SSE2, and so on;
 * `make native` defines YESPOWER_NATIVE and builds only native and
 * portable).
 */
extern const yespower_core_t yespower_core_portable;
#if defined(YESPOWER_NATIVE)
extern const yespower_core_t yespower_core_native;
#elif defined(__x86_64__) || defined(__i386__)
#ifndef YESPOWER_NO_SSE2
extern const yespower_core_t yespower_core_sse2;
#endif
#ifndef YESPOWER_NO_AVX
extern const yespower_core_t yespower_core_avx;
#endif
#ifndef YESPOWER_NO_AVX2
extern const yespower_core_t yespower_core_avx2;
#endif
#ifndef YESPOWER_NO_XOP
extern const yespower_core_t yespower_core_xop;
#endif
#ifndef YESPOWER_NO_AVX512
extern const yespower_core_t yespower_core_avx512vl;
#endif
/*
 * x86-64: each SIMD core also has a twin without the general-register
 * shadow of one hash's pwxform (yespower-opt.c), "NAME-plain".
 */
#if defined(YESPOWER_HAVE_PLAIN)
#ifndef YESPOWER_NO_SSE2
extern const yespower_core_t yespower_core_sse2_plain;
#endif
#ifndef YESPOWER_NO_AVX
extern const yespower_core_t yespower_core_avx_plain;
#endif
#ifndef YESPOWER_NO_AVX2
extern const yespower_core_t yespower_core_avx2_plain;
#endif
#ifndef YESPOWER_NO_XOP
extern const yespower_core_t yespower_core_xop_plain;
#endif
#ifndef YESPOWER_NO_AVX512
extern const yespower_core_t yespower_core_avx512vl_plain;
#endif
#endif
#elif (defined(__aarch64__) || \
    (defined(__arm__) && defined(__ARM_PCS_VFP))) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The Makefile builds "neon" for little-endian aarch64 and hard-float
 * 32-bit ARM; 32-bit ARM runs it only where the kernel reports NEON. */
#define YESPOWER_HAVE_NEON_CORE 1
extern const yespower_core_t yespower_core_neon;
#endif

/* Memory regions: region.h (yespower-platform.c), shared with RandomX. */
#include "region.h"

/*
 * yespower_run_component(which, params, count, result):
 * Time-free driver for the component benchmarks: allocates the working
 * memory for params (version, N, r), runs the selected core's component
 * count times and stores its result.  Returns 0, or -1 with errno (EINVAL
 * for invalid parameters, ENOMEM).  Thread-safe.
 */
int yespower_run_component(yespower_component_t which,
    const yespower_params_t *params, uint64_t count, uint32_t *result);

/*
 * yespower_select_core():
 * The core in use.  On the first call of this, yespower_impl_name() or
 * yespower_set_impl(), the dispatcher detects the CPU's features, reads
 * YESPOWER_IMPL, self-tests and installs the core and the SHA-256
 * compression function (see yespower-dispatch.c).  Thread-safe.
 */
const yespower_core_t *yespower_select_core(void);

#endif /* !YESPOWER_IMPL_H */
