/*
 * bench/randomx.c: `benchmark --randomx`: RandomX on the same harness as
 * yespower.
 *
 *   benchmark --randomx [--v2] [--full] [--large-pages] [--soft-aes]
 *             [--interpreter] [-t LIST] [-s SECONDS] [-w SECONDS] [--batch K]
 *             [--affinity MODE] [--json] [--components]
 *
 * It builds the cache for a fixed key (and with --full the 2080 MiB
 * dataset, on as many threads as the largest count of -t), timing both,
 * then measures each thread count: every thread has a VM of its own, and
 * a call hashes one 76-byte block template whose nonce (bytes 39 to 42, as
 * Monero's) is the harness's, with randomx_calculate_hash, or K of them
 * with _first / _next / _last (--batch K, the miners' pipeline), verified
 * against single hashes.  --components times the parts of a hash instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "randomx/argon2d.h"
#include "randomx/jit.h"
#include "randomx/randomx.h"
#include "tools/timing.h"

/* What every thread's VM is made from. */
typedef struct {
	randomx_flags flags;
	randomx_cache *cache;
	randomx_dataset *dataset;
} rx_job;

static const char key[] = "libyespower benchmark key";

/* The block template of a nonce: bytes i * 7, the nonce at 39..42. */
static void make_blob(uint8_t blob[76], uint64_t nonce)
{
	unsigned i;

	for (i = 0; i < 76; i++)
		blob[i] = (uint8_t)(i * 7);
	for (i = 0; i < 4; i++)
		blob[39 + i] = (uint8_t)(nonce >> (8 * i));
}

static int vm_start(const bench_work *w, void **state)
{
	const rx_job *job = w->ctx;

	*state = randomx_create_vm(job->flags, job->cache, job->dataset);
	return *state ? 0 : -1;
}

static void vm_end(const bench_work *w, void *state)
{
	(void)w;
	randomx_destroy_vm(state);
}

/* One hash, or count through the pipeline of _first, _next and _last. */
static int rx_hash(const bench_work *w, void *state, uint64_t nonce,
    unsigned count, uint8_t *out)
{
	uint8_t blob[76];
	unsigned i;

	(void)w;
	make_blob(blob, nonce);
	if (count == 1) {
		randomx_calculate_hash(state, blob, sizeof(blob), out);
		return 0;
	}
	randomx_calculate_hash_first(state, blob, sizeof(blob));
	for (i = 1; i < count; i++) {
		make_blob(blob, nonce + i);
		randomx_calculate_hash_next(state, blob, sizeof(blob),
		    out + (i - 1) * RANDOMX_HASH_SIZE);
	}
	randomx_calculate_hash_last(state, out + (count - 1) *
	    RANDOMX_HASH_SIZE);
	return 0;
}

/* ---- the whole run ---- */

static randomx_flags flags_for(const bench_options *o)
{
	randomx_flags f = randomx_get_flags();

	if (o->rx_soft_aes)
		f &= ~RANDOMX_FLAG_HARD_AES;
	if (o->rx_interpreter)
		f &= ~RANDOMX_FLAG_JIT;
	if (o->rx_v2)
		f |= RANDOMX_FLAG_V2;
	if (o->rx_full)
		f |= RANDOMX_FLAG_FULL_MEM;
	if (o->rx_large_pages)
		f |= RANDOMX_FLAG_LARGE_PAGES;
	return f;
}

/* The Argon2d code randomx_alloc_cache picks for these flags. */
static const char *argon2_name(randomx_flags f)
{
	if (f & RANDOMX_FLAG_ARGON2_AVX2)
		return rx_argon2_impl_name(rx_argon2_impl_avx2());
	return f & RANDOMX_FLAG_ARGON2_SSSE3 ? "ssse3" : "portable";
}

/*
 * "v2, light mode, JIT, hardware AES, Argon2d avx2" and so on; "JIT,
 * AVX-512 rounding" where the JIT compiles a program once per rounding mode.
 */
static void describe(char *buf, size_t size, randomx_flags f)
{
	int copies = 0;

#if RX_HAVE_JIT
	copies = (f & RANDOMX_FLAG_JIT) &&
	    rx_jit_rounding_copies((f & RANDOMX_FLAG_V2) != 0);
#endif
	snprintf(buf, size, "%s, %s mode, %s%s, %s AES, Argon2d %s%s",
	    f & RANDOMX_FLAG_V2 ? "v2" : "v1",
	    f & RANDOMX_FLAG_FULL_MEM ? "full" : "light",
	    f & RANDOMX_FLAG_JIT ? "JIT" : "interpreter",
	    copies ? ", AVX-512 rounding" : "",
	    f & RANDOMX_FLAG_HARD_AES ? "hardware" : "software",
	    argon2_name(f), f & RANDOMX_FLAG_LARGE_PAGES ?
	    ", large pages" : "");
}

static void json_document(const bench_options *o, randomx_flags f,
    const char *impl, double cache_s, double dataset_s,
    const uint8_t first[32], const bench_result *runs, int status,
    char **argv)
{
	json_writer j;
	unsigned long long mismatches = 0;
	size_t i;

	memset(&j, 0, sizeof(j));
	json_open(&j, NULL, '{');
	json_str(&j, "program", "librandomx benchmark");
	json_int(&j, "randomx_version", f & RANDOMX_FLAG_V2 ? 2 : 1);
	json_str(&j, "mode", f & RANDOMX_FLAG_FULL_MEM ? "full" : "light");
	json_int(&j, "flags", (long long)f);
	json_str(&j, "implementation", impl);
	json_num(&j, "cache_init_seconds", cache_s);
	if (dataset_s >= 0)
		json_num(&j, "dataset_init_seconds", dataset_s);
	else
		json_str(&j, "dataset_init_seconds", NULL);
	json_int(&j, "batch", o->batch);
	json_hex(&j, "first_hash", first, 32);
	json_num(&j, "seconds", o->seconds);
	json_num(&j, "warmup_seconds", o->warmup);
	json_str(&j, "affinity", o->affinity_arg ? o->affinity_arg : "none");
	json_invocation(&j, argv);
	json_machine(&j);
	json_open(&j, "runs", '[');
	for (i = 0; runs && i < o->nthreads; i++) {
		json_run(&j, &runs[i], (uint64_t)2 << 20, (uint64_t)2 << 20,
		    impl);
		mismatches += runs[i].mismatches;
	}
	json_close(&j, ']');
	if (o->components && bench_randomx_components(o, f, &j))
		status = 1;
	json_int(&j, "mismatches", (long long)mismatches);
	json_bool(&j, "ok", !status);
	json_close(&j, '}');
	putchar('\n');
}

int bench_randomx(const bench_options *o, char **argv)
{
	randomx_flags f = flags_for(o);
	rx_job job = { f, NULL, NULL };
	bench_work w;
	bench_result *runs = NULL;
	double cache_s, dataset_s = -1, t0;
	uint8_t first[32];
	char impl[128];
	int threads = 1, status = 0;
	size_t i;
	void *vm;

	for (i = 0; i < o->nthreads; i++)
		if (o->threads[i] > threads)
			threads = o->threads[i];
	describe(impl, sizeof(impl), f);
	if (o->components && !o->json) {
		printf("RandomX %s\n", impl);
		return bench_randomx_components(o, f, NULL);
	}

	t0 = util_now();
	if (!(job.cache = randomx_alloc_cache(f & (RANDOMX_FLAG_LARGE_PAGES |
	    RANDOMX_FLAG_ARGON2 | RANDOMX_FLAG_JIT)))) {
		fprintf(stderr, "benchmark: cannot allocate the RandomX cache"
		    "%s\n", f & RANDOMX_FLAG_LARGE_PAGES ? " in large pages "
		    "(as root: sysctl vm.nr_hugepages=1200)" : "");
		return 1;
	}
	randomx_init_cache(job.cache, key, sizeof(key) - 1);
	cache_s = util_now() - t0;
	if (f & RANDOMX_FLAG_FULL_MEM) {
		if (!(job.dataset = randomx_alloc_dataset(f &
		    RANDOMX_FLAG_LARGE_PAGES))) {
			fprintf(stderr, "benchmark: cannot allocate the RandomX "
			    "dataset (2080 MiB%s)\n", f &
			    RANDOMX_FLAG_LARGE_PAGES ? " in large pages" : "");
			randomx_release_cache(job.cache);
			return 1;
		}
		if (!o->json) {
			printf("building the dataset on %d thread%s ...\n",
			    threads, threads == 1 ? "" : "s");
			fflush(stdout);
		}
		dataset_s = util_build_dataset(randomx_init_dataset,
		    job.dataset, job.cache, randomx_dataset_item_count(), threads);
		if (dataset_s < 0)
			status = 1;
		/* Full-mode VMs read the dataset only: the cache's 256 MiB
		 * go back, as a miner's would (2.2 GB in all, not 2.4). */
		randomx_release_cache(job.cache);
		job.cache = NULL;
	}

	memset(&w, 0, sizeof(w));
	w.ctx = &job;
	w.out_size = RANDOMX_HASH_SIZE;
	w.batch = o->batch;
	w.thread_start = vm_start;
	w.thread_end = vm_end;
	w.hash = rx_hash;
	if (vm_start(&w, &vm)) {
		fprintf(stderr, "benchmark: cannot create a RandomX VM\n");
		status = 1;
		goto out;
	}
	rx_hash(&w, vm, 0, 1, first);
	vm_end(&w, vm);
	if (!o->json) {
		printf("RandomX %s\n", impl);
		printf("cache init %.3f s", cache_s);
		if (dataset_s >= 0)
			printf(", dataset init %.3f s (%.0f items/s on %d "
			    "thread%s)", dataset_s, randomx_dataset_item_count() /
			    dataset_s, threads, threads == 1 ? "" : "s");
		printf("\nhash of nonce 0: ");
		for (i = 0; i < 32; i++)
			printf("%02x", first[i]);
		putchar('\n');
		fflush(stdout);
	}
	if (!(runs = calloc(o->nthreads, sizeof(*runs))))
		bench_out_of_memory();
	/* Per hash and per thread: the VM's 2 MiB scratchpad; the cache
	 * and dataset are shared. */
	if (bench_run_all(&w, o, runs, (uint64_t)2 << 20, (uint64_t)2 << 20,
	    impl))
		status = 1;
	if (o->json)
		json_document(o, f, impl, cache_s, dataset_s, first, runs,
		    status, argv);
out:
	for (i = 0; runs && i < o->nthreads; i++)
		free(runs[i].cpus);
	free(runs);
	randomx_release_dataset(job.dataset);
	randomx_release_cache(job.cache);
	return status;
}
