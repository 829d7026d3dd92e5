/*
 * tests-threads.c: many threads hashing at once, and per-thread memory
 * given back when threads exit.
 *
 * Each round starts THREADS threads (more than this machine has CPUs),
 * each hashing a different mix of parameter sets and inputs through
 * yespower_tls (and, every other thread, through its own yespower_local_t)
 * and comparing every answer with the one computed beforehand on the main
 * thread.  Threads are created and joined ROUNDS times; the process's
 * virtual size must not grow from round to round, which it would by
 * megabytes per thread if a thread's yespower_tls memory outlived it.
 */
#include <pthread.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "yespower.h"
#include "tests-util.h"

#define TEST_NAME "tests-threads"
#include "test/report.h"

#define THREADS 12
#define ROUNDS 12
#define HASHES_PER_THREAD 6

static const struct {
	yespower_version_t v;
	uint32_t N, r;
	const char *pers;
} sets[] = {
	{ YESPOWER_0_5, 2048, 8, "Client Key" },
	{ YESPOWER_1_0, 2048, 8, NULL },
	{ YESPOWER_1_0, 1024, 32, "personality test" },
	{ YESPOWER_0_5, 4096, 16, "Client Key" },
	{ YESPOWER_1_0, 4096, 16, NULL },
	{ YESPOWER_1_0, 2048, 32, "x" },
	{ YESPOWER_0_5, 1024, 13, NULL },
};
#define NSETS (sizeof(sets) / sizeof(sets[0]))
#define NCASES (NSETS * 3)

static yespower_binary_t expected[NCASES];

/* Case c: parameter set c % NSETS, input of c * 7 bytes. */
static int hash_case(unsigned c, yespower_local_t *local,
    yespower_binary_t *out)
{
	yespower_params_t p = { sets[c % NSETS].v, sets[c % NSETS].N,
	    sets[c % NSETS].r, (const uint8_t *)sets[c % NSETS].pers,
	    sets[c % NSETS].pers ? strlen(sets[c % NSETS].pers) : 0 };
	uint8_t src[NCASES * 7];
	size_t i;

	for (i = 0; i < c * 7; i++)
		src[i] = (uint8_t)(c + i);
	return local ? yespower(local, src, c * 7, &p, out) :
	    yespower_tls(src, c * 7, &p, out);
}

typedef struct {
	unsigned id;
	int errors;
} worker_arg;

static void *worker(void *argp)
{
	worker_arg *arg = argp;
	yespower_local_t local;
	int own = arg->id & 1;
	unsigned k;

	yespower_init_local(&local);
	for (k = 0; k < HASHES_PER_THREAD; k++) {
		unsigned c = (arg->id * 5 + k * 3) % NCASES;
		yespower_binary_t h;

		if (hash_case(c, own ? &local : NULL, &h) ||
		    memcmp(&h, &expected[c], sizeof(h)))
			arg->errors++;
	}
	if (yespower_free_local(&local))
		arg->errors++;
	return NULL;
}

/* The process's virtual size in KiB (Linux), or -1. */
static long vm_size_kib(void)
{
	long long bytes = statm_bytes(0);

	return bytes < 0 ? -1 : (long)(bytes / 1024);
}

int main(void)
{
	long vm_first = -1, vm_last = -1;
	int errors = 0, round, grew;
	unsigned c, t;

#ifdef M_ARENA_MAX
	/*
	 * One malloc arena for every thread: glibc otherwise adds an arena
	 * (64 MiB of address space) whenever threads happen to contend, in
	 * any round, which read here as 65536 KiB of growth under load.
	 * The library's per-thread memory is mapped on its own and still
	 * shows if it outlives its thread.
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	for (c = 0; c < NCASES; c++) {
		if (hash_case(c, NULL, &expected[c])) {
			printf("threads: single-threaded hash failed\n");
			return 1;
		}
	}

	for (round = 0; round < ROUNDS; round++) {
		pthread_t tid[THREADS];
		worker_arg arg[THREADS];

		for (t = 0; t < THREADS; t++) {
			arg[t].id = round * THREADS + t;
			arg[t].errors = 0;
			if (pthread_create(&tid[t], NULL, worker, &arg[t])) {
				printf("threads: pthread_create failed\n");
				return 1;
			}
		}
		for (t = 0; t < THREADS; t++) {
			pthread_join(tid[t], NULL);
			errors += arg[t].errors;
		}
		/* Round 0 sets up thread stacks and malloc arenas, which
		 * are then reused: measure from round 1 on. */
		if (round == 1)
			vm_first = vm_size_kib();
		vm_last = vm_size_kib();
	}

	printf("threads: %d rounds of %d threads, %d wrong answers: %s\n",
	    ROUNDS, THREADS, errors, errors ? "FAILED" : "ok");
	/* A leaked region is at least 1 MiB per thread per round. */
	grew = vm_first < 0 || vm_last - vm_first > 8192;
	if (vm_first < 0)
		printf("threads: cannot read /proc/self/statm: FAILED\n");
	else
		printf("threads: virtual size grew by %ld KiB over %d rounds: "
		    "%s\n", vm_last - vm_first, ROUNDS - 2,
		    grew ? "FAILED (memory not freed)" : "ok");
	check("no wrong answers", !errors);
	check("memory freed at thread exit", !grew);
	return summary();
}
