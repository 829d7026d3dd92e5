/*
 * tests-rx-fork.c: RandomX in a child of fork(), as prefork servers,
 * daemons, block-notify scripts and Python's multiprocessing make one.
 *
 * With normal pages: the child hashes with the parent's VM and cache and
 * gets the parent's hash; and the parent and a child hash with the same
 * VM at the same time, each getting the right hashes (a JIT VM's code
 * memory is shared pages until the child's first compile moves it to
 * its own: see randomx/jit-mem.c).  With huge pages (RANDOMX_FLAG_LARGE_PAGES, when
 * the administrator reserved enough), the parent takes the rest of the
 * pool before every fork, so that anything the child does that needs a
 * huge page kills it with SIGBUS; at every stage of the objects' lives:
 * - a cache allocated, never initialized (its pages reserved, untouched):
 *   the child lives, and initializes the cache and hashes with it;
 * - a VM created, never used (its scratchpad untouched): the child hashes;
 * - a VM used: the child hashes, the parent's hash;
 * - a dataset (with --dataset) being built by two threads as the parent
 *   forks: the child lives, and a fork followed by exec of /bin/true
 *   copies nothing (the child's peak resident memory stays far below the
 *   dataset's size); then fully built (with --full: minutes): the same,
 *   and the child hashes in full mode with the parent's hash.
 *
 * Usage: tests-rx-fork [--need-huge] [--dataset] [--full]
 *   --need-huge: fail, rather than skip the huge page part, if not enough
 *   huge pages are reserved (as root: sysctl vm.nr_hugepages=135 without
 *   the dataset, 1180 with it)
 * Prints "tests-rx-fork: N passed, N failed[, N skipped (why)]".
 */
#define _GNU_SOURCE 1	/* MAP_HUGETLB */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "randomx/randomx.h"
#include "test/huge-pool.h"

#define RX_TEST_NAME "tests-rx-fork"
#include "test/randomx/rx-tests.h"

static void *grabbed[MAX_GRAB];
static size_t ngrabbed;

/* A meminfo field, or -1. */
static long meminfo(const char *field)
{
	char line[128], fmt[64];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	snprintf(fmt, sizeof(fmt), "%s: %%ld", field);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Pages free and not promised to a mapping: what a fault could get. */
static long huge_available(void)
{
	return meminfo("HugePages_Free") - meminfo("HugePages_Rsvd");
}

/* Take the rest of the pool (given back by release_pool). */
static int exhaust_pool(void)
{
	ngrabbed += huge_grab(grabbed + ngrabbed);
	return huge_available() == 0;
}

static void release_pool(void)
{
	huge_release(grabbed, ngrabbed);
	ngrabbed = 0;
}

/*
 * Fork: the child runs fn(arg) and exits with its result.  Whether it
 * exited 0; how it ended is printed otherwise.  *maxrss_kib (if not NULL):
 * the child's peak resident memory.
 */
static int in_child(const char *what, int (*fn)(void *), void *arg,
    long *maxrss_kib)
{
	struct rusage ru;
	int status = -1;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(fn(arg));
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return 0;
	if (maxrss_kib)
		*maxrss_kib = ru.ru_maxrss;
	if (WIFSIGNALED(status))
		printf("tests-rx-fork: %s: the child died of signal %d\n",
		    what, WTERMSIG(status));
	else if (WEXITSTATUS(status))
		printf("tests-rx-fork: %s: the child exited with %d\n", what,
		    WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

struct hash_job {
	randomx_vm *vm;
	randomx_cache *cache;		/* to initialize first, if not NULL */
	randomx_flags flags;		/* and a VM of these on it */
	const uint8_t *want;
};

/* In the child: (initialize the cache and make a VM,) hash, compare. */
static int child_hash(void *arg)
{
	struct hash_job *j = arg;
	randomx_vm *vm = j->vm;
	uint8_t h[32];

	if (j->cache) {
		randomx_init_cache(j->cache, "fork key", 8);
		if (!(vm = randomx_create_vm(j->flags, j->cache, NULL)))
			return 3;
	}
	randomx_calculate_hash(vm, "fork", 4, h);
	return memcmp(h, j->want, 32) ? 1 : 0;
}

static int child_nothing(void *arg)
{
	(void)arg;
	return 0;
}

static int child_exec(void *arg)
{
	(void)arg;
	execl("/bin/true", "true", (char *)NULL);
	return 127;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The hash of "fork" under "fork key" with flags, in normal pages. */
static int hash_of(randomx_flags f, uint8_t want[32])
{
	randomx_cache *c = randomx_alloc_cache(f);
	randomx_vm *vm = NULL;

	if (c) {
		randomx_init_cache(c, "fork key", 8);
		vm = randomx_create_vm(f, c, NULL);
	}
	if (vm)
		randomx_calculate_hash(vm, "fork", 4, want);
	randomx_destroy_vm(vm);
	randomx_release_cache(c);
	return vm ? 0 : -1;
}

/* ---- the same VM in the parent and a child at once ---- */

#define TOGETHER_INPUTS 4
#define TOGETHER_ROUNDS 4

struct together {
	randomx_vm *vm;
	uint8_t want[TOGETHER_INPUTS][32];
};

/* Each input's hash, TOGETHER_ROUNDS times over: how many were wrong. */
static int hash_rounds(void *arg)
{
	struct together *t = arg;
	uint8_t h[32], in[2] = { 'f', 0 };
	int r, i, wrong = 0;

	for (r = 0; r < TOGETHER_ROUNDS; r++)
		for (i = 0; i < TOGETHER_INPUTS; i++) {
			in[1] = (uint8_t)i;
			randomx_calculate_hash(t->vm, in, 2, h);
			wrong += memcmp(h, t->want[i], 32) != 0;
		}
	return wrong;
}

/*
 * The parent and a child hash with one VM of flags f (made and used
 * before the fork) at the same time; each must get every hash right.  The
 * answers come from a SECURE VM, whose code memory is private.
 */
static void check_together(randomx_flags f)
{
	struct together t;
	randomx_cache *c = randomx_alloc_cache(f);
	randomx_vm *ref = NULL;
	uint8_t in[2] = { 'f', 0 };
	int i, wrong, status = -1;
	pid_t pid;

	t.vm = NULL;
	if (c) {
		randomx_init_cache(c, "fork key", 8);
		ref = randomx_create_vm(f | RANDOMX_FLAG_SECURE, c, NULL);
		t.vm = randomx_create_vm(f, c, NULL);
	}
	if (!ref || !t.vm) {
		check("a cache and two VMs for the parent and a child", 0);
		goto out;
	}
	for (i = 0; i < TOGETHER_INPUTS; i++) {
		in[1] = (uint8_t)i;
		randomx_calculate_hash(ref, in, 2, t.want[i]);
	}
	check("the VM's hashes before the fork",
	    hash_rounds(&t) == 0);
	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(hash_rounds(&t) ? 1 : 0);
	wrong = hash_rounds(&t);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		check("fork for the parent and a child at once", 0);
		goto out;
	}
	if (WIFSIGNALED(status))
		printf("tests-rx-fork: hashing at once: the child died of "
		    "signal %d\n", WTERMSIG(status));
	check("the parent and a child hash with one VM at once: the "
	    "parent's hashes right", wrong == 0);
	check("the parent and a child hash with one VM at once: the "
	    "child's hashes right", WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0);
	check("the parent's hashes after the child's",
	    hash_rounds(&t) == 0);
out:
	randomx_destroy_vm(t.vm);
	randomx_destroy_vm(ref);
	randomx_release_cache(c);
}

/* ---- the dataset ---- */

struct builder {
	randomx_dataset *ds;
	randomx_cache *cache;
	unsigned long start, count;
};

static void *build(void *arg)
{
	struct builder *b = arg;
	unsigned long done, step = 1UL << 16;

	for (done = 0; done < b->count; done += step)
		randomx_init_dataset(b->ds, b->cache, b->start + done,
		    b->count - done < step ? b->count - done : step);
	return NULL;
}

/* fork+exec of /bin/true: lives, and copies nothing.  Time printed. */
static void check_exec(const char *stage)
{
	char msg[200];
	long rss = -1;
	double t = now();
	int ok = in_child(stage, child_exec, NULL, &rss);

	t = now() - t;
	snprintf(msg, sizeof(msg), "%s: fork+exec lives", stage);
	check(msg, ok);
	/* The dataset is 2080 MiB: a copy of any of it shows. */
	snprintf(msg, sizeof(msg), "%s: fork+exec copies nothing (the "
	    "child's peak: %ld KiB)", stage, rss);
	check(msg, rss >= 0 && rss < 64 * 1024);
	printf("tests-rx-fork: %s: fork+exec took %.3f s (not asserted; "
	    "a shared machine's figure)\n", stage, t);
	snprintf(msg, sizeof(msg), "%s: a child that does nothing lives",
	    stage);
	check(msg, in_child(stage, child_nothing, NULL, NULL));
}

static void dataset_stages(randomx_flags f, randomx_cache *cache, int full)
{
	unsigned long items = randomx_dataset_item_count(), half = items / 2;
	randomx_flags ff = f | RANDOMX_FLAG_LARGE_PAGES | RANDOMX_FLAG_FULL_MEM;
	randomx_dataset *ds = randomx_alloc_dataset(f |
	    RANDOMX_FLAG_LARGE_PAGES);
	struct builder b[2];
	pthread_t t[2];
	uint8_t want[32], h[32];
	randomx_vm *vm;
	int i, started = 0;

	check("a dataset in huge pages", ds != NULL);
	if (!ds)
		return;
	/* Two threads build while the parent forks: some pages touched,
	 * most reserved only. */
	for (i = 0; i < 2; i++) {
		b[i].ds = ds;
		b[i].cache = cache;
		b[i].start = (unsigned long)i * half;
		b[i].count = full ? (i ? items - half : half) : items / 64;
		started += !pthread_create(&t[i], NULL, build, &b[i]);
	}
	check("the pool is exhausted (dataset being built)", exhaust_pool());
	check_exec("a dataset being built");
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	release_pool();
	if (!full) {
		skip("a fully built dataset: --full (minutes)");
		randomx_release_dataset(ds);
		return;
	}
	vm = randomx_create_vm(ff, NULL, ds);
	check("a full VM on the built dataset", vm != NULL);
	if (vm) {
		struct hash_job j = { vm, NULL, ff, want };

		randomx_calculate_hash(vm, "fork", 4, want);
		hash_of(f, h);
		check("full mode: the light mode's hash", !memcmp(h, want, 32));
		check("the pool is exhausted (dataset built)", exhaust_pool());
		check_exec("a dataset built");
		check("a child hashes in full mode: the parent's hash",
		    in_child("full mode", child_hash, &j, NULL));
		release_pool();
	}
	randomx_destroy_vm(vm);
	randomx_release_dataset(ds);
}

int main(int argc, char **argv)
{
	int need_huge = 0, dataset = 0, full = 0, i;
	randomx_flags f = randomx_get_flags(),
	    fl = f | RANDOMX_FLAG_LARGE_PAGES;
	randomx_cache *cache;
	randomx_vm *vm;
	uint8_t want[32];
	struct hash_job j;

	for (i = 1; i < argc; i++) {
		need_huge |= !strcmp(argv[i], "--need-huge");
		dataset |= !strcmp(argv[i], "--dataset") ||
		    !strcmp(argv[i], "--full");
		full |= !strcmp(argv[i], "--full");
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	check("the hash in normal pages", !hash_of(f, want));

	/* Normal pages: the child hashes with the parent's VM. */
	cache = randomx_alloc_cache(f);
	if (cache)
		randomx_init_cache(cache, "fork key", 8);
	vm = cache ? randomx_create_vm(f, cache, NULL) : NULL;
	j.vm = vm;
	j.cache = NULL;
	j.want = want;
	check("a child hashes with the parent's VM (normal pages)",
	    vm && in_child("normal pages", child_hash, &j, NULL));
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);
	check_together(f);

	cache = randomx_alloc_cache(fl);
	if (!cache) {
		if (need_huge)
			check("a cache in huge pages (--need-huge)", 0);
		skip("not enough huge pages: as root, sysctl "
		    "vm.nr_hugepages=135 (1180 with --dataset)");
		return summary();
	}
	/* Allocated, untouched: the child initializes it and hashes. */
	j.vm = NULL;
	j.cache = cache;
	j.flags = f;
	check("the pool is exhausted (a cache never initialized)",
	    exhaust_pool());
	check("a child initializes the parent's untouched cache and hashes",
	    in_child("cache untouched", child_hash, &j, NULL));
	check("a child that does nothing lives (a cache never initialized)",
	    in_child("cache untouched", child_nothing, NULL, NULL));
	release_pool();

	randomx_init_cache(cache, "fork key", 8);
	vm = randomx_create_vm(fl, cache, NULL);
	check("a VM in huge pages", vm != NULL);
	if (!vm) {
		randomx_release_cache(cache);
		return summary();
	}
	j.vm = vm;
	j.cache = NULL;
	check("the pool is exhausted (a VM never used)", exhaust_pool());
	check("a child hashes with a VM the parent never used",
	    in_child("VM unused", child_hash, &j, NULL));
	release_pool();

	{
		uint8_t h[32];

		randomx_calculate_hash(vm, "fork", 4, h);
		check("the parent's hash in huge pages: the same",
		    !memcmp(h, want, 32));
	}
	check("the pool is exhausted (a VM used)", exhaust_pool());
	check("a child hashes with the parent's VM: the parent's hash",
	    in_child("VM used", child_hash, &j, NULL));
	/* The parent's cache and VM work after the children, too. */
	release_pool();
	{
		uint8_t h[32];

		randomx_calculate_hash(vm, "fork", 4, h);
		check("the parent still hashes", !memcmp(h, want, 32));
	}
	randomx_destroy_vm(vm);

	if (dataset)
		dataset_stages(f, cache, full);
	else
		skip("the dataset's stages: --dataset (1180 huge pages)");
	randomx_release_cache(cache);
	return summary();
}
