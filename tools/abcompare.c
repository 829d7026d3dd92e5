/*
 * abcompare.c: compare the speed of two yespower libraries side by side.
 *
 * Usage: abcompare [-s SECONDS] [-S SLICE-SECONDS] [-k SLICE] [-t THREADS]
 *            [-a CORE] [-b CORE] [-A BATCH] [-B BATCH]
 *            LIB_A.so LIB_B.so VERSION N R [PERS]
 *
 * Both shared libraries must export yespower_tls() with the original API
 * (this library, another build of it, or any other implementation built as
 * a shared library).  They are loaded into one process and run in
 * alternating slices (A, B, A, B, ...) of SLICE hashes on THREADS threads
 * (by default as many as A computes in SLICE-SECONDS, 0.2), for SECONDS in
 * all (default 20), so that the machine's drift and the load of its other
 * users fall on both alike.  Reported: each side's hashes per second over all its slices, and
 * the ratio B/A per pair of slices (median, min, max).  -a and -b make
 * library A or B use the named mixing core (this library's
 * yespower_set_impl), so two cores of one build can be compared (given
 * the same file twice, side B loads a private copy of it); -A and
 * -B make that side hash BATCH inputs per call with yespower_batch_tls
 * (this library's batch API) instead of one per yespower_tls call.  Both
 * libraries must agree on every hash, or the comparison is void and the
 * exit status is 1.
 */
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tools/timing.h"
#include "yespower.h"

typedef int (*tls_fn)(const uint8_t *, size_t, const yespower_params_t *,
    yespower_binary_t *);
typedef int (*batch_fn)(const uint8_t *const *, const size_t *, size_t,
    const yespower_params_t *, yespower_binary_t *);

/* One side of the comparison: a library, used one hash per call, or in
 * batches of `batch` inputs per call through yespower_batch_tls. */
typedef struct {
	tls_fn one;
	batch_fn many;
	unsigned batch;
} side;

/*
 * A private copy of the library at path, for side B when both sides name
 * the same file: dlopen would return the first load's handle, and -a and
 * -b would then set one core for both sides.  Returns the copy's path
 * (the caller unlinks it once loaded), or exits.
 */
static char *private_copy(const char *path)
{
	const char *dir = getenv("TMPDIR");
	char *copy, buf[65536];
	size_t len, n;
	FILE *in, *out;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	len = strlen(dir) + sizeof("/abcompare-XXXXXX.so");
	if (!(copy = malloc(len))) {
		fprintf(stderr, "abcompare: out of memory\n");
		exit(2);
	}
	snprintf(copy, len, "%s/abcompare-XXXXXX.so", dir);
	if ((fd = mkstemps(copy, 3)) < 0 || !(out = fdopen(fd, "wb")) ||
	    !(in = fopen(path, "rb"))) {
		fprintf(stderr, "abcompare: cannot copy %s to %s\n", path, copy);
		if (fd >= 0)
			unlink(copy);
		exit(2);
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			break;
	if (ferror(in) || fclose(out)) {
		fprintf(stderr, "abcompare: cannot copy %s to %s\n", path, copy);
		unlink(copy);
		exit(2);
	}
	fclose(in);
	return copy;
}

/* Whether the two paths name one file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino;
}

/* Load a library's yespower_tls (and yespower_batch_tls for batch > 1);
 * with impl, first make it use that core (for this library's builds:
 * yespower_set_impl). */
static side load(const char *path, const char *impl, unsigned batch)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	int (*set_impl)(const char *);
	tls_fn f;
	side sd;

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
	sd.one = f;
	sd.batch = batch ? batch : 1;
	sd.many = NULL;
	if (sd.batch > 1) {
		*(void **)&sd.many = dlsym(h, "yespower_batch_tls");
		if (!sd.many) {
			fprintf(stderr, "abcompare: %s: no yespower_batch_tls\n",
			    path);
			exit(2);
		}
	}
	return sd;
}

static void make_input(uint8_t src[80], uint32_t nonce)
{
	unsigned i;

	for (i = 0; i < 76; i++)
		src[i] = (uint8_t)(i * 3);
	memcpy(&src[76], &nonce, 4);
}

/*
 * Hash nonces base .. base + count - 1 on `threads` threads, one per call
 * or in batches; returns the wall time and folds the hashes into *digest
 * (xor), to compare sides.  count is a multiple of the batch size.
 */
static double slice(const side *sd, const yespower_params_t *p, int threads,
    uint32_t base, unsigned count, yespower_binary_t *digest)
{
	double t0 = util_now();
	long calls = (long)(count / sd->batch), i;
	int bad = 0;

#pragma omp parallel for num_threads(threads) schedule(static) reduction(|:bad)
	for (i = 0; i < calls; i++) {
		uint8_t src[64][80];
		const uint8_t *srcp[64];
		size_t len[64];
		yespower_binary_t h[64];
		unsigned b, k;

		for (b = 0; b < sd->batch; b++) {
			make_input(src[b], base + (uint32_t)(i * sd->batch + b));
			srcp[b] = src[b];
			len[b] = 80;
		}
		if (sd->batch == 1)
			bad |= sd->one(src[0], 80, p, &h[0]);
		else
			bad |= sd->many(srcp, len, sd->batch, p, h);
		for (b = 0; b < sd->batch; b++)
			for (k = 0; k < sizeof(h[b].uc); k++)
				__atomic_fetch_xor(&digest->uc[k], h[b].uc[k],
				    __ATOMIC_RELAXED);
	}
	if (bad) {
		fprintf(stderr, "abcompare: a hash failed\n");
		exit(2);
	}
	return util_now() - t0;
}

/*
 * arg_num(what, s, lo, hi): the whole of s as a number from lo to hi, or
 * a message and exit status 2.
 */
static double arg_num(const char *what, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo && v <= hi)) {
		fprintf(stderr, "abcompare: %s '%s': not a number from %.10g "
		    "to %.10g\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

/* The same for a whole number. */
static unsigned long arg_uint(const char *what, const char *s,
    unsigned long lo, unsigned long hi)
{
	double v = arg_num(what, s, (double)lo, (double)hi);

	if (v != (double)(unsigned long)v) {
		fprintf(stderr, "abcompare: %s '%s': not a whole number\n",
		    what, s);
		exit(2);
	}
	return (unsigned long)v;
}

/* The private copy of a library given twice: removed however we exit. */
static char *copy_path;

static void remove_copy(void)
{
	if (copy_path)
		unlink(copy_path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = 20, slice_seconds = 0.2, ta = 0, tb = 0, *ratio;
	int threads = 1, opt;
	unsigned k = 0, pairs = 0, maxpairs = 100000, n = 0;
	yespower_params_t p;
	yespower_binary_t da, db;
	side fa, fb;
	unsigned batch_a = 1, batch_b = 1, unit;
	uint32_t base = 1;
	const char *impl_a = NULL, *impl_b = NULL;

	while ((opt = getopt(argc, argv, "s:S:t:k:a:b:A:B:")) != -1) {
		switch (opt) {
		case 'S':
			slice_seconds = arg_num("-S", optarg, 1e-6, 3600);
			break;
		case 'A': batch_a = arg_uint("-A", optarg, 1, 64); break;
		case 'B': batch_b = arg_uint("-B", optarg, 1, 64); break;
		case 'a': impl_a = optarg; break;
		case 'b': impl_b = optarg; break;
		case 's': seconds = arg_num("-s", optarg, 1e-6, 86400); break;
		case 't': threads = arg_uint("-t", optarg, 1, 1024); break;
		case 'k': k = arg_uint("-k", optarg, 1, 1u << 30); break;
		default: return 2;
		}
	}
	if (argc - optind < 5) {
		fprintf(stderr, "usage: abcompare [-s SECONDS] [-S SLICE-SECONDS] "
		    "[-k SLICE] [-t THREADS] [-a CORE] [-b CORE] [-A BATCH] "
		    "[-B BATCH] LIB_A LIB_B VERSION N R [PERS]\n");
		return 2;
	}
	p.version = (yespower_version_t)arg_uint("VERSION", argv[optind + 2],
	    5, 10);
	if (p.version != YESPOWER_0_5 && p.version != YESPOWER_1_0) {
		fprintf(stderr, "abcompare: VERSION is 5 or 10\n");
		return 2;
	}
	p.N = (uint32_t)arg_uint("N", argv[optind + 3], 1, UINT32_MAX);
	p.r = (uint32_t)arg_uint("R", argv[optind + 4], 1, UINT32_MAX);
	fa = load(argv[optind], impl_a, batch_a);
	if (same_file(argv[optind], argv[optind + 1])) {
		copy_path = private_copy(argv[optind + 1]);
		atexit(remove_copy);
		fb = load(copy_path, impl_b, batch_b);
		unlink(copy_path);
		free(copy_path);
		copy_path = NULL;
	} else {
		fb = load(argv[optind + 1], impl_b, batch_b);
	}
	/* Slices are whole numbers of calls on every thread, on both sides. */
	unit = (unsigned)threads * batch_a * batch_b;
	p.pers = argc - optind > 5 ? (const uint8_t *)argv[optind + 5] : NULL;
	p.perslen = p.pers ? strlen((const char *)p.pers) : 0;

	/* Warm up both (allocation, page faults, clocks) and size the slice
	 * to about slice_seconds. */
	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	slice(&fa, &p, threads, 0, unit, &da);
	slice(&fb, &p, threads, 0, unit, &db);
	if (memcmp(&da, &db, sizeof(da))) {
		fprintf(stderr, "abcompare: the libraries disagree\n");
		return 1;
	}
	if (!k) {
		double t = slice(&fa, &p, threads, 0, 2 * unit, &da);

		k = (unsigned)(slice_seconds / (t / (2 * unit)));
	}
	k = (k + unit - 1) / unit * unit;
	if (!k)
		k = unit;

	ratio = malloc(maxpairs * sizeof(*ratio));
	memset(&da, 0, sizeof(da));
	memset(&db, 0, sizeof(db));
	while (ta + tb < seconds && pairs < maxpairs) {
		double a, b;

		/* Alternate which side goes first, too. */
		if (pairs & 1) {
			b = slice(&fb, &p, threads, base, k, &db);
			a = slice(&fa, &p, threads, base, k, &da);
		} else {
			a = slice(&fa, &p, threads, base, k, &da);
			b = slice(&fb, &p, threads, base, k, &db);
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
