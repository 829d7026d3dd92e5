/*
 * rx-cache-abcompare.c: how fast two RandomX shared libraries (anything
 * with randomx.h's API: this library's librandomx.so, the reference built
 * with -DBUILD_SHARED_LIBS=ON) build a cache (Argon2d and the
 * SuperscalarHash programs, randomx_init_cache) and compute dataset items
 * from it (randomx_init_dataset on one thread, without a JIT), measured
 * side by side in one process.  Rounds alternate which library goes
 * first, so that the machine's drift and load fall on both alike.  Each
 * round uses a new key, and both libraries' caches and dataset items must
 * be the same.
 *
 * Usage: rx-cache-abcompare [-r ROUNDS] [-n ITEMS] [-f FLAGS] libA.so libB.so
 *   -r ROUNDS  rounds (default 5)
 *   -n ITEMS   dataset items per round (default 100000; 0: none)
 *   -f FLAGS   randomx_alloc_cache's flags (default: RANDOMX_FLAG_ARGON2_AVX2
 *              if both libraries offer it, else _SSSE3 if both do, else 0)
 * Prints each round's times, then each library's mean cache time and items
 * per second, and A / B for the time, B / A for the rate (above 1: B is
 * faster).  Exit status 1 if the libraries disagree, 2 for a usage or
 * setup error.
 */
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/randomx-dl.h"
#include "tools/timing.h"

#define CACHE_BYTES ((size_t)262144 * 1024)
#define FIRST_ITEM 1000000UL

typedef struct {
	randomx_dl api;
	randomx_cache *cache;
	randomx_dataset *dataset;
	double cache_seconds, item_seconds;
} lib;

/* Load the library at path into l. */
static void load(lib *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	randomx_dl_load(&l->api, "rx-cache-abcompare", path);
}

/* One library's turn in a round: the cache of key, then the items. */
static void run(lib *l, const char *key, unsigned long items, double *tc,
    double *td)
{
	double t0 = util_now(), t1, t2;

	l->api.init_cache(l->cache, key, strlen(key));
	t1 = util_now();
	if (items)
		l->api.init_dataset(l->dataset, l->cache, FIRST_ITEM, items);
	t2 = util_now();
	*tc = t1 - t0;
	*td = t2 - t1;
	l->cache_seconds += *tc;
	l->item_seconds += *td;
}

static randomx_flags default_flags(lib *a, lib *b)
{
	unsigned both = (unsigned)a->api.get_flags() & (unsigned)b->api.get_flags();

	if (both & RANDOMX_FLAG_ARGON2_AVX2)
		return RANDOMX_FLAG_ARGON2_AVX2;
	if (both & RANDOMX_FLAG_ARGON2_SSSE3)
		return RANDOMX_FLAG_ARGON2_SSSE3;
	return RANDOMX_FLAG_DEFAULT;
}

static void usage(void)
{
	fprintf(stderr, "usage: rx-cache-abcompare [-r ROUNDS] [-n ITEMS] "
	    "[-f FLAGS] libA.so libB.so\n");
	exit(2);
}

int main(int argc, char **argv)
{
	lib libs[2];
	int rounds = 5, r, i, argi = 1, flags = -1, differ = 0;
	unsigned long items = 100000;

	for (; argi < argc && argv[argi][0] == '-'; argi += 2) {
		if (argi + 1 >= argc)
			usage();
		if (strcmp(argv[argi], "-r") == 0)
			rounds = atoi(argv[argi + 1]);
		else if (strcmp(argv[argi], "-n") == 0)
			items = strtoul(argv[argi + 1], NULL, 10);
		else if (strcmp(argv[argi], "-f") == 0)
			flags = atoi(argv[argi + 1]);
		else
			usage();
	}
	if (argc - argi != 2 || rounds < 1 || items > 10000000)
		usage();
	load(&libs[0], argv[argi]);
	load(&libs[1], argv[argi + 1]);
	if (flags < 0)
		flags = (int)default_flags(&libs[0], &libs[1]);
	for (i = 0; i < 2; i++) {
		libs[i].cache = libs[i].api.alloc_cache((randomx_flags)flags);
		libs[i].dataset = libs[i].api.alloc_dataset(RANDOMX_FLAG_DEFAULT);
		if (!libs[i].cache || !libs[i].dataset) {
			fprintf(stderr, "rx-cache-abcompare: %s: cannot "
			    "allocate with flags %d\n", libs[i].api.path, flags);
			return 2;
		}
		/* Touch the memory once, outside the measurement. */
		libs[i].api.init_cache(libs[i].cache, "warm-up", 7);
	}
	printf("flags %d, %lu items per round from item %lu\n", flags, items,
	    FIRST_ITEM);
	for (r = 0; r < rounds; r++) {
		char key[32];
		double tc[2], td[2];
		int first = r & 1;

		snprintf(key, sizeof(key), "rx-cache-abcompare %d", r);
		run(&libs[first], key, items, &tc[first], &td[first]);
		run(&libs[!first], key, items, &tc[!first], &td[!first]);
		if (memcmp(libs[0].api.cache_memory(libs[0].cache),
		    libs[1].api.cache_memory(libs[1].cache), CACHE_BYTES) ||
		    (items && memcmp((uint8_t *)libs[0].api.dataset_memory(
		    libs[0].dataset) + 64 * FIRST_ITEM,
		    (uint8_t *)libs[1].api.dataset_memory(libs[1].dataset) +
		    64 * FIRST_ITEM, 64 * items))) {
			printf("round %d: the libraries disagree\n", r);
			differ = 1;
		}
		printf("round %d: cache A %.3f s, B %.3f s; items A %.0f/s, "
		    "B %.0f/s\n", r, tc[0], tc[1],
		    td[0] > 0 ? items / td[0] : 0, td[1] > 0 ? items / td[1] : 0);
	}
	printf("cache: A %.3f s, B %.3f s, A/B %.3f\n",
	    libs[0].cache_seconds / rounds, libs[1].cache_seconds / rounds,
	    libs[0].cache_seconds / libs[1].cache_seconds);
	if (items)
		printf("dataset items: A %.0f/s, B %.0f/s, B/A %.3f\n",
		    items * rounds / libs[0].item_seconds,
		    items * rounds / libs[1].item_seconds,
		    libs[0].item_seconds / libs[1].item_seconds);
	for (i = 0; i < 2; i++) {
		libs[i].api.release_dataset(libs[i].dataset);
		libs[i].api.release_cache(libs[i].cache);
	}
	return differ;
}
