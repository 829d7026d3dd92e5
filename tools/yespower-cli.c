/*
 * yespower-cli.c: the `yespower` command-line tool.
 *
 *   yespower --preset yespowerr16 HEX            one hash per argument
 *   yespower -v 10 -N 2048 -r 32 --pers S HEX    explicit parameters
 *   yespower --preset power2b < headers.txt      batch: one input per line
 *
 * Inputs are hex; each hash is printed as 64 hex digits in the byte order it
 * is computed in (--reverse: the order block explorers show).  Batch mode
 * hashes on every core and prints the answers in input order, each as soon
 * as it and the ones before it are done, so the tool also works as a
 * co-process fed one line at a time.
 *
 * Exit status: 0 when every input was hashed (and, with --target or --bits,
 * every hash meets the target); 1 when some hash does not meet the target;
 * 2 for a usage error, a bad input or a failed hash.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yespower.h"
#include "tools/util.h"

#ifndef YESPOWER_CLI_VERSION
#define YESPOWER_CLI_VERSION "unknown"
#endif

#define EXIT_MISSES 1	/* a hash does not meet the target */
#define EXIT_ERROR 2	/* usage error, bad input, failed hash */
#define MAX_THREADS 1024

/* How every input is hashed and reported. */
struct job {
	const yespower_preset_t *preset;	/* or NULL: the fields below */
	yespower_params_t params;
	int b2b;			/* power2b: yespower_b2b_tls() */
	int pers_is_input;		/* the input is its own pers */
	int reverse;			/* print in display order */
	int quiet;			/* print nothing; exit status only */
	int have_target;
	uint8_t target[32];		/* little-endian 256-bit number */
};

static const char *progname = "yespower";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [HEX...]\n"
"Print the yespower hash of each hex input: the arguments, or else each line\n"
"of standard input (batch mode: all cores, answers in input order).\n"
"\n"
"Parameters (default: -v 10 -N 2048 -r 32, no personalization):\n"
"  -p, --preset NAME    a chain's parameters (see --list-presets)\n"
"  -v, --algo-version V 5 (or 0.5) for yescrypt-compatible 0.5; 10 (or 1.0)\n"
"  -N N                 blocks of memory: a power of 2, 1024 to 524288\n"
"  -r R                 block size factor, 8 to 32\n"
"      --pers TEXT      personalization string, as bytes\n"
"      --pers-hex HEX   personalization bytes in hex\n"
"      --pers-input     the input is its own personalization (GlobalBoost)\n"
"      --b2b            power2b: BLAKE2b in place of SHA-256 (version 10)\n"
"Output:\n"
"      --reverse        print hashes reversed, as block explorers show them\n"
"      --target HEX     check hash <= target (a big-endian number, up to 64\n"
"                       hex digits; the hash is read as little-endian)\n"
"      --bits BITS      the same with a compact nBits target, e.g. 1d00ffff\n"
"                       (each line then ends in \" meets\" or \" above\")\n"
"  -q, --quiet          print nothing: the exit status tells\n"
"  -j, --threads N      batch threads (default: one per online CPU)\n"
"      --list-presets   list the presets and exit\n"
"      --version        print the version and exit\n"
"  -h, --help           print this help and exit\n"
"\n"
"Exit status: 0 all hashed (and all meet the target), 1 some hash is above\n"
"the target, 2 usage error or bad input.  In batch mode a bad line gets an\n"
"empty output line and a message naming its line number on stderr.\n",
	    progname);
}

/* Print one error line and return the exit status for it. */
static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

/* After printing what was asked: 0, or say why stdout failed and 2. */
static int finish_output(void)
{
	if (fflush(stdout) != EOF && !ferror(stdout))
		return 0;
	return fail("writing standard output: %s", strerror(errno));
}

/* --target: a big-endian hex number of 1 to 64 digits. */
static int parse_target(const char *s, uint8_t target[32])
{
	char msg[96];

	if (util_parse_target(s, target, msg, sizeof(msg)))
		return fail("--target %s: %s", s, msg);
	return 0;
}

/* --bits: compact nBits, 8 hex digits. */
static int parse_bits(const char *s, uint8_t target[32])
{
	uint8_t b[4];
	char msg[96];

	if (strlen(s) != 8 || util_hex_decode(s, 8, b, msg, sizeof(msg)))
		return fail("--bits %s: give 8 hex digits, as in "
		    "1d00ffff", s);
	if (util_bits_to_target((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3], target, msg, sizeof(msg)))
		return fail("--bits %s: %s", s, msg);
	return 0;
}

/* Hash one input as the job says, with the calling thread's memory. */
static int hash_one(const struct job *job, const uint8_t *src, size_t len,
    yespower_binary_t *dst)
{
	yespower_params_t params;

	if (job->preset)
		return yespower_preset_hash(job->preset, src, len, dst);
	params = job->params;
	if (job->pers_is_input) {
		params.pers = src;
		params.perslen = len;
	}
	if (job->b2b)
		return yespower_b2b_tls(src, len, &params, dst);
	return yespower_tls(src, len, &params, dst);
}

/*
 * The batch engine: the main thread reads inputs into a ring of slots,
 * workers claim them in order and hash them, and a writer thread prints
 * them in order and frees their slots.  Input number seq lives in slot
 * seq % nslots; a slot is refilled only after it was printed, which is
 * only after a worker claimed and finished it (bad inputs too, so that
 * this holds for every slot).  All counters are guarded by lock; a slot's
 * contents belong to whoever moved it to its current state.
 */
enum slot_state { SLOT_FREE, SLOT_READY, SLOT_DONE };

struct slot {
	enum slot_state state;
	unsigned long number;		/* line or argument number */
	uint8_t *data;
	size_t len;
	int bad;			/* the input itself was bad: msg */
	int rc, err;			/* the hash's result and errno */
	char msg[96];
	yespower_binary_t hash;
};

struct batch {
	const struct job *job;
	const char *what;		/* "line" or "argument" */
	pthread_mutex_t lock;
	pthread_cond_t work;		/* an input is ready, or input ended */
	pthread_cond_t done;		/* an input is done, or input ended */
	pthread_cond_t room;		/* a slot was freed */
	struct slot *slots;
	size_t nslots;
	unsigned long nread, nclaimed, nwritten;
	int eof;
	int errors, misses;		/* the writer's counts */
	int write_failed;		/* stdout failed: stop everything */
	int write_errno;
};

static void *worker_main(void *arg)
{
	struct batch *b = arg;
	struct slot *s;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		while (b->nclaimed == b->nread && !b->eof)
			pthread_cond_wait(&b->work, &b->lock);
		if (b->nclaimed == b->nread)
			break;		/* input ended and all claimed */
		s = &b->slots[b->nclaimed++ % b->nslots];
		/* After output failed, nothing more is hashed. */
		if (!s->bad && !b->write_failed) {
			pthread_mutex_unlock(&b->lock);
			errno = 0;
			s->rc = hash_one(b->job, s->data, s->len, &s->hash);
			s->err = errno;
			pthread_mutex_lock(&b->lock);
		}
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&b->done);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/* Print one finished input; return 0, or -1 if stdout failed. */
static int write_slot(struct batch *b, const struct slot *s)
{
	static const char digits[] = "0123456789abcdef";
	const struct job *job = b->job;
	char line[64 + 8];
	int i, meets = 1;

	if (s->bad || s->rc) {
		if (s->bad)
			fprintf(stderr, "%s: %s %lu: %s\n", progname, b->what,
			    s->number, s->msg);
		else
			fprintf(stderr, "%s: %s %lu: hash failed: %s\n",
			    progname, b->what, s->number, strerror(s->err));
		b->errors++;
		/* An empty line keeps output line n the answer to input n. */
		return job->quiet || putchar('\n') != EOF ? 0 : -1;
	}
	if (job->have_target) {
		meets = util_meets_target(s->hash.uc, job->target);
		b->misses += !meets;
	}
	if (job->quiet)
		return 0;
	for (i = 0; i < 32; i++) {
		uint8_t c = s->hash.uc[job->reverse ? 31 - i : i];

		line[2 * i] = digits[c >> 4];
		line[2 * i + 1] = digits[c & 15];
	}
	line[64] = '\0';
	if (job->have_target)
		strcat(line, meets ? " meets" : " above");
	return puts(line) == EOF ? -1 : 0;
}

/*
 * Standard output failed (a closed pipe, a full disk): say so once, and
 * make the reader and the workers stop at once; the writer goes on only
 * freeing slots.  Called by the writer, without the lock.
 */
static void output_failed(struct batch *b)
{
	pthread_mutex_lock(&b->lock);
	if (!b->write_failed) {
		b->write_failed = 1;
		b->write_errno = errno;
		pthread_cond_broadcast(&b->room);
	}
	pthread_mutex_unlock(&b->lock);
}

static void *writer_main(void *arg)
{
	struct batch *b = arg;
	struct slot *s;
	int unflushed = 0;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		s = &b->slots[b->nwritten % b->nslots];
		if (b->nwritten < b->nread && s->state == SLOT_DONE) {
			int failed = b->write_failed;

			pthread_mutex_unlock(&b->lock);
			if (!failed && write_slot(b, s))
				output_failed(b);
			unflushed = !failed;
			free(s->data);
			s->data = NULL;
			pthread_mutex_lock(&b->lock);
			s->state = SLOT_FREE;
			b->nwritten++;
			pthread_cond_signal(&b->room);
		} else if (b->nwritten == b->nread && b->eof) {
			break;
		} else if (unflushed) {
			/* Nothing to print yet: whoever reads our output
			 * gets what is done so far (a co-process needs it). */
			pthread_mutex_unlock(&b->lock);
			if (fflush(stdout) == EOF)
				output_failed(b);
			unflushed = 0;
			pthread_mutex_lock(&b->lock);
		} else {
			pthread_cond_wait(&b->done, &b->lock);
		}
	}
	pthread_mutex_unlock(&b->lock);
	if (!b->write_failed && fflush(stdout) == EOF)
		output_failed(b);
	return NULL;
}

/*
 * Queue input number `number`: text[0 .. len - 1], hex with blanks around
 * it allowed; or, if text is NULL, an input already known to be bad, for
 * the reason in msg.  Waits for a free slot.  Return 0; 1 if standard
 * output failed (stop reading); or -1 if out of memory.
 */
static int batch_add(struct batch *b, unsigned long number,
    const char *text, size_t len, const char *msg)
{
	struct slot *s;

	pthread_mutex_lock(&b->lock);
	while (b->nread - b->nwritten >= b->nslots && !b->write_failed)
		pthread_cond_wait(&b->room, &b->lock);
	if (b->write_failed) {
		pthread_mutex_unlock(&b->lock);
		return 1;
	}
	s = &b->slots[b->nread % b->nslots];
	pthread_mutex_unlock(&b->lock);

	/* Ours until nread moves past it. */
	while (len && (*text == ' ' || *text == '\t')) {
		text++;
		len--;
	}
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' ||
	    text[len - 1] == '\r' || text[len - 1] == '\n'))
		len--;
	s->number = number;
	s->len = len / 2;
	s->data = malloc(s->len + 1);
	if (!s->data)
		return -1;
	if (text)
		s->bad = util_hex_decode(text, len, s->data, s->msg,
		    sizeof(s->msg)) != 0;
	else
		s->bad = snprintf(s->msg, sizeof(s->msg), "%s", msg) > 0;
	s->rc = 0;

	pthread_mutex_lock(&b->lock);
	s->state = SLOT_READY;
	b->nread++;
	pthread_cond_signal(&b->work);
	pthread_mutex_unlock(&b->lock);
	return 0;
}

static void batch_end(struct batch *b)
{
	pthread_mutex_lock(&b->lock);
	b->eof = 1;
	pthread_cond_broadcast(&b->work);
	pthread_cond_broadcast(&b->done);
	pthread_mutex_unlock(&b->lock);
}

/*
 * The longest input line kept: 64 MiB of hex, far beyond any header.  A
 * longer line (or one there is no memory for) is answered as bad, and the
 * rest of it read and dropped, up to LINE_GIVE_UP: past that (reading a
 * device such as /dev/zero, say) the input is given up on.
 */
#define LINE_MAX_KEPT ((size_t)64 << 20)
#define LINE_GIVE_UP ((size_t)1 << 30)

enum line_result { LINE_OK, LINE_TOO_LONG, LINE_NO_MEMORY, LINE_ENDLESS,
    LINE_EOF };

/*
 * read_line(f, buf, cap, len): the next line of f (without its newline,
 * not NUL-terminated) into *buf (grown as needed), its length in *len.
 * On LINE_TOO_LONG and LINE_NO_MEMORY the line was read to its end and
 * dropped; LINE_EOF means nothing more (an error too: see ferror).
 */
static enum line_result read_line(FILE *f, char **buf, size_t *cap,
    size_t *len)
{
	enum line_result r = LINE_OK;
	size_t n = 0, seen = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (++seen > LINE_GIVE_UP)
			return LINE_ENDLESS;
		if (r != LINE_OK)
			continue;
		if (n == LINE_MAX_KEPT) {
			r = LINE_TOO_LONG;
			continue;
		}
		if (n == *cap) {
			size_t grown = *cap ? 2 * *cap : 256;
			char *p = realloc(*buf, grown);

			if (!p) {
				r = LINE_NO_MEMORY;
				continue;
			}
			*buf = p;
			*cap = grown;
		}
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && seen == 0)
		return LINE_EOF;
	*len = n;
	return r;
}

/* Feed the engine the arguments (argc > 0), or else the lines of stdin. */
static int batch_feed(struct batch *b, int argc, char **argv)
{
	char *line = NULL, msg[96];
	size_t cap = 0, n = 0;
	unsigned long number = 0;
	enum line_result r;
	int i, rc = 0;

	if (argc > 0) {
		for (i = 0; i < argc && rc == 0; i++)
			rc = batch_add(b, (unsigned long)i + 1, argv[i],
			    strlen(argv[i]), NULL);
		return rc < 0 ? rc : 0;
	}
	while (rc == 0 && (r = read_line(stdin, &line, &cap, &n)) != LINE_EOF) {
		number++;
		if (r == LINE_ENDLESS) {
			fprintf(stderr, "%s: line %lu: no end in %zu bytes; "
			    "giving up on the input\n", progname, number,
			    LINE_GIVE_UP);
			rc = 2;
		} else if (r == LINE_OK) {
			rc = batch_add(b, number, line ? line : "", n, NULL);
		} else {
			snprintf(msg, sizeof(msg), r == LINE_TOO_LONG ?
			    "too long (more than %zu characters)" :
			    "no memory to read it (%zu characters kept)",
			    r == LINE_TOO_LONG ? LINE_MAX_KEPT : n);
			rc = batch_add(b, number, NULL, 0, msg);
		}
	}
	if (rc == 0 && ferror(stdin)) {
		fprintf(stderr, "%s: reading standard input: %s\n", progname,
		    strerror(errno));
		rc = 2;
	}
	free(line);
	return rc == 1 ? 0 : rc;
}

/* Hash the arguments (argc > 0), or else each line of stdin. */
static int run_batch(const struct job *job, unsigned long nthreads,
    int argc, char **argv)
{
	struct batch b;
	pthread_t writer, *workers;
	unsigned long started = 0, i;
	int rc;

	memset(&b, 0, sizeof(b));
	b.job = job;
	b.what = argc > 0 ? "argument" : "line";
	b.nslots = 4 * nthreads + 4;
	b.slots = calloc(b.nslots, sizeof(*b.slots));
	workers = calloc(nthreads, sizeof(*workers));
	if (!b.slots || !workers) {
		free(b.slots);
		free(workers);
		return fail("out of memory");
	}
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.work, NULL);
	pthread_cond_init(&b.done, NULL);
	pthread_cond_init(&b.room, NULL);

	for (i = 0; i < nthreads; i++)
		if (pthread_create(&workers[started], NULL, worker_main,
		    &b) == 0)
			started++;
	if (started == 0 || pthread_create(&writer, NULL, writer_main, &b)) {
		batch_end(&b);
		for (i = 0; i < started; i++)
			pthread_join(workers[i], NULL);
		free(workers);
		free(b.slots);
		return fail("cannot start threads");
	}

	rc = batch_feed(&b, argc, argv);
	if (rc < 0)
		fprintf(stderr, "%s: out of memory\n", progname);
	batch_end(&b);
	for (i = 0; i < started; i++)
		pthread_join(workers[i], NULL);
	pthread_join(writer, NULL);
	if (b.write_failed) {
		fprintf(stderr, "%s: writing standard output: %s\n",
		    progname, strerror(b.write_errno));
		rc = 1;
	}

	free(workers);
	free(b.slots);
	pthread_mutex_destroy(&b.lock);
	pthread_cond_destroy(&b.work);
	pthread_cond_destroy(&b.done);
	pthread_cond_destroy(&b.room);
	if (rc || b.errors)
		return EXIT_ERROR;
	return b.misses ? EXIT_MISSES : 0;
}

/* Check every argument before hashing any: a bad one is a usage error. */
static int check_arguments(int argc, char **argv)
{
	char msg[96];
	uint8_t *buf;
	int i, bad;

	for (i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);

		buf = malloc(len / 2 + 1);
		if (!buf)
			return fail("out of memory");
		bad = util_hex_decode(argv[i], len, buf, msg, sizeof(msg));
		free(buf);
		if (bad && argc == 1)
			return fail("input: %s", msg);
		if (bad)
			return fail("argument %d: %s", i + 1, msg);
	}
	return 0;
}

/* The command line as given, before it is checked. */
struct options {
	const char *preset, *version, *N, *r, *pers, *pers_hex;
	const char *target, *bits, *threads;
	int b2b, pers_input;
};

/* Turn the options into a job; return 0 or an exit status. */
static int make_job(const struct options *o, struct job *job,
    unsigned long *nthreads, uint8_t **pers_buf)
{
	char msg[96];
	int status;

	if (o->preset) {
		if (o->version || o->N || o->r || o->pers || o->pers_hex ||
		    o->b2b || o->pers_input)
			return fail("--preset cannot be combined with -v, -N, "
			    "-r, --pers, --pers-hex, --pers-input or --b2b");
		job->preset = yespower_preset_find(o->preset);
		if (!job->preset)
			return fail("unknown preset '%s' (%s --list-presets "
			    "lists them)", o->preset, progname);
	}
	job->params.version = YESPOWER_1_0;
	job->params.N = 2048;
	job->params.r = 32;
	if (o->version && util_parse_version(o->version, &job->params.version,
	    msg, sizeof(msg)))
		return fail("-v %s: %s", o->version, msg);
	if (o->N && util_parse_N(o->N, &job->params.N, msg, sizeof(msg)))
		return fail("-N %s: %s", o->N, msg);
	if (o->r && util_parse_r(o->r, &job->params.r, msg, sizeof(msg)))
		return fail("-r %s: %s", o->r, msg);
	if ((o->pers != NULL) + (o->pers_hex != NULL) + o->pers_input > 1)
		return fail("give only one of --pers, --pers-hex and "
		    "--pers-input");
	if (o->pers) {
		job->params.pers = (const uint8_t *)o->pers;
		job->params.perslen = strlen(o->pers);
	}
	if (o->pers_hex) {
		size_t len = strlen(o->pers_hex);

		*pers_buf = malloc(len / 2 + 1);
		if (!*pers_buf)
			return fail("out of memory");
		if (util_hex_decode(o->pers_hex, len, *pers_buf, msg, sizeof(msg)))
			return fail("--pers-hex: %s", msg);
		job->params.pers = *pers_buf;
		job->params.perslen = len / 2;
	}
	job->pers_is_input = o->pers_input;
	job->b2b = o->b2b;
	if (job->b2b && job->params.version != YESPOWER_1_0)
		return fail("--b2b (power2b) needs version 10 (1.0)");

	if (o->target && o->bits)
		return fail("give --target or --bits, not both");
	if (o->target && (status = parse_target(o->target, job->target)))
		return status;
	if (o->bits && (status = parse_bits(o->bits, job->target)))
		return status;
	job->have_target = o->target || o->bits;

	if (o->threads) {
		if (util_parse_ulong(o->threads, 1, MAX_THREADS, nthreads))
			return fail("-j %s: give 1 to %d threads", o->threads,
			    MAX_THREADS);
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		*nthreads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS :
		    (unsigned long)n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_PERS = 256, OPT_PERS_HEX, OPT_PERS_INPUT, OPT_B2B,
	    OPT_REVERSE, OPT_TARGET, OPT_BITS, OPT_LIST, OPT_VERSION };
	static const struct option longopts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "algo-version", required_argument, NULL, 'v' },
		{ "pers", required_argument, NULL, OPT_PERS },
		{ "pers-hex", required_argument, NULL, OPT_PERS_HEX },
		{ "pers-input", no_argument, NULL, OPT_PERS_INPUT },
		{ "b2b", no_argument, NULL, OPT_B2B },
		{ "reverse", no_argument, NULL, OPT_REVERSE },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "bits", required_argument, NULL, OPT_BITS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "threads", required_argument, NULL, 'j' },
		{ "list-presets", no_argument, NULL, OPT_LIST },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct options o;
	struct job job;
	unsigned long nthreads = 1;
	uint8_t *pers_buf = NULL;
	int c, status, ninputs;

	memset(&o, 0, sizeof(o));
	memset(&job, 0, sizeof(job));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:v:N:r:qj:h", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'p': o.preset = optarg; break;
		case 'v': o.version = optarg; break;
		case 'N': o.N = optarg; break;
		case 'r': o.r = optarg; break;
		case OPT_PERS: o.pers = optarg; break;
		case OPT_PERS_HEX: o.pers_hex = optarg; break;
		case OPT_PERS_INPUT: o.pers_input = 1; break;
		case OPT_B2B: o.b2b = 1; break;
		case OPT_REVERSE: job.reverse = 1; break;
		case OPT_TARGET: o.target = optarg; break;
		case OPT_BITS: o.bits = optarg; break;
		case 'q': job.quiet = 1; break;
		case 'j': o.threads = optarg; break;
		case OPT_LIST:
			util_list_presets(stdout);
			return finish_output();
		case OPT_VERSION:
			printf("%s (libyespower) %s, implementation %s\n",
			    progname, YESPOWER_CLI_VERSION,
			    yespower_impl_name());
			return finish_output();
		case 'h':
			usage(stdout);
			return finish_output();
		case ':':
			return fail("%s needs an argument (see %s -h)",
			    argv[optind - 1], progname);
		default: {
			char msg[256];

			util_bad_option(longopts, argv[optind - 1], optopt, msg,
			    sizeof(msg));
			return fail("%s (see %s -h)", msg, progname);
		}
		}
	}
	ninputs = argc - optind;
	status = make_job(&o, &job, &nthreads, &pers_buf);
	if (status == 0)
		status = check_arguments(ninputs, argv + optind);
	if (status == 0) {
		if (ninputs > 0 && nthreads > (unsigned long)ninputs)
			nthreads = (unsigned long)ninputs;
		status = run_batch(&job, nthreads, ninputs, argv + optind);
	}
	free(pers_buf);
	return status;
}
