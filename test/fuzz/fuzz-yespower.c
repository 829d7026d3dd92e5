/*
 * test/fuzz/fuzz-yespower.c: the optimized implementation against the reference,
 * on parameters and inputs taken from fuzz data.
 *
 * LLVMFuzzerTestOneInput() is the libFuzzer entry point (make fuzz-smoke);
 * test/fuzz/replay.c calls the same function on the files of a corpus without
 * libFuzzer.  One input is read as:
 *
 *   byte 0  bits 0-2: version: 0-2 yespower 1.0, 3-5 yespower 0.5,
 *                     6 an invalid one from a table, 7 byte 4 as is;
 *           bit 3:    power2b (yespower_b2b) instead of yespower;
 *           bits 4-5: personalization: none (NULL), empty, bytes, or
 *                     NULL with a length (invalid);
 *           bit 6:    the personalization lies inside the input;
 *           bit 7:    an empty input is passed as NULL.
 *   byte 1  bits 0-2: N: 0-3 1024, 4-5 2048, 6 4096, 7 an invalid one
 *                     from a table (byte 4);
 *           bits 3-5: the mixing core: the n-th of yespower_impl_at(),
 *           or unchanged where that is not a core
 *                     (unless the environment sets YESPOWER_IMPL).
 *   byte 2  r: below 100, 8..15; below 200, 8..32; else an invalid one.
 * Small N and r are the more likely so that more inputs run per second:
 * the reference is slow, and under the sanitizers slower.
 *   byte 3  the personalization's length, modulo what the data has.
 *   byte 4  bits 0-2: the input's offset from an aligned address;
 *           the whole byte: the invalid version or N.
 *   the rest: the personalization's bytes, then the input.
 *
 * Valid parameters (judged here, not by the library) must give 0 and the
 * same hash from yespower_tls/yespower_b2b_tls, from yespower/yespower_b2b
 * on one yespower_local_t kept across inputs (so it grows and shrinks), and
 * from the reference.  Invalid ones must give -1, errno EINVAL and an
 * all-0xff output from all three.  Any difference aborts with the case
 * printed on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yespower.h"
#include "test/tests-util.h"

/* The reference, compiled under other names (see the Makefile). */
int ref_yespower_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);
int ref_yespower_b2b_tls(const uint8_t *src, size_t srclen,
    const yespower_params_t *params, yespower_binary_t *dst);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER_BYTES 5

static const uint32_t bad_versions[] = { 0, 1, 4, 6, 9, 11, 15, 255 };
static const uint32_t bad_Ns[] = { 0, 1, 512, 1000, 1023, 1025, 1536,
    3072, 4095, 1048576, 0x80000000u, 0xffffffffu };
static const uint32_t bad_rs[] = { 0, 1, 7, 33, 64, 256, 0x80000008u,
    0xffffffffu };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The n-th mixing core of this build, or NULL (leave it unchanged). */
static const char *core_at(unsigned n)
{
	const char *name = yespower_impl_at(n);

	return name && !strchr(name, '=') ? name : NULL;
}

/* One decoded input. */
typedef struct {
	yespower_params_t params;
	int b2b, null_src, pers_in_src, pers_mode;
	const char *core;
	size_t offset;
	const uint8_t *pers_bytes, *src_bytes;
	size_t src_len;
} fuzz_case;

static void decode(const uint8_t *data, size_t size, fuzz_case *c)
{
	uint8_t h[HEADER_BYTES] = { 0 };
	size_t rest, perslen;
	unsigned v, core;

	memcpy(h, data, size < HEADER_BYTES ? size : HEADER_BYTES);
	data += size < HEADER_BYTES ? size : HEADER_BYTES;
	rest = size < HEADER_BYTES ? 0 : size - HEADER_BYTES;

	v = h[0] & 7;
	if (v < 3)
		c->params.version = YESPOWER_1_0;
	else if (v < 6)
		c->params.version = YESPOWER_0_5;
	else if (v == 6)
		c->params.version = (yespower_version_t)
		    bad_versions[h[4] % COUNT(bad_versions)];
	else
		c->params.version = (yespower_version_t)h[4];
	c->b2b = (h[0] >> 3) & 1;
	c->pers_mode = (h[0] >> 4) & 3;
	c->pers_in_src = (h[0] >> 6) & 1;
	c->null_src = (h[0] >> 7) & 1;

	switch (h[1] & 7) {
	case 4: case 5:
		c->params.N = 2048;
		break;
	case 6:
		c->params.N = 4096;
		break;
	case 7:
		c->params.N = bad_Ns[h[4] % COUNT(bad_Ns)];
		break;
	default:
		c->params.N = 1024;
	}
	core = (h[1] >> 3) & 7;
	c->core = core_at(core);

	if (h[2] < 100)
		c->params.r = 8u + h[2] % 8u;
	else if (h[2] < 200)
		c->params.r = 8u + h[2] % 25u;
	else
		c->params.r = bad_rs[h[2] % COUNT(bad_rs)];

	perslen = h[3] % (rest + 1);
	c->offset = h[4] & 7;

	/* The personalization's bytes come first; the input is the rest,
	 * or, if pers_in_src, all of it with pers pointing inside. */
	c->pers_bytes = data;
	c->params.perslen = c->pers_mode >= 2 ? perslen : 0;
	c->src_bytes = data;
	c->src_len = rest;
	if (!c->pers_in_src) {
		c->src_bytes += c->params.perslen;
		c->src_len -= c->params.perslen;
	}
	c->params.pers = NULL;	/* set once the buffers exist */
}

/* What the library must decide, judged independently of it. */
static int case_valid(const fuzz_case *c)
{
	const yespower_params_t *p = &c->params;

	if (p->version != YESPOWER_0_5 && p->version != YESPOWER_1_0)
		return 0;
	if (p->N < 1024 || p->N > 524288 || (p->N & (p->N - 1)))
		return 0;
	if (p->r < 8 || p->r > 32)
		return 0;
	if (c->pers_mode == 3 && p->perslen)
		return 0;
	return !(c->b2b && p->version != YESPOWER_1_0);
}

static void print_hex(const char *what, const uint8_t *p, size_t n)
{
	size_t i;

	fprintf(stderr, "  %s ", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%02x", p[i]);
	fputc('\n', stderr);
}

static void fail(const char *why, const fuzz_case *c, const uint8_t *src,
    const yespower_binary_t *out, size_t nout)
{
	size_t i;

	fprintf(stderr, "fuzz-yespower: %s\n  %s version %u N %u r %u "
	    "perslen %zu pers %s srclen %zu%s offset %zu core %s\n", why,
	    c->b2b ? "power2b" : "yespower", (unsigned)c->params.version,
	    c->params.N, c->params.r, c->params.perslen,
	    c->pers_mode == 0 ? "NULL" : c->pers_mode == 3 ? "NULL+len" :
	    c->pers_in_src ? "inside input" : "own",
	    c->src_len, src ? "" : " (NULL)", c->offset,
	    yespower_impl_name());
	if (src)
		print_hex("src ", src, c->src_len);
	if (c->params.pers)
		print_hex("pers", c->params.pers, c->params.perslen);
	for (i = 0; i < nout; i++)
		print_hex(i == 0 ? "tls " : i == 1 ? "loc " : "ref ",
		    out[i].uc, sizeof(out[i].uc));
	abort();
}

/* Kept across inputs, so that it grows, shrinks and changes versions. */
static yespower_local_t local;
static int local_ready;
static int core_fixed = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_case c;
	uint8_t *src_buf, *pers_buf, *src;
	yespower_binary_t out[3];
	int rc[3], err[3], valid, i;

	decode(data, size, &c);
	valid = case_valid(&c);

	if (!local_ready) {
		if (yespower_init_local(&local))
			abort();
		local_ready = 1;
	}
	/* YESPOWER_IMPL, if set, fixes the core (valgrind runs no AVX-512). */
	if (core_fixed < 0) {
		const char *env = getenv("YESPOWER_IMPL");

		core_fixed = env && *env;
	}
	if (c.core && !core_fixed && yespower_set_impl(c.core))
		yespower_set_impl("auto");	/* this CPU cannot run it */

	/* Exact-size heap copies, so that a sanitizer sees any overread;
	 * the input starts offset bytes past malloc's alignment. */
	src_buf = malloc(c.offset + c.src_len + 1);
	pers_buf = malloc(c.params.perslen + 1);
	if (!src_buf || !pers_buf)
		abort();
	src = src_buf + c.offset;
	memcpy(src, c.src_bytes, c.src_len);
	memcpy(pers_buf, c.pers_bytes, c.params.perslen);
	if (c.pers_mode == 1 || c.pers_mode == 2)
		c.params.pers = c.pers_in_src && c.src_len ? src : pers_buf;
	if (c.null_src && c.src_len == 0)
		src = NULL;

	for (i = 0; i < 3; i++) {
		memset(&out[i], i, sizeof(out[i]));
		errno = 0;
		if (i == 0)
			rc[i] = c.b2b ? yespower_b2b_tls(src, c.src_len,
			    &c.params, &out[i]) :
			    yespower_tls(src, c.src_len, &c.params, &out[i]);
		else if (i == 1)
			rc[i] = c.b2b ? yespower_b2b(&local, src, c.src_len,
			    &c.params, &out[i]) :
			    yespower(&local, src, c.src_len, &c.params,
			    &out[i]);
		else
			rc[i] = c.b2b ? ref_yespower_b2b_tls(src, c.src_len,
			    &c.params, &out[i]) :
			    ref_yespower_tls(src, c.src_len, &c.params,
			    &out[i]);
		err[i] = errno;
	}

	for (i = 0; i < 3; i++) {
		if (valid && rc[i] != 0)
			fail("a valid case failed", &c, src, out, 3);
		if (!valid && (rc[i] != -1 || err[i] != EINVAL ||
		    !all_ff(&out[i])))
			fail("an invalid case was not refused with EINVAL "
			    "and an all-0xff output", &c, src, out, 3);
	}
	if (memcmp(&out[0], &out[2], sizeof(out[0])) ||
	    memcmp(&out[1], &out[2], sizeof(out[0])))
		fail("optimized != reference", &c, src, out, 3);

	free(src_buf);
	free(pers_buf);
	return 0;
}
