/*
 * tests-rx-vm-aes.c: the AES functions: the specification's constants against
 * their BLAKE2b derivation, a FIPS-197 round, the published answers, the
 * vector file's AES lines for every implementation this CPU runs, and
 * soft AES against AES-NI on random inputs.
 *
 * Part of tests-rx-vm, included by tests-rx-vm.c (which has the includes,
 * the shared helpers and main): the parts are one program so that their
 * checks add up to one count and one summary line.
 */

/* ---- AES ---- */

static const rx_aes_impl *impls[2];
static int n_impls;

static void setup_impls(void)
{
	impls[n_impls++] = &rx_aes_soft;
	if (rx_aes_hard())
		impls[n_impls++] = rx_aes_hard();
	else
		skip("hardware AES: not in this build or this CPU");
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
