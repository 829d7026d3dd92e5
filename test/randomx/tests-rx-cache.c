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
#include "randomx/reciprocal.h"
#include "randomx/superscalar.h"

#define RX_TEST_NAME "tests-rx-cache"
#include "rx-tests.h"


static void to_hex(char *hex, const uint8_t *b, size_t n)
{
	util_hex_encode(hex, b, n);
}

/* The reference's 8-byte layout of an instruction, little-endian. */
static void program_hash(uint8_t out[32], const rx_ss_program *p)
{
	pow_blake2b_ctx ctx;
	uint32_t i;

	pow_blake2b_init(&ctx, 32, NULL, 0);
	for (i = 0; i < p->size; i++) {
		uint8_t b[8];

		b[0] = p->instr[i].opcode;
		b[1] = p->instr[i].dst;
		b[2] = p->instr[i].src;
		b[3] = p->instr[i].mod;
		le32enc(b + 4, p->instr[i].imm32);
		pow_blake2b_update(&ctx, b, sizeof(b));
	}
	pow_blake2b_final(&ctx, out);
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

	check("rx_cache_init succeeds",
	    rx_cache_init(c, memory, "test key 000", 12, impl) == 0);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char what[96];

		snprintf(what, sizeof(what), "cache word %u (argon2 %s)",
		    words[i].word, name);
		check(what, le64dec(memory + 8 * (size_t)words[i].word) ==
		    words[i].value);
	}
	pow_blake2b(digest, 64, NULL, 0, memory, RX_CACHE_BYTES);
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
		RX_ARGON2_PORTABLE, RX_ARGON2_SSSE3, RX_ARGON2_AVX2,
		RX_ARGON2_AVX512
	};
	static rx_cache_state c;
	uint8_t *memory = xalloc(RX_CACHE_BYTES);
	uint8_t first[64], digest[64];
	size_t i;

	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		char what[96];

		if (!rx_argon2_impl_available(impls[i]))
			continue;	/* named as skipped by main() */
		memset(memory, 0x5a, RX_CACHE_BYTES);
		test_cache(&c, memory, impls[i], i ? digest : first);
		if (i) {
			snprintf(what, sizeof(what), "whole cache, argon2 %s "
			    "= portable", rx_argon2_impl_name(impls[i]));
			check(what, memcmp(first, digest, 64) == 0);
		}
	}
	/* Refusals leave the cache state and its memory as they were. */
	{
		static rx_cache_state before;
		int untouched = 1;
		size_t j;

		memcpy(&before, &c, sizeof(c));
		memset(memory, 0x77, 4096);
		errno = 0;
		check("rx_cache_init refuses an unknown Argon2d implementation",
		    rx_cache_init(&c, memory, "k", 1, (rx_argon2_impl)99) == -1 &&
		    errno == EINVAL);
		errno = 0;
		check("rx_cache_init refuses a NULL key with a length",
		    rx_cache_init(&c, memory, NULL, 1, RX_ARGON2_PORTABLE) ==
		    -1 && errno == EINVAL);
		for (j = 0; j < 4096; j++)
			untouched &= memory[j] == 0x77;
		check("rx_cache_init refusals touch neither state nor memory",
		    untouched && memcmp(&before, &c, sizeof(c)) == 0);
	}
	free(memory);
}

/* ---- the reference's answers from the vector file ---- */

static const rx_argon2_impl all_impls[] = {
	RX_ARGON2_PORTABLE, RX_ARGON2_SSSE3, RX_ARGON2_AVX2, RX_ARGON2_AVX512
};
#define NIMPLS (sizeof(all_impls) / sizeof(all_impls[0]))


static void test_blake2gen(char *seedhex, unsigned long nonce,
    const char *pattern, const char *want)
{
	uint8_t seed[128];
	long seedlen = from_hex(seedhex, seed, sizeof(seed));
	rx_blake2_generator gen;
	char got[2048] = "", what[160];
	size_t n = 0;
	const char *p;

	if (seedlen < 0) {
		check("vector file: bad blake2gen seed", 0);
		return;
	}
	rx_blake2_generator_init(&gen, seed, (size_t)seedlen, (uint32_t)nonce);
	for (p = pattern; *p && n + 9 < sizeof(got); p++) {
		if (*p == 'b')
			n += (size_t)sprintf(got + n, "%02x",
			    rx_blake2_generator_byte(&gen));
		else
			n += (size_t)sprintf(got + n, "%08x",
			    rx_blake2_generator_u32(&gen));
	}
	snprintf(what, sizeof(what), "BlakeGenerator(%.24s%s, nonce %lu)",
	    seedhex, strlen(seedhex) > 24 ? "..." : "", nonce);
	check(what, strcmp(got, want) == 0);
}

static void test_argon2_vector(unsigned long blocks, unsigned long passes,
    const char *pwdhex, const char *salthex, const char *want)
{
	uint8_t pwd[128], salt[128], h[32];
	long pwdlen = from_hex(pwdhex, pwd, sizeof(pwd));
	long saltlen = from_hex(salthex, salt, sizeof(salt));
	uint8_t *mem = xalloc(blocks * RX_ARGON2_BLOCK_BYTES);
	char hex[65], what[160];
	size_t i;

	for (i = 0; i < NIMPLS; i++) {
		if (!rx_argon2_impl_available(all_impls[i]))
			continue;
		snprintf(what, sizeof(what), "argon2d %s, %lu blocks, %lu "
		    "passes, password %.16s", rx_argon2_impl_name(all_impls[i]),
		    blocks, passes, pwdhex);
		if (pwdlen < 0 || saltlen < 0 || rx_argon2d_fill(mem,
		    (uint32_t)blocks, (uint32_t)passes, pwd, (size_t)pwdlen,
		    salt, (size_t)saltlen, all_impls[i])) {
			check(what, 0);
			continue;
		}
		pow_blake2b(h, 32, NULL, 0, mem,
		    blocks * RX_ARGON2_BLOCK_BYTES);
		to_hex(hex, h, 32);
		check(what, strcmp(hex, want) == 0);
	}
	free(mem);
}

/* The cache the cache lines of one key are checked on (best Argon2d). */
static struct {
	rx_cache_state c;
	uint8_t *memory;
	char keyhex[256];
	int ok;
} vc;

static int vector_cache(const char *keyhex)
{
	uint8_t key[128];
	long keylen;

	if (vc.memory && strcmp(vc.keyhex, keyhex) == 0)
		return vc.ok;
	if (!vc.memory)
		vc.memory = xalloc(RX_CACHE_BYTES);
	snprintf(vc.keyhex, sizeof(vc.keyhex), "%s", keyhex);
	keylen = from_hex(keyhex, key, sizeof(key));
	vc.ok = keylen >= 0;
	if (vc.ok)
		vc.ok = rx_cache_init(&vc.c, vc.memory, key, (size_t)keylen,
		    rx_argon2_impl_best()) == 0;
	else
		check("vector file: bad key", 0);
	return vc.ok;
}

static void test_cachehash(const char *keyhex, const char *want)
{
	uint8_t h[32];
	char hex[65], what[160];

	if (!vector_cache(keyhex))
		return;
	pow_blake2b(h, 32, NULL, 0, vc.memory, RX_CACHE_BYTES);
	to_hex(hex, h, 32);
	snprintf(what, sizeof(what), "whole cache of key %.24s", keyhex);
	check(what, strcmp(hex, want) == 0);
}

static void test_ssprog(const char *keyhex, const long f[9],
    const char *hashwant, const char *regswant)
{
	const rx_ss_program *p;
	uint64_t r[8];
	uint8_t h[32], rb[64];
	char hex[129], what[160];
	int j;

	if (!vector_cache(keyhex))
		return;
	if (f[0] < 0 || f[0] >= RX_CACHE_ACCESSES) {
		check("vector file: bad program index", 0);
		return;
	}
	p = &vc.c.programs[f[0]];
	snprintf(what, sizeof(what), "key %.24s program %ld: statistics",
	    keyhex, f[0]);
	check(what, p->size == (uint32_t)f[1] &&
	    p->address_reg == (uint32_t)f[2] && p->cpu_latency == f[3] &&
	    p->asic_latency == f[4] && p->mul_count == f[5] &&
	    p->code_size == f[6] && p->macro_ops == f[7] &&
	    p->decode_cycles == f[8]);
	program_hash(h, p);
	to_hex(hex, h, 32);
	snprintf(what, sizeof(what), "key %.24s program %ld: instructions",
	    keyhex, f[0]);
	check(what, strcmp(hex, hashwant) == 0);
	for (j = 0; j < 8; j++)
		r[j] = (UINT64_C(0x0123456789abcdef) * (uint64_t)(j + 1)) ^
		    (UINT64_C(0xfedcba9876543210) >> j);
	rx_superscalar_execute(r, p);
	for (j = 0; j < 8; j++)
		le64enc(rb + 8 * j, r[j]);
	to_hex(hex, rb, 64);
	snprintf(what, sizeof(what), "key %.24s program %ld: execution",
	    keyhex, f[0]);
	check(what, strcmp(hex, regswant) == 0);
}

static void test_item(const char *keyhex, unsigned long long n,
    const char *want)
{
	uint8_t out[64], *range;
	char hex[129], what[160];
	unsigned long long first;
	int i, same;

	if (!vector_cache(keyhex))
		return;
	rx_dataset_item(&vc.c, n, out);
	to_hex(hex, out, 64);
	snprintf(what, sizeof(what), "key %.24s dataset item %llu", keyhex, n);
	check(what, strcmp(hex, want) == 0);
	/*
	 * rx_dataset_init writes item m at dataset + 64 * m: give it a base
	 * 64 * first bytes before a buffer of two side-by-side batches and
	 * one item more (the base itself is never touched), with item n in
	 * the first batch; the last item goes through the one-item path.
	 */
	first = n >= RX_SS_BATCH / 2 ? n - RX_SS_BATCH / 2 : 0;
	range = xalloc((2 * RX_SS_BATCH + 1) * 64);
	rx_dataset_init(&vc.c, range - 64 * (size_t)first, first,
	    2 * RX_SS_BATCH + 1);
	to_hex(hex, range + 64 * (size_t)(n - first), 64);
	snprintf(what, sizeof(what), "key %.24s dataset range with %llu",
	    keyhex, n);
	check(what, strcmp(hex, want) == 0);
	for (i = 0, same = 1; i < 2 * RX_SS_BATCH + 1; i++) {
		rx_dataset_item(&vc.c, first + i, out);
		same &= memcmp(out, range + 64 * i, 64) == 0;
	}
	snprintf(what, sizeof(what), "key %.24s dataset range around %llu "
	    "= its items one by one", keyhex, n);
	check(what, same);
	free(range);
}

static int run_vectors(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lines = 0;

	if (!f) {
		fprintf(stderr, "tests-rx-cache: %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char a[1024], b[1024], c[1024], d[1024], e[1024];
		unsigned long x, y;
		unsigned long long n;
		long fl[9];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		lines++;
		if (sscanf(line, "blake2gen %1023s %lu %1023s %1023s", a, &x, b,
		    c) == 4)
			test_blake2gen(a, x, b, c);
		else if (sscanf(line, "argon2d %lu %lu %1023s %1023s %1023s", &x,
		    &y, a, b, c) == 5)
			test_argon2_vector(x, y, a, b, c);
		else if (sscanf(line, "cachehash %1023s %1023s", a, b) == 2)
			test_cachehash(a, b);
		else if (sscanf(line, "ssprog %1023s %ld %ld %ld %ld %ld %ld %ld "
		    "%ld %ld %1023s %1023s", a, &fl[0], &fl[1], &fl[2], &fl[3],
		    &fl[4], &fl[5], &fl[6], &fl[7], &fl[8], d, e) == 12)
			test_ssprog(a, fl, d, e);
		else if (sscanf(line, "item %1023s %llu %1023s", a, &n, b) == 3)
			test_item(a, n, b);
		else
			check("vector file: unknown line", 0);
	}
	fclose(f);
	free(vc.memory);
	vc.memory = NULL;
	return lines;
}

/* ---- the SIMD Argon2d against the portable one on random inputs ---- */

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static void test_argon2_random(int cases)
{
	int k;
	size_t i;

	for (k = 0; k < cases; k++) {
		uint32_t blocks = 8 + 4 * (rng() % 511), passes = 1 + rng() % 4;
		size_t pwdlen = rng() % 100, saltlen = 8 + rng() % 24, bytes;
		uint8_t pwd[100], salt[32], *want, *got;

		bytes = (size_t)blocks * RX_ARGON2_BLOCK_BYTES;
		for (i = 0; i < pwdlen; i++)
			pwd[i] = (uint8_t)rng();
		for (i = 0; i < saltlen; i++)
			salt[i] = (uint8_t)rng();
		want = xalloc(bytes);
		got = xalloc(bytes);
		rx_argon2d_fill(want, blocks, passes, pwd, pwdlen, salt,
		    saltlen, RX_ARGON2_PORTABLE);
		for (i = 1; i < NIMPLS; i++) {
			char what[128];

			if (!rx_argon2_impl_available(all_impls[i]))
				continue;
			snprintf(what, sizeof(what), "argon2d %s = portable, "
			    "random case %d (%u blocks, %u passes)",
			    rx_argon2_impl_name(all_impls[i]), k, blocks,
			    passes);
			memset(got, 0xa5, bytes);
			check(what, rx_argon2d_fill(got, blocks, passes, pwd,
			    pwdlen, salt, saltlen, all_impls[i]) == 0 &&
			    memcmp(want, got, bytes) == 0);
		}
		free(want);
		free(got);
	}
}

/* Parameters outside Argon2's limits: -1, EINVAL, memory untouched. */
static void test_argon2_errors(void)
{
	static const struct {
		uint32_t blocks, passes;
		size_t saltlen;
	} bad[] = { { 4, 1, 8 }, { 10, 1, 8 }, { 8, 0, 8 }, { 8, 1, 7 } };
	uint8_t *mem = xalloc(16 * RX_ARGON2_BLOCK_BYTES), salt[8] = { 0 };
	size_t i, j;
	int untouched;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(mem, 0x33, 16 * RX_ARGON2_BLOCK_BYTES);
		errno = 0;
		check("rx_argon2d_fill rejects invalid parameters",
		    rx_argon2d_fill(mem, bad[i].blocks, bad[i].passes, "", 0,
		    salt, bad[i].saltlen, RX_ARGON2_PORTABLE) == -1 &&
		    errno == EINVAL);
		untouched = 1;
		for (j = 0; j < 16 * RX_ARGON2_BLOCK_BYTES; j++)
			untouched &= mem[j] == 0x33;
		check("rx_argon2d_fill leaves memory alone on error",
		    untouched);
	}
	check("rx_argon2d_fill rejects a NULL password with a length",
	    rx_argon2d_fill(mem, 8, 1, NULL, 1, salt, 8,
	    RX_ARGON2_PORTABLE) == -1 && errno == EINVAL);
	free(mem);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] :
	    "test/randomx/rx-cache-vectors.txt";
	char what[64];
	size_t i;

	for (i = 0; i < NIMPLS; i++) {
		if (!rx_argon2_impl_available(all_impls[i])) {
			snprintf(what, sizeof(what), "argon2 %s: not in this "
			    "build or this CPU", rx_argon2_impl_name(all_impls[i]));
			skip(what);
		}
	}
	test_reciprocal();
	test_superscalar_generator();
	test_argon2_errors();
	test_argon2_random(12);
	if (run_vectors(path) <= 0)
		check("vector file read, with vectors in it", 0);
	test_caches();
	return summary();
}
