/*
 * util.h: what the addon's files share: argument checking that throws
 * JavaScript's own exceptions (TypeError for a wrong kind of value,
 * RangeError for a value out of range), Buffers, and the promise jobs
 * that run on libuv's thread pool.
 *
 * Every function here runs on the JavaScript thread, except a job's run
 * function, which runs on a pool thread and must not touch napi_env.
 */
#ifndef NODE_ADDON_UTIL_H
#define NODE_ADDON_UTIL_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stddef.h>
#include <stdint.h>

/* A failed napi_* call: an exception is pending (or thrown here). */
#define NB_CHECK(env, call) \
	do { \
		if ((call) != napi_ok) { \
			nb_throw_pending(env); \
			return NULL; \
		} \
	} while (0)

/* Throw a generic Error if a failed call left no exception pending. */
void nb_throw_pending(napi_env env);

/* Throw TypeError (ERR_INVALID_ARG_TYPE) or RangeError (ERR_OUT_OF_RANGE). */
void nb_type_error(napi_env env, const char *fmt, ...);
void nb_range_error(napi_env env, const char *fmt, ...);

/*
 * The bytes of a Buffer, TypedArray, DataView or ArrayBuffer; anything
 * else throws TypeError naming `what`.  Returns 0, or -1 with the
 * exception thrown.  The pointer is valid while the value is alive and
 * the JavaScript thread does not run; jobs copy what they need.
 */
int nb_bytes(napi_env env, napi_value v, const char *what,
    const uint8_t **p, size_t *len);

/* Whether v is undefined or null. */
int nb_is_nullish(napi_env env, napi_value v);

/*
 * An integer number in [lo, hi] (TypeError if v is not a number,
 * RangeError if it is not an integer or is out of range).
 */
int nb_integer(napi_env env, napi_value v, const char *what, double lo,
    double hi, double *out);

/* A new Buffer holding a copy of len bytes, or NULL with an exception. */
napi_value nb_buffer(napi_env env, const void *p, size_t len);

/* Arguments of a call: up to max of them, the rest undefined. */
int nb_args(napi_env env, napi_callback_info info, size_t max,
    napi_value *argv, napi_value *self, void **data);

/* The Error a failed library call (errno err) throws or rejects with. */
napi_value nb_errno_error(napi_env env, int err, const char *what);

/*
 * A job whose end settles a promise.  run works on a pool thread and sets
 * err (an errno value) on failure; done, on the JavaScript thread, makes
 * the value the promise resolves to (NULL with an exception pending
 * rejects it with that exception); drop frees what the job owns (env is
 * NULL when the environment is going away: no napi_* calls then).  Embed
 * nb_job first in a larger struct.
 */
typedef struct nb_job nb_job;
struct nb_job {
	napi_async_work work;		/* nb_queue_alone's */
	napi_deferred deferred;
	nb_job *next;			/* in the runners' queue */
	int err;
	const char *what;		/* names the call in error messages */
	void (*run)(nb_job *job);
	napi_value (*done)(napi_env env, nb_job *job);
	void (*drop)(napi_env env, nb_job *job);
};

/*
 * Queue a hash job (allocated with malloc, its fields set) for the
 * environment's runners (jobs.c) and return its promise.  On failure
 * drop() and free() are called on it and NULL is returned with an
 * exception pending.
 */
napi_value nb_queue(napi_env env, nb_job *job);

/*
 * The same on a libuv work item of its own, outside the runners: for a
 * long job that is not a hash (a RandomX key build, which starts threads
 * of its own and must not hold up the hashes queued behind it).
 */
napi_value nb_queue_alone(napi_env env, nb_job *job);

/*
 * The environment's runners and their queue (jobs.c), made once per
 * environment when the module loads; 0, or -1 with an exception pending.
 */
int nb_jobs_init(napi_env env);

/*
 * The inputs of a call, copied so that a job owns them: one (array == 0:
 * v itself) or each element of the array v, in one block.  0, or -1
 * with an exception thrown (TypeError naming data or inputs[i]).
 */
typedef struct {
	uint8_t *bytes;
	const uint8_t **src;
	size_t *len;
	size_t count;
} nb_inputs;

int nb_inputs_copy(napi_env env, napi_value v, int array, nb_inputs *in);
void nb_inputs_free(nb_inputs *in);

/* An array of count Buffers of 32 bytes each from out. */
napi_value nb_buffers(napi_env env, const uint8_t *out, size_t count);

/* The number of CPUs online, at least 1. */
int nb_cpus(void);

#endif
