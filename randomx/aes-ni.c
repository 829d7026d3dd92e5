/*
 * aes-ni.c: RandomX's AES functions with x86's AES-NI instructions.
 * Compiled with -maes; only ever called through rx_aes_hard(), which
 * checks that the CPU has AES-NI.  Same results as aes.c's soft ones:
 * AESENC and AESDEC are exactly the rounds the specification names.
 */
#include <stddef.h>
#include <stdint.h>
#include <wmmintrin.h>

#include "randomx/aes.h"

typedef __m128i v128;

static inline v128 load(const void *p)
{
	return _mm_loadu_si128((const v128 *)p);
}

static inline void store(void *p, v128 x)
{
	_mm_storeu_si128((v128 *)p, x);
}

static void aesni_fill1r(uint8_t state[64], void *out, size_t len)
{
	const uint8_t *k = rx_aes_gen1r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s0 = _mm_aesdec_si128(s0, k0);
		s1 = _mm_aesenc_si128(s1, k1);
		s2 = _mm_aesdec_si128(s2, k2);
		s3 = _mm_aesenc_si128(s3, k3);
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

static void aesni_fill4r(const uint8_t state[64], void *out, size_t len)
{
	const uint8_t *k = rx_aes_gen4r_keys;
	v128 k0 = load(k), k1 = load(k + 16), k2 = load(k + 32),
	    k3 = load(k + 48), k4 = load(k + 64), k5 = load(k + 80),
	    k6 = load(k + 96), k7 = load(k + 112);
	v128 s0 = load(state), s1 = load(state + 16), s2 = load(state + 32),
	    s3 = load(state + 48);
	uint8_t *p = out, *end = p + len;

	for (; p < end; p += 64) {
		s0 = _mm_aesdec_si128(s0, k0);
		s1 = _mm_aesenc_si128(s1, k0);
		s2 = _mm_aesdec_si128(s2, k4);
		s3 = _mm_aesenc_si128(s3, k4);
		s0 = _mm_aesdec_si128(s0, k1);
		s1 = _mm_aesenc_si128(s1, k1);
		s2 = _mm_aesdec_si128(s2, k5);
		s3 = _mm_aesenc_si128(s3, k5);
		s0 = _mm_aesdec_si128(s0, k2);
		s1 = _mm_aesenc_si128(s1, k2);
		s2 = _mm_aesdec_si128(s2, k6);
		s3 = _mm_aesenc_si128(s3, k6);
		s0 = _mm_aesdec_si128(s0, k3);
		s1 = _mm_aesenc_si128(s1, k3);
		s2 = _mm_aesdec_si128(s2, k7);
		s3 = _mm_aesenc_si128(s3, k7);
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

	h0 = _mm_aesenc_si128(h0, x0);
	h1 = _mm_aesdec_si128(h1, x0);
	h2 = _mm_aesenc_si128(h2, x0);
	h3 = _mm_aesdec_si128(h3, x0);
	h0 = _mm_aesenc_si128(h0, x1);
	h1 = _mm_aesdec_si128(h1, x1);
	h2 = _mm_aesenc_si128(h2, x1);
	h3 = _mm_aesdec_si128(h3, x1);
	store(hash, h0);
	store(hash + 16, h1);
	store(hash + 32, h2);
	store(hash + 48, h3);
}

static void aesni_hash1r(const void *in, size_t len, uint8_t hash[64])
{
	const uint8_t *st = rx_aes_hash1r_state;
	v128 h0 = load(st), h1 = load(st + 16), h2 = load(st + 32),
	    h3 = load(st + 48);
	const uint8_t *p = in, *end = p + len;

	for (; p < end; p += 64) {
		h0 = _mm_aesenc_si128(h0, load(p));
		h1 = _mm_aesdec_si128(h1, load(p + 16));
		h2 = _mm_aesenc_si128(h2, load(p + 32));
		h3 = _mm_aesdec_si128(h3, load(p + 48));
	}
	hash1r_finish(h0, h1, h2, h3, hash);
}

static void aesni_hash_fill1r(void *buf, size_t len, uint8_t hash[64],
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
		h0 = _mm_aesenc_si128(h0, load(p));
		h1 = _mm_aesdec_si128(h1, load(p + 16));
		h2 = _mm_aesenc_si128(h2, load(p + 32));
		h3 = _mm_aesdec_si128(h3, load(p + 48));
		s0 = _mm_aesdec_si128(s0, k0);
		s1 = _mm_aesenc_si128(s1, k1);
		s2 = _mm_aesdec_si128(s2, k2);
		s3 = _mm_aesenc_si128(s3, k3);
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
 * x86 is the register's 16 bytes in memory order.
 */
static void aesni_mix_fe(uint64_t f[8], const uint64_t e[8])
{
	v128 f0 = load(f), f1 = load(f + 2), f2 = load(f + 4),
	    f3 = load(f + 6);
	unsigned i;

	for (i = 0; i < 4; i++) {
		v128 k = load(e + 2 * i);

		f0 = _mm_aesenc_si128(f0, k);
		f1 = _mm_aesdec_si128(f1, k);
		f2 = _mm_aesenc_si128(f2, k);
		f3 = _mm_aesdec_si128(f3, k);
	}
	store(f, f0);
	store(f + 2, f1);
	store(f + 4, f2);
	store(f + 6, f3);
}

const rx_aes_impl rx_aes_aesni = {
	"aesni", aesni_fill1r, aesni_fill4r, aesni_hash1r, aesni_hash_fill1r,
	aesni_mix_fe
};
