/*
 * pow-sha256-simd.c: the many-at-once SHA-256 kernels on 32-bit vector
 * lanes, one message per lane: 16 lanes with AVX-512, 8 with AVX2, 4 with
 * SSE2.
 *
 * The Makefile compiles this file once per set: as pow-sha256-avx512.o
 * with -mavx512f -DPOW_SIMD_AVX512, pow-sha256-avx2.o with -mavx2
 * -DPOW_SIMD_AVX2 and pow-sha256-sse2.o with -msse2 -DPOW_SIMD_SSE2; the
 * dispatcher calls each only where cpuid reports its instruction set.
 * These are for CPUs without SHA-NI (on those with it, SHA-NI is several
 * times faster per core).  A fourth build, -DPOW_SIMD_EMU16, is the
 * AVX-512 code on 16 lanes in plain C, each operation (VPTERNLOGD too) as
 * its instruction's definition: the tests run it on CPUs without AVX-512,
 * so that the 16-lane code and its ternary-logic constants are checked
 * everywhere, not only where AVX-512 runs.
 *
 * Each round is the FIPS 180-4 round on all lanes.  The savings are the
 * usual ones: Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) reuses the previous
 * round's a ^ b as this round's b ^ c; the padding block of a 64-byte
 * message has a constant schedule (pow_sha256_pad64_wk), so it costs 64
 * rounds and no schedule; and the last 8 words of a 32-byte message are
 * constants, which the compiler folds into the early schedule words.
 * Messages are moved into lanes by transposing 8 x 8 (4 x 4) blocks of
 * words; for 16 lanes through a buffer, word by word.  With AVX-512's
 * VPTERNLOGD, Ch, Maj and each three-way XOR are one instruction, and
 * VPRORD rotates.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(POW_SIMD_EMU16)
#include <immintrin.h>
#endif

#include "cpu-features.h"
#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "sha256.h"
#include "sysendian.h"

#if defined(POW_SIMD_AVX512)
#define LANES 16
#define SUFFIX(name) name##_avx512
#ifdef __AVX512F__
#define TARGET
#else
#define TARGET __attribute__((target("avx512f")))
#endif
typedef __m512i V;
#define ADD(a, b) _mm512_add_epi32(a, b)
#define XOR(a, b) _mm512_xor_si512(a, b)
#define AND(a, b) _mm512_and_si512(a, b)
#define ANDN(a, b) _mm512_andnot_si512(a, b)
#define OR(a, b) _mm512_or_si512(a, b)
#define SHR(a, n) _mm512_srli_epi32(a, n)
#define SHL(a, n) _mm512_slli_epi32(a, n)
#define SET1(x) _mm512_set1_epi32((int)(x))
#define LOADU(p) _mm512_loadu_si512((const void *)(p))
#define STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define ROTR(a, n) _mm512_ror_epi32(a, n)
#define TERNLOG(a, b, c, imm) _mm512_ternarylogic_epi32(a, b, c, imm)
#define ALONE_MAX 3
#elif defined(POW_SIMD_EMU16)
/*
 * The AVX-512 set's operations on 16 lanes in plain C, as the instruction
 * set reference defines them (the compiler may vectorize the loops; the
 * results are the same).
 */
#define LANES 16
#define SUFFIX(name) name##_avx512emu
#define TARGET
#define EMU_T uint32_t
#define EMU_N 16
#include "pow-simd-emu.h"
EMU_OP(emu_add, a.l[i] + b.l[i])
EMU_OP(emu_xor, a.l[i] ^ b.l[i])
EMU_OP(emu_and, a.l[i] & b.l[i])
EMU_OP(emu_andn, ~a.l[i] & b.l[i])
EMU_OP(emu_or, a.l[i] | b.l[i])
/* Shifts and rotations: b's lane 0 holds the count. */
EMU_OP(emu_shr, a.l[i] >> b.l[0])
EMU_OP(emu_shl, a.l[i] << b.l[0])
EMU_OP(emu_ror, (a.l[i] >> b.l[0]) | (a.l[i] << (32 - b.l[0])))
#define ADD(a, b) emu_add(a, b)
#define XOR(a, b) emu_xor(a, b)
#define AND(a, b) emu_and(a, b)
#define ANDN(a, b) emu_andn(a, b)
#define OR(a, b) emu_or(a, b)
#define SHR(a, n) emu_shr(a, emu_set1(n))
#define SHL(a, n) emu_shl(a, emu_set1(n))
#define SET1(x) emu_set1((uint32_t)(x))
#define LOADU(p) emu_load(p)
#define STOREU(p, v) memcpy((p), (v).l, sizeof((v).l))
#define ROTR(a, n) emu_ror(a, emu_set1(n))
#define TERNLOG(a, b, c, imm) emu_ternlog(a, b, c, imm)
#define ALONE_MAX 3
#elif defined(POW_SIMD_AVX2)
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
#error "define POW_SIMD_AVX512, POW_SIMD_EMU16, POW_SIMD_AVX2 or POW_SIMD_SSE2"
#endif

#if defined(TERNLOG)
/* Truth tables of VPTERNLOGD (bit a b c of the constant, a the high bit):
 * a ^ b ^ c; Ch(e, f, g) = e ? f : g; Maj(a, b, c), the majority. */
#define XOR3(a, b, c) TERNLOG(a, b, c, 0x96)
#define CH(e, f, g) TERNLOG(e, f, g, 0xca)
#define MAJ(a, b, c) TERNLOG(a, b, c, 0xe8)
#else
#define XOR3(a, b, c) XOR(XOR(a, b), c)
#define CH(e, f, g) XOR(g, AND(e, XOR(f, g)))
#define ROTR(x, n) OR(SHR(x, n), SHL(x, 32 - (n)))
#endif

/*
 * The compiler may regroup a sum of several terms (integer addition is
 * associative); OPAQUE(v) hides how v was computed, so that the sums in
 * sha_round are added in the order written.  Nothing for the plain C
 * emulation, whose values are not registers.
 */
#if defined(POW_SIMD_EMU16)
#define OPAQUE(v) ((void)0)
#else
#define OPAQUE(v) __asm__("" : "+v"(v))
#endif

/*
 * Which order of sums (sha_round) the unrolled compression uses: the
 * short chains where the vector instructions have three operands; with
 * SSE2's two, whose extra copies made recursive hashing 0.90 times as
 * fast on a Zen 5, the fewest additions.  The rolled one always uses the
 * short chains (with SSE2 too: SHA256D64 1.06 times as fast).
 */
#define SHORT_CHAINS_UNROLLED (LANES > 4)

#define INLINE static inline __attribute__((always_inline)) TARGET

/* ---- words in, words out ---- */

#if LANES == 16
/*
 * w[j] = word j (j < words) of each of the 16 messages at p, stride bytes
 * apart, in lanes; through a buffer, word by word: for SHA256D64 384
 * words a group (256 in, 128 out), each loaded and stored once, against
 * some 4500 vector instructions in its three compressions.
 */
INLINE void load_n(V *w, const uint8_t *p, size_t stride, int words)
{
	uint32_t t[16][16] __attribute__((aligned(64)));
	int i, j;

	for (j = 0; j < words; j++)
		for (i = 0; i < 16; i++)
			t[j][i] = be32dec(&p[stride * i + 4 * j]);
	for (j = 0; j < words; j++)
		w[j] = LOADU(t[j]);
}

/* The reverse: word j of each lane's message from w[j]. */
INLINE void store_n(uint8_t *p, size_t stride, int words, const V *w)
{
	uint32_t t[16][16] __attribute__((aligned(64)));
	int i, j;

	for (j = 0; j < words; j++)
		STOREU(t[j], w[j]);
	for (j = 0; j < words; j++)
		for (i = 0; i < 16; i++)
			be32enc(&p[stride * i + 4 * j], t[j][i]);
}
#else
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

/* load_words and store_words for words (a multiple of LANES) words. */
INLINE void load_n(V *w, const uint8_t *p, size_t stride, int words)
{
	int t;

	for (t = 0; t < words; t += LANES)
		load_words(&w[t], p, stride, t);
}

INLINE void store_n(uint8_t *p, size_t stride, int words, const V *w)
{
	int t;

	for (t = 0; t < words; t += LANES)
		store_words(p, stride, t, &w[t]);
}
#endif

/* ---- rounds ---- */

INLINE V big_sigma0(V x)
{
	return XOR3(ROTR(x, 2), ROTR(x, 13), ROTR(x, 22));
}

INLINE V big_sigma1(V x)
{
	return XOR3(ROTR(x, 6), ROTR(x, 11), ROTR(x, 25));
}

INLINE V small_sigma0(V x)
{
	return XOR3(ROTR(x, 7), ROTR(x, 18), SHR(x, 3));
}

INLINE V small_sigma1(V x)
{
	return XOR3(ROTR(x, 17), ROTR(x, 19), SHR(x, 10));
}

/*
 * One round on the state s[] whose a is s[(8 - t) % 8] (the variables
 * rotate by index, not by moving data), with wk = W[t] + K[t].  ab is
 * the previous round's a ^ b, which is this round's b ^ c; it becomes
 * this round's a ^ b (unused where Maj is one instruction).
 *
 * With short_chains the sums are ordered for the length of the two
 * chains from round to round, e to the new e and a to the new a, rather
 * than for the fewest additions: d + h + wk is known rounds ahead, so
 * the new e waits only for Ch(e, f, g) and then Sigma1(e); the new a adds
 * Sigma0(a) last.  On a Zen 5, where vector integer operations take 2
 * cycles, this made recursive hashing on 16 lanes 1.40 times as fast and
 * on 8 lanes 1.10, with two more additions a round (doc/hashes.md, Zen 5
 * (family 26 model 2)).  Without, the fewest additions.
 */
INLINE void sha_round(V *s, const int t, V wk, V *ab,
    const int short_chains)
{
	V a = s[(8 - t) & 7], b = s[(9 - t) & 7], c = s[(10 - t) & 7];
	V e = s[(12 - t) & 7], f = s[(13 - t) & 7], g = s[(14 - t) & 7];
	V h = s[(15 - t) & 7], d = s[(11 - t) & 7];
	V hk, ch = CH(e, f, g), s1 = big_sigma1(e), e_part, a_part;
#if defined(MAJ)
	V maj = MAJ(a, b, c);

	(void)ab;
#else
	V a_b = XOR(a, b);
	V maj = XOR(b, AND(a_b, *ab));

	(void)c;
	*ab = a_b;
#endif
	if (!short_chains) {
		V t1 = ADD(ADD(h, s1), ADD(ch, wk));

		s[(11 - t) & 7] = ADD(d, t1);
		s[(15 - t) & 7] = ADD(t1, ADD(big_sigma0(a), maj));
		return;
	}
	hk = ADD(h, wk);
	e_part = ADD(ADD(d, hk), ch);
	OPAQUE(e_part);
	a_part = ADD(hk, ch);
	OPAQUE(a_part);
	a_part = ADD(ADD(a_part, s1), maj);
	OPAQUE(a_part);
	s[(11 - t) & 7] = ADD(e_part, s1);
	s[(15 - t) & 7] = ADD(a_part, big_sigma0(a));
}

/* The next schedule word into w[t & 15], t >= 16. */
INLINE V schedule(V *w, const int t)
{
	w[t & 15] = ADD(ADD(small_sigma1(w[(t - 2) & 15]), w[(t - 7) & 15]),
	    ADD(small_sigma0(w[(t - 15) & 15]), w[t & 15]));
	return w[t & 15];
}

/*
 * Compress: s = state, w = the 16 message words (overwritten).  Two
 * forms.  Unrolled, all 64 rounds: for a message whose words are partly
 * constants (hash32), which the compiler then folds.  Rolled, 16 rounds
 * a loop pass: a quarter of the code, which SHA256D64's three
 * compressions need to stay in the CPU's instruction caches (unrolled,
 * they were 35 KB of AVX-512 code and ran 0.85 times as fast on a Zen 5).
 */
INLINE void compress_unrolled(V *s, V *w)
{
	V in[8], ab;
	int t;

	for (t = 0; t < 8; t++)
		in[t] = s[t];
	ab = XOR(s[1], s[2]);
	_Pragma("GCC unroll 64")
	for (t = 0; t < 64; t++)
		sha_round(s, t, ADD(t < 16 ? w[t] : schedule(w, t),
		    SET1(yespower_sha256_K[t])), &ab, SHORT_CHAINS_UNROLLED);
	for (t = 0; t < 8; t++)
		s[t] = ADD(s[t], in[t]);
}

/* Rounds t0 .. t0 + 15 (t0 a multiple of 16), k = &K[t0]. */
INLINE void rounds16(V *s, V *w, const uint32_t *k, int first, V *ab)
{
	int i;

	_Pragma("GCC unroll 16")
	for (i = 0; i < 16; i++)
		sha_round(s, i, ADD(first ? w[i] : schedule(w, i + 16),
		    SET1(k[i])), ab, 1);
}

INLINE void compress_rolled(V *s, V *w)
{
	V in[8], ab;
	int t;

	for (t = 0; t < 8; t++)
		in[t] = s[t];
	ab = XOR(s[1], s[2]);
	rounds16(s, w, yespower_sha256_K, 1, &ab);
	_Pragma("GCC unroll 1")
	for (t = 16; t < 64; t += 16)
		rounds16(s, w, yespower_sha256_K + t, 0, &ab);
	for (t = 0; t < 8; t++)
		s[t] = ADD(s[t], in[t]);
}

/* Compress the padding block of a 64-byte message into s (rolled). */
INLINE void compress_pad64(V *s)
{
	V in[8], ab;
	int t, i;

	for (t = 0; t < 8; t++)
		in[t] = s[t];
	ab = XOR(s[1], s[2]);
	_Pragma("GCC unroll 1")
	for (t = 0; t < 64; t += 16) {
		_Pragma("GCC unroll 16")
		for (i = 0; i < 16; i++)
			sha_round(s, i, SET1(pow_sha256_pad64_wk[t + i]), &ab,
			    1);
	}
	for (t = 0; t < 8; t++)
		s[t] = ADD(s[t], in[t]);
}

/*
 * s = SHA-256 state of the 32-byte messages whose words are m[0 .. 7],
 * through compress_rolled or compress_unrolled.
 */
INLINE void hash32(V *s, const V *m, int rolled)
{
	V w[16];
	int t;

	for (t = 0; t < 8; t++) {
		w[t] = m[t];
		s[t] = SET1(yespower_sha256_H0[t]);
	}
	w[8] = SET1(0x80000000);
	for (t = 9; t < 15; t++)
		w[t] = SET1(0);
	w[15] = SET1(256);
	if (rolled)
		compress_rolled(s, w);
	else
		compress_unrolled(s, w);
}

/* ---- the kernels ---- */

/* LANES messages at in (64 bytes each) to their SHA-256d at out. */
TARGET static void d64_group(uint8_t *out, const uint8_t *in)
{
	V s[8], w[16], m[8];
	int t;

	load_n(w, in, 64, 16);
	for (t = 0; t < 8; t++)
		s[t] = SET1(yespower_sha256_H0[t]);
	compress_rolled(s, w);
	compress_pad64(s);
	for (t = 0; t < 8; t++)
		m[t] = s[t];
	hash32(s, m, 1);
	store_n(out, 32, 8, s);
}

/* LANES chains at h, each hashed iters times. */
TARGET static void recursive_group(uint8_t *h, uint64_t iters)
{
	V s[8], m[8];
	int t;

	load_n(m, h, 32, 8);
	for (; iters; iters--) {
		hash32(s, m, 0);
		for (t = 0; t < 8; t++)
			m[t] = s[t];
	}
	store_n(h, 32, 8, m);
}

/*
 * How many leftover messages go to the set k (pow_sha256_rest_kernels)
 * rather than into a group with idle lanes: ALONE_MAX in portable C; with
 * SHA-NI, whose 1 to 4 streams each run near a lane group's rate per
 * message, up to half a group (8 of 16 on the Xeon of doc/hashes.md, Intel Xeon,
 * where 4 SHA-NI streams did 0.67 of the 16 lanes' messages a second).
 */
static size_t alone_max(const pow_sha256_kernels *k)
{
	return k == &pow_sha256_kernels_portable ? ALONE_MAX : LANES / 2;
}

/*
 * Whole groups, then the rest: a few alone (alone_max), more in one
 * group with idle lanes, through a buffer.  Groups read all their
 * inputs before writing, and output i never lies after input i, so out
 * == in works.
 */
static void SUFFIX(d64)(uint8_t *out, const uint8_t *in, size_t n)
{
	const pow_sha256_kernels *alone;
	uint8_t buf[LANES * 64];
	size_t rest;

	for (; n >= LANES; n -= LANES, in += 64 * LANES, out += 32 * LANES)
		d64_group(out, in);
	rest = n;
	if (!rest)
		return;
	alone = pow_sha256_rest_kernels();
	if (rest <= alone_max(alone)) {
		alone->d64(out, in, rest);
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
	const pow_sha256_kernels *alone;
	uint8_t buf[LANES * 32];
	size_t rest;

	if (!iters)
		return;
	for (; chains >= LANES; chains -= LANES, h += 32 * LANES)
		recursive_group(h, iters);
	rest = chains;
	if (!rest)
		return;
	alone = pow_sha256_rest_kernels();
	if (rest <= alone_max(alone)) {
		alone->recursive(h, rest, iters);
		return;
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, h, 32 * rest);
	recursive_group(buf, iters);
	memcpy(h, buf, 32 * rest);
	insecure_memzero(buf, sizeof(buf));
}

#if defined(POW_SIMD_AVX512)
const pow_sha256_kernels pow_sha256_kernels_avx512 = {
	"avx512", POW_CPU_AVX512F, d64_avx512, recursive_avx512, 16
};
#elif defined(POW_SIMD_EMU16)
/* Not in the dispatcher: the tests' stand-in for the AVX-512 set. */
const pow_sha256_kernels pow_sha256_kernels_avx512emu = {
	"avx512-emulated", 0, d64_avx512emu, recursive_avx512emu, 16
};
#elif LANES == 8
const pow_sha256_kernels pow_sha256_kernels_avx2 = {
	"avx2", POW_CPU_AVX2, d64_avx2, recursive_avx2, 8
};
#else
const pow_sha256_kernels pow_sha256_kernels_sse2 = {
	"sse2", POW_CPU_SSE2, d64_sse2, recursive_sse2, 4
};
#endif
