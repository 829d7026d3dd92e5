/*
 * tests-rx-cache.c: known answers for the RandomX cache and dataset:
 * BlakeGenerator, IMUL_RCP's reciprocal, SuperscalarHash generation and
 * execution, Argon2d (every instruction set this CPU runs, against the
 * portable code and the reference's answers), the cache words and dataset
 * items of the key "test key 000".
 *
 * The answers are the reference's: those its src/tests/tests.cpp
 * publishes are written here; the others are in rx-cache-vectors.txt,
 * produced by a program linked with the reference's librandomx.a (the file
 * says how).  Usage: tests-rx-cache [vector file]; by default
 * test/randomx/rx-cache-vectors.txt from the top of the tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake2b.h"
#include "sysendian.h"
#include "randomx/argon2d.h"
#include "randomx/blake2-generator.h"
#include "randomx/dataset.h"
#include "randomx/superscalar.h"

static int passed, failed, skipped;
static char skip_why[256];

static void check(const char *what, int ok)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAILED: %s\n", what);
	}
}

static void skip(const char *what)
{
	skipped++;
	printf("skipped: %s\n", what);
	if (!strstr(skip_why, what) && strlen(skip_why) + strlen(what) + 3 <
	    sizeof(skip_why)) {
		if (skip_why[0])
			strcat(skip_why, "; ");
		strcat(skip_why, what);
	}
}

static void *xalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n)) {
		fprintf(stderr, "tests-rx-cache: out of memory (%zu bytes)\n",
		    n);
		exit(2);
	}
	return p;
}

static void to_hex(char *hex, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", b[i]);
}

/* The reference's 8-byte layout of an instruction, little-endian. */
static void program_hash(uint8_t out[32], const rx_ss_program *p)
{
	yespower_blake2b_ctx ctx;
	uint32_t i;

	yespower_blake2b_init(&ctx, 32, NULL, 0);
	for (i = 0; i < p->size; i++) {
		uint8_t b[8];

		b[0] = p->instr[i].opcode;
		b[1] = p->instr[i].dst;
		b[2] = p->instr[i].src;
		b[3] = p->instr[i].mod;
		le32enc(b + 4, p->instr[i].imm32);
		yespower_blake2b_update(&ctx, b, sizeof(b));
	}
	yespower_blake2b_final(&ctx, out);
}

/* ---- published answers (reference src/tests/tests.cpp) ---- */

static void test_reciprocal(void)
{
	static const struct {
		uint32_t d;
		uint64_t r;
	} v[] = {
		{ 3, UINT64_C(12297829382473034410) },
		{ 13, UINT64_C(11351842506898185609) },
		{ 33, UINT64_C(17887751829051686415) },
		{ 65537, UINT64_C(18446462603027742720) },
		{ 15000001, UINT64_C(10316166306300415204) },
		{ 3845182035, UINT64_C(10302264209224146340) },
		{ 0xffffffff, UINT64_C(9223372039002259456) },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char what[64];

		snprintf(what, sizeof(what), "rx_reciprocal(%u)", v[i].d);
		check(what, rx_reciprocal(v[i].d) == v[i].r);
	}
}

static void test_superscalar_generator(void)
{
	static const char *const want[10] = {
		"d3a4a6623738756f77e6104469102f082eff2a3e60be7ad696285ef7dfc72a61",
		"f5e7e0bbc7e93c609003d6359208688070afb4a77165a552ff7be63b38dfbc86",
		"85ed8b11734de5b3e9836641413a8f36e99e89694f419c8cd25c3f3f16c40c5a",
		"5dd956292cf5d5704ad99e362d70098b2777b2a1730520be52f772ca48cd3bc0",
		"6f14018ca7d519e9b48d91af094c0f2d7e12e93af0228782671a8640092af9e5",
		"134be097c92e2c45a92f23208cacd89e4ce51f1009a0b900dbe83b38de11d791",
		"268f9392c20c6e31371a5131f82bd7713d3910075f2f0468baafaa1abd2f3187",
		"c668a05fd909714ed4a91e8d96d67b17e44329e88bc71e0672b529a3fc16be47",
		"99739351315840963011e4c5d8e90ad0bfed3facdcb713fe8f7138fbf01c4c94",
		"14ab53d61880471f66e80183968d97effd5492b406876060e595fcf9682f9295",
	};
	static rx_ss_program prog;
	rx_blake2_generator gen;
	int i;

	rx_blake2_generator_init(&gen, "test key 000", 12, 0);
	for (i = 0; i < 10; i++) {
		uint8_t h[32];
		char hex[65], what[80];

		rx_superscalar_generate(&prog, &gen);
		program_hash(h, &prog);
		to_hex(hex, h, 32);
		snprintf(what, sizeof(what),
		    "SuperscalarHash program %d of \"test key 000\"", i);
		check(what, strcmp(hex, want[i]) == 0);
	}
}

/* Cache words and dataset items of "test key 000", through impl. */
static void test_cache(rx_cache_state *c, uint8_t *memory,
    rx_argon2_impl impl, uint8_t digest[64])
{
	static const struct {
		uint32_t word;
		uint64_t value;
	} words[] = {
		{ 0, UINT64_C(0x191e0e1d23c02186) },
		{ 1568413, UINT64_C(0xf1b62fe6210bf8b1) },
		{ 33554431, UINT64_C(0x1f47f056d05cd99b) },
	};
	static const struct {
		uint64_t item;
		uint64_t word0;
	} items[] = {
		{ 0, UINT64_C(0x680588a85ae222db) },
		{ 10000000, UINT64_C(0x7943a1f6186ffb72) },
		{ 20000000, UINT64_C(0x9035244d718095e1) },
		{ 30000000, UINT64_C(0x145a5091f7853099) },
	};
	const char *name = rx_argon2_impl_name(impl);
	size_t i;

	rx_cache_init(c, memory, "test key 000", 12, impl);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char what[96];

		snprintf(what, sizeof(what), "cache word %u (argon2 %s)",
		    words[i].word, name);
		check(what, le64dec(memory + 8 * (size_t)words[i].word) ==
		    words[i].value);
	}
	yespower_blake2b(digest, 64, NULL, 0, memory, RX_CACHE_BYTES);
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		uint8_t out[64];
		char what[96];

		snprintf(what, sizeof(what), "dataset item %llu (argon2 %s)",
		    (unsigned long long)items[i].item, name);
		rx_dataset_item(c, items[i].item, out);
		check(what, le64dec(out) == items[i].word0);
	}
}

static void test_caches(void)
{
	static const rx_argon2_impl impls[] = {
		RX_ARGON2_PORTABLE, RX_ARGON2_SSSE3, RX_ARGON2_AVX2
	};
	static rx_cache_state c;
	uint8_t *memory = xalloc(RX_CACHE_BYTES);
	uint8_t first[64], digest[64];
	size_t i;

	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		char what[96];

		if (!rx_argon2_impl_available(impls[i])) {
			snprintf(what, sizeof(what), "argon2 %s: not in this "
			    "build or this CPU", rx_argon2_impl_name(impls[i]));
			skip(what);
			continue;
		}
		memset(memory, 0x5a, RX_CACHE_BYTES);
		test_cache(&c, memory, impls[i], i ? digest : first);
		if (i) {
			snprintf(what, sizeof(what), "whole cache, argon2 %s "
			    "= portable", rx_argon2_impl_name(impls[i]));
			check(what, memcmp(first, digest, 64) == 0);
		}
	}
	free(memory);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_reciprocal();
	test_superscalar_generator();
	test_caches();
	printf("tests-rx-cache: %d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d skipped (%s)", skipped, skip_why);
	printf("\n");
	return failed ? 1 : 0;
}
