/*
 * pow-keccak-avx512.c: SHA3-256 of 64-byte messages, 8 at a time, one
 * Keccak-f[1600] state in each 64-bit lane of the AVX-512 registers.
 *
 * Compiled alone with -mavx512f -DPOW_KECCAK_AVX512 (the Makefile),
 * called only where cpuid reports AVX-512F.  The round is
 * pow-keccak-round.h's on vectors, all in registers: 32 of them hold the
 * 25 lanes and the round's temporaries, where AVX2's 16 could not (its
 * kernel keeps the state in memory).  VPROLQ rotates, VPTERNLOGQ does
 * each three-way XOR and chi's a ^ (~b & c) in one instruction.
 *
 * A second build, -DPOW_KECCAK_EMU8, is the same code on 8 lanes in plain
 * C, each operation as its instruction's definition (VPTERNLOGQ from its
 * truth table): the tests run it on CPUs without AVX-512, so the 8-state
 * code and its constants are checked everywhere.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(POW_KECCAK_AVX512)
#include <immintrin.h>
#endif

#include "cpu-features.h"
#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "pow-keccak-round.h"
#include "sysendian.h"

#if defined(POW_KECCAK_AVX512)
#ifdef __AVX512F__
#define TARGET
#else
#define TARGET __attribute__((target("avx512f")))
#endif
#define SUFFIX(name) name##_avx512
typedef __m512i V;
#define V_XOR(a, b) _mm512_xor_si512(a, b)
#define TERNLOG(a, b, c, imm) _mm512_ternarylogic_epi64(a, b, c, imm)
#define V_ROL(a, n) _mm512_rol_epi64(a, n)
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), v)
#elif defined(POW_KECCAK_EMU8)
#define TARGET
#define SUFFIX(name) name##_avx512emu
#define EMU_T uint64_t
#define EMU_N 8
#include "pow-simd-emu.h"
EMU_OP(emu_xor, a.l[i] ^ b.l[i])
/* Rotation: b's lane 0 holds the count. */
EMU_OP(emu_rol, (a.l[i] << b.l[0]) | (a.l[i] >> (64 - b.l[0])))
#define V_XOR(a, b) emu_xor(a, b)
#define TERNLOG(a, b, c, imm) emu_ternlog(a, b, c, imm)
#define V_ROL(a, n) emu_rol(a, emu_set1(n))
#define V_SET1(x) emu_set1((uint64_t)(x))
#define V_LOAD(p) emu_load(p)
#define V_STORE(p, v) memcpy((p), (v).l, sizeof((v).l))
#else
#error "define POW_KECCAK_AVX512 or POW_KECCAK_EMU8"
#endif

/* Truth tables (bit a b c of the constant, a the high bit): a ^ b ^ c,
 * and a ^ (~b & c). */
#define V_XOR3(a, b, c) TERNLOG(a, b, c, 0x96)
#define V_XOR5(a, b, c, d, e) V_XOR3(V_XOR3(a, b, c), d, e)
#define V_ROL1(a) V_ROL(a, 1)
#define V_CHI(a, b, c) TERNLOG(a, b, c, 0xd2)
/* Theta in one VPTERNLOGQ a lane (pow-keccak-round.h): 5 XORs a round
 * fewer than a ^ d with d = c ^ r made once a column. */
#define V_DCOL(c, r) (r)
#define V_THETA(a, c, d) V_XOR3(a, c, d)

#define LANES(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(10) op(11) op(12) op(13) op(14) op(15) op(16) op(17) op(18) \
	op(19) op(20) op(21) op(22) op(23) op(24)
#define DECLARE_V(i) V a##i, b##i;
#define ZERO_LANE(i) a##i = V_SET1(0);

#if defined(POW_KECCAK_AVX512)
/*
 * Word j of the 8 messages at in into w[j]: the 8x8 matrix of 64-bit
 * words (message i its row i) transposed in three steps of shuffles,
 * pairs of words, pairs of 128-bit blocks, then halves.  In registers:
 * through a buffer, as the emulated build does, the 64 word stores read
 * back as 8 wide loads cannot be forwarded, and cost more than these 24
 * shuffles (doc/hashes.md, Intel Xeon).
 */
TARGET static void words_in(V w[8], const uint8_t *in)
{
	V x[8], y[8], z[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = _mm512_loadu_si512((const void *)(in + 64 * i));
	for (i = 0; i < 8; i += 2) {
		y[i] = _mm512_unpacklo_epi64(x[i], x[i + 1]);
		y[i + 1] = _mm512_unpackhi_epi64(x[i], x[i + 1]);
	}
	/* Blocks 0 and 2, 1 and 3 of each (0x88, 0xdd). */
	for (i = 0; i < 8; i += 4) {
		z[i] = _mm512_shuffle_i64x2(y[i], y[i + 2], 0x88);
		z[i + 1] = _mm512_shuffle_i64x2(y[i], y[i + 2], 0xdd);
		z[i + 2] = _mm512_shuffle_i64x2(y[i + 1], y[i + 3], 0x88);
		z[i + 3] = _mm512_shuffle_i64x2(y[i + 1], y[i + 3], 0xdd);
	}
	w[0] = _mm512_shuffle_i64x2(z[0], z[4], 0x88);
	w[4] = _mm512_shuffle_i64x2(z[0], z[4], 0xdd);
	w[2] = _mm512_shuffle_i64x2(z[1], z[5], 0x88);
	w[6] = _mm512_shuffle_i64x2(z[1], z[5], 0xdd);
	w[1] = _mm512_shuffle_i64x2(z[2], z[6], 0x88);
	w[5] = _mm512_shuffle_i64x2(z[2], z[6], 0xdd);
	w[3] = _mm512_shuffle_i64x2(z[3], z[7], 0x88);
	w[7] = _mm512_shuffle_i64x2(z[3], z[7], 0xdd);
}

/* The inverse for the digests, words 0 .. 3 of each state: message i's
 * 32 bytes to out + 32 i, two messages a 64-byte store. */
TARGET static void digests_out(uint8_t *out, V d0, V d1, V d2, V d3)
{
	V u0 = _mm512_unpacklo_epi64(d0, d1), u1 = _mm512_unpackhi_epi64(d0, d1);
	V u2 = _mm512_unpacklo_epi64(d2, d3), u3 = _mm512_unpackhi_epi64(d2, d3);
	V s0 = _mm512_shuffle_i64x2(u0, u2, 0x88);
	V s1 = _mm512_shuffle_i64x2(u1, u3, 0x88);
	V t0 = _mm512_shuffle_i64x2(u0, u2, 0xdd);
	V t1 = _mm512_shuffle_i64x2(u1, u3, 0xdd);

	_mm512_storeu_si512((void *)out, _mm512_shuffle_i64x2(s0, s1, 0x88));
	_mm512_storeu_si512((void *)(out + 64),
	    _mm512_shuffle_i64x2(t0, t1, 0x88));
	_mm512_storeu_si512((void *)(out + 128),
	    _mm512_shuffle_i64x2(s0, s1, 0xdd));
	_mm512_storeu_si512((void *)(out + 192),
	    _mm512_shuffle_i64x2(t0, t1, 0xdd));
}
#else
/* The same through a buffer, word by word (the emulated build). */
static void words_in(V w[8], const uint8_t *in)
{
	uint64_t t[8][8];
	int i, j;

	for (j = 0; j < 8; j++)
		for (i = 0; i < 8; i++)
			t[j][i] = le64dec(&in[64 * i + 8 * j]);
	for (j = 0; j < 8; j++)
		w[j] = V_LOAD(t[j]);
	insecure_memzero(t, sizeof(t));
}

static void digests_out(uint8_t *out, V d0, V d1, V d2, V d3)
{
	uint64_t t[4][8];
	int i, j;

	V_STORE(t[0], d0); V_STORE(t[1], d1);
	V_STORE(t[2], d2); V_STORE(t[3], d3);
	for (j = 0; j < 4; j++)
		for (i = 0; i < 8; i++)
			le64enc(&out[32 * i + 8 * j], t[j][i]);
	insecure_memzero(t, sizeof(t));
}
#endif

/*
 * 8 messages at in to their SHA3-256 at out (which may be in: every
 * message is read before a digest is written).  The states, one per
 * lane: the message in lanes 0 .. 7 (little-endian words), SHA3's padding
 * in 8 and 16 (see pow-keccak.c), zeros elsewhere; 24 rounds; the digests
 * from lanes 0 .. 3.
 */
TARGET static void sha3_64_x8(uint8_t *out, const uint8_t *in)
{
	LANES(DECLARE_V)
	V c0, c1, c2, c3, c4, d0, d1, d2, d3, d4, w[8];
	int round;

	words_in(w, in);
	LANES(ZERO_LANE)
	a0 = w[0]; a1 = w[1]; a2 = w[2]; a3 = w[3];
	a4 = w[4]; a5 = w[5]; a6 = w[6]; a7 = w[7];
	a8 = V_SET1(0x06);
	a16 = V_SET1(0x8000000000000000ULL);
	/*
	 * All 24 rounds unrolled: rolled, the 25 lanes must end each round
	 * in the registers they began it in, and gcc 12 spent about 26 moves
	 * and 26 stack references a round on that; unrolled, about 2 stack
	 * references a round were left, and about 1 since theta takes one
	 * three-input XOR a lane (pow-keccak-round.h).  1.18 and then 1.05
	 * times as fast on an Intel Xeon (Sapphire Rapids class;
	 * doc/hashes.md, Intel Xeon).
	 */
#if defined(POW_KECCAK_AVX512) && defined(__GNUC__)
#pragma GCC unroll 24
#endif
	for (round = 0; round < 24; round++) {
		KECCAK_ROUND(V_, a, b, c, d)
		a0 = V_XOR(a0, V_SET1(pow_keccak_rc[round]));
	}

	digests_out(out, a0, a1, a2, a3);
}

static void SUFFIX(sha3_64)(uint8_t *out, const uint8_t *in, size_t n)
{
	pow_sha3_64_groups(out, in, n, 8, sha3_64_x8);
}

#if defined(POW_KECCAK_AVX512)
const pow_keccak_kernels pow_keccak_kernels_avx512 = {
	"avx512", POW_CPU_AVX512F, sha3_64_avx512
};
#else
/* Not in the dispatcher: the tests' stand-in for the AVX-512 set. */
const pow_keccak_kernels pow_keccak_kernels_avx512emu = {
	"avx512-emulated", 0, sha3_64_avx512emu
};
#endif
