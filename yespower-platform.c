/*
 * yespower-platform.c: working memory for the optimized implementation.
 *
 * A region is one mapping holding everything a hash needs (V, XY, S, B).
 * Large regions are given 2 MiB pages when the system has them: first
 * explicit huge pages (MAP_HUGETLB, if the administrator reserved any),
 * else a 2 MiB-aligned mapping marked for transparent huge pages; either
 * way a failure falls back silently to normal pages.  V is walked at random
 * over megabytes, so fewer TLB misses is the point.
 */
#define _GNU_SOURCE 1	/* MAP_ANONYMOUS, MAP_HUGETLB, madvise */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "yespower-impl.h"

#define HUGEPAGE_SIZE ((size_t)2 << 20)

#if defined(MAP_ANONYMOUS) || defined(MAP_ANON)
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#define HAVE_MMAP 1

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) & ~(to - 1);
}

static void *map(size_t len, int extra_flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

#ifdef MAP_HUGETLB
/* Explicit huge pages; Linux wants the length in whole huge pages. */
static void *map_hugetlb(size_t *len)
{
	size_t hlen = round_up(*len, HUGEPAGE_SIZE);
	void *p = map(hlen, MAP_HUGETLB);

	if (p)
		*len = hlen;
	return p;
}
#endif

#ifdef MADV_HUGEPAGE
/*
 * Normal pages, but start on a 2 MiB boundary (over-map, then trim both
 * ends) and ask for transparent huge pages, which the kernel can only use
 * for aligned 2 MiB ranges.
 */
static void *map_thp(size_t len)
{
	uint8_t *p = map(len + HUGEPAGE_SIZE, 0), *a;
	size_t head;

	if (!p)
		return NULL;
	a = (uint8_t *)round_up((uintptr_t)p, HUGEPAGE_SIZE);
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	munmap(a + len, HUGEPAGE_SIZE - head);
	madvise(a, len, MADV_HUGEPAGE);	/* advice only: ignore failure */
	return a;
}
#endif
#endif /* mmap */

void yespower_region_init(yespower_region_t *region)
{
	region->base = region->aligned = NULL;
	region->base_size = region->aligned_size = 0;
}

int yespower_region_alloc(yespower_region_t *region, size_t size)
{
	void *p = NULL;
	size_t len = size;

	yespower_region_init(region);
	if (size == 0 || size > SIZE_MAX - 2 * HUGEPAGE_SIZE) {
		errno = ENOMEM;
		return -1;
	}
#ifdef HAVE_MMAP
	len = round_up(size, (size_t)sysconf(_SC_PAGESIZE));
#ifdef MAP_HUGETLB
	if (len >= HUGEPAGE_SIZE)
		p = map_hugetlb(&len);
#endif
#ifdef MADV_HUGEPAGE
	if (!p && len >= HUGEPAGE_SIZE)
		p = map_thp(len);
#endif
	if (!p)
		p = map(len, 0);
#else
	if (posix_memalign(&p, 64, len))
		p = NULL;
#endif
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	region->base = region->aligned = p;
	region->base_size = len;
	region->aligned_size = size;
	return 0;
}

int yespower_region_free(yespower_region_t *region)
{
	if (region->base) {
#ifdef HAVE_MMAP
		if (munmap(region->base, region->base_size))
			return -1;
#else
		free(region->base);
#endif
	}
	yespower_region_init(region);
	return 0;
}
