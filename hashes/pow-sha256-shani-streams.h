/*
 * pow-sha256-shani-streams.h: the SHA-NI kernels for S interleaved
 * streams; pow-sha256-shani.c includes it once for each S from 1 to 4
 * (S defined).  Each stream s has its own variables (abef<s>, cdgh<s>,
 * w<s>_0 .. w<s>_3, ...), so that the compiler keeps them in registers,
 * and EACH(X, args) is X(s, args) for every stream.
 */
#if S == 1
#define EACH(X, ...) X(0, __VA_ARGS__)
#elif S == 2
#define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__)
#elif S == 3
#define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__)
#elif S == 4
#define EACH(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__) \
	X(3, __VA_ARGS__)
#else
#error "S must be 1 to 4"
#endif

#define STREAMS_NAME_(name, n) name##_x##n
#define STREAMS_NAME(name, n) STREAMS_NAME_(name, n)

/* The S 64-byte messages at in to their SHA-256d at out. */
/* (unused for S = 4 in the VEX build on x86-64, where d64_x4_asm in
 * pow-sha256-shani.c takes its place) */
TARGET_SHANI __attribute__((unused)) static void STREAMS_NAME(d64, S)(
    uint8_t *out, const uint8_t *in)
{
	EACH(DECLARE_STREAM)

	/* The message block. */
	EACH(LOAD_MESSAGE, in)
	EACH(SET_H0)
	ROUNDS(QUAD);
	EACH(FEED_FORWARD_H0)
	EACH(KEEP_STATE)

	/* The padding block: W + K from the table, no schedule. */
	for (int g = 0; g < 16; g++) {
		const __m128i wk = _mm_load_si128(
		    (const __m128i *)&pow_sha256_pad64_wk[4 * g]);
		const __m128i wk_hi = _mm_loadl_epi64(
		    (const __m128i *)&pow_sha256_pad64_wk[4 * g + 2]);

		EACH(ROUND_PAIR_LO, wk)
		EACH(ROUND_PAIR_HI, wk_hi)
	}
	EACH(FEED_FORWARD_KEPT)

	/* The digest as a 32-byte message. */
	EACH(DIGEST_TO_MESSAGE)
	EACH(SET_H0)
	ROUNDS(QUAD);
	EACH(FEED_FORWARD_H0)
	EACH(STORE_DIGEST, out)
}

/* S chains at h, each hashed iters (>= 1) times (see the top of
 * pow-sha256-shani.c for the path between two hashes; unused for S = 1
 * and 4 in the VEX build on x86-64, where recursive_x1_asm and
 * recursive_x4_asm take their places). */
TARGET_SHANI __attribute__((unused)) static void STREAMS_NAME(recursive,
    S)(uint8_t *h, uint64_t iters)
{
	const __m128i abcd_k = _mm_add_epi32(H0_ABCD, K4(0));

	EACH(DECLARE_STREAM)
	EACH(LOAD_CHAIN, h)
	for (;;) {
		EACH(SET_PAD32)
		EACH(SET_H0)
		ROUNDS(QUAD_WK0);
		EACH(NEXT_MESSAGE, abcd_k)
		if (!--iters)
			break;
	}
	EACH(STORE_CHAIN, h)
}

#undef EACH
#undef STREAMS_NAME
#undef STREAMS_NAME_
