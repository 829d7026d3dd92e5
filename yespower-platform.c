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
 * copy-on-write, and its first write to one (or first touch of one the
 * parent never touched) needs a fresh huge page, which, when the pool is
 * exhausted, kills it with SIGBUS instead of failing politely.  So every
 * such region is listed here, and the child (a pthread_atfork handler)
 * deals with each without touching its contents, so that a fork costs no
 * copy and no pool page whatever the parent holds:
 * - Working memory (a yespower hash's, a RandomX scratchpad), rewritten
 *   from scratch by every hash: replaced, at the same address, by fresh
 *   normal pages, so the child's objects stay valid and hash as before.
 *   One that cannot be replaced (no memory) is unmapped and marked lost:
 *   pow_region_lost() says so, and its owner allocates anew.
 * - Memory whose contents must survive (keep: RandomX's cache and
 *   dataset) is read-only once built, and reading the parent's pages is
 *   free: it stays shared and is marked inherited.  Only a write in the
 *   child (initializing it again) needs pages of its own:
 *   pow_region_writable() then moves it to normal pages, copying the
 *   pages the parent had touched and no other (those would have to come
 *   from the pool; their contents are zero).
 * A fork followed by exec thus costs what it costs without huge pages.
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
	int inherited;		/* keep: still the parent's pages */
	struct huge_region *next;
};

/*
 * The list is changed under huge_lock; huge_list itself is also read
 * without it (whether there is anything to look up), so every access to
 * it is atomic.
 */
static struct huge_region *huge_list;
static pthread_mutex_t huge_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t huge_once = PTHREAD_ONCE_INIT;
static int lost_count;		/* regions lost in a fork, ever */
static int inherited_count;	/* regions inherited and not yet written */

static void huge_prepare(void)
{
	pthread_mutex_lock(&huge_lock);
}

static void huge_parent(void)
{
	pthread_mutex_unlock(&huge_lock);
}

/* Fresh normal pages at r's address instead of its huge ones: 0 or -1. */
static int replace_huge(const struct huge_region *r)
{
	return mmap(r->base, r->len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ?
	    -1 : 0;
}

/*
 * An inherited region into normal pages of the child's own, with the
 * contents of the huge pages the child can read without a fault (mincore:
 * those the parent had touched before the fork and not written since);
 * the others read as zero, as they would have.  0, or -1 if no memory
 * could be had (the region is then left as it was).
 */
static int own_inherited(struct huge_region *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i, npages = r->len / page;
	unsigned char *resident = malloc(npages ? npages : 1);
	uint8_t *p = map(r->len, 0);
	int rc = -1;

	if (p && resident && !mincore(r->base, r->len, (void *)resident)) {
		for (i = 0; i < npages; i += HUGEPAGE_SIZE / page)
			if (resident[i] & 1)
				memcpy(p + i * page, (uint8_t *)r->base +
				    i * page, HUGEPAGE_SIZE);
		if (mremap(p, r->len, r->len, MREMAP_MAYMOVE | MREMAP_FIXED,
		    r->base) != MAP_FAILED) {
			p = NULL;
			rc = 0;
		}
	}
	if (p)
		munmap(p, r->len);
	free(resident);
	return rc;
}

/*
 * In the child, alone: working memory replaced by normal pages (or, if
 * there is no memory for them, unmapped and marked lost); memory that
 * must survive marked inherited, untouched.
 */
static void huge_child(void)
{
	struct huge_region *r;

	for (r = huge_list; r; r = r->next) {
		if (r->lost || r->inherited)
			continue;
		if (r->keep) {
			r->inherited = 1;
			__atomic_add_fetch(&inherited_count, 1,
			    __ATOMIC_RELEASE);
			continue;
		}
		if (!replace_huge(r))
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
	r->inherited = 0;
	pthread_mutex_lock(&huge_lock);
	r->next = huge_list;
	__atomic_store_n(&huge_list, r, __ATOMIC_RELEASE);
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

	if (!__atomic_load_n(&huge_list, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&huge_lock);
	for (p = &huge_list; (r = *p); p = &r->next)
		if (r->base == base) {
			/* p may be &huge_list, read outside the lock. */
			__atomic_store_n(p, r->next, __ATOMIC_RELEASE);
			lost = r->lost;
			if (r->inherited)
				__atomic_sub_fetch(&inherited_count, 1,
				    __ATOMIC_RELEASE);
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

void pow_region_init(yespower_region_t *region)
{
	region->base = region->aligned = NULL;
	region->base_size = region->aligned_size = 0;
}

int pow_region_alloc_pages(yespower_region_t *region, size_t size,
    int pages, int keep)
{
	void *p = NULL;
	size_t len = size;

	pow_region_init(region);
	if (size == 0 || size > SIZE_MAX - 2 * HUGEPAGE_SIZE) {
		errno = ENOMEM;
		return -1;
	}
#ifdef HAVE_MMAP
	len = round_up(size, (size_t)sysconf(_SC_PAGESIZE));
#ifdef MAP_HUGETLB
	if (pages != POW_PAGES_SMALL &&
	    (len >= HUGEPAGE_SIZE || pages == POW_PAGES_HUGE))
		p = map_hugetlb(&len, keep);
#endif
	if (!p && pages == POW_PAGES_HUGE) {
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
	if (pages == POW_PAGES_HUGE || posix_memalign(&p, 64, len))
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

int pow_region_alloc(yespower_region_t *region, size_t size)
{
	return pow_region_alloc_pages(region, size, POW_PAGES_ANY, 0);
}

int pow_region_lost(const yespower_region_t *region)
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

int pow_region_writable(yespower_region_t *region)
{
#ifdef MAP_HUGETLB
	struct huge_region *r;
	int rc = 0;

	if (!region->base ||
	    !__atomic_load_n(&inherited_count, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&huge_lock);
	for (r = huge_list; r; r = r->next)
		if (r->base == region->base && r->inherited) {
			if ((rc = own_inherited(r)) == 0) {
				r->inherited = 0;
				__atomic_sub_fetch(&inherited_count, 1,
				    __ATOMIC_RELEASE);
			}
			break;
		}
	pthread_mutex_unlock(&huge_lock);
	if (rc)
		errno = ENOMEM;
	return rc;
#else
	(void)region;
	return 0;
#endif
}

int pow_region_free(yespower_region_t *region)
{
	if (region->base) {
#ifdef HAVE_MMAP
#ifdef MAP_HUGETLB
		if (huge_remove(region->base)) {
			pow_region_init(region);
			return 0;
		}
#endif
		if (munmap(region->base, region->base_size))
			return -1;
#else
		free(region->base);
#endif
	}
	pow_region_init(region);
	return 0;
}
