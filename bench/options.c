/*
 * bench/options.c: the benchmark's command line.
 *
 *   benchmark [options] [version [N [r]]]
 *
 * Parsed with getopt_long (options and positional arguments in any order,
 * -tVALUE and --name=VALUE forms, "--" ends the options); every error is
 * one line on stderr and exit status 2, before any hashing.
 */
#define _GNU_SOURCE 1

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "bench/bench.h"
#include "tools/timing.h"
#include "tools/util.h"

void bench_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("benchmark: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see benchmark -h)\n", stderr);
	exit(2);
}

void bench_out_of_memory(void)
{
	fputs("benchmark: out of memory\n", stderr);
	exit(1);
}

/* The --impl line of the help: this build's mixing cores. */
static void print_cores(void)
{
	const char *name;
	size_t i;

	fputs("  --impl NAME       mixing core:", stdout);
	for (i = 0; (name = yespower_impl_at(i)) && !strchr(name, '='); i++)
		printf(" %s,", name);
	fputs(" auto\n", stdout);
}

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
"  --b2b             power2b: BLAKE2b in place of SHA-256 (version 10)\n",
	    stdout);
	print_cores();
	fputs(
"  --batch K         hash K inputs per call with yespower_batch_tls, which\n"
"                    computes several interleaved (1 to 64; default 1:\n"
"                    yespower_tls); latency is then per call\n"
"  --affinity MODE   pin threads: none (default), compact, scatter, or a\n"
"                    CPU list such as 0,2-3 (thread i on the i-th CPU)\n"
"  --json            one JSON document on stdout instead of text\n"
"  --components      time the parts of a hash, one thread, instead\n"
"  -h, --help        this help\n"
"RandomX (instead of yespower; -t, -s, -w, --batch, --affinity, --json and\n"
"--components as above; each thread hashes through calculate_hash_first\n"
"and _next as miners do, --batch K nonces a call):\n"
"  --randomx         RandomX v1, light mode (the 256 MiB cache)\n"
"  --v2              RandomX v2\n"
"  --full            full mode: the 2080 MiB dataset, built first\n"
"  --large-pages     cache, dataset and scratchpads in huge pages\n"
"  --soft-aes        software AES (default: AES-NI where the CPU has it)\n"
"  --interpreter     interpreted programs and SuperscalarHash (default: the\n"
"                    JIT where there is one: x86-64, AArch64)\n"
"  --seed S          the key as the reference's benchmark makes it: S\n"
"                    (-2147483648 to 2147483647, default 0) as 4 bytes,\n"
"                    little-endian; the inputs are its block template\n"
"  --init Q          build the dataset on Q threads (default: one per CPU\n"
"                    this process may use)\n"
"  --nonces N        hash nonces 0 to N - 1 on each count of -t (default 1)\n"
"                    as randomx-benchmark --mine (--verify: light mode)\n"
"                    does; print its \"Calculated result\" (every hash\n"
"                    XORed) and speed.  Not with -s, -w, --batch, --json\n"
"                    or --components\n"
"The hashing API (instead; -s (default 1), -t (its largest count), --json):\n"
"  --hashes          SHA-256, SHA256D64, recursive SHA-256 and Merkle\n"
"                    roots per implementation\n"
"  --impl SPEC       the hashing API's choice (pow_hash_set_impl)\n"
"  --ghz GHZ         also MH/s per 0.1 GHz for recursive SHA-256\n"
"  --cpu-time        time one-thread rows by CPU time (shared machines)\n"
"  --merkle MIN-MAX  Merkle trees of 2^MIN .. 2^MAX leaves (default 20-24)\n"
"  --only TABLE      sha256, recursive or merkle\n"
"Exit status: 0 ok, 1 a hash failed or mismatched, 2 bad arguments.\n",
	    stdout);
}

/*
 * A plain decimal number from 0 to max (digits, a point, an exponent:
 * strtod's hexadecimal, infinity and nan forms are refused), or a usage
 * error naming the option and what it takes.
 */
static double parse_decimal(const char *name, const char *s, double max,
    const char *takes)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if ((!isdigit((unsigned char)s[0]) && s[0] != '.') ||
	    s[strspn(s, "0123456789.eE+-")])
		end = (char *)s;
	/* v - v == 0 only for a finite v. */
	if (end == s || *end || errno || v - v != 0 || v < 0 || v > max)
		bench_usage_error("invalid %s '%s' (%s)", name, s, takes);
	return v;
}

/* A duration for -s / -w: up to a day. */
static double parse_seconds(const char *name, const char *s)
{
	return parse_decimal(name, s, 86400, "seconds, from 0 to 86400");
}

static void parse_threads(bench_options *o, const char *s)
{
	o->nthreads = bench_parse_list(s, 1, BENCH_MAX_THREADS, o->threads,
	    BENCH_MAX_LIST);
	if (!o->nthreads)
		bench_usage_error("invalid thread list '%s' for -t (counts "
		    "from 1 to %d, such as 1,2,4 or 1-4)", s,
		    BENCH_MAX_THREADS);
}

static void set_pers(bench_options *o, const char *option,
    const char *value)
{
	char msg[96];
	size_t len;

	if (o->pers_option)
		bench_usage_error("%s conflicts with %s", option,
		    o->pers_option);
	o->pers_option = option;
	if (!strcmp(option, "--pers")) {
		o->params.pers = (const uint8_t *)value;
		o->params.perslen = strlen(value);
	} else if (!strcmp(option, "--pers-hex")) {
		if (!(o->pers_buf = util_hex_decode_alloc(value, &len, msg,
		    sizeof(msg))))
			bench_usage_error("invalid --pers-hex '%s' (%s)", value,
			    msg);
		o->params.pers = o->pers_buf;
		o->params.perslen = len;
	} else {
		o->params.pers = NULL;
		o->params.perslen = 0;
	}
}

/* The positional arguments: version, N, r. */
static void parse_positional(bench_options *o, const char *s)
{
	unsigned long v;
	char msg[96];

	if (!o->npositional)
		o->first_positional = s;
	switch (o->npositional++) {
	case 0:
		/* The original's numbers only: 5 or 10. */
		if (util_parse_ulong(s, 5, 10, &v) || (v != 5 && v != 10))
			bench_usage_error("invalid version '%s' (5 or 10)", s);
		o->params.version = (yespower_version_t)v;
		break;
	case 1:
		if (util_parse_N(s, &o->params.N, msg, sizeof(msg)))
			bench_usage_error("invalid N '%s' (%s)", s, msg);
		break;
	case 2:
		if (util_parse_r(s, &o->params.r, msg, sizeof(msg)))
			bench_usage_error("invalid r '%s' (%s)", s, msg);
		break;
	default:
		bench_usage_error("unexpected argument '%s'", s);
	}
}

/*
 * --seed S: a whole decimal number that fits the reference's int32_t,
 * with a minus sign or none, kept as its two's complement bits.
 */
static void parse_seed(bench_options *o, const char *s)
{
	int minus = s[0] == '-';
	unsigned long v;

	if (util_parse_ulong(s + minus, 0, minus ? 2147483648UL :
	    2147483647UL, &v))
		bench_usage_error("invalid --seed '%s' (a whole number from "
		    "-2147483648 to 2147483647)", s);
	o->rx_seed = minus ? (uint32_t)(0U - (uint32_t)v) : (uint32_t)v;
	o->rx_seed_given = 1;
}

/* --affinity CPU-LIST: every CPU must be one this process may use. */
static void affinity_list(bench_options *o, const char *s)
{
	const int *allowed;
	size_t nallowed = bench_allowed_cpus(&allowed), i, j;
	char buf[256];

	o->ncpus = bench_parse_list(s, 0, BENCH_MAX_CPU - 1, o->cpus,
	    BENCH_MAX_LIST);
	if (!o->ncpus)
		bench_usage_error("invalid --affinity '%s' (none, compact, "
		    "scatter or a CPU list such as 0,2-3)", s);
	for (i = 0; i < o->ncpus; i++) {
		for (j = 0; j < nallowed && allowed[j] != o->cpus[i]; j++)
			;
		if (j == nallowed) {
			bench_format_cpu_list(allowed, nallowed, buf,
			    sizeof(buf));
			bench_usage_error("invalid --affinity '%s': CPU %d is not "
			    "available (these are: %s)", s, o->cpus[i], buf);
		}
	}
}

static void parse_affinity(bench_options *o, const char *s)
{
	o->affinity_arg = s;
	o->ncpus = 0;
	if (!strcmp(s, "none")) {
		o->affinity = AFFINITY_NONE;
		return;
	}
	if (!bench_can_pin())
		bench_usage_error("--affinity '%s': thread pinning is not "
		    "supported here", s);
	if (!strcmp(s, "compact") || !strcmp(s, "scatter")) {
		o->affinity = s[0] == 'c' ? AFFINITY_COMPACT : AFFINITY_SCATTER;
		o->ncpus = bench_affinity_order(o->cpus,
		    o->affinity == AFFINITY_SCATTER);
	} else {
		o->affinity = AFFINITY_LIST;
		affinity_list(o, s);
	}
}

/*
 * What no single argument shows: conflicts between options, power2b's
 * version, the core asked for, the default thread list and duration.
 */
/* RandomX's options go with --randomx, and yespower's do not. */
static void check_randomx(const bench_options *o)
{
	const char *rx = o->rx_v2 ? "--v2" : o->rx_full ? "--full" :
	    o->rx_large_pages ? "--large-pages" : o->rx_soft_aes ?
	    "--soft-aes" : o->rx_interpreter ? "--interpreter" :
	    o->rx_seed_given ? "--seed" : o->rx_init ? "--init" :
	    o->rx_nonces ? "--nonces" : NULL;
	const char *timed = o->seconds_given ? "-s" : o->warmup > 0 ? "-w" :
	    o->batch > 1 ? "--batch" : o->json ? "--json" : o->components ?
	    "--components" : NULL;
	const char *yp = o->preset ? "--preset" : o->b2b ? "--b2b" :
	    o->pers_option ? o->pers_option : o->impl ? "--impl" : NULL;

	if (!o->randomx && rx)
		bench_usage_error("%s goes with --randomx", rx);
	if (o->randomx && o->npositional)
		bench_usage_error("argument '%s' conflicts with --randomx",
		    o->first_positional);
	if (o->randomx && yp)
		bench_usage_error("%s conflicts with --randomx", yp);
	if (o->rx_nonces && timed)
		bench_usage_error("%s conflicts with --nonces (a count of "
		    "nonces, not a timed run)", timed);
}

/* The hashing API's options go with --hashes, and it with nothing else. */
static void check_hashes(const bench_options *o)
{
	const char *h = o->ghz > 0 ? "--ghz" : o->cpu_time ? "--cpu-time" :
	    o->merkle_given ? "--merkle" : o->only ? "--only" : NULL;

	if (!o->hashes && h)
		bench_usage_error("%s goes with --hashes", h);
	if (o->hashes && (o->randomx || o->npositional || o->preset ||
	    o->b2b || o->pers_option || o->components || o->batch > 1))
		bench_usage_error("--hashes takes only -s, -t, --impl, --ghz, "
		    "--cpu-time, --merkle, --only and --json");
}

static void check_options(bench_options *o)
{
	check_randomx(o);
	check_hashes(o);
	if (o->preset && o->npositional)
		bench_usage_error("argument '%s' conflicts with --preset",
		    o->first_positional);
	if (o->preset && o->pers_option)
		bench_usage_error("%s conflicts with --preset", o->pers_option);
	if (o->preset && o->b2b)
		bench_usage_error("--b2b conflicts with --preset (the preset "
		    "says which hash it uses)");
	if (!o->batch)
		o->batch = 1;
	if (o->batch > 1 && o->preset && o->preset->pers_is_input)
		bench_usage_error("--batch conflicts with --preset %s (each "
		    "input is its own personalization)", o->preset->name);
	if (o->batch > 1 && o->components)
		bench_usage_error("--batch conflicts with --components");
	if (o->b2b && o->npositional && o->params.version != YESPOWER_1_0)
		bench_usage_error("--b2b needs version 10, not '%s'",
		    o->first_positional);
	if (o->b2b)
		o->params.version = YESPOWER_1_0;
	if (o->preset)
		o->params = o->preset->params;
	if (o->hashes && !o->merkle_given) {
		o->merkle_min = 20;
		o->merkle_max = 24;
	}
	if (o->impl && !o->hashes && yespower_set_impl(o->impl))
		bench_usage_error("invalid --impl '%s' (%s)", o->impl,
		    errno == ENOTSUP ? "this CPU cannot run it" :
		    errno == EINVAL ? "no such core in this build" :
		    strerror(errno));
	if (o->randomx && !o->rx_init) {
		const int *cpus;
		size_t n = bench_allowed_cpus(&cpus);

		o->rx_init = n < 1 ? 1 : n > UTIL_MAX_BUILD_THREADS ?
		    UTIL_MAX_BUILD_THREADS : (int)n;
	}
	/* The reference's default: one thread. */
	if (o->rx_nonces && !o->nthreads)
		o->threads[o->nthreads++] = 1;
	if (!o->nthreads) {
		int max = omp_get_max_threads();

		if (max > BENCH_MAX_THREADS)
			bench_usage_error("OpenMP gives %d threads (OMP_NUM_"
			    "THREADS?); at most %d a run: use -t", max,
			    BENCH_MAX_THREADS);
		o->threads[o->nthreads++] = 1;
		o->threads[o->nthreads++] = max;
	}
	if (!o->seconds_given)
		o->seconds = o->components ? 0.25 : o->hashes ? 1.0 : 2.0;
	if (o->hashes && !(o->seconds > 0))
		bench_usage_error("--hashes needs -s above 0");
}

enum { OPT_PERS = 256, OPT_PERS_HEX, OPT_NO_PERS, OPT_PRESET,
    OPT_LIST_PRESETS, OPT_B2B, OPT_IMPL, OPT_AFFINITY, OPT_JSON,
    OPT_COMPONENTS, OPT_BATCH, OPT_RANDOMX, OPT_V2, OPT_FULL,
    OPT_LARGE_PAGES, OPT_SOFT_AES, OPT_HASHES, OPT_GHZ, OPT_CPU_TIME,
    OPT_MERKLE, OPT_ONLY, OPT_INTERPRETER, OPT_SEED, OPT_INIT,
    OPT_NONCES };

static const struct option long_options[] = {
	{ "threads", required_argument, NULL, 't' },
	{ "seconds", required_argument, NULL, 's' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ "pers", required_argument, NULL, OPT_PERS },
	{ "pers-hex", required_argument, NULL, OPT_PERS_HEX },
	{ "no-pers", no_argument, NULL, OPT_NO_PERS },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "list-presets", no_argument, NULL, OPT_LIST_PRESETS },
	{ "b2b", no_argument, NULL, OPT_B2B },
	{ "impl", required_argument, NULL, OPT_IMPL },
	{ "affinity", required_argument, NULL, OPT_AFFINITY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "components", no_argument, NULL, OPT_COMPONENTS },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "randomx", no_argument, NULL, OPT_RANDOMX },
	{ "v2", no_argument, NULL, OPT_V2 },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "large-pages", no_argument, NULL, OPT_LARGE_PAGES },
	{ "soft-aes", no_argument, NULL, OPT_SOFT_AES },
	{ "interpreter", no_argument, NULL, OPT_INTERPRETER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "init", required_argument, NULL, OPT_INIT },
	{ "nonces", required_argument, NULL, OPT_NONCES },
	{ "hashes", no_argument, NULL, OPT_HASHES },
	{ "ghz", required_argument, NULL, OPT_GHZ },
	{ "cpu-time", no_argument, NULL, OPT_CPU_TIME },
	{ "merkle", required_argument, NULL, OPT_MERKLE },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ NULL, 0, NULL, 0 }
};

/* Act on option c, with getopt's optarg; arg is how the user wrote it. */
static void apply_option(bench_options *o, int c, const char *arg)
{
	unsigned long v;
	char extra;

	switch (c) {
	case 't':
		parse_threads(o, optarg);
		break;
	case 's':
		o->seconds = parse_seconds("-s", optarg);
		o->seconds_given = 1;
		break;
	case 'w':
		o->warmup = parse_seconds("-w", optarg);
		break;
	case 'h':
		print_usage();
		exit(0);
	case OPT_LIST_PRESETS:
		util_list_presets(stdout);
		exit(0);
	case OPT_PERS:
		set_pers(o, "--pers", optarg);
		break;
	case OPT_PERS_HEX:
		set_pers(o, "--pers-hex", optarg);
		break;
	case OPT_NO_PERS:
		set_pers(o, "--no-pers", NULL);
		break;
	case OPT_PRESET:
		if (!(o->preset = yespower_preset_find(optarg)))
			bench_usage_error("unknown --preset '%s' (see "
			    "--list-presets)", optarg);
		break;
	case OPT_B2B:
		o->b2b = 1;
		break;
	case OPT_IMPL:
		o->impl = optarg;
		break;
	case OPT_AFFINITY:
		parse_affinity(o, optarg);
		break;
	case OPT_JSON:
		o->json = 1;
		break;
	case OPT_COMPONENTS:
		o->components = 1;
		break;
	case OPT_BATCH:
		if (util_parse_ulong(optarg, 1, BENCH_MAX_BATCH, &v))
			bench_usage_error("invalid --batch '%s' (expected 1 to "
			    "%d)", optarg, BENCH_MAX_BATCH);
		o->batch = (unsigned)v;
		break;
	case OPT_RANDOMX:
		o->randomx = 1;
		break;
	case OPT_V2:
		o->rx_v2 = 1;
		break;
	case OPT_FULL:
		o->rx_full = 1;
		break;
	case OPT_LARGE_PAGES:
		o->rx_large_pages = 1;
		break;
	case OPT_SOFT_AES:
		o->rx_soft_aes = 1;
		break;
	case OPT_INTERPRETER:
		o->rx_interpreter = 1;
		break;
	case OPT_SEED:
		parse_seed(o, optarg);
		break;
	case OPT_INIT:
		if (util_parse_ulong(optarg, 1, UTIL_MAX_BUILD_THREADS, &v))
			bench_usage_error("invalid --init '%s' (threads, 1 to "
			    "%d)", optarg, UTIL_MAX_BUILD_THREADS);
		o->rx_init = (int)v;
		break;
	case OPT_NONCES:
		/* The reference's count is an int, its nonces 32-bit. */
		if (util_parse_ulong(optarg, 1, 2147483647, &v))
			bench_usage_error("invalid --nonces '%s' (1 to "
			    "2147483647)", optarg);
		o->rx_nonces = v;
		break;
	case OPT_HASHES:
		o->hashes = 1;
		break;
	case OPT_GHZ:
		o->ghz = parse_decimal("--ghz", optarg, 100, "0 to 100");
		if (!(o->ghz > 0 && o->ghz < 100))
			bench_usage_error("invalid --ghz '%s' (0 to 100)",
			    optarg);
		break;
	case OPT_CPU_TIME:
		o->cpu_time = 1;
		break;
	case OPT_MERKLE:
		/* Digits and one dash only, at most two digits a number: no
		 * spaces or signs sscanf would skip, no wrapping values. */
		if (!isdigit((unsigned char)optarg[0]) ||
		    optarg[strspn(optarg, "0123456789-")] ||
		    sscanf(optarg, "%2d-%2d%c", &o->merkle_min,
		    &o->merkle_max, &extra) != 2 || o->merkle_min < 0 ||
		    o->merkle_max > 30 || o->merkle_min > o->merkle_max)
			bench_usage_error("invalid --merkle '%s' (MIN-MAX, 0 to "
			    "30)", optarg);
		o->merkle_given = 1;
		break;
	case OPT_ONLY:
		if (strcmp(optarg, "sha256") && strcmp(optarg, "recursive") &&
		    strcmp(optarg, "merkle"))
			bench_usage_error("invalid --only '%s' (sha256, "
			    "recursive or merkle)", optarg);
		o->only = optarg;
		break;
	case ':':
		bench_usage_error("option '%s' needs a value", arg);
	default: {
		char msg[256];

		util_bad_option(long_options, arg, optopt, msg, sizeof(msg));
		bench_usage_error("%s", msg);
	}
	}
}

void bench_parse_args(bench_options *o, int argc, char **argv)
{
	int c;

	bench_find_allowed_cpus();
	memset(o, 0, sizeof(*o));
	o->params.version = YESPOWER_0_5;
	o->params.N = 2048;
	o->params.r = 8;
	o->params.pers = (const uint8_t *)"Client Key";
	o->params.perslen = 10;

	/* "-" first: positional arguments come back as 1, in order. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:t:s:w:h", long_options,
	    NULL)) != -1) {
		if (c == 1)
			parse_positional(o, optarg);
		else
			apply_option(o, c, argv[optind - 1]);
	}
	for (; optind < argc; optind++)	/* after "--" */
		parse_positional(o, argv[optind]);
	check_options(o);
}
