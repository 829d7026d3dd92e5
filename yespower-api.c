/*
 * yespower-api.c: the public entry points of the optimized implementation:
 * parameter checks, working memory (per call, per caller's local, or per
 * thread), the SHA-256 front and back ends around the selected mixing core.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "yespower-hashes.h"
#include "yespower-impl.h"
#include "yespower.h"

static int params_valid(const yespower_params_t *p)
{
	return (p->version == YESPOWER_0_5 || p->version == YESPOWER_1_0) &&
	    p->N >= 1024 && p->N <= 512 * 1024 && (p->N & (p->N - 1)) == 0 &&
	    p->r >= 8 && p->r <= 32 && (p->pers || !p->perslen);
}

/* The working memory of one hash, carved out of one region. */
typedef struct {
	void *V, *XY, *S;
	uint8_t *B;
} workspace;

/* Bytes a region needs for these (valid) parameters.  V comes first so
 * that it starts on the region's 2 MiB boundary. */
static size_t workspace_size(const yespower_params_t *p)
{
	size_t B_size = (size_t)128 * p->r;
	size_t S_size = (p->version == YESPOWER_0_5) ? YESPOWER_SBYTES_0_5 :
	    YESPOWER_SBYTES_1_0;

	return B_size * p->N + 2 * B_size + S_size + B_size;
}

static void workspace_carve(workspace *ws, void *base,
    const yespower_params_t *p)
{
	size_t B_size = (size_t)128 * p->r;
	size_t S_size = (p->version == YESPOWER_0_5) ? YESPOWER_SBYTES_0_5 :
	    YESPOWER_SBYTES_1_0;

	ws->V = base;
	ws->XY = (uint8_t *)ws->V + B_size * p->N;
	ws->S = (uint8_t *)ws->XY + 2 * B_size;
	ws->B = (uint8_t *)ws->S + S_size;
}

/*
 * The hash proper, on valid parameters and enough memory, with the hash
 * functions h.  Front end: B = PBKDF2(H(src), salt, 1, ...), the salt being
 * src in 0.5 and the personalization in 1.0, which only uses B's first 128
 * bytes (SMix derives the rest from them), so only those are computed.
 * Back end as in yespower-ref.c.
 */
static void hash(const yespower_hash_family *h, const uint8_t *src,
    size_t srclen, const yespower_params_t *p, workspace *ws,
    yespower_binary_t *dst)
{
	size_t B_size = (size_t)128 * p->r;
	uint8_t prehash[32], B0[32];

	h->hash(src, srclen, prehash);
	if (p->version == YESPOWER_0_5) {
		h->pbkdf2(prehash, sizeof(prehash), src, srclen, 1, ws->B,
		    B_size);
	} else {
		h->pbkdf2(prehash, sizeof(prehash), p->pers,
		    p->pers ? p->perslen : 0, 1, ws->B, 128);
	}
	memcpy(B0, ws->B, sizeof(B0));

	yespower_select_core()->smix(ws->B, p->r, p->N, p->version, ws->V,
	    ws->XY, ws->S);

	if (p->version == YESPOWER_0_5) {
		h->pbkdf2(B0, sizeof(B0), ws->B, B_size, 1, dst->uc,
		    sizeof(dst->uc));
		if (p->pers) {
			uint8_t mac[32];

			h->hmac(dst->uc, sizeof(dst->uc), p->pers, p->perslen,
			    mac);
			h->hash(mac, sizeof(mac), dst->uc);
		}
	} else {
		h->hmac(ws->B + B_size - 64, 64, B0, sizeof(B0), dst->uc);
	}
}

/* yespower() and yespower_b2b(): check, get memory, hash. */
static int yespower_kdf(const yespower_hash_family *h,
    yespower_local_t *local, const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	workspace ws;
	size_t need;

	if (!dst) {
		errno = EINVAL;
		return -1;
	}
	if (!local || !params || !params_valid(params) || (!src && srclen) ||
	    (h == &yespower_family_blake2b && params->version != YESPOWER_1_0)) {
		errno = EINVAL;
		goto fail;
	}

	/* Grow the region when these parameters need more; a failed
	 * allocation leaves local empty but valid. */
	need = workspace_size(params);
	if (local->aligned_size < need) {
		if (yespower_region_free(local))
			goto fail;
		if (yespower_region_alloc(local, need))
			goto fail;
	}
	workspace_carve(&ws, local->aligned, params);

	hash(h, src, srclen, params, &ws, dst);
	return 0;

fail:
	memset(dst, 0xff, sizeof(*dst));
	return -1;
}

int yespower(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return yespower_kdf(&yespower_family_sha256, local, src, srclen,
	    params, dst);
}

int yespower_b2b(yespower_local_t *local,
    const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return yespower_kdf(&yespower_family_blake2b, local, src, srclen,
	    params, dst);
}

/*
 * Thread-local working memory.  A pthread key's destructor frees a
 * thread's region when the thread exits (a plain __thread variable would
 * leak it, as the original does).
 */
static pthread_key_t tls_key;
static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
static int tls_key_ok;

static void tls_destroy(void *p)
{
	yespower_region_free(p);
	free(p);
}

static void tls_make_key(void)
{
	tls_key_ok = (pthread_key_create(&tls_key, tls_destroy) == 0);
}

static yespower_local_t *tls_local(void)
{
	yespower_local_t *local;

	if (pthread_once(&tls_once, tls_make_key) || !tls_key_ok)
		return NULL;
	local = pthread_getspecific(tls_key);
	if (!local) {
		if (!(local = malloc(sizeof(*local))))
			return NULL;
		yespower_region_init(local);
		if (pthread_setspecific(tls_key, local)) {
			free(local);
			return NULL;
		}
	}
	return local;
}

static int tls_kdf(const yespower_hash_family *h, const uint8_t *src,
    size_t srclen, const yespower_params_t *params, yespower_binary_t *dst)
{
	yespower_local_t *local = tls_local();

	if (!local) {
		errno = ENOMEM;
		if (dst)
			memset(dst, 0xff, sizeof(*dst));
		return -1;
	}
	return yespower_kdf(h, local, src, srclen, params, dst);
}

int yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return tls_kdf(&yespower_family_sha256, src, srclen, params, dst);
}

int yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst)
{
	return tls_kdf(&yespower_family_blake2b, src, srclen, params, dst);
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
	if (yespower_region_alloc(&region, workspace_size(params)))
		return -1;
	workspace_carve(&ws, region.aligned, params);
	memset(region.aligned, 0x5a, region.aligned_size);
	*result = yespower_select_core()->component(which, params->version,
	    params->r, params->N, count, ws.V, ws.XY, ws.S);
	return yespower_region_free(&region);
}

int yespower_init_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	yespower_region_init(local);
	return 0;
}

int yespower_free_local(yespower_local_t *local)
{
	if (!local) {
		errno = EINVAL;
		return -1;
	}
	return yespower_region_free(local);
}
