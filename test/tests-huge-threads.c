/*
 * tests-huge-threads.c: explicit huge page regions (yespower-platform.c)
 * allocated, used and freed by several threads at once, as a pool server
 * with a RandomX VM per thread does.  The platform keeps those regions in
 * a list for its fork handler; built with ThreadSanitizer (make
 * check-tsan) this is what must give no report.  Every region must also
 * come back usable and not lost.
 *
 * Usage: tests-huge-threads [--need-huge]   (fail, rather than skip, if
 * no huge pages are reserved: as root, sysctl vm.nr_hugepages=16)
 * Prints "tests-huge-threads: N passed, N failed[, N skipped (why)]".
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "yespower-impl.h"

#define THREADS 4
#define ROUNDS 200

#define TEST_NAME "tests-huge-threads"
#include "test/report.h"

struct worker {
	int bad;		/* a region unusable or lost */
	int huge;		/* rounds that had a huge page */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		yespower_region_t huge, small;
		int got = !pow_region_alloc_pages(&huge, (size_t)1 << 20,
		    POW_PAGES_HUGE, i & 1);

		/* A region that is never listed: freeing it looks the list
		 * up too, while other threads change it. */
		if (pow_region_alloc_pages(&small, 4096,
		    POW_PAGES_SMALL, 0)) {
			w->bad = 1;
		} else {
			memset(small.aligned, i, 4096);
			pow_region_free(&small);
		}
		if (!got)
			continue;	/* another thread has the pages */
		w->huge++;
		memset(huge.aligned, i, (size_t)1 << 20);
		if (pow_region_lost(&huge) || pow_region_free(&huge))
			w->bad = 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int need_huge = argc > 1 && !strcmp(argv[1], "--need-huge");
	struct worker w[THREADS];
	pthread_t t[THREADS];
	yespower_region_t probe;
	int i, bad = 0, huge = 0, started = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pow_region_alloc_pages(&probe, 4096, POW_PAGES_HUGE, 0)) {
		if (need_huge)
			check("a huge page (--need-huge)", 0);
		skip("no huge pages: as root, sysctl vm.nr_hugepages=16");
		return summary();
	}
	pow_region_free(&probe);
	memset(w, 0, sizeof(w));
	for (i = 0; i < THREADS; i++)
		started += !pthread_create(&t[i], NULL, work, &w[i]);
	check("threads started", started == THREADS);
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		bad |= w[i].bad;
		huge += w[i].huge;
	}
	check("every region usable, none lost", !bad);
	check("the threads had huge pages", huge > 0);
	printf("tests-huge-threads: %d huge regions in %d threads\n", huge,
	    started);
	return summary();
}
