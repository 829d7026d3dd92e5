/*
 * huge-pool.h: the system's pool of explicit 2 MiB pages, for the tests
 * that fork with the pool exhausted (tests-fork, tests-rx-fork).  Define
 * _GNU_SOURCE (for MAP_HUGETLB) before including it.
 */
#ifndef YESPOWER_HUGE_POOL_H
#define YESPOWER_HUGE_POOL_H

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE ((size_t)2 << 20)
#define MAX_GRAB 65536

/* HugePages_Free from /proc/meminfo, or -1. */
static inline long huge_free(void)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "HugePages_Free: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/*
 * Take the rest of the pool into grabbed[] (MAX_GRAB entries), each page
 * touched so that it is really taken (again while another process gives
 * pages back); how many were taken.  huge_release gives them back.
 */
static inline size_t huge_grab(void *grabbed[])
{
	size_t n = 0, misses = 0;

	while (n < MAX_GRAB && huge_free() > 0 && misses < 1000) {
		void *p = mmap(NULL, HUGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

		if (p == MAP_FAILED) {
			misses++;	/* reserved by someone else? */
			continue;
		}
		memset(p, 1, HUGE);
		grabbed[n++] = p;
	}
	return n;
}

static inline void huge_release(void *grabbed[], size_t n)
{
	while (n)
		munmap(grabbed[--n], HUGE);
}

#endif /* !YESPOWER_HUGE_POOL_H */
