/*
 * pow-keccak-round.h: one round of Keccak-f[1600] without its round
 * constant (theta, rho, pi, chi), written once for every Keccak kernel.
 *
 * KECCAK_ROUND(X, a, b, c, d) runs the round on the state a0 .. a24
 * (lane x + 5 y in a<x + 5 y>; the names are a's prefix and the lane
 * number pasted together) with scratch b0 .. b24, c0 .. c4 and d0 .. d4,
 * using the operations X##XOR5(p, q, r, s, t), X##ROL(p, n) (rotate each
 * 64-bit lane left by the constant n, 1 <= n <= 63), X##ROL1(p) (the
 * same by 1), X##CHI(p, q, r) (p ^ (~q & r), chi's step: one instruction
 * where there is a ternary logic one) and theta's pair X##DCOL(c, r),
 * X##THETA(a, c, d).  Theta XORs into each lane a of column x the value
 * c[x - 1] ^ r[x], r[x] = ROL1(c[x + 1]): with two-input XORs that is
 * d[x] = DCOL(c, r) = c ^ r once a column, then THETA(a, c, d) = a ^ d;
 * with a three-input XOR, DCOL(c, r) = r and THETA(a, c, d) = a ^ c ^ d,
 * one instruction a lane and none a column.  So one
 * translation unit can run rounds of several lane types side by side,
 * each with its own prefix.  Iota (a0 ^= RC) is the caller's.
 *
 * pi moves lane (x, y) to (y, 2x + 3y mod 5); the b assignments below list
 * each source lane once with its rho rotation (FIPS 202, 3.2.2 and
 * 3.2.3), column by column: each d is made just before its column's five
 * lanes, so fewer values are live at once (with 32 vector registers the
 * round then needs almost no stack).
 */
#ifndef POW_KECCAK_ROUND_H
#define POW_KECCAK_ROUND_H

#define KECCAK_ROUND(X, a, b, c, d) \
	c##0 = X##XOR5(a##0, a##5, a##10, a##15, a##20); \
	c##1 = X##XOR5(a##1, a##6, a##11, a##16, a##21); \
	c##2 = X##XOR5(a##2, a##7, a##12, a##17, a##22); \
	c##3 = X##XOR5(a##3, a##8, a##13, a##18, a##23); \
	c##4 = X##XOR5(a##4, a##9, a##14, a##19, a##24); \
	d##0 = X##DCOL(c##4, X##ROL1(c##1)); \
	b##0 = X##THETA(a##0, c##4, d##0); \
	b##16 = X##ROL(X##THETA(a##5, c##4, d##0), 36); \
	b##7 = X##ROL(X##THETA(a##10, c##4, d##0), 3); \
	b##23 = X##ROL(X##THETA(a##15, c##4, d##0), 41); \
	b##14 = X##ROL(X##THETA(a##20, c##4, d##0), 18); \
	d##1 = X##DCOL(c##0, X##ROL1(c##2)); \
	b##10 = X##ROL(X##THETA(a##1, c##0, d##1), 1); \
	b##1 = X##ROL(X##THETA(a##6, c##0, d##1), 44); \
	b##17 = X##ROL(X##THETA(a##11, c##0, d##1), 10); \
	b##8 = X##ROL(X##THETA(a##16, c##0, d##1), 45); \
	b##24 = X##ROL(X##THETA(a##21, c##0, d##1), 2); \
	d##2 = X##DCOL(c##1, X##ROL1(c##3)); \
	b##20 = X##ROL(X##THETA(a##2, c##1, d##2), 62); \
	b##11 = X##ROL(X##THETA(a##7, c##1, d##2), 6); \
	b##2 = X##ROL(X##THETA(a##12, c##1, d##2), 43); \
	b##18 = X##ROL(X##THETA(a##17, c##1, d##2), 15); \
	b##9 = X##ROL(X##THETA(a##22, c##1, d##2), 61); \
	d##3 = X##DCOL(c##2, X##ROL1(c##4)); \
	b##5 = X##ROL(X##THETA(a##3, c##2, d##3), 28); \
	b##21 = X##ROL(X##THETA(a##8, c##2, d##3), 55); \
	b##12 = X##ROL(X##THETA(a##13, c##2, d##3), 25); \
	b##3 = X##ROL(X##THETA(a##18, c##2, d##3), 21); \
	b##19 = X##ROL(X##THETA(a##23, c##2, d##3), 56); \
	d##4 = X##DCOL(c##3, X##ROL1(c##0)); \
	b##15 = X##ROL(X##THETA(a##4, c##3, d##4), 27); \
	b##6 = X##ROL(X##THETA(a##9, c##3, d##4), 20); \
	b##22 = X##ROL(X##THETA(a##14, c##3, d##4), 39); \
	b##13 = X##ROL(X##THETA(a##19, c##3, d##4), 8); \
	b##4 = X##ROL(X##THETA(a##24, c##3, d##4), 14); \
	a##0 = X##CHI(b##0, b##1, b##2); \
	a##1 = X##CHI(b##1, b##2, b##3); \
	a##2 = X##CHI(b##2, b##3, b##4); \
	a##3 = X##CHI(b##3, b##4, b##0); \
	a##4 = X##CHI(b##4, b##0, b##1); \
	a##5 = X##CHI(b##5, b##6, b##7); \
	a##6 = X##CHI(b##6, b##7, b##8); \
	a##7 = X##CHI(b##7, b##8, b##9); \
	a##8 = X##CHI(b##8, b##9, b##5); \
	a##9 = X##CHI(b##9, b##5, b##6); \
	a##10 = X##CHI(b##10, b##11, b##12); \
	a##11 = X##CHI(b##11, b##12, b##13); \
	a##12 = X##CHI(b##12, b##13, b##14); \
	a##13 = X##CHI(b##13, b##14, b##10); \
	a##14 = X##CHI(b##14, b##10, b##11); \
	a##15 = X##CHI(b##15, b##16, b##17); \
	a##16 = X##CHI(b##16, b##17, b##18); \
	a##17 = X##CHI(b##17, b##18, b##19); \
	a##18 = X##CHI(b##18, b##19, b##15); \
	a##19 = X##CHI(b##19, b##15, b##16); \
	a##20 = X##CHI(b##20, b##21, b##22); \
	a##21 = X##CHI(b##21, b##22, b##23); \
	a##22 = X##CHI(b##22, b##23, b##24); \
	a##23 = X##CHI(b##23, b##24, b##20); \
	a##24 = X##CHI(b##24, b##20, b##21);

/* The operations on one 64-bit lane, for KECCAK_ROUND(KU64_, ...). */
#define KU64_DCOL(c, r) ((c) ^ (r))
#define KU64_THETA(a, c, d) ((a) ^ (d))
#define KU64_XOR5(p, q, r, s, t) ((p) ^ (q) ^ (r) ^ (s) ^ (t))
#define KU64_ROL(p, n) (((p) << (n)) | ((p) >> (64 - (n))))
#define KU64_ROL1(p) KU64_ROL(p, 1)
#define KU64_CHI(p, q, r) ((p) ^ (~(q) & (r)))

#endif /* !POW_KECCAK_ROUND_H */
