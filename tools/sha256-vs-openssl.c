/*
 * sha256-vs-openssl.c: our SHA-256 against OpenSSL's low-level SHA-256, side by
 * side (a development tool: `make bench-sha256`, not part of make check).
 *
 * Usage: sha256-vs-openssl [ROUNDS]   (make bench-sha256)
 *
 * For 64-byte and 16 KiB messages, each round times OpenSSL's
 * SHA256_Init/Update/Final and then each of our implementations this CPU
 * runs (sha256_init/update/final, as HMAC and PBKDF2 call them), about
 * 2 ms each, so that the contenders alternate (A B C A B C ...) and share
 * whatever the machine is doing; the best of many short runs is the one
 * least disturbed by other processes.  Two ways: "chained", each message
 * starting with a byte of the previous digest, so that the hashes run one
 * after the other and the time is the latency (as HMAC's outer hash waits
 * for the inner); and "independent", the same message again and again, so
 * that the processor may overlap consecutive hashes (as PBKDF2's output
 * blocks could be).  Prints the median and the best time per message, and
 * our time relative to OpenSSL's: the median of the rounds' ratios, and
 * the ratio of the best times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "sha256.h"
#include "tools/timing.h"
#include "yespower.h"

#define MAX_IMPLS 4
#define MAX_ROUNDS 1001

typedef struct {
	const char *name;
	const char *spec;	/* for yespower_set_impl(); NULL: OpenSSL */
	double ns[MAX_ROUNDS];
} contender;

static volatile uint8_t sink;

static void hash_openssl(uint8_t *msg, size_t len, uint8_t md[32])
{
	SHA256_CTX ctx;

	SHA256_Init(&ctx);
	SHA256_Update(&ctx, msg, len);
	SHA256_Final(md, &ctx);
}

static void hash_ours(uint8_t *msg, size_t len, uint8_t md[32])
{
	sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, msg, len);
	sha256_final(&ctx, md);
}

/* Nanoseconds per message over n messages. */
static double run(const contender *c, uint8_t *msg, size_t len,
    unsigned long n, int chained)
{
	void (*hash)(uint8_t *, size_t, uint8_t *) =
	    c->spec ? hash_ours : hash_openssl;
	uint8_t md[32] = { 0 };
	unsigned long i;
	double t;

	if (c->spec && yespower_set_impl(c->spec))
		abort();
	t = util_now();
	if (chained) {
		for (i = 0; i < n; i++) {
			msg[0] = md[0];
			hash(msg, len, md);
		}
	} else {
		for (i = 0; i < n; i++) {
			hash(msg, len, md);
			sink += md[0];
		}
	}
	return (util_now() - t) * 1e9 / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 64, 16384 };
	contender cs[MAX_IMPLS] = {
		{ "OpenSSL SHA256_Init/Update/Final", NULL, { 0 } },
	};
	int ncs = 1, rounds = argc > 1 ? atoi(argv[1]) : 201, r, i, chained;
	uint8_t *msg = malloc(16384), a[32], b[32];
	size_t s, k;

	if (!msg || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: sha256-vs-openssl [ROUNDS, 1 to %d]\n",
		    MAX_ROUNDS);
		return 2;
	}
	if (!yespower_set_impl("sha256=shani"))
		cs[ncs++] = (contender){ "ours, shani", "sha256=shani", { 0 } };
	if (!yespower_set_impl("sha256=portable"))
		cs[ncs++] = (contender){ "ours, portable", "sha256=portable",
		    { 0 } };

	for (k = 0; k < 16384; k++)
		msg[k] = (uint8_t)(k * 7);
	/* Same answers first. */
	for (i = 1; i < ncs; i++)
		for (s = 0; s < 2; s++) {
			yespower_set_impl(cs[i].spec);
			hash_openssl(msg, sizes[s], a);
			hash_ours(msg, sizes[s], b);
			if (memcmp(a, b, 32)) {
				printf("%s: a different digest!\n", cs[i].name);
				return 1;
			}
		}

	printf("%s; %d rounds alternating, about 2 ms per contender per "
	    "round; ns per message (MB/s at the best)\n",
	    OpenSSL_version(OPENSSL_VERSION), rounds);
	for (chained = 1; chained >= 0; chained--)
	for (s = 0; s < 2; s++) {
		size_t len = sizes[s];
		unsigned long n = 1000;
		double t, ratio[MAX_ROUNDS], bests[MAX_IMPLS];

		/* Calibrate on OpenSSL: n messages in about 2 ms. */
		while ((t = run(&cs[0], msg, len, n, chained) * n) < 2e6)
			n = (unsigned long)(n * (t > 0 ? 2.5e6 / t : 10) + 1);
		for (r = 0; r < rounds; r++)
			for (i = 0; i < ncs; i++)
				cs[i].ns[r] = run(&cs[i], msg, len, n,
				    chained);

		printf("%zu-byte messages, %s:\n", len,
		    chained ? "chained" : "independent");
		for (i = 0; i < ncs; i++) {
			double m = median(cs[i].ns, rounds), best = cs[i].ns[0];

			for (r = 1; r < rounds; r++)
				if (cs[i].ns[r] < best)
					best = cs[i].ns[r];
			printf("  %-32s median %8.1f, best %8.1f (%6.1f MB/s)",
			    cs[i].name, m, best, len / best * 1e3);
			bests[i] = best;
			if (i) {
				for (r = 0; r < rounds; r++)
					ratio[r] = cs[i].ns[r] / cs[0].ns[r];
				printf("  /OpenSSL: %.3f, %.3f",
				    median(ratio, rounds), best / bests[0]);
			}
			putchar('\n');
		}
	}
	free(msg);
	return 0;
}
