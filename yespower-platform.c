/*
 * yespower-platform.c: working memory for the optimized implementation
 * (and RandomX's caches, datasets and scratchpads).
 *
 * A region is one mapping holding everything a hash needs (V, XY, S, B).
 * Large regions are given 2 MiB pages when the system has them: first
 * explicit huge pages (MAP_HUGETLB, if the administrator reserved any),
 * else a 2 MiB-aligned mapping marked for transparent huge pages; either
 * way a failure falls back silently to normal pages.  V is walked at random
 * over megabytes, so fewer TLB misses is the point.
 *
 * Explicit huge pages and fork().  A private MAP_HUGETLB mapping reserves
 * its pages for the process that made it; a child of fork() shares them
 * copy-on-write, and its first write needs a fresh huge page, which,
 * when the pool is exhausted, kills it with SIGBUS instead of failing
 * politely.  So every such region is listed here, and in the child (a
 * pthread_atfork handler) each is replaced, at the same address, by
 * normal pages: the child's locals stay valid and hash as before.  A
 * region that cannot be replaced (no memory) is unmapped and marked lost:
 * yespower_region_lost() says so, and its owner allocates anew.  The
 * working memory's contents need not survive: every hash rewrites it.
 * RandomX's cache and dataset, whose contents must, are copied into the
 * normal pages (yespower_region_alloc_pages' keep).
 */
#define _GNU_SOURCE 1	/* MAP_ANONYMOUS, MAP_HUGETLB, madvise */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
/* The MAP_HUGETLB regions, for the child of a fork. */
struct huge_region {
	void *base;
	size_t len;
	int keep;		/* the contents must survive */
	int lost;
	struct huge_region *next;
};

static struct huge_region *huge_list;
static pthread_mutex_t huge_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t huge_once = PTHREAD_ONCE_INIT;
static int lost_count;		/* regions lost in a fork, ever */

static void huge_prepare(void)
{
	pthread_mutex_lock(&huge_lock);
}

static void huge_parent(void)
{
	pthread_mutex_unlock(&huge_lock);
}

/*
 * Normal pages at r's address instead of its huge ones: 0, or -1 if no
 * memory could be had.  With keep, the contents are copied first (a
 * parent's RandomX cache or dataset), reading the shared huge pages,
 * which needs none of the pool.
 */
static int replace_huge(const struct huge_region *r)
{
	void *p;

	if (!r->keep)
		return mmap(r->base, r->len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED ? -1 : 0;
	if (!(p = map(r->len, 0)))
		return -1;
	memcpy(p, r->base, r->len);
	if (mremap(p, r->len, r->len, MREMAP_MAYMOVE | MREMAP_FIXED,
	    r->base) == MAP_FAILED) {
		munmap(p, r->len);
		return -1;
	}
	return 0;
}

/*
 * In the child, alone: normal pages where the huge ones were.  A region
 * whose contents need not survive and that cannot be replaced is unmapped
 * and marked lost; one whose contents must is left as it is (its reads
 * work; a write would need the pool).
 */
static void huge_child(void)
{
	struct huge_region *r;

	for (r = huge_list; r; r = r->next) {
		if (r->lost || !replace_huge(r) || r->keep)
			continue;
		munmap(r->base, r->len);
		r->lost = 1;
		__atomic_add_fetch(&lost_count, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&huge_lock);
}

static void huge_register_atfork(void)
{
	pthread_atfork(huge_prepare, huge_parent, huge_child);
}

/* List a new MAP_HUGETLB region; 0, or -1 if there is no memory to. */
static int huge_add(void *base, size_t len, int keep)
{
	struct huge_region *r = malloc(sizeof(*r));

	if (!r)
		return -1;
	pthread_once(&huge_once, huge_register_atfork);
	r->base = base;
	r->len = len;
	r->keep = keep;
	r->lost = 0;
	pthread_mutex_lock(&huge_lock);
	r->next = huge_list;
	huge_list = r;
	pthread_mutex_unlock(&huge_lock);
	return 0;
}

/*
 * Take base off the list, if it is there: 1 if it was, and lost (then
 * there is nothing to unmap), else 0.
 */
static int huge_remove(void *base)
{
	struct huge_region **p, *r;
	int lost = 0;

	if (!__atomic_load_n(&huge_list, __ATOMIC_RELAXED))
		return 0;
	pthread_mutex_lock(&huge_lock);
	for (p = &huge_list; (r = *p); p = &r->next)
		if (r->base == base) {
			*p = r->next;
			lost = r->lost;
			free(r);
			break;
		}
	pthread_mutex_unlock(&huge_lock);
	return lost;
}

/* Explicit huge pages; Linux wants the length in whole huge pages. */
static void *map_hugetlb(size_t *len, int keep)
{
	size_t hlen = round_up(*len, HUGEPAGE_SIZE);
	void *p = map(hlen, MAP_HUGETLB);

	if (p && huge_add(p, hlen, keep)) {
		munmap(p, hlen);
		p = NULL;
	}
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

int yespower_region_alloc_pages(yespower_region_t *region, size_t size,
    int pages, int keep)
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
	if (pages != YESPOWER_PAGES_SMALL &&
	    (len >= HUGEPAGE_SIZE || pages == YESPOWER_PAGES_HUGE))
		p = map_hugetlb(&len, keep);
#endif
	if (!p && pages == YESPOWER_PAGES_HUGE) {
		errno = ENOMEM;
		return -1;
	}
#ifdef MADV_HUGEPAGE
	if (!p && len >= HUGEPAGE_SIZE)
		p = map_thp(len);
#endif
	if (!p)
		p = map(len, 0);
#else
	(void)keep;
	if (pages == YESPOWER_PAGES_HUGE || posix_memalign(&p, 64, len))
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

int yespower_region_alloc(yespower_region_t *region, size_t size)
{
	return yespower_region_alloc_pages(region, size, YESPOWER_PAGES_ANY, 0);
}

int yespower_region_lost(const yespower_region_t *region)
{
#ifdef MAP_HUGETLB
	struct huge_region *r;
	int lost = 0;

	if (!region->base || !__atomic_load_n(&lost_count, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&huge_lock);
	for (r = huge_list; r; r = r->next)
		if (r->base == region->base)
			lost = r->lost;
	pthread_mutex_unlock(&huge_lock);
	return lost;
#else
	(void)region;
	return 0;
#endif
}

int yespower_region_free(yespower_region_t *region)
{
	if (region->base) {
#ifdef HAVE_MMAP
#ifdef MAP_HUGETLB
		if (huge_remove(region->base)) {
			yespower_region_init(region);
			return 0;
		}
#endif
		if (munmap(region->base, region->base_size))
			return -1;
#else
		free(region->base);
#endif
	}
	yespower_region_init(region);
	return 0;
}
