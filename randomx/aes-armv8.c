/*
 * aes-armv8.c: RandomX's AES functions with the ARMv8 Crypto Extensions.
 * Compiled with -march=armv8-a+crypto; only ever called through
 * rx_aes_hard(), which checks the CPU's hardware capabilities.  Same
 * results as aes.c's soft ones.
 *
 * ARM splits a round differently from x86: AESE is AddRoundKey, then
 * ShiftRows and SubBytes; AESMC is MixColumns.  With a zero key to AESE
 * and the round key XORed afterwards, AESE + AESMC + EOR is exactly x86's
 * AESENC, and AESD + AESIMC + EOR its AESDEC.  Both act on the 16 bytes
 * in memory order, as x86's do.
 */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "randomx/aes.h"

typedef uint8x16_t v128;

static inline v128 load(const void *p)
{
	return vld1q_u8((const uint8_t *)p);
}

static inline void store(void *p, v128 x)
{
	vst1q_u8((uint8_t *)p, x);
}

/* x86's AESENC: one encryption round, key added last */
static inline v128 enc(v128 s, v128 k)
{
	return veorq_u8(vaesmcq_u8(vaeseq_u8(s, vdupq_n_u8(0))), k);
}

/* x86's AESDEC: one decryption round, key added last */
static inline v128 dec(v128 s, v128 k)
{
	return veorq_u8(vaesimcq_u8(vaesdq_u8(s, vdupq_n_u8(0))), k);
}

static void armv8_fill1r(uint8_t state[64], void *out, size_t len)
{
	const uint8_t *k = rx_aes_gen1r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s0 = dec(s0, k0);
		s1 = enc(s1, k1);
		s2 = dec(s2, k2);
		s3 = enc(s3, k3);
		store(p, s0);
		store(p + 16, s1);
		store(p + 32, s2);
		store(p + 48, s3);
	}
	store(state, s0);
	store(state + 16, s1);
	store(state + 32, s2);
	store(state + 48, s3);
}

static void armv8_fill4r(const uint8_t state[64], void *out, size_t len)
{
	const uint8_t *k = rx_aes_gen4r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48), k4 = load(k + 64), k5 = load(k + 80),
	    k6 = load(k + 96), k7 = load(k + 112);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s0 = dec(dec(dec(dec(s0, k0), k1), k2), k3);
		s1 = enc(enc(enc(enc(s1, k0), k1), k2), k3);
		s2 = dec(dec(dec(dec(s2, k4), k5), k6), k7);
		s3 = enc(enc(enc(enc(s3, k4), k5), k6), k7);
		store(p, s0);
		store(p + 16, s1);
		store(p + 32, s2);
		store(p + 48, s3);
	}
}

/* AesHash1R's two closing rounds, then the output. */
static void hash1r_finish(v128 h0, v128 h1, v128 h2, v128 h3,
    uint8_t hash[64])
{
	v128 x0 = load(rx_aes_hash1r_xkeys), x1 = load(rx_aes_hash1r_xkeys + 16);

	store(hash, enc(enc(h0, x0), x1));
	store(hash + 16, dec(dec(h1, x0), x1));
	store(hash + 32, enc(enc(h2, x0), x1));
	store(hash + 48, dec(dec(h3, x0), x1));
}

static void armv8_hash1r(const void *in, size_t len, uint8_t hash[64])
{
	const uint8_t *st = rx_aes_hash1r_state;
	v128 h0 = load(st), h1 = load(st + 16), h2 = load(st + 32),
	    h3 = load(st + 48);
	const uint8_t *p = in, *end = p + len;

	for (; p < end; p += 64) {
		h0 = enc(h0, load(p));
		h1 = dec(h1, load(p + 16));
		h2 = enc(h2, load(p + 32));
		h3 = dec(h3, load(p + 48));
	}
	hash1r_finish(h0, h1, h2, h3, hash);
}

static void armv8_hash_fill1r(void *buf, size_t len, uint8_t hash[64],
    uint8_t state[64])
{
	const uint8_t *st = rx_aes_hash1r_state, *k = rx_aes_gen1r_keys;
	v128 h0 = load(st), h1 = load(st + 16), h2 = load(st + 32),
	    h3 = load(st + 48);
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = buf, *end = p + len;

	for (; p < end; p += 64) {
		h0 = enc(h0, load(p));
		h1 = dec(h1, load(p + 16));
		h2 = enc(h2, load(p + 32));
		h3 = dec(h3, load(p + 48));
		s0 = dec(s0, k0);
		s1 = enc(s1, k1);
		s2 = dec(s2, k2);
		s3 = enc(s3, k3);
		store(p, s0);
		store(p + 16, s1);
		store(p + 32, s2);
		store(p + 48, s3);
	}
	store(state, s0);
	store(state + 16, s1);
	store(state + 32, s2);
	store(state + 48, s3);
	hash1r_finish(h0, h1, h2, h3, hash);
}

/*
 * f and e hold each register as two little-endian 64-bit halves, which on
 * little-endian AArch64 is the register's 16 bytes in memory order.
 */
static void armv8_mix_fe(uint64_t f[8], const uint64_t e[8])
{
	v128 f0 = load(f), f1 = load(f + 2), f2 = load(f + 4),
	    f3 = load(f + 6);
	unsigned i;

	for (i = 0; i < 4; i++) {
		v128 k = load(e + 2 * i);

		f0 = enc(f0, k);
		f1 = dec(f1, k);
		f2 = enc(f2, k);
		f3 = dec(f3, k);
	}
	store(f, f0);
	store(f + 2, f1);
	store(f + 4, f2);
	store(f + 6, f3);
}

const rx_aes_impl rx_aes_armv8 = {
	"armv8", armv8_fill1r, armv8_fill4r, armv8_hash1r, armv8_hash_fill1r,
	armv8_mix_fe
};
