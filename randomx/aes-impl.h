/*
 * aes-impl.h: RandomX's AES functions written once for the hardware
 * implementations (aes-ni.c, aes-armv8.c).  Internal; each of those files
 * includes it once.
 *
 * Before including it, the file defines, for its instruction set:
 *	v128			a 16-byte register, bytes in memory order
 *	v128 load(const void *p), void store(void *p, v128 x)
 *				unaligned 16-byte load and store
 *	v128 enc(v128 s, v128 k), v128 dec(v128 s, v128 k)
 *				x86's AESENC and AESDEC: one round, key last
 *	RX_AES_FN(name)		the file's name for function name (a prefix
 *				such as aesni_), so that symbols and profiles
 *				still say which implementation ran
 * and afterwards builds its rx_aes_impl from RX_AES_FN(fill1r),
 * RX_AES_FN(fill4r), RX_AES_FN(hash1r), RX_AES_FN(hash_fill1r) and
 * RX_AES_FN(mix_fe) (contracts in aes.h).
 *
 * The rounds on independent columns are written interleaved (all four
 * columns' first round, then their second...): the order the CPU can
 * overlap them in, which the compiler then keeps.
 */
#ifndef RX_AES_IMPL_H
#define RX_AES_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "randomx/aes.h"

static void RX_AES_FN(fill1r)(uint8_t state[64], void *out, size_t len)
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

static void RX_AES_FN(fill4r)(const uint8_t state[64], void *out,
    size_t len)
{
	const uint8_t *k = rx_aes_gen4r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48), k4 = load(k + 64), k5 = load(k + 80),
	    k6 = load(k + 96), k7 = load(k + 112);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s0 = dec(s0, k0);
		s1 = enc(s1, k0);
		s2 = dec(s2, k4);
		s3 = enc(s3, k4);
		s0 = dec(s0, k1);
		s1 = enc(s1, k1);
		s2 = dec(s2, k5);
		s3 = enc(s3, k5);
		s0 = dec(s0, k2);
		s1 = enc(s1, k2);
		s2 = dec(s2, k6);
		s3 = enc(s3, k6);
		s0 = dec(s0, k3);
		s1 = enc(s1, k3);
		s2 = dec(s2, k7);
		s3 = enc(s3, k7);
		store(p, s0);
		store(p + 16, s1);
		store(p + 32, s2);
		store(p + 48, s3);
	}
}

/* AesHash1R's two closing rounds, then the output. */
static void RX_AES_FN(hash1r_finish)(v128 h0, v128 h1, v128 h2, v128 h3,
    uint8_t hash[64])
{
	v128 x0 = load(rx_aes_hash1r_xkeys), x1 = load(rx_aes_hash1r_xkeys + 16);

	h0 = enc(h0, x0);
	h1 = dec(h1, x0);
	h2 = enc(h2, x0);
	h3 = dec(h3, x0);
	h0 = enc(h0, x1);
	h1 = dec(h1, x1);
	h2 = enc(h2, x1);
	h3 = dec(h3, x1);
	store(hash, h0);
	store(hash + 16, h1);
	store(hash + 32, h2);
	store(hash + 48, h3);
}

static void RX_AES_FN(hash1r)(const void *in, size_t len, uint8_t hash[64])
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
	RX_AES_FN(hash1r_finish)(h0, h1, h2, h3, hash);
}

static void RX_AES_FN(hash_fill1r)(void *buf, size_t len, uint8_t hash[64],
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
	RX_AES_FN(hash1r_finish)(h0, h1, h2, h3, hash);
}

/*
 * f and e hold each register as two little-endian 64-bit halves; the
 * including file's load() must read them as the register's 16 bytes in
 * memory order (true on x86 and on little-endian AArch64).
 */
static void RX_AES_FN(mix_fe)(uint64_t f[8], const uint64_t e[8])
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

#endif
