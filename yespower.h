/*
 * yespower.h: the public interface of libyespower.
 *
 * yespower is a memory-hard proof-of-work hash: a block header (or any other
 * input) goes in, 32 bytes come out, and the caller compares them with a
 * target.  This interface, its types and their layout are the same as in the
 * original openwall yespower 1.0 release, so a program written against the
 * original builds and links against this library unchanged.
 *
 * Errors: every function returns 0 on success or -1 with errno set.  On any
 * error the hash functions fill *dst with 0xff bytes, the largest possible
 * value, so that a caller who forgets to check the return value still sees a
 * hash that meets no target.
 */
#ifndef YESPOWER_H
#define YESPOWER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>	/* size_t, as the original provides it */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A memory region owned by the library.  Treat it as opaque: it is visible
 * only so that callers can allocate a yespower_local_t themselves (on the
 * stack, in a struct, per thread).
 */
typedef struct {
	void *base, *aligned;
	size_t base_size, aligned_size;
} yespower_region_t;

/* Per-thread working memory for yespower(); see yespower_init_local(). */
typedef yespower_region_t yespower_local_t;

/* The algorithm version: yespower 0.5 (yescrypt 0.5 compatible) or 1.0. */
typedef enum { YESPOWER_0_5 = 5, YESPOWER_1_0 = 10 } yespower_version_t;

/*
 * The parameters of one yespower instance, as a chain defines them.
 * version: YESPOWER_0_5 or YESPOWER_1_0.
 * N: the number of 128*r-byte blocks of memory; a power of 2, 1024 to 524288.
 * r: the block size factor, 8 to 32.  Memory used is 128 * N * r bytes
 *    plus a few hundred KiB.
 * pers, perslen: the personalization string (may be NULL with perslen 0).
 *    In version 0.5 a NULL pers and an empty one give different hashes.
 */
typedef struct {
	yespower_version_t version;
	uint32_t N, r;
	const uint8_t *pers;
	size_t perslen;
} yespower_params_t;

/* A 256-bit yespower hash, in the byte order it is computed in. */
typedef struct {
	unsigned char uc[32];
} yespower_binary_t;

/**
 * yespower_init_local(local):
 * Initialize a working-memory structure.  No memory is allocated yet: the
 * first yespower() call allocates what its parameters need and later calls
 * reuse it, growing it when the parameters grow.
 *
 * Return 0 on success; or -1 on error.
 *
 * MT-safe as long as local is not in use by another thread.
 */
int yespower_init_local(yespower_local_t *local);

/**
 * yespower_free_local(local):
 * Free the memory held by local and leave it initialized and empty, so that
 * it may be used again or freed again.
 *
 * Return 0 on success; or -1 on error (errno set; local is then unchanged).
 *
 * MT-safe as long as local is not in use by another thread.
 */
int yespower_free_local(yespower_local_t *local);

/**
 * yespower(local, src, srclen, params, dst):
 * Compute the yespower hash of src[0 .. srclen - 1] with params into *dst,
 * using (and if needed growing) the working memory in local, which must
 * have been initialized with yespower_init_local().  src may be NULL when
 * srclen is 0.
 *
 * Return 0 on success; or -1 on error: EINVAL for invalid parameters (a
 * version other than 5 or 10, N not a power of 2 in 1024..524288, r not in
 * 8..32, pers NULL with perslen > 0, dst or params NULL), ENOMEM when the
 * memory cannot be allocated.  On error *dst is filled with 0xff bytes and
 * local stays valid.
 *
 * MT-safe as long as local and dst are not in use by another thread.
 */
int yespower(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);

/**
 * yespower_tls(src, srclen, params, dst):
 * Like yespower(), with working memory kept by the library for the calling
 * thread.  The memory is reused across calls and freed when the thread
 * exits.  Where the library cannot keep memory for the thread (every
 * pthread key of the process taken, or the call made from a destructor or
 * atexit handler after the library's own destructor ran), the call uses
 * memory of its own, freed before it returns.  In a child of fork(), the
 * parent's memory is used as the child's own (explicit huge pages it
 * could not keep are replaced by normal ones).
 *
 * Return 0 on success; or -1 on error, as for yespower().
 *
 * MT-safe as long as dst is not in use by another thread.
 */
int yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);

/*
 * Extensions of this library (not in the original API).
 */

/**
 * yespower_b2b(local, src, srclen, params, dst):
 * yespower_b2b_tls(src, srclen, params, dst):
 * "power2b", the variant MicroBitcoin mines with: yespower 1.0 with
 * BLAKE2b-256 in place of SHA-256 for the pre-hash, the PBKDF2 and the final
 * HMAC (an HMAC with 64-byte pads, as MicroBitcoin defines it).
 * params->version must be YESPOWER_1_0 (else EINVAL).  Otherwise the same
 * contracts as yespower() and yespower_tls(), and the same working memory.
 */
int yespower_b2b(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);
int yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);

/**
 * yespower_batch(local, src, srclen, count, params, dst):
 * yespower_batch_tls(src, srclen, count, params, dst):
 * yespower_b2b_batch(local, src, srclen, count, params, dst):
 * yespower_b2b_batch_tls(src, srclen, count, params, dst):
 * Hash count independent inputs src[i] of srclen[i] bytes into dst[i],
 * all with the same parameters: the same answers as count calls of
 * yespower() (or yespower_b2b()), but several are computed interleaved, so
 * that one input's memory and multiply latencies hide behind another's:
 * more hashes per second on one thread, for miners scanning nonces.  A
 * call needs the working memory of up to four hashes.  A batch with
 * count 0 does nothing and succeeds, whatever the other arguments.  dst
 * must not overlap any src[i] or the personalization (the call refuses
 * it: the outputs would be wrong).
 *
 * Return 0 on success; or -1 on error (as yespower(); also EINVAL if src
 * or srclen is NULL with count > 0, any src[i] is NULL with srclen[i] >
 * 0, or dst overlaps an input or the personalization; ENOMEM also when
 * the memory of the hashes interleaved would not fit in a size_t), every
 * dst[i] then all 0xff.
 *
 * MT-safe as long as local (for the non-tls forms) and dst are not in use
 * by another thread.
 */
int yespower_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[]);
int yespower_batch_tls(const uint8_t *const src[], const size_t srclen[],
    size_t count, const yespower_params_t *params, yespower_binary_t dst[]);
int yespower_b2b_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[]);
int yespower_b2b_batch_tls(const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[]);

/*
 * Presets: the parameter sets of real chains, by the names miners and pools
 * use for them ("yespowerr16", "yescryptr16", "power2b", ...).
 */
typedef enum {
	YESPOWER_HASH_SHA256 = 0,	/* yespower proper */
	YESPOWER_HASH_BLAKE2B = 1	/* power2b: yespower_b2b() */
} yespower_hash_t;

typedef struct {
	const char *name;
	yespower_params_t params;	/* pers: the chain's, or NULL */
	int pers_is_input;		/* the input is its own personalization */
	yespower_hash_t hash;
	const char *coins;		/* who uses it, for people */
} yespower_preset_t;

/**
 * yespower_preset_find(name):
 * The preset of that name (ignoring case), or NULL with errno EINVAL.
 *
 * yespower_preset_at(i):
 * The i-th preset, for listing them all; NULL past the last.
 *
 * MT-safe: presets are constant.
 */
const yespower_preset_t *yespower_preset_find(const char *name);
const yespower_preset_t *yespower_preset_at(size_t i);

/**
 * yespower_preset_hash(preset, src, srclen, dst):
 * Hash src as the chain of that preset does (its parameters, its
 * personalization or the input itself as one, SHA-256 or BLAKE2b), with
 * per-thread memory as yespower_tls().
 *
 * Return 0 on success; or -1 on error (errno EINVAL for a NULL preset, or
 * as yespower_tls()), *dst then all 0xff.
 *
 * MT-safe as long as dst is not in use by another thread.
 */
int yespower_preset_hash(const yespower_preset_t *preset,
    const uint8_t *src, size_t srclen, yespower_binary_t *dst);

/**
 * yespower_impl_name():
 * The implementation in use, as "CORE+SHA256": the mixing core
 * ("portable", "sse2", "avx", "xop", "avx512vl", "neon", or "native" in a
 * `make native` build) and the SHA-256 compression function ("portable" or
 * "shani"), e.g. "avx512vl+shani".  By default the best of each this CPU
 * runs, chosen on first use, each checked first on known answers (one that
 * fails is reported on stderr and the portable one used; one whose test
 * finds no memory is stood in for by the portable one until a later hash
 * finds the memory to test it).  The environment
 * variable YESPOWER_IMPL, read at that moment, can name others, with the
 * syntax of yespower_set_impl() (an unusable name is reported on stderr
 * and that part chosen automatically).
 *
 * MT-safe.
 */
const char *yespower_impl_name(void);

/**
 * yespower_set_impl(spec):
 * Use the implementation spec names from now on.  spec is a comma-separated
 * list of "core=NAME" (or just "NAME"), "sha256=NAME", or "CORE+SHA256" as
 * yespower_impl_name() writes it; NAME may be "auto"; a part not named is
 * chosen automatically, and NULL chooses both.  So "sse2,sha256=portable"
 * fixes both, "sha256=portable" only SHA-256.  Meant for tests and
 * benchmarks: every implementation gives the same hashes.
 *
 * Return 0 on success; or -1 with errno EINVAL (an unknown name, a part
 * named twice, an empty spec), ENOTSUP (this CPU cannot run it), EIO (it
 * failed its known-answer self-test) or ENOMEM (no memory to run that
 * test), the choice unchanged.
 *
 * MT-safe: a hash already running finishes with what it started with.
 */
int yespower_set_impl(const char *spec);

/**
 * yespower_impl_at(i):
 * The name of implementation i of this build (i from 0), for listing them:
 * first the mixing cores, best first and "portable" last, then the SHA-256
 * compression functions as "sha256=NAME", likewise; NULL past the end.
 * Each name is one yespower_set_impl() takes; it fails with ENOTSUP for
 * one this CPU cannot run.  The reference implementation lists
 * "reference" alone.
 *
 * MT-safe.
 */
const char *yespower_impl_at(size_t i);

#ifdef __cplusplus
}
#endif

#endif /* !YESPOWER_H */
