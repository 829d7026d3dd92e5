/*
 * blake2-generator.h: BlakeGenerator, the pseudo-random byte source of
 * SuperscalarHash generation (specification, chapter 3.5).  Internal.
 */
#ifndef RX_BLAKE2_GENERATOR_H
#define RX_BLAKE2_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

/*
 * The state: 64 bytes of output in hand and how many have been used.
 * Treat as opaque.  One generator must not be used by two threads at once;
 * distinct generators are independent.
 */
typedef struct {
	uint8_t data[64];
	size_t used;
} rx_blake2_generator;

/*
 * rx_blake2_generator_init(gen, seed, seedlen, nonce):
 * Start a generator from seed[0 .. seedlen - 1] (only the first 60 bytes
 * count, as in the reference) and a 32-bit nonce (RandomX uses 0), which
 * fills the state's last 4 bytes, little-endian.  The first byte asked for
 * is the first byte of BLAKE2b-512 of that state.  seed may be NULL when
 * seedlen is 0.
 */
void rx_blake2_generator_init(rx_blake2_generator *gen, const void *seed,
    size_t seedlen, uint32_t nonce);

/*
 * rx_blake2_generator_byte(gen), rx_blake2_generator_u32(gen):
 * The next byte, or the next 4 bytes read as a little-endian number.  When
 * fewer bytes than needed are left unused, the state is first replaced by
 * its BLAKE2b-512 digest (so a 32-bit value never straddles two states).
 */
uint8_t rx_blake2_generator_byte(rx_blake2_generator *gen);
uint32_t rx_blake2_generator_u32(rx_blake2_generator *gen);

#endif /* !RX_BLAKE2_GENERATOR_H */
