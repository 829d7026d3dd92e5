/*
 * pow-hash-impl.h: the inside of the hashing API (pow-hash.h): the
 * kernels each instruction set provides, the dispatcher's choice, and
 * the helpers the API's files share.  Internal to the library.
 *
 * A kernel set is a table of functions that all compute the same thing;
 * pow-hash-dispatch.c checks each with known answers and picks one.
 * Each set lives in its own translation unit, compiled with its
 * instruction set's flags (see the Makefile), and is only called when
 * pow_cpu_features() says the CPU runs it.
 */
#ifndef POW_HASH_IMPL_H
#define POW_HASH_IMPL_H

#include <stddef.h>
#include <stdint.h>

/*
 * out[32 i ..] = SHA-256d(in[64 i .. 64 i + 63]) for i < n.  out is in,
 * or does not overlap it; so a kernel reads all of a group's inputs
 * before it writes any of the group's outputs.
 */
typedef void pow_d64_fn(uint8_t *out, const uint8_t *in, size_t n);

/*
 * Each of the chains 32-byte values at h (one after the other) becomes
 * SHA-256 applied iters times to it, in place.
 */
typedef void pow_recursive_fn(uint8_t *h, size_t chains, uint64_t iters);

/* out[32 i ..] = SHA3-256(in[64 i .. 64 i + 63]); aliasing as pow_d64_fn. */
typedef void pow_sha3_64_fn(uint8_t *out, const uint8_t *in, size_t n);

typedef struct {
	const char *name;
	unsigned need;			/* POW_CPU_* bits */
	pow_d64_fn *d64;
	pow_recursive_fn *recursive;
	/* How many chains the recursive kernel interleaves at best, so that
	 * callers splitting work between threads give each a multiple. */
	size_t chains_per_core;
} pow_sha256_kernels;

typedef struct {
	const char *name;
	unsigned need;
	pow_sha3_64_fn *sha3_64;
} pow_keccak_kernels;

/* The kernel sets, one per file (the ones this build and target have). */
extern const pow_sha256_kernels pow_sha256_kernels_portable;
#if defined(__x86_64__) || defined(__i386__)
#ifndef POW_NO_SHANI
extern const pow_sha256_kernels pow_sha256_kernels_shani;	/* VEX */
extern const pow_sha256_kernels pow_sha256_kernels_shani_sse;
#endif
#ifndef POW_NO_AVX512
extern const pow_sha256_kernels pow_sha256_kernels_avx512;
extern const pow_keccak_kernels pow_keccak_kernels_avx512;
#endif
#ifndef POW_NO_AVX2
extern const pow_sha256_kernels pow_sha256_kernels_avx2;
extern const pow_keccak_kernels pow_keccak_kernels_avx2;
#endif
#ifndef POW_NO_SSE2
extern const pow_sha256_kernels pow_sha256_kernels_sse2;
#endif
#endif
extern const pow_keccak_kernels pow_keccak_kernels_portable;

/* The AVX-512 sets' code on emulated lanes in plain C (-DPOW_SIMD_EMU16,
 * -DPOW_KECCAK_EMU8): linked into the tests only, never dispatched. */
extern const pow_sha256_kernels pow_sha256_kernels_avx512emu;
extern const pow_keccak_kernels pow_keccak_kernels_avx512emu;

#if (defined(__x86_64__) || defined(__i386__)) && !defined(POW_NO_SHANI)
/*
 * The "shani" kernels at a given width (1 to 4 streams), for the
 * benchmark's per-width rows (pow-sha256-shani.c).
 */
void pow_sha256_shani_d64_ways(uint8_t *out, const uint8_t *in, size_t n,
    int ways);
void pow_sha256_shani_recursive_ways(uint8_t *h, size_t chains,
    uint64_t iters, int ways);
#endif

/*
 * The kernels in use, after the first-use choice and self-tests
 * (pow-hash-dispatch.c).  Thread-safe; never NULL.
 */
const pow_sha256_kernels *pow_sha256_in_use(void);

/* The set that vector sets hand their few leftover messages to: SHA-NI's
 * where the CPU has it (after its self-test), else the portable one. */
const pow_sha256_kernels *pow_sha256_rest_kernels(void);
const pow_keccak_kernels *pow_keccak_in_use(void);

/*
 * Make sure the streaming SHA-256 uses the library's chosen compression
 * function (yespower's dispatcher chooses it, once per process).
 */
void pow_hash_ensure_ready(void);

/*
 * Every kernel set of the build, for the tests and the benchmark: the
 * i-th, or NULL past the last.  Whether the CPU runs it is in ->need.
 */
const pow_sha256_kernels *pow_sha256_kernels_at(size_t i);
const pow_keccak_kernels *pow_keccak_kernels_at(size_t i);

/* ---- shared pieces ---- */

/* SHA-256's initial state is sha256.c's yespower_sha256_H0. */

/*
 * W[t] + K[t] for the second block of a 64-byte message: the padding
 * block, 0x80 then zeros then the length 512 (bits), whose schedule is
 * the same for every message (pow-sha256-portable.c).
 */
extern const uint32_t pow_sha256_pad64_wk[64];

/*
 * Keccak-f[1600] on one state, 24 rounds (pow-keccak.c), and its round
 * constants.  Lane i is state[x + 5 y] with i = x + 5 y, each lane a
 * little-endian 64-bit word of the byte string.
 */
void pow_keccakf1600_portable(uint64_t state[25]);

/* out[32 i ..] = SHA3-256(in[64 i ..]) for i < n, width (at most 8) at a
 * time through group, the rest as pow-keccak.c says; out may be in. */
void pow_sha3_64_groups(uint8_t *out, const uint8_t *in, size_t n,
    size_t width, void (*group)(uint8_t *out, const uint8_t *in));
extern const uint64_t pow_keccak_rc[24];

/*
 * pow_parallel(threads, parts, fn, arg): call fn(arg, p) once for each
 * p < parts, spread over `threads` threads (the caller's included;
 * threads already validated, >= 1).  Returns when all are done.  Threads
 * that cannot be started leave their share to the others.
 */
void pow_parallel(int threads, size_t parts,
    void (*fn)(void *arg, size_t part), void *arg);

/*
 * pow_threads_valid(threads): the thread count to use for a `threads`
 * argument (0 means one per online CPU), or 0 if it is out of range.
 */
int pow_threads_valid(int threads);

#endif /* !POW_HASH_IMPL_H */
