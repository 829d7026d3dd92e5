/*
 * bench/bench.h: the parts of the benchmark (benchmark.c is its main).
 *
 *   options.c     the command line (getopt_long) into bench_options
 *   affinity.c    which CPUs this process may use; pinning orders; pinning
 *   harness.c     one thread count measured: threads hash nonces for a
 *                 while, each call timed; then the results verified
 *                 against single-threaded ones
 *   report.c      every thread count in turn, printed as the original
 *   json.c        the JSON writer and the machine's description
 *   parts.c       one part of a hash timed on its own: a component row
 *   components.c  the parts of a yespower hash, timed one by one
 *   randomx.c     RandomX: cache, dataset, VMs on the harness, and its
 *                 component rows (randomx-components.c)
 *   hashes.c      the hashing API's tables (SHA-256, recursive, Merkle)
 *
 * The harness knows nothing of yespower: it runs a bench_work, whose
 * hash function turns nonces into outputs of a fixed size.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "yespower.h"

#define BENCH_NSAVE 1000	/* outputs kept per run for verification */
#define BENCH_MAX_THREADS 1024	/* per run; more than CPUs is allowed */
#define BENCH_MAX_LIST 256	/* entries of -t and --affinity lists */
#define BENCH_MAX_CPU 4096	/* highest CPU number accepted + 1 */
#define BENCH_MAX_BATCH 64	/* outputs per call */
#define BENCH_MAX_OUT 64	/* bytes of one output */

/* ---- the work ---- */

typedef struct bench_work bench_work;

/*
 * What the harness measures.  hash(w, state, nonce, count, out) computes
 * the outputs of nonces nonce .. nonce + count - 1 into out (count *
 * out_size bytes) and returns 0, or -1 on error; count is w->batch, or 1
 * when the harness wants the one-at-a-time answer to verify against.  It
 * is called from many threads at once, each with its own state: what
 * thread_start (if not NULL) made for that thread, released by
 * thread_end.  In a measured run, ahead (if not NULL) is told before
 * each call the first nonce of the thread's next call, which the harness
 * takes from the counter one call early: a work that pipelines (RandomX's
 * calculate_hash_next hashes the next input while it finishes the
 * current one) starts that nonce within the current call.  A call not
 * told (warm-up, verification, the run's last) ends its pipeline.
 */
struct bench_work {
	const void *ctx;		/* for hash() */
	size_t out_size;		/* 1 .. BENCH_MAX_OUT */
	unsigned batch;			/* 1 .. BENCH_MAX_BATCH */
	int (*thread_start)(const bench_work *w, void **state);
	void (*thread_end)(const bench_work *w, void *state);
	int (*hash)(const bench_work *w, void *state, uint64_t nonce,
	    unsigned count, uint8_t *out);
	void (*ahead)(const bench_work *w, void *state, uint64_t nonce);
};

/* ---- the command line ---- */

typedef enum { AFFINITY_NONE, AFFINITY_COMPACT, AFFINITY_SCATTER,
    AFFINITY_LIST } bench_affinity;

typedef struct {
	/* yespower */
	yespower_params_t params;
	int npositional;
	const char *first_positional;	/* for conflict messages */
	const char *pers_option;	/* the personalization option used */
	uint8_t *pers_buf;		/* --pers-hex's bytes */
	const yespower_preset_t *preset;
	int b2b;
	unsigned batch;			/* --batch, or 1 */
	const char *impl;
	/* RandomX (--randomx) */
	int randomx, rx_v2, rx_full, rx_large_pages, rx_soft_aes;
	int rx_interpreter;
	uint32_t rx_seed;		/* --seed: the key's 4 bytes */
	int rx_seed_given, rx_init;	/* --init: dataset threads */
	unsigned long rx_nonces;	/* --nonces, or 0: timed runs */
	/* the hashing API (--hashes) */
	int hashes, cpu_time, merkle_given, merkle_min, merkle_max;
	double ghz;
	const char *only;
	/* the harness */
	int json, components, seconds_given;
	int threads[BENCH_MAX_LIST];
	size_t nthreads;
	double seconds, warmup;
	bench_affinity affinity;
	const char *affinity_arg;
	int cpus[BENCH_MAX_CPU];	/* pinning order: thread i on */
	size_t ncpus;			/* cpus[i % ncpus]; 0: none */
} bench_options;

/*
 * bench_parse_args(o, argc, argv): the whole command line into o.  Options
 * and the positional arguments may come in any order; "--" ends the
 * options.  Exits 2 on the first invalid argument (one line on stderr),
 * 0 after -h or --list-presets.
 */
void bench_parse_args(bench_options *o, int argc, char **argv);

/* usage_error(fmt, ...): "benchmark: MESSAGE (see benchmark -h)", exit 2. */
void bench_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* "benchmark: out of memory" and exit 1. */
void bench_out_of_memory(void) __attribute__((noreturn));

/* ---- CPUs ---- */

/* The CPUs this process may run on, as it started (before any pinning). */
void bench_find_allowed_cpus(void);
size_t bench_allowed_cpus(const int **cpus);

/*
 * bench_affinity_order(cpus, scatter): the allowed CPUs in pinning order
 * into cpus[] (room for BENCH_MAX_CPU); returns how many.  compact fills a
 * core's hardware threads before the next core; scatter takes one hardware
 * thread of every core, alternating packages, before any core's second.
 */
size_t bench_affinity_order(int *cpus, int scatter);

/* Whether threads can be pinned here; pin the calling thread to cpu (0, or
 * -1 if that failed). */
int bench_can_pin(void);
int bench_pin_thread(int cpu);

/* The CPU the calling thread runs on, or -1. */
int bench_current_cpu(void);

/* Write cpus[0 .. n - 1] (ascending) as "0-3,6" into buf. */
void bench_format_cpu_list(const int *cpus, size_t n, char *buf,
    size_t size);

/*
 * bench_parse_list(s, min, max, out, max_out): "a,b-c,..." into out[], in
 * order, each number in [min, max], ranges ascending.  Returns the count,
 * or 0 if s is empty or malformed.
 */
size_t bench_parse_list(const char *s, unsigned long min, unsigned long max,
    int *out, size_t max_out);

/* ---- one run ---- */

/* How runs are made. */
typedef struct {
	double seconds, warmup;
	const int *cpus;		/* pinning order, or NULL */
	size_t ncpus;
	int progress;			/* show progress on stderr */
} bench_settings;

/* What a run reports. */
typedef struct {
	int threads;
	unsigned long long hashes;
	double wall, cpu;
	double lat_min, lat_p50, lat_p90, lat_p99, lat_max, lat_mean;
	unsigned verified, mismatches;
	int reference, failed, pinned;
	int *cpus;			/* each thread's CPU at its start */
	unsigned long migrations;
	long long huge_bytes, rss_peak_bytes;	/* -1: unknown */
	/* Which of the first BENCH_NSAVE nonces were hashed and kept (each
	 * thread's last reserved call is not hashed). */
	unsigned char saved[BENCH_NSAVE];
} bench_result;

/*
 * bench_run(w, threads, s, base, save, res): measure one thread count.
 * Threads hash consecutive nonces from base until the time is up; every
 * call's latency is recorded, and the outputs of nonces base .. base +
 * BENCH_NSAVE - 1 are kept in save (BENCH_NSAVE * w->out_size bytes),
 * res->saved saying which.
 * Free res->cpus when done.
 */
void bench_run(const bench_work *w, int threads, const bench_settings *s,
    uint64_t base, uint8_t *save, bench_result *res);

/* The single-threaded answers that runs are verified against. */
typedef struct {
	uint8_t *out;			/* BENCH_NSAVE outputs */
	unsigned char have[BENCH_NSAVE];
	int corrupt;			/* test hook: sample to spoil, or -1 */
	int quiet;			/* no "Mismatch at" lines on stdout */
} bench_reference;

/*
 * bench_verify(w, ref, base, save, res): compare a run's kept outputs
 * (res->saved) with the reference.  A 1-thread run without batches or a
 * pipeline (w->ahead) fills the reference where it is empty; for the
 * others, up to max(32, 2 * threads * batch) missing samples are
 * computed now, one at a time, on this thread.  Sets
 * res->verified and res->mismatches; each mismatch is reported.
 */
void bench_verify(const bench_work *w, bench_reference *ref, uint64_t base,
    const uint8_t *save, bench_result *res);

/* The run settings the options o ask for (duration, warm-up, pinning). */
void bench_settings_of(bench_settings *s, const bench_options *o);

/*
 * bench_run_all(w, o, runs, per_hash, per_thread, impl): every thread
 * count of o in turn (bench_run), each verified (bench_verify) and, but
 * with --json, printed in the original's lines and ours, with its memory
 * (per_hash bytes per hash, per_thread per thread) and the implementation
 * impl; results into runs[0 .. o->nthreads - 1].  Returns 1 if a run
 * failed or mismatched, else 0.  Test hook: YESPOWER_BENCHMARK_CORRUPT=J
 * spoils kept hash J of every multi-thread run before it is compared.
 */
int bench_run_all(const bench_work *w, const bench_options *o,
    bench_result *runs, uint64_t per_hash, uint64_t per_thread,
    const char *impl);

/* The number after "Key:" in a /proc file (kB for sizes), or -1. */
long long bench_proc_kib(const char *path, const char *key);

/* ---- JSON ---- */

typedef struct {
	int depth;
	int items[16];			/* items so far at each depth */
} json_writer;

void json_open(json_writer *j, const char *key, char bracket);
void json_close(json_writer *j, char bracket);
void json_str(json_writer *j, const char *key, const char *v);
void json_num(json_writer *j, const char *key, double v);
void json_int(json_writer *j, const char *key, long long v);
void json_bool(json_writer *j, const char *key, int v);
void json_count(json_writer *j, const char *key, long long v); /* <0: null */
void json_hex(json_writer *j, const char *key, const uint8_t *p,
    size_t len);

/* The CPU's model name (/proc/cpuinfo), or "unknown". */
void bench_cpu_model(char *buf, size_t size);

/* "machine": the CPU, CPUs online and allowed, huge pages, OS, compiler. */
void json_machine(json_writer *j);

/* "argv" and "time": the command line and when it ran. */
void json_invocation(json_writer *j, char **argv);

/* One run as an object, with its memory figures and implementation. */
void json_run(json_writer *j, const bench_result *res, uint64_t per_hash,
    uint64_t per_thread, const char *implementation);

/* ---- components ---- */

/*
 * One part of a hash, timed on its own (bench/parts.c).  fn(p, count) runs
 * the part count times (count 0: only its setup) and returns a value that
 * depends on the work, so that it cannot be left out; it sets p->failed
 * on an error.  rate is per_call units of unit per call.
 */
typedef struct bench_part bench_part;
typedef uint32_t (*bench_part_fn)(bench_part *p, uint64_t count);
struct bench_part {
	char name[96];
	const char *unit;		/* of rate */
	double per_call;
	int in_hash;			/* part of every hash's cost */
	bench_part_fn fn;
	int failed;
	/* results */
	uint64_t calls;
	double seconds, rate;
};

/* Time p for about target seconds; then print it as a row, or as JSON. */
void bench_part_measure(bench_part *p, double target);
void bench_part_print(const bench_part *p);
void bench_part_json(json_writer *j, const bench_part *p);

/*
 * bench_components(o, job_hash, out_json): time every part of a hash of
 * o's parameters on this thread (pinned to the first CPU of --affinity),
 * for o->seconds each; in text mode print them as they come, with JSON
 * append them to j under "components".  whole is the whole hash, timed
 * last.  Returns nonzero if a part failed.
 */
int bench_components(const bench_options *o, const bench_work *whole,
    json_writer *j);

/* ---- the hashing API (bench/hashes.c) ---- */

/*
 * bench_hashes(o, argv): `benchmark --hashes`: the SHA-256, recursive and
 * Merkle tables of the hashing API's implementations; the exit status.
 */
int bench_hashes(const bench_options *o, char **argv);

/* ---- RandomX (bench/randomx.c, bench/randomx-components.c) ---- */

/*
 * bench_randomx(o, argv): the whole `benchmark --randomx` run as o says;
 * returns the exit status (0, or 1 if a hash failed or mismatched or the
 * memory could not be had).
 */
int bench_randomx(const bench_options *o, char **argv);

/*
 * bench_randomx_components(o, flags, j): the parts of a hash with those
 * randomx_flags, timed on this thread; printed, or into j under
 * "components".  Nonzero if a part failed.
 */
#include "randomx/randomx.h"
int bench_randomx_components(const bench_options *o, randomx_flags flags,
    json_writer *j);

#endif /* !BENCH_BENCH_H */
