/*
 * rx-key.c: RandomX keys for the addon (see rx-key.h).
 */
#include "rx-key.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_SIZE RANDOMX_HASH_SIZE

static void key_free(rx_key *k)
{
	int i;

	for (i = 0; i < k->n_idle; i++)
		randomx_destroy_vm(k->idle[i]);
	randomx_release_dataset(k->dataset);
	randomx_release_cache(k->cache);
	pthread_mutex_destroy(&k->lock);
	free(k->key);
	free(k);
}

static void *key_free_thread(void *k)
{
	key_free(k);
	return NULL;
}

/* Drop a reference on a pool thread: the last frees here. */
void key_unref(rx_key *k)
{
	if (k && atomic_fetch_sub(&k->refs, 1) == 1)
		key_free(k);
}

/*
 * Drop a reference on the JavaScript thread: the last frees on a thread
 * of its own, since unmapping 2 GiB takes a while (inline if no thread
 * can be started).
 */
void key_unref_detached(rx_key *k)
{
	pthread_t t;
	pthread_attr_t a;

	if (!k || atomic_fetch_sub(&k->refs, 1) != 1)
		return;
	if (pthread_attr_init(&a) == 0) {
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &a, key_free_thread, k) == 0) {
			pthread_attr_destroy(&a);
			return;
		}
		pthread_attr_destroy(&a);
	}
	key_free(k);
}

randomx_vm *vm_take(rx_key *k)
{
	randomx_vm *vm = NULL;

	pthread_mutex_lock(&k->lock);
	if (k->n_idle)
		vm = k->idle[--k->n_idle];
	pthread_mutex_unlock(&k->lock);
	if (!vm)
		vm = randomx_create_vm(k->vm_flags, k->cache, k->dataset);
	return vm;
}

void vm_give(rx_key *k, randomx_vm *vm)
{
	pthread_mutex_lock(&k->lock);
	if (k->n_idle < IDLE_VMS) {
		k->idle[k->n_idle++] = vm;
		vm = NULL;
	}
	pthread_mutex_unlock(&k->lock);
	randomx_destroy_vm(vm);
}

typedef struct {
	randomx_dataset *ds;
	randomx_cache *cache;
	unsigned long start, count;
} slice_t;

static void *init_slice(void *p)
{
	slice_t *s = p;

	randomx_init_dataset(s->ds, s->cache, s->start, s->count);
	return NULL;
}

/* The whole dataset on `threads` threads; a slice whose thread cannot
 * start is built here. */
static void build_dataset(randomx_dataset *ds, randomx_cache *c,
    int threads)
{
	unsigned long n = randomx_dataset_item_count(), per;
	pthread_t tid[64];
	slice_t s[64];
	int started[64], i;

	if (threads < 1)
		threads = 1;
	if (threads > 64)
		threads = 64;
	per = n / (unsigned long)threads;
	for (i = 0; i < threads; i++) {
		s[i].ds = ds;
		s[i].cache = c;
		s[i].start = per * (unsigned long)i;
		s[i].count = i == threads - 1 ? n - s[i].start : per;
		started[i] = i > 0 &&
		    pthread_create(&tid[i], NULL, init_slice, &s[i]) == 0;
	}
	for (i = 0; i < threads; i++)
		if (!started[i])
			init_slice(&s[i]);
	for (i = 1; i < threads; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

/*
 * A key's cache (and dataset), with one VM made to check that VMs can
 * be made.  NULL with *err (ENOMEM, or EINVAL if the library refuses
 * the flags).  Any thread.
 */
rx_key *key_build(const uint8_t *key, size_t keylen, int v2,
    int full, int threads, int *err)
{
	randomx_flags f = randomx_get_flags();
	rx_key *k = calloc(1, sizeof(*k));
	randomx_vm *vm;

	*err = ENOMEM;
	if (!k)
		return NULL;
	atomic_init(&k->refs, 1);
	pthread_mutex_init(&k->lock, NULL);
	if (!(k->key = malloc(keylen ? keylen : 1)))
		goto fail;
	memcpy(k->key, key, keylen);
	k->keylen = keylen;
	if (!(k->cache = randomx_alloc_cache(f)))
		goto fail;
	randomx_init_cache(k->cache, key, keylen);
	k->vm_flags = f | (v2 ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT);
	if (full) {
		if (!(k->dataset = randomx_alloc_dataset(f)))
			goto fail;
		build_dataset(k->dataset, k->cache, threads);
		/* full VMs read the dataset only: the cache can go */
		randomx_release_cache(k->cache);
		k->cache = NULL;
		k->vm_flags |= RANDOMX_FLAG_FULL_MEM;
	}
	if (!(vm = randomx_create_vm(k->vm_flags, k->cache, k->dataset)))
		goto fail;
	k->idle[k->n_idle++] = vm;
	*err = 0;
	return k;
fail:
	key_free(k);
	return NULL;
}

/* hashes of count inputs through first/next/last on one VM */
void key_hash_many(randomx_vm *vm, const uint8_t *const *src,
    const size_t *len, size_t count, uint8_t *out)
{
	size_t i;

	if (!count)
		return;
	randomx_calculate_hash_first(vm, src[0], len[0]);
	for (i = 1; i < count; i++)
		randomx_calculate_hash_next(vm, src[i], len[i],
		    out + HASH_SIZE * (i - 1));
	randomx_calculate_hash_last(vm, out + HASH_SIZE * (count - 1));
}
