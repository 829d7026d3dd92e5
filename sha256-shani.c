/*
 * sha256-shani.c: the SHA-256 compression function with the x86 SHA
 * extensions (SHA-NI).
 *
 * The Makefile compiles this file alone with -msha -msse4.1 (and only on
 * x86), so no other code of the library can contain these instructions;
 * sha256.c calls it only when cpuid reports SHA, SSSE3 and SSE4.1.
 * Build rules that do not pass the flags (the sanitizer and fuzz
 * builds) get the same code through a function target attribute.
 *
 * How the instructions split the work.  SHA256RNDS2 does two rounds: it
 * takes the eight working variables in two registers, "ABEF" (A in the
 * top dword, then B, E, F) and "CDGH" (C, D, G, H likewise), plus the two
 * words W[t] + K[t] in the low half of a third, and returns the new ABEF;
 * the new CDGH is the old ABEF, so two calls with the registers' roles
 * swapped make four rounds and leave the roles as they were.  SHA256MSG1
 * and SHA256MSG2 compute four message words W[t .. t + 3] from the previous
 * sixteen: MSG1 adds sigma0 terms, the caller adds W[t - 7 .. t - 4], MSG2
 * adds the sigma1 terms (chained inside the instruction, since W[t + 2]
 * needs W[t]).  A message vector holds four consecutive words, the first
 * in the low dword.
 */
#include <stddef.h>
#include <stdint.h>

#include <immintrin.h>

#include "sha256.h"

#if defined(__SHA__) && defined(__SSE4_1__)
#define TARGET_SHANI
#else
#define TARGET_SHANI __attribute__((target("sha,sse4.1,ssse3")))
#endif


/*
 * QUAD(g, v, prev, next): rounds 4g .. 4g + 3 on v = W[4g .. 4g + 3], with
 * the message schedule interleaved the way the instructions' latencies
 * want it.  W[t .. t + 3] is SHA256MSG2(SHA256MSG1(W[t - 16 ..], W[t - 12
 * ..]) + W[t - 7 .. t - 4], W[t - 4 ..]): the MSG1 part can start as soon
 * as its second operand exists, the rest must wait for the vector just
 * before.  So during these rounds, finish W[4g + 4 ..] in next (which
 * holds its MSG1 part already; W[4g - 3 .. 4g] is prev and v shifted by
 * one word), and start W[4g + 12 ..] in prev, which is not needed any
 * more.  g is a constant, so the conditions cost nothing.
 */
#define QUAD(g, v, prev, next) do { \
	__m128i wk_ = _mm_add_epi32((v), \
	    _mm_load_si128((const __m128i *)&yespower_sha256_K[4 * (g)])); \
	cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_); \
	if ((g) >= 3 && (g) <= 14) { \
		(next) = _mm_add_epi32((next), \
		    _mm_alignr_epi8((v), (prev), 4)); \
		(next) = _mm_sha256msg2_epu32((next), (v)); \
	} \
	wk_ = _mm_shuffle_epi32(wk_, 0x0e); \
	abef = _mm_sha256rnds2_epu32(abef, cdgh, wk_); \
	if ((g) >= 1 && (g) <= 12) \
		(prev) = _mm_sha256msg1_epu32((prev), (v)); \
} while (0)

/* The block at in as four vectors of big-endian words. */
#define LOAD_BLOCK(in) do { \
	w0 = _mm_shuffle_epi8(_mm_loadu_si128( \
	    (const __m128i *)&(in)[0]), bswap); \
	w1 = _mm_shuffle_epi8(_mm_loadu_si128( \
	    (const __m128i *)&(in)[16]), bswap); \
	w2 = _mm_shuffle_epi8(_mm_loadu_si128( \
	    (const __m128i *)&(in)[32]), bswap); \
	w3 = _mm_shuffle_epi8(_mm_loadu_si128( \
	    (const __m128i *)&(in)[48]), bswap); \
} while (0)

/*
 * yespower_sha256_blocks_shani(state, in, nblocks):
 * As yespower_sha256_blocks_portable (see sha256.h): compress nblocks
 * 64-byte blocks at in (any alignment) into state.  The state stays in
 * registers from one block to the next, and each block is loaded before
 * the previous one's final additions, so that a message which was just
 * written waits for nothing else.  Thread-safe.
 */
TARGET_SHANI
void yespower_sha256_blocks_shani(uint32_t state[8], const uint8_t *in,
    size_t nblocks)
{
	/* Reverses the bytes of each dword: SHA-256 words are big-endian. */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
	    0x0405060700010203LL);
	__m128i abef, cdgh, lo, hi, w0, w1, w2, w3;

	if (!nblocks)
		return;
	LOAD_BLOCK(in);

	/* state[] is A .. H; lo = (A, B, C, D) low dword first. */
	lo = _mm_loadu_si128((const __m128i *)&state[0]);
	hi = _mm_loadu_si128((const __m128i *)&state[4]);
	lo = _mm_shuffle_epi32(lo, 0xb1);		/* B A D C */
	hi = _mm_shuffle_epi32(hi, 0x1b);		/* H G F E */
	abef = _mm_alignr_epi8(lo, hi, 8);		/* F E B A */
	cdgh = _mm_blend_epi16(hi, lo, 0xf0);		/* H G D C */

	for (;;) {
		const __m128i abef_in = abef, cdgh_in = cdgh;

		QUAD(0, w0, w3, w1);
		QUAD(1, w1, w0, w2);
		QUAD(2, w2, w1, w3);
		QUAD(3, w3, w2, w0);
		QUAD(4, w0, w3, w1);
		QUAD(5, w1, w0, w2);
		QUAD(6, w2, w1, w3);
		QUAD(7, w3, w2, w0);
		QUAD(8, w0, w3, w1);
		QUAD(9, w1, w0, w2);
		QUAD(10, w2, w1, w3);
		QUAD(11, w3, w2, w0);
		QUAD(12, w0, w3, w1);
		QUAD(13, w1, w0, w2);
		QUAD(14, w2, w1, w3);
		QUAD(15, w3, w2, w0);

		if (--nblocks) {
			in += 64;
			LOAD_BLOCK(in);
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
		if (!nblocks)
			break;
	}

	/* Back to A .. H. */
	abef = _mm_shuffle_epi32(abef, 0x1b);		/* A B E F */
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);		/* G H C D */
	lo = _mm_blend_epi16(abef, cdgh, 0xf0);		/* A B C D */
	hi = _mm_alignr_epi8(cdgh, abef, 8);		/* E F G H */
	_mm_storeu_si128((__m128i *)&state[0], lo);
	_mm_storeu_si128((__m128i *)&state[4], hi);
}
