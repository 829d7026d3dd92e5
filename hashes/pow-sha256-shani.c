/*
 * pow-sha256-shani.c: the many-at-once SHA-256 kernels with the x86 SHA
 * extensions (SHA-NI), 1 to 4 independent messages interleaved.
 *
 * The Makefile compiles this file twice: as pow-sha256-shani.o with
 * -mavx -msha -DPOW_SHANI_VEX, the "shani" set, for CPUs with SHA-NI and
 * AVX (every AMD Zen, Intel from Ice Lake on), and as
 * pow-sha256-shani-sse.o with -msha -msse4.1, "shani-sse", for those with
 * SHA-NI but no AVX (Intel's Goldmont and Tremont Atoms).  The code is
 * the same; the VEX encoding's three-operand forms save the register
 * copies the two-operand SSE forms need, which on Zen 3 makes three
 * chains interleaved a third faster.  sha256-shani.c explains how SHA256RNDS2,
 * SHA256MSG1 and SHA256MSG2 split the work and the ABEF/CDGH register
 * layout; the rounds here are the same, for S streams at once.
 *
 * Why interleave.  SHA256RNDS2 has a latency of 4 cycles on the CPUs
 * this was measured on (AMD Zen 3 and 4) and each depends on the one
 * before, so one message takes at least 32 x 4 = 128 cycles per block;
 * but both start one per cycle, so 4 independent streams fill the unit.
 * On Zen 3, 4 streams of a block without a schedule (SHA256D64's padding
 * block) take about 34 cycles per stream, and of a block with one 50 to
 * 58, which is why a schedule that is the same for every message is
 * taken from a table.  (With SHA256MSG1 and MSG2 replaced by additions a
 * scheduled block still took about 45: most of the difference is the
 * schedule's other instructions, not the SHA unit.)  A chain of
 * recursive hashes cannot be split, so 1 chain runs at the latency and
 * the work saved there is on the critical path between two hashes:
 * the next message is taken straight from the state registers with one
 * shuffle (shufps picks two dwords from each), and the feed-forward
 * addition of the initial state is folded into the round constants of
 * the next hash's first rounds.
 *
 * SHA-256d of a 64-byte message is 3 compressions: the message block;
 * the padding block, whose schedule is the same for every message
 * (pow_sha256_pad64_wk: 32 SHA256RNDS2 and no schedule); and the
 * 32-byte digest with its padding, whose last 8 message words are
 * constants.
 */
#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#include "cpu-features.h"
#include "pow-hash-impl.h"
#include "sha256.h"

#if defined(POW_SHANI_VEX)
#define SET_NAME "shani"
#define SET_NEED (POW_CPU_SHANI | POW_CPU_AVX)
#define SET_SUFFIX(name) name##_shani
#if defined(__SHA__) && defined(__AVX__)
#define TARGET_SHANI
#else
#define TARGET_SHANI __attribute__((target("sha,avx")))
#endif
#else
#define SET_NAME "shani-sse"
#define SET_NEED POW_CPU_SHANI
#define SET_SUFFIX(name) name##_shani_sse
#if defined(__SHA__) && defined(__SSE4_1__)
#define TARGET_SHANI
#else
#define TARGET_SHANI __attribute__((target("sha,sse4.1,ssse3")))
#endif
#endif
#define INLINE static inline __attribute__((always_inline)) TARGET_SHANI

/* The initial state in the ABEF and CDGH layouts, and as message words
 * A B C D and E F G H (what a digest of a chain feeds forward). */
#define H0_ABEF _mm_set_epi32(0x6a09e667, (int)0xbb67ae85, 0x510e527f, \
	(int)0x9b05688c)
#define H0_CDGH _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, \
	0x5be0cd19)
#define H0_ABCD _mm_set_epi32((int)0xa54ff53a, 0x3c6ef372, (int)0xbb67ae85, \
	0x6a09e667)
#define H0_EFGH _mm_set_epi32(0x5be0cd19, 0x1f83d9ab, (int)0x9b05688c, \
	0x510e527f)

/* Message words 8 .. 15 of a 32-byte message: 0x80, zeros, 256 bits. */
#define PAD32_W8 _mm_set_epi32(0, 0, 0, (int)0x80000000)
#define PAD32_W12 _mm_set_epi32(256, 0, 0, 0)

/* shufps picks dwords 3, 2 of the first operand then 3, 2 of the second
 * (A B C D from ABEF and CDGH), or 1, 0 and 1, 0 (E F G H). */
#define PICK_ABCD 0xbb
#define PICK_EFGH 0x11

#define pick(abef, cdgh, which) _mm_castps_si128(_mm_shuffle_ps( \
	_mm_castsi128_ps(abef), _mm_castsi128_ps(cdgh), which))

INLINE __m128i bswap_mask(void)
{
	return _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
}

INLINE __m128i load_be(const uint8_t *p)
{
	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
	    bswap_mask());
}

INLINE void store_be(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, _mm_shuffle_epi8(v, bswap_mask()));
}

INLINE __m128i K4(const int g)
{
	return _mm_load_si128((const __m128i *)&yespower_sha256_K[4 * g]);
}


/* ---- one stream's steps; EACH() (pow-sha256-shani-streams.h) runs a
 * step on every stream ---- */

#define DECLARE_STREAM(s, ...) __attribute__((unused)) __m128i abef##s, \
	cdgh##s, keep_abef##s, keep_cdgh##s, w##s##_0, w##s##_1, w##s##_2, \
	w##s##_3, wk##s, wk0_##s;
#define SET_H0(s, ...) abef##s = H0_ABEF; cdgh##s = H0_CDGH;
#define FEED_FORWARD_H0(s, ...) abef##s = _mm_add_epi32(abef##s, H0_ABEF); \
	cdgh##s = _mm_add_epi32(cdgh##s, H0_CDGH);
#define KEEP_STATE(s, ...) keep_abef##s = abef##s; keep_cdgh##s = cdgh##s;
#define FEED_FORWARD_KEPT(s, ...) \
	abef##s = _mm_add_epi32(abef##s, keep_abef##s); \
	cdgh##s = _mm_add_epi32(cdgh##s, keep_cdgh##s);
#define LOAD_MESSAGE(s, in) \
	w##s##_0 = load_be(&(in)[64 * s]); \
	w##s##_1 = load_be(&(in)[64 * s + 16]); \
	w##s##_2 = load_be(&(in)[64 * s + 32]); \
	w##s##_3 = load_be(&(in)[64 * s + 48]);
#define SET_PAD32(s, ...) w##s##_2 = PAD32_W8; w##s##_3 = PAD32_W12;
#define DIGEST_TO_MESSAGE(s, ...) \
	w##s##_0 = pick(abef##s, cdgh##s, PICK_ABCD); \
	w##s##_1 = pick(abef##s, cdgh##s, PICK_EFGH); \
	SET_PAD32(s)
#define STORE_DIGEST(s, out) \
	store_be(&(out)[32 * s], pick(abef##s, cdgh##s, PICK_ABCD)); \
	store_be(&(out)[32 * s + 16], pick(abef##s, cdgh##s, PICK_EFGH));
#define LOAD_CHAIN(s, h) \
	w##s##_0 = load_be(&(h)[32 * s]); \
	w##s##_1 = load_be(&(h)[32 * s + 16]); \
	wk0_##s = _mm_add_epi32(w##s##_0, K4(0));
/* The next message of a chain: the state words plus the initial state
 * (the feed-forward), and for the first rounds also plus K, in one
 * addition from the shuffle. */
#define NEXT_MESSAGE(s, abcd_k) { \
	const __m128i abcd = pick(abef##s, cdgh##s, PICK_ABCD); \
	wk0_##s = _mm_add_epi32(abcd, abcd_k); \
	w##s##_0 = _mm_add_epi32(abcd, H0_ABCD); \
	w##s##_1 = _mm_add_epi32(pick(abef##s, cdgh##s, PICK_EFGH), H0_EFGH); \
}
#define STORE_CHAIN(s, h) \
	store_be(&(h)[32 * s], w##s##_0); \
	store_be(&(h)[32 * s + 16], w##s##_1);
#define ROUND_PAIR_LO(s, wk) \
	cdgh##s = _mm_sha256rnds2_epu32(cdgh##s, abef##s, wk);
#define ROUND_PAIR_HI(s, wk) \
	abef##s = _mm_sha256rnds2_epu32(abef##s, cdgh##s, wk);

/*
 * QUAD(g, v, prev, next): rounds 4g .. 4g + 3 of every stream on W[4g ..]
 * (in w<s>_<v>), finishing W[4g + 4 ..] in w<s>_<next> and starting
 * W[4g + 12 ..] in w<s>_<prev>, as sha256-shani.c's QUAD; QUAD_WK0 takes
 * the first W + K from wk0<s>.  g is a constant: the conditions cost
 * nothing.
 */
#define RND1(s, g, v) \
	wk##s = _mm_add_epi32(w##s##_##v, K4(g)); \
	cdgh##s = _mm_sha256rnds2_epu32(cdgh##s, abef##s, wk##s);
#define RND1_WK0(s, ...) \
	wk##s = wk0_##s; \
	cdgh##s = _mm_sha256rnds2_epu32(cdgh##s, abef##s, wk##s);
#define MSG2(s, v, prev, next) \
	w##s##_##next = _mm_add_epi32(w##s##_##next, \
	    _mm_alignr_epi8(w##s##_##v, w##s##_##prev, 4)); \
	w##s##_##next = _mm_sha256msg2_epu32(w##s##_##next, w##s##_##v);
#define RND2(s, ...) \
	abef##s = _mm_sha256rnds2_epu32(abef##s, cdgh##s, \
	    _mm_shuffle_epi32(wk##s, 0x0e));
#define MSG1(s, v, prev) \
	w##s##_##prev = _mm_sha256msg1_epu32(w##s##_##prev, w##s##_##v);

#define QUAD_STEPS(first, g, v, prev, next) do { \
	if ((first) && (g) == 0) { \
		EACH(RND1_WK0) \
	} else { \
		EACH(RND1, g, v) \
	} \
	if ((g) >= 3 && (g) <= 14) { \
		EACH(MSG2, v, prev, next) \
	} \
	EACH(RND2) \
	if ((g) >= 1 && (g) <= 12) { \
		EACH(MSG1, v, prev) \
	} \
} while (0)
#define QUAD(g, v, prev, next) QUAD_STEPS(0, g, v, prev, next)
#define QUAD_WK0(g, v, prev, next) QUAD_STEPS(1, g, v, prev, next)

#define ROUNDS(Q) \
	Q(0, 0, 3, 1); Q(1, 1, 0, 2); Q(2, 2, 1, 3); Q(3, 3, 2, 0); \
	Q(4, 0, 3, 1); Q(5, 1, 0, 2); Q(6, 2, 1, 3); Q(7, 3, 2, 0); \
	Q(8, 0, 3, 1); Q(9, 1, 0, 2); Q(10, 2, 1, 3); Q(11, 3, 2, 0); \
	Q(12, 0, 3, 1); Q(13, 1, 0, 2); Q(14, 2, 1, 3); Q(15, 3, 2, 0)

#define S 1
#include "pow-sha256-shani-streams.h"
#undef S
#define S 2
#include "pow-sha256-shani-streams.h"
#undef S
#define S 3
#include "pow-sha256-shani-streams.h"
#undef S
#define S 4
#include "pow-sha256-shani-streams.h"
#undef S

/* The hand-allocated 4-stream kernels below: VEX forms, x86-64's 16
 * vector registers, GNU asm. */
#if defined(POW_SHANI_VEX) && defined(__x86_64__) && defined(__GNUC__)
#define SHANI_X4_ASM 1
#else
#define SHANI_X4_ASM 0
#endif

#if SHANI_X4_ASM
/*
 * SHA256D64 of 4 messages in one asm block (the VEX build on x86-64).
 *
 * Four streams need 2 state registers each, and the schedule 4 more
 * (16 words), which with W + K makes 25 of x86-64's 16 vector registers:
 * compiled from the intrinsics above, GCC spills about 730 times in
 * d64_x4, state registers among them, and each reload lengthens the
 * SHA256RNDS2 chain.  Here the registers are assigned by hand: the state
 * (8 registers) and the newest schedule group of each stream (4) stay in
 * registers, and the schedule is written to a buffer on the stack as it
 * is computed, 4 groups ahead of the rounds that use it, which read the
 * older groups back as memory operands.  xmm0 holds W + K (SHA256RNDS2
 * reads it implicitly), xmm13 and xmm14 are scratch, xmm15 the byte-swap
 * mask.  Measured on Zen 3 (doc/hashes.md): 1.12 to 1.14 times the
 * compiled d64_x4's speed; the padding block runs at SHA256RNDS2's rate.
 */
static const uint32_t d64_x4_consts[8][4] __attribute__((aligned(16))) = {
	{ 0x9b05688c, 0x510e527f, 0xbb67ae85, 0x6a09e667 },	/* H0 ABEF */
	{ 0x5be0cd19, 0x1f83d9ab, 0xa54ff53a, 0x3c6ef372 },	/* H0 CDGH */
	{ 0x00010203, 0x04050607, 0x08090a0b, 0x0c0d0e0f },	/* byte swap */
	{ 0x80000000, 0, 0, 0 },	/* words 8 .. 11 of a 32-byte message */
	{ 0, 0, 0, 256 },		/* words 12 .. 15 */
	{ 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a },	/* H0 A B C D */
	{ 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 },	/* H0 E F G H */
	/* H0 A B C D + K[0 .. 3]: with the state's A B C D, the next
	 * message's first W + K in one addition (recursive_x1_asm) */
	{ 0x6a09e667u + 0x428a2f98u, 0xbb67ae85u + 0x71374491u,
	  0x3c6ef372u + 0xb5c0fbcfu, 0xa54ff53au + 0xe9b5dba5u },
};
#define X4_H0_ABEF "0(%[c])"
#define X4_H0_CDGH "16(%[c])"
#define X4_BSWAP "32(%[c])"
#define X4_PAD8 "48(%[c])"
#define X4_PAD12 "64(%[c])"
#define X4_H0_ABCD "80(%[c])"
#define X4_H0_EFGH "96(%[c])"
#define X4_H0K0_ABCD "112(%[c])"

#define X4_ABEF0 "%%xmm1"
#define X4_ABEF1 "%%xmm2"
#define X4_ABEF2 "%%xmm3"
#define X4_ABEF3 "%%xmm4"
#define X4_CDGH0 "%%xmm5"
#define X4_CDGH1 "%%xmm6"
#define X4_CDGH2 "%%xmm7"
#define X4_CDGH3 "%%xmm8"
#define X4_LAST0 "%%xmm9"
#define X4_LAST1 "%%xmm10"
#define X4_LAST2 "%%xmm11"
#define X4_LAST3 "%%xmm12"
/* Schedule group g (words 4g .. 4g + 3) of stream s in the buffer, the
 * state kept for the padding block's feed-forward, K's group g. */
#define X4_W(s, g) "(" #s "*256+(" #g ")*16)(%[buf])"
#define X4_KEPT(s, h) "(1024+" #s "*32+" #h "*16)(%[buf])"
#define X4_K(g) "((" #g ")*16)(%[k])"

/*
 * Rounds 4g .. 4g + 3 of stream s, and schedule group g + 4 from groups
 * g, g + 1, g + 2 (buffer) and g + 3 (LAST): into LAST and the buffer.
 */
#define X4_STEP_SCHED(s, g) \
	"vmovdqa " X4_W(s, g) ", %%xmm13\n\t" \
	"vpaddd " X4_K(g) ", %%xmm13, %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_ABEF##s ", " X4_CDGH##s "\n\t" \
	"sha256msg1 " X4_W(s, g + 1) ", %%xmm13\n\t" \
	"vpalignr $4, " X4_W(s, g + 2) ", " X4_LAST##s ", %%xmm14\n\t" \
	"vpaddd %%xmm14, %%xmm13, %%xmm13\n\t" \
	"sha256msg2 " X4_LAST##s ", %%xmm13\n\t" \
	"vmovdqa %%xmm13, " X4_LAST##s "\n\t" \
	"vmovdqa %%xmm13, " X4_W(s, g + 4) "\n\t" \
	"vpshufd $0x0e, %%xmm0, %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_CDGH##s ", " X4_ABEF##s "\n\t"
/* Rounds 4g .. 4g + 3 (g >= 12: the schedule is complete). */
#define X4_STEP_LAST(s, g) \
	"vmovdqa " X4_W(s, g) ", %%xmm0\n\t" \
	"vpaddd " X4_K(g) ", %%xmm0, %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_ABEF##s ", " X4_CDGH##s "\n\t" \
	"vpshufd $0x0e, %%xmm0, %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_CDGH##s ", " X4_ABEF##s "\n\t"
/* Rounds 4g .. 4g + 3 of the padding block, W + K from its table. */
#define X4_STEP_PAD(s, g) \
	"vmovdqa ((" #g ")*16)(%[pad]), %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_ABEF##s ", " X4_CDGH##s "\n\t" \
	"vmovq ((" #g ")*16+8)(%[pad]), %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, " X4_CDGH##s ", " X4_ABEF##s "\n\t"
#define X4_ALL(X, g) X(0, g) X(1, g) X(2, g) X(3, g)
/* A block's 16 groups for the 4 streams: FIRST for groups 0 .. 11, REST
 * for 12 .. 15 (where a schedule, if any, is complete). */
#define X4_BLOCK(FIRST, REST) \
	X4_ALL(FIRST, 0) X4_ALL(FIRST, 1) X4_ALL(FIRST, 2) X4_ALL(FIRST, 3) \
	X4_ALL(FIRST, 4) X4_ALL(FIRST, 5) X4_ALL(FIRST, 6) X4_ALL(FIRST, 7) \
	X4_ALL(FIRST, 8) X4_ALL(FIRST, 9) X4_ALL(FIRST, 10) \
	X4_ALL(FIRST, 11) X4_ALL(REST, 12) X4_ALL(REST, 13) \
	X4_ALL(REST, 14) X4_ALL(REST, 15)
#define X4_BLOCK_SCHED X4_BLOCK(X4_STEP_SCHED, X4_STEP_LAST)
#define X4_BLOCK_PAD X4_BLOCK(X4_STEP_PAD, X4_STEP_PAD)

/* 16 bytes at `at` (an operand), big-endian, into xmm13. */
#define X4_LOAD_BE(at) \
	"vmovdqu " at ", %%xmm13\n\t" \
	"vpshufb %%xmm15, %%xmm13, %%xmm13\n\t"
/* Message s, big-endian, into groups 0 .. 3; LAST = group 3. */
#define X4_LOAD_MESSAGE(s, _) \
	X4_LOAD_BE("(" #s "*64)(%[in])") \
	"vmovdqa %%xmm13, " X4_W(s, 0) "\n\t" \
	X4_LOAD_BE("(" #s "*64+16)(%[in])") \
	"vmovdqa %%xmm13, " X4_W(s, 1) "\n\t" \
	X4_LOAD_BE("(" #s "*64+32)(%[in])") \
	"vmovdqa %%xmm13, " X4_W(s, 2) "\n\t" \
	X4_LOAD_BE("(" #s "*64+48)(%[in])") \
	"vmovdqa %%xmm13, " X4_W(s, 3) "\n\t" \
	"vmovdqa %%xmm13, " X4_LAST##s "\n\t"
#define X4_SET_H0(s, _) \
	"vmovdqa " X4_H0_ABEF ", " X4_ABEF##s "\n\t" \
	"vmovdqa " X4_H0_CDGH ", " X4_CDGH##s "\n\t"
#define X4_ADD_H0(s, _) \
	"vpaddd " X4_H0_ABEF ", " X4_ABEF##s ", " X4_ABEF##s "\n\t" \
	"vpaddd " X4_H0_CDGH ", " X4_CDGH##s ", " X4_CDGH##s "\n\t"
#define X4_KEEP(s, _) \
	"vmovdqa " X4_ABEF##s ", " X4_KEPT(s, 0) "\n\t" \
	"vmovdqa " X4_CDGH##s ", " X4_KEPT(s, 1) "\n\t"
#define X4_ADD_KEPT(s, _) \
	"vpaddd " X4_KEPT(s, 0) ", " X4_ABEF##s ", " X4_ABEF##s "\n\t" \
	"vpaddd " X4_KEPT(s, 1) ", " X4_CDGH##s ", " X4_CDGH##s "\n\t"
/* The digest as the next message: A B C D and E F G H (shufps as pick()
 * above), then the padding words (xmm14 holds words 8 .. 11). */
#define X4_DIGEST_TO_MESSAGE(s, _) \
	"vshufps $0xbb, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm13\n\t" \
	"vmovdqa %%xmm13, " X4_W(s, 0) "\n\t" \
	"vshufps $0x11, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm13\n\t" \
	"vmovdqa %%xmm13, " X4_W(s, 1) "\n\t" \
	"vmovdqa %%xmm14, " X4_W(s, 2) "\n\t" \
	"vmovdqa " X4_PAD12 ", " X4_LAST##s "\n\t" \
	"vmovdqa " X4_LAST##s ", " X4_W(s, 3) "\n\t"
#define X4_STORE_DIGEST(s, _) \
	"vshufps $0xbb, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm13\n\t" \
	"vpshufb %%xmm15, %%xmm13, %%xmm13\n\t" \
	"vmovdqu %%xmm13, (" #s "*32)(%[out])\n\t" \
	"vshufps $0x11, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm13\n\t" \
	"vpshufb %%xmm15, %%xmm13, %%xmm13\n\t" \
	"vmovdqu %%xmm13, (" #s "*32+16)(%[out])\n\t"

/* The 4 64-byte messages at in to their SHA-256d at out; all are read
 * before any is written, so out may be in. */
static void d64_x4_asm(uint8_t *out, const uint8_t *in)
{
	/* 4 streams x 16 schedule groups, then 4 x 2 kept state vectors */
	uint8_t buf[4 * 256 + 4 * 32] __attribute__((aligned(64)));

	__asm__ volatile(
	    "vmovdqa " X4_BSWAP ", %%xmm15\n\t"
	    X4_ALL(X4_LOAD_MESSAGE, _) X4_ALL(X4_SET_H0, _)
	    X4_BLOCK_SCHED
	    X4_ALL(X4_ADD_H0, _) X4_ALL(X4_KEEP, _)
	    X4_BLOCK_PAD
	    X4_ALL(X4_ADD_KEPT, _)
	    "vmovdqa " X4_PAD8 ", %%xmm14\n\t"
	    X4_ALL(X4_DIGEST_TO_MESSAGE, _) X4_ALL(X4_SET_H0, _)
	    X4_BLOCK_SCHED
	    X4_ALL(X4_ADD_H0, _)
	    X4_ALL(X4_STORE_DIGEST, _)
	    :
	    : [in] "r"(in), [out] "r"(out), [buf] "r"(buf),
	      [k] "r"(yespower_sha256_K), [pad] "r"(pow_sha256_pad64_wk),
	      [c] "r"(d64_x4_consts)
	    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
	      "xmm15", "memory");
}

/*
 * Recursive hashing of 4 chains, the same way: one compression a hash,
 * its schedule as in SHA256D64's scheduled blocks.  Words 8 .. 15 of a
 * 32-byte message never change, so groups 2 and 3 of each stream's
 * buffer are written once; each hash writes groups 0 and 1 from the state
 * plus the initial state (the feed-forward; the digest's words are the
 * next message's).
 */
#define X4_LOAD_CHAIN(s, _) \
	X4_LOAD_BE("(" #s "*32)(%[h])") \
	"vmovdqa %%xmm13, " X4_W(s, 0) "\n\t" \
	X4_LOAD_BE("(" #s "*32+16)(%[h])") \
	"vmovdqa %%xmm13, " X4_W(s, 1) "\n\t" \
	"vmovdqa %%xmm14, " X4_W(s, 2) "\n\t" \
	"vmovdqa " X4_PAD12 ", %%xmm13\n\t" \
	"vmovdqa %%xmm13, " X4_W(s, 3) "\n\t"
#define X4_START_HASH(s, _) \
	"vmovdqa " X4_PAD12 ", " X4_LAST##s "\n\t" X4_SET_H0(s, _)
/* The digest (state + H0) in A B C D, E F G H order, into xmm13, xmm14. */
#define X4_DIGEST(s) \
	"vshufps $0xbb, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm13\n\t" \
	"vpaddd " X4_H0_ABCD ", %%xmm13, %%xmm13\n\t" \
	"vshufps $0x11, " X4_CDGH##s ", " X4_ABEF##s ", %%xmm14\n\t" \
	"vpaddd " X4_H0_EFGH ", %%xmm14, %%xmm14\n\t"
#define X4_NEXT_MESSAGE(s, _) X4_DIGEST(s) \
	"vmovdqa %%xmm13, " X4_W(s, 0) "\n\t" \
	"vmovdqa %%xmm14, " X4_W(s, 1) "\n\t"
#define X4_STORE_CHAIN(s, _) X4_DIGEST(s) \
	"vpshufb %%xmm15, %%xmm13, %%xmm13\n\t" \
	"vmovdqu %%xmm13, (" #s "*32)(%[h])\n\t" \
	"vpshufb %%xmm15, %%xmm14, %%xmm14\n\t" \
	"vmovdqu %%xmm14, (" #s "*32+16)(%[h])\n\t"

/* The 4 chains at h, each hashed iters (>= 1) times. */
static void recursive_x4_asm(uint8_t *h, uint64_t iters)
{
	uint8_t buf[4 * 256] __attribute__((aligned(64)));

	__asm__ volatile(
	    "vmovdqa " X4_BSWAP ", %%xmm15\n\t"
	    "vmovdqa " X4_PAD8 ", %%xmm14\n\t"
	    X4_ALL(X4_LOAD_CHAIN, _)
	    "1:\n\t"
	    X4_ALL(X4_START_HASH, _)
	    X4_BLOCK_SCHED
	    "dec %[n]\n\t"
	    "jz 2f\n\t"
	    X4_ALL(X4_NEXT_MESSAGE, _)
	    "jmp 1b\n"
	    "2:\n\t"
	    X4_ALL(X4_STORE_CHAIN, _)
	    : [n] "+r"(iters)
	    : [h] "r"(h), [buf] "r"(buf), [k] "r"(yespower_sha256_K),
	      [c] "r"(d64_x4_consts)
	    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
	      "xmm15", "cc", "memory");
}
/*
 * One chain in one asm block (the VEX build on x86-64).  The instructions
 * are the compiled recursive_x1's (less the constant work below; and the
 * next message's first W + K is the shuffled state plus one constant,
 * H0's A B C D plus K0, one addition from the last round to the next
 * hash's first, while W0 itself, state plus H0, is formed beside it for
 * the schedule: 1.003-1.008 times the form with two additions on that
 * path), in the source's order: each quad's
 * first round pair, the schedule's MSG2 step, the second pair (its W + K
 * by PSHUFD), MSG1.  gcc 12 moves the PSHUFD up beside the first
 * SHA256RNDS2, ahead of the schedule, and compiled so the chain ran at
 * 0.991 of fast-recursive-sha256's speed on an Intel Xeon (family 6
 * model 167), clang (which kept the order) at 1.008, this order 1.001-1.002
 * and with the constant work left out 1.002-1.006; with MSG1 before the
 * second pair, 0.985 (doc/hashes.md).  Why the order matters there was
 * not found (no performance counters).
 * Registers: xmm0 W + K, xmm1 ABEF, xmm2 CDGH, xmm3 .. xmm6 the schedule
 * (16 words), xmm7 scratch, xmm8 and xmm9 the initial state, xmm10 ..
 * xmm13 W + K of rounds 8 .. 15 (the padding's words, the same every
 * hash), xmm15 words 12 .. 15 for the schedule and xmm14 the schedule's
 * first step on words 8 .. 15 (SHA256MSG1 of them), also the same every
 * hash; and where words 9 .. 12 would be added to W16 .. 19 they are
 * zero, so that step is left out.
 */
#define X1_W0 "%%xmm3"
#define X1_W1 "%%xmm4"
#define X1_W2 "%%xmm5"
#define X1_W3 "%%xmm6"
#define X1_RND1(g, v) \
	"vpaddd " X4_K(g) ", " X1_W##v ", %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t"
#define X1_RND2 \
	"vpshufd $0x0e, %%xmm0, %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\t"
#define X1_MSG2(v, prev, next) \
	"vpalignr $4, " X1_W##prev ", " X1_W##v ", %%xmm7\n\t" \
	"vpaddd %%xmm7, " X1_W##next ", " X1_W##next "\n\t" \
	"sha256msg2 " X1_W##v ", " X1_W##next "\n\t"
#define X1_MSG1(v, prev) "sha256msg1 " X1_W##v ", " X1_W##prev "\n\t"
/* Rounds 4g .. 4g + 3 with the schedule steps due then (as QUAD_STEPS). */
#define X1_QUAD(g, v, prev, next) \
	X1_RND1(g, v) X1_MSG2(v, prev, next) X1_RND2 X1_MSG1(v, prev)
#define X1_QUAD_NO_MSG1(g, v, prev, next) \
	X1_RND1(g, v) X1_MSG2(v, prev, next) X1_RND2
/* Rounds 8 .. 15: W + K from registers. */
#define X1_CONST_LO(r) "vmovdqa %%xmm" #r ", %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t"
#define X1_CONST_HI(r) "vmovdqa %%xmm" #r ", %%xmm0\n\t" \
	"sha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\t"

/* The chain at h, hashed iters (>= 1) times. */
static void recursive_x1_asm(uint8_t *h, uint64_t iters)
{
	__asm__ volatile(
	    "vmovdqu (%[h]), %%xmm3\n\t"
	    "vpshufb " X4_BSWAP ", %%xmm3, %%xmm3\n\t"
	    "vmovdqu 16(%[h]), %%xmm4\n\t"
	    "vpshufb " X4_BSWAP ", %%xmm4, %%xmm4\n\t"
	    "vmovdqa " X4_H0_ABEF ", %%xmm8\n\t"
	    "vmovdqa " X4_H0_CDGH ", %%xmm9\n\t"
	    "vmovdqa " X4_PAD8 ", %%xmm14\n\t"
	    "vmovdqa " X4_PAD12 ", %%xmm15\n\t"
	    "vpaddd " X4_K(2) ", %%xmm14, %%xmm10\n\t"
	    "vpshufd $0x0e, %%xmm10, %%xmm11\n\t"
	    "sha256msg1 %%xmm15, %%xmm14\n\t"
	    "vpaddd " X4_K(3) ", %%xmm15, %%xmm12\n\t"
	    "vpshufd $0x0e, %%xmm12, %%xmm13\n\t"
	    "vpaddd " X4_K(0) ", " X1_W0 ", %%xmm0\n\t"
	    "1:\n\t"
	    "vmovdqa %%xmm8, %%xmm1\n\t"
	    "vmovdqa %%xmm9, %%xmm2\n\t"
	    "vmovdqa %%xmm14, %%xmm5\n\t"
	    "vmovdqa %%xmm15, %%xmm6\n\t"
	    "sha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t" X1_RND2
	    X1_RND1(1, 1) X1_RND2 X1_MSG1(1, 0)
	    X1_CONST_LO(10) X1_CONST_HI(11)
	    "sha256msg1 " X4_PAD8 ", " X1_W1 "\n\t"
	    X1_CONST_LO(12)
	    "sha256msg2 %%xmm15, " X1_W0 "\n\t"
	    X1_CONST_HI(13)
	    X1_QUAD(4, 0, 3, 1) X1_QUAD(5, 1, 0, 2) X1_QUAD(6, 2, 1, 3)
	    X1_QUAD(7, 3, 2, 0) X1_QUAD(8, 0, 3, 1) X1_QUAD(9, 1, 0, 2)
	    X1_QUAD(10, 2, 1, 3) X1_QUAD(11, 3, 2, 0) X1_QUAD(12, 0, 3, 1)
	    X1_QUAD_NO_MSG1(13, 1, 0, 2) X1_QUAD_NO_MSG1(14, 2, 1, 3)
	    X1_RND1(15, 3) X1_RND2
	    /* The digest, state plus initial state, as the next message. */
	    "vshufps $0xbb, %%xmm2, %%xmm1, %%xmm7\n\t"
	    "vpaddd " X4_H0K0_ABCD ", %%xmm7, %%xmm0\n\t"
	    "vpaddd " X4_H0_ABCD ", %%xmm7, %%xmm3\n\t"
	    "vshufps $0x11, %%xmm2, %%xmm1, %%xmm4\n\t"
	    "vpaddd " X4_H0_EFGH ", %%xmm4, %%xmm4\n\t"
	    "dec %[n]\n\t"
	    "jnz 1b\n\t"
	    "vpshufb " X4_BSWAP ", %%xmm3, %%xmm3\n\t"
	    "vmovdqu %%xmm3, (%[h])\n\t"
	    "vpshufb " X4_BSWAP ", %%xmm4, %%xmm4\n\t"
	    "vmovdqu %%xmm4, 16(%[h])\n\t"
	    : [n] "+r"(iters)
	    : [h] "r"(h), [k] "r"(yespower_sha256_K), [c] "r"(d64_x4_consts)
	    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
	      "xmm15", "cc", "memory");
}
#define D64_X4 d64_x4_asm
#define RECURSIVE_X4 recursive_x4_asm
#define RECURSIVE_X1 recursive_x1_asm
#else
#define D64_X4 d64_x4
#define RECURSIVE_X4 recursive_x4
#define RECURSIVE_X1 recursive_x1
#endif

typedef void d64_group_fn(uint8_t *out, const uint8_t *in);
typedef void recursive_group_fn(uint8_t *h, uint64_t iters);
static d64_group_fn *const d64_x[5] = {
	NULL, d64_x1, d64_x2, d64_x3, D64_X4
};
static recursive_group_fn *const recursive_x[5] = {
	NULL, RECURSIVE_X1, recursive_x2, recursive_x3, RECURSIVE_X4
};

/*
 * Groups of `ways` messages (1 to 4), then what is left in one smaller
 * group.  Inputs are read in groups before the group's outputs are
 * written, and output i never lies after input i, so out == in works.
 */
static void d64_ways(uint8_t *out, const uint8_t *in, size_t n, int ways)
{
	for (; n >= (size_t)ways; n -= ways, in += 64 * ways, out += 32 * ways)
		d64_x[ways](out, in);
	if (n)
		d64_x[n](out, in);
}

static void recursive_ways(uint8_t *h, size_t chains, uint64_t iters,
    int ways)
{
	if (!iters)
		return;
	for (; chains >= (size_t)ways; chains -= ways, h += 32 * ways)
		recursive_x[ways](h, iters);
	if (chains)
		recursive_x[chains](h, iters);
}

#if defined(POW_SHANI_VEX)
void pow_sha256_shani_d64_ways(uint8_t *out, const uint8_t *in, size_t n,
    int ways)
{
	d64_ways(out, in, n, ways);
}

void pow_sha256_shani_recursive_ways(uint8_t *h, size_t chains,
    uint64_t iters, int ways)
{
	recursive_ways(h, chains, iters, ways);
}
#endif

/* The widths used by default (the measurements are in doc/hashes.md):
 * 4 streams where the asm kernels are, else 3 chains (the compiled
 * 4-stream kernel spills and runs at the rate of 3). */
#define D64_WAYS 4
#if SHANI_X4_ASM
#define RECURSIVE_WAYS 4
#else
#define RECURSIVE_WAYS 3
#endif

static void d64_default(uint8_t *out, const uint8_t *in, size_t n)
{
	d64_ways(out, in, n, D64_WAYS);
}

/*
 * Groups of RECURSIVE_WAYS.  A single chain left over would run alone at
 * half the rate, so with groups of 4 the last 5 chains go as 3 + 2, and
 * with groups of 3 the last 4 as one group of 4.
 */
static void recursive_default(uint8_t *h, size_t chains, uint64_t iters)
{
	if (!iters)
		return;
	if (chains >= RECURSIVE_WAYS + 1 && chains % RECURSIVE_WAYS == 1) {
		size_t head = chains - (RECURSIVE_WAYS + 1);

		recursive_ways(h, head, iters, RECURSIVE_WAYS);
		h += 32 * head;
		if (RECURSIVE_WAYS == 4) {
			recursive_x[3](h, iters);
			recursive_x[2](h + 3 * 32, iters);
		} else {
			recursive_x[4](h, iters);
		}
		return;
	}
	recursive_ways(h, chains, iters, RECURSIVE_WAYS);
}

const pow_sha256_kernels SET_SUFFIX(pow_sha256_kernels) = {
	SET_NAME, SET_NEED, d64_default, recursive_default, RECURSIVE_WAYS
};
