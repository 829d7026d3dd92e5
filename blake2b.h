/*
 * BLAKE2b (RFC 7693) and the HMAC / PBKDF2 construction over BLAKE2b-256
 * that MicroBitcoin defined for its "power2b" proof of work (yespower 1.0
 * with BLAKE2b in place of SHA-256).
 *
 * Shared by both libraries (yespower's power2b, RandomX's Argon2d and
 * generator).  Every symbol carries the pow_ prefix of the libraries'
 * shared internals (as cpu-features.h's do) so that a program may link
 * either static library together with libsodium, the BLAKE2 reference
 * code or another copy of MicroBitcoin's blake2b.c without clashes.  No
 * short-name macros are provided on purpose: a macro such as
 * "#define blake2b_init ..." would silently rewrite the other library's
 * declarations in any translation unit that includes both headers.
 *
 * All functions are reentrant and thread-safe: they keep no global state and
 * touch only the memory passed to them.  A single context must not be used
 * by two threads at once.
 */
#ifndef BLAKE2B_H
#define BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POW_BLAKE2B_BLOCKBYTES 128
#define POW_BLAKE2B_OUTBYTES 64
#define POW_BLAKE2B_KEYBYTES 64

/* Output length of the power2b HMAC and of each PBKDF2 block. */
#define POW_HMAC_BLAKE2B256_BYTES 32

/* Treat as opaque; the layout may change. */
typedef struct {
	uint64_t h[8];		/* chaining value */
	uint64_t t[2];		/* bytes compressed so far, 128-bit counter */
	uint8_t buf[POW_BLAKE2B_BLOCKBYTES];
	size_t buflen;		/* 0..128; a full buffer is kept until more
				   input proves it is not the last block */
	size_t outlen;
} pow_blake2b_ctx;

typedef struct {
	pow_blake2b_ctx inner;
	pow_blake2b_ctx outer;
} pow_hmac_blake2b256_ctx;

/*
 * pow_blake2b_init(ctx, outlen, key, keylen):
 * Start a BLAKE2b computation producing outlen bytes, keyed with
 * key[0 .. keylen - 1] (keylen 0 means unkeyed; key may then be NULL).
 * No salt, no personalization, sequential mode (fanout 1, depth 1).
 * Returns 0, or -1 with errno = EINVAL if outlen is 0 or above 64 or keylen
 * is above 64 (ctx is then left untouched).
 */
int pow_blake2b_init(pow_blake2b_ctx *ctx, size_t outlen,
    const void *key, size_t keylen);

/*
 * pow_blake2b_update(ctx, in, inlen):
 * Absorb in[0 .. inlen - 1].  Any split of a message into update calls gives
 * the same digest.  in may be NULL when inlen is 0.
 */
void pow_blake2b_update(pow_blake2b_ctx *ctx,
    const void *in, size_t inlen);

/*
 * pow_blake2b_final(ctx, out):
 * Write the ctx->outlen-byte digest to out and wipe ctx.  ctx must be
 * initialized again before any further use.
 */
void pow_blake2b_final(pow_blake2b_ctx *ctx, uint8_t *out);

/*
 * pow_blake2b(out, outlen, key, keylen, in, inlen):
 * One-shot BLAKE2b of in[0 .. inlen - 1]; same parameters and errors as
 * pow_blake2b_init.  Returns 0, or -1 with errno = EINVAL (out is then
 * not written).
 */
int pow_blake2b(void *out, size_t outlen, const void *key, size_t keylen,
    const void *in, size_t inlen);

/*
 * pow_hmac_blake2b256_init(hctx, key, keylen):
 * Start MicroBitcoin's HMAC-BLAKE2b-256: a key longer than 64 bytes is first
 * replaced by its unkeyed BLAKE2b-256 digest; the (possibly hashed) key is
 * zero-padded to 64 bytes (not BLAKE2b's 128-byte block) and XORed with
 * 0x36 / 0x5c; inner and outer hashes are unkeyed BLAKE2b-256.
 * key may be NULL when keylen is 0.  Cannot fail.
 */
void pow_hmac_blake2b256_init(pow_hmac_blake2b256_ctx *hctx,
    const void *key, size_t keylen);

/*
 * pow_hmac_blake2b256_update(hctx, in, inlen):
 * Absorb in[0 .. inlen - 1] into the MAC; in may be NULL when inlen is 0.
 */
void pow_hmac_blake2b256_update(pow_hmac_blake2b256_ctx *hctx,
    const void *in, size_t inlen);

/*
 * pow_hmac_blake2b256_final(hctx, out):
 * Write the 32-byte MAC to out and wipe hctx.
 */
void pow_hmac_blake2b256_final(pow_hmac_blake2b256_ctx *hctx,
    uint8_t out[POW_HMAC_BLAKE2B256_BYTES]);

/*
 * pow_hmac_blake2b256(out, key, keylen, in, inlen):
 * One-shot HMAC-BLAKE2b-256 as defined above.
 */
void pow_hmac_blake2b256(uint8_t out[POW_HMAC_BLAKE2B256_BYTES],
    const void *key, size_t keylen, const void *in, size_t inlen);

/*
 * pow_pbkdf2_blake2b256(passwd, passwdlen, salt, saltlen, c, buf, dkLen):
 * PBKDF2 (RFC 8018 layout) with HMAC-BLAKE2b-256 as the PRF: 32-byte blocks
 * T_i = U_1 ^ ... ^ U_c, U_1 = HMAC(P, S || INT(i)) with INT(i) the 32-bit
 * big-endian block number counted from 1, U_j = HMAC(P, U_{j-1}); the last
 * block is truncated to fill exactly dkLen bytes of buf.
 * c = 0 gives the same result as c = 1, as in MicroBitcoin's code.
 * dkLen must not exceed 32 * (2^32 - 1); beyond that the block counter would
 * wrap.  passwd / salt may be NULL when their length is 0.
 */
void pow_pbkdf2_blake2b256(const uint8_t *passwd, size_t passwdlen,
    const uint8_t *salt, size_t saltlen, uint64_t c,
    uint8_t *buf, size_t dkLen);

#ifdef __cplusplus
}
#endif

#endif /* !BLAKE2B_H */
