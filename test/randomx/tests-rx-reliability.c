/*
 * tests-rx-reliability.c: what a node or pool process does to RandomX
 * that a careful single-threaded caller does not.
 *
 * - Re-initialization under a hashing thread: monerod hashes with a light
 *   VM outside the lock under which another caller may initialize the
 *   same cache with a new key.  The hashes meanwhile are unspecified, but
 *   the process must live, and once the initialization is over the VM
 *   gives the new key's hashes.  Run in a child, so that a crash is a
 *   failure counted here.
 * - No mapping writable and executable at once: a thread reads
 *   /proc/self/maps over and over while the main thread allocates,
 *   initializes, hashes (light and full mode) and initializes again with
 *   the flags the reference's clients pass (monerod: randomx_get_flags()
 *   for the cache, with RANDOMX_FLAG_SECURE for its VMs; miners: without
 *   SECURE, whose programs are recompiled eight times a hash), each hash
 *   checked; and once more in a child whose RLIMIT_FSIZE leaves no room
 *   for the JIT's shared code memory (the fallback: one mapping switched
 *   by mprotect).
 * - Flag bits no version defines are ignored, as the reference does.
 *
 * Usage: tests-rx-reliability [reinitializations]  (default 3 per VM kind)
 * Prints "tests-rx-reliability: N passed, N failed[, N skipped (why)]".
 */
#define _GNU_SOURCE 1

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "randomx/randomx.h"
#include "randomx/jit.h"

#define RX_TEST_NAME "tests-rx-reliability"
#include "test/randomx/rx-tests.h"

static const char *const keys[2] = { "reliability key A",
	"reliability key B" };

/* ---- re-initialization under a hashing thread ---- */

struct hasher {
	randomx_vm *vm;
	volatile int stop;
	unsigned long hashes;
};

static void *hash_loop(void *arg)
{
	struct hasher *h = arg;
	uint8_t out[32];

	while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE)) {
		randomx_calculate_hash(h->vm, "under re-init", 13, out);
		h->hashes++;
	}
	return NULL;
}

/*
 * In a child: a thread hashes with a light VM of vm_flags on a cache of
 * cache_flags while this one initializes the cache n times with
 * alternating keys; then the VM must give the last key's hash (want[],
 * from a cache of its own).  Exit status 0 if all went so, 1 if a hash
 * differed, 2 if setting up failed; a signal if it crashed.
 */
static void reinit_child(randomx_flags cache_flags, randomx_flags vm_flags,
    int n, const uint8_t want[2][32])
{
	struct hasher h = { NULL, 0, 0 };
	randomx_cache *cache = randomx_alloc_cache(cache_flags);
	pthread_t t;
	uint8_t out[32];
	int i;

	if (!cache)
		_exit(2);
	randomx_init_cache(cache, keys[0], strlen(keys[0]));
	if (!(h.vm = randomx_create_vm(vm_flags, cache, NULL)) ||
	    pthread_create(&t, NULL, hash_loop, &h))
		_exit(2);
	for (i = 1; i <= n; i++)
		randomx_init_cache(cache, keys[i & 1], strlen(keys[i & 1]));
	__atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	randomx_calculate_hash(h.vm, "under re-init", 13, out);
	randomx_destroy_vm(h.vm);
	randomx_release_cache(cache);
	_exit(memcmp(out, want[n & 1], 32) ? 1 : 0);
}

static void check_reinit(const char *what, randomx_flags cache_flags,
    randomx_flags vm_flags, int n, const uint8_t want[2][32])
{
	char msg[256];
	int status = 0;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0)
		reinit_child(cache_flags, vm_flags, n, want);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		check("fork for the re-initialization test", 0);
		return;
	}
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "%s: %d re-initializations under a "
		    "hashing thread: the process died of signal %d (%s)", what,
		    n, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(msg, sizeof(msg), "%s: %d re-initializations under a "
		    "hashing thread: lives, then the new key's hash (exit "
		    "status %d)", what, n, WEXITSTATUS(status));
	check(msg, WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The hash of "under re-init" for each key, from caches of their own. */
static int reference_hashes(randomx_flags flags, uint8_t want[2][32])
{
	int k;

	for (k = 0; k < 2; k++) {
		randomx_cache *c = randomx_alloc_cache(flags);
		randomx_vm *vm;

		if (!c)
			return -1;
		randomx_init_cache(c, keys[k], strlen(keys[k]));
		vm = randomx_create_vm(flags & ~RANDOMX_FLAG_JIT, c, NULL);
		if (!vm) {
			randomx_release_cache(c);
			return -1;
		}
		randomx_calculate_hash(vm, "under re-init", 13, want[k]);
		randomx_destroy_vm(vm);
		randomx_release_cache(c);
	}
	return 0;
}

/* ---- mappings writable and executable at once ---- */

struct watcher {
	volatile int stop;
	unsigned long scans;
	char found[256];	/* the first such mapping's line */
};

/* Whether a line of /proc/self/maps has both w and x. */
static int wx_line(const char *line)
{
	const char *perm = strchr(line, ' ');

	return perm && perm[1] && perm[2] == 'w' && perm[3] == 'x';
}

static void *watch_maps(void *arg)
{
	struct watcher *w = arg;
	char line[512];

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		FILE *f = fopen("/proc/self/maps", "r");

		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (wx_line(line) && !w->found[0])
				snprintf(w->found, sizeof(w->found), "%.*s",
				    (int)strcspn(line, "\n"), line);
		fclose(f);
		w->scans++;
	}
	return NULL;
}

/* The same scan once, by the calling thread: 1 if a mapping is w and x. */
static int wx_now(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= wx_line(line);
	if (f)
		fclose(f);
	return found;
}

/*
 * Allocate, initialize, hash (light, also through the batch functions,
 * each hash against want[]),
 * initialize again and hash (inits times in all), then build a few of a
 * dataset's items (the cache's compiled code) and hash in full mode on
 * them (the hash is not the key's: most items are left zero), with the
 * cache's and the VM's flags, while a thread watches the maps.
 */
static void check_wx(const char *what, randomx_flags cache_flags,
    randomx_flags vm_flags, int inits, const uint8_t want[2][32])
{
	struct watcher w;
	randomx_cache *cache;
	randomx_dataset *ds;
	randomx_vm *vm = NULL, *full;
	pthread_t t;
	uint8_t out[32];
	char msg[512];
	int k, right = 1, full_ran = 0;

	memset(&w, 0, sizeof(w));
	if (pthread_create(&t, NULL, watch_maps, &w)) {
		check("a thread to watch the maps", 0);
		return;
	}
	cache = randomx_alloc_cache(cache_flags);
	for (k = 0; k < inits && cache; k++) {
		randomx_init_cache(cache, keys[k], strlen(keys[k]));
		if (!vm)
			vm = randomx_create_vm(vm_flags, cache, NULL);
		if (!vm)
			break;
		randomx_calculate_hash(vm, "maps", 4, out);
		randomx_calculate_hash(vm, "under re-init", 13, out);
		right &= !memcmp(out, want[k & 1], 32);
		/* miners' batch functions */
		randomx_calculate_hash_first(vm, "under re-init", 13);
		randomx_calculate_hash_last(vm, out);
		right &= !memcmp(out, want[k & 1], 32);
	}
	/* The dataset's initialization runs the cache's compiled code too;
	 * a few items are enough (the dataset's pages are only read beyond
	 * them). */
	if (cache && (ds = randomx_alloc_dataset(cache_flags)) != NULL) {
		randomx_init_dataset(ds, cache, 0, 64);
		full = randomx_create_vm(vm_flags | RANDOMX_FLAG_FULL_MEM,
		    NULL, ds);
		if (full) {
			randomx_calculate_hash(full, "maps", 4, out);
			full_ran = 1;
		}
		randomx_destroy_vm(full);
		randomx_release_dataset(ds);
	}
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	snprintf(msg, sizeof(msg), "%s: set up", what);
	check(msg, cache && vm);
	snprintf(msg, sizeof(msg), "%s: each key's hash", what);
	check(msg, cache && vm && right);
	if (!full_ran)
		skip("no dataset's address space here: full mode not "
		    "watched");
	snprintf(msg, sizeof(msg), "%s: no mapping writable and executable "
	    "(%lu scans of /proc/self/maps)%s%s", what, w.scans,
	    w.found[0] ? "; found: " : "", w.found);
	check(msg, !w.found[0] && w.scans > 0);
	snprintf(msg, sizeof(msg), "%s: none after the hashes either", what);
	check(msg, !wx_now());
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);
}

/*
 * A JIT VM without SECURE in a child whose RLIMIT_FSIZE is a page: too
 * small for the shared object that the JIT's code memory is made of,
 * which a larger ftruncate would answer with SIGXFSZ (the default
 * action: the child dies).  The JIT must fall back to one mapping switched
 * by mprotect, never writable and executable.  The child prints into a
 * pipe (a file, such as make's log, would be limited too), which is
 * passed on here.
 */
static void check_wx_fallback(randomx_flags f, const uint8_t want[2][32])
{
	struct rlimit one_page = { 4096, 4096 };
	char buf[512];
	int status = 0, fds[2];
	ssize_t n;
	pid_t pid;

	fflush(NULL);
	if (pipe(fds)) {
		check("a pipe for the fallback's test", 0);
		return;
	}
	if ((pid = fork()) == 0) {
		int before = failed;

		close(fds[0]);
		if (dup2(fds[1], 1) < 0 || setrlimit(RLIMIT_FSIZE, &one_page))
			_exit(3);
		check_wx("RLIMIT_FSIZE of a page (the fallback)", f, f, 2,
		    want);
		fflush(NULL);
		_exit(failed > before ? 1 : 0);
	}
	close(fds[1]);
	while (pid > 0 && (n = read(fds[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		check("fork for the fallback's test", 0);
		return;
	}
	if (WIFSIGNALED(status))
		printf("tests-rx-reliability: the fallback's child died of "
		    "signal %d (%s)\n", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	check("RLIMIT_FSIZE of a page: the JIT VM lives, each hash right, "
	    "no mapping writable and executable (in a child)",
	    WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- unknown flag bits ---- */

static void check_unknown_flags(randomx_flags f)
{
	static const unsigned bits[] = { 256, 1024, 1u << 20, 1u << 30 };
	uint8_t want[32], got[32];
	randomx_cache *c = randomx_alloc_cache(f);
	randomx_vm *vm;
	size_t i;

	if (!c) {
		check("unknown flags: a cache with the known ones", 0);
		return;
	}
	randomx_init_cache(c, keys[0], strlen(keys[0]));
	vm = randomx_create_vm(f, c, NULL);
	randomx_calculate_hash(vm, "flags", 5, want);
	randomx_destroy_vm(vm);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		randomx_flags u = (randomx_flags)((unsigned)f | bits[i]);
		randomx_cache *uc = randomx_alloc_cache(u);
		randomx_dataset *ds;
		char msg[128];

		/* Initialized once, with the bit at the first only. */
		if (uc && i == 0) {
			randomx_release_cache(c);
			c = uc;
			randomx_init_cache(c, keys[0], strlen(keys[0]));
		} else {
			randomx_release_cache(uc);
		}
		snprintf(msg, sizeof(msg), "randomx_alloc_cache(flags | %u): "
		    "a cache", bits[i]);
		check(msg, uc != NULL);
		vm = randomx_create_vm(u, c, NULL);
		snprintf(msg, sizeof(msg), "randomx_create_vm(flags | %u): a "
		    "VM", bits[i]);
		check(msg, vm != NULL);
		memset(got, 0, sizeof(got));
		if (vm)
			randomx_calculate_hash(vm, "flags", 5, got);
		snprintf(msg, sizeof(msg), "flags | %u: the same hash as "
		    "without", bits[i]);
		check(msg, !memcmp(got, want, 32));
		randomx_destroy_vm(vm);
		ds = randomx_alloc_dataset((randomx_flags)bits[i]);
		snprintf(msg, sizeof(msg), "randomx_alloc_dataset(%u): a "
		    "dataset", bits[i]);
		check(msg, ds != NULL);
		randomx_release_dataset(ds);
	}
	randomx_release_cache(c);
}

int main(int argc, char **argv)
{
	randomx_flags f = randomx_get_flags();
	int n = argc > 1 ? atoi(argv[1]) : 3;
	uint8_t want[2][32];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n < 1)
		n = 1;
	check_unknown_flags(f);

	if (reference_hashes(f, want)) {
		check("the two keys' hashes", 0);
		return summary();
	}
	check_reinit("randomx_get_flags() VM", f, f, n, want);
	check_reinit("SECURE VM", f, f | RANDOMX_FLAG_SECURE, n, want);
	check_reinit("interpreted VM on a JIT cache", f,
	    f & ~RANDOMX_FLAG_JIT, n, want);
	check_reinit("JIT VM on an interpreted cache", f & ~RANDOMX_FLAG_JIT,
	    f, n, want);

	if (!RX_HAVE_JIT) {
		skip("no JIT on this machine: no code pages to watch");
		return summary();
	}
	check_wx("monerod's flags (SECURE VM)", f, f | RANDOMX_FLAG_SECURE, 2,
	    want);
	check_wx("SECURE cache and VM", f | RANDOMX_FLAG_SECURE,
	    f | RANDOMX_FLAG_SECURE, 1, want);
	check_wx("a JIT cache, an interpreted VM", f, f & ~RANDOMX_FLAG_JIT, 1,
	    want);
	check_wx("SECURE JIT VM on an interpreted cache",
	    f & ~RANDOMX_FLAG_JIT, f | RANDOMX_FLAG_SECURE, 1, want);
	check_wx("miners' flags (a JIT VM without SECURE)", f, f, 2, want);
	check_wx("a JIT VM without SECURE on an interpreted cache",
	    f & ~RANDOMX_FLAG_JIT, f, 1, want);
	check_wx_fallback(f, want);
	return summary();
}
