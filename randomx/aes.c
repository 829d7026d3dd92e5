/*
 * aes.c: RandomX's AES functions in portable C ("soft"), and the choice
 * of the AES-NI ones.  See aes.h.
 *
 * A round is done with the usual four 256-entry tables per direction,
 * which fold SubBytes and MixColumns (or their inverses) into one lookup
 * per byte; ShiftRows is the choice of which column each byte is taken
 * from.  A column is kept as a 32-bit word whose least significant byte is
 * the column's first byte, so the code is the same on either byte order
 * once columns are loaded with le32dec.
 *
 * The tables are computed once per process from the field arithmetic
 * rather than written out, so there is no table to mistype; the tests
 * check them against AES-NI and the published vectors.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "randomx/aes.h"
#include "randomx/cpu.h"
#include "sysendian.h"

const uint8_t rx_aes_gen1r_keys[64] = {
	0x53, 0xa5, 0xac, 0x6d, 0x09, 0x66, 0x71, 0x62,
	0x2b, 0x55, 0xb5, 0xdb, 0x17, 0x49, 0xf4, 0xb4,
	0x07, 0xaf, 0x7c, 0x6d, 0x0d, 0x71, 0x6a, 0x84,
	0x78, 0xd3, 0x25, 0x17, 0x4e, 0xdc, 0xa1, 0x0d,
	0xf1, 0x62, 0x12, 0x3f, 0xc6, 0x7e, 0x94, 0x9f,
	0x4f, 0x79, 0xc0, 0xf4, 0x45, 0xe3, 0x20, 0x3e,
	0x35, 0x81, 0xef, 0x6a, 0x7c, 0x31, 0xba, 0xb1,
	0x88, 0x4c, 0x31, 0x16, 0x54, 0x91, 0x16, 0x49
};

const uint8_t rx_aes_gen4r_keys[128] = {
	0xdd, 0xaa, 0x21, 0x64, 0xdb, 0x3d, 0x83, 0xd1,
	0x2b, 0x6d, 0x54, 0x2f, 0x3f, 0xd2, 0xe5, 0x99,
	0x50, 0x34, 0x0e, 0xb2, 0x55, 0x3f, 0x91, 0xb6,
	0x53, 0x9d, 0xf7, 0x06, 0xe5, 0xcd, 0xdf, 0xa5,
	0x04, 0xd9, 0x3e, 0x5c, 0xaf, 0x7b, 0x5e, 0x51,
	0x9f, 0x67, 0xa4, 0x0a, 0xbf, 0x02, 0x1c, 0x17,
	0x63, 0x37, 0x62, 0x85, 0x08, 0x5d, 0x8f, 0xe7,
	0x85, 0x37, 0x67, 0xcd, 0x91, 0xd2, 0xde, 0xd8,
	0x73, 0x6f, 0x82, 0xb5, 0xa6, 0xa7, 0xd6, 0xe3,
	0x6d, 0x8b, 0x51, 0x3d, 0xb4, 0xff, 0x9e, 0x22,
	0xf3, 0x6b, 0x56, 0xc7, 0xd9, 0xb3, 0x10, 0x9c,
	0x4e, 0x4d, 0x02, 0xe9, 0xd2, 0xb7, 0x72, 0xb2,
	0xe7, 0xc9, 0x73, 0xf2, 0x8b, 0xa3, 0x65, 0xf7,
	0x0a, 0x66, 0xa9, 0x2b, 0xa7, 0xef, 0x3b, 0xf6,
	0x09, 0xd6, 0x7c, 0x7a, 0xde, 0x39, 0x58, 0x91,
	0xfd, 0xd1, 0x06, 0x0c, 0x2d, 0x76, 0xb0, 0xc0
};

const uint8_t rx_aes_hash1r_state[64] = {
	0x0d, 0x2c, 0xb5, 0x92, 0xde, 0x56, 0xa8, 0x9f,
	0x47, 0xdb, 0x82, 0xcc, 0xad, 0x3a, 0x98, 0xd7,
	0x6e, 0x99, 0x8d, 0x33, 0x98, 0xb7, 0xc7, 0x15,
	0x5a, 0x12, 0x9e, 0xf5, 0x57, 0x80, 0xe7, 0xac,
	0x17, 0x00, 0x77, 0x6a, 0xd0, 0xc7, 0x62, 0xae,
	0x6b, 0x50, 0x79, 0x50, 0xe4, 0x7c, 0xa0, 0xe8,
	0x0c, 0x24, 0x0a, 0x63, 0x8d, 0x82, 0xad, 0x07,
	0x05, 0x00, 0xa1, 0x79, 0x48, 0x49, 0x99, 0x7e
};

const uint8_t rx_aes_hash1r_xkeys[32] = {
	0x89, 0x83, 0xfa, 0xf6, 0x9f, 0x94, 0x24, 0x8b,
	0xbf, 0x56, 0xdc, 0x90, 0x01, 0x02, 0x89, 0x06,
	0xd1, 0x63, 0xb2, 0x61, 0x3c, 0xe0, 0xf4, 0x51,
	0xc6, 0x43, 0x10, 0xee, 0x9b, 0xf9, 0x18, 0xed
};

/* te[k][x]: SubBytes then MixColumns of byte x in row k; td: inverses. */
static uint32_t te[4][256], td[4][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* Multiplication in GF(2^8) modulo AES's x^8 + x^4 + x^3 + x + 1. */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b));
		b >>= 1;
	}
	return p;
}

/* x^254 = x^-1 for x != 0 (and 0 for 0, as the S-box wants). */
static uint8_t gf_inverse(uint8_t x)
{
	uint8_t result = 1, base = x;
	unsigned e = 254;

	while (e) {
		if (e & 1)
			result = gf_mul(result, base);
		base = gf_mul(base, base);
		e >>= 1;
	}
	return result;
}

static uint8_t rotl8(uint8_t x, unsigned n)
{
	return (uint8_t)((x << n) | (x >> (8 - n)));
}

static uint32_t rotl32(uint32_t x, unsigned n)
{
	return n ? (x << n) | (x >> (32 - n)) : x;
}

/* The four bytes (b0 first) of a column word. */
static uint32_t column(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
	return (uint32_t)b0 | ((uint32_t)b1 << 8) | ((uint32_t)b2 << 16) |
	    ((uint32_t)b3 << 24);
}

static void tables_init(void)
{
	uint8_t inv_sbox[256];
	unsigned x, k;

	for (x = 0; x < 256; x++) {
		uint8_t inv = gf_inverse((uint8_t)x);
		uint8_t s = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^
		    rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);

		inv_sbox[s] = (uint8_t)x;
		/* MixColumns' first column is (2, 1, 1, 3). */
		te[0][x] = column(gf_mul(s, 2), s, s, gf_mul(s, 3));
	}
	for (x = 0; x < 256; x++) {
		uint8_t si = inv_sbox[x];

		/* InvMixColumns' first column is (14, 9, 13, 11). */
		td[0][x] = column(gf_mul(si, 14), gf_mul(si, 9),
		    gf_mul(si, 13), gf_mul(si, 11));
	}
	for (k = 1; k < 4; k++)
		for (x = 0; x < 256; x++) {
			te[k][x] = rotl32(te[0][x], 8 * k);
			td[k][x] = rotl32(td[0][x], 8 * k);
		}
}

/* The rounds and column moves must inline into the loops to be fast. */
#ifdef __GNUC__
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

static inline void tables_ready(void)
{
	pthread_once(&tables_once, tables_init);
}

#define B0(w) ((w) & 0xff)
#define B1(w) (((w) >> 8) & 0xff)
#define B2(w) (((w) >> 16) & 0xff)
#define B3(w) ((w) >> 24)

/* AESENC on columns s[0..3] with key k: row r comes from column j + r. */
HOT void enc_round(uint32_t s[4], const uint32_t k[4])
{
	uint32_t t0 = te[0][B0(s[0])] ^ te[1][B1(s[1])] ^
	    te[2][B2(s[2])] ^ te[3][B3(s[3])] ^ k[0];
	uint32_t t1 = te[0][B0(s[1])] ^ te[1][B1(s[2])] ^
	    te[2][B2(s[3])] ^ te[3][B3(s[0])] ^ k[1];
	uint32_t t2 = te[0][B0(s[2])] ^ te[1][B1(s[3])] ^
	    te[2][B2(s[0])] ^ te[3][B3(s[1])] ^ k[2];
	uint32_t t3 = te[0][B0(s[3])] ^ te[1][B1(s[0])] ^
	    te[2][B2(s[1])] ^ te[3][B3(s[2])] ^ k[3];

	s[0] = t0;
	s[1] = t1;
	s[2] = t2;
	s[3] = t3;
}

/* AESDEC: row r comes from column j - r. */
HOT void dec_round(uint32_t s[4], const uint32_t k[4])
{
	uint32_t t0 = td[0][B0(s[0])] ^ td[1][B1(s[3])] ^
	    td[2][B2(s[2])] ^ td[3][B3(s[1])] ^ k[0];
	uint32_t t1 = td[0][B0(s[1])] ^ td[1][B1(s[0])] ^
	    td[2][B2(s[3])] ^ td[3][B3(s[2])] ^ k[1];
	uint32_t t2 = td[0][B0(s[2])] ^ td[1][B1(s[1])] ^
	    td[2][B2(s[0])] ^ td[3][B3(s[3])] ^ k[2];
	uint32_t t3 = td[0][B0(s[3])] ^ td[1][B1(s[2])] ^
	    td[2][B2(s[1])] ^ td[3][B3(s[0])] ^ k[3];

	s[0] = t0;
	s[1] = t1;
	s[2] = t2;
	s[3] = t3;
}

/* n 16-byte columns from memory into words, and back. */
HOT void load_cols(uint32_t (*w)[4], const uint8_t *p, unsigned n)
{
	unsigned i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++)
			w[i][j] = le32dec(p + 16 * i + 4 * j);
}

HOT void store_cols(uint8_t *p, uint32_t (*w)[4], unsigned n)
{
	unsigned i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++)
			le32enc(p + 16 * i + 4 * j, w[i][j]);
}

void rx_aes_enc_round_soft(uint8_t s[16], const uint8_t key[16])
{
	uint32_t w[1][4], k[1][4];

	tables_ready();
	load_cols(w, s, 1);
	load_cols(k, key, 1);
	enc_round(w[0], k[0]);
	store_cols(s, w, 1);
}

void rx_aes_dec_round_soft(uint8_t s[16], const uint8_t key[16])
{
	uint32_t w[1][4], k[1][4];

	tables_ready();
	load_cols(w, s, 1);
	load_cols(k, key, 1);
	dec_round(w[0], k[0]);
	store_cols(s, w, 1);
}

static void soft_fill1r(uint8_t state[64], void *out, size_t len)
{
	uint32_t s[4][4], k[4][4];
	uint8_t *p = out;
	size_t off;

	tables_ready();
	load_cols(s, state, 4);
	load_cols(k, rx_aes_gen1r_keys, 4);
	for (off = 0; off < len; off += 64) {
		dec_round(s[0], k[0]);
		enc_round(s[1], k[1]);
		dec_round(s[2], k[2]);
		enc_round(s[3], k[3]);
		store_cols(p + off, s, 4);
	}
	store_cols(state, s, 4);
}

static void soft_fill4r(const uint8_t state[64], void *out, size_t len)
{
	uint32_t s[4][4], k[8][4];
	uint8_t *p = out;
	size_t off;
	unsigned r;

	tables_ready();
	load_cols(s, state, 4);
	load_cols(k, rx_aes_gen4r_keys, 8);
	for (off = 0; off < len; off += 64) {
		/* Columns 0 and 1 use keys 0-3, columns 2 and 3 keys 4-7. */
		for (r = 0; r < 4; r++) {
			dec_round(s[0], k[r]);
			enc_round(s[1], k[r]);
			dec_round(s[2], k[4 + r]);
			enc_round(s[3], k[4 + r]);
		}
		store_cols(p + off, s, 4);
	}
}

/* AesHash1R's two closing rounds, the same pair of keys for every column. */
static void hash1r_finish(uint32_t h[4][4], uint8_t hash[64])
{
	uint32_t x[2][4];
	unsigned r;

	load_cols(x, rx_aes_hash1r_xkeys, 2);
	for (r = 0; r < 2; r++) {
		enc_round(h[0], x[r]);
		dec_round(h[1], x[r]);
		enc_round(h[2], x[r]);
		dec_round(h[3], x[r]);
	}
	store_cols(hash, h, 4);
}

static void soft_hash1r(const void *in, size_t len, uint8_t hash[64])
{
	uint32_t h[4][4], k[4][4];
	const uint8_t *p = in;
	size_t off;

	tables_ready();
	load_cols(h, rx_aes_hash1r_state, 4);
	for (off = 0; off < len; off += 64) {
		load_cols(k, p + off, 4);
		enc_round(h[0], k[0]);
		dec_round(h[1], k[1]);
		enc_round(h[2], k[2]);
		dec_round(h[3], k[3]);
	}
	hash1r_finish(h, hash);
}

static void soft_hash_fill1r(void *buf, size_t len, uint8_t hash[64],
    uint8_t state[64])
{
	uint32_t h[4][4], k[4][4], s[4][4], g[4][4];
	uint8_t *p = buf;
	size_t off;

	tables_ready();
	load_cols(h, rx_aes_hash1r_state, 4);
	load_cols(s, state, 4);
	load_cols(g, rx_aes_gen1r_keys, 4);
	for (off = 0; off < len; off += 64) {
		load_cols(k, p + off, 4);
		enc_round(h[0], k[0]);
		dec_round(h[1], k[1]);
		enc_round(h[2], k[2]);
		dec_round(h[3], k[3]);
		dec_round(s[0], g[0]);
		enc_round(s[1], g[1]);
		dec_round(s[2], g[2]);
		enc_round(s[3], g[3]);
		store_cols(p + off, s, 4);
	}
	store_cols(state, s, 4);
	hash1r_finish(h, hash);
}

/* A register half-pair (two little-endian words) as four column words. */
HOT void words_to_cols(uint32_t c[4], const uint64_t *w)
{
	c[0] = (uint32_t)w[0];
	c[1] = (uint32_t)(w[0] >> 32);
	c[2] = (uint32_t)w[1];
	c[3] = (uint32_t)(w[1] >> 32);
}

static void soft_mix_fe(uint64_t f[8], const uint64_t e[8])
{
	uint32_t s[4][4], k[4];
	unsigned i;

	tables_ready();
	for (i = 0; i < 4; i++)
		words_to_cols(s[i], f + 2 * i);
	for (i = 0; i < 4; i++) {
		words_to_cols(k, e + 2 * i);
		enc_round(s[0], k);
		dec_round(s[1], k);
		enc_round(s[2], k);
		dec_round(s[3], k);
	}
	for (i = 0; i < 4; i++) {
		f[2 * i] = s[i][0] | ((uint64_t)s[i][1] << 32);
		f[2 * i + 1] = s[i][2] | ((uint64_t)s[i][3] << 32);
	}
}

const rx_aes_impl rx_aes_soft = {
	"soft", soft_fill1r, soft_fill4r, soft_hash1r, soft_hash_fill1r,
	soft_mix_fe
};

const rx_aes_impl *rx_aes_hard(void)
{
#ifdef RX_X86_ISAS
	if (rx_cpu_uses(RX_USE_AESNI))
		return &rx_aes_aesni;
#endif
#ifdef RX_A64_ISAS
	if (rx_cpu_uses(RX_USE_ARMV8_AES))
		return &rx_aes_armv8;
#endif
	return NULL;
}
