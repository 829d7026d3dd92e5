/*
 * tests-rx-vm.c: the RandomX VM and the public API against known answers.
 *
 * - AES: the specification's constants against their BLAKE2b derivation,
 *   a FIPS-197 round, the reference's published AesGenerator1R answer,
 *   AesGenerator1R/4R, AesHash1R and the fused hash-and-fill against the
 *   reference's answers (rx-vm-vectors.txt), every implementation this
 *   CPU runs; soft against AES-NI on random inputs.
 * - Programs: configuration words against the specification's formulas,
 *   decoding (the reference's tests.cpp checks), every instruction's
 *   result (tests.cpp's values where it has them, otherwise values worked
 *   out from the specification), each rounding mode, CBRANCH jumps,
 *   scratchpad levels; single programs against the reference.
 * - Hashes through randomx.h in light mode: tests.cpp's five v1 and five
 *   v2 answers, its commitment, more answers from the reference, the
 *   batch functions, the caller's rounding mode kept, soft and hard AES.
 * - Full mode: the items a light hash reads (traced) are built in a
 *   dataset with randomx_init_dataset, and a full-mode VM on it must give
 *   the same known hash; dataset slices against rx_dataset_item.  With
 *   RANDOMX_TEST_FULL=1 in the environment the whole dataset is built
 *   (RANDOMX_TEST_THREADS threads, default 2; minutes) and the known
 *   answers are checked in full mode too, by interpreted and (where
 *   built) JIT-compiled VMs.
 * - Flags and misuse: NULL arguments, unknown or unsupported flags, large
 *   pages where the system has none, uninitialized caches, out-of-range
 *   dataset ranges, batch calls out of order: NULL, no effect, or 0xff.
 *
 * One program in five files: this one (helpers, the vector file, main),
 * tests-rx-vm-aes.c, tests-rx-vm-program.c, tests-rx-vm-hash.c (light and
 * full mode) and tests-rx-vm-api.c (flags and misuse).
 *
 * Usage: tests-rx-vm [vector file]; by default
 * test/randomx/rx-vm-vectors.txt from the top of the tree.
 */
#define _GNU_SOURCE 1	/* madvise */

#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "blake2b.h"
#include "cpu-features.h"
#include "sysendian.h"
#include "randomx/aes.h"
#include "randomx/dataset.h"
#include "randomx/jit.h"
#include "randomx/program.h"
#include "randomx/randomx.h"
#include "randomx/vm.h"

#define RX_TEST_NAME "tests-rx-vm"
#include "rx-tests.h"
#include "rx-published.h"



static int equals_hex(const void *p, const char *hex)
{
	uint8_t want[256];
	long n = from_hex(hex, want, sizeof(want));

	return n >= 0 && memcmp(p, want, (size_t)n) == 0;
}

static int all_ff_bytes(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0xff)
			return 0;
	return 1;
}

static void blake2b256(uint8_t out[32], const void *in, size_t len)
{
	pow_blake2b(out, 32, NULL, 0, in, len);
}

static uint64_t rng_state = UINT64_C(0x2545f4914f6cdd1d);

static uint64_t rng64(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * The parts, in the order main runs them (each uses what the ones before
 * it define).
 */
#include "tests-rx-vm-aes.c"
#include "tests-rx-vm-program.c"
#include "tests-rx-vm-hash.c"
#include "tests-rx-vm-api.c"

/* ---- the vector file ---- */

static int run_vectors(const char *path, int pass)
{
	FILE *f = fopen(path, "r");
	static char line[8192];
	int lines = 0;

	if (!f) {
		fprintf(stderr, "tests-rx-vm: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		static char a[4096], b[4096], c[4096], d[4096], e[4096], g[4096];
		unsigned long len;
		unsigned u;
		int v;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		lines++;
		if (sscanf(line, "aes1r %4095s %lu %4095s %4095s %4095s", a, &len,
		    b, c, d) == 5) {
			if (pass == 0)
				test_aes1r_vector(a, len, b, c, d);
		} else if (sscanf(line, "aes4r %4095s %lu %4095s %4095s", a, &len,
		    b, c) == 4) {
			if (pass == 0)
				test_aes4r_vector(a, len, b, c);
		} else if (sscanf(line, "aeshash %4095s %lu %4095s", a, &len,
		    b) == 3) {
			if (pass == 0)
				test_aeshash_vector(a, len, b);
		} else if (sscanf(line, "hashfill %4095s %4095s %lu %4095s "
		    "%4095s %4095s", a, b, &len, c, d, e) == 6) {
			if (pass == 0)
				test_hashfill_vector(a, b, len, c, d, e);
		} else if (sscanf(line, "program %4095s %d %4095s %4095s %4095s "
		    "%4095s %u", a, &v, b, c, d, g, &u) == 7) {
			if (pass == 1)
				test_program_vector(a, v, b, c, d, g, u);
		} else if (sscanf(line, "hash %d %4095s %4095s %4095s %4095s",
		    &v, a, b, c, d) == 5) {
			if (pass == 1)
				add_hash_vector(v, a, b, c, d);
		} else {
			check("vector file: unknown line", 0);
		}
	}
	fclose(f);
	return lines;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "test/randomx/rx-vm-vectors.txt";
	const char *full = getenv("RANDOMX_TEST_FULL");
	randomx_flags argon = randomx_get_flags() & RANDOMX_FLAG_ARGON2;
	randomx_cache *cache1;
	randomx_dataset *ds;

	big1 = xalloc(RX_SCRATCHPAD_L3);
	big2 = xalloc(RX_SCRATCHPAD_L3);
	spad = xalloc(RX_SCRATCHPAD_L3);
	setup_impls();
	test_aes_constants();
	test_aes_fips_round();
	test_aes_published(&rx_aes_soft);
	if (n_impls > 1)
		test_aes_published(impls[1]);
	test_aes_random(60);
	if (run_vectors(path, 0) <= 0)
		check("vector file read, with vectors in it", 0);

	test_opcode_table();
	test_configure();
	test_decode();
	test_integer_ops();
	test_memory_ops();
	test_fp_ops();
	test_cfround();
	test_cbranch();

	cache0 = randomx_alloc_cache(argon);
	cache1 = randomx_alloc_cache(argon);
	if (!cache0 || !cache1) {
		fprintf(stderr, "tests-rx-vm: no memory for two caches\n");
		return 2;
	}
	randomx_init_cache(cache0, "test key 000", 12);
	randomx_init_cache(cache0, "test key 000", 12);	/* does nothing */
	randomx_init_cache(cache1, "test key 001", 12);
	run_vectors(path, 1);
	test_flags();
	test_published_hashes(cache0, cache1);
	test_batch(cache0);
	test_rounding_kept(cache0);
	test_misuse(cache1);
	test_long_key(cache1);
	test_memory_released();
	test_hash_vectors(cache1);

	ds = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
	if (!ds) {
		check("dataset allocated (2080 MiB of address space)", 0);
	} else {
#ifdef MADV_NOHUGEPAGE
		/* only a few thousand items get built: keep them 4 KiB apart */
		madvise(randomx_get_dataset_memory(ds),
		    (size_t)randomx_dataset_item_count() * 64, MADV_NOHUGEPAGE);
#endif
		test_dataset_slices(ds);
		test_full_traced(ds);
		randomx_release_dataset(ds);
	}
	if (full && !strcmp(full, "1"))
		test_full_dataset(cache1);
	else
		skip("the whole dataset: set RANDOMX_TEST_FULL=1 (minutes)");

	randomx_release_cache(cache0);
	randomx_release_cache(cache1);
	free(big1);
	free(big2);
	free(spad);
	return summary();
}

