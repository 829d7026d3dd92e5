/*
 * randomx.c: RandomX for JavaScript, an object bound to a key.
 *
 *   new RandomX(key, { v2, mode: "light" | "full", threads })
 *	key null: no key yet (setKeyAsync gives it one)
 *   rx.hash(data), rx.hashAsync(data)           a 32-byte Buffer
 *   rx.hashMany(inputs), rx.hashManyAsync(inputs)   through first/next/last
 *   rx.commitment(data), rx.commitmentAsync(data)   BLAKE2b(data || hash)
 *   rx.setKey(key), rx.setKeyAsync(key)
 *   rx.close()
 *   rx.key, rx.v2, rx.mode
 *   randomxCommitment(data, hash)               (module function)
 *
 * A key's cache (light mode) or dataset (full mode) and the VMs that use
 * it live in an rx_key (rx-key.c), counted: the object holds one
 * reference to its current key and every call holds one while it runs.
 * A key change builds the new rx_key aside (on the pool for setKeyAsync)
 * and swaps it in on the JavaScript thread when it is ready, so calls
 * made before the swap finish with the old key, calls made after it use
 * the new one, and the old key's memory goes when its last call ends.
 *
 * rx_obj is touched on the JavaScript thread only; rx_key's VM list has a
 * lock, its count is atomic, the rest is read-only once built.
 */
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "randomx/randomx.h"
#include "rx-key.h"

#define HASH_SIZE RANDOMX_HASH_SIZE

typedef struct {
	rx_key *cur;			/* NULL: no key yet, or closed */
	int v2, full, threads, closed;
	unsigned long long asked, installed;	/* key change generations */
} rx_obj;

/* ---- the object ---- */

static void obj_finalize(napi_env env, void *data, void *hint)
{
	rx_obj *o = data;

	(void)env;
	(void)hint;
	key_unref_detached(o->cur);
	free(o);
}

static rx_obj *unwrap(napi_env env, napi_value self)
{
	void *p = NULL;

	if (napi_unwrap(env, self, &p) != napi_ok || !p) {
		nb_type_error(env, "not a RandomX object");
		return NULL;
	}
	return p;
}

/*
 * The object a method is called on (and `this` in *self unless self is
 * NULL), its first argc arguments in argv (the rest undefined); NULL
 * with TypeError if `this` is not a RandomX object.
 */
static rx_obj *this_obj(napi_env env, napi_callback_info info, size_t argc,
    napi_value *argv, napi_value *self)
{
	napi_value t;

	if (nb_args(env, info, argc, argv, &t, NULL))
		return NULL;
	if (self)
		*self = t;
	return unwrap(env, t);
}

/* The current key with a reference for the caller, or NULL and Error. */
static rx_key *obj_key(napi_env env, rx_obj *o)
{
	if (!o->cur) {
		napi_throw_error(env, "ERR_RANDOMX_NO_KEY", o->closed ?
		    "this RandomX object is closed" :
		    "this RandomX object has no key yet");
		return NULL;
	}
	atomic_fetch_add(&o->cur->refs, 1);
	return o->cur;
}

static int parse_options(napi_env env, napi_value v, rx_obj *o)
{
	napi_valuetype t;
	napi_value x;
	bool b;
	char mode[8];
	size_t n;
	double d;

	o->threads = nb_cpus();
	if (nb_is_nullish(env, v))
		return 0;
	napi_typeof(env, v, &t);
	if (t != napi_object) {
		nb_type_error(env, "options must be an object");
		return -1;
	}
	if (napi_get_named_property(env, v, "v2", &x) != napi_ok)
		goto fail;
	if (!nb_is_nullish(env, x)) {
		if (napi_get_value_bool(env, x, &b) != napi_ok) {
			nb_type_error(env, "options.v2 must be a boolean");
			return -1;
		}
		o->v2 = b;
	}
	if (napi_get_named_property(env, v, "mode", &x) != napi_ok)
		goto fail;
	if (!nb_is_nullish(env, x)) {
		napi_typeof(env, x, &t);
		if (t != napi_string) {
			nb_type_error(env, "options.mode must be \"light\" or "
			    "\"full\"");
			return -1;
		}
		napi_get_value_string_utf8(env, x, mode, sizeof(mode), &n);
		if (strcmp(mode, "light") && strcmp(mode, "full")) {
			nb_range_error(env, "options.mode must be \"light\" or "
			    "\"full\"");
			return -1;
		}
		o->full = !strcmp(mode, "full");
	}
	if (napi_get_named_property(env, v, "threads", &x) != napi_ok)
		goto fail;
	if (!nb_is_nullish(env, x)) {
		if (nb_integer(env, x, "options.threads", 1, 64, &d))
			return -1;
		o->threads = (int)d;
	}
	return 0;
fail:	/* a getter threw: its exception is pending */
	nb_throw_pending(env);
	return -1;
}

static int get_key(napi_env env, napi_value v, const uint8_t **p,
    size_t *n)
{
	return nb_bytes(env, v, "key", p, n);
}

static napi_value rx_new(napi_env env, napi_callback_info info)
{
	napi_value argv[2], self, target;
	const uint8_t *key = NULL;
	size_t keylen = 0;
	rx_obj *o;
	int err;

	if (napi_get_new_target(env, info, &target) != napi_ok || !target) {
		nb_type_error(env, "RandomX must be called with new");
		return NULL;
	}
	if (nb_args(env, info, 2, argv, &self, NULL))
		return NULL;
	if (!nb_is_nullish(env, argv[0]) && get_key(env, argv[0], &key,
	    &keylen))
		return NULL;
	if (!(o = calloc(1, sizeof(*o)))) {
		napi_throw_error(env, "ENOMEM", "not enough memory");
		return NULL;
	}
	if (parse_options(env, argv[1], o))
		goto fail;
	if (key) {
		o->cur = key_build(key, keylen, o->v2, o->full, o->threads,
		    &err);
		if (!o->cur) {
			napi_throw(env, nb_errno_error(env, err, "RandomX"));
			goto fail;
		}
	}
	if (napi_wrap(env, self, o, obj_finalize, NULL, NULL) != napi_ok) {
		nb_throw_pending(env);
		key_unref_detached(o->cur);
		goto fail;
	}
	return self;
fail:
	free(o);
	return NULL;
}

static napi_value rx_hash(napi_env env, napi_callback_info info)
{
	napi_value argv[1];
	const uint8_t *p;
	size_t len;
	rx_obj *o;
	rx_key *k;
	randomx_vm *vm;
	uint8_t out[HASH_SIZE];

	if (!(o = this_obj(env, info, 1, argv, NULL)) ||
	    nb_bytes(env, argv[0], "data", &p, &len) ||
	    !(k = obj_key(env, o)))
		return NULL;
	if (!(vm = vm_take(k))) {
		key_unref_detached(k);
		napi_throw(env, nb_errno_error(env, ENOMEM, "hash"));
		return NULL;
	}
	randomx_calculate_hash(vm, p, len, out);
	vm_give(k, vm);
	key_unref_detached(k);
	return nb_buffer(env, out, HASH_SIZE);
}

/* ---- calls on the pool: hash, hashMany, commitment ---- */

enum { OP_HASH, OP_MANY, OP_COMMIT };

typedef struct {
	nb_job job;
	rx_key *key;
	int op;
	nb_inputs in;
	uint8_t *out;
} hash_job;

static void hash_job_drop(napi_env env, nb_job *j)
{
	hash_job *h = (hash_job *)j;

	(void)env;
	key_unref_detached(h->key);
	nb_inputs_free(&h->in);
	free(h->out);
}

/* The work of a hash job, on whatever thread runs it. */
static int hash_job_work(hash_job *h)
{
	randomx_vm *vm = vm_take(h->key);

	if (!vm)
		return ENOMEM;
	if (h->op == OP_MANY) {
		key_hash_many(vm, h->in.src, h->in.len, h->in.count, h->out);
	} else {
		randomx_calculate_hash(vm, h->in.src[0], h->in.len[0], h->out);
		if (h->op == OP_COMMIT)
			randomx_calculate_commitment(h->in.src[0], h->in.len[0],
			    h->out, h->out);
	}
	vm_give(h->key, vm);
	return 0;
}

static void hash_job_run(nb_job *j)
{
	hash_job *h = (hash_job *)j;

	j->err = hash_job_work(h);
	/* the key may go now, on this thread rather than the JS one */
	key_unref(h->key);
	h->key = NULL;
}

static napi_value hash_job_done(napi_env env, nb_job *j)
{
	hash_job *h = (hash_job *)j;

	if (h->op != OP_MANY)
		return nb_buffer(env, h->out, HASH_SIZE);
	return nb_buffers(env, h->out, h->in.count);
}

/* Build the job; run it here (sync) or queue it (async). */
static napi_value hash_call(napi_env env, napi_callback_info info, int op,
    int async, const char *what)
{
	napi_value argv[1], r = NULL;
	rx_obj *o;
	hash_job *h;

	if (!(o = this_obj(env, info, 1, argv, NULL)))
		return NULL;
	if (!(h = calloc(1, sizeof(*h)))) {
		napi_throw_error(env, "ENOMEM", "not enough memory");
		return NULL;
	}
	h->op = op;
	h->job.what = what;
	h->job.run = hash_job_run;
	h->job.done = hash_job_done;
	h->job.drop = hash_job_drop;
	if (nb_inputs_copy(env, argv[0], op == OP_MANY, &h->in) ||
	    !(h->out = malloc(HASH_SIZE * (h->in.count ? h->in.count : 1))) ||
	    !(h->key = obj_key(env, o))) {
		if (!h->out)	/* the inputs were copied: out is what failed */
			napi_throw_error(env, "ENOMEM", "not enough memory");
		goto out;
	}
	if (async)
		return nb_queue(env, &h->job);
	if ((h->job.err = hash_job_work(h)))
		napi_throw(env, nb_errno_error(env, h->job.err, what));
	else
		r = hash_job_done(env, &h->job);
out:
	hash_job_drop(env, &h->job);
	free(h);
	return r;
}

static napi_value rx_hash_async(napi_env env, napi_callback_info info)
{
	return hash_call(env, info, OP_HASH, 1, "hashAsync");
}

static napi_value rx_hash_many(napi_env env, napi_callback_info info)
{
	return hash_call(env, info, OP_MANY, 0, "hashMany");
}

static napi_value rx_hash_many_async(napi_env env, napi_callback_info info)
{
	return hash_call(env, info, OP_MANY, 1, "hashManyAsync");
}

static napi_value rx_commitment(napi_env env, napi_callback_info info)
{
	return hash_call(env, info, OP_COMMIT, 0, "commitment");
}

static napi_value rx_commitment_async(napi_env env,
    napi_callback_info info)
{
	return hash_call(env, info, OP_COMMIT, 1, "commitmentAsync");
}

/* ---- key changes ---- */

/* Make k the object's key (the object's reference moves to it). */
static void obj_install(rx_obj *o, rx_key *k)
{
	rx_key *old = o->cur;

	o->cur = k;
	key_unref_detached(old);
}

static int same_key(const rx_key *k, const uint8_t *key, size_t keylen)
{
	return k && k->keylen == keylen && !memcmp(k->key, key, keylen);
}

/* setKey's and setKeyAsync's object and key; NULL with an exception
 * if either is wrong or the object is closed. */
static rx_obj *key_call(napi_env env, napi_callback_info info,
    napi_value *argv, napi_value *self, const uint8_t **key, size_t *keylen)
{
	rx_obj *o;

	if (!(o = this_obj(env, info, 1, argv, self)) ||
	    get_key(env, argv[0], key, keylen))
		return NULL;
	if (o->closed) {
		napi_throw_error(env, "ERR_RANDOMX_NO_KEY",
		    "this RandomX object is closed");
		return NULL;
	}
	return o;
}

static napi_value rx_set_key(napi_env env, napi_callback_info info)
{
	napi_value argv[1], u;
	const uint8_t *key;
	size_t keylen;
	rx_obj *o;
	rx_key *k;
	int err;

	if (!(o = key_call(env, info, argv, NULL, &key, &keylen)))
		return NULL;
	/* a later key than any asynchronous change still under way */
	o->installed = ++o->asked;
	if (!same_key(o->cur, key, keylen)) {
		if (!(k = key_build(key, keylen, o->v2, o->full, o->threads,
		    &err))) {
			napi_throw(env, nb_errno_error(env, err, "setKey"));
			return NULL;
		}
		obj_install(o, k);
	}
	napi_get_undefined(env, &u);
	return u;
}

typedef struct {
	nb_job job;
	napi_ref self;			/* the object lives until done */
	rx_obj *obj;
	uint8_t *key;
	size_t keylen;
	int v2, full, threads;
	unsigned long long gen;
	rx_key *built;
} key_job;

static void key_job_run(nb_job *j)
{
	key_job *kj = (key_job *)j;

	kj->built = key_build(kj->key, kj->keylen, kj->v2, kj->full,
	    kj->threads, &j->err);
}

/* Resolves to true if the key was installed, false if a later change
 * or close() came first. */
static napi_value key_job_done(napi_env env, nb_job *j)
{
	key_job *kj = (key_job *)j;
	rx_obj *o = kj->obj;
	napi_value r;
	int installed = !o->closed && kj->gen > o->installed;

	if (installed) {
		obj_install(o, kj->built);
		o->installed = kj->gen;
		kj->built = NULL;
	}
	NB_CHECK(env, napi_get_boolean(env, installed, &r));
	return r;
}

static void key_job_drop(napi_env env, nb_job *j)
{
	key_job *kj = (key_job *)j;

	key_unref_detached(kj->built);
	if (env && kj->self)
		napi_delete_reference(env, kj->self);
	free(kj->key);
}

static napi_value rx_set_key_async(napi_env env, napi_callback_info info)
{
	napi_value argv[1], self, p, t;
	napi_deferred d;
	const uint8_t *key;
	size_t keylen;
	rx_obj *o;
	key_job *kj;

	if (!(o = key_call(env, info, argv, &self, &key, &keylen)))
		return NULL;
	if (same_key(o->cur, key, keylen)) {
		/* nothing to build; still later than changes under way */
		o->installed = ++o->asked;
		NB_CHECK(env, napi_create_promise(env, &d, &p));
		NB_CHECK(env, napi_get_boolean(env, true, &t));
		NB_CHECK(env, napi_resolve_deferred(env, d, t));
		return p;
	}
	if (!(kj = calloc(1, sizeof(*kj))) ||
	    !(kj->key = malloc(keylen ? keylen : 1))) {
		free(kj);
		napi_throw_error(env, "ENOMEM", "not enough memory");
		return NULL;
	}
	memcpy(kj->key, key, keylen);
	kj->keylen = keylen;
	kj->obj = o;
	kj->v2 = o->v2;
	kj->full = o->full;
	kj->threads = o->threads;
	kj->gen = ++o->asked;
	kj->job.what = "setKeyAsync";
	kj->job.run = key_job_run;
	kj->job.done = key_job_done;
	kj->job.drop = key_job_drop;
	if (napi_create_reference(env, self, 1, &kj->self) != napi_ok) {
		key_job_drop(env, &kj->job);
		free(kj);
		nb_throw_pending(env);
		return NULL;
	}
	/* not a hash: a work item of its own, not one of the runners */
	return nb_queue_alone(env, &kj->job);
}

static napi_value rx_close(napi_env env, napi_callback_info info)
{
	napi_value u;
	rx_obj *o;

	if (!(o = this_obj(env, info, 0, NULL, NULL)))
		return NULL;
	o->closed = 1;
	obj_install(o, NULL);
	napi_get_undefined(env, &u);
	return u;
}

static napi_value rx_get_key(napi_env env, napi_callback_info info)
{
	napi_value r;
	rx_obj *o;

	if (!(o = this_obj(env, info, 0, NULL, NULL)))
		return NULL;
	if (!o->cur) {
		NB_CHECK(env, napi_get_null(env, &r));
		return r;
	}
	return nb_buffer(env, o->cur->key, o->cur->keylen);
}

static napi_value rx_get_v2(napi_env env, napi_callback_info info)
{
	napi_value r;
	rx_obj *o;

	if (!(o = this_obj(env, info, 0, NULL, NULL)))
		return NULL;
	NB_CHECK(env, napi_get_boolean(env, o->v2, &r));
	return r;
}

static napi_value rx_get_mode(napi_env env, napi_callback_info info)
{
	napi_value r;
	rx_obj *o;

	if (!(o = this_obj(env, info, 0, NULL, NULL)))
		return NULL;
	NB_CHECK(env, napi_create_string_utf8(env, o->full ? "full" : "light",
	    NAPI_AUTO_LENGTH, &r));
	return r;
}

/* randomxCommitment(data, hash): BLAKE2b-256(data || hash), no VM. */
static napi_value js_commitment(napi_env env, napi_callback_info info)
{
	napi_value argv[2];
	const uint8_t *p, *h;
	size_t len, hl;
	uint8_t out[HASH_SIZE];

	if (nb_args(env, info, 2, argv, NULL, NULL) ||
	    nb_bytes(env, argv[0], "data", &p, &len) ||
	    nb_bytes(env, argv[1], "hash", &h, &hl))
		return NULL;
	if (hl != HASH_SIZE) {
		nb_range_error(env, "hash must be %d bytes", HASH_SIZE);
		return NULL;
	}
	randomx_calculate_commitment(p, len, h, out);
	return nb_buffer(env, out, HASH_SIZE);
}

#define METHOD(name, fn) \
	{ name, NULL, fn, NULL, NULL, NULL, napi_default_method, NULL }
#define GETTER(name, fn) \
	{ name, NULL, NULL, fn, NULL, NULL, napi_enumerable, NULL }

int nb_init_randomx(napi_env env, napi_value exports)
{
	static const napi_property_descriptor props[] = {
		METHOD("hash", rx_hash),
		METHOD("hashAsync", rx_hash_async),
		METHOD("hashMany", rx_hash_many),
		METHOD("hashManyAsync", rx_hash_many_async),
		METHOD("commitment", rx_commitment),
		METHOD("commitmentAsync", rx_commitment_async),
		METHOD("setKey", rx_set_key),
		METHOD("setKeyAsync", rx_set_key_async),
		METHOD("close", rx_close),
		GETTER("key", rx_get_key),
		GETTER("v2", rx_get_v2),
		GETTER("mode", rx_get_mode),
	};
	napi_value cls, fn;

	if (napi_define_class(env, "RandomX", NAPI_AUTO_LENGTH, rx_new, NULL,
	    sizeof(props) / sizeof(props[0]), props, &cls) != napi_ok ||
	    napi_set_named_property(env, exports, "RandomX", cls) != napi_ok ||
	    napi_create_function(env, "randomxCommitment", NAPI_AUTO_LENGTH,
	    js_commitment, NULL, &fn) != napi_ok ||
	    napi_set_named_property(env, exports, "randomxCommitment", fn) !=
	    napi_ok)
		return -1;
	return 0;
}
