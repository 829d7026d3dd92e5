/*
 * yespower-hashes.h: the hash functions around SMix, as a family.
 *
 * yespower pre-hashes its input, derives SMix's block with PBKDF2 and
 * finishes with HMAC (and, in 0.5, PBKDF2), all over SHA-256.
 * MicroBitcoin's power2b uses BLAKE2b-256 in each of those places, with an
 * HMAC whose pads are 64 bytes (see blake2b.c).  Both implementations take
 * one of these families so that the two variants share everything else.
 * Internal to the library; thread-safe.
 */
#ifndef YESPOWER_HASHES_H
#define YESPOWER_HASHES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	void (*hash)(const uint8_t *in, size_t len, uint8_t out[32]);
	void (*hmac)(const uint8_t *key, size_t keylen, const uint8_t *in,
	    size_t len, uint8_t out[32]);
	void (*pbkdf2)(const uint8_t *passwd, size_t passwdlen,
	    const uint8_t *salt, size_t saltlen, uint64_t c, uint8_t *buf,
	    size_t dklen);
} yespower_hash_family;

extern const yespower_hash_family yespower_family_sha256;
extern const yespower_hash_family yespower_family_blake2b;

#endif /* !YESPOWER_HASHES_H */
