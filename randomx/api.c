/*
 * api.c: randomx.h's functions: the cache, dataset and VM objects, their
 * memory, and the hash pipeline (specification, chapter 2):
 *	S = BLAKE2b-512(input); scratchpad = AesGenerator1R(S) (S advances);
 *	8 times: program from AesGenerator4R(S), run it, S = BLAKE2b-512 of
 *	the register file (not after the last); then the scratchpad's
 *	AesHash1R replaces the register file's last 64 bytes and the hash is
 *	BLAKE2b-256 of the 256-byte register file.
 */
#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "randomx/randomx.h"
#include "randomx/aes.h"
#include "randomx/dataset.h"
#include "randomx/jit.h"
#include "randomx/vm.h"
#include "blake2b.h"
#include "sysendian.h"
#include "region.h"


/*
 * With small pages the scratchpad gets one page more, never touched (it
 * costs address space only).  qemu-user 7.2 reads 16 bytes for CVTDQ2PD's
 * 8-byte memory operand, so the JIT's F and E loads from the scratchpad's
 * last 8 bytes would fault under it without the page; check-randomx-qemu
 * runs the JIT under qemu as the CPUs this machine is not.  With huge pages
 * the page would cost a whole huge page, and qemu's runs use small ones.
 */
#define SCRATCHPAD_SLACK 4096

/*
 * Memory: libyespower's regions (yespower-platform.c).  With `large`, 2 MiB
 * pages from the system's reserve (MAP_HUGETLB) or nothing, as the
 * reference's large-page allocator; otherwise normal pages, on a 2 MiB
 * boundary and marked for transparent huge pages when at least 2 MiB.
 * keep: the contents must survive a fork (the cache and the dataset: in a
 * child they stay the parent's huge pages, read-only, until written again,
 * see pages_writable); without it (a scratchpad, rewritten by every hash)
 * a child gets fresh pages there, copying nothing.
 */
static int pages_alloc(yespower_region_t *pg, size_t size, int large,
    int keep)
{
	return pow_region_alloc_pages(pg, size, large ?
	    POW_PAGES_HUGE : POW_PAGES_SMALL, keep);
}

/*
 * Before writing a cache's or dataset's memory: in a child of fork that
 * still shares the parent's huge pages, it gets pages of its own first
 * (writing the shared ones would need the huge page pool, and kill the
 * child with SIGBUS when it is empty).  0, or -1 if there is no memory.
 */
static int pages_writable(yespower_region_t *pg)
{
	return pow_region_writable(pg);
}

static void pages_free(yespower_region_t *pg)
{
	pow_region_free(pg);
}

#if RX_HAVE_JIT
/*
 * A cache's compiled SuperscalarHash, shared with the light JIT VMs that
 * run it.  It is never written again once compiled: every initialization
 * of the cache compiles a fresh one and publishes it (ss_ref.cur), so a
 * VM hashing while another thread initializes the cache again keeps
 * running intact code (the former key's: its hash is then the former or
 * a mix, never a crash).  refs counts the cache's own reference and each
 * VM's; the last one to let go unmaps the code, so memory stays bounded
 * however often the cache is initialized (one block per VM at most).
 * The code is written, then made executable once (rx_ss_jit_new(1)):
 * never writable and executable at once, whatever the flags, and no
 * protection change per hash.
 */
typedef struct ss_code {
	rx_ss_jit *jit;
	unsigned long refs;
} ss_code;

static void ss_code_put(ss_code *sc)
{
	if (sc && __atomic_sub_fetch(&sc->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		rx_ss_jit_free(sc->jit);
		free(sc);
	}
}
#endif

struct randomx_cache {
	rx_cache_state state;
	yespower_region_t pages;
	rx_argon2_impl impl;
	int initialized;
	uint64_t generation;		/* this initialization's number */
	uint8_t key_digest[64];		/* of what the cache is made from */
#if RX_HAVE_JIT
	int jit;			/* RANDOMX_FLAG_JIT: compile programs */
	/* The compiled programs of this initialization (NULL: none, the
	 * interpreter serves); replaced under ss_lock, read atomically. */
	ss_code *ss_cur;
	pthread_mutex_t ss_lock;
#endif
};

struct randomx_dataset {
	yespower_region_t pages;
};

/* _first / _next / _last: whether a hash is pending, and its input's fate. */
enum batch_state { BATCH_NONE, BATCH_PENDING, BATCH_BAD };

struct randomx_vm {
	rx_vm_state st;
	yespower_region_t scratchpad;
	randomx_cache *cache;		/* light mode */
	randomx_dataset *dataset;	/* full mode */
	int full;
	enum batch_state batch;
	uint8_t seed[64];		/* the pending hash's generator state */
#if RX_HAVE_JIT
	rx_jit_vm *jit;			/* RANDOMX_FLAG_JIT: the compiler */
	int secure;
	/* light mode: the cache's compiled programs this VM holds */
	ss_code *ss_held;
	/* light mode on a cache without compiled programs: the VM's own */
	rx_ss_jit *own_ss;
	uint64_t own_ss_generation;	/* the cache initialization of own_ss */
	int own_ss_ok;
#endif
};

randomx_flags randomx_get_flags(void)
{
	int flags = RANDOMX_FLAG_DEFAULT;

	if (rx_aes_hard())
		flags |= RANDOMX_FLAG_HARD_AES;
	if (rx_argon2_impl_available(RX_ARGON2_AVX2))
		flags |= RANDOMX_FLAG_ARGON2_AVX2;
	if (rx_argon2_impl_available(RX_ARGON2_SSSE3))
		flags |= RANDOMX_FLAG_ARGON2_SSSE3;
#if RX_HAVE_JIT
	flags |= RANDOMX_FLAG_JIT;
#endif
	return (randomx_flags)flags;
}

/* RANDOMX_FLAG_JIT where this build has no JIT: refused, as the reference. */
static int jit_refused(randomx_flags flags)
{
	return !RX_HAVE_JIT && (flags & RANDOMX_FLAG_JIT);
}

randomx_cache *randomx_alloc_cache(randomx_flags flags)
{
	rx_argon2_impl impl = RX_ARGON2_PORTABLE;
	randomx_cache *cache;

	if (jit_refused(flags))
		return NULL;
	/* AVX2 wins when both are set, as in the reference. */
	if (flags & RANDOMX_FLAG_ARGON2_AVX2)
		impl = rx_argon2_impl_avx2();
	else if (flags & RANDOMX_FLAG_ARGON2_SSSE3)
		impl = RX_ARGON2_SSSE3;
	if (!rx_argon2_impl_available(impl))
		return NULL;
	cache = calloc(1, sizeof(*cache));
	if (!cache)
		return NULL;
	if (pages_alloc(&cache->pages, RX_CACHE_BYTES,
	    (flags & RANDOMX_FLAG_LARGE_PAGES) != 0, 1)) {
		free(cache);
		return NULL;
	}
	cache->state.memory = cache->pages.aligned;
	cache->impl = impl;
#if RX_HAVE_JIT
	cache->jit = (flags & RANDOMX_FLAG_JIT) != 0;
	if (pthread_mutex_init(&cache->ss_lock, NULL)) {
		pages_free(&cache->pages);
		free(cache);
		return NULL;
	}
#endif
	return cache;
}

#if RX_HAVE_JIT
/*
 * Compile the cache's programs into fresh code and make it the current
 * one.  Without compiled programs (no memory) the interpreter serves, as
 * without JIT.
 */
static void ss_publish(randomx_cache *cache)
{
	ss_code *sc = malloc(sizeof(*sc)), *old;

	if (sc && !(sc->jit = rx_ss_jit_new(1))) {
		free(sc);
		sc = NULL;
	}
	if (sc && rx_ss_jit_compile(sc->jit, &cache->state)) {
		rx_ss_jit_free(sc->jit);
		free(sc);
		sc = NULL;
	}
	if (sc)
		sc->refs = 1;
	pthread_mutex_lock(&cache->ss_lock);
	old = cache->ss_cur;
	__atomic_store_n(&cache->ss_cur, sc, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cache->ss_lock);
	ss_code_put(old);
}

/*
 * A counted reference to the cache's current compiled programs, or NULL.
 * The lock keeps ss_publish from letting go of them between the load and
 * the count.
 */
static ss_code *ss_get(randomx_cache *cache)
{
	ss_code *sc;

	pthread_mutex_lock(&cache->ss_lock);
	sc = cache->ss_cur;
	if (sc)
		__atomic_add_fetch(&sc->refs, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cache->ss_lock);
	return sc;
}
#endif

/*
 * Every initialization in the process gets a number no other had, so a
 * VM's own compiled programs (light_ss) are never taken for those of a
 * cache that was released and another allocated at its address.
 */
static uint64_t cache_initializations;

/*
 * key_digest(digest, key, keySize): BLAKE2b-512 of what a cache is made
 * from (rx_cache_init): the key's first max(keySize mod 2^32,
 * min(keySize, RX_KEY_MAX_BYTES)) bytes, keyed with those two lengths.
 * Two keys with the same digest make the same cache, so initializing
 * again is skipped; a key over 4 GiB is not read past the bytes that
 * count.
 */
static void key_digest(uint8_t digest[64], const void *key, size_t keySize)
{
	uint64_t argon_len = (uint32_t)keySize;
	uint64_t gen_len = keySize < RX_KEY_MAX_BYTES ? keySize :
	    RX_KEY_MAX_BYTES;
	uint8_t lens[16];

	le64enc(&lens[0], argon_len);
	le64enc(&lens[8], gen_len);
	pow_blake2b(digest, 64, lens, sizeof(lens), key,
	    (size_t)(argon_len > gen_len ? argon_len : gen_len));
}

void randomx_init_cache(randomx_cache *cache, const void *key,
    size_t keySize)
{
	uint8_t digest[64];

	if (!cache)
		return;
	if (!key && keySize) {
		cache->initialized = 0;
		return;
	}
	key_digest(digest, key, keySize);
	if (cache->initialized &&
	    !memcmp(digest, cache->key_digest, sizeof(digest)))
		return;
	if (pages_writable(&cache->pages) ||
	    rx_cache_init(&cache->state, cache->pages.aligned, key, keySize,
	    cache->impl)) {
		/* Its VMs give 0xff rather than the former key's hashes. */
		cache->initialized = 0;
		return;
	}
	memcpy(cache->key_digest, digest, sizeof(digest));
	cache->initialized = 1;
	__atomic_store_n(&cache->generation, __atomic_add_fetch(
	    &cache_initializations, 1, __ATOMIC_RELAXED), __ATOMIC_RELEASE);
#if RX_HAVE_JIT
	if (cache->jit)
		ss_publish(cache);
#endif
}

void *randomx_get_cache_memory(randomx_cache *cache)
{
	/* The caller may write it: in a child of fork, pages of its own. */
	if (!cache || pages_writable(&cache->pages))
		return NULL;
	return cache->pages.aligned;
}

void randomx_release_cache(randomx_cache *cache)
{
	if (!cache)
		return;
#if RX_HAVE_JIT
	ss_code_put(cache->ss_cur);
	pthread_mutex_destroy(&cache->ss_lock);
#endif
	pages_free(&cache->pages);
	free(cache);
}

randomx_dataset *randomx_alloc_dataset(randomx_flags flags)
{
	randomx_dataset *dataset;

	if (RX_DATASET_BYTES > SIZE_MAX)
		return NULL;
	dataset = calloc(1, sizeof(*dataset));
	if (!dataset)
		return NULL;
	if (pages_alloc(&dataset->pages, (size_t)RX_DATASET_BYTES,
	    (flags & RANDOMX_FLAG_LARGE_PAGES) != 0, 1)) {
		free(dataset);
		return NULL;
	}
	return dataset;
}

unsigned long randomx_dataset_item_count(void)
{
	return (unsigned long)RX_DATASET_ITEMS;
}

void randomx_init_dataset(randomx_dataset *dataset, randomx_cache *cache,
    unsigned long startItem, unsigned long itemCount)
{
	if (!dataset || !cache || !cache->initialized ||
	    startItem > RX_DATASET_ITEMS ||
	    itemCount > RX_DATASET_ITEMS - startItem ||
	    pages_writable(&dataset->pages))
		return;
#if RX_HAVE_JIT
	if (cache->jit) {
		ss_code *sc = ss_get(cache);

		if (sc) {
			rx_ss_jit_dataset_init(sc->jit, &cache->state,
			    dataset->pages.aligned, startItem, itemCount);
			ss_code_put(sc);
			return;
		}
	}
#endif
	rx_dataset_init(&cache->state, dataset->pages.aligned, startItem,
	    itemCount);
}

void *randomx_get_dataset_memory(randomx_dataset *dataset)
{
	/* The caller may write it: in a child of fork, pages of its own. */
	if (!dataset || pages_writable(&dataset->pages))
		return NULL;
	return dataset->pages.aligned;
}

void randomx_release_dataset(randomx_dataset *dataset)
{
	if (!dataset)
		return;
	pages_free(&dataset->pages);
	free(dataset);
}

randomx_vm *randomx_create_vm(randomx_flags flags, randomx_cache *cache,
    randomx_dataset *dataset)
{
	int full = (flags & RANDOMX_FLAG_FULL_MEM) != 0;
	int large = (flags & RANDOMX_FLAG_LARGE_PAGES) != 0;
	const rx_aes_impl *aes = &rx_aes_soft;
	randomx_vm *vm;

	if (jit_refused(flags))
		return NULL;
	if (flags & RANDOMX_FLAG_HARD_AES) {
		aes = rx_aes_hard();
		if (!aes)
			return NULL;
	}
	if (full ? !dataset : (!cache || !cache->initialized))
		return NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	if (pages_alloc(&vm->scratchpad, RX_SCRATCHPAD_L3 +
	    (large ? 0 : SCRATCHPAD_SLACK), large, 0)) {
		free(vm);
		return NULL;
	}
#if RX_HAVE_JIT
	vm->secure = (flags & RANDOMX_FLAG_SECURE) != 0;
	if (flags & RANDOMX_FLAG_JIT) {
		vm->jit = rx_jit_vm_new(vm->secure);
		if (!vm->jit) {
			pages_free(&vm->scratchpad);
			free(vm);
			return NULL;
		}
	}
#endif
	vm->st.scratchpad = vm->scratchpad.base;
	vm->st.aes = aes;
	vm->st.v2 = (flags & RANDOMX_FLAG_V2) != 0;
	vm->full = full;
	if (full) {
		vm->dataset = dataset;
		vm->st.dataset = dataset->pages.aligned;
	} else {
		vm->cache = cache;
		vm->st.cache = &cache->state;
	}
	vm->batch = BATCH_NONE;
	return vm;
}

void randomx_vm_set_cache(randomx_vm *machine, randomx_cache *cache)
{
	if (!machine || machine->full || !cache || !cache->initialized)
		return;
	machine->cache = cache;
	machine->st.cache = &cache->state;
}

void randomx_vm_set_dataset(randomx_vm *machine, randomx_dataset *dataset)
{
	if (!machine || !machine->full || !dataset)
		return;
	machine->dataset = dataset;
	machine->st.dataset = dataset->pages.aligned;
}

void randomx_destroy_vm(randomx_vm *machine)
{
	if (!machine)
		return;
#if RX_HAVE_JIT
	rx_jit_vm_free(machine->jit);
	rx_ss_jit_free(machine->own_ss);
	ss_code_put(machine->ss_held);
#endif
	pages_free(&machine->scratchpad);
	free(machine);
}

const rx_cache_state *rx_cache_state_of(const randomx_cache *cache)
{
	return &cache->state;
}

void rx_vm_set_item_trace(randomx_vm *vm,
    void (*fn)(void *ctx, uint64_t item_number), void *ctx)
{
	vm->st.item_trace = fn;
	vm->st.item_trace_ctx = ctx;
}

/*
 * The scratchpad, usable: in a child of fork where there was no memory to
 * replace its huge pages, it was unmapped (lost), and is allocated again
 * here in normal pages.  0, or -1 if that fails too.
 */
static int scratchpad_ok(randomx_vm *vm)
{
	if (!pow_region_lost(&vm->scratchpad))
		return 0;
	pow_region_init(&vm->scratchpad);
	vm->st.scratchpad = NULL;
	if (vm->batch == BATCH_PENDING)
		vm->batch = BATCH_BAD;	/* its scratchpad is gone */
	if (pages_alloc(&vm->scratchpad, RX_SCRATCHPAD_L3 + SCRATCHPAD_SLACK,
	    0, 0))
		return -1;
	vm->st.scratchpad = vm->scratchpad.base;
	return 0;
}

/* Whether the VM has what it reads dataset items from, and a scratchpad. */
static int vm_ready(randomx_vm *vm)
{
	if (scratchpad_ok(vm))
		return 0;
	return vm->full ? vm->st.dataset != NULL :
	    (vm->cache != NULL && vm->cache->initialized);
}

/*
 * Around a hash: the caller's floating-point environment is saved and
 * switched to non-stop mode (inexact results are the rule here, and the
 * caller's enabled traps must not fire), then restored, exception flags
 * included, so the caller sees nothing of it.
 */
static void fp_enter(fenv_t *env)
{
	feholdexcept(env);
}

static void fp_leave(const fenv_t *env)
{
	fesetenv(env);
}

static void fill_ff(void *output)
{
	if (output)
		memset(output, 0xff, RANDOMX_HASH_SIZE);
}

/* Steps 2 to 4: the seed of input, and the scratchpad filled from it. */
static void start_hash(randomx_vm *vm, const void *input, size_t size)
{
	pow_blake2b(vm->seed, 64, NULL, 0, input, size);
	vm->st.aes->fill1r(vm->seed, vm->st.scratchpad, RX_SCRATCHPAD_L3);
}

#if RX_HAVE_JIT
/*
 * The compiled SuperscalarHash a light JIT VM computes its items with:
 * its cache's, or else its own, compiled again when the cache is another
 * or was initialized again since; NULL (the interpreted items) if that
 * fails.
 */
static const rx_ss_jit *light_ss(randomx_vm *vm)
{
	randomx_cache *c = vm->cache;
	uint64_t generation;

	if (c->jit) {
		/* The code held stays mapped, so comparing its address
		 * with the current one's is sound (it cannot be reused). */
		ss_code *cur = __atomic_load_n(&c->ss_cur, __ATOMIC_ACQUIRE);

		if (cur != vm->ss_held) {
			ss_code_put(vm->ss_held);
			vm->ss_held = ss_get(c);
		}
		return vm->ss_held ? vm->ss_held->jit : NULL;
	}
	generation = __atomic_load_n(&c->generation, __ATOMIC_ACQUIRE);
	if (vm->own_ss && vm->own_ss_ok && vm->own_ss_generation == generation)
		return vm->own_ss;
	if (!vm->own_ss && !(vm->own_ss = rx_ss_jit_new(1)))
		return NULL;
	vm->own_ss_ok = !rx_ss_jit_compile(vm->own_ss, &c->state);
	vm->own_ss_generation = generation;
	return vm->own_ss_ok ? vm->own_ss : NULL;
}
#endif

/* One program from vm->seed: compiled with RANDOMX_FLAG_JIT. */
static void run_program(randomx_vm *vm)
{
#if RX_HAVE_JIT
	if (vm->jit) {
		rx_jit_vm_run_program(vm->jit, &vm->st, vm->seed,
		    vm->full ? NULL : light_ss(vm));
		return;
	}
#endif
	rx_vm_run_program(&vm->st, vm->seed);
}

/* Steps 6 to 11: the chain of programs, from vm->seed. */
static void run_programs(randomx_vm *vm)
{
	uint8_t regfile[256];
	unsigned i;

	vm->st.fprc = 0;
	for (i = 0; i < RX_PROGRAM_COUNT; i++) {
		run_program(vm);
		if (i + 1 < RX_PROGRAM_COUNT) {
			rx_vm_regfile_bytes(&vm->st.regs, regfile);
			pow_blake2b(vm->seed, 64, NULL, 0, regfile,
			    sizeof(regfile));
		}
	}
}

/* Steps 13 and 14, given the scratchpad's AesHash1R. */
static void finish_hash(randomx_vm *vm, const uint8_t fingerprint[64],
    void *output)
{
	uint8_t regfile[256], out[RANDOMX_HASH_SIZE];
	unsigned i;

	for (i = 0; i < 8; i++)
		vm->st.regs.a[i] = le64dec(fingerprint + 8 * i);
	rx_vm_regfile_bytes(&vm->st.regs, regfile);
	pow_blake2b(out, sizeof(out), NULL, 0, regfile, sizeof(regfile));
	if (output)
		memcpy(output, out, sizeof(out));
}

void randomx_calculate_hash(randomx_vm *machine, const void *input,
    size_t inputSize, void *output)
{
	uint8_t fingerprint[64];
	fenv_t env;

	if (!machine || !output)
		return;
	if ((!input && inputSize) || !vm_ready(machine)) {
		fill_ff(output);
		return;
	}
	/* This hash reuses the scratchpad: a pending batch hash is lost. */
	if (machine->batch != BATCH_NONE)
		machine->batch = BATCH_BAD;
	fp_enter(&env);
	start_hash(machine, input, inputSize);
	run_programs(machine);
	machine->st.aes->hash1r(machine->st.scratchpad, RX_SCRATCHPAD_L3,
	    fingerprint);
	finish_hash(machine, fingerprint, output);
	fp_leave(&env);
}

void randomx_calculate_hash_first(randomx_vm *machine, const void *input,
    size_t inputSize)
{
	if (!machine)
		return;
	if ((!input && inputSize) || scratchpad_ok(machine)) {
		machine->batch = BATCH_BAD;
		return;
	}
	start_hash(machine, input, inputSize);
	machine->batch = BATCH_PENDING;
}

void randomx_calculate_hash_next(randomx_vm *machine, const void *nextInput,
    size_t nextInputSize, void *output)
{
	int next_ok = nextInput || !nextInputSize;
	uint8_t fingerprint[64];
	fenv_t env;

	if (!machine)
		return;
	if (machine->batch != BATCH_PENDING || !vm_ready(machine)) {
		fill_ff(output);
		randomx_calculate_hash_first(machine, nextInput,
		    nextInputSize);
		return;
	}
	fp_enter(&env);
	run_programs(machine);
	if (next_ok) {
		/* Hash this scratchpad while refilling it for the next one. */
		pow_blake2b(machine->seed, 64, NULL, 0, nextInput,
		    nextInputSize);
		machine->st.aes->hash_fill1r(machine->st.scratchpad,
		    RX_SCRATCHPAD_L3, fingerprint, machine->seed);
		machine->batch = BATCH_PENDING;
	} else {
		machine->st.aes->hash1r(machine->st.scratchpad,
		    RX_SCRATCHPAD_L3, fingerprint);
		machine->batch = BATCH_BAD;
	}
	finish_hash(machine, fingerprint, output);
	fp_leave(&env);
}

void randomx_calculate_hash_last(randomx_vm *machine, void *output)
{
	uint8_t fingerprint[64];
	fenv_t env;

	if (!machine)
		return;
	if (machine->batch != BATCH_PENDING || !vm_ready(machine)) {
		machine->batch = BATCH_NONE;
		fill_ff(output);
		return;
	}
	fp_enter(&env);
	run_programs(machine);
	machine->st.aes->hash1r(machine->st.scratchpad, RX_SCRATCHPAD_L3,
	    fingerprint);
	finish_hash(machine, fingerprint, output);
	machine->batch = BATCH_NONE;
	fp_leave(&env);
}

void randomx_calculate_commitment(const void *input, size_t inputSize,
    const void *hash_in, void *com_out)
{
	pow_blake2b_ctx ctx;
	uint8_t out[RANDOMX_HASH_SIZE];

	if (!com_out)
		return;
	if ((!input && inputSize) || !hash_in) {
		fill_ff(com_out);
		return;
	}
	pow_blake2b_init(&ctx, RANDOMX_HASH_SIZE, NULL, 0);
	pow_blake2b_update(&ctx, input, inputSize);
	pow_blake2b_update(&ctx, hash_in, RANDOMX_HASH_SIZE);
	pow_blake2b_final(&ctx, out);
	memcpy(com_out, out, sizeof(out));
}
