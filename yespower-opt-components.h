/*
 * yespower-opt-components.h: the component micro-benchmarks of a mixing
 * core (`benchmark --components`, yespower-impl.h's yespower_component_t).
 * Included by yespower-opt.c alone, at its end: they time the core's own
 * inline pwxform, BlockMix and Salsa20, compiled with its flags.
 */
#ifndef YESPOWER_OPT_COMPONENTS_H
#define YESPOWER_OPT_COMPONENTS_H

/* Fill S as a real hash would, from a fixed block, and set up pwxform. */
static void component_setup(pwx_state *ctx, block64 *S, block64 *XY, int v10)
{
	uint8_t B[128];
	size_t i;

	for (i = 0; i < sizeof(B); i++)
		B[i] = (uint8_t)i;
	block_from_bytes(S, B, 2);
	smix1_sbox(S, YESPOWER_SBYTES(v10) / 128, XY, v10);
	ctx->S0 = (uint8_t *)S;
	ctx->S1 = ctx->S0 + YESPOWER_SBOX1(v10);
	ctx->S2 = ctx->S1 + YESPOWER_SBOX1(v10);
	ctx->w = 0;
}

NOINLINE uint32_t component_salsa20(uint64_t count, block64 *XY, int v10)
{
	xblk x = xblk_load(XY);

	while (count--)
		x = v10 ? salsa20(x, 1) : salsa20(x, 4);
	return xblk_integerify(x, 1);
}

/* BlockMix_pwxform over a block xored with another, as in SMix. */
NOINLINE uint32_t component_blockmix(uint64_t count, size_t n, block64 *V,
    block64 *XY, block64 *S, int v10)
{
	block64 *in1[1] = { XY }, *in2[1] = { &V[n] };
	pwx_state ctx[1];
	uint32_t x[1], sum = 0;

	component_setup(&ctx[0], S, XY, v10);
	while (count--) {
		if (v10)
			blockmix_pwxform(1, in1, in2, in1, n, ctx, 1, 1, 0, x);
		else
			blockmix_pwxform(1, in1, in2, in1, n, ctx, 0, 1, 0, x);
		sum += x[0];
	}
	return sum;
}

NOINLINE uint32_t component_smix(uint64_t count, size_t n, uint32_t N,
    block64 *V, block64 *XY, block64 *S, int v10, int loop2)
{
	uint32_t Nloop = ((N + 2) / 3 + 1) & ~(uint32_t)1;
	block64 *Vs[1] = { V }, *X[1] = { XY }, *Y[1] = { XY + n };
	pwx_state ctx[1];
	uint32_t sum = 0;

	component_setup(&ctx[0], S, XY, v10);
	while (count--) {
		if (loop2 && v10)
			smix2(1, X, Y, n, N, Nloop, Vs, ctx, 1);
		else if (loop2)
			smix2(1, X, Y, n, N, Nloop, Vs, ctx, 0);
		else if (v10)
			smix1(1, Vs, n, N, X, ctx, 1);
		else
			smix1(1, Vs, n, N, X, ctx, 0);
		sum += (uint32_t)X[0]->d[0];
	}
	return sum;
}

/*
 * pwxform's rounds alone, without the rest of BlockMix: count calls of
 * pwxform (6 rounds in 0.5, 3 in 1.0) on one sub-block of each of K
 * hashes, whose S-boxes are filled as a hash fills them, the first in S,
 * the others in V.  K = 1 is a single hash's four chains; more show what
 * interleaving gains; both versions instantiated, so v10 is a constant.
 */
ALWAYS_INLINE uint32_t pwxform_k(const int K, uint64_t count, block64 *X,
    pwx_state *ctx, const int v10)
{
	xblk x[KMAX];
	uint32_t sum = 0;
	int k;

	FOR_K(k) x[k] = xblk_load(&X[k]);
	while (count--)
		pwxform(K, x, ctx, v10);
	FOR_K(k) {
		xblk_store(&X[k], x[k]);	/* all four groups live */
		sum += (uint32_t)X[k].d[0];
	}
	return sum;
}

#define PWXFORM_K_INSTANCE(K) \
NOINLINE uint32_t component_pwxform_##K(uint64_t count, block64 *X, \
    pwx_state *ctx, int v10) \
{ \
	return v10 ? pwxform_k(K, count, X, ctx, 1) : \
	    pwxform_k(K, count, X, ctx, 0); \
}

PWXFORM_K_INSTANCE(1)
PWXFORM_K_INSTANCE(2)
PWXFORM_K_INSTANCE(3)
#if KMAX >= 4
PWXFORM_K_INSTANCE(4)
#endif

/*
 * One group's chain alone, without writes: count times the rounds of a
 * pwxform call; its time per round is the latency of one lookup step.
 */
NOINLINE uint32_t component_pwx_chain(uint64_t count, block64 *X,
    const pwx_state *ctx, int v10)
{
	uint64_t m = v10 ? SMASK2(SMASK_1_0) : SMASK2(SMASK_0_5);
	grp g = grp_load(X, 0);
	int i, rounds = v10 ? 3 : 6;

	while (count--)
		for (i = 0; i < rounds; i++)
			g = pwx_grp(g, ctx->S0, ctx->S1, m, SH(1));
	return grp_low32(g, SH(1));
}

static uint32_t component_rounds(yespower_component_t which, uint64_t count,
    size_t n, block64 *V, block64 *XY, block64 *S, int v10)
{
	pwx_state ctx;
	int k;

	(void)n;
	(void)S;
	/* Each hash's boxes where smix expects them: hash k's SOFF(k) bytes
	 * after hash 0's, all in V (1 MiB or more for valid parameters). */
	for (k = KMAX - 1; k >= 0; k--)
		component_setup(&ctx, (block64 *)((uint8_t *)V + SOFF(k, v10)),
		    XY, v10);
	switch (which) {
	case YESPOWER_COMPONENT_PWX_CHAIN:
		return component_pwx_chain(count, XY, &ctx, v10);
	case YESPOWER_COMPONENT_PWXFORM_2:
		return component_pwxform_2(count, XY, &ctx, v10);
	case YESPOWER_COMPONENT_PWXFORM_3:
		return component_pwxform_3(count, XY, &ctx, v10);
#if KMAX >= 4
	case YESPOWER_COMPONENT_PWXFORM_4:
		return component_pwxform_4(count, XY, &ctx, v10);
#endif
	default:
		return component_pwxform_1(count, XY, &ctx, v10);
	}
}

static uint32_t component_entry(yespower_component_t which,
    yespower_version_t version, uint32_t r, uint32_t N, uint64_t count,
    void *V, void *XY, void *S)
{
	int v10 = (version == YESPOWER_1_0);
	size_t n = 2 * (size_t)r;

	switch (which) {
	case YESPOWER_COMPONENT_SALSA20:
		return component_salsa20(count, XY, v10);
	case YESPOWER_COMPONENT_BLOCKMIX:
		return component_blockmix(count, n, V, XY, S, v10);
	case YESPOWER_COMPONENT_SMIX1:
		return component_smix(count, n, N, V, XY, S, v10, 0);
	case YESPOWER_COMPONENT_SMIX2:
		return component_smix(count, n, N, V, XY, S, v10, 1);
	case YESPOWER_COMPONENT_PWX_CHAIN:
	case YESPOWER_COMPONENT_PWXFORM_1:
	case YESPOWER_COMPONENT_PWXFORM_2:
	case YESPOWER_COMPONENT_PWXFORM_3:
	case YESPOWER_COMPONENT_PWXFORM_4:
		return component_rounds(which, count, n, V, XY, S, v10);
	}
	return 0;
}

#endif /* !YESPOWER_OPT_COMPONENTS_H */
