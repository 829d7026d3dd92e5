/*
 * bench/hashes.c: the hashing API's benchmark (`benchmark --hashes`).
 *
 *   benchmark --hashes [-s SECONDS] [--ghz GHZ] [--json] [--cpu-time]
 *       [-t LIST] [--impl NAME] [--merkle MIN-MAX]
 *       [--only sha256|recursive|merkle]
 *
 * (bench/options.c parses them; the threads are the largest count of -t.)
 *
 * Three tables, per implementation this CPU runs:
 *   1. Bitcoin Core's per-implementation rows: SHA-256 of 1 MiB and of
 *      64 bytes (the streaming functions, through each SHA-256
 *      compression function), SHA256D64 of 1024 inputs (through each
 *      kernel set, and the SHA-NI kernels at each width): ns/byte and
 *      bytes/s.
 *   2. Recursive SHA-256: MH/s of 1 chain, of K chains interleaved on one
 *      thread (K up to 16 that fill the kernel's groups), and of the best
 *      K on every thread; with --ghz, MH/s per 0.1 GHz as
 *      fast-recursive-sha256's benchmark prints it.
 *   3. Merkle roots of 2^20 .. 2^24 leaves (--merkle 20-24), SHA3-256 and
 *      SHA-256d: the time on 1 thread and on THREADS threads (default:
 *      all), through the implementations in use (--impl to choose).
 * Each figure is the median of 5 runs of about SECONDS / 5 (default 1 s;
 * a Merkle row is the median of 3 roots), and the spread (min, max) is
 * kept in the JSON.  --cpu-time times the one-thread rows by the thread's
 * CPU time rather than the wall clock (for shared machines).  To compare
 * with other programs, run them side by side, alternating, as PERFORMANCE
 * explains: the machine's other load then falls on both alike.
 *
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cpu-features.h"
#include "hashes/pow-hash.h"
#include "hashes/pow-hash-impl.h"
#include "tools/timing.h"
#include "yespower.h"

/* What the tables need of the command line. */
struct options {
	double seconds, ghz;
	int threads, merkle_min, merkle_max, cpu_time;
	const char *impl, *only;
	json_writer *json;		/* or NULL: text */
};

/* With --cpu-time, rows on one thread are timed by the thread's CPU time,
 * which other processes on a shared machine do not inflate. */
static int thread_clock;

static double row_time(void)
{
	return util_clock(thread_clock ? CLOCK_THREAD_CPUTIME_ID :
	    CLOCK_MONOTONIC);
}

/* A measurement: seconds per repetition, median and spread of 5 runs. */
struct timing {
	double median, min, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Time fn(ctx, reps): reps grows until one run takes SECONDS / 5, then 5
 * runs of that many.
 */
static struct timing measure(void (*fn)(void *, uint64_t), void *ctx,
    double seconds)
{
	double runs[5], t;
	uint64_t reps = 1;
	struct timing r;
	int i;

	for (;;) {
		t = row_time();
		fn(ctx, reps);
		t = row_time() - t;
		if (t >= seconds / 5 || reps >= ((uint64_t)1 << 40))
			break;
		reps = t > 0 ? (uint64_t)((double)reps * seconds / 5 / t *
		    1.1) + 1 : reps * 16;
	}
	for (i = 0; i < 5; i++) {
		t = row_time();
		fn(ctx, reps);
		runs[i] = (row_time() - t) / (double)reps;
	}
	qsort(runs, 5, sizeof(runs[0]), cmp_double);
	r.median = runs[2];
	r.min = runs[0];
	r.max = runs[4];
	return r;
}

/* ---- 1. Bitcoin Core's rows ---- */

struct buf_job {
	uint8_t *in, *out;
	size_t len;
	int ways;
};

static void run_sha256(void *p, uint64_t reps)
{
	struct buf_job *j = p;

	while (reps--)
		pow_sha256(j->in, j->len, j->out);
}

static void run_d64(void *p, uint64_t reps)
{
	struct buf_job *j = p;

	while (reps--)
		pow_sha256d64(j->out, j->in, 1024);
}

#if (defined(__x86_64__) || defined(__i386__)) && !defined(POW_NO_SHANI)
static void run_d64_ways(void *p, uint64_t reps)
{
	struct buf_job *j = p;

	while (reps--)
		pow_sha256_shani_d64_ways(j->out, j->in, 1024, j->ways);
}
#endif

static void print_rate(const struct options *o, const char *impl,
    const char *row, struct timing t, double bytes)
{
	double nspb = t.median * 1e9 / bytes;
	json_writer *j = o->json;

	if (j) {
		json_open(j, NULL, '{');
		json_str(j, "table", "sha256");
		json_str(j, "impl", impl);
		json_str(j, "row", row);
		json_num(j, "ns_per_byte", nspb);
		json_num(j, "bytes_per_s", bytes / t.median);
		json_num(j, "ns_per_byte_min", t.min * 1e9 / bytes);
		json_num(j, "ns_per_byte_max", t.max * 1e9 / bytes);
		json_close(j, '}');
	} else {
		printf("  %-14s %-16s %9.4f ns/byte %10.1f MB/s\n", impl, row,
		    nspb, bytes / t.median / 1e6);
	}
}

static void table_sha256(const struct options *o)
{
	static const char *compressions[] = { "shani", "portable" };
	const pow_sha256_kernels *k;
	struct buf_job j;
	size_t i;
	char spec[64];

	j.in = malloc(1 << 20);
	j.out = malloc(1024 * 32);
	if (!j.in || !j.out)
		bench_out_of_memory();
	for (i = 0; i < (1 << 20); i++)
		j.in[i] = (uint8_t)(i * 7);
	if (!o->json)
		printf("SHA-256 (Bitcoin Core's per-implementation rows)\n");

	/* The streaming functions run on yespower's compression function. */
	for (i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++) {
		snprintf(spec, sizeof(spec), "sha256=%s", compressions[i]);
		if (yespower_set_impl(spec))
			continue;
		j.len = 1 << 20;
		print_rate(o, compressions[i], "SHA256 1MiB",
		    measure(run_sha256, &j, o->seconds), 1 << 20);
		j.len = 64;
		print_rate(o, compressions[i], "SHA256 64B",
		    measure(run_sha256, &j, o->seconds), 64);
	}
	yespower_set_impl(NULL);

	for (i = 0; (k = pow_sha256_kernels_at(i)); i++) {
		snprintf(spec, sizeof(spec), "sha256=%s", k->name);
		if (pow_hash_set_impl(spec))
			continue;
		print_rate(o, k->name, "SHA256D64_1024",
		    measure(run_d64, &j, o->seconds), 1024 * 64);
#if (defined(__x86_64__) || defined(__i386__)) && !defined(POW_NO_SHANI)
		if (!strcmp(k->name, "shani")) {
			char name[32];

			for (j.ways = 1; j.ways <= 4; j.ways++) {
				snprintf(name, sizeof(name), "shani-x%d",
				    j.ways);
				print_rate(o, name, "SHA256D64_1024",
				    measure(run_d64_ways, &j, o->seconds),
				    1024 * 64);
			}
		}
#endif
	}
	pow_hash_set_impl(o->impl);
	free(j.in);
	free(j.out);
}

/* ---- 2. recursive ---- */

struct rec_job {
	uint8_t h[32 * 16 * POW_HASH_MAX_THREADS];
	size_t chains;
	int threads, ways;
};

static void run_recursive(void *p, uint64_t reps)
{
	struct rec_job *j = p;

	if (j->chains == 1 && j->threads == 1)
		pow_sha256_recursive(j->h, j->h, reps);
	else
		pow_sha256_recursive_chains(j->h, j->h, j->chains, reps,
		    j->threads);
}

#if (defined(__x86_64__) || defined(__i386__)) && !defined(POW_NO_SHANI)
static void run_recursive_ways(void *p, uint64_t reps)
{
	struct rec_job *j = p;

	pow_sha256_shani_recursive_ways(j->h, j->chains, reps, j->ways);
}
#endif

static void print_mhs(const struct options *o, const char *impl,
    const char *row, size_t chains, int threads, struct timing t)
{
	double mhs = (double)chains / t.median / 1e6;
	json_writer *j = o->json;

	if (j) {
		json_open(j, NULL, '{');
		json_str(j, "table", "recursive");
		json_str(j, "impl", impl);
		json_str(j, "row", row);
		json_int(j, "chains", (long long)chains);
		json_int(j, "threads", threads);
		json_num(j, "mhs", mhs);
		json_num(j, "mhs_min", (double)chains / t.max / 1e6);
		json_num(j, "mhs_max", (double)chains / t.min / 1e6);
		if (o->ghz > 0)
			json_num(j, "mhs_per_0_1ghz", mhs / (o->ghz * 10));
		json_close(j, '}');
	} else {
		printf("  %-14s %-22s %9.2f MH/s", impl, row, mhs);
		if (o->ghz > 0)
			printf("  %6.3f MH/s/0.1GHz", mhs / (o->ghz * 10));
		printf("\n");
	}
}

static void table_recursive(const struct options *o)
{
	const pow_sha256_kernels *k;
	struct rec_job *j = calloc(1, sizeof(*j));
	size_t i, c, best_chains;
	char spec[64], row[64];

	if (!j)
		bench_out_of_memory();
	if (!o->json)
		printf("Recursive SHA-256 (h = SHA-256(h), 32 bytes)\n");
	for (i = 0; (k = pow_sha256_kernels_at(i)); i++) {
		double best = 0;

		snprintf(spec, sizeof(spec), "sha256=%s", k->name);
		if (pow_hash_set_impl(spec))
			continue;
		j->threads = 1;
		j->chains = 1;
		print_mhs(o, k->name, "1 chain", 1, 1,
		    measure(run_recursive, j, o->seconds));
		best_chains = 1;
		for (c = 2; c <= 16; c++) {
			struct timing t;

			/* Widths that fill whole groups of the kernel. */
			if (k->chains_per_core > 4 ? c % k->chains_per_core :
			    c > 4 && c % k->chains_per_core)
				continue;
			j->chains = c;
			t = measure(run_recursive, j, o->seconds);
			snprintf(row, sizeof(row), "%zu chains, 1 thread", c);
			print_mhs(o, k->name, row, c, 1, t);
			if ((double)c / t.median > best) {
				best = (double)c / t.median;
				best_chains = c;
			}
		}
		j->chains = best_chains * (size_t)o->threads;
		j->threads = o->threads;
		thread_clock = 0;
		snprintf(row, sizeof(row), "%zu chains, %d threads", j->chains,
		    o->threads);
		print_mhs(o, k->name, row, j->chains, o->threads,
		    measure(run_recursive, j, o->seconds));
		thread_clock = o->cpu_time;
#if (defined(__x86_64__) || defined(__i386__)) && !defined(POW_NO_SHANI)
		if (!strcmp(k->name, "shani")) {
			char name[32];

			for (j->ways = 1; j->ways <= 4; j->ways++) {
				j->chains = (size_t)j->ways;
				snprintf(name, sizeof(name), "shani-x%d",
				    j->ways);
				snprintf(row, sizeof(row), "%d chains, 1 thread",
				    j->ways);
				print_mhs(o, name, row, j->chains, 1, measure(
				    run_recursive_ways, j, o->seconds));
			}
		}
#endif
	}
	pow_hash_set_impl(o->impl);
	free(j);
}

/* ---- 3. Merkle trees ---- */

static void table_merkle(const struct options *o)
{
	size_t max = (size_t)1 << o->merkle_max, q;
	uint8_t *leaves = malloc(32 * max), root[32];
	int k, h, t;

	if (!leaves) {
		fprintf(stderr, "benchmark: no memory for 2^%d leaves\n",
		    o->merkle_max);
		bench_out_of_memory();
	}
	for (q = 0; q < 32 * max; q++)
		leaves[q] = (uint8_t)((uint64_t)q * 2654435761u >> 13);
	if (!o->json)
		printf("Merkle roots (%s), ms\n  %-10s %-9s %12s %12s\n",
		    pow_hash_impl_name(), "leaves", "hash", "1 thread",
		    "threads");
	for (k = o->merkle_min; k <= o->merkle_max; k++) {
		for (h = 0; h < 2; h++) {
			double ms[2][3];
			int threads[2] = { 1, o->threads }, r;

			for (t = 0; t < 2; t++) {
				thread_clock = o->cpu_time && threads[t] == 1;
				for (r = 0; r < 3; r++) {
					double s = row_time();

					if (h == 0)
						pow_merkle_root_sha3_256(root,
						    leaves, (size_t)1 << k,
						    threads[t]);
					else
						pow_merkle_root_sha256d(root,
						    leaves, (size_t)1 << k,
						    threads[t]);
					ms[t][r] = (row_time() - s) * 1e3;
				}
				qsort(ms[t], 3, sizeof(double), cmp_double);
			}
			if (o->json) {
				json_writer *j = o->json;

				json_open(j, NULL, '{');
				json_str(j, "table", "merkle");
				json_str(j, "hash", h ? "sha256d" : "sha3-256");
				json_int(j, "log2_leaves", k);
				json_str(j, "impl", pow_hash_impl_name());
				json_num(j, "ms_1_thread", ms[0][1]);
				json_num(j, "ms_threads", ms[1][1]);
				json_int(j, "threads", o->threads);
				json_num(j, "ms_1_thread_min", ms[0][0]);
				json_num(j, "ms_threads_min", ms[1][0]);
				json_close(j, '}');
			} else {
				printf("  2^%-8d %-9s %9.2f ms %9.2f ms (%d)\n",
				    k, h ? "SHA-256d" : "SHA3-256", ms[0][1],
				    ms[1][1], o->threads);
			}
		}
	}
	free(leaves);
}

/* ---- the run ---- */

int bench_hashes(const bench_options *bo, char **argv)
{
	struct options o;
	json_writer j;
	char cpu[128];
	size_t i;

	memset(&o, 0, sizeof(o));
	o.seconds = bo->seconds;
	o.ghz = bo->ghz;
	o.cpu_time = bo->cpu_time;
	o.merkle_min = bo->merkle_min;
	o.merkle_max = bo->merkle_max;
	o.impl = bo->impl;
	o.only = bo->only;
	for (i = 0; i < bo->nthreads; i++)
		if (bo->threads[i] > o.threads)
			o.threads = bo->threads[i];
	if (o.threads > POW_HASH_MAX_THREADS)
		o.threads = POW_HASH_MAX_THREADS;
	thread_clock = o.cpu_time;
	if (o.impl && pow_hash_set_impl(o.impl)) {
		fprintf(stderr, "benchmark: --impl %s: %s\n", o.impl,
		    strerror(errno));
		return 2;
	}

	if (bo->json) {
		memset(&j, 0, sizeof(j));
		o.json = &j;
		json_open(&j, NULL, '{');
		json_str(&j, "program", "libyespower hashing benchmark");
		json_int(&j, "threads", o.threads);
		json_str(&j, "impl", pow_hash_impl_name());
		json_num(&j, "seconds", o.seconds);
		json_bool(&j, "cpu_time", o.cpu_time);
		if (o.ghz > 0)
			json_num(&j, "ghz", o.ghz);
		json_invocation(&j, argv);
		json_machine(&j);
		json_open(&j, "rows", '[');
	} else {
		bench_cpu_model(cpu, sizeof(cpu));
		printf("CPU: %s; %d threads; implementations in use: %s\n", cpu,
		    o.threads, pow_hash_impl_name());
	}
	if (!o.only || !strcmp(o.only, "sha256"))
		table_sha256(&o);
	if (!o.only || !strcmp(o.only, "recursive"))
		table_recursive(&o);
	if (!o.only || !strcmp(o.only, "merkle"))
		table_merkle(&o);
	if (o.json) {
		json_close(&j, ']');
		json_close(&j, '}');
		putchar('\n');
	}
	return 0;
}
