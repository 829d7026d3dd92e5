/*
 * c-verify.c: the C side of node/bench/bench.js, verifying the same shares
 * the same way straight through the libraries, for shares per second to
 * set beside Node's.
 *
 *   c-verify rx light|full v1|v2 THREADS COUNT [REPEAT]
 *   c-verify yespower PRESET THREADS COUNT [REPEAT]
 *
 * A share is a 76-byte blob (bytes i*7+1, the nonce at offset 39 as in
 * Monero's) hashed and compared with a target as pools do (the hash's
 * last 8 bytes, little-endian, below 2^64 / 16).  COUNT shares are split
 * over THREADS threads (a comma-separated list: each in turn, REPEAT
 * times), each with its own VM (RandomX) or its own per-thread memory
 * (yespower); the key's cache or dataset is built once, before the
 * clock starts.  Prints per run "threads T shares/s RATE cpu-s SECONDS
 * valid N": the rate by the wall clock, the process's CPU time.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "randomx/randomx.h"
#include "yespower.h"

#define BLOB 76
#define NONCE_AT 39

static const yespower_preset_t *preset;
static randomx_cache *cache;
static randomx_dataset *dataset;
static randomx_flags vm_flags;
static unsigned long count;
static int threads;

typedef struct {
	pthread_t tid;
	unsigned long first, n, valid;
} worker_t;

static void blob_of(unsigned long nonce, uint8_t *b)
{
	int i;

	for (i = 0; i < BLOB; i++)
		b[i] = (uint8_t)(i * 7 + 1);
	b[NONCE_AT] = (uint8_t)nonce;
	b[NONCE_AT + 1] = (uint8_t)(nonce >> 8);
	b[NONCE_AT + 2] = (uint8_t)(nonce >> 16);
	b[NONCE_AT + 3] = (uint8_t)(nonce >> 24);
}

static int meets(const uint8_t *h)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | h[24 + i];
	return v < UINT64_MAX / 16;
}

static void *work(void *p)
{
	worker_t *w = p;
	uint8_t b[BLOB], h[32];
	randomx_vm *vm = NULL;
	unsigned long i;

	if (!preset && !(vm = randomx_create_vm(vm_flags, cache, dataset))) {
		fprintf(stderr, "c-verify: no VM\n");
		exit(1);
	}
	for (i = w->first; i < w->first + w->n; i++) {
		blob_of(i, b);
		if (preset) {
			if (yespower_preset_hash(preset, b, BLOB,
			    (yespower_binary_t *)h)) {
				perror("c-verify: yespower");
				exit(1);
			}
		} else
			randomx_calculate_hash(vm, b, BLOB, h);
		w->valid += meets(h);
	}
	randomx_destroy_vm(vm);
	return NULL;
}

typedef struct {
	unsigned long start, n;
} slice_t;

static void *init_slice(void *p)
{
	slice_t *s = p;

	randomx_init_dataset(dataset, cache, s->start, s->n);
	return NULL;
}

static void build_dataset(void)
{
	unsigned long n = randomx_dataset_item_count();
	slice_t s[2] = { { 0, n / 2 }, { n / 2, n - n / 2 } };
	pthread_t t;

	if (!(dataset = randomx_alloc_dataset(randomx_get_flags()))) {
		fprintf(stderr, "c-verify: no memory for the dataset\n");
		exit(1);
	}
	pthread_create(&t, NULL, init_slice, &s[1]);
	init_slice(&s[0]);
	pthread_join(t, NULL);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One run: count shares on n threads. */
static void run(int n)
{
	worker_t w[64];
	unsigned long valid = 0;
	double t0 = now(), c0 = cpu_seconds(), t;
	int i;

	for (i = 0; i < n; i++) {
		w[i].first = count * i / n;
		w[i].n = count * (i + 1) / n - w[i].first;
		w[i].valid = 0;
		pthread_create(&w[i].tid, NULL, work, &w[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		valid += w[i].valid;
	}
	t = now() - t0;
	printf("threads %d shares/s %.3f cpu-s %.3f valid %lu\n", n, count / t,
	    cpu_seconds() - c0, valid);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const char key[] = "node bench key";
	const char *list;
	char *end;
	int repeat = 1, r, a;

	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "rx")) {
		randomx_flags f = randomx_get_flags();

		cache = randomx_alloc_cache(f);
		if (!cache) {
			fprintf(stderr, "c-verify: no memory for the cache\n");
			return 1;
		}
		randomx_init_cache(cache, key, sizeof(key) - 1);
		vm_flags = f | (!strcmp(argv[3], "v2") ? RANDOMX_FLAG_V2 : 0);
		if (!strcmp(argv[2], "full")) {
			build_dataset();
			vm_flags |= RANDOMX_FLAG_FULL_MEM;
		}
		a = 4;
	} else if ((argc == 5 || argc == 6) && !strcmp(argv[1], "yespower")) {
		if (!(preset = yespower_preset_find(argv[2]))) {
			fprintf(stderr, "c-verify: no preset %s\n", argv[2]);
			return 1;
		}
		a = 3;
	} else {
		fprintf(stderr, "usage: c-verify rx light|full v1|v2 THREADS "
		    "COUNT [REPEAT] | yespower PRESET THREADS COUNT "
		    "[REPEAT]\n");
		return 2;
	}
	list = argv[a];
	count = strtoul(argv[a + 1], NULL, 10);
	if (argc > a + 2)
		repeat = atoi(argv[a + 2]);
	if (!count || repeat < 1) {
		fprintf(stderr, "c-verify: COUNT and REPEAT must be > 0\n");
		return 2;
	}
	for (r = 0; r < repeat; r++)
		for (const char *p = list; *p; p = *end ? end + 1 : end) {
			threads = (int)strtol(p, &end, 10);
			if (threads < 1 || threads > 64 ||
			    (*end && *end != ',')) {
				fprintf(stderr, "c-verify: threads 1 to 64\n");
				return 2;
			}
			run(threads);
		}
	randomx_release_dataset(dataset);
	randomx_release_cache(cache);
	return 0;
}
