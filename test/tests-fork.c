/*
 * tests-fork.c: hashing in a child of fork(), as pre-forking pool servers
 * and Python's multiprocessing do.
 *
 * The parent hashes (its thread's memory and a local of its own are then
 * mapped), forks, and the child hashes again through both: the answers
 * must be the parent's, and the child must exit normally.  Where the
 * administrator reserved huge pages (vm.nr_hugepages), the parent's
 * memory comes from that pool; the test then takes the rest of the pool
 * before forking, so that a child writing to memory it shares
 * copy-on-write with the parent would need a huge page that is not there
 * (SIGBUS, before yespower-platform.c's fork handler).
 *
 * Usage: tests-fork [--need-huge]   (--need-huge: fail, rather than skip
 * that part, if no huge pages are reserved, or the library used none)
 * Prints "tests-fork: N passed, N failed[, 1 skipped (why)]".
 */
#define _GNU_SOURCE 1	/* MAP_HUGETLB */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "yespower.h"
#include "test/huge-pool.h"

#define TEST_NAME "tests-fork"
#include "test/report.h"

static void report(const char *name, int ok)
{
	printf("fork: %s: %s\n", name, ok ? "ok" : "FAILED");
	check(name, ok);
}

static const yespower_params_t params = { YESPOWER_1_0, 2048, 32, NULL, 0 };
static const uint8_t input[80] = "fork";

/* Hash through the thread's memory, the local and a batch; all == want. */
static int hashes_agree(yespower_local_t *local, const yespower_binary_t *want)
{
	const uint8_t *src[2] = { input, input };
	size_t len[2] = { sizeof(input), sizeof(input) };
	yespower_binary_t a, b, c[2];

	return yespower_tls(input, sizeof(input), &params, &a) == 0 &&
	    yespower(local, input, sizeof(input), &params, &b) == 0 &&
	    yespower_batch_tls(src, len, 2, &params, c) == 0 &&
	    !memcmp(&a, want, sizeof(a)) && !memcmp(&b, want, sizeof(b)) &&
	    !memcmp(&c[1], want, sizeof(c[1]));
}

/* Fork; the child hashes.  1 if it exited 0, else 0 (signal reported). */
static int child_hashes(yespower_local_t *local, const yespower_binary_t *want)
{
	int status = -1;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(hashes_agree(local, want) ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	if (WIFSIGNALED(status))
		printf("fork: the child died of signal %d\n", WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		printf("fork: the child's hashes were wrong, or failed\n");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	static void *grabbed[MAX_GRAB];
	int need_huge = argc > 1 && !strcmp(argv[1], "--need-huge");
	long before = huge_free(), after;
	size_t n = 0;
	yespower_local_t local;
	yespower_binary_t want;
	int ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ok = yespower_init_local(&local) == 0 &&
	    yespower(&local, input, sizeof(input), &params, &want) == 0 &&
	    hashes_agree(&local, &want);
	report("hashes in the parent", ok);
	report("hashes in a child", ok && child_hashes(&local, &want));

	after = huge_free();
	if (before <= 0 || before - after <= 0) {
		if (need_huge)
			report(before <= 0 ? "huge pages reserved" :
			    "the library used huge pages", 0);
		skip(before <= 0 ? "no huge pages reserved: as root, "
		    "sysctl vm.nr_hugepages=64" : "the library got no huge "
		    "pages");
		return summary();
	}
	n = huge_grab(grabbed);
	printf("fork: the parent holds %ld huge pages, took the other %zu\n",
	    before - after, n);
	report("the pool is exhausted", huge_free() == 0);
	report("hashes in a child with the huge page pool exhausted",
	    child_hashes(&local, &want));
	huge_release(grabbed, n);
	yespower_free_local(&local);
	return summary();
}
