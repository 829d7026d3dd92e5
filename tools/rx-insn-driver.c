/*
 * rx-insn-driver.c: RandomX hashes between two markers that
 * tools/rx-insn-count.c (a QEMU plugin) counts the guest instructions of.
 * Written against the reference's public API only (randomx.h), so that
 * the same source links with this library and with tevador/RandomX's.
 *
 * Usage: rx-insn-driver [--jit] [--hard-aes] [--v2] [--secure] HASHES
 * Light mode: the cache is built before the first marker; one hash warms
 * the VM up (its first program compiles the code buffer's fixed parts);
 * then HASHES hashes of distinct inputs run between the markers
 * (write() of 1, then 2 bytes on descriptor -1, which fails with EBADF
 * and does nothing else).  Prints the last hash.  Exits 1 if the flags
 * are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "randomx.h"

static void marker(size_t kind)
{
	static const char dot[2] = "..";

	if (write(-1, dot, kind) != -1)
		fprintf(stderr, "rx-insn-driver: the marker wrote\n");
}

int main(int argc, char **argv)
{
	randomx_flags flags = RANDOMX_FLAG_DEFAULT;
	randomx_cache *cache;
	randomx_vm *vm;
	char in[32];
	unsigned char hash[32];
	long n = -1, i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--jit"))
			flags |= RANDOMX_FLAG_JIT;
		else if (!strcmp(argv[a], "--hard-aes"))
			flags |= RANDOMX_FLAG_HARD_AES;
		else if (!strcmp(argv[a], "--v2"))
			flags |= RANDOMX_FLAG_V2;
		else if (!strcmp(argv[a], "--secure"))
			flags |= RANDOMX_FLAG_SECURE;
		else
			n = strtol(argv[a], NULL, 10);
	}
	if (n < 0) {
		fprintf(stderr, "usage: rx-insn-driver [--jit] [--hard-aes] "
		    "[--v2] [--secure] HASHES\n");
		return 2;
	}
	cache = randomx_alloc_cache(flags & ~RANDOMX_FLAG_V2);
	if (!cache) {
		fprintf(stderr, "rx-insn-driver: flags %d refused\n", flags);
		return 1;
	}
	randomx_init_cache(cache, "test key 000", 12);
	vm = randomx_create_vm(flags, cache, NULL);
	if (!vm) {
		fprintf(stderr, "rx-insn-driver: flags %d refused\n", flags);
		return 1;
	}
	randomx_calculate_hash(vm, "warm-up", 7, hash);
	marker(1);
	for (i = 0; i < n; i++) {
		snprintf(in, sizeof(in), "input %ld", i);
		randomx_calculate_hash(vm, in, strlen(in), hash);
	}
	marker(2);
	for (i = 0; i < 32; i++)
		printf("%02x", hash[i]);
	printf("\n");
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);
	return 0;
}
