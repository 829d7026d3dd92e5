/*
 * yespower-api.c: the public entry points of the optimized implementation:
 * parameter checks, working memory (per call, per caller's local, or per
 * thread), the SHA-256 front and back ends around the selected mixing core.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu-features.h"
#include "yespower-hashes.h"
#include "yespower-impl.h"
#include "yespower.h"

static int params_valid(const yespower_params_t *p)
{
	return (p->version == YESPOWER_0_5 || p->version == YESPOWER_1_0) &&
	    p->N >= 1024 && p->N <= 512 * 1024 && (p->N & (p->N - 1)) == 0 &&
	    p->r >= 8 && p->r <= 32 && (p->pers || !p->perslen);
}

/* The working memory of one hash. */
typedef struct {
	void *V, *XY, *S;
	uint8_t *B;
} workspace;

/* Bytes one hash needs for these (valid) parameters, a multiple of 64. */
static size_t workspace_size(const yespower_params_t *p)
{
	size_t B_size = (size_t)128 * p->r;
	size_t S_size = YESPOWER_SSTRIDE(p->version != YESPOWER_0_5);

	return B_size * p->N + 2 * B_size + S_size + B_size;
}

/*
 * Carve K workspaces out of a region of K * workspace_size bytes: each
 * hash's V, XY and B in turn, the first V on the region's 2 MiB boundary,
 * then the K S-boxes YESPOWER_SSTRIDE apart, as a core's smix needs them
 * to interleave (yespower-impl.h).  The Vs are 3 blocks more than a V apart,
 * not exactly a power of 2: with no offset the batch's lockstep blocks
 * fell on the same cache sets and 4 KiB aliases, and 0.5/2048/8 batches
 * ran 3 to 5% slower on a Zen 5.
 */
static void workspace_carve(workspace ws[], unsigned K, void *base,
    const yespower_params_t *p)
{
	size_t B_size = (size_t)128 * p->r;
	size_t S_size = YESPOWER_SSTRIDE(p->version != YESPOWER_0_5);
	size_t stride = B_size * p->N + 3 * B_size;
	uint8_t *S_all = (uint8_t *)base + K * stride;
	unsigned k;

	for (k = 0; k < K; k++) {
		ws[k].V = (uint8_t *)base + k * stride;
		ws[k].XY = (uint8_t *)ws[k].V + B_size * p->N;
		ws[k].B = (uint8_t *)ws[k].XY + 2 * B_size;
		ws[k].S = S_all + k * S_size;
	}
}

/*
 * The front end, for hash functions h: B = PBKDF2(H(src), salt, 1, ...),
 * the salt being src in 0.5 and the personalization in 1.0, which only
 * uses B's first 128 bytes (SMix derives the rest from them), so only
 * those are computed.  B0 keeps B's first 32 bytes for the back end.
 */
static void front_end(const yespower_hash_family *h, const uint8_t *src,
    size_t srclen, const yespower_params_t *p, uint8_t *B, uint8_t B0[32])
{
	uint8_t prehash[32];

	h->hash(src, srclen, prehash);
	if (p->version == YESPOWER_0_5) {
		h->pbkdf2(prehash, sizeof(prehash), src, srclen, 1, B,
		    (size_t)128 * p->r);
	} else {
		h->pbkdf2(prehash, sizeof(prehash), p->pers,
		    p->pers ? p->perslen : 0, 1, B, 128);
	}
	memcpy(B0, B, 32);
}

/* The back end, as in yespower-ref.c; dst is written last, since the
 * personalization may lie in it. */
static void back_end(const yespower_hash_family *h,
    const yespower_params_t *p, const uint8_t *B, const uint8_t B0[32],
    yespower_binary_t *dst)
{
	size_t B_size = (size_t)128 * p->r;
	uint8_t out[32];

	if (p->version == YESPOWER_0_5) {
		h->pbkdf2(B0, 32, B, B_size, 1, out, sizeof(out));
		if (p->pers) {
			uint8_t mac[32];

			h->hmac(out, sizeof(out), p->pers, p->perslen, mac);
			h->hash(mac, sizeof(mac), out);
		}
	} else {
		h->hmac(B + B_size - 64, 64, B0, 32, out);
	}
	memcpy(dst->uc, out, sizeof(out));
}

/*
 * K hashes (1 .. the core's kmax) on valid parameters and enough memory:
 * front ends one by one, the K SMix interleaved, back ends one by one.
 */
static void hash_k(const yespower_hash_family *h,
    const yespower_core_t *core, unsigned K, const uint8_t *const src[],
    const size_t srclen[], const yespower_params_t *p, const workspace ws[],
    yespower_binary_t dst[])
{
	uint8_t B0[YESPOWER_KMAX][32], *B[YESPOWER_KMAX];
	void *V[YESPOWER_KMAX], *XY[YESPOWER_KMAX], *S[YESPOWER_KMAX];
	unsigned k;

	for (k = 0; k < K; k++) {
		front_end(h, src[k], srclen[k], p, ws[k].B, B0[k]);
		B[k] = ws[k].B;
		V[k] = ws[k].V;
		XY[k] = ws[k].XY;
		S[k] = ws[k].S;
	}
	core->smix(K, B, p->r, p->N, p->version, V, XY, S);
	for (k = 0; k < K; k++)
		back_end(h, p, ws[k].B, B0[k], &dst[k]);
}

/*
 * The size in bytes of a cache of the core we run on (_SC_LEVEL1_DCACHE_SIZE
 * or _SC_LEVEL2_CACHE_SIZE), or 0 if the C library cannot tell (glibc reads
 * it from cpuid).  Found once each; every thread finds the same, so a race
 * between first calls is harmless.
 */
static long cache_bytes(int level)
{
	static long cached[2] = { -1, -1 };
	long v = __atomic_load_n(&cached[level - 1], __ATOMIC_RELAXED);

	if (v < 0) {
		v = 0;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
		v = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE :
		    _SC_LEVEL2_CACHE_SIZE);
		if (v < 0)
			v = 0;
#endif
		__atomic_store_n(&cached[level - 1], v, __ATOMIC_RELAXED);
	}
	return v;
}

/* yespower_force_batch_width()'s k, 0 for the rule below. */
static unsigned forced_width;

void yespower_force_batch_width(unsigned k)
{
	__atomic_store_n(&forced_width, k, __ATOMIC_RELAXED);
}

/*
 * How many hashes of a batch to interleave with this core (see
 * yespower-impl.h).  Measured per hash on one thread, against one hash at
 * a time and between widths (doc/yespower.md, the Zen 3, Zen 5 and Intel
 * Xeon sections).
 *
 * Four, where the core has registers for them (its kmax), on a core with
 * a 48 KiB or larger L1D that is not Intel's: on a Zen 5, 1.03 to 1.09
 * times as fast as three on every set, both versions.  Four 0.5 hashes'
 * S-boxes (8 KiB each) then take two thirds of the L1D; on a 32 KiB one
 * (Zen 3, Zen 4) they would fill it, and four was not measured there.
 * Otherwise three for 0.5 (Zen 3 1.25x one at a time, 2 about as good;
 * the Intel Xeon of section 8 best with 3).
 *
 * Version 1.0 reads 64 KiB of S-boxes per round and writes 32: K hashes'
 * 96 KiB each must stay in L2 beside the V blocks streaming through it,
 * and do while they take at most half of it: Zen 3 (512 KiB) runs best
 * with 2 (1.10x to 1.15x), where 3 is slower than one hash at a time; Zen
 * 4 and 5 (1 MiB) allow 5, so the width above.  An unknown L2 keeps that
 * width.  Intel's cores take 2 for 1.0 whatever their L2: on a Sapphire
 * Rapids class Xeon (2 MiB L2, 48 KiB L1D) 2 ran 1.03 to 1.11 times as
 * fast as 3 on every 1.0 set, on one thread and two.
 */
static unsigned width_for(const yespower_core_t *core,
    const yespower_params_t *params)
{
	unsigned k = __atomic_load_n(&forced_width, __ATOMIC_RELAXED);
	unsigned kmax = core->kmax;
	int intel = pow_cpu_has(POW_CPU_INTEL);
	long l2;

	if (k)
		return k < kmax ? k : kmax;
	if (kmax > 3 && (intel || cache_bytes(1) < 48 * 1024))
		kmax = 3;
	if (params->version != YESPOWER_1_0)
		return kmax;
	if (intel && kmax > 2)
		kmax = 2;
	l2 = cache_bytes(2);
	if (!l2)
		return kmax;
	k = (unsigned)(l2 / 2 / YESPOWER_SBYTES_1_0);
	return k < 1 ? 1 : k > kmax ? kmax : k;
}

unsigned yespower_batch_width(const yespower_params_t *params)
{
	return width_for(yespower_select_core(), params);
}



/* Make local hold at least need bytes; a failed allocation leaves it
 * empty but valid.  Memory a fork took away (see yespower-platform.c) is
 * forgotten first. */
static int local_reserve(yespower_local_t *local, size_t need)
{
	if (pow_region_lost(local))
		pow_region_init(local);
	if (local->aligned_size >= need)
		return 0;
	if (pow_region_free(local))
		return -1;
	return pow_region_alloc(local, need);
}

/* Do the len bytes at p (len may be 0) share a byte with [lo, hi)? */
static int overlaps(const void *p, size_t len, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = (uintptr_t)p;

	return len && a < hi && (a >= lo || lo - a < len);
}

/*
 * Does dst[0 .. count - 1] overlap an input or the personalization?  A
 * batch writes a hash's output before it reads later inputs (and, in 0.5,
 * before the next back end reads the personalization), so it would give
 * wrong hashes; a single hash reads everything before it writes.
 */
static int dst_overlaps(const yespower_binary_t dst[], size_t count,
    const uint8_t *const src[], const size_t srclen[],
    const yespower_params_t *p)
{
	uintptr_t lo = (uintptr_t)dst, hi = (uintptr_t)(dst + count);
	size_t i;

	if (p->pers && overlaps(p->pers, p->perslen, lo, hi))
		return 1;
	for (i = 0; i < count; i++)
		if (src[i] && overlaps(src[i], srclen[i], lo, hi))
			return 1;
	return 0;
}

/*
 * All the hashing entry points come here: count inputs (1 for the
 * single-input functions), each checked, hashed in groups of
 * width_for() at a time, with memory from local.
 */
static int kdf_batch(const yespower_hash_family *h, yespower_local_t *local,
    const uint8_t *const src[], const size_t srclen[], size_t count,
    const yespower_params_t *params, yespower_binary_t dst[])
{
	workspace ws[YESPOWER_KMAX];
	const yespower_core_t *core;
	size_t i, one;
	unsigned K;

	if (!count)
		return 0;
	if (!dst) {
		errno = EINVAL;
		return -1;
	}
	if (!local || !params || !params_valid(params) ||
	    (h == &yespower_family_blake2b && params->version != YESPOWER_1_0) ||
	    !src || !srclen) {
		errno = EINVAL;
		goto fail;
	}
	for (i = 0; i < count; i++) {
		if (!src[i] && srclen[i]) {
			errno = EINVAL;
			goto fail;
		}
	}
	if (count > 1 && dst_overlaps(dst, count, src, srclen, params)) {
		errno = EINVAL;
		goto fail;
	}

	/* K workspaces in one region; on a 32-bit size_t the largest
	 * parameters give 2 GiB each, so their sum is checked.  The core is
	 * chosen once for the call, so that K fits the one that runs. */
	core = yespower_select_core();
	K = width_for(core, params);
	if (K > count)
		K = (unsigned)count;
	one = workspace_size(params);
	if (one > SIZE_MAX / K) {
		errno = ENOMEM;
		goto fail;
	}
	if (local_reserve(local, K * one))
		goto fail;
	workspace_carve(ws, K, local->aligned, params);

	for (i = 0; i < count; i += K) {
		if (K > count - i)
			K = (unsigned)(count - i);
		hash_k(h, core, K, &src[i], &srclen[i], params, ws, &dst[i]);
	}
	return 0;

fail:
	for (i = 0; i < count; i++)
		memset(&dst[i], 0xff, sizeof(dst[i]));
	return -1;
}

int yespower(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return kdf_batch(&yespower_family_sha256, local, &src, &srclen, 1,
	    params, dst);
}

int yespower_b2b(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return kdf_batch(&yespower_family_blake2b, local, &src, &srclen, 1,
	    params, dst);
}

int yespower_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return kdf_batch(&yespower_family_sha256, local, src, srclen, count,
	    params, dst);
}

int yespower_b2b_batch(yespower_local_t *local, const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return kdf_batch(&yespower_family_blake2b, local, src, srclen, count,
	    params, dst);
}

/*
 * Thread-local working memory.  A pthread key's destructor frees a
 * thread's region when the thread exits (a plain __thread variable would
 * leak it, as the original does).  The key is made on first use; if that
 * fails (every key of the process taken), a later call tries again.
 * Without a key, or after the library's destructor has run (a program
 * hashing from its own destructor or atexit handler), a call uses memory
 * of its own, freed before it returns: slower, never wrong.
 */
enum { TLS_NONE, TLS_READY, TLS_UNLOADED };

static pthread_key_t tls_key;
static int tls_state = TLS_NONE;
static pthread_mutex_t tls_lock = PTHREAD_MUTEX_INITIALIZER;

static void tls_destroy(void *p)
{
	pow_region_free(p);
	free(p);
}

/* Whether tls_key can be used now, making it if need be. */
static int tls_key_ready(void)
{
	int state = __atomic_load_n(&tls_state, __ATOMIC_ACQUIRE);

	if (state == TLS_NONE) {
		pthread_mutex_lock(&tls_lock);
		if (tls_state == TLS_NONE &&
		    !pthread_key_create(&tls_key, tls_destroy))
			__atomic_store_n(&tls_state, TLS_READY,
			    __ATOMIC_RELEASE);
		state = tls_state;
		pthread_mutex_unlock(&tls_lock);
	}
	return state == TLS_READY;
}

#if defined(__GNUC__)
/*
 * When the library is unloaded (dlclose) while threads that hashed are
 * still alive, their exit must not call tls_destroy, whose code is gone:
 * delete the key first.  Those threads' memory then stays mapped until
 * the process ends; the calling thread's is freed here.  At exit, later
 * calls (from other destructors) hash with memory of their own.
 */
__attribute__((destructor)) static void tls_unload(void)
{
	yespower_local_t *local;

	pthread_mutex_lock(&tls_lock);
	if (tls_state == TLS_READY) {
		if ((local = pthread_getspecific(tls_key)) != NULL) {
			pthread_setspecific(tls_key, NULL);
			tls_destroy(local);
		}
		pthread_key_delete(tls_key);
	}
	__atomic_store_n(&tls_state, TLS_UNLOADED, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tls_lock);
}
#endif

/* The calling thread's local, or NULL if there is none to be had. */
static yespower_local_t *tls_local(void)
{
	yespower_local_t *local;

	if (!tls_key_ready())
		return NULL;
	local = pthread_getspecific(tls_key);
	if (!local) {
		if (!(local = malloc(sizeof(*local))))
			return NULL;
		pow_region_init(local);
		if (pthread_setspecific(tls_key, local)) {
			free(local);
			return NULL;
		}
	}
	return local;
}

/* The *_tls functions: the thread's local, or memory of this call's. */
static int tls_batch(const yespower_hash_family *h,
    const uint8_t *const src[], const size_t srclen[], size_t count,
    const yespower_params_t *params, yespower_binary_t dst[])
{
	yespower_local_t *local = tls_local(), own;
	int rc, err;

	if (local)
		return kdf_batch(h, local, src, srclen, count, params, dst);
	pow_region_init(&own);
	rc = kdf_batch(h, &own, src, srclen, count, params, dst);
	err = errno;
	pow_region_free(&own);
	errno = err;
	return rc;
}

int yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return tls_batch(&yespower_family_sha256, &src, &srclen, 1, params,
	    dst);
}

int yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return tls_batch(&yespower_family_blake2b, &src, &srclen, 1, params,
	    dst);
}

int yespower_batch_tls(const uint8_t *const src[], const size_t srclen[],
    size_t count, const yespower_params_t *params, yespower_binary_t dst[])
{
	return tls_batch(&yespower_family_sha256, src, srclen, count, params,
	    dst);
}

int yespower_b2b_batch_tls(const uint8_t *const src[],
    const size_t srclen[], size_t count, const yespower_params_t *params,
    yespower_binary_t dst[])
{
	return tls_batch(&yespower_family_blake2b, src, srclen, count, params,
	    dst);
}

int yespower_run_component(yespower_component_t which,
    const yespower_params_t *params, uint64_t count, uint32_t *result)
{
	yespower_region_t region;
	workspace ws;

	if (!params || !params_valid(params)) {
		errno = EINVAL;
		return -1;
	}
	if (pow_region_alloc(&region, workspace_size(params)))
		return -1;
	workspace_carve(&ws, 1, region.aligned, params);
	memset(region.aligned, 0x5a, region.aligned_size);
	*result = yespower_select_core()->component(which, params->version,
	    params->r, params->N, count, ws.V, ws.XY, ws.S);
	return pow_region_free(&region);
}

int yespower_init_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	pow_region_init(local);
	return 0;
}

int yespower_free_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	return pow_region_free(local);
}
