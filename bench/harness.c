/*
 * bench/harness.c: one thread count measured, and verified.
 *
 * The threads of an OpenMP team pin themselves (if asked), warm up (each
 * hashes at least once, so that its memory is allocated and touched before
 * the clock starts), wait for each other, then take consecutive nonces
 * from a shared counter until one of them finishes a call after the
 * run's time is up; the others finish the call they are on.  Every call's
 * latency is recorded per thread (so threads never share a cache line
 * while hashing) and merged at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#ifndef _OPENMP
#error "the benchmark needs OpenMP: build it with -fopenmp"
#endif
#include <omp.h>

#include "bench/bench.h"
#include "tools/timing.h"

/* What one thread saw; padded so threads do not share cache lines. */
typedef struct {
	double *lat;			/* seconds per call */
	size_t n, cap;
	void *state;			/* the work's, for this thread */
	int cpu_first, cpu_last;
	unsigned long migrations;
	int failed, pin_failed;
	char pad[64];
} thread_stats;

typedef struct {
	const bench_work *work;
	const bench_settings *s;
	int threads, actual_threads;
	uint64_t base;			/* the first nonce */
	uint8_t *save;			/* outputs of base + 0 .. NSAVE - 1 */
	unsigned char *saved;		/* which of them are there */
	unsigned long long next;	/* the next nonce, base-relative */
	int stop, progress_shown;
	double start, start_cpu, last_progress;
	thread_stats *ts;
} run_state;

/* Append one latency; on a failed allocation the thread counts as failed. */
static void record_latency(thread_stats *me, double seconds)
{
	if (me->n == me->cap) {
		size_t cap = me->cap ? 2 * me->cap : 4096;
		double *lat = realloc(me->lat, cap * sizeof(*lat));

		if (!lat) {
			me->failed = 1;
			return;
		}
		me->lat = lat;
		me->cap = cap;
	}
	me->lat[me->n++] = seconds;
}

static void show_progress(run_state *rs, double t)
{
	if (t - rs->last_progress < 0.5)
		return;
	rs->last_progress = t;
	rs->progress_shown = 1;
	fprintf(stderr, "\r%d thread%s: %.1f of %.1f s, %llu hashes ",
	    rs->threads, rs->threads == 1 ? "" : "s", t - rs->start,
	    rs->s->seconds, __atomic_load_n(&rs->next, __ATOMIC_RELAXED));
}

/*
 * Hash at least once, then until the warm-up time has passed.  The nonces
 * before base are never samples.
 */
static void warm_up(run_state *rs, thread_stats *me)
{
	const bench_work *w = rs->work;
	uint8_t out[BENCH_MAX_BATCH * BENCH_MAX_OUT];
	double start = util_now();

	do {
		if (w->hash(w, me->state, rs->base - w->batch, w->batch, out))
			me->failed = 1;
	} while (!me->failed && util_now() - start < rs->s->warmup);
}

/*
 * Hash until the time is up, recording each call and keeping samples.
 * Each call's nonces are taken from the counter one call early, so that
 * the work can be told them (w->ahead); nonces taken are hashed, but for
 * the ones taken last, after which the time was up.
 */
static void measure(run_state *rs, thread_stats *me, int t)
{
	const bench_work *w = rs->work;
	unsigned long long j, following;

	if (__atomic_load_n(&rs->stop, __ATOMIC_RELAXED))
		return;
	j = __atomic_fetch_add(&rs->next, w->batch, __ATOMIC_RELAXED);
	for (;; j = following) {
		uint8_t out[BENCH_MAX_BATCH * BENCH_MAX_OUT];
		double t0, t1;
		unsigned b;
		int cpu;

		following = __atomic_fetch_add(&rs->next, w->batch,
		    __ATOMIC_RELAXED);
		if (w->ahead)
			w->ahead(w, me->state, rs->base + following);
		t0 = util_now();
		if (w->hash(w, me->state, rs->base + j, w->batch, out))
			me->failed = 1;
		t1 = util_now();
		/* Every output of a batch is ready when the call returns. */
		for (b = 0; b < w->batch; b++)
			record_latency(me, t1 - t0);
		if ((cpu = bench_current_cpu()) != me->cpu_last) {
			me->migrations++;
			me->cpu_last = cpu;
		}
		for (b = 0; b < w->batch && j + b < BENCH_NSAVE; b++) {
			memcpy(rs->save + (j + b) * w->out_size,
			    out + b * w->out_size, w->out_size);
			rs->saved[j + b] = 1;
		}
		if (t1 - rs->start >= rs->s->seconds || me->failed)
			__atomic_store_n(&rs->stop, 1, __ATOMIC_RELAXED);
		if (t == 0 && rs->s->progress)
			show_progress(rs, t1);
		if (__atomic_load_n(&rs->stop, __ATOMIC_RELAXED))
			break;
	}
}

/* The body of the parallel region: pin, warm up, wait for all, measure. */
static void worker(run_state *rs)
{
	int t = omp_get_thread_num();
	thread_stats *me = &rs->ts[t];
	const bench_work *w = rs->work;

	if (rs->s->cpus && bench_pin_thread(rs->s->cpus[t % rs->s->ncpus]))
		me->pin_failed = 1;
	me->cpu_first = me->cpu_last = bench_current_cpu();
	if (w->thread_start && w->thread_start(w, &me->state))
		me->failed = 1;
	if (!me->failed)
		warm_up(rs, me);
#pragma omp barrier
#pragma omp single
	{
		rs->actual_threads = omp_get_num_threads();
		rs->start = rs->last_progress = util_now();
		rs->start_cpu = util_clock(CLOCK_PROCESS_CPUTIME_ID);
	}
	if (!me->failed)
		measure(rs, me, t);
	if (w->thread_end && me->state)
		w->thread_end(w, me->state);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile (nearest rank) of sorted[0 .. n - 1], n > 0. */
static double percentile(const double *sorted, size_t n, unsigned p)
{
	size_t rank = (p * n + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

/*
 * Merge the threads' latencies into min, percentiles, max and mean, and
 * collect their CPUs and failures.
 */
static void summarize(const run_state *rs, bench_result *res)
{
	size_t i, n = 0, k = 0;
	double *all, sum = 0;
	int t;

	for (t = 0; t < rs->threads; t++)
		n += rs->ts[t].n;
	res->hashes = n;
	res->cpus = calloc((size_t)rs->threads, sizeof(int));
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all || !res->cpus)
		bench_out_of_memory();
	for (t = 0; t < rs->threads; t++) {
		const thread_stats *ts = &rs->ts[t];

		memcpy(all + k, ts->lat, ts->n * sizeof(*all));
		k += ts->n;
		res->cpus[t] = ts->cpu_first;
		res->migrations += ts->migrations;
		res->failed |= ts->failed | ts->pin_failed;
	}
	qsort(all, n, sizeof(*all), by_value);
	for (i = 0; i < n; i++)
		sum += all[i];
	if (n) {
		res->lat_min = all[0];
		res->lat_p50 = percentile(all, n, 50);
		res->lat_p90 = percentile(all, n, 90);
		res->lat_p99 = percentile(all, n, 99);
		res->lat_max = all[n - 1];
		res->lat_mean = sum / n;
	} else {
		res->failed = 1;
	}
	free(all);
}

long long bench_proc_kib(const char *path, const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			v = strtoll(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* Huge pages of either kind: transparent ones, and explicit ones from the
 * reserved pool (the library takes those first when there are any). */
static void memory_figures(bench_result *res)
{
	struct rusage ru;
	long long huge = bench_proc_kib("/proc/self/smaps_rollup",
	    "AnonHugePages");
	long long tlb = bench_proc_kib("/proc/self/smaps_rollup",
	    "Private_Hugetlb");

	if (huge >= 0 && tlb > 0)
		huge += tlb;
	res->huge_bytes = huge < 0 ? -1 : huge * 1024;
	res->rss_peak_bytes = getrusage(RUSAGE_SELF, &ru) ? -1 :
	    (long long)ru.ru_maxrss * 1024;
}

void bench_run(const bench_work *w, int threads, const bench_settings *s,
    uint64_t base, uint8_t *save, bench_result *res)
{
	run_state rs;
	double wall;
	int t;

	memset(&rs, 0, sizeof(rs));
	memset(res, 0, sizeof(*res));
	rs.work = w;
	rs.s = s;
	rs.threads = res->threads = threads;
	rs.base = base;
	rs.save = save;
	rs.saved = res->saved;
	if (!(rs.ts = calloc((size_t)threads, sizeof(*rs.ts))))
		bench_out_of_memory();

#pragma omp parallel num_threads(threads)
	worker(&rs);

	wall = util_now();
	res->wall = wall - rs.start;
	res->cpu = util_clock(CLOCK_PROCESS_CPUTIME_ID) - rs.start_cpu;
	if (rs.progress_shown)
		fputs("\r\033[K", stderr);
	if (rs.actual_threads != threads) {
		fprintf(stderr, "benchmark: OpenMP gave %d threads, not %d "
		    "(OMP_THREAD_LIMIT?)\n", rs.actual_threads, threads);
		res->failed = 1;
	}
	res->pinned = s->cpus != NULL;
	summarize(&rs, res);
	memory_figures(res);
	for (t = 0; t < threads; t++)
		free(rs.ts[t].lat);
	free(rs.ts);
}

static void report_mismatch(const bench_reference *ref, unsigned j,
    uint64_t nonce)
{
	if (!ref->quiet)
		printf("Mismatch at %u\n", j);
	fprintf(stderr, "benchmark: MISMATCH: the hash of nonce %llu differs "
	    "from the single-threaded one\n", (unsigned long long)nonce);
}

/* One output, computed on this thread alone, as the reference. */
static int reference_one(const bench_work *w, uint64_t nonce, uint8_t *out)
{
	void *state = NULL;
	int rc;

	if (w->thread_start && w->thread_start(w, &state))
		return -1;
	rc = w->hash(w, state, nonce, 1, out);
	if (w->thread_end && state)
		w->thread_end(w, state);
	return rc;
}

void bench_verify(const bench_work *w, bench_reference *ref, uint64_t base,
    const uint8_t *save, bench_result *res)
{
	unsigned j, extra = 0, budget = 2 * (unsigned)res->threads * w->batch;
	size_t size = w->out_size;
	uint8_t spoiled[BENCH_MAX_OUT];

	if (budget < 32)
		budget = 32;
	for (j = 0; j < BENCH_NSAVE; j++) {
		const uint8_t *got = save + j * size;

		if (!res->saved[j])
			continue;
		/* With batches or a pipeline, the reference is computed one
		 * at a time, so that they are checked against single
		 * hashes. */
		if (!ref->have[j] && res->threads == 1 && w->batch == 1 &&
		    !w->ahead) {
			memcpy(ref->out + j * size, got, size);
			ref->have[j] = res->reference = 1;
			continue;
		}
		if (!ref->have[j]) {
			if (extra++ >= budget)
				continue;
			if (reference_one(w, base + j, ref->out + j * size))
				res->failed = 1;
			ref->have[j] = 1;
		}
		if (res->threads > 1 && (int)j == ref->corrupt) {
			memcpy(spoiled, got, size);
			spoiled[0] ^= 1;
			got = spoiled;
		}
		res->verified++;
		if (memcmp(ref->out + j * size, got, size)) {
			res->mismatches++;
			report_mismatch(ref, j, base + j);
		}
	}
}
