/*
 * rx-abcompare.c: the hash rates of two RandomX shared libraries (anything
 * with randomx.h's API: this library's librandomx.so, the reference built
 * with -DBUILD_SHARED_LIBS=ON) measured side by side in one process, in
 * alternating slices on the same nonces, so that the machine's drift and
 * load fall on both alike.  Every slice's hashes must be the same from
 * both libraries.
 *
 * In full mode the dataset is built once, by the library whose
 * randomx_get_flags() offers a JIT (its dataset initialization is
 * compiled; the reference's on x86) or else the first, and copied into the
 * other's dataset; building it is not measured.  The VMs hash like the
 * reference's benchmark: _first, then _next for each nonce of a 76-byte
 * block template (nonce at byte 39).
 *
 * Usage: rx-abcompare [options] libA.so libB.so
 *   -s SECONDS   measured time per library (default 20)
 *   -S SECONDS   slice length (default 1)
 *   --full       full mode (2080 MiB dataset per library)
 *   --v2         RandomX v2
 *   --soft       software AES (default: AES-NI)
 *   --all        v1 and v2, each with AES-NI and software AES, one after
 *                the other on the same cache or dataset
 *   --v1v2       v1 and v2 (with the AES chosen), one after the other
 *   --repeat N   the whole set N times (default 1); then each
 *                configuration's B / A ratios, their mean and spread
 *   --cpu-time   slices timed in the thread's CPU time, not wall time
 *                (a shared machine's other work then counts less)
 *   --jit        VMs with RANDOMX_FLAG_JIT where a library offers it
 *   --init N     threads that build the dataset (default 2)
 *   --same-pages ask for transparent huge pages on both datasets
 *                (madvise), not only where a library does so itself
 *   --build-both each library builds its own dataset (timed, one after
 *                the other), and the two must be the same
 *   --build-by B the dataset built by library B (default: the one with a
 *                JIT, A if both or neither have one)
 *   --one-dataset both libraries' VMs read the same dataset memory: one
 *                library's randomx_dataset is pointed at the other's
 *                memory for the run (the word in it that holds the
 *                pointer, found through randomx_get_dataset_memory;
 *                this library's and the reference's both have one).
 *                With a dataset each, single processes' ratios spread
 *                from 0.84 to 1.30 in full mode with 2 MiB pages on a
 *                VM, by where each dataset's memory lay; with one, 0.95
 *                to 1.08 (each VM's scratchpad is still its own).
 *   --large-pages caches, datasets and scratchpads in 2 MiB pages
 *                (RANDOMX_FLAG_LARGE_PAGES: reserve them first, about
 *                2400 for two full-mode libraries)
 *   --threads N  N threads hash in each slice, a VM each (default 1;
 *                slices then timed in wall time)
 *
 * Which library is A matters a little: this library against a copy of
 * itself read B / A 1.01-1.02 in full mode.  For a difference of a few
 * percent, measure both orders in fresh processes, X as B and then X as
 * A, and take the mean of X's ratio from each: B / A from the first,
 * 1 / (B / A) from the second.
 *
 * Prints each library's hashes per second and B / A.  Exit status 1 if
 * the hashes differ, 2 for a usage or setup error.
 */
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "tools/randomx-dl.h"
#include "tools/timing.h"

#define MAX_THREADS 16

typedef struct {
	randomx_dl api;
	randomx_cache *cache;
	randomx_dataset *dataset;
	randomx_vm *vm[MAX_THREADS];
	double seconds;
	unsigned long hashes;
} lib;

/* Load the library at path into l. */
static void load(lib *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	randomx_dl_load(&l->api, "rx-abcompare", path);
}

static clockid_t slice_clock = CLOCK_MONOTONIC;

static void build_dataset(lib *l, int threads)
{
	if (util_build_dataset(l->api.init_dataset, l->dataset, l->cache,
	    l->api.item_count(), threads) < 0) {
		fprintf(stderr, "rx-abcompare: out of memory\n");
		exit(2);
	}
}

/* Hashing threads per slice (--threads). */
static int hash_threads = 1;

/* --one-scratchpad, and the words of B's VMs changed for it. */
#define SCRATCHPAD_BYTES (2u << 20)
#define MAX_SLOTS 8
static int one_scratchpad;
static void **sp_slot[MAX_THREADS][MAX_SLOTS];
static void *sp_own[MAX_THREADS];
static int sp_nslots[MAX_THREADS];

/*
 * count hashes of nonces first .. first + count - 1 on vm; returns the
 * XOR of them (the two libraries must agree).
 */
static uint64_t hash_nonces(const lib *l, randomx_vm *vm, uint32_t first,
    unsigned count)
{
	uint8_t block[76], h[RANDOMX_HASH_SIZE];
	uint64_t x = 0, w;
	unsigned i, j;

	memset(block, 0x5a, sizeof(block));
	memcpy(block + 39, &first, 4);
	l->api.hash_first(vm, block, sizeof(block));
	for (i = 1; i <= count; i++) {
		uint32_t nonce = first + i;

		memcpy(block + 39, &nonce, 4);
		if (i < count)
			l->api.hash_next(vm, block, sizeof(block), h);
		else
			l->api.hash_last(vm, h);
		for (j = 0; j < RANDOMX_HASH_SIZE; j += 8) {
			memcpy(&w, h + j, 8);
			x ^= w * (2 * (uint64_t)i + 1);
		}
	}
	return x;
}

typedef struct {
	const lib *l;
	randomx_vm *vm;
	uint32_t first;
	unsigned count;
	uint64_t x;
} hash_job;

static void *hash_thread(void *arg)
{
	hash_job *j = arg;

	j->x = hash_nonces(j->l, j->vm, j->first, j->count);
	return NULL;
}

/*
 * A slice: count nonces on each of the hash_threads VMs of l (thread t
 * from first + t * (count + 1)); returns the XOR of their hashes and
 * adds the time and the hashes to l.
 */
static uint64_t run_slice(lib *l, uint32_t first, unsigned count)
{
	double t0 = util_clock(slice_clock);
	pthread_t tid[MAX_THREADS];
	hash_job job[MAX_THREADS];
	uint64_t x = 0;
	int t;

	for (t = 0; t < hash_threads; t++) {
		job[t].l = l;
		job[t].vm = l->vm[t];
		job[t].first = first + (uint32_t)t * (count + 1);
		job[t].count = count;
		if (hash_threads == 1)
			hash_thread(&job[t]);
		else if (pthread_create(&tid[t], NULL, hash_thread, &job[t])) {
			fprintf(stderr, "rx-abcompare: pthread_create failed\n");
			exit(2);
		}
	}
	for (t = 0; t < hash_threads; t++) {
		if (hash_threads > 1)
			pthread_join(tid[t], NULL);
		x ^= job[t].x;
	}
	l->seconds += util_clock(slice_clock) - t0;
	l->hashes += count * (unsigned long)hash_threads;
	return x;
}

/*
 * The readable mappings of this process, up to max, into lo[] and hi[].
 * (The heap counts: the reference takes a scratchpad on small pages from
 * malloc, which may place it there.)
 */
static int readable_maps(uintptr_t *lo, uintptr_t *hi, int max)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		unsigned long l, h;
		char perm[8];

		if (sscanf(line, "%lx-%lx %7s", &l, &h, perm) == 3 &&
		    perm[0] == 'r') {
			lo[n] = l;
			hi[n++] = h;
		}
	}
	fclose(f);
	return n;
}

/* Whether [p, p + SCRATCHPAD_BYTES) lies in one of the n mappings. */
static int in_one_map(uintptr_t p, const uintptr_t *lo, const uintptr_t *hi,
    int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (p >= lo[i] && p + SCRATCHPAD_BYTES <= hi[i])
			return 1;
	return 0;
}

/* Whether p lies in a cache's or a dataset's memory of the two libraries
 * (alike in both, so pointers into them would pair up too). */
static int in_cache_or_dataset(const lib *L, uintptr_t p)
{
	uintptr_t m, bytes;
	int i;

	for (i = 0; i < 2; i++) {
		if (L[i].cache) {
			m = (uintptr_t)L[i].api.cache_memory(L[i].cache);
			bytes = (uintptr_t)262144 * 1024;	/* 256 MiB */
			if (p >= m && p - m < bytes)
				return 1;
		}
		if (L[i].dataset) {
			m = (uintptr_t)L[i].api.dataset_memory(L[i].dataset);
			bytes = (uintptr_t)L[i].api.item_count() * 64;
			if (p >= m && p - m < bytes)
				return 1;
		}
	}
	return 0;
}

/*
 * The 64-aligned words of vm's object (as large as malloc says; both
 * libraries allocate their VMs with malloc or its kin) that name a
 * readable 2 MiB outside the caches and datasets: up to max of them,
 * into at[].
 */
static int pointer_words(const lib *L, randomx_vm *vm, void ***at, int max)
{
	static uintptr_t lo[4096], hi[4096];
	void **w = (void **)(void *)vm;
	size_t n = malloc_usable_size(vm) / sizeof(void *), i;
	int k = 0, maps = readable_maps(lo, hi, 4096);

	for (i = 0; i < n && k < max; i++)
		if (w[i] && !((uintptr_t)w[i] & 63) &&
		    !in_cache_or_dataset(L, (uintptr_t)w[i]) &&
		    in_one_map((uintptr_t)w[i], lo, hi, maps))
			at[k++] = &w[i];
	return k;
}

/*
 * --one-scratchpad for thread t's pair: both hash one input, then the
 * word of A's VM and the value of B's whose 2 MiB are the same are taken
 * as their scratchpads, and every word of B's VM holding its own is
 * pointed at A's.  Exits if there is not exactly one such pair.
 */
static void share_scratchpad(lib *L, int t)
{
	void **a[64], **b[64], *pa = NULL, *pb = NULL;
	uint8_t in[76], h[RANDOMX_HASH_SIZE];
	int na, nb, i, j, pairs = 0;

	memset(in, 0x3c, sizeof(in));
	for (i = 0; i < 2; i++) {
		L[i].api.hash_first(L[i].vm[t], in, sizeof(in));
		L[i].api.hash_last(L[i].vm[t], h);
	}
	na = pointer_words(L, L[0].vm[t], a, 64);
	nb = pointer_words(L, L[1].vm[t], b, 64);
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (*a[i] != *b[j] && (*a[i] != pa || *b[j] != pb) &&
			    !memcmp(*a[i], *b[j], SCRATCHPAD_BYTES)) {
				pa = *a[i];
				pb = *b[j];
				pairs++;
			}
	if (pairs != 1) {
		fprintf(stderr, "rx-abcompare: --one-scratchpad: %d candidate "
		    "scratchpad pairs in the VMs, not one\n", pairs);
		exit(2);
	}
	sp_own[t] = pb;
	sp_nslots[t] = 0;
	for (j = 0; j < nb; j++)
		if (*b[j] == pb) {
			if (sp_nslots[t] == MAX_SLOTS) {
				fprintf(stderr, "rx-abcompare: "
				    "--one-scratchpad: more than %d words of "
				    "B's VM name its scratchpad\n", MAX_SLOTS);
				exit(2);
			}
			sp_slot[t][sp_nslots[t]++] = b[j];
		}
	for (j = 0; j < sp_nslots[t]; j++)
		*sp_slot[t][j] = pa;
	if (t == 0)
		printf("B's VM works in A's scratchpad (%d word%s changed)\n",
		    sp_nslots[t], sp_nslots[t] == 1 ? "" : "s");
}

/* B's VM's own scratchpad back, for it to free. */
static void unshare_scratchpad(int t)
{
	int i;

	for (i = 0; i < sp_nslots[t]; i++)
		*sp_slot[t][i] = sp_own[t];
	sp_nslots[t] = 0;
}

/*
 * One configuration: a VM per library, slices alternating until both
 * have been measured `seconds`; prints the rates.  Returns whether the
 * hashes differed.
 */
static int measure(lib *L, double seconds, double slice_s, int full, int v2,
    int soft, int jit, int large, double *ratio)
{
	static uint32_t nonce;
	unsigned count, k;
	int i, t, differ = 0;

	for (i = 0; i < 2; i++) {
		int f = (soft ? 0 : RANDOMX_FLAG_HARD_AES) |
		    (v2 ? RANDOMX_FLAG_V2 : 0) |
		    (full ? RANDOMX_FLAG_FULL_MEM : 0) | large;

		if (jit)
			f |= L[i].api.get_flags() & RANDOMX_FLAG_JIT;
		for (t = 0; t < hash_threads; t++) {
			L[i].vm[t] = L[i].api.create_vm((randomx_flags)f,
			    L[i].cache, L[i].dataset);
			if (!L[i].vm[t]) {
				fprintf(stderr, "rx-abcompare: %s: no VM\n",
				    L[i].api.path);
				exit(2);
			}
		}
		L[i].seconds = 0;
		L[i].hashes = 0;
	}
	for (t = 0; one_scratchpad && t < hash_threads; t++)
		share_scratchpad(L, t);
	/* size a slice from a first timing of 2 hashes on each */
	run_slice(&L[0], nonce, 2);
	run_slice(&L[1], nonce, 2);
	nonce += 3 * (unsigned)hash_threads;
	count = (unsigned)(slice_s * 4 / (L[0].seconds + L[1].seconds));
	if (count < 1)
		count = 1;
	L[0].seconds = L[1].seconds = 0;
	L[0].hashes = L[1].hashes = 0;
	for (k = 0; L[0].seconds < seconds || L[1].seconds < seconds; k++) {
		/* alternate which one goes first */
		int a = k & 1;
		uint64_t x = run_slice(&L[a], nonce, count);

		differ |= x != run_slice(&L[!a], nonce, count);
		nonce += (count + 1) * (unsigned)hash_threads;
	}
	for (i = 0; i < 2; i++)
		printf("%c %-40s %8.3f H/s  (%lu hashes, %.1f s)\n", 'A' + i,
		    L[i].api.path, (double)L[i].hashes / L[i].seconds, L[i].hashes,
		    L[i].seconds);
	printf("B / A = %.3f; %s mode, %s, %s AES%s%s; hashes %s\n",
	    ((double)L[1].hashes / L[1].seconds) /
	    ((double)L[0].hashes / L[0].seconds), full ? "full" : "light",
	    v2 ? "v2" : "v1", soft ? "soft" : "hard", jit ? ", JIT" : "",
	    large ? ", large pages" : "",
	    differ ? "DIFFER" : "identical");
	*ratio = ((double)L[1].hashes / L[1].seconds) /
	    ((double)L[0].hashes / L[0].seconds);
	for (t = 0; t < hash_threads; t++)
		unshare_scratchpad(t);
	for (i = 0; i < 2; i++)
		for (t = 0; t < hash_threads; t++)
			L[i].api.destroy_vm(L[i].vm[t]);
	return differ;
}

/*
 * --one-dataset: point library l's dataset at memory, through the word of
 * its randomx_dataset (among the first four; the reference's struct has
 * two, this library's four) that holds the pointer
 * randomx_get_dataset_memory returns, found by changing one candidate at a
 * time until the accessor returns memory.  *slot and *saved are kept so
 * that main can put the old pointer back before the library frees it.
 * Returns 0 if no word works.
 */
static int share_dataset(lib *l, void *memory, void ***slot, void **saved)
{
	void **w = (void **)(void *)l->dataset;
	void *own = l->api.dataset_memory(l->dataset);
	int i;

	for (i = 0; i < 4; i++) {
		if (w[i] != own)
			continue;
		w[i] = memory;
		if (l->api.dataset_memory(l->dataset) == memory) {
			*slot = &w[i];
			*saved = own;
			return 1;
		}
		w[i] = own;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = 20, slice_s = 1;
	int full = 0, v2 = 0, soft = 0, jit = 0, threads = 2, same_pages = 0;
	int build_both = 0, large = 0, build_by_b = 0, v1v2 = 0, repeat = 1;
	int one_dataset = 0;
	void **shared_slot = NULL, *own_memory = NULL;
	int r, nconf = 0, conf_v2[4], conf_soft[4];
	double ratio[4][64];
	int all = 0, i, k, differ = 0;
	const char *paths[2] = { NULL, NULL };
	unsigned np = 0;
	lib L[2];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "-S") && i + 1 < argc)
			slice_s = atof(argv[++i]);
		else if (!strcmp(argv[i], "--full"))
			full = 1;
		else if (!strcmp(argv[i], "--v2"))
			v2 = 1;
		else if (!strcmp(argv[i], "--soft"))
			soft = 1;
		else if (!strcmp(argv[i], "--all"))
			all = 1;
		else if (!strcmp(argv[i], "--v1v2"))
			v1v2 = 1;
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cpu-time"))
			slice_clock = CLOCK_THREAD_CPUTIME_ID;
		else if (!strcmp(argv[i], "--jit"))
			jit = 1;
		else if (!strcmp(argv[i], "--same-pages"))
			same_pages = 1;
		else if (!strcmp(argv[i], "--build-both"))
			build_both = 1;
		else if (!strcmp(argv[i], "--one-dataset"))
			one_dataset = 1;
		else if (!strcmp(argv[i], "--one-scratchpad"))
			one_scratchpad = 1;
		else if (!strcmp(argv[i], "--build-by") && i + 1 < argc &&
		    (!strcmp(argv[i + 1], "A") || !strcmp(argv[i + 1], "B")))
			build_by_b = argv[++i][0] == 'B' ? 1 : -1;
		else if (!strcmp(argv[i], "--large-pages"))
			large = RANDOMX_FLAG_LARGE_PAGES;
		else if (!strcmp(argv[i], "--init") && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			hash_threads = atoi(argv[++i]);
		else if (argv[i][0] != '-' && np < 2)
			paths[np++] = argv[i];
		else
			np = 99;
	}
	if (np != 2 || !(seconds > 0) || !(slice_s > 0) || threads < 1 ||
	    threads > UTIL_MAX_BUILD_THREADS || repeat < 1 || repeat > 64 || hash_threads < 1 ||
	    hash_threads > MAX_THREADS ||
	    (hash_threads > 1 && slice_clock != CLOCK_MONOTONIC) ||
	    (one_dataset && build_both)) {
		fprintf(stderr, "usage: rx-abcompare [-s SECONDS] [-S SECONDS] "
		    "[--full] [--v2] [--soft] [--all] [--v1v2] [--repeat N] "
		    "[--cpu-time] [--jit] [--init N] "
		    "[--same-pages] [--build-both | --one-dataset] "
		    "[--one-scratchpad] "
		    "[--build-by A|B] "
		    "[--large-pages] [--threads N] libA.so "
		    "libB.so\n");
		return 2;
	}
	for (i = 0; i < 2; i++) {
		randomx_flags f;
		uint32_t seed = 0;

		load(&L[i], paths[i]);
		f = L[i].api.get_flags();
		L[i].cache = L[i].api.alloc_cache((randomx_flags)((f &
		    (RANDOMX_FLAG_ARGON2 | RANDOMX_FLAG_JIT)) | large));
		if (!L[i].cache) {
			fprintf(stderr, "rx-abcompare: %s: no cache\n", paths[i]);
			return 2;
		}
		L[i].api.init_cache(L[i].cache, &seed, sizeof(seed));
	}
	if (full) {
		int builder = build_by_b ? build_by_b > 0 :
		    (L[1].api.get_flags() & RANDOMX_FLAG_JIT) &&
		    !(L[0].api.get_flags() & RANDOMX_FLAG_JIT);
		size_t bytes = (size_t)L[0].api.item_count() * 64;
		double t0 = util_now();

		for (i = 0; i < 2; i++) {
			L[i].dataset = L[i].api.alloc_dataset((randomx_flags)large);
			if (!L[i].dataset) {
				fprintf(stderr, "rx-abcompare: %s: no dataset\n",
				    paths[i]);
				return 2;
			}
			if (same_pages)
				madvise(L[i].api.dataset_memory(L[i].dataset),
				    bytes, MADV_HUGEPAGE);
		}
		build_dataset(&L[builder], threads);
		if (build_both) {
			double t1 = util_now();

			build_dataset(&L[!builder], threads);
			printf("dataset built by %s in %.1f s, by %s in %.1f s "
			    "(%d threads each)\n", paths[builder], t1 - t0,
			    paths[!builder], util_now() - t1, threads);
			if (memcmp(L[0].api.dataset_memory(L[0].dataset),
			    L[1].api.dataset_memory(L[1].dataset), bytes)) {
				printf("datasets DIFFER\n");
				differ = 1;
			}
		} else if (one_dataset) {
			/* the builder's memory, unless only the builder can
			 * be pointed elsewhere: then the other's, copied */
			int x = !builder;

			if (!share_dataset(&L[x], L[builder].api.dataset_memory(
			    L[builder].dataset), &shared_slot, &own_memory)) {
				x = builder;
				memcpy(L[!x].api.dataset_memory(L[!x].dataset),
				    L[x].api.dataset_memory(L[x].dataset),
				    bytes);
				if (!share_dataset(&L[x], L[!x].api.
				    dataset_memory(L[!x].dataset), &shared_slot,
				    &own_memory)) {
					fprintf(stderr, "rx-abcompare: "
					    "--one-dataset: neither library's "
					    "randomx_dataset holds its memory "
					    "pointer where it can be changed\n");
					return 2;
				}
			}
			printf("dataset built by %s in %.1f s; both read it "
			    "in %s's memory\n", paths[builder], util_now() - t0,
			    paths[!x]);
		} else {
			memcpy(L[!builder].api.dataset_memory(L[!builder].dataset),
			    L[builder].api.dataset_memory(L[builder].dataset),
			    bytes);
			printf("dataset built by %s in %.1f s, copied\n",
			    paths[builder], util_now() - t0);
		}
		for (i = 0; i < 2; i++) {
			L[i].api.release_cache(L[i].cache);
			L[i].cache = NULL;
		}
	}
	for (k = 0; k < 4; k++) {
		if (all) {
			conf_v2[nconf] = k >> 1;
			conf_soft[nconf++] = k & 1;
		} else if (v1v2 && k < 2) {
			conf_v2[nconf] = k;
			conf_soft[nconf++] = soft;
		} else if (k == 0) {
			conf_v2[nconf] = v2;
			conf_soft[nconf++] = soft;
		}
	}
	for (r = 0; r < repeat; r++)
		for (k = 0; k < nconf; k++)
			differ |= measure(L, seconds, slice_s, full, conf_v2[k],
			    conf_soft[k], jit, large, &ratio[k][r]);
	for (k = 0; repeat > 1 && k < nconf; k++) {
		double sum = 0, lo = ratio[k][0], hi = ratio[k][0];

		printf("%s, %s AES: B / A", conf_v2[k] ? "v2" : "v1",
		    conf_soft[k] ? "soft" : "hard");
		for (r = 0; r < repeat; r++) {
			printf(" %.3f", ratio[k][r]);
			sum += ratio[k][r];
			lo = ratio[k][r] < lo ? ratio[k][r] : lo;
			hi = ratio[k][r] > hi ? ratio[k][r] : hi;
		}
		printf("; mean %.3f, range %.3f-%.3f\n", sum / repeat, lo, hi);
	}
	if (shared_slot)	/* its own memory back, for it to free */
		*shared_slot = own_memory;
	for (i = 0; i < 2; i++) {
		if (L[i].dataset)
			L[i].api.release_dataset(L[i].dataset);
		if (L[i].cache)
			L[i].api.release_cache(L[i].cache);
	}
	return differ ? 1 : 0;
}
