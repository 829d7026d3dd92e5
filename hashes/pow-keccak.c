/*
 * pow-keccak.c: Keccak-f[1600] on one state in portable C, and the
 * portable SHA3-256-of-64-bytes kernel (see pow-hash-impl.h).  Compiled
 * with no instruction-set flags.
 */
#include <string.h>

#include "insecure_memzero.h"
#include "pow-hash-impl.h"
#include "pow-keccak-round.h"
#include "sysendian.h"

/* The round constants of iota (FIPS 202, 3.2.5), from the LFSR rc(t);
 * tests-hashes recomputes them. */
const uint64_t pow_keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL,
	0x800000000000808aULL, 0x8000000080008000ULL,
	0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL,
	0x000000000000008aULL, 0x0000000000000088ULL,
	0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL,
	0x8000000000008089ULL, 0x8000000000008003ULL,
	0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL,
	0x8000000080008081ULL, 0x8000000000008080ULL,
	0x0000000080000001ULL, 0x8000000080008008ULL
};

#define LANES(op) \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(10) op(11) op(12) op(13) op(14) op(15) op(16) op(17) op(18) \
	op(19) op(20) op(21) op(22) op(23) op(24)
#define LOAD_LANE(i) a##i = state[i];
#define STORE_LANE(i) state[i] = a##i;

/*
 * The 25 lanes are local variables for the whole permutation, so that the
 * compiler can keep as many as it has registers for: a 64-bit x86 CPU
 * has 16, and the rest live in the stack frame either way.
 */
void pow_keccakf1600_portable(uint64_t state[25])
{
	uint64_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12;
	uint64_t a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
	uint64_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	uint64_t b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int round;

	LANES(LOAD_LANE)
	for (round = 0; round < 24; round++) {
		KECCAK_ROUND(KU64_, a, b, c, d)
		a0 ^= pow_keccak_rc[round];
	}
	LANES(STORE_LANE)
}

/*
 * SHA3-256 of a 64-byte message is one permutation: the message fills
 * lanes 0 .. 7, the padding is 0x06 in byte 64 (lane 8) and 0x80 in the
 * last byte of the 136-byte rate (the top of lane 16), the other lanes
 * are zero, and the digest is lanes 0 .. 3.
 */
static void sha3_64_portable(uint8_t *out, const uint8_t *in, size_t n)
{
	uint64_t st[25];
	size_t i, j;

	for (i = 0; i < n; i++) {
		memset(st, 0, sizeof(st));
		for (j = 0; j < 8; j++)
			st[j] = le64dec(&in[64 * i + 8 * j]);
		st[8] = 0x06;
		st[16] = 0x8000000000000000ULL;
		pow_keccakf1600_portable(st);
		for (j = 0; j < 4; j++)
			le64enc(&out[32 * i + 8 * j], st[j]);
	}
	insecure_memzero(st, sizeof(st));
}

/*
 * The vector kernels' driver: whole groups of width (at most 8) through
 * group, then the rest: one alone in portable C, more in a group through
 * a buffer.  Each group reads all its inputs before it writes, and output
 * i never lies after input i, so out == in works.
 */
void pow_sha3_64_groups(uint8_t *out, const uint8_t *in, size_t n,
    size_t width, void (*group)(uint8_t *out, const uint8_t *in))
{
	uint8_t buf[8 * 64];

	for (; n >= width; n -= width, in += width * 64, out += width * 32)
		group(out, in);
	if (n == 1) {
		sha3_64_portable(out, in, 1);
	} else if (n) {
		memset(buf, 0, width * 64);
		memcpy(buf, in, 64 * n);
		group(buf, buf);
		memcpy(out, buf, 32 * n);
		insecure_memzero(buf, sizeof(buf));
	}
}

const pow_keccak_kernels pow_keccak_kernels_portable = {
	"portable", 0, sha3_64_portable
};
