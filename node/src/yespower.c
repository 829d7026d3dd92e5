/*
 * yespower.c: yespower, power2b, the presets and SHA-256d for JavaScript.
 *
 *   yespower(data[, spec])             a 32-byte Buffer
 *   yespowerAsync(data[, spec])        a promise of one, hashed on the pool
 *   yespowerBatch(inputs[, spec])      an array of Buffers (interleaved)
 *   yespowerBatchAsync(inputs[, spec])
 *   presets()                          the library's presets, described
 *   sha256d(data), sha256dAsync(data)
 *
 * spec is a preset's name ("yespowerr16", "power2b", ...), or an object
 * { version: 5 | 10 | "0.5" | "1.0", N, r, pers, hash: "sha256" |
 * "blake2b" } (defaults: 1.0, 2048, 32, none, sha256), or absent: the
 * generic yespower 1.0 preset.  Hashing uses the library's per-thread
 * memory (yespower_tls), so each pool thread keeps its own.
 */
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yespower.h"
#include "hashes/pow-hash.h"

#define HASH_SIZE 32

/* What to compute: a preset, or parameters (with a copy of pers). */
typedef struct {
	const yespower_preset_t *preset;
	yespower_params_t params;
	int b2b;
	uint8_t *pers;
} yp_spec;

static void spec_free(yp_spec *s)
{
	free(s->pers);
	s->pers = NULL;
}

static int get_named(napi_env env, napi_value obj, const char *name,
    napi_value *v)
{
	if (napi_get_named_property(env, obj, name, v) != napi_ok) {
		nb_throw_pending(env);
		return -1;
	}
	return 0;
}

static int string_of(napi_env env, napi_value v, char *buf, size_t size)
{
	size_t n;

	if (napi_get_value_string_utf8(env, v, buf, size, &n) != napi_ok) {
		nb_throw_pending(env);
		return -1;
	}
	return 0;
}

static int parse_version(napi_env env, napi_value v, yespower_params_t *p)
{
	napi_valuetype t;
	char s[8];
	double d;

	napi_typeof(env, v, &t);
	if (t == napi_undefined)
		return 0;
	if (t == napi_string) {
		if (string_of(env, v, s, sizeof(s)))
			return -1;
		d = !strcmp(s, "0.5") ? 5 : !strcmp(s, "1.0") ? 10 : -1;
	} else if (t == napi_number) {
		napi_get_value_double(env, v, &d);
		d = d == 0.5 ? 5 : d == 1 ? 10 : d;
	} else {
		nb_type_error(env, "version must be a number or a string");
		return -1;
	}
	if (d != 5 && d != 10) {
		nb_range_error(env, "version must be 0.5 or 1.0 (5 or 10)");
		return -1;
	}
	p->version = d == 5 ? YESPOWER_0_5 : YESPOWER_1_0;
	return 0;
}

static int parse_pers(napi_env env, napi_value v, yp_spec *s)
{
	napi_valuetype t;
	const uint8_t *p;
	size_t n;

	napi_typeof(env, v, &t);
	if (t == napi_undefined || t == napi_null)
		return 0;
	if (t == napi_string) {
		if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok)
			goto fail;
		if (!(s->pers = malloc(n + 1)))
			goto nomem;
		if (napi_get_value_string_utf8(env, v, (char *)s->pers, n + 1,
		    &n) != napi_ok)
			goto fail;
	} else {
		if (nb_bytes(env, v, "pers", &p, &n))
			return -1;
		if (!(s->pers = malloc(n ? n : 1)))
			goto nomem;
		memcpy(s->pers, p, n);
	}
	s->params.pers = s->pers;
	s->params.perslen = n;
	return 0;
nomem:
	napi_throw_error(env, "ENOMEM", "pers: not enough memory");
	return -1;
fail:
	nb_throw_pending(env);
	return -1;
}

static int parse_hash(napi_env env, napi_value v, yp_spec *s)
{
	napi_valuetype t;
	char name[16];

	napi_typeof(env, v, &t);
	if (t == napi_undefined)
		return 0;
	if (t != napi_string) {
		nb_type_error(env, "hash must be \"sha256\" or \"blake2b\"");
		return -1;
	}
	if (string_of(env, v, name, sizeof(name)))
		return -1;
	if (strcmp(name, "sha256") && strcmp(name, "blake2b")) {
		nb_range_error(env, "hash must be \"sha256\" or \"blake2b\"");
		return -1;
	}
	s->b2b = !strcmp(name, "blake2b");
	return 0;
}

static int parse_object(napi_env env, napi_value obj, yp_spec *s)
{
	napi_value v;
	double d;

	if (get_named(env, obj, "version", &v) || parse_version(env, v,
	    &s->params))
		return -1;
	if (get_named(env, obj, "N", &v))
		return -1;
	if (!nb_is_nullish(env, v)) {
		if (nb_integer(env, v, "N", 1024, 524288, &d))
			return -1;
		if ((uint32_t)d & ((uint32_t)d - 1)) {
			nb_range_error(env, "N must be a power of 2 from 1024 "
			    "to 524288");
			return -1;
		}
		s->params.N = (uint32_t)d;
	}
	if (get_named(env, obj, "r", &v))
		return -1;
	if (!nb_is_nullish(env, v)) {
		if (nb_integer(env, v, "r", 8, 32, &d))
			return -1;
		s->params.r = (uint32_t)d;
	}
	if (get_named(env, obj, "hash", &v) || parse_hash(env, v, s))
		return -1;
	if (s->b2b && s->params.version != YESPOWER_1_0) {
		nb_range_error(env, "hash \"blake2b\" (power2b) needs version "
		    "1.0");
		return -1;
	}
	if (get_named(env, obj, "pers", &v) || parse_pers(env, v, s))
		return -1;
	return 0;
}

/* spec as described at the top; 0, or -1 with an exception thrown. */
static int parse_spec(napi_env env, napi_value v, yp_spec *s)
{
	napi_valuetype t;
	char name[64];

	memset(s, 0, sizeof(*s));
	s->params.version = YESPOWER_1_0;
	s->params.N = 2048;
	s->params.r = 32;
	napi_typeof(env, v, &t);
	if (t == napi_undefined || t == napi_null)
		return 0;
	if (t == napi_string) {
		if (string_of(env, v, name, sizeof(name)))
			return -1;
		if (!(s->preset = yespower_preset_find(name))) {
			nb_range_error(env, "unknown yespower preset \"%s\"",
			    name);
			return -1;
		}
		return 0;
	}
	if (t != napi_object) {
		nb_type_error(env, "the parameters must be a preset name or an "
		    "object");
		return -1;
	}
	if (parse_object(env, v, s)) {
		spec_free(s);
		return -1;
	}
	return 0;
}

/* One hash; 0, or -1 with errno (out then all 0xff). */
static int spec_hash(const yp_spec *s, const uint8_t *in, size_t len,
    uint8_t *out)
{
	yespower_binary_t *dst = (yespower_binary_t *)out;

	if (s->preset)
		return yespower_preset_hash(s->preset, in, len, dst);
	return s->b2b ? yespower_b2b_tls(in, len, &s->params, dst) :
	    yespower_tls(in, len, &s->params, dst);
}

/*
 * count hashes, interleaved where the spec allows: a preset whose input
 * is its own personalization hashes one input at a time.
 */
static int spec_batch(const yp_spec *s, const uint8_t *const *src,
    const size_t *len, size_t count, uint8_t *out)
{
	yespower_binary_t *dst = (yespower_binary_t *)out;
	const yespower_params_t *p = s->preset ? &s->preset->params :
	    &s->params;
	int b2b = s->preset ? s->preset->hash == YESPOWER_HASH_BLAKE2B :
	    s->b2b;
	size_t i;

	if (s->preset && s->preset->pers_is_input) {
		for (i = 0; i < count; i++)
			if (spec_hash(s, src[i], len[i], out + HASH_SIZE * i))
				return -1;
		return 0;
	}
	return b2b ? yespower_b2b_batch_tls(src, len, count, p, dst) :
	    yespower_batch_tls(src, len, count, p, dst);
}

/* ---- synchronous calls ---- */

static napi_value js_yespower(napi_env env, napi_callback_info info)
{
	napi_value argv[2];
	const uint8_t *p;
	size_t len;
	yp_spec s;
	uint8_t out[HASH_SIZE];
	int rc, err;

	if (nb_args(env, info, 2, argv, NULL, NULL) ||
	    nb_bytes(env, argv[0], "data", &p, &len) ||
	    parse_spec(env, argv[1], &s))
		return NULL;
	rc = spec_hash(&s, p, len, out);
	err = errno;
	spec_free(&s);
	if (rc) {
		napi_throw(env, nb_errno_error(env, err, "yespower"));
		return NULL;
	}
	return nb_buffer(env, out, HASH_SIZE);
}

static napi_value js_yespower_batch(napi_env env, napi_callback_info info)
{
	napi_value argv[2], r = NULL;
	nb_inputs in;
	yp_spec s;
	uint8_t *out;
	int err = ENOMEM;

	if (nb_args(env, info, 2, argv, NULL, NULL) ||
	    parse_spec(env, argv[1], &s))
		return NULL;
	if (nb_inputs_copy(env, argv[0], 1, &in)) {
		spec_free(&s);
		return NULL;
	}
	out = malloc(HASH_SIZE * (in.count ? in.count : 1));
	if (out && !spec_batch(&s, in.src, in.len, in.count, out))
		r = nb_buffers(env, out, in.count);
	else {
		if (out)
			err = errno;
		napi_throw(env, nb_errno_error(env, err, "yespowerBatch"));
	}
	free(out);
	nb_inputs_free(&in);
	spec_free(&s);
	return r;
}

static napi_value js_sha256d(napi_env env, napi_callback_info info)
{
	napi_value argv[1];
	const uint8_t *p;
	size_t len;
	uint8_t out[HASH_SIZE];

	if (nb_args(env, info, 1, argv, NULL, NULL) ||
	    nb_bytes(env, argv[0], "data", &p, &len))
		return NULL;
	if (pow_sha256d(p, len, out)) {
		napi_throw(env, nb_errno_error(env, errno, "sha256d"));
		return NULL;
	}
	return nb_buffer(env, out, HASH_SIZE);
}

/* ---- the same on the thread pool ---- */

typedef struct {
	nb_job job;
	yp_spec spec;
	nb_inputs in;
	int batch, sha256d;
	uint8_t *out;
} yp_job;

static void yp_run(nb_job *j)
{
	yp_job *y = (yp_job *)j;
	size_t n = y->in.count;

	if (!(y->out = malloc(HASH_SIZE * (n ? n : 1)))) {
		j->err = ENOMEM;
		return;
	}
	if (y->sha256d ? pow_sha256d(y->in.src[0], y->in.len[0], y->out) :
	    y->batch ? spec_batch(&y->spec, y->in.src, y->in.len, n, y->out) :
	    spec_hash(&y->spec, y->in.src[0], y->in.len[0], y->out))
		j->err = errno ? errno : EINVAL;
}

static napi_value yp_done(napi_env env, nb_job *j)
{
	yp_job *y = (yp_job *)j;

	if (y->batch)
		return nb_buffers(env, y->out, y->in.count);
	return nb_buffer(env, y->out, HASH_SIZE);
}

static void yp_drop(napi_env env, nb_job *j)
{
	yp_job *y = (yp_job *)j;

	(void)env;
	spec_free(&y->spec);
	nb_inputs_free(&y->in);
	free(y->out);
}

static napi_value queue_yp(napi_env env, napi_callback_info info,
    int batch, int sha256d, const char *what)
{
	napi_value argv[2];
	yp_job *y = calloc(1, sizeof(*y));

	if (!y) {
		napi_throw_error(env, "ENOMEM", "not enough memory");
		return NULL;
	}
	y->batch = batch;
	y->sha256d = sha256d;
	y->job.what = what;
	y->job.run = yp_run;
	y->job.done = yp_done;
	y->job.drop = yp_drop;
	if (nb_args(env, info, 2, argv, NULL, NULL) ||
	    (!sha256d && parse_spec(env, argv[1], &y->spec)) ||
	    nb_inputs_copy(env, argv[0], batch, &y->in)) {
		yp_drop(env, &y->job);
		free(y);
		return NULL;
	}
	return nb_queue(env, &y->job);
}

static napi_value js_yespower_async(napi_env env, napi_callback_info info)
{
	return queue_yp(env, info, 0, 0, "yespowerAsync");
}

static napi_value js_yespower_batch_async(napi_env env,
    napi_callback_info info)
{
	return queue_yp(env, info, 1, 0, "yespowerBatchAsync");
}

static napi_value js_sha256d_async(napi_env env, napi_callback_info info)
{
	return queue_yp(env, info, 0, 1, "sha256dAsync");
}

/* ---- the presets, described ---- */

static int set_str(napi_env env, napi_value o, const char *k, const char *s)
{
	napi_value v;

	return napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v) !=
	    napi_ok || napi_set_named_property(env, o, k, v) != napi_ok;
}

static int set_num(napi_env env, napi_value o, const char *k, double d)
{
	napi_value v;

	return napi_create_double(env, d, &v) != napi_ok ||
	    napi_set_named_property(env, o, k, v) != napi_ok;
}

static napi_value js_presets(napi_env env, napi_callback_info info)
{
	const yespower_preset_t *p;
	napi_value a, o, v;
	size_t i;

	(void)info;
	NB_CHECK(env, napi_create_array(env, &a));
	for (i = 0; (p = yespower_preset_at(i)); i++) {
		NB_CHECK(env, napi_create_object(env, &o));
		if (set_str(env, o, "name", p->name) ||
		    set_str(env, o, "version", p->params.version ==
		    YESPOWER_0_5 ? "0.5" : "1.0") ||
		    set_num(env, o, "N", p->params.N) ||
		    set_num(env, o, "r", p->params.r) ||
		    set_str(env, o, "hash", p->hash == YESPOWER_HASH_BLAKE2B ?
		    "blake2b" : "sha256") ||
		    set_str(env, o, "coins", p->coins)) {
			nb_throw_pending(env);
			return NULL;
		}
		if (p->pers_is_input)
			v = NULL;
		else if (p->params.pers) {
			if (!(v = nb_buffer(env, p->params.pers,
			    p->params.perslen)))
				return NULL;
		} else
			NB_CHECK(env, napi_get_null(env, &v));
		if (!v && set_str(env, o, "pers", "input")) {
			nb_throw_pending(env);
			return NULL;
		}
		if (v)
			NB_CHECK(env, napi_set_named_property(env, o, "pers",
			    v));
		NB_CHECK(env, napi_set_element(env, a, (uint32_t)i, o));
	}
	return a;
}

int nb_init_yespower(napi_env env, napi_value exports)
{
	static const napi_property_descriptor d[] = {
		{ "yespower", NULL, js_yespower, NULL, NULL, NULL,
		    napi_enumerable, NULL },
		{ "yespowerAsync", NULL, js_yespower_async, NULL, NULL, NULL,
		    napi_enumerable, NULL },
		{ "yespowerBatch", NULL, js_yespower_batch, NULL, NULL, NULL,
		    napi_enumerable, NULL },
		{ "yespowerBatchAsync", NULL, js_yespower_batch_async, NULL,
		    NULL, NULL, napi_enumerable, NULL },
		{ "presets", NULL, js_presets, NULL, NULL, NULL,
		    napi_enumerable, NULL },
		{ "sha256d", NULL, js_sha256d, NULL, NULL, NULL,
		    napi_enumerable, NULL },
		{ "sha256dAsync", NULL, js_sha256d_async, NULL, NULL, NULL,
		    napi_enumerable, NULL },
	};

	return napi_define_properties(env, exports, sizeof(d) / sizeof(d[0]),
	    d) != napi_ok;
}
