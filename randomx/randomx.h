/*
 * randomx.h: the RandomX proof of work (tevador's specification, v1 and
 * v2), behind the C API of the reference implementation: the same names,
 * signatures, flag values and RANDOMX_HASH_SIZE, so a program written for
 * the reference's randomx.h compiles and links against this library
 * unchanged.  This file is this library's own statement of that API.
 *
 * Use:
 *	flags = randomx_get_flags();			CPU-dependent choices
 *	cache = randomx_alloc_cache(flags);
 *	randomx_init_cache(cache, key, keySize);	256 MiB, about a second
 *	vm = randomx_create_vm(flags, cache, NULL);	light mode
 *	randomx_calculate_hash(vm, input, inputSize, hash);
 * or, for the fast (full) mode, a 2080 MiB dataset built from the cache:
 *	dataset = randomx_alloc_dataset(flags);
 *	randomx_init_dataset(dataset, cache, start, count);	per thread
 *	vm = randomx_create_vm(flags | RANDOMX_FLAG_FULL_MEM, NULL, dataset);
 * Both modes give the same hashes.  RANDOMX_FLAG_V2 selects RandomX v2.
 *
 * Thread safety:
 * - A VM is used by one thread at a time: hashing writes its scratchpad and
 *   registers.  Give each thread its own VM.
 * - Caches and datasets are read-only while VMs hash with them, so any
 *   number of VMs on any threads may share one.  randomx_release_cache
 *   and randomx_release_dataset must not run while a VM uses the object;
 *   randomx_init_dataset may run on several threads at once for disjoint
 *   item ranges of one dataset (reading the cache meanwhile is fine).
 * - randomx_init_cache while VMs hash with the cache (a node re-seeding a
 *   cache that other threads still verify with) is safe but not exact:
 *   a hash that overlaps the initialization is unspecified (the former
 *   key's, or bytes that neither key gives, since the cache's memory is
 *   rewritten under it); hashes begun after it returns are the new key's.
 *   It never crashes the process: compiled code a VM runs is never
 *   rewritten or unmapped under it.  The same holds for
 *   randomx_init_dataset over items that VMs read.
 * - The other functions keep no shared state and may be called from any
 *   thread.
 * - Hashing changes the floating-point rounding mode while it runs and
 *   restores the caller's whole floating-point environment (mode, enabled
 *   traps, exception flags) before every function here returns (the
 *   reference leaves the mode changed after the batch functions; this
 *   library does not).
 *
 * Misuse the reference leaves undefined (asserts or crashes) is safe here,
 * and documented per function: NULL pointers and invalid arguments make a
 * function do nothing or return NULL, and a hash that cannot be computed
 * is written as 32 0xff bytes (it meets no target).  Flag bits no
 * version of the API defines (256 and up) are ignored, as the reference
 * ignores them: a caller built against a newer header gets what the flags
 * this library knows give.
 */
#ifndef RANDOMX_H
#define RANDOMX_H

#include <stddef.h>
#include <stdint.h>

#define RANDOMX_HASH_SIZE 32
#define RANDOMX_DATASET_ITEM_SIZE 64

#ifndef RANDOMX_EXPORT
#define RANDOMX_EXPORT
#endif

typedef enum {
	RANDOMX_FLAG_DEFAULT = 0,
	RANDOMX_FLAG_LARGE_PAGES = 1,	/* 2 MiB pages; fail if there are none */
	RANDOMX_FLAG_HARD_AES = 2,	/* AES-NI, ARMv8 AES */
	RANDOMX_FLAG_FULL_MEM = 4,	/* a VM on the full dataset */
	RANDOMX_FLAG_JIT = 8,		/* x86-64, AArch64; else refused */
	RANDOMX_FLAG_SECURE = 16,	/* JIT code: no writable alias */
	RANDOMX_FLAG_ARGON2_SSSE3 = 32,
	RANDOMX_FLAG_ARGON2_AVX2 = 64,
	RANDOMX_FLAG_ARGON2 = 96,
	RANDOMX_FLAG_V2 = 128		/* RandomX v2 */
} randomx_flags;

typedef struct randomx_dataset randomx_dataset;
typedef struct randomx_cache randomx_cache;
typedef struct randomx_vm randomx_vm;

#if defined(__cplusplus)

/* C++ will not combine enumerators into the enum type by itself. */
#ifdef __cpp_constexpr
#define RANDOMX_CONSTEXPR_ constexpr
#else
#define RANDOMX_CONSTEXPR_
#endif
inline RANDOMX_CONSTEXPR_ randomx_flags operator|(randomx_flags a,
    randomx_flags b)
{
	return static_cast<randomx_flags>(static_cast<int>(a) |
	    static_cast<int>(b));
}
inline RANDOMX_CONSTEXPR_ randomx_flags operator&(randomx_flags a,
    randomx_flags b)
{
	return static_cast<randomx_flags>(static_cast<int>(a) &
	    static_cast<int>(b));
}
inline randomx_flags &operator|=(randomx_flags &a, randomx_flags b)
{
	return a = a | b;
}

extern "C" {
#endif

/*
 * randomx_get_flags():
 * The flags this CPU and this build do best with: RANDOMX_FLAG_HARD_AES
 * where the CPU has AES-NI or ARMv8's AES, RANDOMX_FLAG_ARGON2_AVX2
 * and/or RANDOMX_FLAG_ARGON2_SSSE3 where those Argon2d cores run, and
 * RANDOMX_FLAG_JIT on x86-64 and on little-endian AArch64 Linux (the JIT
 * compilers of randomx/jit-*.c; not on other platforms, which
 * interpret).  Never LARGE_PAGES, FULL_MEM,
 * SECURE or V2, which the caller adds.
 */
RANDOMX_EXPORT randomx_flags randomx_get_flags(void);

/*
 * randomx_alloc_cache(flags):
 * A cache structure and its 256 MiB of memory, not yet initialized.
 * Flags used: RANDOMX_FLAG_LARGE_PAGES (2 MiB pages, or NULL if the system
 * has none to give), RANDOMX_FLAG_ARGON2_AVX2 or else
 * RANDOMX_FLAG_ARGON2_SSSE3 (that Argon2d core for randomx_init_cache;
 * otherwise the portable one), RANDOMX_FLAG_JIT (randomx_init_cache also
 * compiles the SuperscalarHash programs, which randomx_init_dataset and
 * light-mode JIT VMs then run; that code is written once per
 * initialization, then made executable, so it is never writable and
 * executable at once, with or without RANDOMX_FLAG_SECURE).  Other flags
 * are ignored, unknown bits too.  Returns NULL if the memory cannot be
 * allocated, if RANDOMX_FLAG_JIT is set where there is no JIT (as the
 * reference there), or if the Argon2d core asked for is not built in or
 * this CPU cannot run it.
 */
RANDOMX_EXPORT randomx_cache *randomx_alloc_cache(randomx_flags flags);

/*
 * randomx_init_cache(cache, key, keySize):
 * Initialize the cache for key[0 .. keySize - 1] (the specification
 * allows 0 to 60 bytes; longer keys are processed as the reference does:
 * Argon2d takes the first keySize mod 2^32 bytes, the program generator
 * the first 60).  Does nothing if the cache already holds what this key
 * makes.  A NULL cache does
 * nothing; a NULL key with keySize > 0 leaves the cache uninitialized
 * (light VMs using it then output all-0xff hashes until it is initialized
 * with a valid key).  See the thread-safety notes above.
 */
RANDOMX_EXPORT void randomx_init_cache(randomx_cache *cache, const void *key,
    size_t keySize);

/*
 * randomx_get_cache_memory(cache):
 * The cache's 256 MiB (RANDOMX_ARGON_MEMORY KiB) buffer, NULL for a NULL
 * cache.  Writing to it changes the hashes of every VM using the cache.
 */
RANDOMX_EXPORT void *randomx_get_cache_memory(randomx_cache *cache);

/*
 * randomx_release_cache(cache):
 * Free the cache and its memory; NULL does nothing.  No VM may use the
 * cache afterwards (set another one or destroy them first).
 */
RANDOMX_EXPORT void randomx_release_cache(randomx_cache *cache);

/*
 * randomx_alloc_dataset(flags):
 * A dataset structure and its memory, randomx_dataset_item_count() items
 * of 64 bytes (2080 MiB), not initialized.  Only RANDOMX_FLAG_LARGE_PAGES
 * matters (NULL if 2 MiB pages cannot be had); the other flags are
 * ignored, unknown bits too.  Returns NULL if the memory cannot be
 * allocated (or on a system where it does not fit in the address space).
 */
RANDOMX_EXPORT randomx_dataset *randomx_alloc_dataset(randomx_flags flags);

/*
 * randomx_dataset_item_count():
 * The number of 64-byte items in a dataset: 34078719.
 */
RANDOMX_EXPORT unsigned long randomx_dataset_item_count(void);

/*
 * randomx_init_dataset(dataset, cache, startItem, itemCount):
 * Compute items startItem .. startItem + itemCount - 1 of the dataset from
 * an initialized cache.  All items must be computed before a VM uses the
 * dataset, by one call or by several over disjoint ranges, on as many
 * threads as wanted.  Does nothing if dataset or cache is NULL, the cache
 * is not initialized, or the range goes past the last item.
 */
RANDOMX_EXPORT void randomx_init_dataset(randomx_dataset *dataset,
    randomx_cache *cache, unsigned long startItem, unsigned long itemCount);

/*
 * randomx_get_dataset_memory(dataset):
 * The dataset's buffer (randomx_dataset_item_count() * 64 bytes), NULL
 * for a NULL dataset.  A caller may fill it itself, for instance from a
 * saved copy.
 */
RANDOMX_EXPORT void *randomx_get_dataset_memory(randomx_dataset *dataset);

/*
 * randomx_release_dataset(dataset):
 * Free the dataset and its memory; NULL does nothing.  No VM may use it
 * afterwards.
 */
RANDOMX_EXPORT void randomx_release_dataset(randomx_dataset *dataset);

/*
 * randomx_create_vm(flags, cache, dataset):
 * A virtual machine with its 2 MiB scratchpad.
 * - Without RANDOMX_FLAG_FULL_MEM (light mode) it computes the dataset
 *   items it reads from cache, which must be initialized; dataset is
 *   ignored.
 * - With RANDOMX_FLAG_FULL_MEM it reads them from dataset, which must have
 *   been fully initialized; cache is ignored (it may be NULL).
 * - RANDOMX_FLAG_HARD_AES uses AES-NI or ARMv8's AES (same hashes as
 *   without);
 *   RANDOMX_FLAG_LARGE_PAGES puts the scratchpad in a 2 MiB page;
 *   RANDOMX_FLAG_V2 computes RandomX v2 hashes instead of v1.
 * - RANDOMX_FLAG_JIT compiles each program to machine code (the same
 *   hashes as the interpreter's); RANDOMX_FLAG_SECURE keeps the code pages
 *   writable while a program is compiled and executable while it runs,
 *   never both (two mprotect calls per program).
 * Returns NULL if the scratchpad cannot be allocated, if RANDOMX_FLAG_JIT
 * is set where there is no JIT (as the reference there), if
 * RANDOMX_FLAG_HARD_AES is set and this CPU or build has no hardware AES,
 * if the light mode gets a NULL or uninitialized cache, if the full mode
 * gets a NULL dataset.  Other flags are ignored, unknown bits too.
 */
RANDOMX_EXPORT randomx_vm *randomx_create_vm(randomx_flags flags,
    randomx_cache *cache, randomx_dataset *dataset);

/*
 * randomx_vm_set_cache(machine, cache):
 * Make a light-mode VM use cache from now on (after the cache was
 * initialized with a new key, or to use another cache).  Does nothing if
 * machine or cache is NULL, the cache is not initialized, or machine is a
 * full-mode VM.
 */
RANDOMX_EXPORT void randomx_vm_set_cache(randomx_vm *machine,
    randomx_cache *cache);

/*
 * randomx_vm_set_dataset(machine, dataset):
 * Make a full-mode VM read dataset from now on.  Does nothing if machine
 * or dataset is NULL or machine is a light-mode VM.
 */
RANDOMX_EXPORT void randomx_vm_set_dataset(randomx_vm *machine,
    randomx_dataset *dataset);

/*
 * randomx_destroy_vm(machine):
 * Free the VM and its scratchpad (not its cache or dataset); NULL does
 * nothing.
 */
RANDOMX_EXPORT void randomx_destroy_vm(randomx_vm *machine);

/*
 * randomx_calculate_hash(machine, input, inputSize, output):
 * The RandomX hash of input[0 .. inputSize - 1] into output
 * (RANDOMX_HASH_SIZE bytes).  input may be NULL when inputSize is 0.
 * With a NULL input and inputSize > 0, or a light VM whose cache is no
 * longer initialized, output is filled with 0xff; with a NULL machine
 * or output nothing is done.
 */
RANDOMX_EXPORT void randomx_calculate_hash(randomx_vm *machine,
    const void *input, size_t inputSize, void *output);

/*
 * randomx_calculate_hash_first(machine, input, inputSize),
 * randomx_calculate_hash_next(machine, nextInput, nextInputSize, output),
 * randomx_calculate_hash_last(machine, output):
 * The same hashes, pipelined for miners: _first starts the hash of input;
 * each _next writes the hash of the input before and starts the hash of
 * nextInput (finishing one hash and starting the next share a pass over
 * the scratchpad); _last writes the hash of the last input started.
 * The answers are those of randomx_calculate_hash.  A bad input (NULL with
 * a size > 0) makes the output that would have been its hash all 0xff,
 * and so does _next or _last with no hash started; the sequence can go on.
 */
RANDOMX_EXPORT void randomx_calculate_hash_first(randomx_vm *machine,
    const void *input, size_t inputSize);
RANDOMX_EXPORT void randomx_calculate_hash_next(randomx_vm *machine,
    const void *nextInput, size_t nextInputSize, void *output);
RANDOMX_EXPORT void randomx_calculate_hash_last(randomx_vm *machine,
    void *output);

/*
 * randomx_calculate_commitment(input, inputSize, hash_in, com_out):
 * BLAKE2b-256(input || hash_in) into com_out (RANDOMX_HASH_SIZE bytes),
 * where hash_in is the RandomX hash of the same input.  hash_in and
 * com_out may be the same buffer.  A NULL input with inputSize > 0 or a
 * NULL hash_in fills com_out with 0xff; a NULL com_out does nothing.
 */
RANDOMX_EXPORT void randomx_calculate_commitment(const void *input,
    size_t inputSize, const void *hash_in, void *com_out);

#if defined(__cplusplus)
}
#endif

#endif /* !RANDOMX_H */
