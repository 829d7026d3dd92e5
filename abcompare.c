/*
 * abcompare.c: compare the speed of two yespower libraries side by side.
 *
 * Usage: abcompare [-s SECONDS] [-t THREADS] [-k SLICE] [-a CORE] [-b CORE]
 *            LIB_A.so LIB_B.so VERSION N R [PERS]
 *
 * Both shared libraries must export yespower_tls() with the original API
 * (this library, another build of it, or any other implementation built as
 * a shared library).  They are loaded into one process and run in
 * alternating slices (A, B, A, B, ...) of SLICE hashes on THREADS threads,
 * so that the machine's drift and the load of its other users fall on both
 * alike.  Reported: each side's hashes per second over all its slices, and
 * the ratio B/A per pair of slices (median, min, max).  -a and -b make
 * library A or B use the named mixing core (this library's
 * yespower_set_impl), so two cores of one build can be compared.  Both libraries must
 * agree on every hash, or the comparison is void and the exit status is 1.
 */
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "yespower.h"

typedef int (*tls_fn)(const uint8_t *, size_t, const yespower_params_t *,
    yespower_binary_t *);

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Load a library's yespower_tls; with impl, first make it use that core
 * (for this library's builds: yespower_set_impl). */
static tls_fn load(const char *path, const char *impl)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	int (*set_impl)(const char *);
	tls_fn f;

	if (!h) {
		fprintf(stderr, "abcompare: %s\n", dlerror());
		exit(2);
	}
	*(void **)&f = dlsym(h, "yespower_tls");
	if (!f) {
		fprintf(stderr, "abcompare: %s: no yespower_tls\n", path);
		exit(2);
	}
	if (impl) {
		*(void **)&set_impl = dlsym(h, "yespower_set_impl");
		if (!set_impl || set_impl(impl)) {
			fprintf(stderr, "abcompare: %s: cannot use core %s\n",
			    path, impl);
			exit(2);
		}
	}
	return f;
}

static void make_input(uint8_t src[80], uint32_t nonce)
{
	unsigned i;

	for (i = 0; i < 76; i++)
		src[i] = (uint8_t)(i * 3);
	memcpy(&src[76], &nonce, 4);
}

/* Hash nonces base .. base + count - 1 on `threads` threads; returns the
 * wall time and folds the hashes into *digest (xor), to compare sides. */
static double slice(tls_fn f, const yespower_params_t *p, int threads,
    uint32_t base, unsigned count, yespower_binary_t *digest)
{
	double t0 = now();
	int bad = 0;
	long i;

#pragma omp parallel for num_threads(threads) schedule(static) reduction(|:bad)
	for (i = 0; i < (long)count; i++) {
		uint8_t src[80];
		yespower_binary_t h;
		size_t k;

		make_input(src, base + (uint32_t)i);
		bad |= f(src, sizeof(src), p, &h);
		for (k = 0; k < sizeof(h.uc); k++)
			__atomic_fetch_xor(&digest->uc[k], h.uc[k],
			    __ATOMIC_RELAXED);
	}
	if (bad) {
		fprintf(stderr, "abcompare: a hash failed\n");
		exit(2);
	}
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = 20, ta = 0, tb = 0, *ratio;
	int threads = 1, opt;
	unsigned k = 0, pairs = 0, maxpairs = 100000, n = 0;
	yespower_params_t p;
	yespower_binary_t da, db;
	tls_fn fa, fb;
	uint32_t base = 1;
	const char *impl_a = NULL, *impl_b = NULL;

	while ((opt = getopt(argc, argv, "s:t:k:a:b:")) != -1) {
		switch (opt) {
		case 'a': impl_a = optarg; break;
		case 'b': impl_b = optarg; break;
		case 's': seconds = atof(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'k': k = (unsigned)atoi(optarg); break;
		default: return 2;
		}
	}
	if (argc - optind < 5 || threads < 1) {
		fprintf(stderr, "usage: abcompare [-s SECONDS] [-t THREADS] "
		    "[-k SLICE] [-a CORE] [-b CORE] LIB_A LIB_B VERSION N R [PERS]\n");
		return 2;
	}
	fa = load(argv[optind], impl_a);
	fb = load(argv[optind + 1], impl_b);
	p.version = (yespower_version_t)atoi(argv[optind + 2]);
	p.N = (uint32_t)atoi(argv[optind + 3]);
	p.r = (uint32_t)atoi(argv[optind + 4]);
	p.pers = argc - optind > 5 ? (const uint8_t *)argv[optind + 5] : NULL;
	p.perslen = p.pers ? strlen((const char *)p.pers) : 0;

	/* Warm up both (allocation, page faults, clocks) and size the slice
	 * to about 0.2 s. */
	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	slice(fa, &p, threads, 0, 4 * threads, &da);
	slice(fb, &p, threads, 0, 4 * threads, &db);
	if (memcmp(&da, &db, sizeof(da))) {
		fprintf(stderr, "abcompare: the libraries disagree\n");
		return 1;
	}
	if (!k) {
		double t = slice(fa, &p, threads, 0, 8 * threads, &da);

		k = (unsigned)(0.2 / (t / (8 * threads)));
		k = k < (unsigned)threads ? (unsigned)threads : k;
	}

	ratio = malloc(maxpairs * sizeof(*ratio));
	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	while (ta + tb < seconds && pairs < maxpairs) {
		double a, b;

		/* Alternate which side goes first, too. */
		if (pairs & 1) {
			b = slice(fb, &p, threads, base, k, &db);
			a = slice(fa, &p, threads, base, k, &da);
		} else {
			a = slice(fa, &p, threads, base, k, &da);
			b = slice(fb, &p, threads, base, k, &db);
		}
		ta += a;
		tb += b;
		ratio[pairs++] = a / b;	/* B's speed over A's */
		base += k;
		n += k;
	}
	if (memcmp(&da, &db, sizeof(da))) {
		fprintf(stderr, "abcompare: the libraries disagree\n");
		return 1;
	}
	qsort(ratio, pairs, sizeof(*ratio), cmp_double);
	printf("version=%d N=%u r=%u threads=%d: A %.1f H/s, B %.1f H/s, "
	    "B/A %.3f (pairs %u of %u hashes: median %.3f, min %.3f, max %.3f)\n",
	    (int)p.version, p.N, p.r, threads, n / ta, n / tb, ta / tb, pairs,
	    k, ratio[pairs / 2], ratio[0], ratio[pairs - 1]);
	free(ratio);
	return 0;
}
