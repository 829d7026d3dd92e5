/*
 * rx-key.h: a RandomX key as the addon keeps it: its cache (light mode)
 * or dataset (full mode), the VMs made for it, and a count of who uses
 * it (the object whose key it is, and each call running with it).
 *
 * The count is atomic and the VM list has a lock, so any thread may take
 * and give VMs and drop references; the rest is read-only once built.
 */
#ifndef NODE_ADDON_RX_KEY_H
#define NODE_ADDON_RX_KEY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "randomx/randomx.h"

#define IDLE_VMS 16			/* VMs kept for reuse per key */

typedef struct {
	atomic_int refs;
	randomx_cache *cache;		/* light mode */
	randomx_dataset *dataset;	/* full mode */
	randomx_flags vm_flags;
	uint8_t *key;
	size_t keylen;
	pthread_mutex_t lock;
	randomx_vm *idle[IDLE_VMS];
	int n_idle;
} rx_key;

/*
 * key_build(key, keylen, v2, full, threads, err): a key's cache (and,
 * full, its dataset built on `threads` threads), with one VM made to
 * check that VMs can be made, and one reference.  NULL with *err
 * (ENOMEM, or the library refused).  Any thread; takes a while.
 */
rx_key *key_build(const uint8_t *key, size_t keylen, int v2, int full,
    int threads, int *err);

/* Drop a reference: key_unref on a pool thread frees there; the other,
 * for the JavaScript thread, frees on a thread of its own. */
void key_unref(rx_key *k);
void key_unref_detached(rx_key *k);

/* A VM of the key (an idle one or a new one; NULL without memory), and
 * back when done.  One thread uses a VM at a time. */
randomx_vm *vm_take(rx_key *k);
void vm_give(rx_key *k, randomx_vm *vm);

/* The hashes of count inputs through first/next/last on one VM. */
void key_hash_many(randomx_vm *vm, const uint8_t *const *src,
    const size_t *len, size_t count, uint8_t *out);

#endif
