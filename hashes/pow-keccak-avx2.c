/*
 * pow-keccak-avx2.c: SHA3-256 of 64-byte messages, 4 at a time, one
 * Keccak-f[1600] state in each 64-bit lane of the AVX2 registers.
 *
 * Compiled alone with -mavx2 (the Makefile), called only where cpuid
 * reports AVX2.  The round is pow-keccak-round.h's on vectors; the
 * rotations by 8 and 56 bits are byte shuffles, and the rotation by 1 in
 * theta adds the lane to itself, so that it needs only one of the two
 * vector shift units.
 *
 * Tried and dropped: a fifth state in general registers, round by round
 * in the same loop, so that the idle integer units would work too.  On
 * Zen 3 the vector rounds already take as many instructions per cycle as
 * the core can issue, and five states ran slower than four
 * (doc/hashes.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <immintrin.h>

#include "cpu-features.h"
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

#define V_XOR(a, b) _mm256_xor_si256(a, b)
#define V_XOR5(a, b, c, d, e) V_XOR(V_XOR(V_XOR(a, b), V_XOR(c, d)), e)
#define V_ROL(a, n) ((n) == 8 ? rol8(a) : (n) == 56 ? rol56(a) : \
	rol_shift(a, (n)))
#define V_ROL1(a) _mm256_or_si256(_mm256_add_epi64(a, a), \
	_mm256_srli_epi64(a, 63))
#define V_ANDN(a, b) _mm256_andnot_si256(a, b)
#define V_CHI(a, b, c) V_XOR(a, V_ANDN(b, c))
#define V_DCOL(c, r) V_XOR(c, r)
#define V_THETA(a, c, d) V_XOR(a, d)

#define LANES(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(10) op(11) op(12) op(13) op(14) op(15) op(16) op(17) op(18) \
	op(19) op(20) op(21) op(22) op(23) op(24)
#define DECLARE_V(i) V a##i, b##i;

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

/*
 * The states of the 4 messages at in, one per lane, and of the fifth at
 * in5 (if any): the message in lanes 0 .. 7, SHA3's padding in 8 and 16
 * (see pow-keccak.c), zeros elsewhere.
 */
#define LOAD_VECTOR_STATES(in) do { \
	V r_[4]; \
	for (int i_ = 0; i_ < 4; i_++) \
		r_[i_] = _mm256_loadu_si256((const V *)&(in)[64 * i_]); \
	transpose4(r_); \
	a0 = r_[0]; a1 = r_[1]; a2 = r_[2]; a3 = r_[3]; \
	for (int i_ = 0; i_ < 4; i_++) \
		r_[i_] = _mm256_loadu_si256((const V *)&(in)[64 * i_ + 32]); \
	transpose4(r_); \
	a4 = r_[0]; a5 = r_[1]; a6 = r_[2]; a7 = r_[3]; \
	a8 = _mm256_set1_epi64x(0x06); \
	a16 = _mm256_set1_epi64x((long long)0x8000000000000000ULL); \
	a9 = a10 = a11 = a12 = a13 = a14 = a15 = _mm256_setzero_si256(); \
	a17 = a18 = a19 = a20 = a21 = a22 = a23 = a24 = a9; \
} while (0)

#define STORE_VECTOR_DIGESTS(out) do { \
	V r_[4] = { a0, a1, a2, a3 }; \
	transpose4(r_); \
	for (int i_ = 0; i_ < 4; i_++) \
		_mm256_storeu_si256((V *)&(out)[32 * i_], r_[i_]); \
} while (0)

/* Rotate by a constant that may be 0. */
#define V_ROL0(a, n) ((n) == 0 ? (a) : V_ROL(a, n))

/*
 * A round with the state in memory, as XKCP's code keeps it: lane
 * (X, Y) of the next state E is computed one row Y at a time, from the
 * five lanes of the current state A that pi brings to that row, each
 * loaded once (into the XOR with theta's d) and each output lane stored
 * once; the column sums the next round's theta needs (c0 .. c4) are
 * summed as the row's lanes come out.  Sixteen vector registers cannot
 * hold the 25 lanes, so they live in memory anyway; this way each is
 * read and written exactly once a round, where letting the compiler
 * spill them moved about 3 lanes for every 2 it computed.
 *
 * ROW(A, E, Y, x0, r0, ..., x4, r4): row Y of E, whose lane X comes from
 * lane (xX, X) of A rotated by rX (the table is FIPS 202's rho and pi);
 * iota's constant rc goes into lane (0, 0).
 */
#define B_LANE(A, X, x, r) V_ROL0(V_XOR((A)[(x) + 5 * (X)], d##x), r)
#define CHI_LANE(E, X, Y, p, q, r) do { \
	V e_ = V_XOR(p, V_ANDN(q, r)); \
	if ((X) == 0 && (Y) == 0) \
		e_ = V_XOR(e_, rc); \
	(E)[(X) + 5 * (Y)] = e_; \
	c##X = (Y) == 0 ? e_ : V_XOR(c##X, e_); \
} while (0)
#define ROW(A, E, Y, x0, r0, x1, r1, x2, r2, x3, r3, x4, r4) do { \
	const V q0 = B_LANE(A, 0, x0, r0), q1 = B_LANE(A, 1, x1, r1); \
	const V q2 = B_LANE(A, 2, x2, r2), q3 = B_LANE(A, 3, x3, r3); \
	const V q4 = B_LANE(A, 4, x4, r4); \
	CHI_LANE(E, 0, Y, q0, q1, q2); \
	CHI_LANE(E, 1, Y, q1, q2, q3); \
	CHI_LANE(E, 2, Y, q2, q3, q4); \
	CHI_LANE(E, 3, Y, q3, q4, q0); \
	CHI_LANE(E, 4, Y, q4, q0, q1); \
} while (0)
#define THETA_D() do { \
	d0 = V_XOR(c4, V_ROL1(c1)); d1 = V_XOR(c0, V_ROL1(c2)); \
	d2 = V_XOR(c1, V_ROL1(c3)); d3 = V_XOR(c2, V_ROL1(c4)); \
	d4 = V_XOR(c3, V_ROL1(c0)); \
} while (0)
#define ROUND_IN_MEMORY(A, E, round) do { \
	const V rc = _mm256_set1_epi64x((long long)pow_keccak_rc[round]); \
	THETA_D(); \
	ROW(A, E, 0, 0, 0, 1, 44, 2, 43, 3, 21, 4, 14); \
	ROW(A, E, 1, 3, 28, 4, 20, 0, 3, 1, 45, 2, 61); \
	ROW(A, E, 2, 1, 1, 2, 6, 3, 25, 4, 8, 0, 18); \
	ROW(A, E, 3, 4, 27, 0, 36, 1, 10, 2, 15, 3, 56); \
	ROW(A, E, 4, 2, 62, 3, 55, 4, 39, 0, 41, 1, 2); \
} while (0)

#define STORE_LANE(i) st[0][i] = a##i;

/*
 * 4 messages at in to their SHA3-256 at out.  The first round runs on
 * the loaded lanes in registers, where the compiler drops what the 15
 * zero and 2 constant lanes make trivial; the last computes only the 4
 * digest lanes (one row of chi, from 5 of the 25 lanes).
 */
TARGET static void sha3_64_x4(uint8_t *out, const uint8_t *in)
{
	V st[2][25] __attribute__((aligned(32)));
	LANES(DECLARE_V)
	V c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int round;

	LOAD_VECTOR_STATES(in);
	KECCAK_ROUND(V_, a, b, c, d)
	a0 = V_XOR(a0, _mm256_set1_epi64x((long long)pow_keccak_rc[0]));
	LANES(STORE_LANE)
	c0 = V_XOR5(a0, a5, a10, a15, a20);
	c1 = V_XOR5(a1, a6, a11, a16, a21);
	c2 = V_XOR5(a2, a7, a12, a17, a22);
	c3 = V_XOR5(a3, a8, a13, a18, a23);
	c4 = V_XOR5(a4, a9, a14, a19, a24);
	/* Keep st in memory: the point is one load and one store a lane. */
	__asm__ __volatile__("" : : "r"(st) : "memory");

	for (round = 1; round < 23; round += 2) {
		ROUND_IN_MEMORY(st[0], st[1], round);
		ROUND_IN_MEMORY(st[1], st[0], round + 1);
	}

	/* Round 23: row 0, lanes 0 .. 3. */
	THETA_D();
	{
		const V q0 = B_LANE(st[0], 0, 0, 0);
		const V q1 = B_LANE(st[0], 1, 1, 44);
		const V q2 = B_LANE(st[0], 2, 2, 43);
		const V q3 = B_LANE(st[0], 3, 3, 21);
		const V q4 = B_LANE(st[0], 4, 4, 14);

		a0 = V_XOR(V_XOR(q0, V_ANDN(q1, q2)),
		    _mm256_set1_epi64x((long long)pow_keccak_rc[23]));
		a1 = V_XOR(q1, V_ANDN(q2, q3));
		a2 = V_XOR(q2, V_ANDN(q3, q4));
		a3 = V_XOR(q3, V_ANDN(q4, q0));
	}
	STORE_VECTOR_DIGESTS(out);
}

static void sha3_64_avx2(uint8_t *out, const uint8_t *in, size_t n)
{
	pow_sha3_64_groups(out, in, n, 4, sha3_64_x4);
}

const pow_keccak_kernels pow_keccak_kernels_avx2 = {
	"avx2", POW_CPU_AVX2, sha3_64_avx2
};
