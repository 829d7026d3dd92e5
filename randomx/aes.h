/*
 * aes.h: the AES-based functions of RandomX (specification, chapter 3):
 * AesGenerator1R, AesGenerator4R, AesHash1R, and v2's mixing of the F
 * registers with the E registers (chapter 4.6.2, step 10).  Internal.
 *
 * They are built from single AES rounds as x86's AESENC and AESDEC define
 * them: AESENC is ShiftRows, SubBytes, MixColumns, then XOR with the round
 * key; AESDEC is InvShiftRows, InvSubBytes, InvMixColumns, then XOR.  A
 * 16-byte column is the 16 bytes in memory order (byte 0 first), as the
 * instructions load it.
 *
 * Implementations with identical results: "soft" (aes.c, table-based
 * portable C), "aesni" (aes-ni.c, compiled with -maes, x86 only) and
 * "armv8" (aes-armv8.c, the ARMv8 Crypto Extensions, AArch64 only).
 * rx_aes_hard() returns the hardware one when it is built and the CPU has
 * it.  All functions are reentrant: they touch only their arguments (the
 * soft tables are computed once per process, thread-safely).
 */
#ifndef RX_AES_H
#define RX_AES_H

#include <stddef.h>
#include <stdint.h>

/*
 * The functions of one implementation.  Every length is a multiple of 64.
 *
 * fill1r(state, out, len):  AesGenerator1R: len bytes of output from the
 *	64-byte state; the state advances (its final value is written back).
 * fill4r(state, out, len):  AesGenerator4R: len bytes from state; state is
 *	read only (RandomX never reuses it).
 * hash1r(in, len, hash):  AesHash1R of in[0 .. len - 1] into hash (64 B).
 * hash_fill1r(buf, len, hash, state):  hash1r(buf, len, hash) and then
 *	fill1r(state, buf, len), in one pass over buf.
 * mix_fe(f, e):  RandomX v2's step 10: f0..f3 (16 bytes each, f[2i] the
 *	low half of fi as bits of a double, f[2i+1] the high half) go through
 *	four rounds keyed with e0..e3 in turn: f0 and f2 AESENC, f1 and f3
 *	AESDEC.  The words are the registers' little-endian halves.
 */
typedef struct rx_aes_impl {
	const char *name;
	void (*fill1r)(uint8_t state[64], void *out, size_t len);
	void (*fill4r)(const uint8_t state[64], void *out, size_t len);
	void (*hash1r)(const void *in, size_t len, uint8_t hash[64]);
	void (*hash_fill1r)(void *buf, size_t len, uint8_t hash[64],
	    uint8_t state[64]);
	void (*mix_fe)(uint64_t f[8], const uint64_t e[8]);
} rx_aes_impl;

/* The portable implementation; always available. */
extern const rx_aes_impl rx_aes_soft;

/*
 * rx_aes_hard():
 * The hardware implementation (AES-NI, or ARMv8's AES on AArch64 Linux,
 * where the kernel's HWCAP_AES says the CPU has it) if this build has it
 * and the CPU runs it, else NULL.  Thread-safe.
 */
const rx_aes_impl *rx_aes_hard(void);

/*
 * rx_aes_enc_round_soft(s, key), rx_aes_dec_round_soft(s, key):
 * One AESENC / AESDEC round of the 16-byte column s in place.  For tests
 * and for code that needs a single round; the impl functions above are
 * the fast path.
 */
void rx_aes_enc_round_soft(uint8_t s[16], const uint8_t key[16]);
void rx_aes_dec_round_soft(uint8_t s[16], const uint8_t key[16]);

/*
 * The specification's constants, as bytes in memory order:
 * AesGenerator1R's keys (4 x 16), AesGenerator4R's keys (8 x 16),
 * AesHash1R's initial state (4 x 16) and extra keys (2 x 16).
 */
extern const uint8_t rx_aes_gen1r_keys[64];
extern const uint8_t rx_aes_gen4r_keys[128];
extern const uint8_t rx_aes_hash1r_state[64];
extern const uint8_t rx_aes_hash1r_xkeys[32];

#ifdef RX_X86_ISAS
/* aes-ni.c, in x86 builds; use through rx_aes_hard(), which checks the CPU. */
extern const rx_aes_impl rx_aes_aesni;
#endif
#ifdef RX_A64_ISAS
/* aes-armv8.c, in AArch64 builds; through rx_aes_hard() likewise. */
extern const rx_aes_impl rx_aes_armv8;
#endif

#endif /* !RX_AES_H */
