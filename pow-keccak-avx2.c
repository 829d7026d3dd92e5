/*
 * pow-keccak-avx2.c: SHA3-256 of 64-byte messages, 4 at a time, one
 * Keccak-f[1600] state per 64-bit lane of the AVX2 registers.
 *
 * Compiled alone with -mavx2 (the Makefile), called only where cpuid
 * reports AVX2.  The round is pow-keccak-round.h's on vectors; the
 * rotations by 8 and 56 bits are byte shuffles (one instruction instead
 * of two shifts and an OR).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <immintrin.h>

#include "cpu-features.h"
#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "pow-keccak-round.h"

#ifdef __AVX2__
#define TARGET
#else
#define TARGET __attribute__((target("avx2")))
#endif
#define INLINE static inline __attribute__((always_inline)) TARGET

typedef __m256i V;

INLINE V rol_shift(V x, const int n)
{
	return _mm256_or_si256(_mm256_slli_epi64(x, n),
	    _mm256_srli_epi64(x, 64 - n));
}

INLINE V rol8(V x)
{
	const V m = _mm256_set_epi8(14, 13, 12, 11, 10, 9, 8, 15,
	    6, 5, 4, 3, 2, 1, 0, 7, 14, 13, 12, 11, 10, 9, 8, 15,
	    6, 5, 4, 3, 2, 1, 0, 7);

	return _mm256_shuffle_epi8(x, m);
}

INLINE V rol56(V x)
{
	const V m = _mm256_set_epi8(8, 15, 14, 13, 12, 11, 10, 9,
	    0, 7, 6, 5, 4, 3, 2, 1, 8, 15, 14, 13, 12, 11, 10, 9,
	    0, 7, 6, 5, 4, 3, 2, 1);

	return _mm256_shuffle_epi8(x, m);
}

#define XOR(a, b) _mm256_xor_si256(a, b)
#define XOR5(a, b, c, d, e) XOR(XOR(XOR(a, b), XOR(c, d)), e)
#define ROL(a, n) ((n) == 8 ? rol8(a) : (n) == 56 ? rol56(a) : \
	rol_shift(a, (n)))
#define ANDN(a, b) _mm256_andnot_si256(a, b)

/* Transpose 4 x 4 64-bit words: r[i] word j <-> r[j] word i. */
INLINE void transpose4(V *r)
{
	V t0 = _mm256_unpacklo_epi64(r[0], r[1]);
	V t1 = _mm256_unpackhi_epi64(r[0], r[1]);
	V t2 = _mm256_unpacklo_epi64(r[2], r[3]);
	V t3 = _mm256_unpackhi_epi64(r[2], r[3]);

	r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
	r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
	r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
	r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* The 4 messages at in to their SHA3-256 at out (see pow-keccak.c for
 * the one-permutation layout). */
TARGET static void sha3_64_group(uint8_t *out, const uint8_t *in)
{
	V a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12;
	V a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
	V b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	V b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	V c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	V r[4];
	int i, round;

	for (i = 0; i < 4; i++)
		r[i] = _mm256_loadu_si256((const V *)&in[64 * i]);
	transpose4(r);
	a0 = r[0]; a1 = r[1]; a2 = r[2]; a3 = r[3];
	for (i = 0; i < 4; i++)
		r[i] = _mm256_loadu_si256((const V *)&in[64 * i + 32]);
	transpose4(r);
	a4 = r[0]; a5 = r[1]; a6 = r[2]; a7 = r[3];
	a8 = _mm256_set1_epi64x(0x06);
	a16 = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
	a9 = a10 = a11 = a12 = a13 = a14 = a15 = _mm256_setzero_si256();
	a17 = a18 = a19 = a20 = a21 = a22 = a23 = a24 = a9;

	for (round = 0; round < 24; round++) {
		KECCAK_THETA_RHO_PI_CHI
		a0 = XOR(a0, _mm256_set1_epi64x(
		    (long long)pow_keccak_rc[round]));
	}

	r[0] = a0; r[1] = a1; r[2] = a2; r[3] = a3;
	transpose4(r);
	for (i = 0; i < 4; i++)
		_mm256_storeu_si256((V *)&out[32 * i], r[i]);
}

/* Groups of 4; one left over alone, 2 or 3 in a group through a buffer.
 * out == in works as in the SHA-256 kernels. */
static void sha3_64_avx2(uint8_t *out, const uint8_t *in, size_t n)
{
	uint8_t buf[4 * 64];

	for (; n >= 4; n -= 4, in += 4 * 64, out += 4 * 32)
		sha3_64_group(out, in);
	if (n == 1) {
		pow_keccak_kernels_portable.sha3_64(out, in, 1);
	} else if (n) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, in, 64 * n);
		sha3_64_group(buf, buf);
		memcpy(out, buf, 32 * n);
		insecure_memzero(buf, sizeof(buf));
	}
}

const pow_keccak_kernels pow_keccak_kernels_avx2 = {
	"avx2", POW_CPU_AVX2, sha3_64_avx2
};
