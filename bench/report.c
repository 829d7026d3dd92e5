/*
 * bench/report.c: every thread count of the command line measured in
 * turn, verified, and reported in the original's lines and ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"

static void print_bytes(double bytes)
{
	if (bytes >= 1 << 20)
		printf("%.2f MiB", bytes / (1 << 20));
	else
		printf("%.2f KiB", bytes / 1024);
}

static void print_cpus(const bench_result *res, const bench_options *o)
{
	int t;

	printf("CPUs");
	for (t = 0; t < res->threads; t++)
		printf(" %d", res->cpus[t]);
	if (res->pinned)
		printf(" (pinned: %s)\n", o->affinity_arg);
	else
		printf(" at the start (not pinned; %lu migration%s seen)\n",
		    res->migrations, res->migrations == 1 ? "" : "s");
}

static void print_verification(const bench_result *res)
{
	if (res->mismatches)
		printf("MISMATCH: %u of %u sampled hashes differ from "
		    "single-threaded ones\n", res->mismatches, res->verified);
	else if (res->verified)
		printf("verified %u hashes against single-threaded ones: all "
		    "match\n", res->verified);
	else if (res->reference)
		printf("kept %u hash%s to verify the other runs\n",
		    res->hashes < BENCH_NSAVE ? (unsigned)res->hashes :
		    BENCH_NSAVE, res->hashes == 1 ? "" : "es");
}

/* The original's two lines, then ours. */
static void print_run(const bench_result *res, const bench_options *o,
    uint64_t per_hash, uint64_t per_thread, const char *impl)
{
	if (!res->hashes) {
		puts("FAILED");
		return;
	}
	printf("%llu H/s real, %llu H/s virtual (%llu hashes in %.2f "
	    "seconds)\n", (unsigned long long)(res->hashes / res->wall),
	    (unsigned long long)(res->cpu > 0 ? res->hashes / res->cpu : 0),
	    res->hashes, res->wall);
	printf("min %.3f ms, avg %.3f ms, max %.3f ms\n", res->lat_min * 1e3,
	    res->lat_mean * 1e3, res->lat_max * 1e3);
	printf("p50 %.3f ms, p90 %.3f ms, p99 %.3f ms\n", res->lat_p50 * 1e3,
	    res->lat_p90 * 1e3, res->lat_p99 * 1e3);
	printf("memory ");
	print_bytes((double)per_hash);
	printf(" per hash, ");
	print_bytes((double)per_thread * res->threads);
	printf(" in all");
	if (res->huge_bytes >= 0) {
		printf(" (huge pages: ");
		print_bytes((double)res->huge_bytes);
		printf(")");
	}
	printf("; implementation %s\n", impl);
	print_cpus(res, o);
	print_verification(res);
	if (res->failed)
		puts("FAILED: a hash returned an error or a thread could not "
		    "be set up");
}

void bench_settings_of(bench_settings *s, const bench_options *o)
{
	memset(s, 0, sizeof(*s));
	s->seconds = o->seconds;
	s->warmup = o->warmup;
	s->cpus = o->ncpus ? o->cpus : NULL;
	s->ncpus = o->ncpus;
	s->progress = isatty(STDERR_FILENO);
}

int bench_run_all(const bench_work *w, const bench_options *o,
    bench_result *runs, uint64_t per_hash, uint64_t per_thread,
    const char *impl)
{
	static uint8_t save[BENCH_NSAVE * BENCH_MAX_OUT];
	static uint8_t ref_out[BENCH_NSAVE * BENCH_MAX_OUT];
	static bench_reference ref;
	const char *corrupt = getenv("YESPOWER_BENCHMARK_CORRUPT");
	uint64_t base = (uint32_t)((uint32_t)time(NULL) * 1812433253U);
	bench_settings s;
	size_t i;
	int status = 0;

	bench_settings_of(&s, o);
	memset(ref.have, 0, sizeof(ref.have));
	ref.out = ref_out;
	ref.corrupt = corrupt ? atoi(corrupt) : -1;
	ref.quiet = o->json;
	for (i = 0; i < o->nthreads; i++) {
		int threads = o->threads[i];

		if (!o->json) {
			printf("Benchmarking %d thread%s ...\n", threads,
			    threads == 1 ? "" : "s");
			fflush(stdout);
		}
		bench_run(w, threads, &s, base, save, &runs[i]);
		bench_verify(w, &ref, base, save, &runs[i]);
		if (runs[i].failed || runs[i].mismatches)
			status = 1;
		if (runs[i].mismatches)
			fprintf(stderr, "benchmark: MISMATCH: %u of %u sampled "
			    "hashes on %d threads differ from single-threaded "
			    "ones\n", runs[i].mismatches, runs[i].verified,
			    threads);
		if (!o->json)
			print_run(&runs[i], o, per_hash, per_thread, impl);
		fflush(stdout);
	}
	return status;
}
