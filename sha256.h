/*
 * sha256.h: SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and
 * PBKDF2-HMAC-SHA256 (RFC 8018), as used by yespower's front and back ends.
 *
 * Every function here is thread-safe: contexts belong to their caller, and
 * the only global state, the compression function in use (see the end of
 * this file), is chosen once and then read and written atomically.
 */
#ifndef YESPOWER_SHA256_H
#define YESPOWER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Link-time names carry a yespower_ prefix so that a program can link this
 * library together with OpenSSL, libsodium or another SHA-256 without clashes.
 */
#define sha256_init yespower_sha256_init
#define sha256_update yespower_sha256_update
#define sha256_final yespower_sha256_final
#define sha256_buf yespower_sha256_buf
#define hmac_sha256_init yespower_hmac_sha256_init
#define hmac_sha256_update yespower_hmac_sha256_update
#define hmac_sha256_final yespower_hmac_sha256_final
#define hmac_sha256_buf yespower_hmac_sha256_buf
#define pbkdf2_sha256 yespower_pbkdf2_sha256

typedef struct {
	uint32_t state[8];
	uint64_t count;		/* bytes hashed so far */
	uint8_t buf[64];	/* the partial block: count % 64 bytes */
} sha256_ctx;

typedef struct {
	sha256_ctx inner, outer;
} hmac_sha256_ctx;

/* sha256_init(ctx): start a SHA-256 computation. */
void sha256_init(sha256_ctx *ctx);

/* sha256_update(ctx, in, len): hash len more bytes (in may be NULL if len is 0). */
void sha256_update(sha256_ctx *ctx, const void *in, size_t len);

/* sha256_final(ctx, digest): write the 32-byte digest and wipe ctx. */
void sha256_final(sha256_ctx *ctx, uint8_t digest[32]);

/* sha256_buf(in, len, digest): digest = SHA256(in[0 .. len - 1]). */
void sha256_buf(const void *in, size_t len, uint8_t digest[32]);

/*
 * hmac_sha256_init(ctx, key, keylen): start HMAC-SHA256 with a key of any
 * length (keys longer than 64 bytes are hashed first, as RFC 2104 says).
 */
void hmac_sha256_init(hmac_sha256_ctx *ctx, const void *key, size_t keylen);

/* hmac_sha256_update(ctx, in, len): authenticate len more bytes. */
void hmac_sha256_update(hmac_sha256_ctx *ctx, const void *in, size_t len);

/* hmac_sha256_final(ctx, mac): write the 32-byte MAC and wipe ctx. */
void hmac_sha256_final(hmac_sha256_ctx *ctx, uint8_t mac[32]);

/* hmac_sha256_buf(key, keylen, in, len, mac): one-shot HMAC-SHA256. */
void hmac_sha256_buf(const void *key, size_t keylen, const void *in,
    size_t len, uint8_t mac[32]);

/*
 * pbkdf2_sha256(passwd, passwdlen, salt, saltlen, c, buf, dklen):
 * buf[0 .. dklen - 1] = PBKDF2-HMAC-SHA256(passwd, salt, c, dklen).
 * c must be at least 1; dklen may be any length up to (2^32 - 1) * 32.
 * buf may not overlap the password or the salt.
 */
void pbkdf2_sha256(const uint8_t *passwd, size_t passwdlen,
    const uint8_t *salt, size_t saltlen, uint64_t c,
    uint8_t *buf, size_t dklen);

/*
 * The compression function and its implementations, inside the library
 * only.  sha256.c owns the choice: on first use (once, thread-safe) it
 * takes the best this CPU runs (cpu-features.c) that gives the right
 * answers on a known-answer self-test; yespower's dispatcher forwards the
 * sha256=NAME of YESPOWER_IMPL and yespower_set_impl() here.  In a build
 * with only the portable one (YESPOWER_NO_SHANI, or not x86) there is
 * nothing to choose.
 *
 * yespower_sha256_blocks_<impl>(state, in, nblocks): compress nblocks
 * 64-byte blocks at in (any alignment) into state, one after the other.
 * Thread-safe.
 */
typedef void yespower_sha256_blocks_fn(uint32_t state[8], const uint8_t *in,
    size_t nblocks);

/* The 64 round constants, 16-byte aligned, and the initial hash value
 * (sha256.c): every SHA-256 of the library reads these. */
extern const uint32_t yespower_sha256_K[64];
extern const uint32_t yespower_sha256_H0[8];

yespower_sha256_blocks_fn yespower_sha256_blocks_portable;
#if (defined(__x86_64__) || defined(__i386__)) && !defined(YESPOWER_NO_SHANI)
yespower_sha256_blocks_fn yespower_sha256_blocks_shani;	/* sha256-shani.c */
#endif

/* The most compression functions a build has (for tables of names). */
#define YESPOWER_SHA256_IMPLS_MAX 2

/* "No preference": the best this CPU runs. */
#define YESPOWER_SHA256_AUTO ((size_t)-1)

/*
 * yespower_sha256_impl_at(i): the name of this build's compression
 * function i, best first, the portable one last, as an implementation
 * spec writes it ("sha256=shani", "sha256=portable"); NULL past the last.
 * MT-safe.
 */
const char *yespower_sha256_impl_at(size_t i);

/*
 * yespower_sha256_find(name, n, &index): the index of the n-character
 * name ("shani", without "sha256="): 0, or EINVAL (not in this build) or
 * ENOTSUP (this CPU cannot run it).  MT-safe.
 */
int yespower_sha256_find(const char *name, size_t n, size_t *index);

/*
 * yespower_sha256_self_test(i): 1 if compression function i gives the
 * known answers, 0 if not (reported once on stderr).  The test runs once
 * per process.  MT-safe.
 */
int yespower_sha256_self_test(size_t i);

/*
 * yespower_sha256_choose(i): make every SHA-256, HMAC-SHA256 and PBKDF2
 * call that starts from now on use compression function i (or the best,
 * for YESPOWER_SHA256_AUTO), or the portable one if i fails its self-test.
 * MT-safe: a computation already running may finish with either function,
 * and both give the same answer.
 */
void yespower_sha256_choose(size_t i);

/* yespower_sha256_chosen(): the index of the function in use. MT-safe. */
size_t yespower_sha256_chosen(void);

#ifdef __cplusplus
}
#endif

#endif /* !YESPOWER_SHA256_H */
