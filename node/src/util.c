/*
 * util.c: argument checks and Buffers for the addon (see util.h; the
 * promise jobs are in jobs.c).
 */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void nb_throw_pending(napi_env env)
{
	bool pending = false;

	if (napi_is_exception_pending(env, &pending) == napi_ok && !pending)
		napi_throw_error(env, NULL, "Node-API call failed");
}

static void throw_fmt(napi_env env, int range, const char *fmt,
    va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (range)
		napi_throw_range_error(env, "ERR_OUT_OF_RANGE", msg);
	else
		napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", msg);
}

void nb_type_error(napi_env env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	throw_fmt(env, 0, fmt, ap);
	va_end(ap);
}

void nb_range_error(napi_env env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	throw_fmt(env, 1, fmt, ap);
	va_end(ap);
}

static size_t element_size(napi_typedarray_type t)
{
	switch (t) {
	case napi_int16_array:
	case napi_uint16_array:
		return 2;
	case napi_int32_array:
	case napi_uint32_array:
	case napi_float32_array:
		return 4;
	case napi_float64_array:
	case napi_bigint64_array:
	case napi_biguint64_array:
		return 8;
	default:
		return 1;
	}
}

int nb_bytes(napi_env env, napi_value v, const char *what,
    const uint8_t **p, size_t *len)
{
	bool is = false;
	void *data = NULL;
	size_t n = 0, off;
	napi_typedarray_type t;
	napi_value ab;

	if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
		if (napi_get_typedarray_info(env, v, &t, &n, &data, &ab,
		    &off) != napi_ok)
			goto fail;
		n *= element_size(t);
	} else if (napi_is_dataview(env, v, &is) == napi_ok && is) {
		if (napi_get_dataview_info(env, v, &n, &data, &ab, &off) !=
		    napi_ok)
			goto fail;
	} else if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
		if (napi_get_arraybuffer_info(env, v, &data, &n) != napi_ok)
			goto fail;
	} else {
		nb_type_error(env, "%s must be a Buffer, TypedArray, DataView "
		    "or ArrayBuffer", what);
		return -1;
	}
	/* An empty view may have no memory behind it. */
	*p = data ? data : (const uint8_t *)"";
	*len = n;
	return 0;
fail:
	nb_throw_pending(env);
	return -1;
}

int nb_is_nullish(napi_env env, napi_value v)
{
	napi_valuetype t;

	return napi_typeof(env, v, &t) != napi_ok || t == napi_undefined ||
	    t == napi_null;
}

int nb_integer(napi_env env, napi_value v, const char *what, double lo,
    double hi, double *out)
{
	napi_valuetype t;
	double d;

	if (napi_typeof(env, v, &t) != napi_ok || t != napi_number) {
		nb_type_error(env, "%s must be a number", what);
		return -1;
	}
	napi_get_value_double(env, v, &d);
	if (!(d >= lo && d <= hi) || d != floor(d)) {
		nb_range_error(env, "%s must be an integer from %.0f to %.0f",
		    what, lo, hi);
		return -1;
	}
	*out = d;
	return 0;
}

napi_value nb_buffer(napi_env env, const void *p, size_t len)
{
	napi_value b;
	void *copy;

	NB_CHECK(env, napi_create_buffer_copy(env, len, p, &copy, &b));
	return b;
}

int nb_args(napi_env env, napi_callback_info info, size_t max,
    napi_value *argv, napi_value *self, void **data)
{
	size_t argc = max;

	if (napi_get_cb_info(env, info, &argc, argv, self, data) != napi_ok) {
		nb_throw_pending(env);
		return -1;
	}
	return 0;
}

napi_value nb_errno_error(napi_env env, int err, const char *what)
{
	char msg[256];
	napi_value code, text, e;
	const char *name = err == ENOMEM ? "ENOMEM" : err == EINVAL ?
	    "ERR_OUT_OF_RANGE" : "ERR_HASH_FAILED";

	snprintf(msg, sizeof(msg), "%s: %s", what, err == ENOMEM ?
	    "not enough memory" : strerror(err));
	if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code) !=
	    napi_ok || napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH,
	    &text) != napi_ok)
		return NULL;
	if ((err == EINVAL ? napi_create_range_error(env, code, text, &e) :
	    napi_create_error(env, code, text, &e)) != napi_ok)
		return NULL;
	return e;
}

void nb_inputs_free(nb_inputs *in)
{
	free(in->bytes);
	free(in->src);
	free(in->len);
	memset(in, 0, sizeof(*in));
}

/* The bytes of input i of v (v itself if not array). */
static int input_at(napi_env env, napi_value v, int array, uint32_t i,
    const uint8_t **p, size_t *len)
{
	napi_value e = v;
	char what[32];

	if (array && napi_get_element(env, v, i, &e) != napi_ok) {
		nb_throw_pending(env);
		return -1;
	}
	snprintf(what, sizeof(what), array ? "inputs[%u]" : "data", i);
	return nb_bytes(env, e, what, p, len);
}

int nb_inputs_copy(napi_env env, napi_value v, int array, nb_inputs *in)
{
	uint32_t n = 1, i;
	size_t total = 0, off = 0, l;
	const uint8_t *p;
	bool is;

	memset(in, 0, sizeof(*in));
	if (array) {
		if (napi_is_array(env, v, &is) != napi_ok || !is) {
			nb_type_error(env, "inputs must be an array");
			return -1;
		}
		napi_get_array_length(env, v, &n);
	}
	in->count = n;
	if (!(in->src = calloc(n ? n : 1, sizeof(*in->src))) ||
	    !(in->len = calloc(n ? n : 1, sizeof(*in->len))))
		goto nomem;
	/* sizes first, then the bytes into one block */
	for (i = 0; i < n; i++) {
		if (input_at(env, v, array, i, &p, &l))
			goto fail;
		in->len[i] = l;
		total += l;
	}
	if (!(in->bytes = malloc(total ? total : 1)))
		goto nomem;
	for (i = 0; i < n; i++) {
		if (input_at(env, v, array, i, &p, &l))
			goto fail;
		if (l != in->len[i]) {	/* a getter changed the array */
			nb_range_error(env, "inputs changed while read");
			goto fail;
		}
		memcpy(in->bytes + off, p, l);
		in->src[i] = in->bytes + off;
		off += l;
	}
	return 0;
nomem:
	napi_throw_error(env, "ENOMEM", "inputs: not enough memory");
fail:
	nb_inputs_free(in);
	return -1;
}

napi_value nb_buffers(napi_env env, const uint8_t *out, size_t count)
{
	napi_value a, b;
	size_t i;

	NB_CHECK(env, napi_create_array_with_length(env, count, &a));
	for (i = 0; i < count; i++) {
		if (!(b = nb_buffer(env, out + 32 * i, 32)))
			return NULL;
		NB_CHECK(env, napi_set_element(env, a, (uint32_t)i, b));
	}
	return a;
}

int nb_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}
