/*
 * flip-hash.c: the negative control of tests-monerod.sh, preloaded
 * (LD_PRELOAD) into one monerod only, never built into the library.  It
 * stands between monerod and librandomx's randomx_calculate_hash and
 * flips the top bit of the hash's last byte, the most significant bit of
 * the 256-bit little-endian number monerod compares with its target.
 *
 * So the daemon that carries it takes a block for solved exactly when the
 * true hash has that bit set, and a true hash of 2^255 or more fails every
 * difficulty above 1: a daemon computing the true hash must reject every
 * block this one mines, not just most of them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef void calculate_hash_fn(void *machine, const void *input,
    size_t input_size, void *output);

void randomx_calculate_hash(void *machine, const void *input,
    size_t input_size, void *output)
{
	static calculate_hash_fn *next;

	/* A data race at worst stores the same pointer twice. */
	if (!next) {
		next = (calculate_hash_fn *)dlsym(RTLD_NEXT,
		    "randomx_calculate_hash");
		if (!next) {
			fprintf(stderr, "flip-hash: no randomx_calculate_hash "
			    "after this library\n");
			abort();
		}
	}
	next(machine, input, input_size, output);
	((unsigned char *)output)[31] ^= 0x80;
}
