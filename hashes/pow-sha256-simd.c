/*
 * pow-sha256-simd.c: the many-at-once SHA-256 kernels on 32-bit vector
 * lanes, one message per lane: 8 lanes with AVX2, 4 with SSE2.
 *
 * The Makefile compiles this file twice: as pow-sha256-avx2.o with -mavx2
 * -DPOW_SIMD_AVX2 and as pow-sha256-sse2.o with -msse2 -DPOW_SIMD_SSE2;
 * the dispatcher calls each only where cpuid reports its instruction set.
 * These are for CPUs without SHA-NI (on those with it, SHA-NI is several
 * times faster per core).
 *
 * Each round is the FIPS 180-4 round on all lanes.  The savings are the
 * usual ones: Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) reuses the previous
 * round's a ^ b as this round's b ^ c; the padding block of a 64-byte
 * message has a constant schedule (pow_sha256_pad64_wk), so it costs 64
 * rounds and no schedule; and the last 8 words of a 32-byte message are
 * constants, which the compiler folds into the early schedule words.
 * Messages are moved into lanes by transposing 8 x 8 (4 x 4) blocks of
 * words.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <immintrin.h>

#include "cpu-features.h"
#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "sha256.h"

#if defined(POW_SIMD_AVX2)
#define LANES 8
#define SUFFIX(name) name##_avx2
#ifdef __AVX2__
#define TARGET
#else
#define TARGET __attribute__((target("avx2")))
#endif
typedef __m256i V;
#define ADD(a, b) _mm256_add_epi32(a, b)
#define XOR(a, b) _mm256_xor_si256(a, b)
#define AND(a, b) _mm256_and_si256(a, b)
#define ANDN(a, b) _mm256_andnot_si256(a, b)
#define OR(a, b) _mm256_or_si256(a, b)
#define SHR(a, n) _mm256_srli_epi32(a, n)
#define SHL(a, n) _mm256_slli_epi32(a, n)
#define SET1(x) _mm256_set1_epi32((int)(x))
#define LOADU(p) _mm256_loadu_si256((const V *)(p))
#define STOREU(p, v) _mm256_storeu_si256((V *)(p), v)
/* Chains left over past the last full group that are cheaper one at a
 * time in portable C than in a group of 8 with idle lanes. */
#define ALONE_MAX 2
#elif defined(POW_SIMD_SSE2)
#define LANES 4
#define SUFFIX(name) name##_sse2
#ifdef __SSE2__
#define TARGET
#else
#define TARGET __attribute__((target("sse2")))
#endif
typedef __m128i V;
#define ADD(a, b) _mm_add_epi32(a, b)
#define XOR(a, b) _mm_xor_si128(a, b)
#define AND(a, b) _mm_and_si128(a, b)
#define ANDN(a, b) _mm_andnot_si128(a, b)
#define OR(a, b) _mm_or_si128(a, b)
#define SHR(a, n) _mm_srli_epi32(a, n)
#define SHL(a, n) _mm_slli_epi32(a, n)
#define SET1(x) _mm_set1_epi32((int)(x))
#define LOADU(p) _mm_loadu_si128((const V *)(p))
#define STOREU(p, v) _mm_storeu_si128((V *)(p), v)
#define ALONE_MAX 1
#else
#error "define POW_SIMD_AVX2 or POW_SIMD_SSE2"
#endif

#define INLINE static inline __attribute__((always_inline)) TARGET

/* ---- words in, words out ---- */

/* The bytes of each 32-bit lane reversed: SHA-256 words are big-endian. */
INLINE V bswap32(V x)
{
#if LANES == 8
	const V mask = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11,
	    4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11,
	    4, 5, 6, 7, 0, 1, 2, 3);

	return _mm256_shuffle_epi8(x, mask);
#else
	/* SSE2 has no byte shuffle: swap the halves, then the bytes. */
	x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
	return OR(SHL(AND(x, SET1(0x00ff00ff)), 8),
	    AND(SHR(x, 8), SET1(0x00ff00ff)));
#endif
}

/* Transpose the LANES x LANES block of 32-bit words r[0 .. LANES - 1]. */
INLINE void transpose(V *r)
{
#if LANES == 8
	V t[8], u[8];
	int i;

	for (i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
	}
	for (i = 0; i < 8; i += 4) {
		u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
		u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
		u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
		u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
	}
	for (i = 0; i < 4; i++) {
		r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
		r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
	}
#else
	V t0 = _mm_unpacklo_epi32(r[0], r[1]);
	V t1 = _mm_unpacklo_epi32(r[2], r[3]);
	V t2 = _mm_unpackhi_epi32(r[0], r[1]);
	V t3 = _mm_unpackhi_epi32(r[2], r[3]);

	r[0] = _mm_unpacklo_epi64(t0, t1);
	r[1] = _mm_unpackhi_epi64(t0, t1);
	r[2] = _mm_unpacklo_epi64(t2, t3);
	r[3] = _mm_unpackhi_epi64(t2, t3);
#endif
}

/*
 * w[j] = word `first + j` (j < LANES) of each of the LANES messages at
 * p, `stride` bytes apart, in lanes.
 */
INLINE void load_words(V *w, const uint8_t *p, size_t stride, int first)
{
	int i;

	for (i = 0; i < LANES; i++)
		w[i] = LOADU(&p[stride * i + 4 * first]);
	transpose(w);
	for (i = 0; i < LANES; i++)
		w[i] = bswap32(w[i]);
}

/* The reverse: word first + j of each lane's message from w[j]. */
INLINE void store_words(uint8_t *p, size_t stride, int first, const V *w)
{
	V r[LANES];
	int i;

	for (i = 0; i < LANES; i++)
		r[i] = bswap32(w[i]);
	transpose(r);
	for (i = 0; i < LANES; i++)
		STOREU(&p[stride * i + 4 * first], r[i]);
}

/* ---- rounds ---- */

INLINE V rotr(V x, const int n)
{
	return OR(SHR(x, n), SHL(x, 32 - n));
}

INLINE V big_sigma0(V x)
{
	return XOR(XOR(rotr(x, 2), rotr(x, 13)), rotr(x, 22));
}

INLINE V big_sigma1(V x)
{
	return XOR(XOR(rotr(x, 6), rotr(x, 11)), rotr(x, 25));
}

INLINE V small_sigma0(V x)
{
	return XOR(XOR(rotr(x, 7), rotr(x, 18)), SHR(x, 3));
}

INLINE V small_sigma1(V x)
{
	return XOR(XOR(rotr(x, 17), rotr(x, 19)), SHR(x, 10));
}

/*
 * One round on the state s[] whose a is s[(8 - t) % 8] (the variables
 * rotate by index, not by moving data), with wk = W[t] + K[t].  ab is
 * the previous round's a ^ b, which is this round's b ^ c; it becomes
 * this round's a ^ b.
 */
INLINE void sha_round(V *s, const int t, V wk, V *ab)
{
	V a = s[(8 - t) & 7], b = s[(9 - t) & 7], c = s[(10 - t) & 7];
	V e = s[(12 - t) & 7], f = s[(13 - t) & 7], g = s[(14 - t) & 7];
	V h = s[(15 - t) & 7], d = s[(11 - t) & 7];
	V ch = XOR(g, AND(e, XOR(f, g)));
	V t1 = ADD(ADD(h, big_sigma1(e)), ADD(ch, wk));
	V a_b = XOR(a, b);
	V maj = XOR(b, AND(a_b, *ab));
	V t2 = ADD(big_sigma0(a), maj);

	(void)c;
	*ab = a_b;
	s[(11 - t) & 7] = ADD(d, t1);
	s[(15 - t) & 7] = ADD(t1, t2);
}

/* Compress: s = state, w = the 16 message words (overwritten). */
INLINE void compress(V *s, V *w)
{
	V in[8], ab;
	int t;

	for (t = 0; t < 8; t++)
		in[t] = s[t];
	ab = XOR(s[1], s[2]);
	_Pragma("GCC unroll 64")
	for (t = 0; t < 64; t++) {
		V wt;

		if (t < 16) {
			wt = w[t];
		} else {
			wt = ADD(ADD(small_sigma1(w[(t - 2) & 15]),
			    w[(t - 7) & 15]), ADD(small_sigma0(
			    w[(t - 15) & 15]), w[t & 15]));
			w[t & 15] = wt;
		}
		sha_round(s, t, ADD(wt, SET1(yespower_sha256_K[t])), &ab);
	}
	for (t = 0; t < 8; t++)
		s[t] = ADD(s[t], in[t]);
}

/* Compress the padding block of a 64-byte message into s. */
INLINE void compress_pad64(V *s)
{
	V in[8], ab;
	int t;

	for (t = 0; t < 8; t++)
		in[t] = s[t];
	ab = XOR(s[1], s[2]);
	_Pragma("GCC unroll 64")
	for (t = 0; t < 64; t++)
		sha_round(s, t, SET1(pow_sha256_pad64_wk[t]), &ab);
	for (t = 0; t < 8; t++)
		s[t] = ADD(s[t], in[t]);
}

/* s = SHA-256 state of the 32-byte messages whose words are m[0 .. 7]. */
INLINE void hash32(V *s, const V *m)
{
	V w[16];
	int t;

	for (t = 0; t < 8; t++) {
		w[t] = m[t];
		s[t] = SET1(pow_sha256_H0[t]);
	}
	w[8] = SET1(0x80000000);
	for (t = 9; t < 15; t++)
		w[t] = SET1(0);
	w[15] = SET1(256);
	compress(s, w);
}

/* ---- the kernels ---- */

/* LANES messages at in (64 bytes each) to their SHA-256d at out. */
TARGET static void d64_group(uint8_t *out, const uint8_t *in)
{
	V s[8], w[16], m[8];
	int t;

	for (t = 0; t < 16; t += LANES)
		load_words(&w[t], in, 64, t);
	for (t = 0; t < 8; t++)
		s[t] = SET1(pow_sha256_H0[t]);
	compress(s, w);
	compress_pad64(s);
	for (t = 0; t < 8; t++)
		m[t] = s[t];
	hash32(s, m);
	for (t = 0; t < 8; t += LANES)
		store_words(out, 32, t, &s[t]);
}

/* LANES chains at h, each hashed iters times. */
TARGET static void recursive_group(uint8_t *h, uint64_t iters)
{
	V s[8], m[8];
	int t;

	for (t = 0; t < 8; t += LANES)
		load_words(&m[t], h, 32, t);
	for (; iters; iters--) {
		hash32(s, m);
		for (t = 0; t < 8; t++)
			m[t] = s[t];
	}
	for (t = 0; t < 8; t += LANES)
		store_words(h, 32, t, &m[t]);
}

/*
 * Whole groups, then the rest: a few alone in portable C, more in one
 * group with idle lanes, through a buffer.  Groups read all their
 * inputs before writing, and output i never lies after input i, so out
 * == in works.
 */
static void SUFFIX(d64)(uint8_t *out, const uint8_t *in, size_t n)
{
	uint8_t buf[LANES * 64];
	size_t rest;

	for (; n >= LANES; n -= LANES, in += 64 * LANES, out += 32 * LANES)
		d64_group(out, in);
	rest = n;
	if (!rest)
		return;
	if (rest <= ALONE_MAX) {
		pow_sha256_kernels_portable.d64(out, in, rest);
		return;
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, in, 64 * rest);
	d64_group(buf, buf);
	memcpy(out, buf, 32 * rest);
	insecure_memzero(buf, sizeof(buf));
}

static void SUFFIX(recursive)(uint8_t *h, size_t chains, uint64_t iters)
{
	uint8_t buf[LANES * 32];
	size_t rest;

	if (!iters)
		return;
	for (; chains >= LANES; chains -= LANES, h += 32 * LANES)
		recursive_group(h, iters);
	rest = chains;
	if (!rest)
		return;
	if (rest <= ALONE_MAX) {
		pow_sha256_kernels_portable.recursive(h, rest, iters);
		return;
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, h, 32 * rest);
	recursive_group(buf, iters);
	memcpy(h, buf, 32 * rest);
	insecure_memzero(buf, sizeof(buf));
}

#if LANES == 8
const pow_sha256_kernels pow_sha256_kernels_avx2 = {
	"avx2", POW_CPU_AVX2, d64_avx2, recursive_avx2, 8
};
#else
const pow_sha256_kernels pow_sha256_kernels_sse2 = {
	"sse2", POW_CPU_SSE2, d64_sse2, recursive_sse2, 4
};
#endif
