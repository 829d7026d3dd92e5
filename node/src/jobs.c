/*
 * jobs.c: promise jobs, and the runners that hash them (see util.h).
 *
 * A hash is a job in a queue of the addon's own, one queue per Node
 * environment (the instance data, so each worker thread has its own).
 * At most R runners drain it: a runner is one libuv work item whose
 * execute takes a job, runs it, hands it to the JavaScript thread through
 * a thread-safe function and takes the next, and when the queue is empty
 * waits IDLE_WAIT for one before giving its pool thread back.  So:
 *
 * - no more than R hashes compete for the CPUs, however many promises
 *   are in flight, and with R below the pool's size the other pool
 *   threads stay free for fs, dns and crypto;
 * - a chain of awaited hashes (hash, await, hash) keeps the same runner,
 *   on the same thread with its yespower memory warm, instead of waiting
 *   for a pool thread each time and wandering over all of them;
 * - how fast two chains go no longer depends on UV_THREADPOOL_SIZE,
 *   once the pool has R threads (the default 4 has, up to 4 CPUs).
 *
 * R is the number of CPUs online, but no more than the pool's threads.
 * When R runners could hold every pool thread, each gives its thread back
 * after SLICE of work (a new runner takes over, queued behind whatever
 * else waits for the pool), so fs and dns are delayed, never starved.
 *
 * A RandomX key build is not a hash: it goes on a work item of its own
 * (nb_queue_alone), as every job did before the runners.
 *
 * Threads: the queue and the runner counts are under lock; pending and
 * the thread-safe function's ref are the JavaScript thread's.  Teardown
 * (a worker terminated with hashes queued): Node lets the runners' work
 * items finish before it runs cleanup hooks.  A completion that finds
 * that JavaScript can no longer run stops the runners (they take no more
 * jobs); the cleanup hook waits for any runner still in a job, drops the
 * jobs left in the queue and aborts the thread-safe function, which
 * frees the jobs still in it.  Their promises are never settled: nothing
 * can see them any more.
 */
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

/*
 * How long a runner with nothing to do waits for a job.  A chain's next
 * hash comes a loop turn after the last one settles: tens of
 * microseconds on an idle loop, more on a busy one.  2 ms covers a busy
 * turn and is about one hash (yespowerr16 takes 3 ms or more, RandomX
 * about 1 ms in full mode and several in light mode), so a runner left
 * idle holds a pool thread (asleep: no CPU) about as long as one more
 * hash would have, and a pool server whose shares come seconds apart
 * gets its pool threads back at once.
 */
#define IDLE_WAIT_NS 2000000L

/* Work a runner does before giving its thread back, when runners could
 * hold every pool thread. */
#define SLICE_NS 50000000L

typedef struct {
	pthread_mutex_t lock;
	pthread_cond_t more;		/* a job queued, or stopping */
	pthread_cond_t gone;		/* no runner left */
	nb_job *head, *tail;		/* queued, not started */
	size_t queued;
	int runners;			/* started and not returned */
	int waiting;			/* runners waiting for a job */
	int limit;			/* R */
	int yield;			/* runners give their thread back */
	int stopping;			/* the environment is going */
	/* the JavaScript thread's */
	napi_threadsafe_function done;
	size_t pending;			/* queued, not yet settled */
	int cleaned;
} jobs_t;

typedef struct {
	napi_async_work work;
	jobs_t *jobs;
	int ran;
} runner_t;

static void job_free(napi_env env, nb_job *job)
{
	if (env && job->work)
		napi_delete_async_work(env, job->work);
	if (job->drop)
		job->drop(env, job);
	free(job);
}

/*
 * A settling call that failed with no exception pending: JavaScript can
 * no longer run here (the environment is being torn down).  -1 then.
 */
static int settled(napi_env env, napi_status status)
{
	bool pending = true;

	if (status == napi_ok)
		return 0;
	napi_is_exception_pending(env, &pending);
	return pending ? 0 : -1;
}

/*
 * Settle job's promise: resolve it with what done() makes, or reject it
 * with what done() threw or with the job's errno.  0, or -1 if
 * JavaScript can no longer run (see settled).
 */
static int job_settle(napi_env env, nb_job *job)
{
	napi_value v, exc;
	bool pending = false;

	if (!job->err) {
		if ((v = job->done(env, job)))
			return settled(env, napi_resolve_deferred(env,
			    job->deferred, v));
		napi_is_exception_pending(env, &pending);
		if (pending && napi_get_and_clear_last_exception(env, &exc) ==
		    napi_ok)
			return settled(env, napi_reject_deferred(env,
			    job->deferred, exc));
		job->err = EIO;
	}
	if (!(exc = nb_errno_error(env, job->err, job->what)))
		napi_get_undefined(env, &exc);
	return settled(env, napi_reject_deferred(env, job->deferred, exc));
}

/* ---- a job on a work item of its own ---- */

static void alone_execute(napi_env env, void *data)
{
	nb_job *job = data;

	(void)env;
	job->run(job);
}

static void alone_complete(napi_env env, napi_status status, void *data)
{
	nb_job *job = data;

	if (status != napi_ok)
		job->err = ECANCELED;
	job_settle(env, job);
	job_free(env, job);
}

napi_value nb_queue_alone(napi_env env, nb_job *job)
{
	napi_value promise, name;

	job->work = NULL;
	job->err = 0;
	if (napi_create_promise(env, &job->deferred, &promise) != napi_ok)
		goto fail;
	if (napi_create_string_utf8(env, job->what, NAPI_AUTO_LENGTH,
	    &name) != napi_ok || napi_create_async_work(env, NULL, name,
	    alone_execute, alone_complete, job, &job->work) != napi_ok ||
	    napi_queue_async_work(env, job->work) != napi_ok) {
		/* the promise stays pending and unreferenced: collected */
		goto fail;
	}
	return promise;
fail:
	job_free(env, job);
	nb_throw_pending(env);
	return NULL;
}

/* ---- the runners ---- */

static long ns_since(const struct timespec *t0, const struct timespec *t1)
{
	return (t1->tv_sec - t0->tv_sec) * 1000000000L +
	    (t1->tv_nsec - t0->tv_nsec);
}

/*
 * The next job for a runner that started at `start`, waiting up to
 * IDLE_WAIT for one; NULL: the runner returns (nothing came, the
 * environment is going, or its slice is over).  Lock held.
 */
static nb_job *jobs_take(jobs_t *q, const struct timespec *start)
{
	struct timespec now, until;
	nb_job *job;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (q->yield && ns_since(start, &now) >= SLICE_NS)
		return NULL;
	until = now;
	until.tv_nsec += IDLE_WAIT_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!q->head && !q->stopping && rc != ETIMEDOUT) {
		q->waiting++;
		rc = pthread_cond_timedwait(&q->more, &q->lock, &until);
		q->waiting--;
	}
	if (q->stopping || !(job = q->head))
		return NULL;
	if (!(q->head = job->next))
		q->tail = NULL;
	q->queued--;
	return job;
}

/* A runner returns (or never ran).  Lock held. */
static void runner_gone(jobs_t *q)
{
	if (--q->runners == 0)
		pthread_cond_broadcast(&q->gone);
}

/* On a pool thread: jobs until there are none. */
static void runner_execute(napi_env env, void *data)
{
	runner_t *r = data;
	jobs_t *q = r->jobs;
	struct timespec start;
	nb_job *job;

	(void)env;
	r->ran = 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&q->lock);
	while ((job = jobs_take(q, &start))) {
		pthread_mutex_unlock(&q->lock);
		job->run(job);
		/* fails only once the environment is going: nobody waits */
		if (napi_call_threadsafe_function(q->done, job,
		    napi_tsfn_nonblocking) != napi_ok)
			job_free(NULL, job);
		pthread_mutex_lock(&q->lock);
	}
	runner_gone(q);
	pthread_mutex_unlock(&q->lock);
}

static void runner_complete(napi_env env, napi_status status, void *data);

/* A runner on libuv's pool (q->runners already counts it); 0 or -1. */
static int runner_start(napi_env env, jobs_t *q)
{
	runner_t *r = calloc(1, sizeof(*r));
	napi_value name;

	if (!r)
		return -1;
	r->jobs = q;
	if (napi_create_string_utf8(env, "yespower runner", NAPI_AUTO_LENGTH,
	    &name) != napi_ok || napi_create_async_work(env, NULL, name,
	    runner_execute, runner_complete, r, &r->work) != napi_ok) {
		free(r);
		return -1;
	}
	if (napi_queue_async_work(env, r->work) != napi_ok) {
		napi_delete_async_work(env, r->work);
		free(r);
		return -1;
	}
	return 0;
}

/*
 * Count a runner to be started if the queued jobs outnumber the runners
 * waiting for one and R allows it; 1 if the caller is to start it.
 * Lock held.
 */
static int runner_wanted(jobs_t *q)
{
	if (q->stopping || q->queued <= (size_t)q->waiting ||
	    q->runners >= q->limit)
		return 0;
	q->runners++;
	return 1;
}

/*
 * No runner could be started and none is left: reject what is queued
 * (ENOMEM: a work item could not be had) rather than wait for ever.
 */
static void jobs_fail_queued(napi_env env, jobs_t *q)
{
	nb_job *job, *next;

	pthread_mutex_lock(&q->lock);
	job = q->runners ? NULL : q->head;
	if (job) {
		q->head = q->tail = NULL;
		q->queued = 0;
	}
	pthread_mutex_unlock(&q->lock);
	for (; job; job = next) {
		next = job->next;
		job->err = ENOMEM;
		job_settle(env, job);
		job_free(env, job);
		if (--q->pending == 0)
			napi_unref_threadsafe_function(env, q->done);
	}
}

/* Back on the JavaScript thread: a runner that yielded is replaced. */
static void runner_complete(napi_env env, napi_status status, void *data)
{
	runner_t *r = data;
	jobs_t *q = r->jobs;
	int start;

	(void)status;
	napi_delete_async_work(env, r->work);
	pthread_mutex_lock(&q->lock);
	if (!r->ran)		/* cancelled before it started */
		runner_gone(q);
	start = runner_wanted(q);
	pthread_mutex_unlock(&q->lock);
	free(r);
	if (start && runner_start(env, q)) {
		pthread_mutex_lock(&q->lock);
		runner_gone(q);
		pthread_mutex_unlock(&q->lock);
		jobs_fail_queued(env, q);
	}
}

/* Take no more jobs: the environment is going. */
static void jobs_stop(jobs_t *q)
{
	pthread_mutex_lock(&q->lock);
	q->stopping = 1;
	pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
}

/* The thread-safe function's call: a job is done.  env NULL: the
 * function is being torn down with the job still in it. */
static void job_done(napi_env env, napi_value fn, void *context,
    void *data)
{
	jobs_t *q = context;
	nb_job *job = data;

	(void)fn;
	if (!env) {
		job_free(NULL, job);
		return;
	}
	if (job_settle(env, job))
		jobs_stop(q);
	job_free(env, job);
	/* idle, the function must not keep the process alive */
	if (--q->pending == 0)
		napi_unref_threadsafe_function(env, q->done);
}

/* Unlink job if it is still queued; 1 if it was.  Lock held. */
static int jobs_unlink(jobs_t *q, nb_job *job)
{
	nb_job **p, *prev = NULL;

	for (p = &q->head; *p; prev = *p, p = &(*p)->next) {
		if (*p != job)
			continue;
		*p = job->next;
		if (q->tail == job)
			q->tail = prev;
		q->queued--;
		return 1;
	}
	return 0;
}

napi_value nb_queue(napi_env env, nb_job *job)
{
	napi_value promise;
	void *data = NULL;
	jobs_t *q;
	int start, lost = 0;

	job->work = NULL;
	job->next = NULL;
	job->err = 0;
	if (napi_get_instance_data(env, &data) != napi_ok || !(q = data) ||
	    napi_create_promise(env, &job->deferred, &promise) != napi_ok)
		goto fail;
	pthread_mutex_lock(&q->lock);
	if (q->stopping) {
		/* only while the environment goes, when no JavaScript runs:
		 * an error rather than a promise never settled */
		pthread_mutex_unlock(&q->lock);
		napi_throw_error(env, "ERR_HASH_FAILED", "the environment is "
		    "shutting down");
		goto fail;
	}
	if (q->tail)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
	q->queued++;
	start = runner_wanted(q);
	if (q->waiting)
		pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
	if (start && runner_start(env, q)) {
		pthread_mutex_lock(&q->lock);
		runner_gone(q);
		/* with no runner left nothing would take it: take it back */
		lost = !q->runners && jobs_unlink(q, job);
		pthread_mutex_unlock(&q->lock);
		if (lost) {
			napi_throw_error(env, "ENOMEM", "not enough memory");
			goto fail;
		}
	}
	if (q->pending++ == 0)
		napi_ref_threadsafe_function(env, q->done);
	return promise;
fail:
	/* the promise stays pending and unreferenced: collected */
	job_free(env, job);
	nb_throw_pending(env);
	return NULL;
}

/* ---- per environment ---- */

/*
 * R: the CPUs online, no more than the threads of libuv's pool
 * (UV_THREADPOOL_SIZE, 4 if unset, 1024 at most, as libuv reads it).
 * *yield is set when R runners would hold every pool thread.
 */
static int runner_limit(int *yield)
{
	const char *s = getenv("UV_THREADPOOL_SIZE");
	long pool = s ? strtol(s, NULL, 10) : 4;
	int cpus = nb_cpus();

	if (pool < 1)
		pool = 1;
	if (pool > 1024)
		pool = 1024;
	*yield = cpus >= pool;
	return cpus < pool ? cpus : (int)pool;
}

/* The environment is going: no runner takes a job any more; wait for
 * those in one, drop what is queued, close the thread-safe function. */
static void jobs_cleanup(void *arg)
{
	jobs_t *q = arg;
	nb_job *job, *next;

	q->cleaned = 1;
	pthread_mutex_lock(&q->lock);
	q->stopping = 1;
	pthread_cond_broadcast(&q->more);
	while (q->runners)
		pthread_cond_wait(&q->gone, &q->lock);
	job = q->head;
	q->head = q->tail = NULL;
	q->queued = 0;
	pthread_mutex_unlock(&q->lock);
	for (; job; job = next) {
		next = job->next;
		job_free(NULL, job);
	}
	napi_release_threadsafe_function(q->done, napi_tsfn_abort);
}

static void jobs_free(napi_env env, void *data, void *hint)
{
	jobs_t *q = data;

	(void)hint;
	if (!q->cleaned) {
		napi_remove_env_cleanup_hook(env, jobs_cleanup, q);
		jobs_cleanup(q);
	}
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->gone);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

int nb_jobs_init(napi_env env)
{
	pthread_condattr_t ca;
	napi_value name;
	void *old = NULL;
	jobs_t *q;

	if (napi_get_instance_data(env, &old) == napi_ok && old)
		return 0;
	if (!(q = calloc(1, sizeof(*q)))) {
		napi_throw_error(env, "ENOMEM", "not enough memory");
		return -1;
	}
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->gone, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->more, &ca);
	pthread_condattr_destroy(&ca);
	q->limit = runner_limit(&q->yield);
	if (napi_create_string_utf8(env, "yespower", NAPI_AUTO_LENGTH,
	    &name) != napi_ok || napi_create_threadsafe_function(env, NULL,
	    NULL, name, 0, 1, NULL, NULL, q, job_done, &q->done) != napi_ok)
		goto fail;
	napi_unref_threadsafe_function(env, q->done);
	if (napi_set_instance_data(env, q, jobs_free, NULL) != napi_ok) {
		napi_release_threadsafe_function(q->done, napi_tsfn_abort);
		goto fail;
	}
	/* after the function is made, so that this runs before its own
	 * cleanup (hooks run last added first) */
	if (napi_add_env_cleanup_hook(env, jobs_cleanup, q) != napi_ok)
		return -1;	/* the finalizer cleans up */
	return 0;
fail:
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->gone);
	pthread_mutex_destroy(&q->lock);
	free(q);
	return -1;
}
