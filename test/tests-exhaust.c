/*
 * tests-exhaust.c: running out of memory.
 *
 * Each scenario runs in a child process whose address space is limited
 * (setrlimit RLIMIT_AS) to what it already uses plus a budget, so that the
 * same test works in a plain build, where a process maps a few MiB, and
 * under AddressSanitizer, which reserves terabytes of shadow up front.
 * Under the limit, a hash that needs more than the budget must return -1
 * with errno ENOMEM and an all-0xff output, and not crash; and hashes that
 * fit must still succeed afterwards, with the answers the parent computed
 * beforehand without a limit.  Through yespower_tls, yespower_b2b_tls,
 * yespower and yespower_b2b with a caller's local that first holds memory
 * and then fails to grow, yespower_preset_hash while even the smallest
 * hash cannot get memory and after the limit is lifted, and a new thread.
 *
 * Prints one line per scenario and a count; exits 1 if any failed.
 * (Not for valgrind, which keeps its own address-space accounting.)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "yespower.h"
#include "tests-util.h"

#define TEST_NAME "tests-exhaust"
#include "test/report.h"

#define MIB ((size_t)1 << 20)


/* Parameter sets: small and medium fit every budget below, large fit none. */
static const yespower_params_t small = { YESPOWER_1_0, 1024, 8, NULL, 0 };
static const yespower_params_t small05 = { YESPOWER_0_5, 1024, 8,
    (const uint8_t *)"Client Key", 10 };
static const yespower_params_t medium = { YESPOWER_1_0, 2048, 32,
    (const uint8_t *)"medium", 6 };
static const yespower_params_t largest = { YESPOWER_1_0, 524288, 32,
    NULL, 0 };

/* Hashes computed before any limit: [small, small05, medium][sha, b2b]. */
static yespower_binary_t want[3][2];

static const uint8_t input[] = "exhaustion test input";
#define INPUT_LEN (sizeof(input) - 1)

/* Failures are told on stderr, which needs no memory to print. */
static int expect(int cond, const char *what)
{
	if (!cond)
		fprintf(stderr, "exhaust: failed: %s\n", what);
	return cond;
}

static int hash(int b2b, yespower_local_t *local, const yespower_params_t *p,
    yespower_binary_t *dst)
{
	if (local)
		return b2b ? yespower_b2b(local, input, INPUT_LEN, p, dst) :
		    yespower(local, input, INPUT_LEN, p, dst);
	return b2b ? yespower_b2b_tls(input, INPUT_LEN, p, dst) :
	    yespower_tls(input, INPUT_LEN, p, dst);
}

/* A hash that must fail with ENOMEM and an all-0xff output. */
static int fails_enomem(int b2b, yespower_local_t *local,
    const yespower_params_t *p)
{
	yespower_binary_t d;

	memset(&d, 0, sizeof(d));
	errno = 0;
	return hash(b2b, local, p, &d) == -1 && errno == ENOMEM && all_ff(&d);
}

/* A hash that must succeed with the answer computed beforehand
 * (which = 0 small, 1 small05, 2 medium). */
static int succeeds(int b2b, yespower_local_t *local, int which)
{
	static const yespower_params_t *const sets[] = { &small, &small05,
	    &medium };
	yespower_binary_t d;

	if (b2b && which == 1)
		return 1;	/* power2b has no 0.5 */
	return hash(b2b, local, sets[which], &d) == 0 &&
	    !memcmp(&d, &want[which][b2b], sizeof(d));
}

/* The process's virtual size in bytes (Linux), or 0. */
static size_t vm_bytes(void)
{
	long long bytes = statm_bytes(0);

	return bytes < 0 ? 0 : (size_t)bytes;
}

/* Limit the address space to what is mapped now plus budget; the hard
 * limit stays, so that a scenario can lift the soft one again. */
static int limit_to(size_t budget)
{
	struct rlimit lim;
	size_t now = vm_bytes();

	if (!now || getrlimit(RLIMIT_AS, &lim))
		return -1;
	lim.rlim_cur = (rlim_t)(now + budget);
	return setrlimit(RLIMIT_AS, &lim);
}

static int lift_limit(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_AS, &lim))
		return -1;
	lim.rlim_cur = lim.rlim_max;
	return setrlimit(RLIMIT_AS, &lim);
}

/* ---- scenarios, each run in a child under a budget ---- */

/* Per-thread memory: too large fails, then small and medium succeed, for
 * both families; the large set depends on the budget (4 times it). */
static int scenario_tls(size_t budget)
{
	yespower_params_t large = { YESPOWER_0_5, 0, 8, NULL, 0 };
	int ok = 1, b2b;

	/* The smallest N * r * 128 of at least 4 * budget, r = 8..32. */
	large.r = budget >= 128 * MIB ? 32 : budget >= 64 * MIB ? 16 : 8;
	large.N = 1024;
	while ((size_t)large.N * large.r * 128 < 4 * budget)
		large.N <<= 1;

	for (b2b = 0; b2b < 2; b2b++) {
		large.version = b2b ? YESPOWER_1_0 : YESPOWER_0_5;
		ok &= expect(fails_enomem(b2b, NULL, &large), "tls: large");
		ok &= expect(succeeds(b2b, NULL, 0), "tls: small after large");
		ok &= expect(fails_enomem(b2b, NULL, &largest),
		    "tls: largest");
		ok &= expect(succeeds(b2b, NULL, 2),
		    "tls: medium after largest");
		ok &= expect(succeeds(b2b, NULL, 1), "tls: small 0.5");
		ok &= expect(fails_enomem(b2b, NULL, &large),
		    "tls: large again");
		ok &= expect(succeeds(b2b, NULL, 2), "tls: medium again");
	}
	return ok;
}

/* A caller's local that holds memory, fails to grow, and recovers. */
static int scenario_local(size_t budget)
{
	yespower_local_t local;
	int ok = 1, b2b, round;

	(void)budget;
	ok &= expect(yespower_init_local(&local) == 0, "local: init");
	for (round = 0; round < 3; round++) {
		for (b2b = 0; b2b < 2; b2b++) {
			ok &= expect(succeeds(b2b, &local, 0),
			    "local: small");
			ok &= expect(succeeds(b2b, &local, 2),
			    "local: grown to medium");
			ok &= expect(fails_enomem(b2b, &local, &largest),
			    "local: growth to largest");
			ok &= expect(succeeds(b2b, &local, 1),
			    "local: small 0.5 after failed growth");
			ok &= expect(succeeds(b2b, &local, 2),
			    "local: medium after failed growth");
		}
		if (round == 1)
			ok &= expect(yespower_free_local(&local) == 0,
			    "local: free between rounds");
	}
	ok &= expect(yespower_free_local(&local) == 0, "local: free");
	ok &= expect(yespower_free_local(&local) == 0, "local: free again");
	return ok;
}

/*
 * With no room left, a hash must fail cleanly.  The reference mallocs on
 * every call, and malloc may still have freed memory of its own to give,
 * so there a correct answer is as good as a clean failure.
 */
static int is_reference;

static int starved_preset(const yespower_preset_t *preset,
    const yespower_binary_t *right)
{
	yespower_binary_t d;
	int rc;

	errno = 0;
	memset(&d, 0, sizeof(d));
	rc = yespower_preset_hash(preset, input, INPUT_LEN, &d);
	if (rc == 0 && is_reference)
		return !memcmp(&d, right, sizeof(d));
	return rc == -1 && errno == ENOMEM && all_ff(&d);
}

static int starved(int b2b)
{
	yespower_binary_t d;
	int rc;

	errno = 0;
	memset(&d, 0, sizeof(d));
	rc = hash(b2b, NULL, &small, &d);
	if (rc == 0 && is_reference)
		return !memcmp(&d, &want[0][b2b], sizeof(d));
	return rc == -1 && errno == ENOMEM && all_ff(&d);
}

/* With no room even for the smallest hash, presets fail cleanly; once
 * the limit is lifted, the same thread's memory works again. */
static int scenario_starved(size_t budget)
{
	const yespower_preset_t *sha = yespower_preset_find("yespowerr16");
	const yespower_preset_t *b2b = yespower_preset_find("power2b");
	yespower_binary_t d, before[2];
	int ok = expect(sha && b2b, "starved: presets exist");

	(void)budget;
	if (!ok)
		return 0;
	/* Reference answers first, then starve the process. */
	ok &= expect(lift_limit() == 0, "starved: lift");
	ok &= expect(yespower_preset_hash(sha, input, INPUT_LEN,
	    &before[0]) == 0, "starved: before, yespowerr16");
	ok &= expect(yespower_preset_hash(b2b, input, INPUT_LEN,
	    &before[1]) == 0, "starved: before, power2b");
	ok &= expect(limit_to(0) == 0, "starved: set limit");

	/* No room at all, but the 8 MiB region is held: it must work
	 * (the reference holds nothing between calls). */
	ok &= expect(is_reference ? starved_preset(sha, &before[0]) :
	    yespower_preset_hash(sha, input, INPUT_LEN, &d) == 0 &&
	    !memcmp(&d, &before[0], sizeof(d)), "starved: held memory");
	/* Growing fails, which leaves the region empty; then no room. */
	ok &= expect(fails_enomem(0, NULL, &largest), "starved: largest");
	ok &= expect(limit_to(0) == 0, "starved: set limit again");
	ok &= expect(starved_preset(sha, &before[0]), "starved: yespowerr16");
	ok &= expect(starved_preset(b2b, &before[1]), "starved: power2b");
	ok &= expect(starved(0), "starved: small");
	ok &= expect(starved(1), "starved: small power2b");

	ok &= expect(lift_limit() == 0, "starved: lift again");
	ok &= expect(yespower_preset_hash(sha, input, INPUT_LEN, &d) == 0 &&
	    !memcmp(&d, &before[0], sizeof(d)), "starved: after, yespowerr16");
	ok &= expect(yespower_preset_hash(b2b, input, INPUT_LEN, &d) == 0 &&
	    !memcmp(&d, &before[1], sizeof(d)), "starved: after, power2b");
	return ok;
}

/* A thread started under the limit: its per-thread memory fails and
 * recovers like the main thread's, and is freed when it exits. */
static void *thread_body(void *arg)
{
	int *ok = arg;

	*ok &= expect(fails_enomem(1, NULL, &largest), "thread: largest");
	*ok &= expect(succeeds(1, NULL, 0), "thread: small");
	*ok &= expect(fails_enomem(0, NULL, &largest), "thread: largest");
	*ok &= expect(succeeds(0, NULL, 2), "thread: medium");
	return NULL;
}

static int scenario_thread(size_t budget)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ok = 1, i;

	(void)budget;
	for (i = 0; i < 4; i++) {
		if (pthread_attr_init(&attr) ||
		    pthread_attr_setstacksize(&attr, 256 * 1024) ||
		    pthread_create(&tid, &attr, thread_body, &ok) ||
		    pthread_join(tid, NULL))
			ok &= expect(0, "thread: create or join");
		pthread_attr_destroy(&attr);
	}
	ok &= expect(succeeds(0, NULL, 2), "thread: main thread after");
	return ok;
}

/*
 * The first use of the library with too little memory for the mixing
 * core's self-test (it maps 2 MiB): the portable core stands in, and
 * asking for a core by name fails with ENOMEM (not EIO: nothing failed
 * its test); once memory is back, the next hash tests and installs the
 * best core after all, and hashes right.  In a child that made no call
 * before, reporting on fd: the name in use under the limit, the name
 * after it, how many cores were refused with ENOMEM and with anything
 * else, and the hash.
 */
static void first_use_child(int fd)
{
	char out[256];
	const char *name;
	yespower_binary_t d;
	size_t i;
	int n, nomem = 0, other = 0;

	/* The library says, once per core, that it had no memory. */
	if (!freopen("/dev/null", "w", stderr) || limit_to(MIB))
		_exit(2);
	n = snprintf(out, sizeof(out), "%s ", yespower_impl_name());
	for (i = 0; (name = yespower_impl_at(i)) && !strchr(name, '='); i++) {
		if (!strcmp(name, "portable"))
			continue;
		errno = 0;
		if (yespower_set_impl(name) == 0)
			other++;
		else if (errno == ENOMEM)
			nomem++;
		else if (errno != ENOTSUP)
			other++;
	}
	if (lift_limit() || hash(0, NULL, &small, &d))
		_exit(1);
	n += snprintf(out + n, sizeof(out) - n, "%s %d %d ",
	    yespower_impl_name(), nomem, other);
	for (i = 0; i < sizeof(d.uc); i++)
		n += snprintf(out + n, sizeof(out) - n, "%02x", d.uc[i]);
	_exit(write(fd, out, (size_t)n) == n ? 0 : 1);
}

/* What the child saw, checked once the parent knows the answers. */
static char first_use_report[256];
static int first_use_status = -1;

/* Run first, before the parent makes any call. */
static void first_use_low_memory(void)
{
	int fds[2];
	ssize_t n = -1;
	pid_t pid;

	fflush(NULL);
	if (pipe(fds))
		return;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		first_use_child(fds[1]);
	}
	close(fds[1]);
	if (pid > 0)
		n = read(fds[0], first_use_report,
		    sizeof(first_use_report) - 1);
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &first_use_status, 0);
	if (n < 0)
		first_use_report[0] = '\0';
}

static void check_first_use(void)
{
	char low[64] = "?", after[64] = "?", hex[65] = "", want_hex[65];
	int nomem = -1, other = -1, ok = 0;
	size_t i;

	if (is_reference) {
		skip("the reference has no self-test");
		return;
	}
	for (i = 0; i < sizeof(want[0][0].uc); i++)
		sprintf(want_hex + 2 * i, "%02x", want[0][0].uc[i]);
	if (WIFEXITED(first_use_status) && !WEXITSTATUS(first_use_status) &&
	    sscanf(first_use_report, "%63s %63s %d %d %64s", low, after,
	    &nomem, &other, hex) == 5)
		ok = !strcmp(after, yespower_impl_name()) &&
		    !strcmp(hex, want_hex) && other == 0 &&
		    !strncmp(low, "portable+", 9) &&
		    (nomem > 0 || !strncmp(after, "portable+", 9));
	printf("exhaust: first use without memory for the self-test (%s, "
	    "%d core%s refused with ENOMEM, then %s): %s\n", low, nomem,
	    nomem == 1 ? "" : "s", after, ok ? "ok" : "FAILED");
	check("first use without memory for the self-test", ok);
}

/* ---- the parent ---- */

static void run(const char *name, int (*scenario)(size_t), size_t budget)
{
	pid_t pid;
	int status = 0, ok;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (limit_to(budget)) {
			perror("exhaust: setrlimit");
			_exit(2);
		}
		_exit(scenario(budget) ? 0 : 1);
	}
	ok = pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0;
	printf("exhaust: %s, budget %zu MiB: %s", name, budget / MIB,
	    ok ? "ok\n" : "FAILED");
	if (!ok && pid > 0 && WIFSIGNALED(status))
		printf(" (signal %d)", WTERMSIG(status));
	if (!ok)
		putchar('\n');
	check(name, ok);
}

int main(void)
{
	static const size_t budgets[] = { 32 * MIB, 128 * MIB, 512 * MIB };
	const yespower_params_t *sets[3] = { &small, &small05, &medium };
	yespower_local_t local;
	size_t i;
	int b2b;

	setvbuf(stdout, NULL, _IOLBF, 0);
	first_use_low_memory();		/* first: before any call */
	printf("exhaust: implementation %s\n", yespower_impl_name());
	is_reference = !strcmp(yespower_impl_name(), "reference");

	/* Expected answers, with a local freed before any child starts, so
	 * that children begin with no memory held. */
	if (yespower_init_local(&local))
		return 1;
	for (i = 0; i < 3; i++) {
		for (b2b = 0; b2b < 2; b2b++) {
			if (b2b && i == 1)
				continue;
			if (hash(b2b, &local, sets[i], &want[i][b2b])) {
				printf("exhaust: a hash failed without a "
				    "limit\n");
				return 1;
			}
		}
	}
	yespower_free_local(&local);
	check_first_use();

	for (i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
		run("per-thread memory", scenario_tls, budgets[i]);
		run("caller's local", scenario_local, budgets[i]);
	}
	run("starved, then lifted", scenario_starved, 32 * MIB);
	run("new threads", scenario_thread, 256 * MIB);

	return summary();
}
