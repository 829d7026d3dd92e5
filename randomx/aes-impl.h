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

/* Four columns, the 64 bytes every function here works on at a time. */
typedef struct {
	v128 c0, c1, c2, c3;
} RX_AES_FN(cols);

static inline RX_AES_FN(cols) RX_AES_FN(load4)(const void *p)
{
	const uint8_t *b = p;
	RX_AES_FN(cols) x = { load(b), load(b + 16), load(b + 32),
		load(b + 48) };

	return x;
}

static inline void RX_AES_FN(store4)(void *p, RX_AES_FN(cols) x)
{
	uint8_t *b = p;

	store(b, x.c0);
	store(b + 16, x.c1);
	store(b + 32, x.c2);
	store(b + 48, x.c3);
}

/* One AesGenerator1R step: each column one round with its own key. */
static inline RX_AES_FN(cols) RX_AES_FN(gen1r)(RX_AES_FN(cols) s,
    RX_AES_FN(cols) k)
{
	s.c0 = dec(s.c0, k.c0);
	s.c1 = enc(s.c1, k.c1);
	s.c2 = dec(s.c2, k.c2);
	s.c3 = enc(s.c3, k.c3);
	return s;
}

/* One AesHash1R step: each column one round keyed with 16 input bytes. */
static inline RX_AES_FN(cols) RX_AES_FN(hash1r_step)(RX_AES_FN(cols) h,
    const uint8_t *p)
{
	h.c0 = enc(h.c0, load(p));
	h.c1 = dec(h.c1, load(p + 16));
	h.c2 = enc(h.c2, load(p + 32));
	h.c3 = dec(h.c3, load(p + 48));
	return h;
}

static void RX_AES_FN(fill1r)(uint8_t state[64], void *out, size_t len)
{
	RX_AES_FN(cols) k = RX_AES_FN(load4)(rx_aes_gen1r_keys);
	RX_AES_FN(cols) s = RX_AES_FN(load4)(state);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s = RX_AES_FN(gen1r)(s, k);
		RX_AES_FN(store4)(p, s);
	}
	RX_AES_FN(store4)(state, s);
}

static void RX_AES_FN(fill4r)(const uint8_t state[64], void *out,
    size_t len)
{
	const uint8_t *k = rx_aes_gen4r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48), k4 = load(k + 64), k5 = load(k + 80),
	    k6 = load(k + 96), k7 = load(k + 112);
	RX_AES_FN(cols) s = RX_AES_FN(load4)(state);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s.c0 = dec(s.c0, k0);
		s.c1 = enc(s.c1, k0);
		s.c2 = dec(s.c2, k4);
		s.c3 = enc(s.c3, k4);
		s.c0 = dec(s.c0, k1);
		s.c1 = enc(s.c1, k1);
		s.c2 = dec(s.c2, k5);
		s.c3 = enc(s.c3, k5);
		s.c0 = dec(s.c0, k2);
		s.c1 = enc(s.c1, k2);
		s.c2 = dec(s.c2, k6);
		s.c3 = enc(s.c3, k6);
		s.c0 = dec(s.c0, k3);
		s.c1 = enc(s.c1, k3);
		s.c2 = dec(s.c2, k7);
		s.c3 = enc(s.c3, k7);
		RX_AES_FN(store4)(p, s);
	}
}

/* AesHash1R's two closing rounds, then the output. */
static void RX_AES_FN(hash1r_finish)(v128 h0, v128 h1, v128 h2, v128 h3,
    uint8_t hash[64])
{
	RX_AES_FN(cols) h = { h0, h1, h2, h3 };
	v128 x0 = load(rx_aes_hash1r_xkeys), x1 = load(rx_aes_hash1r_xkeys + 16);

	h.c0 = enc(h.c0, x0);
	h.c1 = dec(h.c1, x0);
	h.c2 = enc(h.c2, x0);
	h.c3 = dec(h.c3, x0);
	h.c0 = enc(h.c0, x1);
	h.c1 = dec(h.c1, x1);
	h.c2 = enc(h.c2, x1);
	h.c3 = dec(h.c3, x1);
	RX_AES_FN(store4)(hash, h);
}

static void RX_AES_FN(hash1r)(const void *in, size_t len, uint8_t hash[64])
{
	RX_AES_FN(cols) h = RX_AES_FN(load4)(rx_aes_hash1r_state);
	const uint8_t *p = in, *end = p + len;

	for (; p < end; p += 64)
		h = RX_AES_FN(hash1r_step)(h, p);
	RX_AES_FN(hash1r_finish)(h.c0, h.c1, h.c2, h.c3, hash);
}

static void RX_AES_FN(hash_fill1r)(void *buf, size_t len, uint8_t hash[64],
    uint8_t state[64])
{
	RX_AES_FN(cols) h = RX_AES_FN(load4)(rx_aes_hash1r_state);
	RX_AES_FN(cols) k = RX_AES_FN(load4)(rx_aes_gen1r_keys);
	RX_AES_FN(cols) s = RX_AES_FN(load4)(state);
	uint8_t *p = buf, *end = p + len;

	for (; p < end; p += 64) {
		h = RX_AES_FN(hash1r_step)(h, p);
		s = RX_AES_FN(gen1r)(s, k);
		RX_AES_FN(store4)(p, s);
	}
	RX_AES_FN(store4)(state, s);
	RX_AES_FN(hash1r_finish)(h.c0, h.c1, h.c2, h.c3, hash);
}

/*
 * f and e hold each register as two little-endian 64-bit halves; the
 * including file's load() must read them as the register's 16 bytes in
 * memory order (true on x86 and on little-endian AArch64).
 */
static void RX_AES_FN(mix_fe)(uint64_t f[8], const uint64_t e[8])
{
	RX_AES_FN(cols) x = RX_AES_FN(load4)(f);
	unsigned i;

	for (i = 0; i < 4; i++) {
		v128 k = load(e + 2 * i);

		x.c0 = enc(x.c0, k);
		x.c1 = dec(x.c1, k);
		x.c2 = enc(x.c2, k);
		x.c3 = dec(x.c3, k);
	}
	RX_AES_FN(store4)(f, x);
}

#endif
