/*
 * bench/components.c: the parts of a yespower hash, timed one by one on
 * one thread: SHA-256 and BLAKE2b on their own, the PBKDF2 and HMAC calls
 * a hash of these parameters makes, the mixing core's parts (through the
 * library's component drivers), and the whole hash.
 *
 * This is the one part of the benchmark that uses the library's internal
 * headers.  The component drivers exist only in the optimized library;
 * benchmark-ref links the reference, which lacks them: a weak reference
 * is NULL there, and only what exists is timed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "blake2b.h"
#include "sha256.h"
#include "yespower-impl.h"

/* Weak, so that benchmark-ref links against the reference, which has
 * neither; the core's parts are timed only where they exist. */
#pragma weak yespower_run_component
#pragma weak yespower_select_core

/* A part of a yespower hash: a bench_part and its arguments. */
typedef struct {
	bench_part part;	/* first: the functions get &part */
	const bench_work *whole;
	int b2b;
	uint8_t *buf, *out;
	size_t len, key_len, out_len;
	yespower_component_t which;
	yespower_params_t params;
} component;

typedef uint32_t (*component_fn)(component *c, uint64_t count);

static uint32_t run_sha256(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	uint8_t out[32] = { 0 };

	while (count--) {
		c->buf[0] ^= out[0];
		sha256_buf(c->buf, c->len, out);
	}
	return out[0];
}

static uint32_t run_sha256_chain(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	uint8_t h[32];

	memcpy(h, c->buf, sizeof(h));
	while (count--)
		sha256_buf(h, sizeof(h), h);
	return h[0];
}

static uint32_t run_blake2b(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	uint8_t out[32] = { 0 };

	while (count--) {
		c->buf[0] ^= out[0];
		pow_blake2b(out, sizeof(out), NULL, 0, c->buf, c->len);
	}
	return out[0];
}

/* HMAC with a key_len-byte key over len bytes, SHA-256 or power2b's. */
static uint32_t run_hmac(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	uint8_t out[32] = { 0 };

	while (count--) {
		c->buf[0] ^= out[0];
		if (c->b2b)
			pow_hmac_blake2b256(out, c->buf, c->key_len,
			    c->buf + 64, c->len);
		else
			hmac_sha256_buf(c->buf, c->key_len, c->buf + 64,
			    c->len, out);
	}
	return out[0];
}

/* PBKDF2 (c = 1) with a 32-byte password and a len-byte salt. */
static uint32_t run_pbkdf2(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	while (count--) {
		c->buf[0] ^= c->out[0];
		if (c->b2b)
			pow_pbkdf2_blake2b256(c->buf, 32, c->buf + 64,
			    c->len, 1, c->out, c->out_len);
		else
			pbkdf2_sha256(c->buf, 32, c->buf + 64, c->len, 1,
			    c->out, c->out_len);
	}
	return c->out[0];
}

static uint32_t run_core(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	uint32_t result = 0;

	if (yespower_run_component(c->which, &c->params, count, &result))
		p->failed = 1;
	return result;
}

static uint32_t run_whole(bench_part *p, uint64_t count)
{
	component *c = (component *)p;
	const bench_work *w = c->whole;
	uint8_t out[BENCH_MAX_OUT] = { 0 };
	uint64_t nonce = 0;

	while (count--)
		if (w->hash(w, NULL, nonce++, 1, out))
			p->failed = 1;
	return out[0];
}

static component *add_component(component *list, size_t *n,
    const char *unit, double per_call, bench_part_fn fn, const char *fmt,
    ...) __attribute__((format(printf, 6, 7)));

/* Append a part to list[] (named with printf's fmt); returns it. */
static component *add_component(component *list, size_t *n,
    const char *unit, double per_call, bench_part_fn fn, const char *fmt,
    ...)
{
	component *c = &list[(*n)++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->part.name, sizeof(c->part.name), fmt, ap);
	va_end(ap);
	c->part.unit = unit;
	c->part.per_call = per_call;
	c->part.fn = fn;
	return c;
}

/* SHA-256 and BLAKE2b on their own: bulk speed and short inputs. */
static void hash_components(component *list, size_t *n)
{
	component *c;

	c = add_component(list, n, "MB/s", 64e-6, run_sha256, "SHA-256, 64 B");
	c->len = 64;
	c = add_component(list, n, "MB/s", 16384e-6, run_sha256,
	    "SHA-256, 16 KiB");
	c->len = 16384;
	add_component(list, n, "MH/s", 1e-6, run_sha256_chain,
	    "SHA-256, recursive 32 B");
	c = add_component(list, n, "MB/s", 64e-6, run_blake2b,
	    "BLAKE2b-256, 64 B");
	c->len = 64;
	c = add_component(list, n, "MB/s", 16384e-6, run_blake2b,
	    "BLAKE2b-256, 16 KiB");
	c->len = 16384;
}

/*
 * The front and back ends as a hash of these parameters calls them: in
 * 0.5, PBKDF2 over the input into 128 * r bytes, PBKDF2 over B into 32
 * bytes and, with a personalization, an HMAC keyed by the result; in 1.0,
 * PBKDF2 over the personalization into 128 bytes and an HMAC keyed by B's
 * last 64 bytes.
 */
static void kdf_components(component *list, size_t *n,
    const bench_options *o, int b2b)
{
	const yespower_params_t *p = &o->params;
	const char *h = b2b ? "BLAKE2b-256" : "SHA256";
	size_t perslen = o->preset && o->preset->pers_is_input ? 80 :
	    p->perslen;
	size_t first = *n, i;
	component *c;

	if (p->version == YESPOWER_0_5) {
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, 80 B salt -> %u B", h, 128 * p->r);
		c->len = 80;
		c->out_len = 128 * (size_t)p->r;
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, %u B salt -> 32 B", h, 128 * p->r);
		c->len = 128 * (size_t)p->r;
		c->out_len = 32;
		if (p->pers) {
			c = add_component(list, n, "calls/s", 1, run_hmac,
			    "HMAC-%s, 32 B key, %zu B message", h, perslen);
			c->key_len = 32;
			c->len = perslen;
		}
	} else {
		c = add_component(list, n, "calls/s", 1, run_pbkdf2,
		    "PBKDF2-%s, %zu B salt -> 128 B", h, perslen);
		c->len = perslen;
		c->out_len = 128;
		c = add_component(list, n, "calls/s", 1, run_hmac,
		    "HMAC-%s, 64 B key, 32 B message", h);
		c->key_len = 64;
		c->len = 32;
	}
	for (i = first; i < *n; i++) {
		list[i].part.in_hash = 1;
		list[i].b2b = b2b;
	}
}

/* The mixing core's parts, through the library's component drivers. */
static void core_components(component *list, size_t *n,
    const bench_options *o)
{
	const yespower_params_t *p = &o->params;
	const char *v = p->version == YESPOWER_0_5 ? "0.5" : "1.0";
	uint32_t nloop = ((p->N + 2) / 3 + 1) & ~(uint32_t)1;
	double rounds = p->version == YESPOWER_0_5 ? 6 : 3;
	size_t first = *n, i;
	component *c;
	int k;

	c = add_component(list, n, "Mblocks/s", 1e-6, run_core,
	    "Salsa20/8 (0.5), 64 B block");
	c->which = YESPOWER_COMPONENT_SALSA20;
	c = add_component(list, n, "Mblocks/s", 1e-6, run_core,
	    "Salsa20/2 (1.0), 64 B block");
	c->which = YESPOWER_COMPONENT_SALSA20;
	c = add_component(list, n, "Mrounds/s", rounds * 1e-6, run_core,
	    "pwxform (%s), one group's chain", v);
	c->which = YESPOWER_COMPONENT_PWX_CHAIN;
	/* As many interleaved as the core in use can (its kmax). */
	for (k = 1; k <= (int)yespower_select_core()->kmax; k++) {
		c = add_component(list, n, "Mrounds/s", k * rounds * 1e-6,
		    run_core, k == 1 ? "pwxform (%s), one hash" :
		    "pwxform (%s), %d hashes interleaved", v, k);
		c->which = (yespower_component_t)
		    (YESPOWER_COMPONENT_PWXFORM_1 + k - 1);
	}
	c = add_component(list, n, "blocks/s", 1, run_core,
	    "BlockMix_pwxform (%s), %u B block", v, 128 * p->r);
	c->which = YESPOWER_COMPONENT_BLOCKMIX;
	c = add_component(list, n, "passes/s", 1, run_core,
	    "SMix1 (%s), N = %u blocks", v, p->N);
	c->which = YESPOWER_COMPONENT_SMIX1;
	c->part.in_hash = 1;
	c = add_component(list, n, "passes/s", 1, run_core,
	    "SMix2 (%s), %u steps", v, nloop);
	c->which = YESPOWER_COMPONENT_SMIX2;
	c->part.in_hash = 1;
	/* The parameters' N, r and version; Salsa20/8 is 0.5's own. */
	for (i = first; i < *n; i++)
		list[i].params = *p;
	list[first].params.version = YESPOWER_0_5;
	list[first + 1].params.version = YESPOWER_1_0;
}

int bench_components(const bench_options *o, const bench_work *whole,
    json_writer *j)
{
	static component list[32];
	static uint8_t out[128 * 32];
	int b2b = o->b2b || (o->preset &&
	    o->preset->hash == YESPOWER_HASH_BLAKE2B);
	size_t i, n = 0, size = 64 + 16384 + 128 * 32 + o->params.perslen;
	uint8_t *buf = malloc(size);
	double parts = 0;
	int failed = 0;

	if (!buf)
		bench_out_of_memory();
	for (i = 0; i < size; i++)
		buf[i] = (uint8_t)(i * 7);
	hash_components(list, &n);
	kdf_components(list, &n, o, b2b);
	if (yespower_run_component && yespower_select_core)
		core_components(list, &n, o);
	add_component(list, &n, "H/s", 1, run_whole, "whole hash (%s)",
	    b2b ? "blake2b" : "sha256");
	for (i = 0; i < n; i++) {
		list[i].whole = whole;
		list[i].buf = buf;
		list[i].out = out;
	}

	if (o->ncpus)
		bench_pin_thread(o->cpus[0]);
	if (!j)
		printf("Components (1 thread, implementation %s, about %.2f s "
		    "each):\n", yespower_impl_name(), o->seconds);
	for (i = 0; i < n; i++) {
		bench_part *p = &list[i].part;

		bench_part_measure(p, o->seconds);
		failed |= p->failed;
		if (p->in_hash && p->rate > 0)
			parts += p->per_call / p->rate;
		if (!j)
			bench_part_print(p);
	}
	if (j) {
		json_open(j, "components", '[');
		for (i = 0; i < n; i++)
			bench_part_json(j, &list[i].part);
		json_close(j, ']');
	} else if (!yespower_run_component) {
		puts("(no core components: this build has no drivers for "
		    "them)");
	} else if (list[n - 1].part.rate > 0) {
		printf("SMix1, SMix2, PBKDF2 and HMAC add up to %.3f ms of the "
		    "whole hash's %.3f ms\n", parts * 1e3,
		    1e3 / list[n - 1].part.rate);
	}
	free(buf);
	return failed;
}
