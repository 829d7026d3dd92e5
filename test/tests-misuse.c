/*
 * tests-misuse.c: what C lets a caller do to the API, and what must then
 * happen.
 *
 * Each check prints "misuse: NAME: ok" or "... FAILED" and the last line
 * counts them; the exit status is 1 if any failed.  Built against the
 * optimized library (tests-misuse) or the reference (build-san's
 * tests-misuse-ref); the few checks where the reference's documented
 * behaviour differs say so and are skipped there.
 *
 * Checks: yespower_free_local twice and a local used after being freed;
 * one local reused across versions, families and sizes, growing and
 * shrinking, and after refused calls; inputs, personalizations and outputs
 * at every offset 1..7 from an aligned address; an input that is the
 * output buffer, a personalization that is or lies inside the input; NULL
 * input with length 0 and with a length; NULL output, params, local and
 * preset; a large input; names the core selection does not know; batches
 * of 0 inputs, batches whose output overlaps an input or the
 * personalization; *_tls calls when every pthread key is taken, and once
 * one is free again.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "yespower.h"
#include "tests-util.h"

#define TEST_NAME "tests-misuse"
#include "test/report.h"

static int is_reference;

static void report(const char *name, int ok)
{
	printf("misuse: %s: %s\n", name, ok ? "ok" : "FAILED");
	check(name, ok);
}

static int same(const yespower_binary_t *a, const yespower_binary_t *b)
{
	return !memcmp(a->uc, b->uc, sizeof(a->uc));
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + (i >> 8) * 7 + seed);
}

/* One hash through a family's thread-local or caller's-local entry. */
static int hash_tls(int b2b, const uint8_t *src, size_t srclen,
    const yespower_params_t *p, yespower_binary_t *dst)
{
	return b2b ? yespower_b2b_tls(src, srclen, p, dst) :
	    yespower_tls(src, srclen, p, dst);
}

static int hash_local(int b2b, yespower_local_t *local, const uint8_t *src,
    size_t srclen, const yespower_params_t *p, yespower_binary_t *dst)
{
	return b2b ? yespower_b2b(local, src, srclen, p, dst) :
	    yespower(local, src, srclen, p, dst);
}

/* The same hash with a local made and freed just for it. */
static int hash_fresh(int b2b, const uint8_t *src, size_t srclen,
    const yespower_params_t *p, yespower_binary_t *dst)
{
	yespower_local_t local;
	int rc;

	if (yespower_init_local(&local))
		return -1;
	rc = hash_local(b2b, &local, src, srclen, p, dst);
	if (yespower_free_local(&local))
		return -1;
	return rc;
}

/* Freeing twice, freeing an unused local, using a freed one, NULL. */
static void check_free_twice(void)
{
	yespower_params_t p = { YESPOWER_1_0, 2048, 16, NULL, 0 };
	yespower_local_t local, unused;
	yespower_binary_t a, b;
	int ok = 1;

	ok &= yespower_init_local(&unused) == 0;
	ok &= yespower_free_local(&unused) == 0;
	ok &= yespower_free_local(&unused) == 0;

	ok &= yespower_init_local(&local) == 0;
	ok &= yespower(&local, (const uint8_t *)"abc", 3, &p, &a) == 0;
	ok &= yespower_free_local(&local) == 0;
	ok &= yespower_free_local(&local) == 0;
	/* Freed is initialized and empty: it may be used again. */
	ok &= yespower(&local, (const uint8_t *)"abc", 3, &p, &b) == 0;
	ok &= same(&a, &b);
	ok &= yespower_free_local(&local) == 0;
	ok &= yespower_free_local(&local) == 0;
	ok &= yespower_free_local(&local) == 0;

	errno = 0;
	ok &= yespower_init_local(NULL) == -1 && errno == EINVAL;
	errno = 0;
	ok &= yespower_free_local(NULL) == -1 && errno == EINVAL;
	report("yespower_free_local twice, a freed local reused, NULL", ok);
}

/*
 * One local through a sequence that grows and shrinks the region, changes
 * version and family, and is interrupted by refused calls and a free; each
 * answer must be what a fresh local and the thread-local memory give.
 */
static void check_local_reuse(void)
{
	static const struct {
		int b2b;
		yespower_version_t v;
		uint32_t N, r;
		const char *pers;
	} seq[] = {
		{ 0, YESPOWER_1_0, 1024, 8, NULL },
		{ 0, YESPOWER_0_5, 4096, 32, "Client Key" },
		{ 1, YESPOWER_1_0, 1024, 8, "x" },
		{ 0, YESPOWER_0_5, 1024, 8, "" },
		{ 1, YESPOWER_1_0, 4096, 32, NULL },
		{ 0, YESPOWER_1_0, 2048, 31, "personality test" },
		{ 1, YESPOWER_1_0, 2048, 9, "" },
		{ 0, YESPOWER_0_5, 2048, 13, NULL },
		{ 0, YESPOWER_0_5, 4096, 8, "WaviBanana" },
		{ 1, YESPOWER_1_0, 1024, 32, "power2b" },
	};
	yespower_params_t bad = { YESPOWER_1_0, 3000, 8, NULL, 0 };
	yespower_local_t local;
	uint8_t src[97];
	size_t i;
	int ok = yespower_init_local(&local) == 0;

	fill(src, sizeof(src), 1);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		yespower_params_t p = { seq[i].v, seq[i].N, seq[i].r,
		    (const uint8_t *)seq[i].pers,
		    seq[i].pers ? strlen(seq[i].pers) : 0 };
		yespower_binary_t a, b, c;
		size_t len = (i * 23) % sizeof(src);

		ok &= hash_local(seq[i].b2b, &local, src, len, &p, &a) == 0;
		ok &= hash_fresh(seq[i].b2b, src, len, &p, &b) == 0;
		ok &= hash_tls(seq[i].b2b, src, len, &p, &c) == 0;
		ok &= same(&a, &b) && same(&a, &c) && !all_ff(&a);

		/* A refused call must leave the local usable. */
		if (i % 3 == 1) {
			errno = 0;
			ok &= hash_local(seq[i].b2b, &local, src, len, &bad,
			    &c) == -1 && errno == EINVAL && all_ff(&c);
			ok &= hash_local(seq[i].b2b, &local, src, len, &p,
			    &c) == 0 && same(&a, &c);
		}
		if (i == 5)
			ok &= yespower_free_local(&local) == 0;
	}
	ok &= yespower_free_local(&local) == 0;
	report("one local across versions, families, growing and shrinking",
	    ok);
}

/* Input, personalization and output at every offset 0..7. */
static void check_unaligned(void)
{
	static const struct {
		int b2b;
		yespower_version_t v;
		uint32_t r;
	} kinds[] = {
		{ 0, YESPOWER_0_5, 8 }, { 0, YESPOWER_1_0, 11 },
		{ 1, YESPOWER_1_0, 8 },
	};
	uint8_t *sbuf = malloc(80 + 8), *pbuf = malloc(20 + 8);
	uint8_t *dbuf = malloc(sizeof(yespower_binary_t) + 8);
	yespower_local_t local;
	size_t k, off;
	int ok = sbuf && pbuf && dbuf && yespower_init_local(&local) == 0;

	for (k = 0; ok && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		uint8_t src[80], pers[20];
		yespower_params_t p = { kinds[k].v, 1024, kinds[k].r, pers,
		    sizeof(pers) };
		yespower_binary_t want;

		fill(src, sizeof(src), 2);
		fill(pers, sizeof(pers), 3);
		ok &= hash_tls(kinds[k].b2b, src, sizeof(src), &p, &want) == 0;

		for (off = 1; off < 8; off++) {
			/* yespower_binary_t holds bytes only: any address
			 * is aligned for it. */
			yespower_binary_t *dst = (yespower_binary_t *)
			    (void *)(dbuf + off);
			yespower_params_t q = p;
			yespower_binary_t shorter;

			memcpy(sbuf + off, src, sizeof(src));
			memcpy(pbuf + off, pers, sizeof(pers));
			q.pers = pbuf + off;
			ok &= hash_tls(kinds[k].b2b, sbuf + off, sizeof(src),
			    &q, dst) == 0 && same(dst, &want);
			ok &= hash_local(kinds[k].b2b, &local, sbuf + off,
			    sizeof(src), &q, dst) == 0 && same(dst, &want);
			/* Lengths that are not multiples of 4 or 8 either. */
			ok &= hash_tls(kinds[k].b2b, src, sizeof(src) - off,
			    &p, &shorter) == 0;
			ok &= hash_local(kinds[k].b2b, &local, sbuf + off,
			    sizeof(src) - off, &q, dst) == 0 &&
			    same(dst, &shorter);
		}
	}
	ok &= yespower_free_local(&local) == 0;
	free(sbuf);
	free(pbuf);
	free(dbuf);
	report("unaligned input, personalization and output (offsets 1..7)",
	    ok);
}

/*
 * The input, or the personalization, in the output buffer: the hash must
 * be that of the bytes as they were (both implementations write the output
 * last).
 */
static void check_src_is_dst(void)
{
	static const struct {
		int b2b;
		yespower_version_t v;
		const char *pers;
	} kinds[] = {
		{ 0, YESPOWER_0_5, NULL }, { 0, YESPOWER_0_5, "Client Key" },
		{ 0, YESPOWER_1_0, NULL }, { 1, YESPOWER_1_0, "pers" },
	};
	yespower_local_t local;
	size_t k;
	int ok = yespower_init_local(&local) == 0;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		yespower_params_t p = { kinds[k].v, 2048, 8,
		    (const uint8_t *)kinds[k].pers,
		    kinds[k].pers ? strlen(kinds[k].pers) : 0 };
		yespower_binary_t io, want;
		uint8_t copy[sizeof(io.uc)];

		fill(copy, sizeof(copy), (unsigned)k);
		/* All of dst as the input. */
		memcpy(io.uc, copy, sizeof(copy));
		ok &= hash_tls(kinds[k].b2b, copy, sizeof(copy), &p,
		    &want) == 0;
		ok &= hash_tls(kinds[k].b2b, io.uc, sizeof(io.uc), &p,
		    &io) == 0 && same(&io, &want);
		memcpy(io.uc, copy, sizeof(copy));
		ok &= hash_local(kinds[k].b2b, &local, io.uc, sizeof(io.uc),
		    &p, &io) == 0 && same(&io, &want);
		/* Part of dst, not at its start. */
		memcpy(io.uc, copy, sizeof(copy));
		ok &= hash_tls(kinds[k].b2b, copy + 5, 20, &p, &want) == 0;
		ok &= hash_tls(kinds[k].b2b, io.uc + 5, 20, &p, &io) == 0 &&
		    same(&io, &want);
		/* The personalization in dst (0.5 reads it last of all). */
		p.pers = copy + 3;
		p.perslen = 17;
		ok &= hash_tls(kinds[k].b2b, copy, 9, &p, &want) == 0;
		memcpy(io.uc, copy, sizeof(copy));
		p.pers = io.uc + 3;
		ok &= hash_tls(kinds[k].b2b, copy, 9, &p, &io) == 0 &&
		    same(&io, &want);
	}
	ok &= yespower_free_local(&local) == 0;
	report("input or personalization in the output buffer", ok);
}

/* A personalization that is the input, or lies inside it, and the input
 * inside the personalization: only read, so the same as separate copies. */
static void check_pers_overlaps_src(void)
{
	static const struct {
		int b2b;
		yespower_version_t v;
	} kinds[] = {
		{ 0, YESPOWER_0_5 }, { 0, YESPOWER_1_0 }, { 1, YESPOWER_1_0 },
	};
	uint8_t buf[80], pcopy[80];
	size_t k;
	int ok = 1;

	fill(buf, sizeof(buf), 9);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		yespower_params_t shared = { kinds[k].v, 1024, 8, buf,
		    sizeof(buf) };
		yespower_params_t apart = shared;
		yespower_binary_t a, b;

		/* pers == src, same length (GlobalBoost-Y's way). */
		memcpy(pcopy, buf, sizeof(buf));
		apart.pers = pcopy;
		ok &= hash_tls(kinds[k].b2b, buf, sizeof(buf), &shared,
		    &a) == 0;
		ok &= hash_tls(kinds[k].b2b, buf, sizeof(buf), &apart,
		    &b) == 0 && same(&a, &b);

		/* pers strictly inside src. */
		shared.pers = buf + 17;
		shared.perslen = 30;
		apart.pers = pcopy + 17;
		apart.perslen = 30;
		ok &= hash_tls(kinds[k].b2b, buf, sizeof(buf), &shared,
		    &a) == 0;
		ok &= hash_tls(kinds[k].b2b, buf, sizeof(buf), &apart,
		    &b) == 0 && same(&a, &b);

		/* src strictly inside pers. */
		shared.pers = buf;
		shared.perslen = sizeof(buf);
		apart.pers = pcopy;
		apart.perslen = sizeof(buf);
		ok &= hash_tls(kinds[k].b2b, buf + 40, 11, &shared, &a) == 0;
		ok &= hash_tls(kinds[k].b2b, pcopy + 40, 11, &shared,
		    &b) == 0 && same(&a, &b);
		ok &= hash_tls(kinds[k].b2b, buf + 40, 11, &apart, &b) == 0 &&
		    same(&a, &b);
	}
	report("personalization overlapping the input", ok);
}

/* An empty input may be NULL; a NULL input with a length is refused. */
static void check_null_src(void)
{
	static const uint8_t empty[1] = { 0x5a };
	yespower_local_t local;
	int b2b, ok = yespower_init_local(&local) == 0;

	for (b2b = 0; b2b < 2; b2b++) {
		int i;

		for (i = b2b; i < 2; i++) {
			yespower_params_t p = { i ? YESPOWER_1_0 :
			    YESPOWER_0_5, 1024, 8, NULL, 0 };
			yespower_binary_t a, b, c;

			ok &= hash_tls(b2b, NULL, 0, &p, &a) == 0;
			ok &= hash_tls(b2b, empty, 0, &p, &b) == 0 &&
			    same(&a, &b);
			ok &= hash_local(b2b, &local, NULL, 0, &p, &c) == 0 &&
			    same(&a, &c);
			errno = 0;
			ok &= hash_tls(b2b, NULL, 1, &p, &c) == -1 &&
			    errno == EINVAL && all_ff(&c);
			errno = 0;
			ok &= hash_local(b2b, &local, NULL, (size_t)-1, &p,
			    &c) == -1 && errno == EINVAL && all_ff(&c);
		}
	}
	ok &= yespower_free_local(&local) == 0;
	report("NULL input with length 0 (valid) and with a length (EINVAL)",
	    ok);
}

/* NULL output: refused with EINVAL, nothing written, nothing broken. */
static void check_null_dst(void)
{
	yespower_params_t p = { YESPOWER_1_0, 1024, 8, NULL, 0 };
	yespower_params_t bad = { YESPOWER_1_0, 1000, 8, NULL, 0 };
	const yespower_preset_t *preset = yespower_preset_find("power2b");
	yespower_local_t local;
	yespower_binary_t a, b;
	int ok = yespower_init_local(&local) == 0 && preset;

	errno = 0;
	ok &= yespower_tls((const uint8_t *)"x", 1, &p, NULL) == -1 &&
	    errno == EINVAL;
	errno = 0;
	ok &= yespower_b2b_tls((const uint8_t *)"x", 1, &p, NULL) == -1 &&
	    errno == EINVAL;
	errno = 0;
	ok &= yespower(&local, (const uint8_t *)"x", 1, &p, NULL) == -1 &&
	    errno == EINVAL;
	errno = 0;
	ok &= yespower_b2b(&local, (const uint8_t *)"x", 1, &bad, NULL) ==
	    -1 && errno == EINVAL;
	errno = 0;
	ok &= yespower_tls(NULL, 5, NULL, NULL) == -1 && errno == EINVAL;
	errno = 0;
	ok &= preset && yespower_preset_hash(preset, (const uint8_t *)"x", 1,
	    NULL) == -1 && errno == EINVAL;
	errno = 0;
	ok &= yespower_preset_hash(NULL, (const uint8_t *)"x", 1, NULL) ==
	    -1 && errno == EINVAL;

	/* Everything still works afterwards. */
	ok &= yespower(&local, (const uint8_t *)"x", 1, &p, &a) == 0;
	ok &= yespower_tls((const uint8_t *)"x", 1, &p, &b) == 0 &&
	    same(&a, &b);
	ok &= yespower_free_local(&local) == 0;
	report("NULL output", ok);
}

/* NULL params, local or preset: -1, EINVAL and an all-0xff output. */
static void check_null_params(void)
{
	yespower_local_t local;
	yespower_binary_t d;
	int b2b, ok = yespower_init_local(&local) == 0;

	for (b2b = 0; b2b < 2; b2b++) {
		memset(&d, 0, sizeof(d));
		errno = 0;
		ok &= hash_tls(b2b, (const uint8_t *)"x", 1, NULL, &d) == -1 &&
		    errno == EINVAL && all_ff(&d);
		memset(&d, 0, sizeof(d));
		errno = 0;
		ok &= hash_local(b2b, &local, (const uint8_t *)"x", 1, NULL,
		    &d) == -1 && errno == EINVAL && all_ff(&d);
	}
	memset(&d, 0, sizeof(d));
	errno = 0;
	ok &= yespower_preset_hash(NULL, (const uint8_t *)"x", 1, &d) == -1 &&
	    errno == EINVAL && all_ff(&d);
	ok &= yespower_preset_find(NULL) == NULL;
	ok &= yespower_preset_find("no such preset") == NULL;
	ok &= yespower_free_local(&local) == 0;
	report("NULL params and NULL preset", ok);

	/* The reference does not use the local at all (as upstream's). */
	if (is_reference) {
		skip("the reference ignores the local");
		return;
	}
	ok = 1;
	for (b2b = 0; b2b < 2; b2b++) {
		yespower_params_t p = { YESPOWER_1_0, 1024, 8, NULL, 0 };

		memset(&d, 0, sizeof(d));
		errno = 0;
		ok &= hash_local(b2b, NULL, (const uint8_t *)"x", 1, &p,
		    &d) == -1 && errno == EINVAL && all_ff(&d);
	}
	report("NULL local", ok);
}

/*
 * A large input (1 MiB and a few bytes, read whole by the pre-hash and,
 * in 0.5, by PBKDF2 as its salt): the known answers below, computed by
 * the optimized and the reference implementations alike; and the same
 * through the caller's local at an odd address.
 */
#define LARGE_LEN (((size_t)1 << 20) + 7)

static void check_large_input(void)
{
	static const struct {
		int b2b;
		yespower_version_t v;
		const char *pers;
		const char *hex;
	} kinds[] = {
		{ 0, YESPOWER_0_5, "Client Key",
		    "c15723dd22d6e5311dcabb2e2b2c47b9"
		    "e00f6accbe9ec0b70a0176997ddde9dd" },
		{ 0, YESPOWER_1_0, NULL,
		    "c2ddb6a83a59e3bf707ef8a59d281e8b"
		    "2b64e63983743dcc800ced94f8f00733" },
		{ 1, YESPOWER_1_0, "large",
		    "b8ecc227ad749dcbfa75a9abb87eeb3a"
		    "d87ca1cee89bb516316f08f10b731ed2" },
	};
	uint8_t *buf = malloc(LARGE_LEN + 1);
	yespower_local_t local;
	size_t k, i;
	int ok = buf && yespower_init_local(&local) == 0;

	for (k = 0; buf && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		yespower_params_t p = { kinds[k].v, 1024, 8,
		    (const uint8_t *)kinds[k].pers,
		    kinds[k].pers ? strlen(kinds[k].pers) : 0 };
		yespower_binary_t a, b;
		char hex[65];

		fill(buf, LARGE_LEN, 4);
		ok &= hash_tls(kinds[k].b2b, buf, LARGE_LEN, &p, &a) == 0;
		for (i = 0; i < sizeof(a.uc); i++)
			sprintf(&hex[2 * i], "%02x", a.uc[i]);
		if (strcmp(hex, kinds[k].hex)) {
			printf("misuse: large input, kind %zu: got %s\n", k,
			    hex);
			ok = 0;
		}
		memmove(buf + 1, buf, LARGE_LEN);
		ok &= hash_local(kinds[k].b2b, &local, buf + 1, LARGE_LEN, &p,
		    &b) == 0 && same(&a, &b);
	}
	ok &= yespower_free_local(&local) == 0;
	free(buf);
	report("a 1 MiB input", ok);
}

/* A batch of nothing succeeds, whatever the other arguments are. */
static void check_batch_of_none(void)
{
	yespower_params_t bad = { YESPOWER_1_0, 1000, 8, NULL, 0 };
	yespower_local_t local;
	int ok = yespower_init_local(&local) == 0;

	ok &= yespower_batch_tls(NULL, NULL, 0, NULL, NULL) == 0;
	ok &= yespower_b2b_batch_tls(NULL, NULL, 0, &bad, NULL) == 0;
	ok &= yespower_batch(NULL, NULL, NULL, 0, &bad, NULL) == 0;
	ok &= yespower_b2b_batch(&local, NULL, NULL, 0, NULL, NULL) == 0;
	ok &= yespower_free_local(&local) == 0;
	report("batch of 0 inputs succeeds (even with invalid arguments)", ok);
}

/*
 * A batch's outputs overlapping an input or the personalization: refused
 * (EINVAL, all 0xff), as it would give wrong hashes; outputs right next
 * to them are fine and give the one-at-a-time answers.
 */
static void check_batch_overlap(void)
{
	static uint8_t buf[4096];
	yespower_params_t p05 = { YESPOWER_0_5, 1024, 8, NULL, 0 };
	yespower_params_t p10 = { YESPOWER_1_0, 1024, 8, NULL, 0 };
	const uint8_t *src[4];
	size_t len[4] = { 80, 80, 80, 80 }, i, j;
	yespower_binary_t *dst = (yespower_binary_t *)(buf + 2048), one[4];
	int ok = 1;

	for (i = 0; i < 4; i++)
		src[i] = buf + 100 * i;
	p05.pers = buf + 1000;
	p05.perslen = 10;
	/* Each input, then the personalization, moved into dst[j]. */
	for (i = 0; i < 5; i++) {
		for (j = 0; j < 4; j++) {
			const uint8_t *saved = i < 4 ? src[i] : p05.pers;
			const uint8_t *into = dst[j].uc + 5;

			fill(buf, sizeof(buf), (unsigned)(i + j));
			if (i < 4)
				src[i] = into;
			else
				p05.pers = into;
			errno = 0;
			ok &= yespower_batch_tls(src, len, 4, &p05, dst) == -1 &&
			    errno == EINVAL && all_ff(&dst[0]) &&
			    all_ff(&dst[3]);
			if (i < 4)
				src[i] = saved;
			else
				p05.pers = saved;
		}
	}
	/* Touching but not overlapping: src[0] ends where dst begins. */
	fill(buf, sizeof(buf), 9);
	src[0] = buf + 2048 - 80;
	for (i = 0; i < 4; i++)
		ok &= yespower_tls(src[i], len[i], &p10, &one[i]) == 0;
	ok &= yespower_b2b_batch_tls(src, len, 4, &p10, dst) == 0;
	ok &= yespower_batch_tls(src, len, 4, &p10, dst) == 0;
	for (i = 0; i < 4; i++)
		ok &= same(&dst[i], &one[i]);
	report("batch output overlapping an input or the personalization "
	    "(EINVAL)", ok);
}

/* The process's virtual size in bytes, or -1. */
static long long vm_bytes(void)
{
	return statm_bytes(0);
}

/*
 * With every pthread key taken, *_tls still hashes (with memory of the
 * call's own, freed on return); once a key is free again, a later call
 * makes the library's key after all, and the thread keeps its memory.
 * Run first, in a child, before anything has made the library's key.
 */
static int tls_without_keys_child(void)
{
	static pthread_key_t keys[4096];
	yespower_params_t p = { YESPOWER_1_0, 2048, 8, NULL, 0 };
	yespower_local_t local;
	yespower_binary_t want, got;
	size_t n = 0;
	long long before, after;
	int ok = yespower_init_local(&local) == 0 &&
	    yespower(&local, (const uint8_t *)"keys", 4, &p, &want) == 0;

	yespower_free_local(&local);
	while (n < sizeof(keys) / sizeof(keys[0]) &&
	    pthread_key_create(&keys[n], NULL) == 0)
		n++;
	ok &= n < sizeof(keys) / sizeof(keys[0]);
	before = vm_bytes();
	ok &= yespower_tls((const uint8_t *)"keys", 4, &p, &got) == 0 &&
	    same(&want, &got);
	after = vm_bytes();
	/* Nothing kept: the 2 MiB of working memory went back. */
	ok &= is_reference || (before > 0 && after - before < (1 << 20));
	pthread_key_delete(keys[--n]);
	before = vm_bytes();
	ok &= yespower_tls((const uint8_t *)"keys", 4, &p, &got) == 0 &&
	    same(&want, &got);
	after = vm_bytes();
	/* Now the thread's memory is kept for the next call. */
	ok &= is_reference || after - before >= (2 << 20);
	while (n)
		pthread_key_delete(keys[--n]);
	return ok;
}

static void check_tls_without_keys(void)
{
	int status = -1;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(tls_without_keys_child() ? 0 : 1);
	report("*_tls with every pthread key taken, and after one is freed",
	    pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Core names: unknown ones are refused and change nothing. */
static void check_core_names(void)
{
	const char *before = yespower_impl_name();
	int ok = 1;

	errno = 0;
	ok &= yespower_set_impl("no-such-core") == -1 && errno == EINVAL;
	errno = 0;
	ok &= yespower_set_impl("") == -1 && errno == EINVAL;
	ok &= !strcmp(before, yespower_impl_name());
	report("unknown core names", ok);
}

/*
 * Usage: tests-misuse [--impl NAME]
 * --impl forces a mixing core; exit status 77 means it cannot run here
 * (under valgrind, which hides AVX-512 from the CPU, for example).
 */
int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "--impl")) {
		int rc = force_impl("tests-misuse", argv[2]);

		if (rc)
			return rc;
	}
	is_reference = !strcmp(yespower_impl_name(), "reference");
	printf("misuse: implementation %s\n", yespower_impl_name());

	check_tls_without_keys();	/* first: before any *_tls call */
	check_free_twice();
	check_local_reuse();
	check_unaligned();
	check_src_is_dst();
	check_pers_overlaps_src();
	check_null_src();
	check_null_dst();
	check_null_params();
	check_large_input();
	check_core_names();
	check_batch_of_none();
	check_batch_overlap();

	return summary();
}
