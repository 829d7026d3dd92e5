/*
 * tools/timing.h: the clock every program here times with, and the
 * RandomX dataset built on threads.  Shared by the benchmark, the
 * comparison tools and the test programs; it depends on the C library
 * and pthreads only (the dataset's initialization is passed in, so that
 * programs loading a library with dlopen can use it too).
 */
#ifndef POW_TOOLS_TIMING_H
#define POW_TOOLS_TIMING_H

#include <time.h>

/* Seconds on clock id (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...). */
double util_clock(clockid_t id);

/* Seconds on the monotonic clock: what durations are measured with. */
double util_now(void);

/*
 * randomx_init_dataset's type, named through randomx.h's struct tags so
 * that this file needs no randomx.h (the tools load the function at run
 * time; the reference's header has the same tags).
 */
struct randomx_dataset;
struct randomx_cache;
typedef void (*util_init_items_fn)(struct randomx_dataset *dataset,
    struct randomx_cache *cache, unsigned long start, unsigned long count);

/* The most threads a dataset build is asked for: the programs refuse more
 * (a dataset has 34 million items; thousands of threads gain nothing). */
#define UTIL_MAX_BUILD_THREADS 1024

/*
 * util_build_dataset(init, dataset, cache, items, threads): items 0 ..
 * items - 1 of dataset from cache, split into threads slices as even as
 * can be (the first items % threads one item longer), each on a thread
 * of its own; a slice whose thread cannot be started is built on the
 * calling thread.  threads below 1 count as 1, above
 * UTIL_MAX_BUILD_THREADS as that.  Returns the seconds taken, or -1 if the
 * thread table could not be allocated (then nothing is built).
 */
double util_build_dataset(util_init_items_fn init,
    struct randomx_dataset *dataset, struct randomx_cache *cache,
    unsigned long items, int threads);

#endif /* !POW_TOOLS_TIMING_H */
