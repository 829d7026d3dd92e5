/*
 * tests-rx-fork.c: RandomX in a child of fork().  The parent builds a
 * cache and a VM (in huge pages when the administrator reserved enough:
 * RANDOMX_FLAG_LARGE_PAGES), hashes, takes the rest of the huge page pool,
 * forks, and the child hashes with the same VM and cache: its hash must
 * be the parent's (the cache's contents must survive the replacement of
 * the huge pages, and the scratchpad must be writable without the pool),
 * and the child must exit normally.
 *
 * Usage: tests-rx-fork [--need-huge]   (fail, rather than skip the huge
 * page part, if not enough huge pages are reserved)
 * Prints "tests-rx-fork: N passed, N failed[, 1 skipped (why)]".
 */
#define _GNU_SOURCE 1	/* MAP_HUGETLB */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "randomx/randomx.h"
#include "test/huge-pool.h"

#define TEST_NAME "tests-rx-fork"
#include "test/report.h"

static void report(const char *name, int ok)
{
	printf("tests-rx-fork: %s: %s\n", name, ok ? "ok" : "FAILED");
	check(name, ok);
}

/* Fork; the child hashes with vm.  1 if it agreed with want and exited. */
static int child_agrees(randomx_vm *vm, const uint8_t want[32])
{
	int status = -1;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		uint8_t h[32];

		randomx_calculate_hash(vm, "fork", 4, h);
		_exit(memcmp(h, want, 32) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	if (WIFSIGNALED(status))
		printf("tests-rx-fork: the child died of signal %d\n",
		    WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A cache, a VM and the hash of "fork", with these flags; 0 or -1. */
static int setup(randomx_flags f, randomx_cache **c, randomx_vm **vm,
    uint8_t want[32])
{
	*vm = NULL;
	if (!(*c = randomx_alloc_cache(f)))
		return -1;
	randomx_init_cache(*c, "fork key", 8);
	if (!(*vm = randomx_create_vm(f, *c, NULL)))
		return -1;
	randomx_calculate_hash(*vm, "fork", 4, want);
	return 0;
}

int main(int argc, char **argv)
{
	static void *grabbed[MAX_GRAB];
	int need_huge = argc > 1 && !strcmp(argv[1], "--need-huge");
	randomx_flags f = randomx_get_flags();
	randomx_cache *cache;
	randomx_vm *vm;
	uint8_t want[32];
	size_t n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	report("hashes in a child (normal pages)", !setup(f, &cache, &vm,
	    want) && child_agrees(vm, want));
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);

	if (setup(f | RANDOMX_FLAG_LARGE_PAGES, &cache, &vm, want)) {
		randomx_destroy_vm(vm);
		randomx_release_cache(cache);
		if (need_huge)
			report("a cache and a VM in huge pages", 0);
		skip("not enough huge pages: as root, sysctl "
		    "vm.nr_hugepages=160");
		return summary();
	}
	n = huge_grab(grabbed);
	report("the huge page pool is exhausted", huge_free() == 0);
	report("hashes in a child, huge pages, the pool exhausted",
	    child_agrees(vm, want));
	huge_release(grabbed, n);
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);
	return summary();
}
