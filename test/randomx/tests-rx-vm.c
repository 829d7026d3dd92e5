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

/* ---- AES ---- */

static const rx_aes_impl *impls[2];
static int n_impls;

static void setup_impls(void)
{
	impls[n_impls++] = &rx_aes_soft;
	if (rx_aes_hard())
		impls[n_impls++] = rx_aes_hard();
	else
		skip("AES-NI: not in this build or this CPU");
}

/* The constants are BLAKE2b of their names (chapter 3). */
static void test_aes_constants(void)
{
	uint8_t h[64];

	pow_blake2b(h, 64, NULL, 0, "RandomX AesGenerator1R keys", 27);
	check("AesGenerator1R keys = Hash512(name)",
	    !memcmp(h, rx_aes_gen1r_keys, 64));
	pow_blake2b(h, 64, NULL, 0, "RandomX AesGenerator4R keys 0-3", 31);
	check("AesGenerator4R keys 0-3 = Hash512(name)",
	    !memcmp(h, rx_aes_gen4r_keys, 64));
	pow_blake2b(h, 64, NULL, 0, "RandomX AesGenerator4R keys 4-7", 31);
	check("AesGenerator4R keys 4-7 = Hash512(name)",
	    !memcmp(h, rx_aes_gen4r_keys + 64, 64));
	pow_blake2b(h, 64, NULL, 0, "RandomX AesHash1R state", 23);
	check("AesHash1R state = Hash512(name)",
	    !memcmp(h, rx_aes_hash1r_state, 64));
	pow_blake2b(h, 32, NULL, 0, "RandomX AesHash1R xkeys", 23);
	check("AesHash1R xkeys = Hash256(name)",
	    !memcmp(h, rx_aes_hash1r_xkeys, 32));
}

/*
 * FIPS-197 appendix B: the state at the start of round 1, round key 1,
 * and the state at the start of round 2 are one AESENC apart.
 */
static void test_aes_fips_round(void)
{
	uint8_t s[16], k[16];

	from_hex("193de3bea0f4e22b9ac68d2ae9f84808", s, 16);
	from_hex("a0fafe1788542cb123a339392a6c7605", k, 16);
	rx_aes_enc_round_soft(s, k);
	check("soft AESENC: FIPS-197 round 1",
	    equals_hex(s, "a49c7ff2689f352b6b5bea43026a5049"));
}

/* tests.cpp's AesGenerator1R answer. */
static void test_aes_published(const rx_aes_impl *aes)
{
	uint8_t state[64] = { 0 }, out[64];
	char what[96];

	from_hex("6c19536eb2de31b6c0065f7f116e86f960d8af0c57210a6584c3237b9d0"
	    "64dc7", state, 32);
	aes->fill1r(state, out, 64);
	snprintf(what, sizeof(what), "AesGenerator1R %s: tests.cpp's answer",
	    aes->name);
	check(what, equals_hex(out, "fa89397dd6ca422513aeadba3f124b5540324c4a"
	    "d4b6db434394307a17c833ab"));
	check("AesGenerator1R writes back its final state",
	    !memcmp(state, out, 64));
}

/* v2's F/E mixing is four rounds with e0..e3 as keys (4.6.2 step 10). */
static void mix_fe_by_rounds(uint64_t f[8], const uint64_t e[8])
{
	uint8_t col[4][16], key[16];
	unsigned i, j;

	for (i = 0; i < 4; i++) {
		le64enc(col[i], f[2 * i]);
		le64enc(col[i] + 8, f[2 * i + 1]);
	}
	for (j = 0; j < 4; j++) {
		le64enc(key, e[2 * j]);
		le64enc(key + 8, e[2 * j + 1]);
		rx_aes_enc_round_soft(col[0], key);
		rx_aes_dec_round_soft(col[1], key);
		rx_aes_enc_round_soft(col[2], key);
		rx_aes_dec_round_soft(col[3], key);
	}
	for (i = 0; i < 4; i++) {
		f[2 * i] = le64dec(col[i]);
		f[2 * i + 1] = le64dec(col[i] + 8);
	}
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng64();
}

/* Soft and AES-NI on random states, inputs, lengths and alignments. */
static void test_aes_random(int cases)
{
	const size_t max = 64 * 70;
	uint8_t *b1 = xalloc(max + 64), *b2 = xalloc(max + 64);
	int k, same_mix = 1;

	for (k = 0; k < 200; k++) {
		uint64_t f1[8], f2[8], e[8];
		unsigned i;

		for (i = 0; i < 8; i++) {
			f1[i] = f2[i] = rng64();
			e[i] = rng64();
		}
		rx_aes_soft.mix_fe(f1, e);
		mix_fe_by_rounds(f2, e);
		same_mix &= !memcmp(f1, f2, sizeof(f1));
	}
	check("soft v2 F/E mixing = four single rounds", same_mix);
	if (n_impls < 2) {
		free(b1);
		free(b2);
		return;
	}
	for (k = 0; k < cases; k++) {
		const rx_aes_impl *hw = impls[1];
		size_t len = 64 * (rng64() % 70), off = rng64() % 64;
		uint8_t s1[64], s2[64], h1[64], h2[64];
		uint64_t f1[8], f2[8], e[8];
		unsigned i;
		int same = 1;

		fill_random(s1, 64);
		memcpy(s2, s1, 64);
		rx_aes_soft.fill1r(s1, b1 + off, len);
		hw->fill1r(s2, b2 + off, len);
		same &= !memcmp(s1, s2, 64) && !memcmp(b1 + off, b2 + off, len);
		rx_aes_soft.fill4r(s1, b1 + off, len);
		hw->fill4r(s2, b2 + off, len);
		same &= !memcmp(b1 + off, b2 + off, len);
		fill_random(b1 + off, len);
		memcpy(b2 + off, b1 + off, len);
		rx_aes_soft.hash1r(b1 + off, len, h1);
		hw->hash1r(b2 + off, len, h2);
		same &= !memcmp(h1, h2, 64);
		rx_aes_soft.hash_fill1r(b1 + off, len, h1, s1);
		hw->hash_fill1r(b2 + off, len, h2, s2);
		same &= !memcmp(h1, h2, 64) && !memcmp(s1, s2, 64) &&
		    !memcmp(b1 + off, b2 + off, len);
		for (i = 0; i < 8; i++) {
			f1[i] = f2[i] = rng64();
			e[i] = rng64();
		}
		rx_aes_soft.mix_fe(f1, e);
		hw->mix_fe(f2, e);
		same &= !memcmp(f1, f2, sizeof(f1));
		check("soft AES = AES-NI (fill1r, fill4r, hash1r, hash_fill1r, "
		    "mix_fe) on random input", same);
	}
	free(b1);
	free(b2);
}

/* ---- vector file: AES functions ---- */

static uint8_t *big1, *big2;	/* RX_SCRATCHPAD_L3 bytes each */

static void test_aes1r_vector(const char *seed_hex, size_t len,
    const char *state_hex, const char *sum_hex, const char *first_hex)
{
	uint8_t seed[64], st[64], sum[32];
	char what[96];
	int i;

	if (from_hex(seed_hex, seed, 64) != 64 || len > RX_SCRATCHPAD_L3) {
		check("aes1r vector: malformed", 0);
		return;
	}
	for (i = 0; i < n_impls; i++) {
		memcpy(st, seed, 64);
		impls[i]->fill1r(st, big1, len);
		blake2b256(sum, big1, len);
		snprintf(what, sizeof(what), "AesGenerator1R %s, %zu bytes",
		    impls[i]->name, len);
		check(what, equals_hex(st, state_hex) &&
		    equals_hex(sum, sum_hex) && equals_hex(big1, first_hex));
	}
}

static void test_aes4r_vector(const char *seed_hex, size_t len,
    const char *sum_hex, const char *first_hex)
{
	uint8_t seed[64], st[64], sum[32];
	char what[96];
	int i;

	if (from_hex(seed_hex, seed, 64) != 64 || len > RX_SCRATCHPAD_L3) {
		check("aes4r vector: malformed", 0);
		return;
	}
	for (i = 0; i < n_impls; i++) {
		memcpy(st, seed, 64);
		impls[i]->fill4r(st, big1, len);
		blake2b256(sum, big1, len);
		snprintf(what, sizeof(what), "AesGenerator4R %s, %zu bytes",
		    impls[i]->name, len);
		check(what, equals_hex(sum, sum_hex) &&
		    equals_hex(big1, first_hex) && !memcmp(st, seed, 64));
	}
}

static void test_aeshash_vector(const char *seed_hex, size_t len,
    const char *hash_hex)
{
	uint8_t seed[64], h[64];
	char what[96];
	int i;

	if (from_hex(seed_hex, seed, 64) != 64 || len > RX_SCRATCHPAD_L3) {
		check("aeshash vector: malformed", 0);
		return;
	}
	rx_aes_soft.fill1r(seed, big1, len);
	for (i = 0; i < n_impls; i++) {
		impls[i]->hash1r(big1, len, h);
		snprintf(what, sizeof(what), "AesHash1R %s, %zu bytes",
		    impls[i]->name, len);
		check(what, equals_hex(h, hash_hex));
	}
}

static void test_hashfill_vector(const char *seed_hex, const char *state_hex,
    size_t len, const char *hash_hex, const char *new_hex,
    const char *sum_hex)
{
	uint8_t seed[64], st[64], h[64], sum[32];
	char what[96];
	int i;

	if (from_hex(state_hex, st, 64) != 64 || len > RX_SCRATCHPAD_L3) {
		check("hashfill vector: malformed", 0);
		return;
	}
	for (i = 0; i < n_impls; i++) {
		from_hex(seed_hex, seed, 64);
		from_hex(state_hex, st, 64);
		rx_aes_soft.fill1r(seed, big1, len);
		impls[i]->hash_fill1r(big1, len, h, st);
		blake2b256(sum, big1, len);
		snprintf(what, sizeof(what), "AesHash1R + AesGenerator1R in one "
		    "pass, %s, %zu bytes", impls[i]->name, len);
		check(what, equals_hex(h, hash_hex) && equals_hex(st, new_hex) &&
		    equals_hex(sum, sum_hex));
	}
}

/* ---- programs: configuration and decoding ---- */

/* Opcode `which` (0 = first, 1 = last) of instruction `instr`. */
static unsigned opcode(unsigned instr, int which)
{
	unsigned i, first = 0;

	for (i = 0; i < instr; i++)
		first += freq[i];
	return which ? first + freq[instr] - 1 : first;
}

/* Instruction words are built with alternately the first and last opcode. */
static int opcode_pick;

static void put(uint8_t *w, unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	w[0] = (uint8_t)opcode(instr, opcode_pick);
	opcode_pick ^= 1;
	/* the unused high bits of dst and src must not matter */
	w[1] = (uint8_t)(dst | 0xc0);
	w[2] = (uint8_t)(src | 0xf8);
	w[3] = (uint8_t)mod;
	le32enc(w + 4, imm32);
}

static void test_opcode_table(void)
{
	unsigned i, sum = 0;

	for (i = 0; i < I_COUNT; i++)
		sum += freq[i];
	check("instruction frequencies sum to 256", sum == 256);
	check("opcode ranges as table 5.1.1 counts them: ISTORE last",
	    opcode(I_ISTORE, 1) == 255 && opcode(I_CFROUND, 0) == 239);
}

static void test_configure(void)
{
	uint8_t b[128];
	rx_program_config cfg;
	uint64_t w[16];
	unsigned i;
	int ok;

	for (i = 0; i < 16; i++)
		w[i] = rng64();
	w[0] = (31ULL << 59) | 0x0123456789abcULL;	/* exponent 31 */
	w[1] = 0x07ffffffffffffffULL;	/* exponent 0, reserved bits set */
	w[8] = UINT64_MAX;
	w[10] = 0xabcdef0123456789ULL;
	w[12] = 0xa;			/* bits 1 and 3 */
	w[13] = 524288 * 3ULL + 5;	/* extra items + 1 = 524288 */
	w[14] = 0xf00000000012345fULL;
	w[15] = 0x1000000000000000ULL;
	for (i = 0; i < 16; i++)
		le64enc(b + 8 * i, w[i]);
	rx_program_configure(b, &cfg);
	check("a0 low: +1.fraction x 2^31",
	    cfg.a[0] == (((1023ULL + 31) << 52) | 0x0123456789abcULL));
	check("a0 high: exponent 0, bits 52-58 ignored",
	    cfg.a[1] == ((1023ULL << 52) | 0x000fffffffffffffULL));
	ok = 1;
	for (i = 2; i < 8; i++)
		ok &= cfg.a[i] == ((((w[i] >> 59) + 1023) << 52) |
		    (w[i] & 0x000fffffffffffffULL));
	check("a1-a3 from words 2-7", ok);
	check("ma: low 32 bits of word 8, 64-byte aligned, below 2 GiB",
	    cfg.ma == 0x7fffffc0);
	check("mx: low 32 bits of word 10", cfg.mx == 0x23456789);
	check("readReg0-3 from bits 0-3 of word 12",
	    cfg.read_reg[0] == 0 && cfg.read_reg[1] == 3 &&
	    cfg.read_reg[2] == 4 && cfg.read_reg[3] == 7);
	check("datasetOffset: word 13 mod 524288, times 64",
	    cfg.dataset_offset == 5 * 64);
	check("E mask of word 14: fraction 0x12345f, exponent 0x3f0",
	    cfg.e_mask[0] == ((0x3f0ULL << 52) | 0x12345f));
	check("E mask of word 15: exponent 0x310",
	    cfg.e_mask[1] == (0x310ULL << 52));
	le64enc(b + 8 * 13, UINT64_MAX);
	rx_program_configure(b, &cfg);
	check("datasetOffset of 2^64 - 1: 524287 * 64",
	    cfg.dataset_offset == 524287ULL * 64);
}

#define IMM32 3234567890u			/* tests.cpp's */
#define IMM64 0xffffffffc0cb96d2ULL		/* sign-extended */

static rx_insn code[RX_PROGRAM_MAX_SIZE + 1];

static unsigned decode1(unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	uint8_t w[8];

	put(w, instr, dst, src, mod, imm32);
	return rx_program_decode(w, 1, code);
}

/* tests.cpp's decoder checks, in this decoder's terms. */
static void test_decode(void)
{
	unsigned n;

	decode1(I_IADD_RS, 0, 1, 0xff, IMM32);
	check("IADD_RS decode: shift 3, no imm",
	    code[0].op == RX_OP_IADD_RS && code[0].dst == 0 &&
	    code[0].src == 1 && code[0].shift == 3 && code[0].imm == 0 &&
	    code[1].op == RX_OP_END);
	decode1(I_IADD_RS, 5, 1, 8, IMM32);
	check("IADD_RS decode: r5 gets imm, shift 2",
	    code[0].dst == 5 && code[0].shift == 2 && code[0].imm == IMM64);
	decode1(I_IADD_M, 0, 1, 1, IMM32);
	check("IADD_M decode: L1", code[0].op == RX_OP_IADD_M &&
	    code[0].src == 1 && code[0].imm == IMM64 &&
	    code[0].mask == 16376);
	decode1(I_ISUB_M, 0, 1, 0, IMM32);
	check("ISUB_M decode: L2", code[0].op == RX_OP_ISUB_M &&
	    code[0].mask == 262136);
	decode1(I_IMUL_M, 0, 0, 0, IMM32);
	check("IMUL_M decode: src = dst reads L3 at imm",
	    code[0].op == RX_OP_IMUL_M && code[0].src == RX_REG_ZERO &&
	    code[0].mask == 2097144 && code[0].imm == IMM64);
	decode1(I_ISMULH_M, 0, 1, 3, IMM32);
	check("ISMULH_M decode: mod.mem 3 is L1", code[0].mask == 16376);
	decode1(I_IMUL_RCP, 0, 0, 0, IMM32);
	/* floor(2^(63 + 32) / 3234567890): 32 bits, so x = 95 */
	check("IMUL_RCP decode: multiply by the reciprocal",
	    code[0].op == RX_OP_IMUL_C && code[0].imm == 0xa9f671ed1d69b73cULL);
	n = decode1(I_IMUL_RCP, 0, 0, 0, 0);
	check("IMUL_RCP of 0 is a no-op", n == 0 && code[0].op == RX_OP_END);
	n = decode1(I_IMUL_RCP, 0, 0, 0, 1u << 20);
	check("IMUL_RCP of a power of 2 is a no-op", n == 0);
	n = decode1(I_ISWAP_R, 3, 3, 0, 0);
	check("ISWAP_R of a register with itself is a no-op", n == 0);
	decode1(I_FSWAP_R, 6, 0, 0, 0);
	check("FSWAP_R decode: dst 6 is e2", code[0].op == RX_OP_FSWAP_R &&
	    code[0].dst == 6);
	decode1(I_FMUL_R, 2, 3, 0, 0);
	check("FMUL_R decode: e2 by a3", code[0].op == RX_OP_FMUL_R &&
	    code[0].dst == 6 && code[0].src == 3);
	decode1(I_FADD_M, 0, 1, 1, IMM32);
	check("FADD_M decode: L1", code[0].op == RX_OP_FADD_M &&
	    code[0].src == 1 && code[0].mask == 16376 &&
	    code[0].imm == IMM64);
	decode1(I_FSUB_M, 0, 1, 2, IMM32);
	check("FSUB_M decode: mod.mem 2 is L1", code[0].mask == 16376);
	decode1(I_FDIV_M, 0, 1, 3, IMM32);
	check("FDIV_M decode: e0, L1", code[0].op == RX_OP_FDIV_M &&
	    code[0].dst == 4 && code[0].mask == 16376);
	decode1(I_CBRANCH, 0, 0, 48, IMM32);
	check("CBRANCH decode: cimm, condition mask, no target yet",
	    code[0].op == RX_OP_CBRANCH && code[0].imm == 0xffffffffc0cb9ad2ULL
	    && code[0].mask == 0x7f800 && code[0].target == 0);
	decode1(I_CFROUND, 0, 1, 0, IMM32);
	check("CFROUND decode: rotation imm32 & 63 = 18",
	    code[0].op == RX_OP_CFROUND && code[0].src == 1 &&
	    code[0].imm == 18);
	decode1(I_ISTORE, 0, 1, 1, IMM32);
	check("ISTORE decode: L1", code[0].mask == 16376);
	decode1(I_ISTORE, 0, 1, 0, IMM32);
	check("ISTORE decode: L2", code[0].mask == 262136);
	decode1(I_ISTORE, 0, 1, 224, IMM32);
	check("ISTORE decode: mod.cond 14 is L3", code[0].mask == 2097144);
}

/* ---- instruction semantics ---- */

static uint8_t *spad;		/* a scratchpad for single instructions */
static uint64_t e_mask[2];

static void run_words(const uint8_t *w, unsigned n, rx_regfile *r, int v2,
    unsigned *fprc)
{
	rx_program_decode(w, n, code);
	rx_vm_exec_code(code, r, spad, e_mask, v2, fprc);
}

/* One instruction on registers r; fprc is the rounding mode. */
static void run1(rx_regfile *r, unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32, unsigned fprc)
{
	uint8_t w[8];

	put(w, instr, dst, src, mod, imm32);
	run_words(w, 1, r, 0, &fprc);
}

static void set_f(uint64_t *pair, uint64_t hi, uint64_t lo)
{
	pair[0] = lo;
	pair[1] = hi;
}

static int pair_is(const uint64_t *pair, const char *hex)
{
	uint8_t b[16];

	le64enc(b, pair[0]);
	le64enc(b + 8, pair[1]);
	return equals_hex(b, hex);
}

static void test_integer_ops(void)
{
	rx_regfile r;
	uint64_t x;

	memset(&r, 0, sizeof(r));
	r.r[0] = 0x8000000000000000ULL;
	r.r[1] = 0x1000000000000000ULL;
	run1(&r, I_IADD_RS, 0, 1, 0xff, IMM32, 0);
	check("IADD_RS", r.r[0] == 0);
	r.r[5] = 0x8000000000000000ULL;
	r.r[1] = 0x2000000000000000ULL;
	run1(&r, I_IADD_RS, 5, 1, 8, IMM32, 0);
	check("IADD_RS r5 with imm", r.r[5] == IMM64);
	r.r[2] = 5;
	run1(&r, I_IADD_RS, 2, 2, 4, IMM32, 0);
	check("IADD_RS with src = dst: dst + (dst << 1)", r.r[2] == 15);

	r.r[0] = 1;
	r.r[1] = 0xffffffff;
	run1(&r, I_ISUB_R, 0, 1, 0, IMM32, 0);
	check("ISUB_R", r.r[0] == 0xffffffff00000002ULL);
	r.r[0] = 0;
	run1(&r, I_ISUB_R, 0, 0, 0, IMM32, 0);
	check("ISUB_R with imm", r.r[0] == ~IMM64 + 1);

	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_IMUL_R, 0, 1, 0, IMM32, 0);
	check("IMUL_R", r.r[0] == 0x28723424a9108e51ULL);
	r.r[0] = 1;
	run1(&r, I_IMUL_R, 0, 0, 0, IMM32, 0);
	check("IMUL_R with imm", r.r[0] == IMM64);

	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_IMULH_R, 0, 1, 0, IMM32, 0);
	check("IMULH_R", r.r[0] == 0xb4676d31d2b34883ULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMULH_R, 0, 0, 0, IMM32, 0);
	check("IMULH_R squares when src = dst",
	    r.r[0] == 0x8a8d09b012e5696cULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_ISMULH_R, 0, 1, 0, IMM32, 0);
	check("ISMULH_R", r.r[0] == 0x02d93ef1269d3ee5ULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_ISMULH_R, 0, 0, 0, IMM32, 0);
	check("ISMULH_R squares when src = dst",
	    r.r[0] == 0x11e2ec829dd41b16ULL);

	r.r[3] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMUL_RCP, 3, 0, 0, 3, 0);
	check("IMUL_RCP by 3: times 12297829382473034410 (reference's "
	    "reciprocal)", r.r[3] == 0x8271f6462e4f908eULL);
	x = r.r[3];
	run1(&r, I_IMUL_RCP, 3, 0, 0, 0, 0);
	run1(&r, I_IMUL_RCP, 3, 0, 0, 0x80000000u, 0);
	check("IMUL_RCP by 0 or 2^31 changes nothing", r.r[3] == x);

	r.r[0] = 0xffffffffffffffffULL;
	run1(&r, I_INEG_R, 0, 0, 0, IMM32, 0);
	check("INEG_R", r.r[0] == 1);

	r.r[0] = 0x8888888888888888ULL;
	r.r[1] = 0xaaaaaaaaaaaaaaaaULL;
	run1(&r, I_IXOR_R, 0, 1, 0, IMM32, 0);
	check("IXOR_R", r.r[0] == 0x2222222222222222ULL);
	r.r[0] = 0xffffffffffffffffULL;
	run1(&r, I_IXOR_R, 0, 0, 0, IMM32, 0);
	check("IXOR_R with imm", r.r[0] == ~IMM64);

	r.r[0] = 953360005391419562ULL;
	r.r[1] = 4569451684712230561ULL;
	run1(&r, I_IROR_R, 0, 1, 0, IMM32, 0);
	check("IROR_R", r.r[0] == 0xd835c455069d81efULL);
	r.r[0] = 953360005391419562ULL;
	run1(&r, I_IROL_R, 0, 1, 0, IMM32, 0);
	check("IROL_R", r.r[0] == 6978065200552740799ULL);
	r.r[0] = 0x0123456789abcdefULL;
	run1(&r, I_IROR_R, 0, 0, 0, 64 + 8, 0);
	check("IROR_R with imm (masked to 6 bits)",
	    r.r[0] == 0xef0123456789abcdULL);
	run1(&r, I_IROL_R, 0, 0, 0, 4, 0);
	check("IROL_R with imm", r.r[0] == 0xf0123456789abcdeULL);
	run1(&r, I_IROL_R, 0, 0, 0, 64, 0);
	check("IROL_R by 0", r.r[0] == 0xf0123456789abcdeULL);

	r.r[0] = 953360005391419562ULL;
	r.r[1] = 4569451684712230561ULL;
	run1(&r, I_ISWAP_R, 0, 1, 0, IMM32, 0);
	check("ISWAP_R", r.r[0] == 4569451684712230561ULL &&
	    r.r[1] == 953360005391419562ULL);
}

/* Memory operands: src + imm masked to the level, or imm alone in L3. */
static void test_memory_ops(void)
{
	rx_regfile r;
	uint64_t a = 0x123456789abcdef0ULL;
	uint32_t l1, l2, l3;

	memset(&r, 0, sizeof(r));
	memset(spad, 0, RX_SCRATCHPAD_L3);
	r.r[1] = 0xfffffffffff00000ULL + 0x3a5c7;
	l1 = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
	l2 = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L2 - 8);
	l3 = (uint32_t)IMM64 & (RX_SCRATCHPAD_L3 - 8);
	le64enc(spad + l1, 11);
	le64enc(spad + l2, 1000);
	le64enc(spad + l3, 100000);
	r.r[0] = 1;
	run1(&r, I_IADD_M, 0, 1, 1, IMM32, 0);
	check("IADD_M from L1", r.r[0] == 12);
	run1(&r, I_IADD_M, 0, 1, 0, IMM32, 0);
	check("IADD_M from L2", r.r[0] == 1012);
	run1(&r, I_IADD_M, 0, 0, 2, IMM32, 0);
	check("IADD_M with src = dst: imm in L3", r.r[0] == 101012);
	run1(&r, I_ISUB_M, 0, 1, 0, IMM32, 0);
	check("ISUB_M", r.r[0] == 100012);
	r.r[0] = a;
	run1(&r, I_IMUL_M, 0, 1, 3, IMM32, 0);
	check("IMUL_M", r.r[0] == a * 11);
	le64enc(spad + l2, 0x1234567890abcdefULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMULH_M, 0, 1, 0, IMM32, 0);
	check("IMULH_M", r.r[0] == 0x0d647bead4ef3559ULL);
	le64enc(spad + l2, 0xf234567890abcdefULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_ISMULH_M, 0, 1, 0, IMM32, 0);
	check("ISMULH_M", r.r[0] == 0x03a5839f6cf25285ULL);
	r.r[0] = a;
	run1(&r, I_IXOR_M, 0, 1, 1, IMM32, 0);
	check("IXOR_M", r.r[0] == (a ^ 11));

	r.r[0] = r.r[1];
	r.r[1] = 0x5555aaaa5555aaaaULL;
	memset(spad, 0, RX_SCRATCHPAD_L3);
	run1(&r, I_ISTORE, 0, 1, 1, IMM32, 0);
	check("ISTORE to L1", le64dec(spad + l1) == r.r[1]);
	run1(&r, I_ISTORE, 0, 1, 0, IMM32, 0);
	check("ISTORE to L2", le64dec(spad + l2) == r.r[1]);
	run1(&r, I_ISTORE, 0, 1, 0xe0, IMM32, 0);
	l3 = (uint32_t)(r.r[0] + IMM64) & (RX_SCRATCHPAD_L3 - 8);
	check("ISTORE to L3 (mod.cond 14)", le64dec(spad + l3) == r.r[1]);
	run1(&r, I_ISTORE, 0, 0, 0xf1, IMM32, 0);
	check("ISTORE with src = dst (mod.cond 15: L3)",
	    le64dec(spad + l3) == r.r[0]);
}

/* tests.cpp's floating-point answers (rounding modes 0-3). */
static void test_fp_ops(void)
{
	static const char *const fadd[4] = {
		"b932e048a730cec1fea6ea633bcc2d40",
		"b932e048a730cec1fda6ea633bcc2d40",
		"b832e048a730cec1fea6ea633bcc2d40",
		"b832e048a730cec1fda6ea633bcc2d40"
	};
	static const char *const fmul[4] = {
		"69697aff350fd3422f1589cdecfed742",
		"69697aff350fd3422e1589cdecfed742",
		"6a697aff350fd3422f1589cdecfed742",
		"69697aff350fd3422e1589cdecfed742"
	};
	static const char *const fdiv[4] = {
		"e7b269639484434632474a66635ba547",
		"e6b269639484434632474a66635ba547",
		"e7b269639484434633474a66635ba547",
		"e6b269639484434632474a66635ba547"
	};
	static const char *const fsqrt[4] = {
		"e81f300b612a21408dbaa33f570ed340",
		"e81f300b612a21408cbaa33f570ed340",
		"e91f300b612a21408dbaa33f570ed340",
		"e81f300b612a21408cbaa33f570ed340"
	};
	static const char *const mode[4] = {
		"nearest", "down", "up", "toward zero"
	};
	uint64_t one = 0x3ff0000000000000ULL, tiny = 0x3c30000000000000ULL;
	uint32_t addr;
	rx_regfile r;
	char what[96];
	unsigned m;

	memset(&r, 0, sizeof(r));
	set_f(r.f, 953360005391419562ULL, 4569451684712230561ULL);
	run1(&r, I_FSWAP_R, 0, 0, 0, 0, 0);
	check("FSWAP_R on f0", pair_is(r.f, "aa886bb0df033b0da12e95e518f4693f"));
	set_f(r.e + 2, 953360005391419562ULL, 4569451684712230561ULL);
	run1(&r, I_FSWAP_R, 5, 0, 0, 0, 0);
	check("FSWAP_R on e1 (dst 5)",
	    pair_is(r.e + 2, "aa886bb0df033b0da12e95e518f4693f"));

	for (m = 0; m < 4; m++) {
		set_f(r.f, 0x3ffd2c97cc4ef015ULL, 0xc1ce30b3c4223576ULL);
		set_f(r.a + 2, 0x402a26a86a60c8fbULL, 0x40b8f684057a59e1ULL);
		run1(&r, I_FADD_R, 0, 1, 0, 0, m);
		snprintf(what, sizeof(what), "FADD_R rounding %s", mode[m]);
		check(what, pair_is(r.f, fadd[m]));

		set_f(r.e, 0x41dbc35cef248783ULL, 0x40fdfdabb6173d07ULL);
		set_f(r.a + 2, 0x40eba861aa31c7c0ULL, 0x41c4561212ae2d50ULL);
		run1(&r, I_FMUL_R, 0, 1, 0, 0, m);
		snprintf(what, sizeof(what), "FMUL_R rounding %s", mode[m]);
		check(what, pair_is(r.e, fmul[m]));

		/* tests.cpp's operand, at the L1 address src + imm gives */
		memset(spad, 0, RX_SCRATCHPAD_L1);
		r.r[1] = 0xffffffffffffe930ULL;
		addr = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
		le32enc(spad + addr, 0xd350a1b6);
		le32enc(spad + addr + 4, 0x8b2460d9);
		e_mask[0] = 0x3a0000000005d11aULL;
		e_mask[1] = 0x39000000001ba31eULL;
		set_f(r.e, 0x41937f76fede16eeULL, 0x411b414296ce93b6ULL);
		run1(&r, I_FDIV_M, 0, 1, 3, IMM32, m);
		snprintf(what, sizeof(what), "FDIV_M rounding %s", mode[m]);
		check(what, pair_is(r.e, fdiv[m]));

		set_f(r.e, 0x41b6b21c11affea7ULL, 0x40526a7e778d9824ULL);
		run1(&r, I_FSQRT_R, 0, 0, 0, 0, m);
		snprintf(what, sizeof(what), "FSQRT_R rounding %s", mode[m]);
		check(what, pair_is(r.e, fsqrt[m]));

		/* 1 - 2^-60 is between 1 - 2^-53 and 1 */
		set_f(r.f + 4, one, one);
		set_f(r.a, tiny, 0);
		run1(&r, I_FSUB_R, 2, 0, 0, 0, m);
		snprintf(what, sizeof(what), "FSUB_R rounding %s", mode[m]);
		check(what, r.f[5] == ((m == 1 || m == 3) ?
		    0x3fefffffffffffffULL : one) && r.f[4] == one);
	}

	memset(spad, 0, RX_SCRATCHPAD_L1);
	r.r[1] = 0xffffffffffffe930ULL;
	addr = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
	le64enc(spad + addr, 0x1234567890abcdefULL);
	memset(r.f, 0, sizeof(r.f));
	run1(&r, I_FADD_M, 0, 1, 1, IMM32, 0);
	check("FADD_M: two int32 as doubles",
	    pair_is(r.f, "000040840cd5dbc1000000785634b241"));
	run1(&r, I_FSUB_M, 0, 1, 1, IMM32, 0);
	check("FSUB_M", r.f[0] == 0 && r.f[1] == 0);

	set_f(r.f + 6, 0x41dbc35cef248783ULL, 0x40fdfdabb6173d07ULL);
	run1(&r, I_FSCAL_R, 3, 0, 0, 0, 0);
	check("FSCAL_R", pair_is(r.f + 6, "073d17b6abfd0dc0838724ef5cc32bc1"));
}

/* CFROUND's rotation, and v2's one-in-16 rule; the mode then applies. */
static void test_cfround(void)
{
	uint8_t w[16];
	rx_regfile r;
	unsigned m, fprc, v2;
	int ok_v1 = 1, ok_v2 = 1, ok_v2_keep = 1, ok_use = 1;

	memset(&r, 0, sizeof(r));
	for (v2 = 0; v2 < 2; v2++)
		for (m = 0; m < 4; m++) {
			/* imm32 = 0x3f2: rotate right by 50 */
			r.r[1] = (uint64_t)m << 50;
			fprc = 3 - m;
			put(w, I_CFROUND, 0, 1, 0, 0x3f2);
			run_words(w, 1, &r, (int)v2, &fprc);
			if (v2)
				ok_v2 &= fprc == m;
			else
				ok_v1 &= fprc == m;
			/* bits 2-5 of the rotated value set: v2 keeps fprc */
			r.r[1] = ((uint64_t)m << 50) | (1ULL << (50 + 2 +
			    m));
			fprc = 3 - m;
			run_words(w, 1, &r, (int)v2, &fprc);
			if (v2)
				ok_v2_keep &= fprc == 3 - m;
			else
				ok_v1 &= fprc == m;
		}
	check("CFROUND v1: fprc = (src >>> imm) & 3", ok_v1);
	check("CFROUND v2: fprc set when bits 2-5 are 0", ok_v2);
	check("CFROUND v2: fprc kept otherwise", ok_v2_keep);
	for (m = 0; m < 4; m++) {
		r.r[2] = (uint64_t)m << 7 | 0x1000;	/* bit 12: v1 only */
		set_f(r.f, 0x3ffd2c97cc4ef015ULL, 0xc1ce30b3c4223576ULL);
		set_f(r.a + 2, 0x402a26a86a60c8fbULL, 0x40b8f684057a59e1ULL);
		put(w, I_CFROUND, 0, 2, 0, 7);
		put(w + 8, I_FADD_R, 0, 1, 0, 0);
		fprc = 0;
		run_words(w, 2, &r, 0, &fprc);
		ok_use &= fprc == m && pair_is(r.f, m == 0 ?
		    "b932e048a730cec1fea6ea633bcc2d40" : m == 1 ?
		    "b932e048a730cec1fda6ea633bcc2d40" : m == 2 ?
		    "b832e048a730cec1fea6ea633bcc2d40" :
		    "b832e048a730cec1fda6ea633bcc2d40");
	}
	check("CFROUND's mode applies to the next FADD_R", ok_use);
	fesetround(FE_UPWARD);
	fprc = 1;
	r.r[1] = 0;
	put(w, I_CFROUND, 0, 1, 0, 0);
	run_words(w, 1, &r, 0, &fprc);
	check("rx_vm_exec_code gives back the caller's rounding mode",
	    fegetround() == FE_UPWARD && fprc == 0);
	fesetround(FE_TONEAREST);
}

/* CBRANCH: tests.cpp's taken / not-taken values, then jump targets. */
static void test_cbranch(void)
{
	uint8_t w[8 * 8];
	rx_regfile r;
	unsigned fprc = 0, n, k;
	uint64_t v, cimm;

	memset(&r, 0, sizeof(r));
	put(w, I_CBRANCH, 0, 0, 48, IMM32);
	run_words(w, 1, &r, 0, &fprc);
	check("CBRANCH not taken: dst + cimm",
	    r.r[0] == 0xffffffffc0cb9ad2ULL);
	/*
	 * Taken with r0 = 0xfffffffffffc6800 (bits 11-18 of the sum are 0),
	 * to instruction 0 as r0 was not modified: r1 += 1 runs twice.
	 */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);		/* r1 += 1 */
	put(w + 8, I_CBRANCH, 0, 0, 48, IMM32);
	r.r[0] = 0xfffffffffffc6800ULL;
	r.r[1] = 0;
	run_words(w, 2, &r, 0, &fprc);
	/* taken once (to instruction 0: r0 never modified), then not */
	v = 0xfffffffffffc6800ULL + 0xffffffffc0cb9ad2ULL;
	check("CBRANCH taken: back to the start when dst is unmodified",
	    r.r[1] == 2 && r.r[0] == v + 0xffffffffc0cb9ad2ULL);

	/*
	 * The target is after the last instruction that modified dst:
	 *   0: r1 += 1   1: r0 ^= 0 (modifies r0)   2: r2 += 1
	 *   3: FADD_R, ISTORE, IMUL_RCP of 0 (do not modify r0)
	 *   6: CBRANCH r0, b = 8: cimm = 2^8, bit 7 clear; condition bits
	 *      8-15; r0 starts at 0xff00: taken while bits 8-15 of r0 + 256k
	 *      are zero (once).
	 */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);
	put(w + 8, I_IXOR_R, 0, 0, 0, 0);
	put(w + 16, I_ISUB_R, 2, 2, 0, 0xffffffffu);
	put(w + 24, I_FADD_R, 0, 0, 0, 0);
	put(w + 32, I_ISTORE, 0, 3, 0, 0);
	put(w + 40, I_IMUL_RCP, 0, 0, 0, 0);
	put(w + 48, I_CBRANCH, 0, 0, 0, 0);
	memset(&r, 0, sizeof(r));
	memset(spad, 0, RX_SCRATCHPAD_L2);
	r.r[0] = 0xff00;
	n = rx_program_decode(w, 7, code);
	check("decoded: the IMUL_RCP no-op left out", n == 6 &&
	    code[5].op == RX_OP_CBRANCH && code[5].target == 2);
	rx_vm_exec_code(code, &r, spad, e_mask, 0, &fprc);
	/* work out the jumps from the specification */
	cimm = 1ULL << 8;
	v = 0xff00;
	k = 0;
	for (;;) {
		v += cimm;
		if ((v & 0xff00) != 0)
			break;
		k++;
	}
	check("CBRANCH jumps to after the last modification of dst",
	    r.r[1] == 1 && r.r[2] == 1 + k && r.r[0] == v && k == 1);

	/* ISWAP_R modifies both registers; CBRANCH modifies all */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);	/* 0: r1 += 1 */
	put(w + 8, I_ISWAP_R, 4, 0, 0, 0);	/* 1: r0 <-> r4 */
	put(w + 16, I_ISUB_R, 2, 2, 0, 0xffffffffu);	/* 2: r2 += 1 */
	put(w + 24, I_CBRANCH, 6, 0, 0, 0);	/* 3: on r6 */
	put(w + 32, I_ISUB_R, 3, 3, 0, 0xffffffffu);	/* 4: r3 += 1 */
	put(w + 40, I_CBRANCH, 0, 0, 0, 0);	/* 5: on r0 */
	rx_program_decode(w, 6, code);
	check("CBRANCH targets: after ISWAP_R for its src, after a CBRANCH",
	    code[3].target == 0 && code[5].target == 4);
	put(w, I_CBRANCH, 4, 0, 0, 0);
	put(w + 8, I_ISWAP_R, 4, 0, 0, 0);
	put(w + 16, I_CBRANCH, 0, 0, 0, 0);
	rx_program_decode(w, 3, code);
	check("CBRANCH target after ISWAP_R for its dst too",
	    code[2].target == 2);
}

/* ---- the vector file: single programs ---- */

static randomx_cache *cache0;		/* "test key 000" */

static void test_program_vector(const char *key_hex, int v2,
    const char *sa_hex, const char *sb_hex, const char *regs_hex,
    const char *sum_hex, unsigned fprc_want)
{
	static rx_vm_state st;
	uint8_t key[64], sa[64], sb[64], regfile[256], sum[32];
	char what[128];
	int i;

	if (from_hex(key_hex, key, sizeof(key)) != 12 ||
	    memcmp(key, "test key 000", 12) || from_hex(sa_hex, sa, 64) != 64 ||
	    from_hex(sb_hex, sb, 64) != 64) {
		check("program vector: malformed or another key", 0);
		return;
	}
	for (i = 0; i < n_impls; i++) {
		memset(&st, 0, sizeof(st));
		st.scratchpad = big2;
		st.cache = rx_cache_state_of(cache0);
		st.aes = impls[i];
		st.v2 = v2;
		from_hex(sa_hex, sa, 64);
		impls[i]->fill1r(sa, big2, RX_SCRATCHPAD_L3);
		st.fprc = 0;
		rx_vm_run_program(&st, sb);
		fesetround(FE_TONEAREST);
		rx_vm_regfile_bytes(&st.regs, regfile);
		blake2b256(sum, big2, RX_SCRATCHPAD_L3);
		snprintf(what, sizeof(what), "one v%d program (%s AES): "
		    "registers, scratchpad, fprc as the reference", v2 + 1,
		    impls[i]->name);
		check(what, equals_hex(regfile, regs_hex) &&
		    equals_hex(sum, sum_hex) && st.fprc == fprc_want);
	}
}

/* ---- hashes through randomx.h ---- */

static randomx_vm *vm_of(randomx_flags flags, randomx_cache *c)
{
	randomx_vm *vm = randomx_create_vm(flags, c, NULL);

	if (!vm) {
		fprintf(stderr, "tests-rx-vm: randomx_create_vm(%d) failed\n",
		    (int)flags);
		exit(2);
	}
	return vm;
}

static randomx_flags hard_aes_flag(void)
{
	return rx_aes_hard() ? RANDOMX_FLAG_HARD_AES : RANDOMX_FLAG_DEFAULT;
}

static item_list traced[2];	/* items of "This is a test", v1 and v2 */

/*
 * tests.cpp's hashes, v1 and v2 VMs on the same caches taking turns;
 * hard AES (where there is some) and soft for the first of each.
 */
static void test_published_hashes(randomx_cache *c0, randomx_cache *c1)
{
	randomx_vm *v1 = vm_of(hard_aes_flag(), c0);
	randomx_vm *v2 = vm_of(hard_aes_flag() | RANDOMX_FLAG_V2, c0);
	randomx_vm *s1 = vm_of(RANDOMX_FLAG_DEFAULT, c0);
	randomx_vm *s2 = vm_of(RANDOMX_FLAG_V2, c0);
	uint8_t in[128], h[32];
	char what[96];
	size_t len;
	int i;

	for (i = 0; i < 5; i++) {
		if (i == 3) {
			randomx_vm_set_cache(v1, c1);
			randomx_vm_set_cache(v2, c1);
		}
		len = published_in(i, in);
		if (i == 0)
			rx_vm_set_item_trace(v1, record_item, &traced[0]);
		randomx_calculate_hash(v1, in, len, h);
		rx_vm_set_item_trace(v1, NULL, NULL);
		snprintf(what, sizeof(what), "tests.cpp hash 1%c, v1", 'a' + i);
		check(what, equals_hex(h, published_v1[i]));
		if (i == 0)
			rx_vm_set_item_trace(v2, record_item, &traced[1]);
		randomx_calculate_hash(v2, in, len, h);
		rx_vm_set_item_trace(v2, NULL, NULL);
		snprintf(what, sizeof(what), "tests.cpp hash 1%c, v2", 'a' + i);
		check(what, equals_hex(h, published_v2[i]));
	}
	len = published_in(0, in);
	randomx_calculate_hash(s1, in, len, h);
	check("tests.cpp hash 1a, v1, soft AES", equals_hex(h, published_v1[0]));
	randomx_calculate_hash(s2, in, len, h);
	check("tests.cpp hash 1a, v2, soft AES", equals_hex(h, published_v2[0]));
	randomx_calculate_commitment(in, len, h, h);
	check("tests.cpp commitment (v2, 1a; in place)",
	    equals_hex(h, "133be717399046b03ae82ce8ddd9d1ee4d3ea7fca03a50dec09b6"
	    "848cbb98e18"));
	randomx_destroy_vm(v1);
	randomx_destroy_vm(v2);
	randomx_destroy_vm(s1);
	randomx_destroy_vm(s2);
}

/* _first / _next / _last: tests.cpp's batch answers, v1 and v2. */
static void test_batch(randomx_cache *c0)
{
	int v;

	for (v = 0; v < 2; v++) {
		randomx_vm *vm = vm_of(hard_aes_flag() | (v ? RANDOMX_FLAG_V2 :
		    RANDOMX_FLAG_DEFAULT), c0);
		const char *const *want = v ? published_v2 : published_v1;
		uint8_t h1[32], h2[32], h3[32];
		int ok;

		fesetround(FE_DOWNWARD);
		randomx_calculate_hash_first(vm, published_input[0],
		    strlen(published_input[0]));
		ok = fegetround() == FE_DOWNWARD;
		randomx_calculate_hash_next(vm, published_input[1],
		    strlen(published_input[1]), h1);
		ok &= fegetround() == FE_DOWNWARD;
		randomx_calculate_hash_next(vm, published_input[2],
		    strlen(published_input[2]), h2);
		randomx_calculate_hash_last(vm, h3);
		ok &= fegetround() == FE_DOWNWARD;
		fesetround(FE_TONEAREST);
		check(v ? "batch: tests.cpp's answers, v2" :
		    "batch: tests.cpp's answers, v1",
		    equals_hex(h1, want[0]) && equals_hex(h2, want[1]) &&
		    equals_hex(h3, want[2]));
		check("batch functions give back the caller's rounding mode",
		    ok);
		randomx_destroy_vm(vm);
	}
}

/* The caller's rounding mode neither changes a hash nor gets changed. */
static void test_rounding_kept(randomx_cache *c0)
{
	randomx_vm *vm = vm_of(hard_aes_flag(), c0);
	uint8_t h[32];

	fesetround(FE_UPWARD);
	randomx_calculate_hash(vm, published_input[1],
	    strlen(published_input[1]), h);
	check("caller rounding upward: same hash, mode kept",
	    fegetround() == FE_UPWARD && equals_hex(h, published_v1[1]));
	fesetround(FE_TONEAREST);
#if defined(__GLIBC__) && defined(FE_INEXACT)
	/* a trap the caller enabled does not fire, and its flags stay clear */
	feclearexcept(FE_ALL_EXCEPT);
	feenableexcept(FE_INEXACT);
	randomx_calculate_hash(vm, published_input[0],
	    strlen(published_input[0]), h);
	check("caller's FP traps and exception flags: kept",
	    fegetexcept() == FE_INEXACT && !fetestexcept(FE_ALL_EXCEPT) &&
	    equals_hex(h, published_v1[0]));
	fedisableexcept(FE_ALL_EXCEPT);
#endif
	randomx_destroy_vm(vm);
}

/* A hash line of the vector file: key, input, hash and commitment. */
typedef struct {
	int v2;
	uint8_t key[64], in[256], hash[32], com[32];
	long keylen, inlen;
} hash_vector;

static hash_vector hvec[16];
static int n_hvec;

static void add_hash_vector(int v2, const char *key, const char *in,
    const char *hash, const char *com)
{
	hash_vector *v = &hvec[n_hvec];

	if (n_hvec == 16 ||
	    (v->keylen = from_hex(key, v->key, sizeof(v->key))) < 0 ||
	    (v->inlen = from_hex(in, v->in, sizeof(v->in))) < 0 ||
	    from_hex(hash, v->hash, 32) != 32 ||
	    from_hex(com, v->com, 32) != 32) {
		check("hash vector: malformed", 0);
		return;
	}
	v->v2 = v2;
	n_hvec++;
}

/* The extra hashes, grouped by key so each cache is built once. */
static void test_hash_vectors(randomx_cache *spare)
{
	uint8_t h[32], c[32];
	char what[96];
	int i;

	for (i = 0; i < n_hvec; i++) {
		hash_vector *v = &hvec[i];
		randomx_cache *use = cache0;
		randomx_vm *vm;

		if (v->keylen != 12 || memcmp(v->key, "test key 000", 12)) {
			randomx_init_cache(spare, v->key, (size_t)v->keylen);
			use = spare;
		}
		vm = vm_of(hard_aes_flag() | (v->v2 ? RANDOMX_FLAG_V2 :
		    RANDOMX_FLAG_DEFAULT), use);
		randomx_calculate_hash(vm, v->in, (size_t)v->inlen, h);
		randomx_calculate_commitment(v->in, (size_t)v->inlen, h, c);
		snprintf(what, sizeof(what), "reference hash, v%d, %ld-byte "
		    "key, %ld-byte input", v->v2 + 1, v->keylen, v->inlen);
		check(what, !memcmp(h, v->hash, 32) && !memcmp(c, v->com, 32));
		randomx_destroy_vm(vm);
	}
}

/* ---- full mode ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Build exactly the items a traced light hash read, one
 * randomx_init_dataset call each, then hash in full mode.
 */
static void test_full_traced(randomx_dataset *ds)
{
	uint8_t h[32];
	size_t v, i, distinct;

	for (v = 0; v < 2; v++) {
		item_list *l = &traced[v];
		randomx_vm *vm;

		if (l->n == 0) {
			check("light hash traced some items", 0);
			continue;
		}
		qsort(l->items, l->n, sizeof(*l->items), cmp_u64);
		for (i = 0, distinct = 0; i < l->n; i++)
			if (i == 0 || l->items[i] != l->items[i - 1]) {
				randomx_init_dataset(ds, cache0,
				    (unsigned long)l->items[i], 1);
				distinct++;
			}
		check("a light hash computes 16384 items (8 x 2048)",
		    l->n == (size_t)RX_PROGRAM_COUNT * RX_PROGRAM_ITERATIONS);
		vm = randomx_create_vm(hard_aes_flag() | RANDOMX_FLAG_FULL_MEM |
		    (v ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT), NULL, ds);
		check("full-mode VM created", vm != NULL);
		if (!vm)
			continue;
		randomx_calculate_hash(vm, published_input[0],
		    strlen(published_input[0]), h);
		check(v ? "full mode on the traced items: tests.cpp 1a, v2" :
		    "full mode on the traced items: tests.cpp 1a, v1",
		    equals_hex(h, v ? published_v2[0] : published_v1[0]));
		randomx_destroy_vm(vm);
		free(l->items);
		l->items = NULL;
		l->n = l->cap = 0;
	}
}

/* randomx_init_dataset over slices against rx_dataset_item. */
static void test_dataset_slices(randomx_dataset *ds)
{
	static const struct {
		unsigned long start, count;
	} slice[] = { { 0, 5 }, { 1000003, 7 }, { 33554430, 3 },
	    { 34078719 - 3, 3 } };
	const rx_cache_state *cs = rx_cache_state_of(cache0);
	uint8_t *mem = randomx_get_dataset_memory(ds), item[64];
	unsigned long n = randomx_dataset_item_count(), j;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(slice) / sizeof(slice[0]); i++) {
		randomx_init_dataset(ds, cache0, slice[i].start,
		    slice[i].count);
		for (j = slice[i].start; j < slice[i].start + slice[i].count;
		    j++) {
			rx_dataset_item(cs, j, item);
			ok &= !memcmp(mem + 64 * (size_t)j, item, 64);
		}
	}
	check("randomx_init_dataset slices = rx_dataset_item", ok);
	memset(mem + 64 * (size_t)(n - 1), 0x5a, 64);
	memset(mem, 0x5a, 64);
	randomx_init_dataset(ds, cache0, n - 1, 2);
	randomx_init_dataset(ds, cache0, n, 1);
	randomx_init_dataset(ds, cache0, ~0UL, 2);
	randomx_init_dataset(ds, NULL, 0, 1);
	randomx_init_dataset(NULL, cache0, 0, 1);
	randomx_init_dataset(ds, cache0, n, 0);
	check("randomx_init_dataset past the end or with NULL: nothing",
	    mem[64 * (size_t)(n - 1)] == 0x5a && mem[64 * (size_t)n - 1] ==
	    0x5a && mem[0] == 0x5a);
}

/* RANDOMX_TEST_FULL=1: the whole dataset, and the known answers on it. */
static void test_full_dataset(randomx_cache *c1)
{
	int i, v, a;
	randomx_dataset *ds;
	uint8_t in[128], h[32];
	char what[96];

	ds = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
	if (!ds) {
		check("RANDOMX_TEST_FULL: dataset allocated", 0);
		return;
	}
	rx_build_dataset(ds, cache0);
	/* every AES, v1 and v2, interpreted and (where built) compiled */
	for (a = 0; a < 2 * n_impls; a++)
		for (v = 0; v < 2; v++) {
			int jit = a >= n_impls;
			randomx_vm *vm;

			if (jit && !RX_HAVE_JIT)
				break;
			vm = randomx_create_vm((a % n_impls ?
			    RANDOMX_FLAG_HARD_AES : RANDOMX_FLAG_DEFAULT) |
			    (jit ? RANDOMX_FLAG_JIT : RANDOMX_FLAG_DEFAULT) |
			    RANDOMX_FLAG_FULL_MEM | (v ? RANDOMX_FLAG_V2 :
			    RANDOMX_FLAG_DEFAULT), NULL, ds);
			for (i = 0; i < 3 && vm; i++) {
				size_t len = published_in(i, in);

				randomx_calculate_hash(vm, in, len, h);
				snprintf(what, sizeof(what), "full dataset: "
				    "tests.cpp hash 1%c, v%d, %s AES%s", 'a' + i,
				    v + 1, impls[a % n_impls]->name,
				    jit ? ", JIT" : "");
				check(what, equals_hex(h, v ? published_v2[i] :
				    published_v1[i]));
			}
			check("full-mode VM on the whole dataset", vm != NULL);
			randomx_destroy_vm(vm);
		}
	(void)c1;
	randomx_release_dataset(ds);
}

/* ---- flags and misuse ---- */

/*
 * Whether this process can map one 2 MiB page from the system's reserve
 * right now.  /proc/meminfo's free count alone is not enough: qemu-user
 * (check-randomx-qemu) refuses MAP_HUGETLB with EINVAL however many pages
 * the host has free, and the library must then fail as it does with none.
 */
static int huge_page_mappable(void)
{
	size_t len = (size_t)2 << 20;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, len);
	return 1;
}

/*
 * 2 MiB pages of the system's reserve that nobody has claimed (free less
 * those promised to mappings already made), or -1 if unknown.
 */
static long huge_pages_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long free_pages = -1, reserved = -1, n;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			free_pages = n;
		else if (sscanf(line, "HugePages_Rsvd: %ld", &n) == 1)
			reserved = n;
	}
	fclose(f);
	if (free_pages < 0 || reserved < 0)
		return -1;
	return free_pages > reserved ? free_pages - reserved : 0;
}

static void test_flags(void)
{
	randomx_flags f = randomx_get_flags();
	randomx_cache *c;
	long huge = huge_pages_free();
	randomx_vm *vm;

	check("randomx_get_flags: HARD_AES exactly where AES-NI runs",
	    !(f & RANDOMX_FLAG_HARD_AES) == !rx_aes_hard());
#ifdef RX_X86_ISAS
	check("AES-NI built in on x86: offered where the CPU has it",
	    !rx_aes_hard() == !pow_cpu_has(POW_CPU_AES));
#endif
	check("randomx_get_flags: no LARGE_PAGES, FULL_MEM, SECURE, V2",
	    !(f & (RANDOMX_FLAG_LARGE_PAGES | RANDOMX_FLAG_FULL_MEM |
	    RANDOMX_FLAG_SECURE | RANDOMX_FLAG_V2)));
	check("randomx_get_flags: JIT exactly where built (x86-64)",
	    !(f & RANDOMX_FLAG_JIT) == !RX_HAVE_JIT);
	check("randomx_get_flags: Argon2 flags where the cores run",
	    !(f & RANDOMX_FLAG_ARGON2_AVX2) ==
	    !rx_argon2_impl_available(RX_ARGON2_AVX2) &&
	    !(f & RANDOMX_FLAG_ARGON2_SSSE3) ==
	    !rx_argon2_impl_available(RX_ARGON2_SSSE3));
	check("randomx_dataset_item_count = (2 GiB + 33554368) / 64",
	    randomx_dataset_item_count() == 34078719UL);
	check("flag values as the reference's randomx.h",
	    RANDOMX_FLAG_LARGE_PAGES == 1 && RANDOMX_FLAG_HARD_AES == 2 &&
	    RANDOMX_FLAG_FULL_MEM == 4 && RANDOMX_FLAG_JIT == 8 &&
	    RANDOMX_FLAG_SECURE == 16 && RANDOMX_FLAG_ARGON2_SSSE3 == 32 &&
	    RANDOMX_FLAG_ARGON2_AVX2 == 64 && RANDOMX_FLAG_ARGON2 == 96 &&
	    RANDOMX_FLAG_V2 == 128 && RANDOMX_HASH_SIZE == 32 &&
	    RANDOMX_DATASET_ITEM_SIZE == 64);

	c = randomx_alloc_cache(RANDOMX_FLAG_JIT);
	check(RX_HAVE_JIT ? "randomx_alloc_cache(JIT): a cache" :
	    "randomx_alloc_cache(JIT): NULL, as without a JIT",
	    !c == !RX_HAVE_JIT);
	randomx_release_cache(c);
	check("randomx_alloc_cache(unknown flag 256): NULL",
	    randomx_alloc_cache((randomx_flags)256) == NULL);
	check("randomx_alloc_dataset(unknown flag 1024): NULL",
	    randomx_alloc_dataset((randomx_flags)1024) == NULL);
	c = randomx_alloc_cache(RANDOMX_FLAG_ARGON2_AVX2);
	check("randomx_alloc_cache(ARGON2_AVX2) exactly where it runs",
	    !c == !rx_argon2_impl_available(RX_ARGON2_AVX2));
	randomx_release_cache(c);
	c = randomx_alloc_cache(RANDOMX_FLAG_ARGON2_SSSE3);
	check("randomx_alloc_cache(ARGON2_SSSE3) exactly where it runs",
	    !c == !rx_argon2_impl_available(RX_ARGON2_SSSE3));
	randomx_release_cache(c);
	c = randomx_alloc_cache(RANDOMX_FLAG_DEFAULT);
	check("an uninitialized cache: no light VM",
	    c && randomx_create_vm(RANDOMX_FLAG_DEFAULT, c, NULL) == NULL);
	check("randomx_get_cache_memory: the cache's buffer",
	    c && randomx_get_cache_memory(c) != NULL);
	randomx_release_cache(c);

	vm = randomx_create_vm(RANDOMX_FLAG_JIT, cache0, NULL);
	check(RX_HAVE_JIT ? "randomx_create_vm(JIT): a VM" :
	    "randomx_create_vm(JIT): NULL, as without a JIT",
	    !vm == !RX_HAVE_JIT);
	randomx_destroy_vm(vm);
	check("randomx_create_vm(unknown flag 512): NULL",
	    randomx_create_vm((randomx_flags)512, cache0, NULL) == NULL);
	check("randomx_create_vm: light mode with a NULL cache: NULL",
	    randomx_create_vm(RANDOMX_FLAG_DEFAULT, NULL, NULL) == NULL);
	check("randomx_create_vm: full mode with a NULL dataset: NULL",
	    randomx_create_vm(RANDOMX_FLAG_FULL_MEM, cache0, NULL) == NULL);
	vm = randomx_create_vm(RANDOMX_FLAG_HARD_AES, cache0, NULL);
	check("randomx_create_vm(HARD_AES) exactly where AES-NI runs",
	    !vm == !rx_aes_hard());
	randomx_destroy_vm(vm);
	vm = randomx_create_vm(RANDOMX_FLAG_SECURE | RANDOMX_FLAG_ARGON2,
	    cache0, NULL);
	check("randomx_create_vm ignores SECURE and the Argon2 flags",
	    vm != NULL);
	randomx_destroy_vm(vm);

	if (huge < 0) {
		skip("large pages: /proc/meminfo unreadable");
	} else if (huge == 0 || !huge_page_mappable()) {
		if (huge > 0)
			printf("%ld huge pages free, but MAP_HUGETLB is "
			    "refused here (qemu-user?)\n", huge);
		check("no usable huge pages: randomx_create_vm(LARGE_PAGES) "
		    "NULL", randomx_create_vm(RANDOMX_FLAG_LARGE_PAGES,
		    cache0, NULL) == NULL);
		check("no usable huge pages: randomx_alloc_cache(LARGE_PAGES) "
		    "NULL", randomx_alloc_cache(RANDOMX_FLAG_LARGE_PAGES) ==
		    NULL);
		check("no usable huge pages: randomx_alloc_dataset("
		    "LARGE_PAGES) NULL",
		    randomx_alloc_dataset(RANDOMX_FLAG_LARGE_PAGES) == NULL);
	} else {
		vm = randomx_create_vm(RANDOMX_FLAG_LARGE_PAGES, cache0, NULL);
		check("free huge pages: randomx_create_vm(LARGE_PAGES) works",
		    vm != NULL);
		randomx_destroy_vm(vm);
	}
}

static void test_misuse(randomx_cache *c1)
{
	randomx_vm *vm = vm_of(hard_aes_flag(), c1), *full;
	uint8_t h[32], in[128];
	size_t len;

	randomx_release_cache(NULL);
	randomx_release_dataset(NULL);
	randomx_destroy_vm(NULL);
	randomx_init_cache(NULL, "x", 1);
	randomx_vm_set_cache(NULL, cache0);
	randomx_vm_set_cache(vm, NULL);
	randomx_vm_set_dataset(NULL, NULL);
	randomx_vm_set_dataset(vm, NULL);
	check("NULL objects: get_*_memory give NULL",
	    randomx_get_cache_memory(NULL) == NULL &&
	    randomx_get_dataset_memory(NULL) == NULL);
	randomx_calculate_hash(NULL, "x", 1, h);
	randomx_calculate_hash(vm, "x", 1, NULL);
	randomx_calculate_hash_first(NULL, "x", 1);
	randomx_calculate_hash_next(NULL, "x", 1, h);
	randomx_calculate_hash_last(NULL, h);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, NULL, 5, h);
	check("hash of NULL with a length: all 0xff", all_ff_bytes(h, 32));
	memset(h, 0, sizeof(h));
	randomx_calculate_commitment(NULL, 5, h, h);
	check("commitment of NULL with a length: all 0xff", all_ff_bytes(h, 32));
	memset(h, 0, sizeof(h));
	randomx_calculate_commitment("x", 1, NULL, h);
	check("commitment of a NULL hash: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_commitment("x", 1, h, NULL);

	/* _next and _last with nothing started; a bad input in the chain */
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("hash_last with no hash started: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_first(vm, NULL, 3);
	len = published_in(3, in);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_next(vm, in, len, h);
	check("hash_next after a bad first input: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_next(vm, NULL, 9, h);
	check("... and the chain goes on: the next input's hash",
	    equals_hex(h, published_v1[3]));
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("hash_last after a bad next input: all 0xff", all_ff_bytes(h, 32));

	/* a cache made uninitialized: its VMs give 0xff, set_cache refuses */
	randomx_init_cache(c1, NULL, 4);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, "x", 1, h);
	check("light VM on an uninitialized cache: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_first(vm, "x", 1);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("batch on an uninitialized cache: all 0xff", all_ff_bytes(h, 32));
	check("no new light VM on an uninitialized cache",
	    randomx_create_vm(RANDOMX_FLAG_DEFAULT, c1, NULL) == NULL);
	full = randomx_create_vm(RANDOMX_FLAG_FULL_MEM, c1, NULL);
	check("full mode does not take a cache for a dataset", full == NULL);
	randomx_vm_set_cache(vm, c1);
	randomx_vm_set_cache(vm, cache0);
	len = published_in(0, in);
	randomx_calculate_hash_first(vm, in, len);
	randomx_calculate_hash_last(vm, h);
	check("randomx_vm_set_cache to an initialized cache: hashes again",
	    equals_hex(h, published_v1[0]));
	randomx_destroy_vm(vm);
}

/*
 * A key over 4 GiB: the reference gives Argon2d the key's length as 32
 * bits, so of 2^32 + 1 zero bytes it hashes one, and the generator takes
 * the first 60.  The answer is the reference's (tevador/RandomX's
 * randomx_init_cache and randomx_calculate_hash, interpreted light mode,
 * on that key and "input").  Untouched anonymous pages serve as the key:
 * only its first 60 bytes are read.
 */
static void test_long_key(randomx_cache *c)
{
#if SIZE_MAX > UINT32_MAX
	const size_t n = ((size_t)1 << 32) + 1;
	void *key = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	randomx_vm *vm;
	uint8_t h[32];

	if (key == MAP_FAILED) {
		check("a key of 2^32 + 1 bytes: no address space for it", 0);
		return;
	}
	randomx_init_cache(c, key, n);
	vm = vm_of(hard_aes_flag(), c);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, "input", 5, h);
	check("a key of 2^32 + 1 zero bytes: the reference's hash",
	    equals_hex(h, "260e7d7e0bbf49515109624c942c37f8"
	    "3b57fa0f782c7dacbedc2466fe6ae1fa"));
	randomx_destroy_vm(vm);
	munmap(key, n);
#else
	(void)c;
	skip("a key over 4 GiB: size_t has 32 bits here");
#endif
}

/*
 * The bytes the process has mapped, from /proc/self/maps (Linux; which
 * qemu-user shows as the guest's, unlike /proc/self/statm), or -1.
 */
static long long mapped_bytes(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long start, end, sum = 0;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &start, &end) == 2)
			sum += end - start;
	fclose(f);
	return (long long)sum;
}

/*
 * Releasing gives the memory back: allocating and releasing caches,
 * datasets and VMs (mmap'ed, where valgrind does not look) one at a time,
 * three times, leaves the process's mappings as they were.  Where the
 * address space has no room for a second dataset (32-bit systems), that
 * part is skipped.
 */
static void test_memory_released(void)
{
	long long before = mapped_bytes(), after;
	int i, no_dataset = 0;

	if (before < 0) {
		skip("memory released: /proc/self/maps unreadable");
		return;
	}
	for (i = 0; i < 3; i++) {
		randomx_cache *c = randomx_alloc_cache(RANDOMX_FLAG_DEFAULT);
		randomx_dataset *d;
		randomx_vm *vm;

		check("cache allocated", c != NULL);
		randomx_release_cache(c);
		vm = randomx_create_vm(RANDOMX_FLAG_DEFAULT, cache0, NULL);
		check("light VM created", vm != NULL);
		randomx_destroy_vm(vm);
		d = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
		if (!d) {
			no_dataset = 1;
			continue;
		}
		vm = randomx_create_vm(RANDOMX_FLAG_FULL_MEM, NULL, d);
		check("full-mode VM created", vm != NULL);
		randomx_destroy_vm(vm);
		randomx_release_dataset(d);
	}
	if (no_dataset)
		skip("memory released: no room for a second dataset");
	after = mapped_bytes();
	check("release and destroy give the memory back (mappings)",
	    after >= 0 && after - before < (8 << 20));
}

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
