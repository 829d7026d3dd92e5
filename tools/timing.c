/*
 * tools/timing.c: one clock and one threaded dataset build for every
 * program (see timing.h).
 */
#include <pthread.h>
#include <stdlib.h>

#include "tools/timing.h"

double util_clock(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double util_now(void)
{
	return util_clock(CLOCK_MONOTONIC);
}

/* One thread's share of the dataset. */
typedef struct {
	util_init_items_fn init;
	struct randomx_dataset *dataset;
	struct randomx_cache *cache;
	unsigned long start, count;
	pthread_t tid;
	int started;
} slice;

static void *build_slice(void *arg)
{
	slice *s = arg;

	s->init(s->dataset, s->cache, s->start, s->count);
	return NULL;
}

double util_build_dataset(util_init_items_fn init,
    struct randomx_dataset *dataset, struct randomx_cache *cache,
    unsigned long items, int threads)
{
	unsigned long n, done = 0;
	double t0 = util_now();
	slice *s;
	int t;

	if (threads < 1)
		threads = 1;
	if (threads > UTIL_MAX_BUILD_THREADS)
		threads = UTIL_MAX_BUILD_THREADS;
	n = (unsigned long)threads;
	if (!(s = calloc(n, sizeof(*s))))
		return -1;
	for (t = 0; t < threads; t++) {
		s[t].init = init;
		s[t].dataset = dataset;
		s[t].cache = cache;
		s[t].start = done;
		s[t].count = items / n + ((unsigned long)t < items % n);
		done += s[t].count;
		/* The last slice runs here: one thread fewer to start. */
		if (t < threads - 1 &&
		    !pthread_create(&s[t].tid, NULL, build_slice, &s[t]))
			s[t].started = 1;
	}
	for (t = 0; t < threads; t++)
		if (!s[t].started)
			build_slice(&s[t]);
	for (t = 0; t < threads; t++)
		if (s[t].started)
			pthread_join(s[t].tid, NULL);
	free(s);
	return util_now() - t0;
}
