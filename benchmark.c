/*
 * benchmark.c: how fast yespower hashes on this machine, at the thread
 * counts of the user's choice, and how fast each part of a hash is.
 *
 * Usage: benchmark [options] [version [N [r]]]   (benchmark -h for all)
 *
 * With no options it behaves as the original's benchmark: version 5, N 2048,
 * r 8, the personalization "Client Key" for every version; it prints the hash
 * of a fixed input (bytes i * 3), then hashes per second with 1 thread and
 * with omp_get_max_threads() threads in the original's line shapes, followed
 * by lines of its own (latency percentiles, memory, CPUs, verification).
 * Without --batch it ends with one more line: the library's best throughput
 * path, batches of as many inputs as the library interleaves for these
 * parameters on this machine, on the largest thread count (a miner's rate).
 *
 * Inputs are 80-byte "headers" whose last 4 bytes are a nonce, all
 * different.  Every run's first BENCH_NSAVE hashes are kept and verified
 * against single-threaded ones (bench/harness.c); a mismatch means a bug or
 * broken hardware: it is reported on stdout and stderr and the exit status
 * is 1.  Bad arguments exit with status 2 before any hashing.
 *
 * This file is the yespower job and the original's output; the parts of
 * the harness are in bench/ (see bench/bench.h), RandomX's
 * (`benchmark --randomx`) in bench/randomx.c.  It uses yespower.h only.
 *
 * Test hook: YESPOWER_BENCHMARK_CORRUPT=J spoils kept hash J of every
 * multi-thread run before it is compared, so that tests-benchmark.sh can
 * prove a mismatch is caught and reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include <omp.h>

#include "yespower.h"
#include "yespower-impl.h"
#include "bench/bench.h"
#include "tools/util.h"

/* Absent when linked with the reference (benchmark-ref), which hashes
 * batches one input at a time. */
#pragma weak yespower_batch_width

static int status;		/* exit status so far: 0 or 1 */

/* ---- the job: one nonce in, one yespower hash out ---- */

typedef struct {
	yespower_params_t params;
	const yespower_preset_t *preset;	/* or NULL */
	int b2b;
	const char *hash_name;			/* "sha256" or "blake2b" */
} yespower_job;

/*
 * The 80-byte input of a nonce: bytes i * 3 as in the original, the last
 * four replaced by the nonce, little-endian.  fixed_nonce() is the nonce
 * whose input is the original's fixed input, all bytes i * 3.
 */
static void make_input(uint8_t src[80], uint64_t nonce)
{
	unsigned i;

	for (i = 0; i < 76; i++)
		src[i] = (uint8_t)(i * 3);
	for (i = 0; i < 4; i++)
		src[76 + i] = (uint8_t)(nonce >> (8 * i));
}

static uint64_t fixed_nonce(void)
{
	return (uint32_t)(76 * 3) | (uint32_t)(77 * 3) << 8 |
	    (uint32_t)(78 * 3) << 16 | (uint32_t)(79 * 3) << 24;
}

/*
 * count inputs: one with the family's single call, several with its batch
 * call (--batch), which computes them interleaved.
 */
static int hash_yespower(const bench_work *w, void *state, uint64_t nonce,
    unsigned count, uint8_t *out)
{
	const yespower_job *job = w->ctx;
	uint8_t src[BENCH_MAX_BATCH][80];
	const uint8_t *srcp[BENCH_MAX_BATCH];
	size_t len[BENCH_MAX_BATCH];
	yespower_binary_t *dst = (yespower_binary_t *)out;
	unsigned i;

	(void)state;
	for (i = 0; i < count; i++) {
		make_input(src[i], nonce + i);
		srcp[i] = src[i];
		len[i] = sizeof(src[i]);
	}
	if (count == 1 && job->preset)
		return yespower_preset_hash(job->preset, src[0], 80, dst);
	if (count == 1)
		return job->b2b ? yespower_b2b_tls(src[0], 80, &job->params,
		    dst) : yespower_tls(src[0], 80, &job->params, dst);
	return job->b2b ? yespower_b2b_batch_tls(srcp, len, count,
	    &job->params, dst) : yespower_batch_tls(srcp, len, count,
	    &job->params, dst);
}

/* Bytes of working memory one hash uses in this library: V (128 * r * N),
 * XY and B (3 blocks of 128 * r) and the S-boxes (8 KiB in 0.5, 96 in
 * 1.0).  64-bit: three of the largest exceed a 32-bit size_t. */
static uint64_t memory_per_hash(const yespower_params_t *p)
{
	uint64_t block = (uint64_t)128 * p->r;

	return block * p->N + 3 * block + (p->version == YESPOWER_0_5 ?
	    8192 : 98304);
}

/* A thread's working memory: one hash's worth per input the library
 * interleaves in a batch call (up to 3). */

static void setup(const bench_options *o, yespower_job *job, bench_work *w)
{
	memset(job, 0, sizeof(*job));
	job->params = o->params;
	job->preset = o->preset;
	job->b2b = o->b2b || (o->preset &&
	    o->preset->hash == YESPOWER_HASH_BLAKE2B);
	job->hash_name = job->b2b ? "blake2b" : "sha256";
	memset(w, 0, sizeof(*w));
	w->ctx = job;
	w->out_size = sizeof(yespower_binary_t);
	w->batch = o->batch;
	w->hash = hash_yespower;
}

/* The original's three header lines, then one of ours. */
static void print_header(const yespower_job *job, const bench_work *w,
    const yespower_binary_t *first)
{
	const yespower_params_t *p = &job->params;
	unsigned i;

	printf("version=%.1f N=%u r=%u\n", p->version * 0.1, p->N, p->r);
	printf("Will use %.2f KiB RAM\n", 0.125 * p->N * p->r);
	for (i = 0; i < sizeof(first->uc); i++)
		printf("%02x%c", first->uc[i],
		    i + 1 < sizeof(first->uc) ? ' ' : '\n');
	if (job->preset)
		printf("preset %s, ", job->preset->name);
	printf("personalization ");
	if (job->preset && job->preset->pers_is_input)
		printf("(the input)");
	else
		util_print_pers(stdout, p->pers, p->perslen);
	printf(", %s, implementation %s", job->hash_name,
	    yespower_impl_name());
	if (w->batch > 1)
		printf(", batches of %u", w->batch);
	putchar('\n');
	fflush(stdout);
}

/*
 * How many inputs per call the library's batch functions interleave for
 * this job: 1 for the reference and for a preset whose personalization is
 * its input (each input would need parameters of its own).
 */
static unsigned library_batch_width(const yespower_job *job)
{
	if (!yespower_batch_width ||
	    (job->preset && job->preset->pers_is_input))
		return 1;
	return yespower_batch_width(&job->params);
}

/* A thread's working memory: as many hashes' as a call interleaves. */
static uint64_t memory_per_thread(const bench_work *w,
    const yespower_job *job)
{
	unsigned k = library_batch_width(job);

	return memory_per_hash(&job->params) * (w->batch < k ? w->batch : k);
}

/* The best throughput line: a run in batches of K, or why there is none. */
static void print_best(const bench_result *res, unsigned K)
{
	if (K < 2) {
		puts("best throughput: one input per call, as above (no "
		    "interleaving for these parameters here)");
		return;
	}
	if (!res->hashes || res->failed) {
		puts("best throughput: FAILED");
		return;
	}
	printf("best throughput: %llu H/s real on %d thread%s in batches of "
	    "%u (yespower_batch_tls)", (unsigned long long)(res->hashes /
	    res->wall), res->threads, res->threads == 1 ? "" : "s", K);
	if (res->mismatches)
		printf(", MISMATCH: %u of %u sampled hashes differ\n",
		    res->mismatches, res->verified);
	else
		printf(", %u hashes verified\n", res->verified);
}

/* ---- JSON ---- */

static void json_params(json_writer *j, const yespower_job *job,
    const bench_work *w, const bench_options *o,
    const yespower_binary_t *first)
{
	const yespower_params_t *p = &job->params;
	int text = p->pers != NULL;
	size_t i;

	for (i = 0; text && i < p->perslen; i++)
		text = p->pers[i] >= ' ' && p->pers[i] < 127;
	json_str(j, "program", "libyespower benchmark");
	json_int(j, "version", p->version);
	json_str(j, "version_name", p->version == YESPOWER_0_5 ? "0.5" :
	    "1.0");
	json_int(j, "N", p->N);
	json_int(j, "r", p->r);
	json_str(j, "preset", job->preset ? job->preset->name : NULL);
	json_str(j, "hash_function", job->hash_name);
	json_bool(j, "pers_is_input", job->preset &&
	    job->preset->pers_is_input);
	if (text) {
		char *s = strndup((const char *)p->pers, p->perslen);

		if (!s)
			bench_out_of_memory();
		json_str(j, "pers", s);
		free(s);
	} else {
		json_str(j, "pers", NULL);
	}
	json_hex(j, "pers_hex", p->pers, p->perslen);
	json_int(j, "memory_per_hash_bytes", (long long)memory_per_hash(p));
	json_int(j, "batch", w->batch);
	json_int(j, "library_batch_width", library_batch_width(job));
	json_hex(j, "first_hash", first->uc, sizeof(first->uc));
	json_str(j, "implementation", yespower_impl_name());
	json_num(j, "seconds", o->seconds);
	json_num(j, "warmup_seconds", o->warmup);
	json_str(j, "affinity", o->affinity_arg ? o->affinity_arg : "none");
}

/* ---- main ---- */

/*
 * The best throughput path: batches of the library's width on the largest
 * thread count of the list, verified against single-threaded answers
 * computed one at a time.
 */
static void run_best(const yespower_job *job, const bench_work *w,
    const bench_options *o)
{
	static uint8_t save[BENCH_NSAVE * BENCH_MAX_OUT];
	static uint8_t ref_out[BENCH_NSAVE * BENCH_MAX_OUT];
	static bench_reference ref;
	uint64_t base = (uint32_t)((uint32_t)time(NULL) * 1812433253U);
	unsigned K = library_batch_width(job);
	bench_work wb = *w;
	bench_settings s;
	bench_result res;
	int threads = 1;
	size_t i;

	if (K < 2) {
		print_best(NULL, K);
		return;
	}
	for (i = 0; i < o->nthreads; i++)
		if (o->threads[i] > threads)
			threads = o->threads[i];
	bench_settings_of(&s, o);
	ref.out = ref_out;
	ref.corrupt = -1;
	ref.quiet = 0;
	wb.batch = K;
	bench_run(&wb, threads, &s, base, save, &res);
	bench_verify(&wb, &ref, base, save, &res);
	if (res.failed || res.mismatches)
		status = 1;
	if (res.mismatches)
		fprintf(stderr, "benchmark: MISMATCH: %u of %u sampled hashes "
		    "in batches of %u differ from single-threaded ones\n",
		    res.mismatches, res.verified, K);
	print_best(&res, K);
	free(res.cpus);
	fflush(stdout);
}

static void json_document(const yespower_job *job, const bench_work *w,
    const bench_options *o, const yespower_binary_t *first,
    const bench_result *runs, char **argv)
{
	json_writer j;
	unsigned long long mismatches = 0;
	size_t i;

	memset(&j, 0, sizeof(j));
	json_open(&j, NULL, '{');
	json_params(&j, job, w, o, first);
	json_invocation(&j, argv);
	json_machine(&j);
	json_open(&j, "runs", '[');
	for (i = 0; runs && i < o->nthreads; i++) {
		json_run(&j, &runs[i], memory_per_hash(&job->params),
		    memory_per_thread(w, job), yespower_impl_name());
		mismatches += runs[i].mismatches;
	}
	json_close(&j, ']');
	if (o->components && bench_components(o, w, &j))
		status = 1;
	json_int(&j, "mismatches", (long long)mismatches);
	json_bool(&j, "ok", !status);
	json_close(&j, '}');
	putchar('\n');
}

int main(int argc, char **argv)
{
	static bench_options o;
	yespower_job job;
	bench_work w;
	yespower_binary_t first;
	bench_result *runs = NULL;
	size_t i;

	bench_parse_args(&o, argc, argv);
	if (o.randomx)
		return bench_randomx(&o, argv);
	if (o.hashes)
		return bench_hashes(&o, argv);
	setup(&o, &job, &w);
	omp_set_dynamic(0);

	if (w.hash(&w, NULL, fixed_nonce(), 1, first.uc)) {
		perror("benchmark: the first hash failed");
		if (!o.json)
			puts("FAILED");
		return 1;
	}
	if (!o.json)
		print_header(&job, &w, &first);
	if (o.components && !o.json) {
		if (bench_components(&o, &w, NULL))
			status = 1;
	} else if (!o.components) {
		if (!(runs = calloc(o.nthreads, sizeof(*runs))))
			bench_out_of_memory();
		if (bench_run_all(&w, &o, runs, memory_per_hash(&job.params),
		    memory_per_thread(&w, &job), yespower_impl_name()))
			status = 1;
		if (!o.json && w.batch == 1)
			run_best(&job, &w, &o);
	}
	if (o.json)
		json_document(&job, &w, &o, &first, runs, argv);

	for (i = 0; runs && i < o.nthreads; i++)
		free(runs[i].cpus);
	free(runs);
	free(o.pers_buf);
	return status;
}
