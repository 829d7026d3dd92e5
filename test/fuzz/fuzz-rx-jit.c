/*
 * test/fuzz/fuzz-rx-jit.c: the RandomX JIT against the interpreter (the
 * executable specification) on programs taken from fuzz data.
 *
 * LLVMFuzzerTestOneInput() is the libFuzzer entry point (make
 * fuzz-smoke-rx-jit); test/fuzz/replay.c calls the same function on the
 * files of a corpus without libFuzzer (make check-fuzz-replay).  Every
 * byte string decodes to a RandomX program, so the fuzzer mutates
 * instruction words, immediates and the program's configuration directly.
 * One input is read as:
 *
 *   byte 0  bit 0:    v2 (else v1);
 *           bit 1:    software AES (else AES-NI where the CPU has it);
 *           bits 2-3: the rounding mode the program starts in;
 *           bit 4:    the JIT without BMI2 (its other encodings);
 *           bit 5:    light mode: dataset items computed from a cache
 *                     (else full mode, on a dataset that reads as zeros);
 *           bit 6:    light mode: items by the interpreted SuperscalarHash
 *                     (else compiled);
 *           bit 7:    the JIT without AVX-512 (v1's rounding modes through
 *                     MXCSR, else as four copies where the CPU has it);
 *   byte 1  the scratchpad's seed (one of 256 AES-filled scratchpads);
 *   bytes 2-9  light mode: the key of the SuperscalarHash programs;
 *   the rest: the program (configuration and instructions), repeated to
 *             its full length when shorter; an empty rest is all zeros.
 *
 * The register files, the rounding modes after and the scratchpads must
 * agree (rx-jit-diff.c); a difference aborts with what differed printed.
 * Light mode runs on a cache of fixed pseudo-random contents (not Argon2d:
 * only the two computations' agreement is checked, and building one per
 * key would cost seconds).  Elsewhere than on x86-64 there is no JIT and
 * every input is accepted as is.
 */
#define _GNU_SOURCE 1

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cpu-features.h"
#include "randomx/aes.h"
#include "randomx/blake2-generator.h"
#include "randomx/dataset.h"
#include "randomx/jit.h"
#include "randomx/program.h"
#include "randomx/rx-params.h"
#include "test/randomx/rx-jit-diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if RX_HAVE_JIT

/* What every input shares, set up at the first one. */
static struct {
	int ready;
	rx_jit_diff d;
	uint8_t *zero_dataset;
	uint8_t *sp_init;
	uint8_t *cache_memory;
	const rx_aes_impl *aes_hard;
	rx_ss_jit *ss;
} fz;

static void *must(void *p, const char *what)
{
	if (!p) {
		fprintf(stderr, "fuzz-rx-jit: no memory for %s\n", what);
		abort();
	}
	return p;
}

static void *aligned(size_t n, const char *what)
{
	void *p = NULL;

	return must(posix_memalign(&p, 64, n) ? NULL : p, what);
}

/* A cache of pseudo-random contents (xorshift64), the same every run. */
static void fill_cache(uint8_t *m)
{
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15), *w = (uint64_t *)(void *)m;
	size_t i;

	for (i = 0; i < RX_CACHE_BYTES / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

static void setup(void)
{
	void *z;

	/* a dataset that reads as zeros: untouched anonymous pages */
	z = mmap(NULL, (size_t)RX_DATASET_BYTES, PROT_READ,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	fz.zero_dataset = must(z == MAP_FAILED ? NULL : z, "a dataset");
	fz.sp_init = aligned(RX_SCRATCHPAD_L3, "a scratchpad");
	fz.d.sp_interp = aligned(RX_SCRATCHPAD_L3, "a scratchpad");
	fz.d.sp_jit = aligned(RX_SCRATCHPAD_L3, "a scratchpad");
	fz.cache_memory = aligned(RX_CACHE_BYTES, "a cache");
	fill_cache(fz.cache_memory);
	fz.d.jit = must(rx_jit_vm_new(0), "the JIT");
	fz.ss = must(rx_ss_jit_new(0), "the SuperscalarHash JIT");
	fz.aes_hard = rx_aes_hard();
	fz.ready = 1;
}

/* The cache state of an 8-byte key: its SuperscalarHash programs. */
static void light_cache(rx_cache_state *c, const uint8_t key[8])
{
	rx_blake2_generator gen;
	int i;

	c->memory = fz.cache_memory;
	rx_blake2_generator_init(&gen, key, 8, 0);
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		rx_superscalar_generate(&c->programs[i], &gen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t prog[RX_PROGRAM_MAX_BYTES];
	static rx_cache_state cache;
	uint8_t mode = size > 0 ? data[0] : 0, seed[64], key[8] = { 0 };
	int v2 = mode & 1, light = (mode >> 5) & 1;
	const rx_aes_impl *aes;
	size_t len, i, body = size > 10 ? size - 10 : 0;
	int rc;

	if (!fz.ready)
		setup();
	aes = (mode & 2) || !fz.aes_hard ? &rx_aes_soft : fz.aes_hard;
	memset(seed, size > 1 ? data[1] : 0, sizeof(seed));
	aes->fill1r(seed, fz.sp_init, RX_SCRATCHPAD_L3);
	len = RX_PROGRAM_BYTES(rx_program_size(v2));
	for (i = 0; i < len; i++)
		prog[i] = body ? data[10 + i % body] : 0;

	fz.d.dataset = light ? NULL : fz.zero_dataset;
	fz.d.cache = NULL;
	fz.d.ss = NULL;
	if (light) {
		memcpy(key, data + 2, size >= 10 ? 8 : 0);
		light_cache(&cache, key);
		fz.d.cache = &cache;
		if (!(mode & 0x40)) {
			if (rx_ss_jit_compile(fz.ss, &cache)) {
				fprintf(stderr, "fuzz-rx-jit: SuperscalarHash "
				    "did not compile\n");
				abort();
			}
			fz.d.ss = fz.ss;
		}
	}
	rx_jit_limit_features((mode & 0x10 ? ~(unsigned)POW_CPU_BMI2 : ~0u) &
	    (mode & 0x80 ? ~(unsigned)POW_CPU_AVX512F : ~0u));
	rc = rx_jit_diff_run(&fz.d, prog, v2, aes, (mode >> 2) & 3,
	    fz.sp_init);
	rx_jit_limit_features(~0u);
	if (rc) {
		fprintf(stderr, "fuzz-rx-jit: %s (mode byte %02x, %s mode, "
		    "v%d): %s\n", rc < 0 ? "the program did not compile" :
		    "JIT and interpreter differ", mode, light ? "light" :
		    "full", v2 + 1, rc < 0 ? "" : fz.d.what);
		abort();
	}
	return 0;
}

#else /* !RX_HAVE_JIT */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}

#endif
