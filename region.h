/*
 * region.h: memory regions, the one allocator of working memory that
 * yespower and RandomX share (yespower-platform.c, upstream's file name):
 * alignment, explicit and transparent huge pages, and what a child of
 * fork() gets.  Internal to the libraries; the region type is upstream's
 * public yespower_region_t (yespower.h), which yespower_local_t names.
 */
#ifndef POW_REGION_H
#define POW_REGION_H

#include <stddef.h>

#include "yespower.h"

/*
 * pow_region_alloc(region,
 * size) maps at least size bytes aligned to 64 (and, when large, to 2 MiB,
 * with huge pages if the system gives them); it returns 0, or -1 with errno
 * ENOMEM and region left empty.  pow_region_free() unmaps and leaves
 * the region empty; freeing an empty region does nothing.  Thread-safe for
 * distinct regions.
 */
void pow_region_init(yespower_region_t *region);
int pow_region_alloc(yespower_region_t *region, size_t size);
int pow_region_free(yespower_region_t *region);

/*
 * pow_region_alloc_pages(region, size, pages, keep): the same with a
 * choice of pages.  POW_PAGES_ANY is pow_region_alloc's (explicit
 * huge pages, else transparent ones, else normal); POW_PAGES_HUGE
 * explicit huge pages or nothing (ENOMEM), even below 2 MiB;
 * POW_PAGES_SMALL no explicit huge pages (2 MiB-aligned and marked
 * for transparent ones when that large).  keep: the contents must survive
 * a fork (memory written once and read after, as RandomX's cache and
 * dataset): a child then reads the parent's explicit huge pages, and
 * must call pow_region_writable() before writing them; without keep,
 * a child gets fresh zero pages there (working memory).
 */
enum { POW_PAGES_ANY, POW_PAGES_HUGE, POW_PAGES_SMALL };
int pow_region_alloc_pages(yespower_region_t *region, size_t size,
    int pages, int keep);

/*
 * pow_region_lost(region): whether region's memory was lost in a
 * fork (see yespower-platform.c): then it is no longer mapped, and its
 * owner must forget it (pow_region_init) and allocate anew, or free
 * it (which then unmaps nothing).  Cheap unless a fork lost one.
 */
int pow_region_lost(const yespower_region_t *region);

/*
 * pow_region_writable(region): before writing a keep region that a
 * child of fork may have inherited in the parent's huge pages: moves it
 * to pages of the child's own (the parent's contents copied), once.  0,
 * or -1 with errno ENOMEM (the region then still reads as before, but
 * must not be written).  One atomic load unless a fork left such a
 * region; safe from several threads at once.
 */
int pow_region_writable(yespower_region_t *region);

#endif /* !POW_REGION_H */
