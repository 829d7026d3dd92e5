/*
 * pow-hash.h: the hashing API of libyespower, the SHA-256 and SHA3-256
 * work around proof-of-work hashes.
 *
 *   SHA-256 (FIPS 180-4), streaming and one-shot; double SHA-256;
 *   HMAC-SHA256 (RFC 2104); PBKDF2-HMAC-SHA256 (RFC 8018);
 *   pow_sha256d64: many independent 64-byte inputs to their double
 *   SHA-256 at once (Bitcoin Core's SHA256D64);
 *   recursive SHA-256 of a 32-byte value (h = SHA-256(h), n times), one
 *   chain or many at once;
 *   Bitcoin's transaction merkle root of N 32-byte leaves;
 *   SHA3-256 (FIPS 202), streaming and one-shot, and many 64-byte inputs
 *   at once;
 *   binary Merkle roots of 2^k 32-byte leaves with SHA3-256 or SHA-256d,
 *   on as many threads as the caller asks.
 *
 * The many-at-once functions run on the fastest implementation this CPU
 * has (SHA-NI, AVX-512, AVX2, SSE2 or portable C for SHA-256; AVX-512,
 * AVX2 or portable C for Keccak), chosen on first use after a
 * known-answer self-test; see pow_hash_impl_name().  Where the CPU runs
 * both SHA-NI and AVX-512, the two are timed side by side on first use
 * and the faster is chosen.  Every implementation gives the same
 * answers.
 *
 * Errors.  Every function that can fail returns 0 on success and -1 with
 * errno set to EINVAL on invalid arguments: a NULL pointer where there
 * must be data (a NULL input is allowed with length 0, a NULL output
 * with count 0), a thread count out of range, a leaf count that is not
 * a power of two where one is required, 0 PBKDF2 iterations.  On error,
 * digests and roots are filled with 0xff bytes where the output pointer
 * is not NULL (a caller who forgets to check sees no valid-looking
 * answer), and nothing is left allocated.
 *
 * Threads.  Every function is thread-safe: contexts belong to their
 * caller (one context must not be used by two threads at once), and the
 * only shared state is the implementation choice, which changes
 * atomically.  The functions with a `threads` argument use that many
 * threads of their own (POSIX threads, started and joined within the
 * call): 1 is the calling thread alone, 0 means one per online CPU,
 * and at most POW_HASH_MAX_THREADS.  If a thread cannot be started, the
 * others do its share: the answer never depends on the thread count.
 *
 * Byte order.  Digests are bytes as the standards define them.  Bitcoin
 * shows txids and merkle roots reversed (the hash as a little-endian
 * number, most significant byte first); pass leaves and read roots in
 * the order they are hashed, which is the order they have inside blocks.
 */
#ifndef POW_HASH_H
#define POW_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest `threads` argument accepted. */
#define POW_HASH_MAX_THREADS 256

/* ---- SHA-256 ---- */

/*
 * A SHA-256 computation in progress.  The fields are the library's; the
 * layout is fixed so that contexts can live on the caller's stack.
 */
typedef struct {
	uint32_t state[8];
	uint64_t count;		/* bytes hashed so far */
	uint8_t buf[64];	/* the partial block */
} pow_sha256_ctx;

/* pow_sha256_init(ctx): start a SHA-256 computation.  -1 if ctx is NULL. */
int pow_sha256_init(pow_sha256_ctx *ctx);

/*
 * pow_sha256_update(ctx, in, len): hash len more bytes at in (NULL is
 * allowed when len is 0).
 */
int pow_sha256_update(pow_sha256_ctx *ctx, const void *in, size_t len);

/*
 * pow_sha256_final(ctx, digest): write the 32-byte digest of everything
 * hashed since pow_sha256_init() and wipe ctx; start again with
 * pow_sha256_init().
 */
int pow_sha256_final(pow_sha256_ctx *ctx, uint8_t digest[32]);

/* pow_sha256(in, len, digest): digest = SHA-256(in[0 .. len - 1]). */
int pow_sha256(const void *in, size_t len, uint8_t digest[32]);

/*
 * pow_sha256d(in, len, digest): digest = SHA-256(SHA-256(in)), Bitcoin's
 * hash of headers and transactions.  digest may overlap in.
 */
int pow_sha256d(const void *in, size_t len, uint8_t digest[32]);

/* ---- HMAC-SHA256 and PBKDF2 ---- */

typedef struct {
	pow_sha256_ctx inner, outer;
} pow_hmac_sha256_ctx;

/*
 * pow_hmac_sha256_init(ctx, key, keylen): start HMAC-SHA256 with a key of
 * any length (longer than 64 bytes: its SHA-256 is the key, RFC 2104).
 */
int pow_hmac_sha256_init(pow_hmac_sha256_ctx *ctx, const void *key,
    size_t keylen);

/* pow_hmac_sha256_update(ctx, in, len): authenticate len more bytes. */
int pow_hmac_sha256_update(pow_hmac_sha256_ctx *ctx, const void *in,
    size_t len);

/* pow_hmac_sha256_final(ctx, mac): write the 32-byte MAC and wipe ctx. */
int pow_hmac_sha256_final(pow_hmac_sha256_ctx *ctx, uint8_t mac[32]);

/* pow_hmac_sha256(key, keylen, in, len, mac): one-shot HMAC-SHA256. */
int pow_hmac_sha256(const void *key, size_t keylen, const void *in,
    size_t len, uint8_t mac[32]);

/*
 * pow_pbkdf2_sha256(passwd, passwdlen, salt, saltlen, c, dk, dklen):
 * dk[0 .. dklen - 1] = PBKDF2-HMAC-SHA256(passwd, salt, c iterations).
 * c >= 1; dklen at most (2^32 - 1) * 32.  dk may overlap the password or
 * the salt (both are absorbed before dk is written).
 */
int pow_pbkdf2_sha256(const void *passwd, size_t passwdlen,
    const void *salt, size_t saltlen, uint64_t c, uint8_t *dk,
    size_t dklen);

/* ---- many SHA-256 at once ---- */

/*
 * pow_sha256d64(out, in, blocks): for each i < blocks,
 * out[32 i .. 32 i + 31] = SHA-256(SHA-256(in[64 i .. 64 i + 63])), as
 * Bitcoin Core's SHA256D64: one level of a merkle tree.  out may be
 * exactly in (the level is then computed in place); no other overlap.
 */
int pow_sha256d64(uint8_t *out, const uint8_t *in, size_t blocks);

/*
 * pow_sha256_recursive(out, in, n): hash the 32-byte value in n times,
 * h = SHA-256(h), and write the result to out (which may be in).  n = 0
 * copies in.  One dependent chain: its speed is the latency of the
 * compression function, whatever the CPU.
 */
int pow_sha256_recursive(uint8_t out[32], const uint8_t in[32], uint64_t n);

/*
 * pow_sha256_recursive_chains(out, in, chains, n, threads): the same for
 * `chains` independent 32-byte values at in (32 bytes each, one after the
 * other), each hashed n times, into out (which may be in; no other
 * overlap).  Several chains interleave on one core, which is what fills a
 * CPU's hashing units; threads share the chains out.
 */
int pow_sha256_recursive_chains(uint8_t *out, const uint8_t *in,
    size_t chains, uint64_t n, int threads);

/*
 * pow_merkle_root_bitcoin(root, leaves, count, mutated, threads):
 * Bitcoin's merkle root of the `count` 32-byte leaves (txids, or wtxids
 * with the coinbase's set to zero, in block order): pairs are hashed with
 * SHA-256d level by level, and a level with an odd number of nodes
 * pairs its last node with itself.  count = 1 gives the leaf itself;
 * count = 0 gives 32 zero bytes, as Bitcoin Core's ComputeMerkleRoot.
 *
 * Because of the duplication, different leaf lists can have the same
 * root (CVE-2012-2459): [a, b, c] and [a, b, c, c] do, and so does any
 * list whose tail repeats at a level.  A block with such a list is
 * invalid (it spends a transaction twice), but its header is the valid
 * block's, so a node that marks the header invalid because of the
 * mutated copy would refuse the real block.  If mutated is not NULL,
 * *mutated is set to 1 when some level has two equal nodes at positions
 * 2j and 2j + 1 (the check Bitcoin Core makes), else 0: a block with
 * *mutated set must be rejected without marking its header as invalid.
 * threads as described at the top of this file.
 */
int pow_merkle_root_bitcoin(uint8_t root[32], const uint8_t *leaves,
    size_t count, int *mutated, int threads);

/*
 * pow_merkle_root_sha256d(root, leaves, count, threads): the binary
 * Merkle root of `count` 32-byte leaves, count a power of two (1, 2, 4,
 * ...), each node the SHA-256d of its two children's 64 bytes; count = 1
 * gives the leaf.  For these counts it equals Bitcoin's root.
 */
int pow_merkle_root_sha256d(uint8_t root[32], const uint8_t *leaves,
    size_t count, int threads);

/* ---- SHA3-256 ---- */

/* A SHA3-256 computation in progress; the fields are the library's. */
typedef struct {
	uint64_t lanes[25];	/* the Keccak state */
	size_t have;		/* bytes absorbed into the current block */
} pow_sha3_256_ctx;

/* pow_sha3_256_init(ctx): start a SHA3-256 computation. */
int pow_sha3_256_init(pow_sha3_256_ctx *ctx);

/* pow_sha3_256_update(ctx, in, len): hash len more bytes. */
int pow_sha3_256_update(pow_sha3_256_ctx *ctx, const void *in, size_t len);

/* pow_sha3_256_final(ctx, digest): write the 32-byte digest, wipe ctx. */
int pow_sha3_256_final(pow_sha3_256_ctx *ctx, uint8_t digest[32]);

/* pow_sha3_256(in, len, digest): digest = SHA3-256(in[0 .. len - 1]). */
int pow_sha3_256(const void *in, size_t len, uint8_t digest[32]);

/*
 * pow_sha3_256_64(out, in, blocks): for each i < blocks, out[32 i ..] =
 * SHA3-256(in[64 i .. 64 i + 63]): one level of a SHA3-256 Merkle tree.
 * out may be exactly in; no other overlap.
 */
int pow_sha3_256_64(uint8_t *out, const uint8_t *in, size_t blocks);

/*
 * pow_merkle_root_sha3_256(root, leaves, count, threads): the binary
 * Merkle root of `count` 32-byte leaves, count a power of two, each node
 * SHA3-256(left || right); count = 1 gives the leaf.
 */
int pow_merkle_root_sha3_256(uint8_t root[32], const uint8_t *leaves,
    size_t count, int threads);

/* ---- implementations ---- */

/*
 * pow_hash_impl_name(): the implementations in use, as
 * "sha256=NAME,keccak=NAME".  For the many-at-once SHA-256 functions
 * (pow_sha256d64, the recursive functions, both merkle roots) NAME is
 * shani (SHA-NI with AVX encoding, up to 4 messages interleaved),
 * shani-sse (the same for CPUs with SHA-NI but no AVX), avx512 (16
 * messages in vector lanes), avx2 (8), sse2 (4) or portable (the vector
 * sets hand single messages and a few left over to SHA-NI where the CPU
 * has it, else to portable C); for the
 * many-at-once SHA3-256 functions avx512 (8 states in vector lanes), avx2
 * (4) or portable.  The streaming and one-shot SHA-256,
 * HMAC and PBKDF2 use the compression function yespower uses (see
 * yespower_impl_name(); SHA-NI where the CPU has it).  The string is
 * static.  Thread-safe.
 */
const char *pow_hash_impl_name(void);

/*
 * pow_hash_set_impl(spec): choose implementations, for tests and
 * benchmarks.  spec lists items separated by commas, "sha256=NAME" and
 * "keccak=NAME", NAME as above or "auto" (the best this CPU runs); a part
 * not named is chosen automatically, and NULL or "" chooses both.  -1
 * with errno EINVAL for a malformed spec or an unknown name, ENOTSUP for
 * an implementation this CPU cannot run, EIO if it fails its known-answer
 * self-test; nothing changes then.  The environment variable
 * POW_HASH_IMPL, read on first use, takes the same spec (a bad one is
 * reported on stderr and the automatic choice used).  Calls already
 * running finish with either implementation, which give the same
 * answers.  Thread-safe.
 */
int pow_hash_set_impl(const char *spec);

#ifdef __cplusplus
}
#endif

#endif /* !POW_HASH_H */
