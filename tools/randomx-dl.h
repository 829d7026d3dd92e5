/*
 * tools/randomx-dl.h: a RandomX shared library loaded at run time, for the
 * tools that compare two of them side by side (rx-abcompare.c,
 * rx-cache-abcompare.c): anything with randomx.h's API (this library's
 * librandomx.so, the reference built with -DBUILD_SHARED_LIBS=ON).
 */
#ifndef TOOLS_RANDOMX_DL_H
#define TOOLS_RANDOMX_DL_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randomx.h"

/* The functions the tools call, from one library. */
typedef struct {
	const char *path;
	void *dl;
	randomx_flags (*get_flags)(void);
	randomx_cache *(*alloc_cache)(randomx_flags);
	void (*init_cache)(randomx_cache *, const void *, size_t);
	void *(*cache_memory)(randomx_cache *);
	void (*release_cache)(randomx_cache *);
	randomx_dataset *(*alloc_dataset)(randomx_flags);
	unsigned long (*item_count)(void);
	void (*init_dataset)(randomx_dataset *, randomx_cache *,
	    unsigned long, unsigned long);
	void *(*dataset_memory)(randomx_dataset *);
	void (*release_dataset)(randomx_dataset *);
	randomx_vm *(*create_vm)(randomx_flags, randomx_cache *,
	    randomx_dataset *);
	void (*destroy_vm)(randomx_vm *);
	void (*hash_first)(randomx_vm *, const void *, size_t);
	void (*hash_next)(randomx_vm *, const void *, size_t, void *);
	void (*hash_last)(randomx_vm *, void *);
} randomx_dl;

/* A function of d's library, or exit 2 naming it (prog: for messages). */
static void *randomx_dl_sym(const randomx_dl *d, const char *prog,
    const char *name)
{
	void *p = dlsym(d->dl, name);

	if (!p) {
		fprintf(stderr, "%s: %s: no %s\n", prog, d->path, name);
		exit(2);
	}
	return p;
}

/* Load the library at path into d, or exit 2. */
static void randomx_dl_load(randomx_dl *d, const char *prog,
    const char *path)
{
#define RANDOMX_DL(field, name) \
	(*(void **)&d->field = randomx_dl_sym(d, prog, "randomx_" name))
	memset(d, 0, sizeof(*d));
	d->path = path;
	/* RTLD_LOCAL keeps the two libraries' randomx_* apart. */
	if (!(d->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "%s: %s\n", prog, dlerror());
		exit(2);
	}
	RANDOMX_DL(get_flags, "get_flags");
	RANDOMX_DL(alloc_cache, "alloc_cache");
	RANDOMX_DL(init_cache, "init_cache");
	RANDOMX_DL(cache_memory, "get_cache_memory");
	RANDOMX_DL(release_cache, "release_cache");
	RANDOMX_DL(alloc_dataset, "alloc_dataset");
	RANDOMX_DL(item_count, "dataset_item_count");
	RANDOMX_DL(init_dataset, "init_dataset");
	RANDOMX_DL(dataset_memory, "get_dataset_memory");
	RANDOMX_DL(release_dataset, "release_dataset");
	RANDOMX_DL(create_vm, "create_vm");
	RANDOMX_DL(destroy_vm, "destroy_vm");
	RANDOMX_DL(hash_first, "calculate_hash_first");
	RANDOMX_DL(hash_next, "calculate_hash_next");
	RANDOMX_DL(hash_last, "calculate_hash_last");
#undef RANDOMX_DL
}

#endif /* !TOOLS_RANDOMX_DL_H */
