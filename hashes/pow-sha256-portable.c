/*
 * pow-sha256-portable.c: the portable many-at-once SHA-256 kernels (see
 * pow-hash-impl.h), one message at a time through sha256.c's portable
 * compression function, and the padding table the SIMD kernels share.
 * Compiled with no instruction-set flags; the reference every other
 * kernel set is tested against.
 */
#include <string.h>

#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "sha256.h"
#include "sysendian.h"

/*
 * The padding block of a 64-byte message is W[0] = 0x80000000, W[1 ..
 * 14] = 0, W[15] = 512; W[16 .. 63] follow from those by the message
 * schedule, and K[t] is added so that the kernels need one load per
 * round pair.  tests-hashes recomputes the table from FIPS 180-4.
 */
const uint32_t pow_sha256_pad64_wk[64] __attribute__((aligned(32))) = {
	0xc28a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf374,
	0x649b69c1, 0xf0fe4786, 0x0fe1edc6, 0x240cf254,
	0x4fe9346f, 0x6cc984be, 0x61b9411e, 0x16f988fa,
	0xf2c65152, 0xa88e5a6d, 0xb019fc65, 0xb9d99ec7,
	0x9a1231c3, 0xe70eeaa0, 0xfdb1232b, 0xc7353eb0,
	0x3069bad5, 0xcb976d5f, 0x5a0f118f, 0xdc1eeefd,
	0x0a35b689, 0xde0b7a04, 0x58f4ca9d, 0xe15d5b16,
	0x007f3e86, 0x37088980, 0xa507ea32, 0x6fab9537,
	0x17406110, 0x0d8cd6f1, 0xcdaa3b6d, 0xc0bbbe37,
	0x83613bda, 0xdb48a363, 0x0b02e931, 0x6fd15ca7,
	0x521afaca, 0x31338431, 0x6ed41a95, 0x6d437890,
	0xc39c91f2, 0x9eccabbd, 0xb5c9a0e6, 0x532fb63c,
	0xd2c741c6, 0x07237ea3, 0xa4954b68, 0x4c191d76
};

/*
 * hash32(block, state): state = the SHA-256 state after hashing the
 * 32-byte message in the first half of block (the second half must hold
 * its padding, see set_pad32).
 */
static void hash32(const uint8_t block[64], uint32_t state[8])
{
	memcpy(state, yespower_sha256_H0, sizeof(yespower_sha256_H0));
	yespower_sha256_blocks_portable(state, block, 1);
}

/* The padding of a 32-byte message in the second half of block. */
static void set_pad32(uint8_t block[64])
{
	memset(&block[32], 0, 32);
	block[32] = 0x80;
	be32enc(&block[60], 32 * 8);
}

static void put_state(uint8_t out[32], const uint32_t state[8])
{
	int i;

	for (i = 0; i < 8; i++)
		be32enc(&out[4 * i], state[i]);
}

static void d64_portable(uint8_t *out, const uint8_t *in, size_t n)
{
	uint8_t pad[64] = { 0x80 }, block[64];
	uint32_t state[8];
	size_t i;

	be32enc(&pad[60], 64 * 8);
	set_pad32(block);
	for (i = 0; i < n; i++) {
		memcpy(state, yespower_sha256_H0, sizeof(state));
		yespower_sha256_blocks_portable(state, &in[64 * i], 1);
		yespower_sha256_blocks_portable(state, pad, 1);
		put_state(block, state);
		hash32(block, state);
		put_state(&out[32 * i], state);
	}
	insecure_memzero(block, sizeof(block));
	insecure_memzero(state, sizeof(state));
}

static void recursive_portable(uint8_t *h, size_t chains, uint64_t iters)
{
	uint8_t block[64];
	uint32_t state[8];
	size_t c;
	uint64_t j;

	set_pad32(block);
	for (c = 0; c < chains; c++) {
		memcpy(block, &h[32 * c], 32);
		for (j = 0; j < iters; j++) {
			hash32(block, state);
			put_state(block, state);
		}
		memcpy(&h[32 * c], block, 32);
	}
	insecure_memzero(block, sizeof(block));
	insecure_memzero(state, sizeof(state));
}

const pow_sha256_kernels pow_sha256_kernels_portable = {
	"portable", 0, d64_portable, recursive_portable, 1
};
