/*
 * pow-hash.c: the SHA-256 half of pow-hash.h: argument checks around
 * sha256.c's SHA-256, HMAC and PBKDF2 (the same code yespower uses), and
 * the many-at-once functions on the dispatcher's kernels.  Compiled with
 * no instruction-set flags.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "insecure_memzero.h"
#include "pow-hash.h"
#include "pow-hash-impl.h"
#include "sha256.h"

/*
 * The public contexts are sha256.c's, declared again with the same
 * members so that pow-hash.h needs no internal header: the same member
 * types and names make them compatible types across translation units
 * (C11 6.2.7), and these checks keep the two declarations together.
 */
_Static_assert(sizeof(pow_sha256_ctx) == sizeof(sha256_ctx) &&
    offsetof(pow_sha256_ctx, count) == offsetof(sha256_ctx, count) &&
    offsetof(pow_sha256_ctx, buf) == offsetof(sha256_ctx, buf),
    "pow_sha256_ctx must be sha256_ctx");
_Static_assert(sizeof(pow_hmac_sha256_ctx) == sizeof(hmac_sha256_ctx) &&
    offsetof(pow_hmac_sha256_ctx, outer) == offsetof(hmac_sha256_ctx, outer),
    "pow_hmac_sha256_ctx must be hmac_sha256_ctx");

#define CTX(c) ((sha256_ctx *)(void *)(c))
#define HMAC_CTX(c) ((hmac_sha256_ctx *)(void *)(c))

/* An invalid argument: 0xff in the output (len bytes, if any), EINVAL. */
static int invalid(uint8_t *out, size_t len)
{
	if (out)
		memset(out, 0xff, len);
	errno = EINVAL;
	return -1;
}

int pow_sha256_init(pow_sha256_ctx *ctx)
{
	if (!ctx)
		return invalid(NULL, 0);
	pow_hash_ensure_ready();
	sha256_init(CTX(ctx));
	return 0;
}

int pow_sha256_update(pow_sha256_ctx *ctx, const void *in, size_t len)
{
	if (!ctx || (!in && len))
		return invalid(NULL, 0);
	sha256_update(CTX(ctx), in, len);
	return 0;
}

int pow_sha256_final(pow_sha256_ctx *ctx, uint8_t digest[32])
{
	if (!ctx || !digest) {
		if (ctx)
			insecure_memzero(ctx, sizeof(*ctx));
		return invalid(digest, 32);
	}
	sha256_final(CTX(ctx), digest);
	return 0;
}

int pow_sha256(const void *in, size_t len, uint8_t digest[32])
{
	if (!digest || (!in && len))
		return invalid(digest, 32);
	pow_hash_ensure_ready();
	sha256_buf(in, len, digest);
	return 0;
}

int pow_sha256d(const void *in, size_t len, uint8_t digest[32])
{
	uint8_t first[32];

	if (!digest || (!in && len))
		return invalid(digest, 32);
	pow_hash_ensure_ready();
	sha256_buf(in, len, first);
	sha256_buf(first, sizeof(first), digest);
	insecure_memzero(first, sizeof(first));
	return 0;
}

int pow_hmac_sha256_init(pow_hmac_sha256_ctx *ctx, const void *key,
    size_t keylen)
{
	if (!ctx || (!key && keylen))
		return invalid(NULL, 0);
	pow_hash_ensure_ready();
	hmac_sha256_init(HMAC_CTX(ctx), key, keylen);
	return 0;
}

int pow_hmac_sha256_update(pow_hmac_sha256_ctx *ctx, const void *in,
    size_t len)
{
	if (!ctx || (!in && len))
		return invalid(NULL, 0);
	hmac_sha256_update(HMAC_CTX(ctx), in, len);
	return 0;
}

int pow_hmac_sha256_final(pow_hmac_sha256_ctx *ctx, uint8_t mac[32])
{
	if (!ctx || !mac) {
		if (ctx)
			insecure_memzero(ctx, sizeof(*ctx));
		return invalid(mac, 32);
	}
	hmac_sha256_final(HMAC_CTX(ctx), mac);
	return 0;
}

int pow_hmac_sha256(const void *key, size_t keylen, const void *in,
    size_t len, uint8_t mac[32])
{
	if (!mac || (!key && keylen) || (!in && len))
		return invalid(mac, 32);
	pow_hash_ensure_ready();
	hmac_sha256_buf(key, keylen, in, len, mac);
	return 0;
}

int pow_pbkdf2_sha256(const void *passwd, size_t passwdlen,
    const void *salt, size_t saltlen, uint64_t c, uint8_t *dk,
    size_t dklen)
{
	/* PBKDF2 numbers its 32-byte blocks with 32 bits. */
	const uint64_t max_dklen = (uint64_t)0xffffffff * 32;

	if (!dk || (uint64_t)dklen > max_dklen)	/* nothing to fill */
		return invalid(NULL, 0);
	if (c == 0 || (!passwd && passwdlen) || (!salt && saltlen))
		return invalid(dk, dklen);
	pow_hash_ensure_ready();
	pbkdf2_sha256(passwd, passwdlen, salt, saltlen, c, dk, dklen);
	return 0;
}

int pow_sha256d64(uint8_t *out, const uint8_t *in, size_t blocks)
{
	if (!blocks)
		return 0;
	if (blocks > SIZE_MAX / 64)
		return invalid(NULL, 0);
	if (!out || !in)
		return invalid(out, 32 * blocks);
	pow_sha256_in_use()->d64(out, in, blocks);
	return 0;
}

int pow_sha256_recursive(uint8_t out[32], const uint8_t in[32], uint64_t n)
{
	uint8_t h[32];

	if (!out || !in)
		return invalid(out, 32);
	memcpy(h, in, sizeof(h));
	if (n)
		pow_sha256_in_use()->recursive(h, 1, n);
	memcpy(out, h, sizeof(h));
	insecure_memzero(h, sizeof(h));
	return 0;
}

/* A share of pow_sha256_recursive_chains(): `per` chains from part * per. */
struct chains_job {
	const pow_sha256_kernels *kernels;
	uint8_t *h;
	size_t chains, per;
	uint64_t n;
};

static void chains_part(void *arg, size_t part)
{
	const struct chains_job *job = arg;
	size_t first = part * job->per, count = job->chains - first;

	if (count > job->per)
		count = job->per;
	job->kernels->recursive(&job->h[32 * first], count, job->n);
}

int pow_sha256_recursive_chains(uint8_t *out, const uint8_t *in,
    size_t chains, uint64_t n, int threads)
{
	struct chains_job job;
	size_t parts, k;
	int t = pow_threads_valid(threads);

	if (!t || chains > SIZE_MAX / 32)
		return invalid(chains <= SIZE_MAX / 32 ? out : NULL,
		    32 * chains);
	if (!chains)
		return 0;
	if (!out || !in)
		return invalid(out, 32 * chains);
	if (out != in)
		memmove(out, in, 32 * chains);
	if (!n)
		return 0;

	/*
	 * Each thread gets a run of whole groups of the kernel's best width
	 * (the last may get fewer), and no more threads than groups.
	 */
	job.kernels = pow_sha256_in_use();
	job.h = out;
	job.chains = chains;
	job.n = n;
	k = job.kernels->chains_per_core;
	job.per = (chains + (size_t)t - 1) / (size_t)t;
	job.per = (job.per + k - 1) / k * k;
	parts = (chains + job.per - 1) / job.per;
	pow_parallel(t, parts, chains_part, &job);
	return 0;
}
