/*
 * dataset.h: the RandomX cache and dataset (specification, chapter 7).
 * Internal to the library; the VM and the public API use it.
 *
 * The cache is the 256 MiB Argon2d fill of the key plus the 8
 * SuperscalarHash programs generated from BlakeGenerator(key).  A dataset
 * item is computed from the cache alone, so a light client computes items
 * on demand (rx_dataset_item) and a full one computes all of them once
 * (rx_dataset_init, split over threads by item ranges).
 */
#ifndef RX_DATASET_H
#define RX_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "argon2d.h"
#include "rx-params.h"
#include "superscalar.h"

/*
 * The cache.  memory is the caller's: RX_CACHE_BYTES, 64-byte aligned,
 * filled by rx_cache_init and only read afterwards.  programs[i] is
 * SuperscalarHash[i]; each one's reciprocals are in its decoded form
 * (rx_ss_program.op), the reference-format instructions keep the original
 * divisors.
 */
typedef struct rx_cache_state {
	uint8_t *memory;
	rx_ss_program programs[RX_CACHE_ACCESSES];
} rx_cache_state;

/*
 * rx_cache_init(c, memory, key, keylen, impl):
 * Make c the cache of key[0 .. keylen - 1]: Argon2d fills memory
 * (RX_CACHE_BYTES, 64-byte aligned) with impl, and the programs are
 * generated.  key may be NULL when keylen is 0.  The specification allows
 * keys up to 60 bytes; longer ones work as in the reference: Argon2d takes
 * the first keylen mod 2^32 bytes (the reference's 32-bit length), the
 * generator the first 60.  Returns 0, or -1 with errno = EINVAL, c and
 * memory untouched, if impl is not available (rx_argon2_impl_available)
 * or the key is NULL with a length.  Takes a fraction of a second;
 * thread-safe for distinct c and memory.
 */
int rx_cache_init(rx_cache_state *c, uint8_t *memory, const void *key,
    size_t keylen, rx_argon2_impl impl);

/*
 * Step 1 of chapter 7.3: r0 = (item number + 1) * RX_ITEM_MUL and
 * register i = r0 ^ rx_item_xor[i], the XORs taken from BLAKE2b-512 of
 * "RandomX SuperScalarHash initialize" (two of them adjusted so that no
 * two registers are ever equal).  rx_item_registers computes them and the
 * AArch64 SuperscalarHash JIT emits them as literals.  A static table in
 * the header, so that each user's compiler still sees the values.
 */
#define RX_ITEM_MUL UINT64_C(6364136223846793005)
static const uint64_t rx_item_xor[8] = {
	0,
	UINT64_C(9298411001130361340),
	UINT64_C(12065312585734608966),
	UINT64_C(9306329213124626780),
	UINT64_C(5281919268842080866),
	UINT64_C(10536153434571861004),
	UINT64_C(3398623926847679864),
	UINT64_C(9549104520008361294),
};

/*
 * rx_item_registers(r, item_number): step 1 of chapter 7.3, the registers
 * an item's SuperscalarHash starts from (for the compiled SuperscalarHash,
 * which lays them out its own way).
 */
void rx_item_registers(uint64_t r[8], uint64_t item_number);

/*
 * rx_dataset_item(c, item_number, out):
 * Dataset item item_number (0 .. RX_DATASET_ITEMS - 1; larger numbers are
 * computed the same way) into out, 64 bytes, as 8 little-endian words.
 * Reads c only: any number of threads may call it at once on one cache.
 */
void rx_dataset_item(const rx_cache_state *c, uint64_t item_number,
    uint8_t out[64]);

/*
 * rx_dataset_init(c, dataset, start_item, item_count):
 * Items start_item .. start_item + item_count - 1, each written at
 * dataset + 64 * item (dataset is the whole dataset's base, 64-byte
 * aligned).  Threads may fill disjoint ranges of one dataset at once.
 */
void rx_dataset_init(const rx_cache_state *c, uint8_t *dataset,
    uint64_t start_item, uint64_t item_count);

#endif /* !RX_DATASET_H */
