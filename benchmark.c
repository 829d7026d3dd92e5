/*
 * benchmark.c: hashes per second with 1 thread and with all threads.
 *
 * Usage: benchmark [version [N [r]]]   (defaults: 5 2048 8, as the
 * original; the personalization is "Client Key" for every version).
 * OMP_NUM_THREADS sets the second thread count.
 *
 * Inputs are 80-byte "headers" i * 3 whose last 4 bytes are a nonce, all
 * different.  The first hashes of the 1-thread run are kept and compared
 * with the same nonces in the multi-thread run: a mismatch means a bug
 * (or broken hardware) and makes the benchmark fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "yespower.h"

#define NSAVE 1000

typedef struct {
	unsigned long long count;
	double wall, cpu;		/* seconds */
	double lat_min, lat_sum, lat_max;	/* per hash, seconds */
	unsigned long long mismatches;
	int failed;
} run_result;

static double now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void make_input(uint8_t src[80], uint32_t nonce)
{
	unsigned i;

	for (i = 0; i < 76; i++)
		src[i] = (uint8_t)(i * 3);
	src[76] = (uint8_t)nonce;
	src[77] = (uint8_t)(nonce >> 8);
	src[78] = (uint8_t)(nonce >> 16);
	src[79] = (uint8_t)(nonce >> 24);
}

/*
 * Hash consecutive nonces from base on `threads` threads for at least
 * `seconds`.  Each thread first hashes once untimed, so that memory
 * allocation and first-touch page faults stay out of the figures.  Hashes
 * of nonces base .. base + nsave - 1 are stored in save (if fill) or
 * compared with it.
 */
static void run(const yespower_params_t *params, int threads, double seconds,
    uint32_t base, yespower_binary_t *save, unsigned nsave, int fill,
    run_result *res)
{
	unsigned long long next = 0;
	double start = 0, start_cpu = 0;
	int stop = 0;

	memset(res, 0, sizeof(*res));
	res->lat_min = 1e30;

#pragma omp parallel num_threads(threads)
	{
		run_result mine;
		yespower_binary_t dst;
		uint8_t src[80];

		memset(&mine, 0, sizeof(mine));
		mine.lat_min = 1e30;
		make_input(src, base - 1);
		if (yespower_tls(src, sizeof(src), params, &dst))
			mine.failed = 1;
#pragma omp barrier
#pragma omp single
		{
			start = now(CLOCK_MONOTONIC);
			start_cpu = now(CLOCK_PROCESS_CPUTIME_ID);
		}

		while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
			unsigned long long j = __atomic_fetch_add(&next, 1,
			    __ATOMIC_RELAXED);
			double t0, t1;

			make_input(src, base + (uint32_t)j);
			t0 = now(CLOCK_MONOTONIC);
			if (yespower_tls(src, sizeof(src), params, &dst))
				mine.failed = 1;
			t1 = now(CLOCK_MONOTONIC);

			mine.count++;
			mine.lat_sum += t1 - t0;
			if (t1 - t0 < mine.lat_min)
				mine.lat_min = t1 - t0;
			if (t1 - t0 > mine.lat_max)
				mine.lat_max = t1 - t0;
			if (j < nsave) {
				if (fill)
					save[j] = dst;
				else if (memcmp(&save[j], &dst, sizeof(dst)))
					mine.mismatches++;
			}
			if (t1 - start >= seconds)
				__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		}

#pragma omp critical
		{
			res->count += mine.count;
			res->lat_sum += mine.lat_sum;
			if (mine.lat_min < res->lat_min)
				res->lat_min = mine.lat_min;
			if (mine.lat_max > res->lat_max)
				res->lat_max = mine.lat_max;
			res->mismatches += mine.mismatches;
			res->failed |= mine.failed;
		}
	}

	res->wall = now(CLOCK_MONOTONIC) - start;
	res->cpu = now(CLOCK_PROCESS_CPUTIME_ID) - start_cpu;
}

static int report(int threads, const run_result *res)
{
	printf("Benchmarking %d thread%s ...\n", threads,
	    threads == 1 ? "" : "s");
	if (res->failed) {
		puts("FAILED");
		return 1;
	}
	printf("%llu H/s real, %llu H/s virtual (%llu hashes in %.2f "
	    "seconds)\n", (unsigned long long)(res->count / res->wall),
	    (unsigned long long)(res->count / res->cpu), res->count,
	    res->wall);
	printf("min %.3f ms, avg %.3f ms, max %.3f ms\n",
	    res->lat_min * 1e3, res->lat_sum / res->count * 1e3,
	    res->lat_max * 1e3);
	if (res->mismatches) {
		printf("Mismatch: %llu hashes differ from the 1-thread run\n",
		    res->mismatches);
		return 1;
	}
	return 0;
}

/* A whole decimal number in [min, max], or exit 2 naming the argument. */
static unsigned long parse_arg(const char *s, const char *name,
    unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "benchmark: invalid %s '%s' (expected %lu to "
		    "%lu)\n", name, s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	yespower_params_t params = { YESPOWER_0_5, 2048, 8,
	    (const uint8_t *)"Client Key", 10 };
	static yespower_binary_t save[NSAVE];
	yespower_binary_t dst;
	uint8_t src[80];
	run_result res;
	uint32_t base = (uint32_t)time(NULL) * 1812433253U;
	int threads = 1, status = 0;
	unsigned i;

	if (argc > 4 || (argc > 1 && !strcmp(argv[1], "-h"))) {
		fprintf(stderr, "usage: benchmark [version [N [r]]]\n");
		return 2;
	}
	if (argc > 1)
		params.version = (yespower_version_t)parse_arg(argv[1],
		    "version", 5, 10);
	if (argc > 2)
		params.N = (uint32_t)parse_arg(argv[2], "N", 1024, 524288);
	if (argc > 3)
		params.r = (uint32_t)parse_arg(argv[3], "r", 8, 32);
	if ((params.version != YESPOWER_0_5 &&
	    params.version != YESPOWER_1_0) || (params.N & (params.N - 1))) {
		fprintf(stderr, "benchmark: invalid parameters: version must "
		    "be 5 or 10 and N a power of 2\n");
		return 2;
	}

	printf("version=%.1f N=%u r=%u\n", params.version * 0.1, params.N,
	    params.r);
	printf("Will use %.2f KiB RAM\n", 0.125 * params.N * params.r);

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 3);
	if (yespower_tls(src, sizeof(src), &params, &dst)) {
		puts("FAILED");
		return 1;
	}
	for (i = 0; i < sizeof(dst.uc); i++)
		printf("%02x%c", dst.uc[i], i + 1 < sizeof(dst.uc) ? ' ' : '\n');

	run(&params, 1, 2.0, base, save, NSAVE, 1, &res);
	status |= report(1, &res);

#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	if (threads > 1) {
		unsigned nsave = res.count < NSAVE ? (unsigned)res.count : NSAVE;

		run(&params, threads, 2.0, base, save, nsave, 0, &res);
		status |= report(threads, &res);
	}
	return status;
}
