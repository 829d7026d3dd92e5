/*
 * aes-ni.c: RandomX's AES functions with x86's AES-NI instructions.
 * Compiled with -maes; only ever called through rx_aes_hard(), which
 * checks that the CPU has AES-NI.  Same results as aes.c's soft ones:
 * AESENC and AESDEC are exactly the rounds the specification names.
 * The loops are aes-impl.h's, shared with aes-armv8.c.
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

/* x86's AESENC and AESDEC are RandomX's rounds as they stand. */
static inline v128 enc(v128 s, v128 k)
{
	return _mm_aesenc_si128(s, k);
}

static inline v128 dec(v128 s, v128 k)
{
	return _mm_aesdec_si128(s, k);
}

#define RX_AES_FN(name) aesni_##name
#include "randomx/aes-impl.h"

const rx_aes_impl rx_aes_aesni = {
	"aesni", aesni_fill1r, aesni_fill4r, aesni_hash1r, aesni_hash_fill1r,
	aesni_mix_fe
};
