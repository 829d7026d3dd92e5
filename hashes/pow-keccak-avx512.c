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

#define LANES(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(10) op(11) op(12) op(13) op(14) op(15) op(16) op(17) op(18) \
	op(19) op(20) op(21) op(22) op(23) op(24)
#define DECLARE_V(i) V a##i, b##i;
#define ZERO_LANE(i) a##i = V_SET1(0);

/*
 * 8 messages at in to their SHA3-256 at out.  The states, one per lane:
 * the message in lanes 0 .. 7 (little-endian words, moved into lanes
 * through a buffer), SHA3's padding in 8 and 16 (see pow-keccak.c),
 * zeros elsewhere; 24 rounds; the digests from lanes 0 .. 3.
 */
TARGET static void sha3_64_x8(uint8_t *out, const uint8_t *in)
{
	uint64_t t[8][8] __attribute__((aligned(64)));
	LANES(DECLARE_V)
	V c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int i, j, round;

	for (j = 0; j < 8; j++)
		for (i = 0; i < 8; i++)
			t[j][i] = le64dec(&in[64 * i + 8 * j]);
	LANES(ZERO_LANE)
	a0 = V_LOAD(t[0]); a1 = V_LOAD(t[1]); a2 = V_LOAD(t[2]);
	a3 = V_LOAD(t[3]); a4 = V_LOAD(t[4]); a5 = V_LOAD(t[5]);
	a6 = V_LOAD(t[6]); a7 = V_LOAD(t[7]);
	a8 = V_SET1(0x06);
	a16 = V_SET1(0x8000000000000000ULL);

	/*
	 * All 24 rounds unrolled: rolled, the 25 lanes must end each round
	 * in the registers they began it in, and gcc 12 spent about 26 moves
	 * and 26 stack references a round on that; unrolled, about 2 stack
	 * references a round are left.  1.18 times as fast on an Intel Xeon
	 * (Sapphire Rapids class; PERFORMANCE section 8).
	 */
#if defined(POW_KECCAK_AVX512) && defined(__GNUC__)
#pragma GCC unroll 24
#endif
	for (round = 0; round < 24; round++) {
		KECCAK_ROUND(V_, a, b, c, d)
		a0 = V_XOR(a0, V_SET1(pow_keccak_rc[round]));
	}

	V_STORE(t[0], a0); V_STORE(t[1], a1);
	V_STORE(t[2], a2); V_STORE(t[3], a3);
	for (j = 0; j < 4; j++)
		for (i = 0; i < 8; i++)
			le64enc(&out[32 * i + 8 * j], t[j][i]);
	insecure_memzero(t, sizeof(t));
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
