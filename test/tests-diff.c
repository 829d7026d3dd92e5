/*
 * tests-diff.c: the optimized implementation against the reference on
 * random parameters and inputs.
 *
 * Usage: tests-diff [cases [seed]]  (defaults: 300 cases, a fixed seed).
 * Every input length 0..256 occurs; versions, N, r and personalizations
 * (none, empty, random bytes) are drawn at random, and half the 1.0 cases
 * are power2b (yespower_b2b) instead of yespower.  The optimized side is
 * called through yespower_tls and through one yespower_local_t reused for
 * every case, so growing and shrinking the region is exercised too.
 * Then the batch API against one hash at a time.
 * Exits 1 on the first difference, printing the case.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yespower.h"
#include "yespower-impl.h"		/* widths: yespower_force_batch_width */
#include "tests-util.h"

#define TEST_NAME "tests-diff"
#include "test/report.h"

/* The reference, compiled under other names (see the Makefile). */
int ref_yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);
int ref_yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);

/* xorshift64*: small, fast, reproducible from the seed. */
static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static void print_case(unsigned i, int b2b, const yespower_params_t *p,
    const uint8_t *src, size_t srclen)
{
	size_t k;

	printf("case %u: %sversion %d N %u r %u perslen %zu%s srclen %zu\n"
	    "  src ", i, b2b ? "power2b " : "", (int)p->version, p->N, p->r,
	    p->perslen,
	    p->pers ? "" : " (NULL)", srclen);
	for (k = 0; k < srclen; k++)
		printf("%02x", src[k]);
	printf("\n  pers ");
	for (k = 0; p->pers && k < p->perslen; k++)
		printf("%02x", p->pers[k]);
	putchar('\n');
}

static const yespower_params_t batch_sets[] = {
	{ YESPOWER_0_5, 1024, 8, (const uint8_t *)"Client Key", 10 },
	{ YESPOWER_1_0, 2048, 13, NULL, 0 },
	{ YESPOWER_1_0, 1024, 32, (const uint8_t *)"pers", 4 },
};
#define NSETS (sizeof(batch_sets) / sizeof(batch_sets[0]))

/*
 * One batch of count random inputs (count <= 7) with parameters p, through
 * yespower_batch_tls and yespower_batch (or the b2b forms), against one
 * yespower_tls call per input.  0, or 1 after printing what failed.
 */
static int batch_case(yespower_local_t *local, const yespower_params_t *p,
    unsigned b2b, unsigned count, unsigned *cases)
{
	uint8_t buf[7][200];
	const uint8_t *src[7];
	size_t len[7], i, k;
	yespower_binary_t one, tls[7], loc[7];

	for (i = 0; i < count; i++) {
		len[i] = rnd() % sizeof(buf[i]);
		for (k = 0; k < len[i]; k++)
			buf[i][k] = (uint8_t)rnd();
		src[i] = len[i] ? buf[i] : NULL;
	}
	if (b2b ? yespower_b2b_batch_tls(src, len, count, p, tls) ||
	    yespower_b2b_batch(local, src, len, count, p, loc) :
	    yespower_batch_tls(src, len, count, p, tls) ||
	    yespower_batch(local, src, len, count, p, loc)) {
		printf("batch: a call failed (version %d, r %u, count %u)\n",
		    (int)p->version, p->r, count);
		return 1;
	}
	for (i = 0; i < count; i++, (*cases)++) {
		if ((b2b ? yespower_b2b_tls(src[i], len[i], p, &one) :
		    yespower_tls(src[i], len[i], p, &one)) ||
		    memcmp(&one, &tls[i], sizeof(one)) ||
		    memcmp(&one, &loc[i], sizeof(one))) {
			printf("batch: MISMATCH (version %d, r %u, family %u, "
			    "count %u, input %zu, width %u)\n",
			    (int)p->version, p->r, b2b, count, i,
			    yespower_batch_width(p));
			return 1;
		}
	}
	return 0;
}

/*
 * The core's smix called directly with kmax hashes, its S-boxes laid out
 * three ways: YESPOWER_SSTRIDE apart (the batch's interleaved path), with
 * a further gap after each (smix then runs the hashes one at a time) and
 * one call per hash.  All three must leave the same B.  Returns 0 if they
 * do.
 */
static int check_sbox_layouts(void)
{
	static const yespower_version_t versions[2] = {
		YESPOWER_0_5, YESPOWER_1_0
	};
	const yespower_core_t *core = yespower_select_core();
	const uint32_t N = 1024, r = 8;
	const size_t Vb = (size_t)128 * r * N, XYb = (size_t)256 * r;
	const size_t Bb = (size_t)128 * r, gap = 4096;
	unsigned K = core->kmax, k, v, layout;
	uint8_t *mem, *out[3];
	int bad = 0;

	mem = aligned_alloc(64, K * (Vb + XYb + Bb + YESPOWER_SSTRIDE(1) +
	    gap));
	out[0] = malloc(3 * K * Bb);
	if (!mem || !out[0]) {
		printf("sbox layouts: out of memory: FAILED\n");
		free(mem);
		free(out[0]);
		return 1;
	}
	out[1] = out[0] + K * Bb;
	out[2] = out[1] + K * Bb;
	for (v = 0; v < 2 && !bad; v++) {
		size_t stride = YESPOWER_SSTRIDE(versions[v] == YESPOWER_1_0);
		uint8_t *S_all = mem + K * (Vb + XYb + Bb);

		for (k = 0; k < K * Bb; k++)
			out[0][k] = (uint8_t)rnd();
		memcpy(out[1], out[0], K * Bb);
		memcpy(out[2], out[0], K * Bb);
		for (layout = 0; layout < 3; layout++) {
			uint8_t *B[YESPOWER_KMAX];
			void *V[YESPOWER_KMAX], *XY[YESPOWER_KMAX];
			void *S[YESPOWER_KMAX];

			for (k = 0; k < K; k++) {
				V[k] = mem + k * (Vb + XYb + Bb);
				XY[k] = (uint8_t *)V[k] + Vb;
				B[k] = out[layout] + k * Bb;
				S[k] = S_all + k * (layout == 1 ? stride + gap :
				    stride);
			}
			if (layout < 2) {
				core->smix(K, B, r, N, versions[v], V, XY, S);
				continue;
			}
			for (k = 0; k < K; k++)
				core->smix(1, &B[k], r, N, versions[v], &V[k],
				    &XY[k], &S[k]);
		}
		bad = memcmp(out[0], out[2], K * Bb) ||
		    memcmp(out[1], out[2], K * Bb);
	}
	printf("sbox layouts: smix of %u hashes, boxes a stride apart, "
	    "further apart and one by one: %s\n", K, bad ? "FAILED" : "ok");
	free(mem);
	free(out[0]);
	return bad;
}

/*
 * The batch API against one hash at a time: every batch size from 0 to 7
 * at the width the library chooses (so the interleaved cores run with
 * several hashes and a remainder), both families, inputs of random
 * lengths; then every width the core can interleave, 1 to its kmax,
 * forced, on a batch of one more input than the width; and a batch with
 * one invalid input fails as a whole with every output all 0xff.
 */
static int check_batches(yespower_local_t *local)
{
	unsigned count, b2b, cases = 0, w, widest = 0;
	size_t s;
	yespower_binary_t out[2];
	const uint8_t *src[2];
	size_t len[2];
	static const uint8_t text[10] = "0123456789";

	for (s = 0; s < NSETS; s++)
		for (b2b = 0; b2b < 2; b2b++)
			for (count = 0; count <= 7; count++)
				if ((!b2b || batch_sets[s].version ==
				    YESPOWER_1_0) && batch_case(local,
				    &batch_sets[s], b2b, count, &cases))
					return 1;

	for (w = 1; w <= YESPOWER_KMAX; w++) {
		yespower_force_batch_width(w);
		if (yespower_batch_width(&batch_sets[0]) != w)
			break;		/* beyond this core's kmax */
		widest = w;
		for (s = 0; s < NSETS; s++)
			for (b2b = 0; b2b < 2; b2b++)
				if ((!b2b || batch_sets[s].version ==
				    YESPOWER_1_0) && batch_case(local,
				    &batch_sets[s], b2b, w + 1, &cases)) {
					yespower_force_batch_width(0);
					return 1;
				}
	}
	yespower_force_batch_width(0);
	if (widest < 3) {
		printf("batch: the core interleaves only %u hashes\n", widest);
		return 1;
	}

	/* One invalid input spoils the whole batch, safely. */
	src[0] = text;
	len[0] = sizeof(text);
	src[1] = NULL;
	len[1] = 5;
	memset(out, 0, sizeof(out));
	errno = 0;
	if (yespower_batch_tls(src, len, 2, &batch_sets[0], out) != -1 ||
	    errno != EINVAL || !all_ff(&out[0]) || !all_ff(&out[1])) {
		printf("batch: an invalid input was not refused\n");
		return 1;
	}
	printf("batch: %u hashes in batches of 0 to 7 and at widths 1 to %u "
	    "== one at a time: ok\n", cases, widest);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned cases = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 300;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) :
	    0x79657370ULL;
	static const uint32_t Ns[] = { 1024, 1024, 2048, 2048, 4096, 8192 };
	uint8_t src[256], pers[100];
	yespower_local_t local;
	const char *core;
	char cannot[128] = "";
	unsigned i, ncannot = 0;

	rng_state = seed ? seed : 1;
	yespower_init_local(&local);

	for (i = 0; i < cases; i++) {
		yespower_params_t p;
		yespower_binary_t ref, tls, loc;
		/* Lengths 0..256 in turn first, then random ones. */
		size_t srclen = i <= 256 ? i : rnd() % 257, k;
		uint32_t pick = rnd() % 4;
		int b2b;

		p.version = (rnd() & 1) ? YESPOWER_1_0 : YESPOWER_0_5;
		p.N = Ns[rnd() % (sizeof(Ns) / sizeof(Ns[0]))];
		p.r = 8 + rnd() % 25;
		b2b = p.version == YESPOWER_1_0 && (rnd() & 1);
		p.pers = pick == 0 ? NULL : pers;
		p.perslen = pick < 2 ? 0 : rnd() % sizeof(pers);
		for (k = 0; k < srclen; k++)
			src[k] = (uint8_t)rnd();
		for (k = 0; k < p.perslen; k++)
			pers[k] = (uint8_t)rnd();

		if (b2b ? (ref_yespower_b2b_tls(src, srclen, &p, &ref) ||
		    yespower_b2b_tls(src, srclen, &p, &tls) ||
		    yespower_b2b(&local, src, srclen, &p, &loc)) :
		    (ref_yespower_tls(src, srclen, &p, &ref) ||
		    yespower_tls(src, srclen, &p, &tls) ||
		    yespower(&local, src, srclen, &p, &loc))) {
			printf("differential: a call failed: FAILED\n");
			print_case(i, b2b, &p, src, srclen);
			check("every call succeeds", 0);
			return summary();
		}
		if (memcmp(&ref, &tls, sizeof(ref)) ||
		    memcmp(&ref, &loc, sizeof(ref))) {
			printf("differential: MISMATCH (seed %llu): FAILED\n",
			    (unsigned long long)seed);
			print_case(i, b2b, &p, src, srclen);
			check("optimized == reference", 0);
			return summary();
		}
	}

	printf("differential: %u cases, optimized == reference: ok\n", cases);
	check("optimized == reference", 1);

	/* The batch paths through every core this CPU runs. */
	for (i = 0; (core = yespower_impl_at(i)) && !strchr(core, '='); i++) {
		if (yespower_set_impl(core)) {
			if (errno != ENOTSUP) {
				printf("batch: core %s: %s: FAILED\n", core,
				    strerror(errno));
				check("yespower_set_impl(a listed core)", 0);
			} else {
				ncannot++;
				snprintf(cannot + strlen(cannot),
				    sizeof(cannot) - strlen(cannot), " %s",
				    core);
			}
			continue;
		}
		printf("core %s: ", core);
		check("batches and S-box layouts",
		    !check_batches(&local) && !check_sbox_layouts());
	}
	yespower_set_impl("auto");
	yespower_free_local(&local);
	if (ncannot) {
		char why[160];

		snprintf(why, sizeof(why), "this CPU cannot run%s", cannot);
		for (i = 0; i < ncannot; i++)
			skip(why);
	}
	return summary();
}
