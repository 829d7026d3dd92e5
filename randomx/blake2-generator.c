/*
 * blake2-generator.c: BlakeGenerator (specification, chapter 3.5).
 */
#include <string.h>

#include "blake2b.h"
#include "sysendian.h"
#include "randomx/blake2-generator.h"
#include "randomx/rx-params.h"

void rx_blake2_generator_init(rx_blake2_generator *gen, const void *seed,
    size_t seedlen, uint32_t nonce)
{
	memset(gen->data, 0, sizeof(gen->data));
	if (seedlen > RX_KEY_MAX_BYTES)
		seedlen = RX_KEY_MAX_BYTES;
	if (seedlen)
		memcpy(gen->data, seed, seedlen);
	le32enc(&gen->data[RX_KEY_MAX_BYTES], nonce);
	/* Nothing is in hand yet: the first request hashes the seed. */
	gen->used = sizeof(gen->data);
}

/* Make sure need bytes are left, rehashing the state if they are not. */
static void refill_if_short(rx_blake2_generator *gen, size_t need)
{
	uint8_t next[64];

	if (gen->used + need <= sizeof(gen->data))
		return;
	pow_blake2b(next, sizeof(next), NULL, 0, gen->data,
	    sizeof(gen->data));
	memcpy(gen->data, next, sizeof(next));
	gen->used = 0;
}

uint8_t rx_blake2_generator_byte(rx_blake2_generator *gen)
{
	refill_if_short(gen, 1);
	return gen->data[gen->used++];
}

uint32_t rx_blake2_generator_u32(rx_blake2_generator *gen)
{
	uint32_t x;

	refill_if_short(gen, 4);
	x = le32dec(&gen->data[gen->used]);
	gen->used += 4;
	return x;
}
