/*
 * yespower-opt.c: the optimized mixing core, SMix for yespower 0.5 and 1.0.
 *
 * This one source is compiled once per instruction set, each time with its
 * own flags and YESPOWER_CORE naming the build (see the Makefile):
 * "portable" (plain C, any target), "sse2", "avx", "xop", "avx512vl".  The
 * SIMD builds share the SSE2 code; what differs between them is what the
 * compiler may emit for it (VEX encodings, three-operand forms) and the
 * 32-bit rotates that XOP and AVX-512VL provide for Salsa20.  Each build
 * exports one yespower_core_t, and yespower-dispatch.c picks one at run time.
 *
 * On ARM it also builds "neon" (aarch64, and 32-bit ARM with -mfpu=neon):
 * NEON takes SSE2's place in the group layer and Salsa20.
 *
 * Files.  The primitives each instruction set implements its own way, the
 * groups and Salsa20, are in yespower-opt-sse.h, yespower-opt-neon.h and
 * yespower-opt-portable.h (one of them is included below); what is left
 * here is written once for all: pwxform, BlockMix and SMix on K hashes at
 * once.  The component micro-benchmarks (benchmark --components) are in
 * yespower-opt-components.h, included at the end.
 *
 * Data layout.  A 128*r-byte block is 2r sub-blocks of 64 bytes.  In memory
 * (V, XY, S) a sub-block is 8 lanes of 64 bits in host order: lane m holds
 * the shuffled words 2m (low half) and 2m + 1 (high half), where shuffled
 * word i is Salsa20 word 5i mod 16 (see yespower-ref.c).  pwxform works on
 * pairs of lanes ("groups"), Salsa20 on the four 128-bit rows, which in
 * this order are exactly its diagonals.
 */

#include <stdint.h>
#include <string.h>

#include "sysendian.h"
#include "yespower-impl.h"

#ifndef YESPOWER_CORE
#define YESPOWER_CORE portable
#define YESPOWER_CORE_PORTABLE 1
#endif

#if defined(__SSE2__) && !defined(YESPOWER_CORE_PORTABLE)
#define USE_SSE2 1
#include <emmintrin.h>
#if defined(__XOP__)
#include <x86intrin.h>
#elif defined(__AVX512VL__)
#include <immintrin.h>
#endif
#else
#define USE_SSE2 0
#endif

/*
 * NEON (the "neon" build): aarch64, where it is always there, and 32-bit
 * ARM built with -mfpu=neon, where the dispatcher asks the kernel first.
 * Little-endian only: the layer below reads a group's 64-bit lanes as
 * 32-bit words in memory order, which big-endian NEON numbers otherwise.
 */
#if defined(__ARM_NEON) && !defined(YESPOWER_CORE_PORTABLE) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define USE_NEON 1
#include <arm_neon.h>
#else
#define USE_NEON 0
#endif

#if defined(YESPOWER_CORE_NEON) && !USE_NEON
#error "the neon core needs NEON (on 32-bit ARM, -mfpu=neon) and little-endian"
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define NOINLINE static __attribute__((noinline))
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define ALWAYS_INLINE static inline
#define NOINLINE static
#define PREFETCH(p) ((void)(p))
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

typedef union {
	uint64_t d[8];
#if USE_SSE2
	__m128i q[4];
#endif
} block64;

/* pwxform constants: S-box entry masks (byte offsets of 16-byte entries,
 * one per 32-bit half) and the 1.0 write-position wrap. */
#define SMASK_0_5 ((uint32_t)(YESPOWER_SBOX1(0) - 16))
#define SMASK_1_0 ((uint32_t)(YESPOWER_SBOX1(1) - 16))
#define SMASK2(m) (((uint64_t)(m) << 32) | (m))
#define WMASK_1_0 (YESPOWER_SBOX1(1) - 1)
#define SBOX_MAX YESPOWER_SBOX1(1)	/* bytes of the largest S-box (1.0) */

/*
 * Interleaving.  Every function from here down to smix() works on K
 * independent hashes at once (K = 1 .. KMAX, a constant at each
 * instantiation), step by step in lockstep: K chains of dependent
 * multiply-load-add-xor steps whose latencies overlap, where one chain
 * alone would leave most of the core idle.  The loops over k are unrolled,
 * so each hash's state stays in registers.
 */
/*
 * K's limit in this core (its kmax): 4 where there are 32 vector
 * registers, which hold four hashes' 16 groups and the temporaries of
 * their pwxform steps; 3 elsewhere.  On a Zen 5 (doc/yespower.md, Zen 5
 * (family 26 model 2)) four hashes ran 1.03 to 1.09 times as fast as
 * three in the avx512vl core, and 0.98 to 1.03 times in the avx2 core,
 * which has 16.
 */
#if USE_SSE2 && defined(__AVX512VL__) && defined(__x86_64__)
#define KMAX 4
#else
#define KMAX 3
#endif
#if KMAX > YESPOWER_KMAX
#error "KMAX exceeds YESPOWER_KMAX"
#endif

/* clang unrolls these small constant loops by itself once inlined; asked
 * to, it tries before inlining too, fails and warns. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL _Pragma("GCC unroll 8")
#else
#define UNROLL
#endif

#define FOR_K(k) UNROLL for ((k) = 0; (k) < K; (k)++)

/*
 * The per-instruction-set primitives: groups (two 64-bit lanes, the unit
 * pwxform works on), sub-blocks in registers, and Salsa20 on one hash and
 * on K at once.
 */
#if USE_SSE2
#include "yespower-opt-sse.h"
#elif USE_NEON
#include "yespower-opt-neon.h"
#else
#include "yespower-opt-portable.h"
#endif


ALWAYS_INLINE xblk xblk_load(const block64 *b)
{
	xblk x = { grp_load(b, 0), grp_load(b, 1), grp_load(b, 2),
	    grp_load(b, 3) };

	return x;
}

ALWAYS_INLINE void xblk_store(block64 *b, xblk x)
{
	grp_store(b, 0, x.g0);
	grp_store(b, 1, x.g1);
	grp_store(b, 2, x.g2);
	grp_store(b, 3, x.g3);
}

ALWAYS_INLINE xblk xblk_xor(xblk a, xblk b)
{
	xblk x = { grp_xor(a.g0, b.g0), grp_xor(a.g1, b.g1),
	    grp_xor(a.g2, b.g2), grp_xor(a.g3, b.g3) };

	return x;
}

/* Integerify reads the low word of a block's last sub-block. */
ALWAYS_INLINE uint32_t xblk_integerify(xblk x, const int sh)
{
	return grp_low32(x.g0, sh);
}

/* ---- pwxform, on K independent hashes at once ---- */

/*
 * The S-boxes and, for 1.0, the write position; kept in locals by the
 * BlockMix loops so the compiler can hold them in registers.  One state
 * serves a whole batch: its hashes run in lockstep, so their write
 * positions and box rotations are always equal, and hash k's boxes lie
 * YESPOWER_SSTRIDE(v10) * k bytes after hash 0's (smix's contract).  Each
 * hash's box is then hash 0's register plus a constant in the address,
 * where a pointer each (twelve for four 1.0 hashes) did not fit in the
 * general registers: the BlockMix loop spilled them and moved them
 * through the stack at every rotation.
 */
typedef struct {
	uint8_t *S0, *S1, *S2;
	size_t w;
} pwx_state;

#define SOFF(k, v10) ((size_t)(k) * YESPOWER_SSTRIDE(v10))

/* One pwxform round on the four groups of a sub-block (version 0.5), on
 * the boxes off bytes after s's. */
ALWAYS_INLINE void pwx_round(xblk *x, const pwx_state *s, size_t off,
    uint64_t m, const int sh)
{
	const uint8_t *S0 = s->S0 + off, *S1 = s->S1 + off;

	x->g0 = pwx_grp(x->g0, S0, S1, m, sh);
	x->g1 = pwx_grp(x->g1, S0, S1, m, sh);
	x->g2 = pwx_grp(x->g2, S0, S1, m, sh);
	x->g3 = pwx_grp(x->g3, S0, S1, m, sh);
}

/*
 * One pwxform round of version 1.0: each new group is written back into
 * S0 (groups 0, 2) or S1 (groups 1, 3) at w, all four in the first round
 * and groups 0 and 1 after that.  Stores and loads must stay in this
 * order: a later group may read what an earlier one wrote.
 */
ALWAYS_INLINE void pwx_round_write(xblk *x, const pwx_state *s, size_t off,
    uint64_t m, int first, const int sh)
{
	uint8_t *S0 = s->S0 + off, *S1 = s->S1 + off;
	size_t w = s->w;

	x->g0 = pwx_grp(x->g0, S0, S1, m, sh);
	grp_store_s(S0, w, x->g0);
	x->g1 = pwx_grp(x->g1, S0, S1, m, sh);
	grp_store_s(S1, w, x->g1);
	x->g2 = pwx_grp(x->g2, S0, S1, m, sh);
	if (first)
		grp_store_s(S0, w + 16, x->g2);
	x->g3 = pwx_grp(x->g3, S0, S1, m, sh);
	if (first)
		grp_store_s(S1, w + 16, x->g3);
}

/*
 * pwxform(K, x, s, v10): pwxform on one sub-block of each of K hashes.
 * Version 0.5: six rounds, read-only S-boxes.  Version 1.0: three rounds
 * with writes, then the write position wraps and the boxes rotate:
 * (S0, S1, S2) <- (S2, S0, S1).
 */
ALWAYS_INLINE void pwxform(const int K, xblk x[], pwx_state *s,
    const int v10)
{
	uint8_t *S2;
	int i, k;

	if (!v10) {
		UNROLL for (i = 0; i < 6; i++)
			FOR_K(k) pwx_round(&x[k], s, SOFF(k, 0),
			    SMASK2(SMASK_0_5), SH(K));
		return;
	}

	UNROLL for (i = 0; i < 3; i++) {
		FOR_K(k) pwx_round_write(&x[k], s, SOFF(k, 1),
		    SMASK2(SMASK_1_0), i == 0, SH(K));
		s->w += i == 0 ? 32 : 16;
	}
	s->w &= WMASK_1_0;
	S2 = s->S2;
	s->S2 = s->S1;
	s->S1 = s->S0;
	s->S0 = S2;
}

/* ---- BlockMix ---- */

/*
 * in2 (SMix's V_j) is a block at a random place in V, which may be in L3
 * or memory.  In a batch its sub-blocks are asked for PREFETCH_AHEAD
 * sub-blocks before they are read, the last (read first) and the first
 * few at once.  All of K blocks at once, as one hash still does, gained
 * nothing over no prefetch at all in batches on a Zen 5, where this gained
 * 5 to 10% with 8 and 16 MiB per hash (doc/yespower.md, Zen 5 (family 26
 * model 2)): a burst of
 * 4 x 64 prefetches (r = 32) left the first lines waiting behind the
 * rest.  SMix1's out, the next block of V, which the batch writes to
 * lines it must first fetch, is asked for as far ahead from r = 16 on:
 * there it gained 2 to 6% on the Zen 5 (2048/32, 4096/16, 4096/32), at r
 * = 8 it cost 2 to 3% (the hardware prefetcher had those); PREFETCHW
 * instead measured the same.
 */
#define PREFETCH_AHEAD 4

/*
 * blockmix_pwxform(K, in1, in2, out, n, ctx, v10, xor_in2, save, idx):
 * For each hash k: out[k] = BlockMix_pwxform(in1[k] xor in2[k]) over n =
 * 2r sub-blocks, where in2 takes part only if xor_in2; if save, in2[k]
 * also receives in1[k] xor in2[k] (the write-back of SMix2).  out[k] may
 * be in1[k].  idx[k] receives Integerify(out[k]).  The flags are constants
 * at every call, so each use compiles to its own straight loop.
 */
ALWAYS_INLINE void blockmix_pwxform(const int K, block64 *const in1[],
    block64 *const in2[], block64 *const out[], size_t n, pwx_state *ctx,
    const int v10, const int xor_in2, const int save, uint32_t idx[])
{
	/* One hash asks for the whole of in2 at once: 1% faster for 0.5 on
	 * the Zen 5 than PREFETCH_AHEAD. */
	const size_t ahead = K > 1 ? PREFETCH_AHEAD : n;
	pwx_state s = *ctx;
	xblk x[KMAX];
	size_t i;
	int k;

	FOR_K(k) {
		x[k] = xblk_load(&in1[k][n - 1]);
		if (xor_in2) {
			PREFETCH(&in2[k][n - 1]);
			for (i = 0; i < ahead && i + 1 < n; i++)
				PREFETCH(&in2[k][i]);
			x[k] = xblk_xor(x[k], xblk_load(&in2[k][n - 1]));
		}
	}

	for (i = 0; i < n; i++) {
		if (xor_in2 && i + ahead + 1 < n)
			FOR_K(k) PREFETCH(&in2[k][i + ahead]);
		if (xor_in2 && !save && K > 1 && n >= 32 &&
		    i + PREFETCH_AHEAD < n)
			FOR_K(k) PREFETCH(&out[k][i + PREFETCH_AHEAD]);
		FOR_K(k) {
			xblk t = xblk_load(&in1[k][i]);

			if (xor_in2) {
				t = xblk_xor(t, xblk_load(&in2[k][i]));
				if (save)
					xblk_store(&in2[k][i], t);
			}
			x[k] = xblk_xor(x[k], t);
		}
		pwxform(K, x, &s, v10);
		if (i + 1 < n)
			FOR_K(k) xblk_store(&out[k][i], x[k]);
	}

	salsa20_k(K, x, v10 ? 1 : 4);
	FOR_K(k) {
		xblk_store(&out[k][n - 1], x[k]);
		idx[k] = xblk_integerify(x[k], SH(K));
	}
	*ctx = s;
}

/*
 * blockmix_salsa(in1, in2, out, v10, xor_in2):
 * scrypt's BlockMix with r = 1 (two sub-blocks) on in1 (xor in2), with
 * Salsa20/8 for 0.5 or Salsa20/2 for 1.0: only used to fill the S-boxes.
 */
ALWAYS_INLINE uint32_t blockmix_salsa(const block64 *in1, const block64 *in2,
    block64 *out, const int v10, const int xor_in2)
{
	xblk a = xblk_load(&in1[0]), b = xblk_load(&in1[1]), x;

	if (xor_in2) {
		a = xblk_xor(a, xblk_load(&in2[0]));
		b = xblk_xor(b, xblk_load(&in2[1]));
	}
	x = salsa20(xblk_xor(b, a), v10 ? 1 : 4);
	xblk_store(&out[0], x);
	x = salsa20(xblk_xor(x, b), v10 ? 1 : 4);
	xblk_store(&out[1], x);
	return xblk_integerify(x, 1);
}

/* ---- conversion between PBKDF2's bytes and the lane layout ---- */

static void block_from_bytes(block64 *X, const uint8_t *B, size_t n)
{
	size_t k;
	int m;

	for (k = 0; k < n; k++, B += 64) {
		for (m = 0; m < 8; m++) {
			uint32_t lo = le32dec(&B[4 * ((10 * m) % 16)]);
			uint32_t hi = le32dec(&B[4 * ((10 * m + 5) % 16)]);

			X[k].d[m] = (uint64_t)lo | ((uint64_t)hi << 32);
		}
	}
}

static void block_to_bytes(uint8_t *B, const block64 *X, size_t n)
{
	size_t k;
	int m;

	for (k = 0; k < n; k++, B += 64) {
		for (m = 0; m < 8; m++) {
			le32enc(&B[4 * ((10 * m) % 16)], (uint32_t)X[k].d[m]);
			le32enc(&B[4 * ((10 * m + 5) % 16)],
			    (uint32_t)(X[k].d[m] >> 32));
		}
	}
}

/* ---- SMix ---- */

/*
 * smix1_sbox(V, N, out, v10):
 * SMix's first loop with Salsa20 BlockMix and r = 1, which fills the
 * S-boxes: V[0..1] holds the input; V_{i+1} = H(V_i xor V_j) with j =
 * Wrap(Integerify(V_i), i) for i > 1, written straight into V, and the
 * last result goes to out.  N is not a power of 2 for 1.0 (768), hence
 * Wrap.  A small part of the work, so it runs one hash at a time.
 */
ALWAYS_INLINE void smix1_sbox(block64 *V, uint32_t N, block64 *out,
    const int v10)
{
	uint32_t i, j, x, p2 = 2;

	blockmix_salsa(&V[0], NULL, &V[2], v10, 0);
	x = blockmix_salsa(&V[2], NULL, &V[4], v10, 0);
	for (i = 2; i < N; i++) {
		block64 *dst = (i + 1 < N) ? &V[(size_t)(i + 1) * 2] : out;

		if (i == 2 * p2)
			p2 = i;		/* largest power of 2 <= i */
		j = (x & (p2 - 1)) + (i - p2);
		x = blockmix_salsa(&V[(size_t)i * 2], &V[(size_t)j * 2], dst,
		    v10, 1);
	}
}

/*
 * smix1(K, V, n, N, out, ctx, v10):
 * SMix's first loop for K hashes, each over its own V (n sub-blocks per
 * block, N blocks, a power of 2), as smix1_sbox but with
 * BlockMix_pwxform.
 */
ALWAYS_INLINE void smix1(const int K, block64 *const V[], size_t n,
    uint32_t N, block64 *const out[], pwx_state *ctx, const int v10)
{
	block64 *a[KMAX], *b[KMAX], *c[KMAX];
	uint32_t i, x[KMAX], p2 = 2;
	int k;

	FOR_K(k) {
		a[k] = V[k];
		b[k] = &V[k][n];
		c[k] = &V[k][2 * n];
	}
	blockmix_pwxform(K, a, NULL, b, n, ctx, v10, 0, 0, x);
	blockmix_pwxform(K, b, NULL, c, n, ctx, v10, 0, 0, x);

	for (i = 2; i < N; i++) {
		if (i == 2 * p2)
			p2 = i;		/* largest power of 2 <= i */
		FOR_K(k) {
			uint32_t j = (x[k] & (p2 - 1)) + (i - p2);

			a[k] = &V[k][(size_t)i * n];
			b[k] = &V[k][(size_t)j * n];
			c[k] = (i + 1 < N) ? &V[k][(size_t)(i + 1) * n] :
			    out[k];
		}
		blockmix_pwxform(K, a, b, c, n, ctx, v10, 1, 0, x);
	}
}

/*
 * smix2(K, X, Y, n, N, Nloop, V, ctx, v10):
 * SMix's second loop for K hashes: Nloop steps X = H(X xor V_j), j =
 * Integerify(X) mod N, each also writing X xor V_j back to V_j, except in
 * a loop of exactly two steps (yespower 0.5's tail), which only reads V
 * and so needs the second buffer Y.  X[k] is left pointing at the result.
 */
ALWAYS_INLINE void smix2(const int K, block64 *X[], block64 *Y[], size_t n,
    uint32_t N, uint32_t Nloop, block64 *const V[], pwx_state *ctx,
    const int v10)
{
	block64 *Vj[KMAX];
	uint32_t i, x[KMAX];
	int k;

	FOR_K(k) x[k] = (uint32_t)X[k][n - 1].d[0];

	if (Nloop == 2) {
		for (i = 0; i < Nloop; i++) {
			FOR_K(k) Vj[k] = &V[k][(size_t)(x[k] & (N - 1)) * n];
			blockmix_pwxform(K, X, Vj, Y, n, ctx, v10, 1, 0, x);
			FOR_K(k) {
				block64 *t = X[k];

				X[k] = Y[k];
				Y[k] = t;
			}
		}
		return;
	}

	for (i = 0; i < Nloop; i++) {
		FOR_K(k) Vj[k] = &V[k][(size_t)(x[k] & (N - 1)) * n];
		blockmix_pwxform(K, X, Vj, X, n, ctx, v10, 1, 1, x);
	}
}

/*
 * smix(K, B, r, N, V, XY, S, v10):
 * For each of K hashes: the S-boxes are filled by a Salsa20 SMix1 over
 * the first 128 bytes of B (which it also updates), then B goes through
 * SMix1 over N blocks and SMix2 over about N/3 steps.
 */
ALWAYS_INLINE void smix(const int K, uint8_t *const B[], uint32_t r,
    uint32_t N, block64 *const V[], block64 *const XY[],
    block64 *const S[], const int v10)
{
	size_t n = 2 * (size_t)r, sbox_bytes = YESPOWER_SBOX1(v10);
	uint32_t Nloop_all = (N + 2) / 3, Nloop_rw = Nloop_all;
	pwx_state ctx;
	block64 *X[KMAX], *Y[KMAX];
	uint32_t unused[KMAX];
	size_t m;
	int k;

	Nloop_all = (Nloop_all + 1) & ~(uint32_t)1;
	Nloop_rw = v10 ? (Nloop_rw + 1) & ~(uint32_t)1 : Nloop_rw & ~(uint32_t)1;

	FOR_K(k) {
		/* S-boxes: Salsa20 SMix1 with r = 1 over S itself. */
		block_from_bytes(S[k], B[k], 2);
		smix1_sbox(S[k], YESPOWER_SBYTES(v10) / 128, XY[k], v10);
		block_to_bytes(B[k], XY[k], 2);
		block_from_bytes(V[k], B[k], n);
	}
	ctx.S0 = (uint8_t *)S[0];	/* and S[k] at SOFF(k, v10) */
	ctx.S1 = ctx.S0 + sbox_bytes;
	ctx.S2 = ctx.S1 + sbox_bytes;
	ctx.w = 0;

	/* 1.0 derives 128-byte blocks 1 .. r-1 of the input from block 0. */
	if (v10) {
		for (m = 1; m < r; m++) {
			block64 *in[KMAX], *out[KMAX];

			FOR_K(k) {
				in[k] = &V[k][2 * (m - 1)];
				out[k] = &V[k][2 * m];
			}
			blockmix_pwxform(K, in, NULL, out, 2, &ctx, v10, 0, 0,
			    unused);
		}
	}

	smix1(K, V, n, N, XY, &ctx, v10);
	FOR_K(k) {
		X[k] = XY[k];
		Y[k] = XY[k] + n;
	}
	smix2(K, X, Y, n, N, Nloop_rw, V, &ctx, v10);
	if (Nloop_all > Nloop_rw) {
		FOR_K(k) Y[k] = (X[k] == XY[k]) ? XY[k] + n : XY[k];
		smix2(K, X, Y, n, N, Nloop_all - Nloop_rw, V, &ctx, v10);
	}
	FOR_K(k) block_to_bytes(B[k], X[k], n);
}

/* One function per version and K, each its own straight-line code. */
#define SMIX_INSTANCE(K, v10) \
NOINLINE void smix_##K##_##v10(uint8_t *const B[], uint32_t r, uint32_t N, \
    void *const V[], void *const XY[], void *const S[]) \
{ \
	smix(K, B, r, N, (block64 *const *)V, (block64 *const *)XY, \
	    (block64 *const *)S, v10); \
}

SMIX_INSTANCE(1, 0)
SMIX_INSTANCE(1, 1)

#ifdef YESPOWER_PLAIN
/*
 * The plain twin differs from its core only for one hash (SH(K) is 0 for
 * K > 1), so it compiles K = 1 alone and hands batches to the core built
 * from this same file with the shadow.
 */
extern const yespower_core_t CAT(yespower_core_, YESPOWER_CORE);

static void smix_entry(unsigned K, uint8_t *const B[], uint32_t r,
    uint32_t N, yespower_version_t version, void *const V[],
    void *const XY[], void *const S[])
{
	if (K > 1) {
		CAT(yespower_core_, YESPOWER_CORE).smix(K, B, r, N, version,
		    V, XY, S);
		return;
	}
	if (version == YESPOWER_1_0)
		smix_1_1(B, r, N, V, XY, S);
	else
		smix_1_0(B, r, N, V, XY, S);
}
#else
SMIX_INSTANCE(2, 0)
SMIX_INSTANCE(2, 1)
SMIX_INSTANCE(3, 0)
SMIX_INSTANCE(3, 1)
#if KMAX >= 4
SMIX_INSTANCE(4, 0)
SMIX_INSTANCE(4, 1)
#endif

typedef void smix_fn(uint8_t *const B[], uint32_t r, uint32_t N,
    void *const V[], void *const XY[], void *const S[]);

static smix_fn *const smix_table[KMAX][2] = {
	{ smix_1_0, smix_1_1 }, { smix_2_0, smix_2_1 },
	{ smix_3_0, smix_3_1 },
#if KMAX >= 4
	{ smix_4_0, smix_4_1 },
#endif
};

/*
 * A batch's hashes share one pwx_state, which needs hash k's S-boxes at
 * SOFF(k) bytes from hash 0's (yespower-impl.h).  Memory laid out
 * otherwise is hashed one input at a time: the same answers, slower.
 */
static void smix_entry(unsigned K, uint8_t *const B[], uint32_t r,
    uint32_t N, yespower_version_t version, void *const V[],
    void *const XY[], void *const S[])
{
	int v10 = (version == YESPOWER_1_0);
	unsigned k;

	for (k = 1; k < K; k++) {
		if ((uint8_t *)S[k] != (uint8_t *)S[0] + SOFF(k, v10))
			break;
	}
	if (k == K) {
		smix_table[K - 1][v10](B, r, N, V, XY, S);
		return;
	}
	for (k = 0; k < K; k++)
		smix_table[0][v10](&B[k], r, N, &V[k], &XY[k], &S[k]);
}
#endif

/* ---- component micro-benchmarks (benchmark --components) ---- */

#include "yespower-opt-components.h"

/*
 * The core's name and symbol.  YESPOWER_PLAIN builds the twin without the
 * shadow, "NAME-plain" (x86-64 only; the Makefile builds one per SIMD
 * core): the same hashes, and the same code but for one hash at a time.
 * Which of the two runs faster depends on the CPU (doc/yespower.md, Zen 3
 * and Intel Xeon), and the dispatcher chooses.
 */
#ifdef YESPOWER_PLAIN
#define CORE_SYMBOL CAT(CAT(yespower_core_, YESPOWER_CORE), _plain)
#define CORE_NAME STR(YESPOWER_CORE) "-plain"
#else
#define CORE_SYMBOL CAT(yespower_core_, YESPOWER_CORE)
#define CORE_NAME STR(YESPOWER_CORE)
#endif

const yespower_core_t CORE_SYMBOL = {
	CORE_NAME, KMAX, smix_entry, component_entry
};
