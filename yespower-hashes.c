/*
 * yespower-hashes.c: the SHA-256 and BLAKE2b-256 families of
 * yespower-hashes.h, adapting the primitives to one signature.
 */
#include "blake2b.h"
#include "sha256.h"
#include "yespower-hashes.h"

static void sha256_hash(const uint8_t *in, size_t len, uint8_t out[32])
{
	sha256_buf(in, len, out);
}

static void sha256_hmac(const uint8_t *key, size_t keylen,
    const uint8_t *in, size_t len, uint8_t out[32])
{
	hmac_sha256_buf(key, keylen, in, len, out);
}

static void blake2b256_hash(const uint8_t *in, size_t len, uint8_t out[32])
{
	/* Cannot fail: 32 is a valid output length and there is no key. */
	(void)pow_blake2b(out, 32, NULL, 0, in, len);
}

static void blake2b256_hmac(const uint8_t *key, size_t keylen,
    const uint8_t *in, size_t len, uint8_t out[32])
{
	pow_hmac_blake2b256(out, key, keylen, in, len);
}

const yespower_hash_family yespower_family_sha256 = {
	sha256_hash, sha256_hmac, pbkdf2_sha256
};

const yespower_hash_family yespower_family_blake2b = {
	blake2b256_hash, blake2b256_hmac, pow_pbkdf2_blake2b256
};
