/*
 * tests-stress.c: many threads hashing at once with every kind of call,
 * threads created and joined over and over, per-thread memory given back.
 *
 * Usage: tests-stress [ROUNDS [THREADS]]
 * (defaults: 10 rounds of 4 threads per CPU, at least 8).  Each round
 * starts THREADS threads, or twice as many every third round, so the
 * threads outnumber the CPUs; each computes a different stretch of a list
 * of jobs and compares every answer with the one the main thread computed
 * beforehand.  The jobs mix both families (yespower, power2b), both
 * versions, N from 1024 to 4096, r from 8 to 32, no, empty and long
 * personalizations, and five ways to call:
 *   - yespower_tls / yespower_b2b_tls;
 *   - yespower / yespower_b2b on the thread's own local, kept across its
 *     jobs so that it grows and shrinks;
 *   - the same on a local taken from a small pool shared by all threads,
 *     each used by one thread at a time but by many threads in turn;
 *   - yespower_preset_hash on every preset;
 *   - invalid parameters, which must give -1, EINVAL and all 0xff.
 * Unless YESPOWER_IMPL chooses a core, one more thread keeps switching
 * the core (yespower_set_impl) among those this CPU runs while the others
 * hash: a hash must give the same answer whichever core it starts with.
 *
 * The process's resident size, from the second round to the last, must not
 * grow by more than 64 MiB: each thread's yespower_tls region (1 to 16 MiB)
 * would add up to far more if it outlived its thread.
 * Prints a summary; exits 1 on any wrong answer or growth.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "yespower.h"
#include "tests-util.h"

#define TEST_NAME "tests-stress"
#include "test/report.h"

/* ---- the jobs ---- */

typedef enum {
	CALL_TLS, CALL_OWN_LOCAL, CALL_SHARED_LOCAL, CALL_PRESET,
	CALL_INVALID, NCALLS
} call_kind;

static const struct {
	int b2b;
	yespower_version_t v;
	uint32_t N, r;
	const char *pers;
} sets[] = {
	{ 0, YESPOWER_0_5, 2048, 8, "Client Key" },
	{ 0, YESPOWER_1_0, 2048, 8, NULL },
	{ 1, YESPOWER_1_0, 2048, 32, "power2b" },
	{ 0, YESPOWER_1_0, 1024, 32, "personality test" },
	{ 1, YESPOWER_1_0, 1024, 8, "" },
	{ 0, YESPOWER_0_5, 4096, 16, "" },
	{ 0, YESPOWER_0_5, 1024, 13, NULL },
	{ 1, YESPOWER_1_0, 4096, 16, NULL },
	{ 0, YESPOWER_1_0, 4096, 24, "Satoshi Nakamoto 31/Oct/2008 "
	    "Proof-of-work is essentially one-CPU-one-vote" },
	{ 1, YESPOWER_1_0, 2048, 11, "x" },
};
#define NSETS (sizeof(sets) / sizeof(sets[0]))

/* Invalid parameter sets for CALL_INVALID (power2b with 0.5 included). */
static const struct {
	int b2b;
	yespower_params_t p;
} invalid[] = {
	{ 0, { YESPOWER_1_0, 3000, 8, NULL, 0 } },
	{ 1, { YESPOWER_0_5, 2048, 8, NULL, 0 } },
	{ 0, { YESPOWER_0_5, 2048, 33, NULL, 0 } },
	{ 1, { YESPOWER_1_0, 2048, 8, NULL, 4 } },
	{ 0, { (yespower_version_t)7, 2048, 8, NULL, 0 } },
};
#define NINVALID (sizeof(invalid) / sizeof(invalid[0]))

/* A job: a call kind and, for hashes, a parameter set (or preset) and an
 * input length.  Job j is fixed by j alone. */
#define NJOBS 60
#define MAXLEN 96

typedef struct {
	call_kind call;
	unsigned set;		/* into sets, the presets or invalid */
	size_t len;
} job;

static job jobs[NJOBS];
static yespower_binary_t expected[NJOBS];
static size_t npresets;

static void make_jobs(void)
{
	unsigned j;

	while (yespower_preset_at(npresets))
		npresets++;
	for (j = 0; j < NJOBS; j++) {
		jobs[j].call = (call_kind)(j % NCALLS);
		jobs[j].len = (j * 37) % (MAXLEN + 1);
		if (jobs[j].call == CALL_PRESET)
			jobs[j].set = (j / NCALLS) % (unsigned)npresets;
		else if (jobs[j].call == CALL_INVALID)
			jobs[j].set = (j / NCALLS) % NINVALID;
		else
			jobs[j].set = (j * 7 + j / NCALLS) % NSETS;
	}
}

static void job_input(unsigned j, uint8_t *src)
{
	size_t i;

	for (i = 0; i < jobs[j].len; i++)
		src[i] = (uint8_t)(j * 29 + i * 3);
}

static void job_params(unsigned j, yespower_params_t *p, int *b2b)
{
	unsigned s = jobs[j].set;

	p->version = sets[s].v;
	p->N = sets[s].N;
	p->r = sets[s].r;
	p->pers = (const uint8_t *)sets[s].pers;
	p->perslen = sets[s].pers ? strlen(sets[s].pers) : 0;
	*b2b = sets[s].b2b;
}

static int hash_local(int b2b, yespower_local_t *local, const uint8_t *src,
    size_t len, const yespower_params_t *p, yespower_binary_t *dst)
{
	return b2b ? yespower_b2b(local, src, len, p, dst) :
	    yespower(local, src, len, p, dst);
}

/* The pool of shared locals: each taken by one thread at a time. */
#define NSHARED 3
static yespower_local_t shared[NSHARED];
static int shared_busy[NSHARED];
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t shared_free = PTHREAD_COND_INITIALIZER;

static yespower_local_t *take_shared(unsigned hint)
{
	unsigned k;

	pthread_mutex_lock(&shared_lock);
	for (;;) {
		for (k = 0; k < NSHARED; k++) {
			unsigned i = (hint + k) % NSHARED;

			if (!shared_busy[i]) {
				shared_busy[i] = 1;
				pthread_mutex_unlock(&shared_lock);
				return &shared[i];
			}
		}
		pthread_cond_wait(&shared_free, &shared_lock);
	}
}

static void give_back_shared(yespower_local_t *local)
{
	pthread_mutex_lock(&shared_lock);
	shared_busy[local - shared] = 0;
	pthread_cond_signal(&shared_free);
	pthread_mutex_unlock(&shared_lock);
}

/*
 * Run job j with the given call (the main thread computes the expected
 * answers with CALL_OWN_LOCAL instead).  For CALL_INVALID, 0 means it was
 * refused as it must be.
 */
static int run_job(unsigned j, call_kind call, yespower_local_t *own,
    yespower_binary_t *out)
{
	uint8_t src[MAXLEN];
	yespower_params_t p;
	yespower_local_t *local;
	int b2b, rc;

	job_input(j, src);
	switch (call) {
	case CALL_PRESET:
		return yespower_preset_hash(yespower_preset_at(jobs[j].set),
		    src, jobs[j].len, out);
	case CALL_INVALID:
		errno = 0;
		rc = invalid[jobs[j].set].b2b ?
		    yespower_b2b_tls(src, jobs[j].len,
		    &invalid[jobs[j].set].p, out) :
		    yespower_tls(src, jobs[j].len, &invalid[jobs[j].set].p,
		    out);
		rc = rc == -1 && errno == EINVAL && all_ff(out);
		memset(out, 0, sizeof(*out));	/* compared with 0s */
		return !rc;
	case CALL_TLS:
		job_params(j, &p, &b2b);
		return b2b ? yespower_b2b_tls(src, jobs[j].len, &p, out) :
		    yespower_tls(src, jobs[j].len, &p, out);
	case CALL_OWN_LOCAL:
		job_params(j, &p, &b2b);
		return hash_local(b2b, own, src, jobs[j].len, &p, out);
	case CALL_SHARED_LOCAL:
		job_params(j, &p, &b2b);
		local = take_shared(j);
		rc = hash_local(b2b, local, src, jobs[j].len, &p, out);
		give_back_shared(local);
		return rc;
	default:
		return -1;
	}
}

/* ---- threads ---- */

#define JOBS_PER_THREAD 6

typedef struct {
	unsigned id;
	int errors;
} worker_arg;

static void *worker(void *argp)
{
	worker_arg *arg = argp;
	yespower_local_t own;
	unsigned k;

	if (yespower_init_local(&own)) {
		arg->errors++;
		return NULL;
	}
	for (k = 0; k < JOBS_PER_THREAD; k++) {
		unsigned j = (arg->id * 11 + k * 13) % NJOBS;
		yespower_binary_t h;

		memset(&h, 0x55, sizeof(h));
		if (run_job(j, jobs[j].call, &own, &h) ||
		    memcmp(&h, &expected[j], sizeof(h))) {
			printf("stress: thread %u job %u (call %d) wrong\n",
			    arg->id, j, (int)jobs[j].call);
			arg->errors++;
		}
	}
	if (yespower_free_local(&own))
		arg->errors++;
	return NULL;
}

/* The core switcher: cycles through the cores this CPU runs until told
 * to stop; each switch happens while hashes are running. */
static const char *runnable[8];
static unsigned nrunnable;
static volatile int stop_switching;
static unsigned long switches;

static void find_runnable_cores(void)
{
	const char *name;
	size_t i;

	for (i = 0; (name = yespower_impl_at(i)) && !strchr(name, '=') &&
	    nrunnable < sizeof(runnable) / sizeof(runnable[0]); i++)
		if (yespower_set_impl(name) == 0)
			runnable[nrunnable++] = name;
	yespower_set_impl("auto");
}

static void *switcher(void *unused)
{
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	unsigned i = 0;

	(void)unused;
	while (!__atomic_load_n(&stop_switching, __ATOMIC_ACQUIRE)) {
		if (yespower_set_impl(runnable[i++ % nrunnable]) == 0)
			switches++;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* The process's resident size in KiB (Linux), or -1.  Resident, not
 * virtual: glibc reserves 64 MiB of address space per malloc arena, and
 * how many arenas it makes depends on how threads happen to collide, but
 * it touches little of them; a leaked region is written all over. */
static long rss_kib(void)
{
	long long bytes = statm_bytes(1);

	return bytes < 0 ? -1 : (long)(bytes / 1024);
}

static int run_round(unsigned round, unsigned nthreads, int switching)
{
	pthread_t *tid = calloc(nthreads, sizeof(*tid)), sw;
	worker_arg *arg = calloc(nthreads, sizeof(*arg));
	unsigned t, started = 0;
	int errors = 0;

	if (!tid || !arg) {
		free(tid);
		free(arg);
		return 1;
	}
	stop_switching = 0;
	if (switching && pthread_create(&sw, NULL, switcher, NULL))
		switching = 0;
	for (t = 0; t < nthreads; t++, started++) {
		arg[t].id = round * 1000 + t;
		if (pthread_create(&tid[t], NULL, worker, &arg[t])) {
			printf("stress: pthread_create failed\n");
			errors++;
			break;
		}
	}
	for (t = 0; t < started; t++) {
		pthread_join(tid[t], NULL);
		errors += arg[t].errors;
	}
	if (switching) {
		__atomic_store_n(&stop_switching, 1, __ATOMIC_RELEASE);
		pthread_join(sw, NULL);
		yespower_set_impl("auto");
	}
	free(tid);
	free(arg);
	return errors;
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 10;
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) :
	    (unsigned)(ncpu > 2 ? 4 * ncpu : 8);
	const char *env = getenv("YESPOWER_IMPL");
	int switching = !env || !*env;
	long vm_first = -1, vm_last = -1, vm_max = -1;
	unsigned long total_threads = 0;
	yespower_local_t local;
	int errors = 0;
	unsigned j, round, k;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rounds < 1 || threads < 1) {
		fprintf(stderr, "usage: tests-stress [ROUNDS [THREADS]]\n");
		return 2;
	}
	make_jobs();
	for (k = 0; k < NSHARED; k++)
		yespower_init_local(&shared[k]);

	/* The expected answers, single-threaded, one local. */
	yespower_init_local(&local);
	for (j = 0; j < NJOBS; j++) {
		call_kind c = jobs[j].call == CALL_TLS ||
		    jobs[j].call == CALL_SHARED_LOCAL ? CALL_OWN_LOCAL :
		    jobs[j].call;

		if (run_job(j, c, &local, &expected[j])) {
			printf("stress: single-threaded job %u failed\n", j);
			return 1;
		}
	}
	yespower_free_local(&local);

	if (switching)
		find_runnable_cores();
	printf("stress: %u rounds of %u threads (%ld CPUs), %u jobs of "
	    "%d kinds, core %s\n", rounds, threads, ncpu, NJOBS,
	    (int)NCALLS, switching ? "switching while hashing" :
	    yespower_impl_name());

	for (round = 0; round < rounds; round++) {
		unsigned n = round % 3 == 2 ? 2 * threads : threads;
		long vm;

		errors += run_round(round, n, switching && nrunnable > 1);
		total_threads += n;
		/* Round 0 sets up thread stacks and malloc arenas, which
		 * are then reused: measure from round 1 on. */
		vm = rss_kib();
		if (round == 1 || (rounds == 1 && round == 0))
			vm_first = vm;
		if (vm > vm_max)
			vm_max = vm;
		vm_last = vm;
	}
	for (k = 0; k < NSHARED; k++)
		if (yespower_free_local(&shared[k]))
			errors++;

	printf("stress: %lu threads in all, %d wrong answers, %lu core "
	    "switches\n", total_threads, errors, switches);
	if (vm_first < 0 || vm_last < 0) {
		printf("stress: FAILED: cannot read /proc/self/statm\n");
		return 1;
	}
	printf("stress: resident size grew by %ld KiB from round 2 to the "
	    "last (at most %ld KiB above)%s\n", vm_last - vm_first,
	    vm_max - vm_first,
	    vm_last - vm_first > 65536 ? ": FAILED (memory not freed)" : "");
	errors += vm_last - vm_first > 65536;
	check("no wrong answers, memory freed", !errors);
	return summary();
}
