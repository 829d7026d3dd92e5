/*
 * pow-keccak-round.h: one round of Keccak-f[1600] without its round
 * constant (theta, rho, pi, chi), written once for every Keccak kernel.
 *
 * The includer defines the lane type's operations: XOR(a, b), XOR5(a, b,
 * c, d, e), ROL(a, n) (rotate each 64-bit lane left by the constant n,
 * 1 <= n <= 63) and ANDN(a, b) (~a & b), and declares the variables: the
 * state a0 .. a24 (lane x + 5 y at a<x + 5 y>), and scratch b0 .. b24,
 * c0 .. c4, d0 .. d4.  Iota (a0 ^= RC) is the includer's, so that a
 * caller may fold it into something else.
 *
 * pi moves lane (x, y) to (y, 2x + 3y mod 5); the b assignments below list
 * each source lane once, in order, with its rho rotation (FIPS 202,
 * 3.2.2 and 3.2.3).
 */
#ifndef POW_KECCAK_ROUND_H
#define POW_KECCAK_ROUND_H

#define KECCAK_THETA_RHO_PI_CHI \
	c0 = XOR5(a0, a5, a10, a15, a20); c1 = XOR5(a1, a6, a11, a16, a21); \
	c2 = XOR5(a2, a7, a12, a17, a22); c3 = XOR5(a3, a8, a13, a18, a23); \
	c4 = XOR5(a4, a9, a14, a19, a24); \
	d0 = XOR(c4, ROL(c1, 1)); d1 = XOR(c0, ROL(c2, 1)); d2 = XOR(c1, ROL(c3, 1)); \
	d3 = XOR(c2, ROL(c4, 1)); d4 = XOR(c3, ROL(c0, 1)); \
	b0 = XOR(a0, d0); b10 = ROL(XOR(a1, d1), 1); b20 = ROL(XOR(a2, d2), 62); \
	b5 = ROL(XOR(a3, d3), 28); b15 = ROL(XOR(a4, d4), 27); b16 = ROL(XOR(a5, d0), 36); \
	b1 = ROL(XOR(a6, d1), 44); b11 = ROL(XOR(a7, d2), 6); b21 = ROL(XOR(a8, d3), 55); \
	b6 = ROL(XOR(a9, d4), 20); b7 = ROL(XOR(a10, d0), 3); b17 = ROL(XOR(a11, d1), 10); \
	b2 = ROL(XOR(a12, d2), 43); b12 = ROL(XOR(a13, d3), 25); b22 = ROL(XOR(a14, d4), 39); \
	b23 = ROL(XOR(a15, d0), 41); b8 = ROL(XOR(a16, d1), 45); b18 = ROL(XOR(a17, d2), 15); \
	b3 = ROL(XOR(a18, d3), 21); b13 = ROL(XOR(a19, d4), 8); b14 = ROL(XOR(a20, d0), 18); \
	b24 = ROL(XOR(a21, d1), 2); b9 = ROL(XOR(a22, d2), 61); b19 = ROL(XOR(a23, d3), 56); \
	b4 = ROL(XOR(a24, d4), 14); \
	a0 = XOR(b0, ANDN(b1, b2)); a1 = XOR(b1, ANDN(b2, b3)); \
	a2 = XOR(b2, ANDN(b3, b4)); a3 = XOR(b3, ANDN(b4, b0)); \
	a4 = XOR(b4, ANDN(b0, b1)); a5 = XOR(b5, ANDN(b6, b7)); \
	a6 = XOR(b6, ANDN(b7, b8)); a7 = XOR(b7, ANDN(b8, b9)); \
	a8 = XOR(b8, ANDN(b9, b5)); a9 = XOR(b9, ANDN(b5, b6)); \
	a10 = XOR(b10, ANDN(b11, b12)); a11 = XOR(b11, ANDN(b12, b13)); \
	a12 = XOR(b12, ANDN(b13, b14)); a13 = XOR(b13, ANDN(b14, b10)); \
	a14 = XOR(b14, ANDN(b10, b11)); a15 = XOR(b15, ANDN(b16, b17)); \
	a16 = XOR(b16, ANDN(b17, b18)); a17 = XOR(b17, ANDN(b18, b19)); \
	a18 = XOR(b18, ANDN(b19, b15)); a19 = XOR(b19, ANDN(b15, b16)); \
	a20 = XOR(b20, ANDN(b21, b22)); a21 = XOR(b21, ANDN(b22, b23)); \
	a22 = XOR(b22, ANDN(b23, b24)); a23 = XOR(b23, ANDN(b24, b20)); \
	a24 = XOR(b24, ANDN(b20, b21));

#endif /* !POW_KECCAK_ROUND_H */
