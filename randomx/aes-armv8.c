/*
 * aes-armv8.c: RandomX's AES functions with the ARMv8 Crypto Extensions.
 * Compiled with -march=armv8-a+crypto; only ever called through
 * rx_aes_hard(), which checks the CPU's hardware capabilities.  Same
 * results as aes.c's soft ones.
 *
 * ARM splits a round differently from x86: AESE is AddRoundKey, then
 * ShiftRows and SubBytes; AESMC is MixColumns.  With a zero key to AESE
 * and the round key XORed afterwards, AESE + AESMC + EOR is exactly x86's
 * AESENC, and AESD + AESIMC + EOR its AESDEC.  Both act on the 16 bytes
 * in memory order, as x86's do.  The loops are aes-impl.h's, shared with
 * aes-ni.c.
 */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "randomx/aes.h"

typedef uint8x16_t v128;

static inline v128 load(const void *p)
{
	return vld1q_u8((const uint8_t *)p);
}

static inline void store(void *p, v128 x)
{
	vst1q_u8((uint8_t *)p, x);
}

/* x86's AESENC: one encryption round, key added last */
static inline v128 enc(v128 s, v128 k)
{
	return veorq_u8(vaesmcq_u8(vaeseq_u8(s, vdupq_n_u8(0))), k);
}

/* x86's AESDEC: one decryption round, key added last */
static inline v128 dec(v128 s, v128 k)
{
	return veorq_u8(vaesimcq_u8(vaesdq_u8(s, vdupq_n_u8(0))), k);
}

#define RX_AES_FN(name) armv8_##name
#include "randomx/aes-impl.h"

const rx_aes_impl rx_aes_armv8 = {
	"armv8", armv8_fill1r, armv8_fill4r, armv8_hash1r, armv8_hash_fill1r,
	armv8_mix_fe
};
