/*
 * dataset.c: the RandomX cache and dataset items (specification, 7).
 */
#include <errno.h>
#include <stdint.h>

#include "sysendian.h"
#include "randomx/blake2-generator.h"
#include "randomx/dataset.h"

int rx_cache_init(rx_cache_state *c, uint8_t *memory, const void *key,
    size_t keylen, rx_argon2_impl impl)
{
	rx_blake2_generator gen;
	int i;

	if (!key && keylen) {
		errno = EINVAL;
		return -1;
	}
	/* The reference gives Argon2d the length as 32 bits: the key's
	 * first keylen mod 2^32 bytes. */
	if (rx_argon2d_fill(memory, RX_ARGON2_MEMORY_KIB, RX_ARGON2_ITERATIONS,
	    key, (uint32_t)keylen, RX_ARGON2_SALT, RX_ARGON2_SALT_BYTES, impl))
		return -1;
	c->memory = memory;
	rx_blake2_generator_init(&gen, key, keylen, 0);
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		rx_superscalar_generate(&c->programs[i], &gen);
	return 0;
}

/* Step 1 of chapter 7.3, with dataset.h's constants. */
void rx_item_registers(uint64_t r[8], uint64_t item_number)
{
	uint64_t r0 = (item_number + 1) * RX_ITEM_MUL;
	int i;

	for (i = 0; i < 8; i++)
		r[i] = r0 ^ rx_item_xor[i];
}

/* The 64-byte cache item a register value selects (its low bits). */
static inline const uint8_t *cache_item(const rx_cache_state *c,
    uint64_t value)
{
	return c->memory + (value & (RX_CACHE_ITEMS - 1)) * RX_DATASET_ITEM_BYTES;
}

void rx_dataset_item(const rx_cache_state *c, uint64_t item_number,
    uint8_t out[64])
{
	uint64_t r[8], index = item_number;
	int i, j;

	rx_item_registers(r, item_number);
	for (i = 0; i < RX_CACHE_ACCESSES; i++) {
		const rx_ss_program *p = &c->programs[i];
		const uint8_t *mix = cache_item(c, index);

		/* The item is needed only after the program: fetch it now. */
		__builtin_prefetch(mix, 0, 0);
		rx_superscalar_execute(r, p);
		for (j = 0; j < 8; j++)
			r[j] ^= le64dec(mix + 8 * j);
		index = r[p->address_reg];
	}
	for (j = 0; j < 8; j++)
		le64enc(out + 8 * j, r[j]);
}

/* Items n .. n + RX_SS_BATCH - 1 into out, computed side by side. */
static void dataset_batch(const rx_cache_state *c, uint64_t n, uint8_t *out)
{
	uint64_t r[8][RX_SS_BATCH], index[RX_SS_BATCH], one[8];
	const uint8_t *mix[RX_SS_BATCH];
	int a, i, j;

	for (i = 0; i < RX_SS_BATCH; i++) {
		rx_item_registers(one, n + (uint64_t)i);
		for (j = 0; j < 8; j++)
			r[j][i] = one[j];
		index[i] = n + (uint64_t)i;
	}
	for (a = 0; a < RX_CACHE_ACCESSES; a++) {
		const rx_ss_program *p = &c->programs[a];

		for (i = 0; i < RX_SS_BATCH; i++) {
			mix[i] = cache_item(c, index[i]);
			__builtin_prefetch(mix[i], 0, 0);
		}
		rx_superscalar_execute_batch(r, p);
		for (i = 0; i < RX_SS_BATCH; i++) {
			for (j = 0; j < 8; j++)
				r[j][i] ^= le64dec(mix[i] + 8 * j);
			index[i] = r[p->address_reg][i];
		}
	}
	for (i = 0; i < RX_SS_BATCH; i++)
		for (j = 0; j < 8; j++)
			le64enc(out + RX_DATASET_ITEM_BYTES * i + 8 * j, r[j][i]);
}

void rx_dataset_init(const rx_cache_state *c, uint8_t *dataset,
    uint64_t start_item, uint64_t item_count)
{
	uint64_t n = start_item, end = start_item + item_count;

	for (; end - n >= RX_SS_BATCH; n += RX_SS_BATCH)
		dataset_batch(c, n, dataset + n * RX_DATASET_ITEM_BYTES);
	for (; n < end; n++)
		rx_dataset_item(c, n, dataset + n * RX_DATASET_ITEM_BYTES);
}
