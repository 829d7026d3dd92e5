/*
 * bench/randomx.c: `benchmark --randomx`: RandomX on the same harness as
 * yespower, or the reference's fixed count of nonces.
 *
 *   benchmark --randomx [--v2] [--full] [--large-pages] [--soft-aes]
 *             [--interpreter] [-t LIST] [-s SECONDS] [-w SECONDS] [--batch K]
 *             [--affinity MODE] [--json] [--components] [--seed S]
 *             [--init Q] [--nonces N]
 *
 * The inputs are those of the reference's randomx-benchmark: the key is
 * the seed (--seed, default 0) as 4 little-endian bytes, the input its
 * 76-byte block template with the nonce little-endian at bytes 39 to 42.
 * It builds the cache (and with --full the 2080 MiB dataset, on --init
 * threads: by default one per CPU this process may use), timing both.
 *
 * Then, by default, it measures each thread count of -t for -s seconds:
 * every thread has a VM of its own and hashes the harness's nonces
 * through the pipeline miners use (calculate_hash_first once, then
 * calculate_hash_next for each nonce, which hashes the next input while
 * finishing the current one), K nonces a call with --batch K; samples
 * are verified against one-at-a-time randomx_calculate_hash.
 *
 * With --nonces N it does what `randomx-benchmark --mine` (or --verify,
 * light mode) does instead: nonces 0 .. N - 1 shared out to the threads
 * of each -t count (default 1) through one counter, each thread's
 * pipeline taking its next nonce before it finishes the current one;
 * every hash folded by XOR into the "Calculated result" that the
 * reference prints for the same options, so that the two can be compared
 * bit for bit, and N over the time it took ("Performance").
 * --components times the parts of a hash instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

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

/* The reference benchmark's block template, a Monero block's hashing
 * blob (versions, timestamp, previous block's hash, the nonce, the
 * transactions' Merkle root and count), its nonce bytes zero. */
static const uint8_t block_template[76] = {
	0x07, 0x07, 0xf7, 0xa4, 0xf0, 0xd6, 0x05, 0xb3, 0x03, 0x26, 0x08,
	0x16, 0xba, 0x3f, 0x10, 0x90, 0x2e, 0x1a, 0x14, 0x5a, 0xc5, 0xfa,
	0xd3, 0xaa, 0x3a, 0xf6, 0xea, 0x44, 0xc1, 0x18, 0x69, 0xdc, 0x4f,
	0x85, 0x3f, 0x00, 0x2b, 0x2e, 0xea, 0x00, 0x00, 0x00, 0x00, 0x77,
	0xb2, 0x06, 0xa0, 0x2c, 0xa5, 0xb1, 0xd4, 0xce, 0x6b, 0xbf, 0xdf,
	0x0a, 0xca, 0xc3, 0x8b, 0xde, 0xd3, 0x4d, 0x2d, 0xcd, 0xee, 0xf9,
	0x5c, 0xd2, 0x0c, 0xef, 0xc1, 0x2f, 0x61, 0xd5, 0x61, 0x09
};

#define NONCE_AT 39

/* The folded results the reference prints as its own for 1000 nonces of
 * seed 0 (src/tests/benchmark.cpp): v1, then v2. */
static const char *const reference_result[2] = {
	"10b649a3f15c7c7f88277812f2e74b337a0f20ce909af09199cccb960771cfa1",
	"b85d79e080b10b6ad28c2e6c993601a1361917dba979e03a0a8f7248aaf4ba52"
};

/* The block template with nonce (its low 32 bits, as the reference's). */
static void make_blob(uint8_t blob[76], uint64_t nonce)
{
	unsigned i;

	memcpy(blob, block_template, sizeof(block_template));
	for (i = 0; i < 4; i++)
		blob[NONCE_AT + i] = (uint8_t)(nonce >> (8 * i));
}

/* A thread's VM and its pipeline: which nonce it has started, if any,
 * and the nonce the harness said comes next. */
typedef struct {
	randomx_vm *vm;
	uint64_t started, following;
	int running, told;
} rx_thread;

static int vm_start(const bench_work *w, void **state)
{
	const rx_job *job = w->ctx;
	rx_thread *t = calloc(1, sizeof(*t));

	if (t && !(t->vm = randomx_create_vm(job->flags, job->cache,
	    job->dataset))) {
		free(t);
		t = NULL;
	}
	*state = t;
	return t ? 0 : -1;
}

static void vm_end(const bench_work *w, void *state)
{
	rx_thread *t = state;

	(void)w;
	randomx_destroy_vm(t->vm);
	free(t);
}

static void rx_ahead(const bench_work *w, void *state, uint64_t nonce)
{
	rx_thread *t = state;

	(void)w;
	t->following = nonce;
	t->told = 1;
}

/*
 * count nonces from nonce through the pipeline, continuing it if it has
 * already started nonce, and leaving the nonce the harness said comes
 * next started; a lone hash with no pipeline around it is one
 * randomx_calculate_hash, the one-at-a-time answer.
 */
static int rx_hash(const bench_work *w, void *state, uint64_t nonce,
    unsigned count, uint8_t *out)
{
	rx_thread *t = state;
	uint8_t blob[76];
	uint64_t next;
	unsigned i;
	int more;

	(void)w;
	if (count == 1 && !t->told && !t->running) {
		make_blob(blob, nonce);
		randomx_calculate_hash(t->vm, blob, sizeof(blob), out);
		return 0;
	}
	if (!t->running || t->started != nonce) {
		make_blob(blob, nonce);
		randomx_calculate_hash_first(t->vm, blob, sizeof(blob));
	}
	for (i = 0; i < count; i++) {
		more = i + 1 < count || t->told;
		next = i + 1 < count ? nonce + i + 1 : t->following;
		if (more) {
			make_blob(blob, next);
			randomx_calculate_hash_next(t->vm, blob, sizeof(blob),
			    out + i * RANDOMX_HASH_SIZE);
		} else {
			randomx_calculate_hash_last(t->vm,
			    out + i * RANDOMX_HASH_SIZE);
		}
	}
	t->running = t->told;
	t->started = t->following;
	t->told = 0;
	return 0;
}

/* ---- --nonces: the reference's count of nonces, folded ---- */

typedef struct {
	uint32_t nonces;		/* hash 0 .. nonces - 1 */
	uint32_t next;			/* the counter */
	uint8_t fold[RANDOMX_HASH_SIZE];	/* XOR of every hash */
	int threads_seen, pin_failed;
} nonce_run;

/*
 * One thread's share: take a nonce, start it; then while it is below the
 * count, take the next (whatever its value) and finish the current one
 * while starting that.  The nonce taken last is started and left, as the
 * reference's threads leave theirs.
 */
static void mine(nonce_run *r, randomx_vm *vm)
{
	uint8_t blob[76], h[RANDOMX_HASH_SIZE], fold[RANDOMX_HASH_SIZE];
	uint32_t nonce = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
	uint32_t following;
	unsigned i;

	memset(fold, 0, sizeof(fold));
	make_blob(blob, nonce);
	randomx_calculate_hash_first(vm, blob, sizeof(blob));
	while (nonce < r->nonces) {
		following = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		make_blob(blob, following);
		randomx_calculate_hash_next(vm, blob, sizeof(blob), h);
		for (i = 0; i < RANDOMX_HASH_SIZE; i++)
			fold[i] ^= h[i];
		nonce = following;
	}
#pragma omp critical
	for (i = 0; i < RANDOMX_HASH_SIZE; i++)
		r->fold[i] ^= fold[i];
}

/* Hex of the 32 bytes p into buf (65 bytes). */
static void to_hex(char *buf, const uint8_t *p)
{
	unsigned i;

	for (i = 0; i < RANDOMX_HASH_SIZE; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
}

/*
 * Every thread count of o in turn: VMs made first (as the reference
 * does), then the clock around the threads' whole work.  Prints the
 * reference's lines; exit status 1 if a VM could not be made, a thread
 * not started or pinned, or the published result for 1000 nonces of seed
 * 0 is not met.
 */
static int run_nonces(const bench_options *o, const rx_job *job)
{
	int v2 = (job->flags & RANDOMX_FLAG_V2) != 0, status = 0;
	randomx_vm **vm;
	char hex[2 * RANDOMX_HASH_SIZE + 1];
	size_t k;

	for (k = 0; k < o->nthreads; k++) {
		int threads = o->threads[k], t, made = 0;
		nonce_run r;
		double t0, cpu0, seconds, cpu;

		memset(&r, 0, sizeof(r));
		r.nonces = (uint32_t)o->rx_nonces;
		if (!(vm = calloc((size_t)threads, sizeof(*vm))))
			bench_out_of_memory();
		while (made < threads && (vm[made] = randomx_create_vm(
		    job->flags, job->cache, job->dataset)))
			made++;
		if (made < threads) {
			fprintf(stderr, "benchmark: cannot create RandomX VM %d "
			    "of %d\n", made + 1, threads);
			status = 1;
			goto next;
		}
		printf("Running benchmark (%lu nonces) on %d thread%s ...\n",
		    o->rx_nonces, threads, threads == 1 ? "" : "s");
		fflush(stdout);
		t0 = util_now();
		cpu0 = util_clock(CLOCK_PROCESS_CPUTIME_ID);
#pragma omp parallel num_threads(threads)
		{
			int me = omp_get_thread_num();

#pragma omp single
			r.threads_seen = omp_get_num_threads();
			if (o->ncpus &&
			    bench_pin_thread(o->cpus[me % o->ncpus]))
				__atomic_store_n(&r.pin_failed, 1,
				    __ATOMIC_RELAXED);
			mine(&r, vm[me]);
		}
		seconds = util_now() - t0;
		cpu = util_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
		if (r.threads_seen != threads || r.pin_failed) {
			fprintf(stderr, "benchmark: %d of %d threads ran%s\n",
			    r.threads_seen, threads, r.pin_failed ?
			    ", and pinning failed" : "");
			status = 1;
		}
		to_hex(hex, r.fold);
		printf("Calculated result: %s\n", hex);
		if (r.nonces == 1000 && o->rx_seed == 0) {
			printf("Reference result:  %s\n", reference_result[v2]);
			if (strcmp(hex, reference_result[v2])) {
				fprintf(stderr, "benchmark: MISMATCH: the result "
				    "differs from the reference's\n");
				status = 1;
			}
		}
		if (job->flags & RANDOMX_FLAG_FULL_MEM)
			printf("Performance: %g hashes per second\n",
			    r.nonces / seconds);
		else
			printf("Performance: %g ms per hash\n",
			    1000 * seconds / r.nonces);
		/* CPU time as well: other work on a shared machine inflates
		 * the wall time only. */
		printf("%lu hashes in %.3f s: %.1f H/s real, %.1f H/s virtual "
		    "(CPU time) on %d thread%s\n", o->rx_nonces, seconds,
		    r.nonces / seconds, cpu > 0 ? r.nonces / cpu : 0, threads,
		    threads == 1 ? "" : "s");
		fflush(stdout);
next:
		for (t = 0; t < made; t++)
			randomx_destroy_vm(vm[t]);
		free(vm);
	}
	return status;
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
	json_int(&j, "seed", (int32_t)o->rx_seed);
	json_int(&j, "dataset_init_threads", f & RANDOMX_FLAG_FULL_MEM ?
	    o->rx_init : 0);
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
	uint8_t first[32], key[4];
	char impl[128];
	int threads = o->rx_init, status = 0;
	size_t i;
	void *vm;

	/* The reference's key: the seed's 4 bytes, little-endian. */
	for (i = 0; i < 4; i++)
		key[i] = (uint8_t)(o->rx_seed >> (8 * i));
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
	randomx_init_cache(job.cache, key, sizeof(key));
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
	w.ahead = rx_ahead;
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
	if (o->rx_nonces) {
		status |= run_nonces(o, &job);
		goto out;
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
