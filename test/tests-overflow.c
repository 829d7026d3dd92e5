/*
 * tests-overflow.c: sizes that do not fit a size_t.
 *
 * A batch of K inputs interleaves K hashes in one region of K times a
 * hash's memory.  With the largest parameters (N = 524288, r = 32: 2 GiB
 * a hash) two or three of them do not fit a 32-bit size_t: the product
 * must not wrap into a small region that the mixing core then writes
 * gigabytes past.  Expected: -1 with ENOMEM and all-0xff outputs, and
 * small hashes right afterwards.  On a 64-bit size_t the sizes fit, so the
 * child runs with its address space limited (RLIMIT_AS) to what it maps
 * plus 256 MiB, and the same answer is expected; under qemu-user, which
 * ignores RLIMIT_AS, the cross checks give the guest 1 GiB (qemu -R).
 *
 * Prints one line per check and "overflow: N passed, N failed".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "yespower.h"
#include "tests-util.h"

#define TEST_NAME "tests-overflow"
#include "test/report.h"

static void report(const char *name, int ok)
{
	printf("overflow: %s: %s\n", name, ok ? "ok" : "FAILED");
	check(name, ok);
}

/* The checks, in a child whose address space is limited. */
static int child(void)
{
	static const yespower_params_t largest = { YESPOWER_1_0, 524288, 32,
	    NULL, 0 };
	static const yespower_params_t small = { YESPOWER_1_0, 1024, 8,
	    NULL, 0 };
	long long now = statm_bytes(0);
	struct rlimit lim;
	const uint8_t *src[3];
	size_t len[3] = { 80, 80, 80 }, k, i;
	uint8_t in[80];
	yespower_binary_t dst[3], one;
	yespower_local_t local;
	int ok = 1;

	if (now < 0 || getrlimit(RLIMIT_AS, &lim))
		return 2;
	lim.rlim_cur = (rlim_t)now + ((rlim_t)256 << 20);
	if (setrlimit(RLIMIT_AS, &lim))
		return 2;
	memset(in, 7, sizeof(in));
	for (i = 0; i < 3; i++)
		src[i] = in;
	yespower_init_local(&local);
	for (k = 2; k <= 3; k++) {
		memset(dst, 0, sizeof(dst));
		errno = 0;
		ok &= yespower_batch_tls(src, len, k, &largest, dst) == -1 &&
		    errno == ENOMEM && all_ff(&dst[0]) && all_ff(&dst[k - 1]);
		errno = 0;
		ok &= yespower_b2b_batch(&local, src, len, k, &largest, dst) ==
		    -1 && errno == ENOMEM && all_ff(&dst[k - 1]);
	}
	/* Then small ones work, and agree with one at a time. */
	ok &= yespower_batch_tls(src, len, 3, &small, dst) == 0 &&
	    yespower_tls(in, 80, &small, &one) == 0 &&
	    !memcmp(&one, &dst[2], sizeof(one));
	ok &= yespower_free_local(&local) == 0;
	return ok ? 0 : 1;
}

int main(void)
{
	int status = -1;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(child());
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status))
		printf("overflow: the child died of signal %d\n",
		    WTERMSIG(status));
	report("batches of 2 and 3 of 2 GiB hashes (ENOMEM, all 0xff)",
	    pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return summary();
}
