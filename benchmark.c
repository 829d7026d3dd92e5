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
 *
 * Inputs are 80-byte "headers" whose last 4 bytes are a nonce, all
 * different.  Every run hashes nonces base, base + 1, ... and keeps the
 * first NSAVE hashes.  A 1-thread run's hashes become the reference; a
 * multi-thread run's are compared with it, and samples that no 1-thread run
 * produced are recomputed on the main thread alone.  A mismatch means a bug
 * or broken hardware: it is reported on stdout and stderr and the exit status
 * is 1.  Bad arguments exit with status 2 before any hashing.
 *
 * The unit of work is job_hash_fn (one nonce in, one hash out): swapping it
 * is how other ways of hashing (a batch API) get benchmarked.
 *
 * Test hook: YESPOWER_BENCHMARK_CORRUPT=J spoils kept hash J of every
 * multi-thread run before it is compared, so that tests-benchmark.sh can
 * prove a mismatch is caught and reported.
 */
#define _GNU_SOURCE 1	/* sched_getcpu, pthread_setaffinity_np, CPU_SET */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/utsname.h>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#define HAVE_AFFINITY 1
#endif

#ifndef _OPENMP
#error "benchmark needs OpenMP: build it with -fopenmp"
#endif
#include <omp.h>

#include "yespower.h"
#include "yespower-impl.h"
#include "sha256.h"
#include "blake2b.h"

/*
 * The component drivers exist only in the optimized library; benchmark-ref
 * links the reference implementation, which lacks them.  A weak reference
 * is NULL there, and --components then times only what exists.
 */
#pragma weak yespower_run_component

#define NSAVE 1000		/* hashes kept per run for verification */
#define MAX_THREADS 1024	/* per run; more than CPUs is allowed */
#define MAX_LIST 256		/* entries of -t and --affinity lists */
#define MAX_CPU 4096		/* highest CPU number accepted + 1 */

static int status;		/* exit status so far: 0 or 1 */

/* ---- small helpers ---- */

static double now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static double wall(void)
{
	return now(CLOCK_MONOTONIC);
}

/* True for a finite double: NaN and infinities give NaN here. */
static int is_finite(double v)
{
	return v - v == 0;
}

/*
 * usage_error(fmt, ...): print "benchmark: " and the message as one line on
 * stderr and exit with status 2.  Every argument error ends here, so nothing
 * has been hashed yet.
 */
static void usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("benchmark: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see benchmark -h)\n", stderr);
	exit(2);
}

/* Write cpus[0 .. n - 1] (ascending) as "0-3,6" into buf. */
static void format_cpu_list(const int *cpus, size_t n, char *buf, size_t size)
{
	size_t i = 0, used = 0;

	buf[0] = '\0';
	while (i < n && used < size) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			used += snprintf(buf + used, size - used, "%s%d-%d",
			    used ? "," : "", cpus[i], cpus[j]);
		else
			used += snprintf(buf + used, size - used, "%s%d",
			    used ? "," : "", cpus[i]);
		i = j + 1;
	}
}

/* ---- what one hash is: the job ---- */

typedef struct bench_job bench_job;

/*
 * A job_hash_fn hashes the input of one nonce into *dst and returns 0, or
 * -1 on error.  It is called from many threads at once.
 */
typedef int (*job_hash_fn)(const bench_job *job, uint32_t nonce,
    yespower_binary_t *dst);

/*
 * A job_batch_fn hashes the inputs of nonces nonce .. nonce + count - 1
 * into dst[0 .. count - 1] with one batch call (--batch).
 */
typedef int (*job_batch_fn)(const bench_job *job, uint32_t nonce,
    unsigned count, yespower_binary_t *dst);

struct bench_job {
	yespower_params_t params;
	const yespower_preset_t *preset;	/* or NULL */
	job_hash_fn hash;
	job_batch_fn hash_batch;		/* used when batch > 1 */
	unsigned batch;				/* hashes per call */
	const char *hash_name;			/* "sha256" or "blake2b" */
};

/*
 * The 80-byte input of a nonce: bytes i * 3 as in the original, the last
 * four replaced by the nonce, little-endian.  fixed_nonce() is the nonce
 * whose input is the original's fixed input, all bytes i * 3.
 */
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

static uint32_t fixed_nonce(void)
{
	return (uint32_t)(76 * 3) | (uint32_t)(77 * 3) << 8 |
	    (uint32_t)(78 * 3) << 16 | (uint32_t)(79 * 3) << 24;
}

static int hash_sha256(const bench_job *job, uint32_t nonce,
    yespower_binary_t *dst)
{
	uint8_t src[80];

	make_input(src, nonce);
	return yespower_tls(src, sizeof(src), &job->params, dst);
}

static int hash_b2b(const bench_job *job, uint32_t nonce,
    yespower_binary_t *dst)
{
	uint8_t src[80];

	make_input(src, nonce);
	return yespower_b2b_tls(src, sizeof(src), &job->params, dst);
}

static int hash_preset(const bench_job *job, uint32_t nonce,
    yespower_binary_t *dst)
{
	uint8_t src[80];

	make_input(src, nonce);
	return yespower_preset_hash(job->preset, src, sizeof(src), dst);
}

#define MAX_BATCH 64

/* --batch: count inputs in one call of the family's batch function. */
static int hash_batch(const bench_job *job, uint32_t nonce, unsigned count,
    yespower_binary_t *dst)
{
	uint8_t src[MAX_BATCH][80];
	const uint8_t *srcp[MAX_BATCH];
	size_t len[MAX_BATCH];
	unsigned i;

	for (i = 0; i < count; i++) {
		make_input(src[i], nonce + i);
		srcp[i] = src[i];
		len[i] = sizeof(src[i]);
	}
	if (!strcmp(job->hash_name, "blake2b"))
		return yespower_b2b_batch_tls(srcp, len, count, &job->params,
		    dst);
	return yespower_batch_tls(srcp, len, count, &job->params, dst);
}

/*
 * Bytes of working memory one hash uses in this library: V (128 * r * N),
 * XY and B (3 blocks of 128 * r) and the S-boxes.
 */
static size_t memory_per_hash(const yespower_params_t *p);

/* A thread's working memory: the library keeps one hash's worth per input
 * it interleaves in a batch call. */
static size_t memory_per_thread(const bench_job *job)
{
	return memory_per_hash(&job->params) * (job->batch < YESPOWER_KMAX ?
	    job->batch : YESPOWER_KMAX);
}

static size_t memory_per_hash(const yespower_params_t *p)
{
	size_t block = (size_t)128 * p->r;

	return block * p->N + 3 * block + (p->version == YESPOWER_0_5 ?
	    YESPOWER_SBYTES_0_5 : YESPOWER_SBYTES_1_0);
}

/* ---- the command line ---- */

typedef enum { AFFINITY_NONE, AFFINITY_COMPACT, AFFINITY_SCATTER,
    AFFINITY_LIST } affinity_mode;

typedef struct {
	yespower_params_t params;
	int npositional;
	const char *first_positional;	/* for conflict messages */
	const char *pers_option;	/* the personalization option used */
	uint8_t *pers_buf;		/* --pers-hex's bytes */
	const yespower_preset_t *preset;
	int b2b, json, components, seconds_given;
	unsigned batch;			/* --batch, or 1 */
	const char *impl;
	int threads[MAX_LIST];
	size_t nthreads;
	double seconds, warmup;
	affinity_mode affinity;
	const char *affinity_arg;
	int cpus[MAX_LIST > MAX_CPU ? MAX_LIST : MAX_CPU];
	size_t ncpus;			/* pinning order: thread i on
					   cpus[i % ncpus] */
} options;

static void print_usage(void)
{
	fputs(
"usage: benchmark [options] [version [N [r]]]\n"
"  version  5 (yespower 0.5) or 10 (yespower 1.0); default 5\n"
"  N        a power of 2 from 1024 to 524288; default 2048\n"
"  r        8 to 32; default 8\n"
"The personalization is \"Client Key\" unless an option below sets it.\n"
"Options (a value may also follow as -tVALUE or --name=VALUE):\n"
"  -t LIST           thread counts, run in turn: 1,2,4 or 1-4 or 1,4-6\n"
"                    (default: 1, then omp_get_max_threads(), which\n"
"                    OMP_NUM_THREADS sets)\n"
"  -s SECONDS        measure each thread count at least this long (default\n"
"                    2); with --components, each part (default 0.25)\n"
"  -w SECONDS        hash this long on every thread first, uncounted\n"
"                    (default 0: one uncounted hash per thread)\n"
"  --pers STRING     personalization\n"
"  --pers-hex HEX    personalization as hex bytes\n"
"  --no-pers         no personalization (NULL)\n"
"  --preset NAME     a chain's parameters and personalization\n"
"  --list-presets    list the presets\n"
"  --b2b             power2b: BLAKE2b in place of SHA-256 (version 10)\n"
"  --impl NAME       mixing core: portable, sse2, avx, xop, avx512vl, auto\n"
"  --batch K         hash K inputs per call with yespower_batch_tls, which\n"
"                    computes several interleaved (1 to 64; default 1:\n"
"                    yespower_tls); latency is then per call\n"
"  --affinity MODE   pin threads: none (default), compact, scatter, or a\n"
"                    CPU list such as 0,2-3 (thread i on the i-th CPU)\n"
"  --json            one JSON document on stdout instead of text\n"
"  --components      time the parts of a hash, one thread, instead\n"
"  -h, --help        this help\n"
"Exit status: 0 ok, 1 a hash failed or mismatched, 2 bad arguments.\n",
	    stdout);
}

static void list_presets(void)
{
	const yespower_preset_t *p;
	size_t i;

	for (i = 0; (p = yespower_preset_at(i)); i++)
		printf("%-16s %s %6u %2u  %s%s\n", p->name,
		    p->params.version == YESPOWER_0_5 ? "0.5" : "1.0",
		    p->params.N, p->params.r, p->coins,
		    p->hash == YESPOWER_HASH_BLAKE2B ? " [BLAKE2b]" : "");
}

/*
 * parse_number(s, min, max, out): a whole decimal number (digits only: no
 * sign, space or base prefix) in [min, max].  Returns 0, or -1 if s is not.
 */
static int parse_number(const char *s, unsigned long min, unsigned long max,
    unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > (max - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

/* A duration for -s / -w: a plain decimal number from 0 to a day. */
static double parse_seconds(const char *name, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!isdigit((unsigned char)s[0]) && s[0] != '.')
		end = (char *)s;
	if (end == s || *end || errno || !is_finite(v) || v < 0 || v > 86400)
		usage_error("invalid %s '%s' (seconds, from 0 to 86400)",
		    name, s);
	return v;
}

/*
 * parse_list(s, min, max, out, max_out): "a,b-c,..." into out[], in order,
 * each number in [min, max], ranges ascending.  Returns the count, or 0 if s
 * is empty or malformed (an empty item, a reversed range, a non-number).
 */
static size_t parse_list(const char *s, unsigned long min, unsigned long max,
    int *out, size_t max_out)
{
	size_t n = 0;

	for (;;) {
		char item[32], *dash;
		size_t len = strcspn(s, ",");
		unsigned long a, b;

		if (len == 0 || len >= sizeof(item))
			return 0;
		memcpy(item, s, len);
		item[len] = '\0';
		if ((dash = strchr(item, '-')))
			*dash++ = '\0';
		if (parse_number(item, min, max, &a) ||
		    parse_number(dash ? dash : item, min, max, &b) || b < a ||
		    b - a >= max_out - n)
			return 0;
		while (a <= b)
			out[n++] = (int)a++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}

static void parse_threads(options *o, const char *s)
{
	o->nthreads = parse_list(s, 1, MAX_THREADS, o->threads, MAX_LIST);
	if (!o->nthreads)
		usage_error("invalid thread list '%s' for -t (counts from 1 to "
		    "%d, such as 1,2,4 or 1-4)", s, MAX_THREADS);
}

static void parse_pers_hex(options *o, const char *s)
{
	size_t i, len = strlen(s);

	if (len % 2 || !(o->pers_buf = malloc(len / 2 + 1)))
		usage_error("invalid --pers-hex '%s' (an even number of hex "
		    "digits)", s);
	for (i = 0; i < len; i++) {
		int c = tolower((unsigned char)s[i]);
		int v = isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ?
		    c - 'a' + 10 : -1;

		if (v < 0)
			usage_error("invalid --pers-hex '%s' (not hex)", s);
		if (i % 2)
			o->pers_buf[i / 2] |= (uint8_t)v;
		else
			o->pers_buf[i / 2] = (uint8_t)(v << 4);
	}
	o->params.pers = o->pers_buf;
	o->params.perslen = len / 2;
}

static void set_pers(options *o, const char *option, const char *value)
{
	if (o->pers_option)
		usage_error("%s conflicts with %s", option, o->pers_option);
	o->pers_option = option;
	if (!strcmp(option, "--pers")) {
		o->params.pers = (const uint8_t *)value;
		o->params.perslen = strlen(value);
	} else if (!strcmp(option, "--pers-hex")) {
		parse_pers_hex(o, value);
	} else {
		o->params.pers = NULL;
		o->params.perslen = 0;
	}
}

/* The positional arguments: version, N, r. */
static void parse_positional(options *o, const char *s)
{
	unsigned long v;

	if (!o->npositional)
		o->first_positional = s;
	switch (o->npositional++) {
	case 0:
		if (parse_number(s, 5, 10, &v) || (v != 5 && v != 10))
			usage_error("invalid version '%s' (5 or 10)", s);
		o->params.version = (yespower_version_t)v;
		break;
	case 1:
		if (parse_number(s, 1024, 524288, &v) || (v & (v - 1)))
			usage_error("invalid N '%s' (a power of 2 from 1024 "
			    "to 524288)", s);
		o->params.N = (uint32_t)v;
		break;
	case 2:
		if (parse_number(s, 8, 32, &v))
			usage_error("invalid r '%s' (8 to 32)", s);
		o->params.r = (uint32_t)v;
		break;
	default:
		usage_error("unexpected argument '%s'", s);
	}
}

/* ---- CPUs and pinning ---- */

/* The CPUs this process may run on, ascending, as it started. */
static int allowed[MAX_CPU];
static size_t nallowed;

/*
 * find_allowed_cpus(): fill allowed[] once, before any thread is pinned
 * (pinning the main thread changes what sched_getaffinity reports).
 */
static void find_allowed_cpus(void)
{
#ifdef HAVE_AFFINITY
	cpu_set_t set;
	int c;

	if (!sched_getaffinity(0, sizeof(set), &set))
		for (c = 0; c < CPU_SETSIZE && nallowed < MAX_CPU; c++)
			if (CPU_ISSET(c, &set))
				allowed[nallowed++] = c;
#endif
	if (!nallowed) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		while ((long)nallowed < online && nallowed < MAX_CPU) {
			allowed[nallowed] = (int)nallowed;
			nallowed++;
		}
	}
}

typedef struct {
	int cpu, package, core, rank, core_index;
} cpu_place;

static int read_topology(int cpu, const char *what)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path),
	    "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int by_core(const void *a, const void *b)
{
	const cpu_place *x = a, *y = b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int by_spread(const void *a, const void *b)
{
	const cpu_place *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->core_index != y->core_index)
		return x->core_index < y->core_index ? -1 : 1;
	return by_core(a, b);
}

/*
 * affinity_order(o, scatter): the allowed CPUs in pinning order into
 * o->cpus.  compact fills a core's hardware threads before the next core
 * (threads share caches); scatter takes one hardware thread of every core,
 * alternating packages, before any core's second.  Without topology
 * information both are the CPUs in ascending order.
 */
static void affinity_order(options *o, int scatter)
{
	static cpu_place place[MAX_CPU];
	size_t i, n = nallowed;

	for (i = 0; i < n; i++) {
		place[i].cpu = allowed[i];
		place[i].package = read_topology(allowed[i],
		    "physical_package_id");
		place[i].core = read_topology(allowed[i], "core_id");
	}
	qsort(place, n, sizeof(place[0]), by_core);
	for (i = 0; i < n; i++) {
		int same_package = i && place[i].package == place[i - 1].package;
		int same_core = same_package && place[i].core == place[i - 1].core;

		place[i].rank = same_core ? place[i - 1].rank + 1 : 0;
		place[i].core_index = !same_package ? 0 : same_core ?
		    place[i - 1].core_index : place[i - 1].core_index + 1;
	}
	if (scatter)
		qsort(place, n, sizeof(place[0]), by_spread);
	for (i = 0; i < n; i++)
		o->cpus[i] = place[i].cpu;
	o->ncpus = n;
}

/* --affinity CPU-LIST: every CPU must be one this process may use. */
static void affinity_list(options *o, const char *s)
{
	size_t i, j;
	char buf[256];

	o->ncpus = parse_list(s, 0, MAX_CPU - 1, o->cpus, MAX_LIST);
	if (!o->ncpus)
		usage_error("invalid --affinity '%s' (none, compact, scatter "
		    "or a CPU list such as 0,2-3)", s);
	for (i = 0; i < o->ncpus; i++) {
		for (j = 0; j < nallowed && allowed[j] != o->cpus[i]; j++)
			;
		if (j == nallowed) {
			format_cpu_list(allowed, nallowed, buf, sizeof(buf));
			usage_error("invalid --affinity '%s': CPU %d is not "
			    "available (these are: %s)", s, o->cpus[i], buf);
		}
	}
}

static void parse_affinity(options *o, const char *s)
{
	o->affinity_arg = s;
	if (!strcmp(s, "none")) {
		o->affinity = AFFINITY_NONE;
		return;
	}
#ifndef HAVE_AFFINITY
	usage_error("--affinity '%s': thread pinning is not supported here",
	    s);
#endif
	if (!strcmp(s, "compact") || !strcmp(s, "scatter")) {
		o->affinity = s[0] == 'c' ? AFFINITY_COMPACT : AFFINITY_SCATTER;
		affinity_order(o, o->affinity == AFFINITY_SCATTER);
	} else {
		o->affinity = AFFINITY_LIST;
		affinity_list(o, s);
	}
}

/* ---- option table and the parser proper ---- */

enum { OPT_THREADS, OPT_SECONDS, OPT_WARMUP, OPT_HELP, OPT_PERS,
    OPT_PERS_HEX, OPT_NO_PERS, OPT_PRESET, OPT_LIST_PRESETS, OPT_B2B,
    OPT_IMPL, OPT_AFFINITY, OPT_JSON, OPT_COMPONENTS, OPT_BATCH };

static const struct {
	char letter;		/* -x, or 0 */
	const char *name;	/* --name */
	int has_value;
	int id;
} option_table[] = {
	{ 't', "threads", 1, OPT_THREADS },
	{ 's', "seconds", 1, OPT_SECONDS },
	{ 'w', "warmup", 1, OPT_WARMUP },
	{ 'h', "help", 0, OPT_HELP },
	{ 0, "pers", 1, OPT_PERS },
	{ 0, "pers-hex", 1, OPT_PERS_HEX },
	{ 0, "no-pers", 0, OPT_NO_PERS },
	{ 0, "preset", 1, OPT_PRESET },
	{ 0, "list-presets", 0, OPT_LIST_PRESETS },
	{ 0, "b2b", 0, OPT_B2B },
	{ 0, "impl", 1, OPT_IMPL },
	{ 0, "affinity", 1, OPT_AFFINITY },
	{ 0, "json", 0, OPT_JSON },
	{ 0, "components", 0, OPT_COMPONENTS },
	{ 0, "batch", 1, OPT_BATCH },
};

#define NOPTIONS (sizeof(option_table) / sizeof(option_table[0]))

/*
 * find_option(arg, value): the table index of the option arg names ("-t",
 * "-t4", "--threads", "--threads=4"), with *value set to an attached value
 * or NULL.  An unknown option is a usage error.
 */
static size_t find_option(const char *arg, const char **value)
{
	size_t i, len;

	*value = NULL;
	for (i = 0; i < NOPTIONS; i++) {
		if (arg[1] != '-') {
			if (arg[1] == option_table[i].letter) {
				if (arg[2])
					*value = arg + 2;
				return i;
			}
			continue;
		}
		len = strlen(option_table[i].name);
		if (!strncmp(arg + 2, option_table[i].name, len) &&
		    (!arg[2 + len] || arg[2 + len] == '=')) {
			if (arg[2 + len])
				*value = arg + 3 + len;
			return i;
		}
	}
	usage_error("unknown option '%s'", arg);
}

/* Act on one option; name is how the user spelled it, for messages. */
static void apply_option(options *o, int id, const char *name,
    const char *value)
{
	switch (id) {
	case OPT_THREADS:
		parse_threads(o, value);
		break;
	case OPT_SECONDS:
		o->seconds = parse_seconds(name, value);
		o->seconds_given = 1;
		break;
	case OPT_WARMUP:
		o->warmup = parse_seconds(name, value);
		break;
	case OPT_HELP:
		print_usage();
		exit(0);
	case OPT_LIST_PRESETS:
		list_presets();
		exit(0);
	case OPT_PERS:
		set_pers(o, "--pers", value);
		break;
	case OPT_PERS_HEX:
		set_pers(o, "--pers-hex", value);
		break;
	case OPT_NO_PERS:
		set_pers(o, "--no-pers", NULL);
		break;
	case OPT_PRESET:
		if (!(o->preset = yespower_preset_find(value)))
			usage_error("unknown --preset '%s' (see "
			    "--list-presets)", value);
		break;
	case OPT_B2B:
		o->b2b = 1;
		break;
	case OPT_IMPL:
		o->impl = value;
		break;
	case OPT_AFFINITY:
		parse_affinity(o, value);
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_COMPONENTS:
		o->components = 1;
		break;
	case OPT_BATCH: {
		unsigned long v;

		if (parse_number(value, 1, MAX_BATCH, &v))
			usage_error("invalid %s '%s' (expected 1 to %d)", name,
			    value, MAX_BATCH);
		o->batch = (unsigned)v;
		break;
	}
	}
}

/*
 * check_options(o): what no single argument shows: conflicts between
 * options, power2b's version, the core asked for, the default thread list.
 */
static void check_options(options *o)
{
	if (o->preset && o->npositional)
		usage_error("argument '%s' conflicts with --preset",
		    o->first_positional);
	if (o->preset && o->pers_option)
		usage_error("%s conflicts with --preset", o->pers_option);
	if (o->preset && o->b2b)
		usage_error("--b2b conflicts with --preset (the preset says "
		    "which hash it uses)");
	if (!o->batch)
		o->batch = 1;
	if (o->batch > 1 && o->preset && o->preset->pers_is_input)
		usage_error("--batch conflicts with --preset %s (each input "
		    "is its own personalization)", o->preset->name);
	if (o->batch > 1 && o->components)
		usage_error("--batch conflicts with --components");
	if (o->b2b && o->npositional && o->params.version != YESPOWER_1_0)
		usage_error("--b2b needs version 10, not '%s'",
		    o->first_positional);
	if (o->b2b)
		o->params.version = YESPOWER_1_0;
	if (o->preset)
		o->params = o->preset->params;
	if (o->impl && yespower_set_impl(o->impl))
		usage_error("invalid --impl '%s' (%s)", o->impl,
		    errno == ENOTSUP ? "this CPU cannot run it" :
		    "no such core in this build");
	if (!o->nthreads) {
		o->threads[o->nthreads++] = 1;
		o->threads[o->nthreads++] = omp_get_max_threads();
	}
	if (!o->seconds_given)
		o->seconds = o->components ? 0.25 : 2.0;
}

/*
 * parse_args(o, argc, argv): the whole command line into o.  Options and
 * the positional arguments may come in any order; "--" ends the options.
 * Exits 2 on the first invalid argument, 0 after -h or --list-presets.
 */
static void parse_args(options *o, int argc, char **argv)
{
	int i, positional_only = 0;

	find_allowed_cpus();
	memset(o, 0, sizeof(*o));
	o->params.version = YESPOWER_0_5;
	o->params.N = 2048;
	o->params.r = 8;
	o->params.pers = (const uint8_t *)"Client Key";
	o->params.perslen = 10;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *value;
		char name[32];
		size_t k;

		if (positional_only || arg[0] != '-' || !arg[1]) {
			parse_positional(o, arg);
			continue;
		}
		if (!strcmp(arg, "--")) {
			positional_only = 1;
			continue;
		}
		k = find_option(arg, &value);
		if (option_table[k].letter && arg[1] != '-')
			snprintf(name, sizeof(name), "-%c",
			    option_table[k].letter);
		else
			snprintf(name, sizeof(name), "--%s",
			    option_table[k].name);
		if (option_table[k].has_value && !value) {
			if (i + 1 >= argc)
				usage_error("option '%s' needs a value", arg);
			value = argv[++i];
		} else if (!option_table[k].has_value && value) {
			usage_error("option '%s' takes no value", arg);
		}
		apply_option(o, option_table[k].id, name, value);
	}
	check_options(o);
}

/* ---- one run: a thread count measured ---- */

/* What one thread saw; padded so threads do not share cache lines. */
typedef struct {
	double *lat;			/* seconds per hash */
	size_t n, cap;
	int cpu_first, cpu_last;
	unsigned long migrations;
	int failed, pin_failed;
	char pad[64];
} thread_stats;

typedef struct {
	const bench_job *job;
	int threads, actual_threads;
	double seconds, warmup;
	const int *cpus;		/* pinning order, or NULL */
	size_t ncpus;
	uint32_t base;			/* the first nonce */
	yespower_binary_t *save;	/* hashes of nonces base + 0 .. NSAVE-1 */
	int progress;			/* show progress on stderr */
	unsigned long long next;	/* the next nonce, base-relative */
	int stop, progress_shown;
	double start, start_cpu, wall, cpu, last_progress;
	thread_stats *ts;
} run_state;

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
} run_result;

static int current_cpu(void)
{
#ifdef HAVE_AFFINITY
	return sched_getcpu();
#else
	return -1;
#endif
}

static void pin_thread(thread_stats *me, int cpu)
{
#ifdef HAVE_AFFINITY
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		me->pin_failed = 1;
#else
	(void)cpu;
	me->pin_failed = 1;
#endif
}

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
	    rs->seconds, __atomic_load_n(&rs->next, __ATOMIC_RELAXED));
}

/*
 * warm_up(rs): hash at least once (so that the thread's memory is
 * allocated and touched before timing starts), then until rs->warmup
 * seconds have passed.  Nonce base - 1 is never one of the samples.
 */
static void warm_up(run_state *rs, thread_stats *me)
{
	double start = wall();
	yespower_binary_t dst[MAX_BATCH];
	const bench_job *job = rs->job;

	do {
		if (job->batch > 1 ? job->hash_batch(job, rs->base -
		    job->batch, job->batch, dst) : job->hash(job, rs->base - 1,
		    dst))
			me->failed = 1;
	} while (!me->failed && wall() - start < rs->warmup);
}

/*
 * measure(rs, me, t): hash consecutive nonces, shared by all threads, until
 * some thread finishes a hash rs->seconds after the start; the others then
 * finish the hash they are on.  Records each hash's latency and CPU, and
 * keeps the first NSAVE hashes.
 */
static void measure(run_state *rs, thread_stats *me, int t)
{
	const bench_job *job = rs->job;

	while (!__atomic_load_n(&rs->stop, __ATOMIC_RELAXED)) {
		unsigned long long j = __atomic_fetch_add(&rs->next,
		    job->batch, __ATOMIC_RELAXED);
		yespower_binary_t dst[MAX_BATCH];
		double t0, t1;
		unsigned b;
		int cpu;

		t0 = wall();
		if (job->batch > 1 ? job->hash_batch(job, rs->base +
		    (uint32_t)j, job->batch, dst) : job->hash(job, rs->base +
		    (uint32_t)j, dst))
			me->failed = 1;
		t1 = wall();
		/* Every hash of a batch is ready when the call returns. */
		for (b = 0; b < job->batch; b++)
			record_latency(me, t1 - t0);
		if ((cpu = current_cpu()) != me->cpu_last) {
			me->migrations++;
			me->cpu_last = cpu;
		}
		for (b = 0; b < job->batch && j + b < NSAVE; b++)
			rs->save[j + b] = dst[b];
		if (t1 - rs->start >= rs->seconds || me->failed)
			__atomic_store_n(&rs->stop, 1, __ATOMIC_RELAXED);
		if (t == 0 && rs->progress)
			show_progress(rs, t1);
	}
}

/* The body of the parallel region: pin, warm up, wait for all, measure. */
static void worker(run_state *rs)
{
	int t = omp_get_thread_num();
	thread_stats *me = &rs->ts[t];

	if (rs->cpus)
		pin_thread(me, rs->cpus[t % rs->ncpus]);
	me->cpu_first = me->cpu_last = current_cpu();
	warm_up(rs, me);
#pragma omp barrier
#pragma omp single
	{
		rs->actual_threads = omp_get_num_threads();
		rs->start = rs->last_progress = wall();
		rs->start_cpu = now(CLOCK_PROCESS_CPUTIME_ID);
	}
	measure(rs, me, t);
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
 * summarize(rs, res): merge the threads' latencies into min, percentiles,
 * max and mean, and collect their CPUs and failures.
 */
static void summarize(const run_state *rs, run_result *res)
{
	size_t i, n = 0, k = 0;
	double *all, sum = 0;
	int t;

	for (t = 0; t < rs->threads; t++)
		n += rs->ts[t].n;
	res->hashes = n;
	res->cpus = calloc((size_t)rs->threads, sizeof(int));
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all || !res->cpus) {
		fputs("benchmark: out of memory\n", stderr);
		exit(1);
	}
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

/* The number after "Key:" in a /proc file (kB for sizes), or -1. */
static long long proc_kib(const char *path, const char *key)
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

static void memory_figures(run_result *res)
{
	struct rusage ru;
	long long huge = proc_kib("/proc/self/smaps_rollup", "AnonHugePages");

	res->huge_bytes = huge < 0 ? -1 : huge * 1024;
	res->rss_peak_bytes = getrusage(RUSAGE_SELF, &ru) ? -1 :
	    (long long)ru.ru_maxrss * 1024;
}

/*
 * run_threads(job, threads, o, base, save, res): measure one thread count.
 * Thread i is pinned to o->cpus[i % o->ncpus] when pinning was asked for.
 */
static void run_threads(const bench_job *job, int threads, const options *o,
    uint32_t base, yespower_binary_t *save, run_result *res)
{
	run_state rs;
	int t;

	memset(&rs, 0, sizeof(rs));
	memset(res, 0, sizeof(*res));
	rs.job = job;
	rs.threads = res->threads = threads;
	rs.seconds = o->seconds;
	rs.warmup = o->warmup;
	rs.cpus = o->ncpus ? o->cpus : NULL;
	rs.ncpus = o->ncpus;
	rs.base = base;
	rs.save = save;
	rs.progress = isatty(STDERR_FILENO);
	if (!(rs.ts = calloc((size_t)threads, sizeof(*rs.ts)))) {
		fputs("benchmark: out of memory\n", stderr);
		exit(1);
	}

#pragma omp parallel num_threads(threads)
	worker(&rs);

	rs.wall = wall() - rs.start;
	rs.cpu = now(CLOCK_PROCESS_CPUTIME_ID) - rs.start_cpu;
	if (rs.progress_shown)
		fputs("\r\033[K", stderr);
	if (rs.actual_threads != threads) {
		fprintf(stderr, "benchmark: OpenMP gave %d threads, not %d "
		    "(OMP_THREAD_LIMIT?)\n", rs.actual_threads, threads);
		res->failed = 1;
	}
	res->wall = rs.wall;
	res->cpu = rs.cpu;
	res->pinned = rs.cpus != NULL;
	summarize(&rs, res);
	memory_figures(res);
	for (t = 0; t < threads; t++)
		free(rs.ts[t].lat);
	free(rs.ts);
}

/* ---- verification against single-threaded hashes ---- */

typedef struct {
	yespower_binary_t hash[NSAVE];
	unsigned char have[NSAVE];
	int corrupt;		/* test hook: sample to spoil, or -1 */
	int json;
} reference;

static void report_mismatch(const reference *ref, unsigned j, uint32_t nonce)
{
	if (!ref->json)
		printf("Mismatch at %u\n", j);
	fprintf(stderr, "benchmark: MISMATCH: the hash of nonce %u differs "
	    "from the single-threaded one\n", nonce);
}

/*
 * verify(job, ref, base, save, res): compare a run's kept hashes with the
 * reference.  A 1-thread run's hashes fill the reference where it is empty;
 * for a multi-thread run, up to max(32, 2 * threads) missing samples are
 * hashed now on this thread alone.  Sets res->verified and mismatches.
 */
static void verify(const bench_job *job, reference *ref, uint32_t base,
    yespower_binary_t *save, run_result *res)
{
	unsigned j, n = res->hashes < NSAVE ? (unsigned)res->hashes : NSAVE;
	unsigned extra = 0, budget = 2 * (unsigned)res->threads * job->batch;

	if (budget < 32)
		budget = 32;
	if (res->threads > 1 && ref->corrupt >= 0 && (unsigned)ref->corrupt < n)
		save[ref->corrupt].uc[0] ^= 1;
	for (j = 0; j < n; j++) {
		/* With --batch, the reference is computed one hash at a
		 * time, so batches are checked against single hashes. */
		if (!ref->have[j] && res->threads == 1 && job->batch == 1) {
			ref->hash[j] = save[j];
			ref->have[j] = res->reference = 1;
			continue;
		}
		if (!ref->have[j]) {
			if (extra++ >= budget)
				continue;
			if (job->hash(job, base + j, &ref->hash[j]))
				res->failed = 1;
			ref->have[j] = 1;
		}
		res->verified++;
		if (memcmp(&ref->hash[j], &save[j], sizeof(save[j]))) {
			res->mismatches++;
			report_mismatch(ref, j, base + j);
		}
	}
}

/* ---- text output ---- */

static void print_bytes(double bytes)
{
	if (bytes >= 1 << 20)
		printf("%.2f MiB", bytes / (1 << 20));
	else
		printf("%.2f KiB", bytes / 1024);
}

static void print_cpus(const run_result *res, const options *o)
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

static void print_verification(const run_result *res)
{
	if (res->mismatches)
		printf("MISMATCH: %u of %u sampled hashes differ from "
		    "single-threaded ones\n", res->mismatches, res->verified);
	else if (res->verified)
		printf("verified %u hashes against single-threaded ones: all "
		    "match\n", res->verified);
	else if (res->reference)
		printf("kept %u hash%s to verify the other runs\n",
		    res->hashes < NSAVE ? (unsigned)res->hashes : NSAVE,
		    res->hashes == 1 ? "" : "es");
}

/* The original's two lines, then ours. */
static void print_run(const run_result *res, const options *o,
    size_t per_hash, size_t per_thread)
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
	printf("; implementation %s\n", yespower_impl_name());
	print_cpus(res, o);
	print_verification(res);
	if (res->failed)
		puts("FAILED: a hash returned an error or a thread could not "
		    "be set up");
}

static void print_pers(const bench_job *job)
{
	const yespower_params_t *p = &job->params;
	size_t i;

	if (job->preset && job->preset->pers_is_input) {
		printf("the input");
		return;
	}
	if (!p->pers) {
		printf("none");
		return;
	}
	for (i = 0; i < p->perslen && isprint(p->pers[i]) && p->pers[i] != '"';
	    i++)
		;
	if (i == p->perslen) {
		printf("\"%.*s\"", (int)p->perslen, (const char *)p->pers);
		return;
	}
	printf("hex ");
	for (i = 0; i < p->perslen; i++)
		printf("%02x", p->pers[i]);
}

/* The original's three header lines, then one of ours. */
static void print_header(const bench_job *job, const yespower_binary_t *first)
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
	print_pers(job);
	printf(", %s, implementation %s", job->hash_name,
	    yespower_impl_name());
	if (job->batch > 1)
		printf(", batches of %u", job->batch);
	putchar('\n');
	fflush(stdout);
}

/* ---- JSON output ---- */

typedef struct {
	int depth;
	int items[16];		/* items so far at each depth */
} json_writer;

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Start a value: a comma after the previous one, indentation, the key. */
static void json_item(json_writer *j, const char *key)
{
	int i;

	if (j->items[j->depth]++)
		putchar(',');
	if (j->depth) {
		putchar('\n');
		for (i = 0; i < j->depth; i++)
			fputs("  ", stdout);
	}
	if (key) {
		json_string(key);
		fputs(": ", stdout);
	}
}

static void json_open(json_writer *j, const char *key, char bracket)
{
	json_item(j, key);
	putchar(bracket);
	j->items[++j->depth] = 0;
}

static void json_close(json_writer *j, char bracket)
{
	int i;

	if (j->items[j->depth--]) {
		putchar('\n');
		for (i = 0; i < j->depth; i++)
			fputs("  ", stdout);
	}
	putchar(bracket);
}

static void json_str(json_writer *j, const char *key, const char *v)
{
	json_item(j, key);
	if (v)
		json_string(v);
	else
		fputs("null", stdout);
}

static void json_num(json_writer *j, const char *key, double v)
{
	json_item(j, key);
	if (is_finite(v))
		printf("%.10g", v);
	else
		fputs("null", stdout);
}

static void json_int(json_writer *j, const char *key, long long v)
{
	json_item(j, key);
	printf("%lld", v);
}

static void json_bool(json_writer *j, const char *key, int v)
{
	json_item(j, key);
	fputs(v ? "true" : "false", stdout);
}

/* A count, or null when unknown (negative). */
static void json_count(json_writer *j, const char *key, long long v)
{
	if (v < 0)
		json_str(j, key, NULL);
	else
		json_int(j, key, v);
}

static void json_hex(json_writer *j, const char *key, const uint8_t *p,
    size_t len)
{
	char *s = malloc(2 * len + 1);
	size_t i;

	if (!s)
		exit(1);
	for (i = 0; i < len; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
	s[2 * len] = '\0';
	json_str(j, key, p ? s : NULL);
	free(s);
}

static void json_run(json_writer *j, const run_result *res, size_t per_hash,
    size_t per_thread)
{
	int t;

	json_open(j, NULL, '{');
	json_int(j, "threads", res->threads);
	json_int(j, "hashes", (long long)res->hashes);
	json_num(j, "seconds", res->wall);
	json_num(j, "cpu_seconds", res->cpu);
	json_num(j, "hs_real", res->hashes / res->wall);
	if (res->cpu > 0)
		json_num(j, "hs_virtual", res->hashes / res->cpu);
	else
		json_str(j, "hs_virtual", NULL);
	json_open(j, "latency_ms", '{');
	json_num(j, "min", res->lat_min * 1e3);
	json_num(j, "p50", res->lat_p50 * 1e3);
	json_num(j, "p90", res->lat_p90 * 1e3);
	json_num(j, "p99", res->lat_p99 * 1e3);
	json_num(j, "max", res->lat_max * 1e3);
	json_num(j, "mean", res->lat_mean * 1e3);
	json_close(j, '}');
	json_int(j, "memory_per_hash_bytes", (long long)per_hash);
	json_int(j, "memory_total_bytes", (long long)per_thread * res->threads);
	json_count(j, "anon_huge_pages_bytes", res->huge_bytes);
	json_count(j, "peak_rss_bytes", res->rss_peak_bytes);
	json_str(j, "implementation", yespower_impl_name());
	json_bool(j, "pinned", res->pinned);
	json_open(j, "cpus", '[');
	for (t = 0; t < res->threads; t++)
		json_int(j, NULL, res->cpus[t]);
	json_close(j, ']');
	json_int(j, "migrations", (long long)res->migrations);
	json_bool(j, "reference", res->reference);
	json_int(j, "verified", res->verified);
	json_int(j, "mismatches", res->mismatches);
	json_bool(j, "all_match", !res->mismatches && !res->failed);
	json_bool(j, "failed", res->failed);
	json_close(j, '}');
}

/* Copy the first line of a small file, or "" if there is none. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static void cpu_model(char *buf, size_t size)
{
	char line[256], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, size, "unknown");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) &&
		    (colon = strchr(line, ':'))) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", colon + 1 + (colon[1] == ' '));
			break;
		}
	if (f)
		fclose(f);
}

/* The transparent huge pages mode: the bracketed word, e.g. "madvise". */
static void thp_mode(char *buf, size_t size)
{
	char line[128], *open, *close;

	read_line("/sys/kernel/mm/transparent_hugepage/enabled", line,
	    sizeof(line));
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close) {
		*close = '\0';
		snprintf(buf, size, "%s", open + 1);
	} else {
		snprintf(buf, size, "unknown");
	}
}

static void json_machine(json_writer *j)
{
	char buf[256];
	struct utsname u;

	json_open(j, "machine", '{');
	cpu_model(buf, sizeof(buf));
	json_str(j, "cpu_model", buf);
	json_int(j, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	format_cpu_list(allowed, nallowed, buf, sizeof(buf));
	json_str(j, "cpus_allowed", buf);
	json_int(j, "omp_max_threads", omp_get_max_threads());
	thp_mode(buf, sizeof(buf));
	json_str(j, "transparent_hugepages", buf);
	json_count(j, "hugepages_reserved", proc_kib("/proc/meminfo",
	    "HugePages_Total"));
	if (!uname(&u)) {
		snprintf(buf, sizeof(buf), "%s %s %s", u.sysname, u.release,
		    u.machine);
		json_str(j, "os", buf);
	}
#if defined(__clang__)
	json_str(j, "compiler", "clang " __clang_version__);
#elif defined(__GNUC__)
	json_str(j, "compiler", "gcc " __VERSION__);
#endif
	json_close(j, '}');
}

static void json_params(json_writer *j, const bench_job *job,
    const options *o, const yespower_binary_t *first)
{
	const yespower_params_t *p = &job->params;
	int text = p->pers != NULL;
	size_t i;

	for (i = 0; text && i < p->perslen; i++)
		text = isprint(p->pers[i]);
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

		json_str(j, "pers", s);
		free(s);
	} else {
		json_str(j, "pers", NULL);
	}
	json_hex(j, "pers_hex", p->pers, p->perslen);
	json_int(j, "memory_per_hash_bytes", (long long)memory_per_hash(p));
	json_int(j, "batch", job->batch);
	json_hex(j, "first_hash", first->uc, sizeof(first->uc));
	json_str(j, "implementation", yespower_impl_name());
	json_num(j, "seconds", o->seconds);
	json_num(j, "warmup_seconds", o->warmup);
	json_str(j, "affinity", o->affinity_arg ? o->affinity_arg : "none");
}

/* ---- components: the parts of a hash, timed one by one ---- */

typedef struct component component;

/* Run a part count times; the result depends on the work done. */
typedef uint32_t (*component_fn)(component *c, uint64_t count);

struct component {
	char name[96];
	const char *unit;	/* of rate */
	double per_call;	/* units of rate per call */
	int in_hash;		/* part of every hash's cost */
	component_fn fn;
	/* arguments */
	const bench_job *job;
	uint8_t *buf, *out;
	size_t len, key_len, out_len;
	yespower_component_t which;
	yespower_params_t params;
	int failed;
	/* results */
	uint64_t calls;
	double seconds, rate;
};

static volatile uint32_t component_sink;

static uint32_t run_sha256(component *c, uint64_t count)
{
	uint8_t out[32] = { 0 };

	while (count--) {
		c->buf[0] ^= out[0];
		sha256_buf(c->buf, c->len, out);
	}
	return out[0];
}

static uint32_t run_sha256_chain(component *c, uint64_t count)
{
	uint8_t h[32];

	memcpy(h, c->buf, sizeof(h));
	while (count--)
		sha256_buf(h, sizeof(h), h);
	return h[0];
}

static uint32_t run_blake2b(component *c, uint64_t count)
{
	uint8_t out[32] = { 0 };

	while (count--) {
		c->buf[0] ^= out[0];
		yespower_blake2b(out, sizeof(out), NULL, 0, c->buf, c->len);
	}
	return out[0];
}

/* HMAC with a key_len-byte key over len bytes, SHA-256 or power2b's. */
static uint32_t run_hmac(component *c, uint64_t count)
{
	uint8_t out[32] = { 0 };
	int b2b = c->job->hash == hash_b2b;

	while (count--) {
		c->buf[0] ^= out[0];
		if (b2b)
			yespower_hmac_blake2b256(out, c->buf, c->key_len,
			    c->buf + 64, c->len);
		else
			hmac_sha256_buf(c->buf, c->key_len, c->buf + 64,
			    c->len, out);
	}
	return out[0];
}

/* PBKDF2 (c = 1) with a 32-byte password and a len-byte salt. */
static uint32_t run_pbkdf2(component *c, uint64_t count)
{
	int b2b = c->job->hash == hash_b2b;

	while (count--) {
		c->buf[0] ^= c->out[0];
		if (b2b)
			yespower_pbkdf2_blake2b256(c->buf, 32, c->buf + 64,
			    c->len, 1, c->out, c->out_len);
		else
			pbkdf2_sha256(c->buf, 32, c->buf + 64, c->len, 1,
			    c->out, c->out_len);
	}
	return c->out[0];
}

static uint32_t run_core(component *c, uint64_t count)
{
	uint32_t result = 0;

	if (yespower_run_component(c->which, &c->params, count, &result))
		c->failed = 1;
	return result;
}

static uint32_t run_whole(component *c, uint64_t count)
{
	yespower_binary_t dst = { { 0 } };
	uint32_t nonce = 0;

	while (count--)
		if (c->job->hash(c->job, nonce++, &dst))
			c->failed = 1;
	return dst.uc[0];
}

static double time_component(component *c, uint64_t count)
{
	double t0 = wall();

	component_sink ^= c->fn(c, count);
	return wall() - t0;
}

/*
 * measure_component(c, target): the calls per second of a part, from one
 * call of count iterations lasting about target seconds.  The cost of a call
 * with count 0 (the core drivers map and fill their memory every time) is
 * measured and subtracted.  count grows eightfold while a call is too short
 * to scale from, then in proportion; a timed call shorter than target / 2
 * (the scaling was misled by a preemption) is scaled and timed again.
 */
static void measure_component(component *c, double target)
{
	uint64_t count = 1, limit = (uint64_t)1 << 40;
	double overhead = 1e30, t;
	int i;

	for (i = 0; i < 3; i++) {
		t = time_component(c, 0);
		if (t < overhead)
			overhead = t;
	}
	for (i = 0; i < 40 && !c->failed; i++) {
		t = time_component(c, count) - overhead;
		if (t >= target / 2 || count >= limit)
			break;
		if (t < target / 64)
			count *= 8;
		else
			count = (uint64_t)(count * (target / t)) + 1;
	}
	c->calls = count;
	c->seconds = t;
	c->rate = t > 0 ? count / t * c->per_call : 0;
}

static component *add_component(component *list, size_t *n,
    const char *unit, double per_call, component_fn fn, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Append a part to list[] (named with printf's fmt); returns it. */
static component *add_component(component *list, size_t *n,
    const char *unit, double per_call, component_fn fn, const char *fmt, ...)
{
	component *c = &list[(*n)++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->name, sizeof(c->name), fmt, ap);
	va_end(ap);
	c->unit = unit;
	c->per_call = per_call;
	c->fn = fn;
	return c;
}

/* SHA-256 and BLAKE2b on their own: bulk speed and short inputs. */
static void hash_components(component *list, size_t *n)
{
	component *c;

	c = add_component(list, n, "MB/s", 64e-6, run_sha256, "SHA-256, 64 B");
	c->len = 64;
	c = add_component(list, n, "MB/s", 16384e-6, run_sha256,
	    "SHA-256, 16 KiB");
	c->len = 16384;
	add_component(list, n, "MH/s", 1e-6, run_sha256_chain,
	    "SHA-256, recursive 32 B");
	c = add_component(list, n, "MB/s", 64e-6, run_blake2b,
	    "BLAKE2b-256, 64 B");
	c->len = 64;
	c = add_component(list, n, "MB/s", 16384e-6, run_blake2b,
	    "BLAKE2b-256, 16 KiB");
	c->len = 16384;
}

/*
 * The front and back ends as a hash of these parameters calls them: in
 * 0.5, PBKDF2 over the input into 128 * r bytes, PBKDF2 over B into 32
 * bytes and, with a personalization, an HMAC keyed by the result; in 1.0,
 * PBKDF2 over the personalization into 128 bytes and an HMAC keyed by B's
 * last 64 bytes.
 */
static void kdf_components(component *list, size_t *n, const bench_job *job)
{
	const yespower_params_t *p = &job->params;
	const char *h = job->hash == hash_b2b ? "BLAKE2b-256" : "SHA256";
	size_t perslen = job->preset && job->preset->pers_is_input ? 80 :
	    p->perslen;
	component *c;

	if (p->version == YESPOWER_0_5) {
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, 80 B salt -> %u B", h, 128 * p->r);
		c->len = 80;
		c->out_len = 128 * (size_t)p->r;
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, %u B salt -> 32 B", h, 128 * p->r);
		c->len = 128 * (size_t)p->r;
		c->out_len = 32;
		c->in_hash = list[*n - 2].in_hash = 1;
		if (!p->pers)
			return;
		c = add_component(list, n, "calls/s", 1, run_hmac,
		    "HMAC-%s, 32 B key, %zu B message", h, perslen);
		c->key_len = 32;
		c->len = perslen;
	} else {
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, %zu B salt -> 128 B", h, perslen);
		c->len = perslen;
		c->out_len = 128;
		c->in_hash = 1;
		c = add_component(list, n, "calls/s", 1, run_hmac,
		    "HMAC-%s, 64 B key, 32 B message", h);
		c->key_len = 64;
		c->len = 32;
	}
	c->in_hash = 1;
}

/* The mixing core's parts, through the library's component drivers. */
static void core_components(component *list, size_t *n, const bench_job *job)
{
	const yespower_params_t *p = &job->params;
	const char *v = p->version == YESPOWER_0_5 ? "0.5" : "1.0";
	uint32_t nloop = ((p->N + 2) / 3 + 1) & ~(uint32_t)1;
	component *c;

	c = add_component(list, n, "Mblocks/s", 1e-6, run_core,
	    "Salsa20/8 (0.5), 64 B block");
	c->which = YESPOWER_COMPONENT_SALSA20;
	c->params.version = YESPOWER_0_5;
	c = add_component(list, n, "Mblocks/s", 1e-6, run_core,
	    "Salsa20/2 (1.0), 64 B block");
	c->which = YESPOWER_COMPONENT_SALSA20;
	c = add_component(list, n, "blocks/s", 1, run_core,
	    "BlockMix_pwxform (%s), %u B block", v, 128 * p->r);
	c->which = YESPOWER_COMPONENT_BLOCKMIX;
	c = add_component(list, n, "passes/s", 1, run_core,
	    "SMix1 (%s), N = %u blocks", v, p->N);
	c->which = YESPOWER_COMPONENT_SMIX1;
	c->in_hash = 1;
	c = add_component(list, n, "passes/s", 1, run_core,
	    "SMix2 (%s), %u steps", v, nloop);
	c->which = YESPOWER_COMPONENT_SMIX2;
	c->in_hash = 1;
}

/*
 * build_components(list, job): every part, with its arguments.  Core parts
 * use the job's N and r and, but for Salsa20/8, its version.
 */
static size_t build_components(component *list, const bench_job *job,
    uint8_t *buf, uint8_t *out)
{
	size_t i, n = 0;

	hash_components(list, &n);
	kdf_components(list, &n, job);
	if (yespower_run_component)
		core_components(list, &n, job);
	add_component(list, &n, "H/s", 1, run_whole, "whole hash (%s)",
	    job->hash_name);
	for (i = 0; i < n; i++) {
		list[i].job = job;
		list[i].buf = buf;
		list[i].out = out;
		if (list[i].fn == run_core) {
			yespower_version_t v = list[i].params.version;

			list[i].params = job->params;
			if (v == YESPOWER_0_5)
				list[i].params.version = v;
		}
	}
	return n;
}

/* Print a duration per call in a readable unit. */
static void print_per_call(double seconds)
{
	if (seconds < 1e-6)
		printf("%9.1f ns", seconds * 1e9);
	else if (seconds < 1e-3)
		printf("%9.2f us", seconds * 1e6);
	else
		printf("%9.3f ms", seconds * 1e3);
}

static void print_component(const component *c)
{
	printf("  %-40s %12.*f %-9s", c->name, c->rate >= 1000 ? 0 : 2,
	    c->rate, c->unit);
	if (c->calls)
		print_per_call(c->seconds / c->calls);
	puts(c->failed ? "  FAILED" : "");
	fflush(stdout);
}

static void json_component(json_writer *j, const component *c)
{
	json_open(j, NULL, '{');
	json_str(j, "name", c->name);
	json_num(j, "rate", c->rate);
	json_str(j, "unit", c->unit);
	if (c->calls)
		json_num(j, "ns_per_call", c->seconds / c->calls * 1e9);
	else
		json_str(j, "ns_per_call", NULL);
	json_int(j, "calls", (long long)c->calls);
	json_num(j, "seconds", c->seconds);
	json_bool(j, "part_of_hash", c->in_hash);
	json_bool(j, "failed", c->failed);
	json_close(j, '}');
}

/*
 * run_components(job, o, list): time every part for o->seconds each, on
 * this thread (pinned to the first CPU of --affinity); print them as they
 * come in text mode.  Returns how many there are.
 */
static size_t run_components(const bench_job *job, const options *o,
    component *list)
{
	static uint8_t out[128 * 32];
	size_t i, n, size = 64 + 16384 + 128 * 32 + job->params.perslen;
	uint8_t *buf = malloc(size);
	thread_stats pin;
	double parts = 0;

	if (!buf) {
		fputs("benchmark: out of memory\n", stderr);
		exit(1);
	}
	memset(&pin, 0, sizeof(pin));
	for (i = 0; i < size; i++)
		buf[i] = (uint8_t)(i * 7);
	n = build_components(list, job, buf, out);
	if (o->ncpus)
		pin_thread(&pin, o->cpus[0]);
	if (!o->json)
		printf("Components (1 thread, implementation %s, about %.2f s "
		    "each):\n",
		    yespower_impl_name(), o->seconds);
	for (i = 0; i < n; i++) {
		measure_component(&list[i], o->seconds);
		if (list[i].failed)
			status = 1;
		if (list[i].in_hash && list[i].rate > 0)
			parts += list[i].per_call / list[i].rate;
		if (!o->json)
			print_component(&list[i]);
	}
	if (o->json)
		;
	else if (!yespower_run_component)
		puts("(no core components: this build has no drivers for "
		    "them)");
	else if (list[n - 1].rate > 0)
		printf("SMix1, SMix2, PBKDF2 and HMAC add up to %.3f ms of the "
		    "whole hash's %.3f ms\n", parts * 1e3,
		    1e3 / list[n - 1].rate);
	free(buf);
	return n;
}

/* ---- main ---- */

static void setup_job(bench_job *job, const options *o)
{
	memset(job, 0, sizeof(*job));
	job->params = o->params;
	job->preset = o->preset;
	if (o->preset) {
		job->hash = hash_preset;
		job->hash_name = o->preset->hash == YESPOWER_HASH_BLAKE2B ?
		    "blake2b" : "sha256";
	} else if (o->b2b) {
		job->hash = hash_b2b;
		job->hash_name = "blake2b";
	} else {
		job->hash = hash_sha256;
		job->hash_name = "sha256";
	}
	job->batch = o->batch;
	job->hash_batch = hash_batch;
}

/* The command line and when it ran, for the record. */
static void json_invocation(json_writer *j, char **argv)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	json_open(j, "argv", '[');
	for (; *argv; argv++)
		json_str(j, NULL, *argv);
	json_close(j, ']');
	if (gmtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		json_str(j, "time", buf);
}

static void json_document(const bench_job *job, const options *o,
    const yespower_binary_t *first, const run_result *runs, size_t nruns,
    const component *parts, size_t nparts, char **argv)
{
	json_writer j;
	unsigned long long mismatches = 0;
	size_t i;

	memset(&j, 0, sizeof(j));
	json_open(&j, NULL, '{');
	json_params(&j, job, o, first);
	json_invocation(&j, argv);
	json_machine(&j);
	json_open(&j, "runs", '[');
	for (i = 0; i < nruns; i++) {
		json_run(&j, &runs[i], memory_per_hash(&job->params),
		    memory_per_thread(job));
		mismatches += runs[i].mismatches;
	}
	json_close(&j, ']');
	if (o->components) {
		json_open(&j, "components", '[');
		for (i = 0; i < nparts; i++)
			json_component(&j, &parts[i]);
		json_close(&j, ']');
	}
	json_int(&j, "mismatches", (long long)mismatches);
	json_bool(&j, "ok", !status);
	json_close(&j, '}');
	putchar('\n');
}

/* Every thread count in turn, each verified; results into runs[]. */
static void run_all(const bench_job *job, const options *o,
    run_result *runs)
{
	static yespower_binary_t save[NSAVE];
	static reference ref;
	const char *corrupt = getenv("YESPOWER_BENCHMARK_CORRUPT");
	uint32_t base = (uint32_t)time(NULL) * 1812433253U;
	size_t i;

	ref.corrupt = corrupt ? atoi(corrupt) : -1;
	ref.json = o->json;
	for (i = 0; i < o->nthreads; i++) {
		int threads = o->threads[i];

		if (!o->json) {
			printf("Benchmarking %d thread%s ...\n", threads,
			    threads == 1 ? "" : "s");
			fflush(stdout);
		}
		run_threads(job, threads, o, base, save, &runs[i]);
		verify(job, &ref, base, save, &runs[i]);
		if (runs[i].failed || runs[i].mismatches)
			status = 1;
		if (runs[i].mismatches)
			fprintf(stderr, "benchmark: MISMATCH: %u of %u sampled "
			    "hashes on %d threads differ from single-threaded "
			    "ones\n", runs[i].mismatches, runs[i].verified,
			    threads);
		if (!o->json)
			print_run(&runs[i], o, memory_per_hash(&job->params),
			    memory_per_thread(job));
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	static options o;
	static component parts[32];
	bench_job job;
	yespower_binary_t first;
	run_result *runs;
	size_t i, nparts = 0;

	parse_args(&o, argc, argv);
	setup_job(&job, &o);
	omp_set_dynamic(0);
	if (!(runs = calloc(o.nthreads, sizeof(*runs)))) {
		fputs("benchmark: out of memory\n", stderr);
		return 1;
	}

	if (job.hash(&job, fixed_nonce(), &first)) {
		perror("benchmark: the first hash failed");
		if (!o.json)
			puts("FAILED");
		return 1;
	}
	if (!o.json)
		print_header(&job, &first);
	if (o.components)
		nparts = run_components(&job, &o, parts);
	else
		run_all(&job, &o, runs);
	if (o.json)
		json_document(&job, &o, &first, runs, o.components ? 0 :
		    o.nthreads, parts, nparts, argv);

	for (i = 0; i < o.nthreads; i++)
		free(runs[i].cpus);
	free(runs);
	free(o.pers_buf);
	return status;
}
