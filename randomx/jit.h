/*
 * jit.h: RandomX's JIT compilers (internal): what api.c, the tests and the
 * benchmark call, the same for every target.  One backend per target
 * implements it in its own files, with its internals in its own headers:
 *
 * - Programs: a VM's program is compiled, with the whole program loop of
 *   the specification's chapter 4.6.2 around it, into machine code that
 *   runs the 2048 iterations; the same results as the interpreter
 *   (vm-interp.c), bit for bit, which stays the executable specification
 *   and the fallback.  x86-64: jit-x86.c (the loop) with jit-x86-int.c,
 *   jit-x86-fp.c and jit-x86-ctl.c (each operation's code), jit-x86.h.
 * - SuperscalarHash: a cache's 8 programs compiled into one routine that
 *   computes dataset items in batches, the items of a batch taking turns
 *   program by program so that each item's next cache line arrives while
 *   the others compute.  x86-64: jit-superscalar-x86.c.
 * - Executable memory (jit-mem.c, shared by every backend): never
 *   writable and executable at once.  Two views of the same pages, one
 *   writable (where code is written), one executable (where it runs and
 *   where every absolute address of it points), so that recompiling is no
 *   system call; or, under RANDOMX_FLAG_SECURE (and where the system has
 *   no such views), one mapping, writable while code is written, then
 *   executable.
 * - Running a VM's program (jit-vm.c, shared): generated, compiled by the
 *   backend and run, or interpreted if it did not compile.
 *
 * The CPU features a backend uses are chosen in cpu.c, with the module's
 * other choices.  The two x86-64 compilers share jit-x86-asm.h's encoder;
 * the AArch64 backend (jit-a64.c for programs, jit-superscalar-a64.c for
 * SuperscalarHash) has its own encoder in jit-a64-asm.h and its register
 * convention in jit-a64.h.  Neither backend includes the other's headers.
 *
 * RX_JIT_X86_64 is 1 where the x86-64 backend is built (x86-64 with the
 * System V ABI and mmap), RX_JIT_A64 where the AArch64 one is (little-
 * endian LP64 Linux).  RX_HAVE_JIT is 1 where some backend is built, else
 * 0 and none of the functions below exist.
 */
#ifndef RX_JIT_H
#define RX_JIT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && !defined(__ILP32__) && !defined(_WIN32) && \
    (defined(__unix__) || defined(__APPLE__))
#define RX_JIT_X86_64 1
#else
#define RX_JIT_X86_64 0
#endif

#if defined(__aarch64__) && !defined(__ILP32__) && \
    !defined(__AARCH64EB__) && defined(__linux__)
#define RX_JIT_A64 1
#else
#define RX_JIT_A64 0
#endif

/* A target's backend adds its own condition here. */
#define RX_HAVE_JIT (RX_JIT_X86_64 || RX_JIT_A64)

#if RX_HAVE_JIT

#include "randomx/cpu.h"	/* rx_jit_features, rx_jit_limit_features */
#include "randomx/dataset.h"
#include "randomx/vm.h"

/* ---- executable memory (jit-mem.c) ---- */

/*
 * Memory for code, seen at two addresses: w, where the compiler writes
 * it, and x, where it runs; an address the code holds of itself (a jump
 * target, a function pointer) is x's.  Offsets are the same in both, and
 * w and x are both page-aligned (so alike modulo the page size, not
 * beyond).  wx: one mapping (w == x), switched by rx_exec_writable and
 * rx_exec_executable; otherwise two views of one shared object, w
 * writable and x executable all along, and forks the count of forks the
 * views belong to (jit-mem.c).
 */
typedef struct {
	uint8_t *w;
	uint8_t *x;
	size_t len;
	int wx;
	unsigned long forks;
} rx_exec_mem;

/*
 * rx_exec_alloc(m, len, secure):
 * Map len bytes (rounded up to pages) for code, writable to start with.
 * secure asks for one mapping switched by mprotect; without it, two
 * views, or one switched mapping where the system gives no views.
 * 0, or -1 (m->w and m->x NULL).
 * rx_exec_writable(m): before writing code: 0; 1 if the memory is new
 * (in a child of fork, whose first write moves it to pages of its own
 * at other addresses): nothing written before is there, and the caller
 * must write all of it again, with the new addresses; or -1 (not to be
 * written).  rx_exec_executable(m), after writing: 0 or -1.  No system
 * call for two views but the first write in a child of fork.
 * rx_exec_free unmaps; NULL w does nothing.
 */
int rx_exec_alloc(rx_exec_mem *m, size_t len, int secure);
int rx_exec_writable(rx_exec_mem *m);
int rx_exec_executable(rx_exec_mem *m);
void rx_exec_free(rx_exec_mem *m);

/*
 * rx_exec_sync(m, len): after writing the first len bytes through m->w,
 * before running them at m->x: the instruction cache made to see them
 * (AArch64; nothing on x86-64).
 */
void rx_exec_sync(const rx_exec_mem *m, size_t len);

/*
 * rx_exec_owner_new(size, mem_at, len, secure):
 * A backend's compiler object: size zeroed bytes, aligned to 64 (a cache
 * line, which the VMs' register files ask for), whose rx_exec_mem at
 * byte offset mem_at holds a fresh mapping of len bytes (rx_exec_alloc).
 * NULL if either fails; nothing is left allocated then.
 * rx_exec_owner_free(o, mem_at) unmaps and frees it; NULL does nothing.
 */
void *rx_exec_owner_new(size_t size, size_t mem_at, size_t len, int secure);
void rx_exec_owner_free(void *o, size_t mem_at);

/* ---- SuperscalarHash (a backend's) ---- */

typedef struct rx_ss_jit rx_ss_jit;

/*
 * rx_ss_jit_new(secure):
 * An empty SuperscalarHash compiler with its code memory (rx_exec_alloc's
 * secure), or NULL.  rx_ss_jit_free(j) releases it (NULL: nothing).
 */
rx_ss_jit *rx_ss_jit_new(int secure);
void rx_ss_jit_free(rx_ss_jit *j);

/*
 * rx_ss_jit_compile(j, c):
 * Compile the 8 programs of cache c into j (replacing what j held).
 * 0, or -1 (j then holds nothing and must not be used until a compile
 * succeeds).  Not to be called while another thread uses j.
 */
int rx_ss_jit_compile(rx_ss_jit *j, const rx_cache_state *c);

/*
 * rx_ss_jit_items(j, cache_memory, items, n, out):
 * Dataset items items[0 .. n-1] (any numbers, n at most RX_SS_JIT_MAX_BATCH)
 * into out (64 bytes each), computed together, from the cache j was
 * compiled from (its memory given).  Same bytes as rx_dataset_item.
 * Reads j and the cache only: any number of threads at once.
 */
#define RX_SS_JIT_MAX_BATCH 32
void rx_ss_jit_items(const rx_ss_jit *j, const uint8_t *cache_memory,
    const uint64_t *items, size_t n, uint8_t *out);

/*
 * rx_ss_jit_dataset_init(j, c, dataset, start_item, item_count):
 * rx_dataset_init's work with j (compiled from c): items start_item ..
 * start_item + item_count - 1 at dataset + 64 * item.  Threads may fill
 * disjoint ranges at once.
 */
void rx_ss_jit_dataset_init(const rx_ss_jit *j, const rx_cache_state *c,
    uint8_t *dataset, uint64_t start_item, uint64_t item_count);

/* ---- programs (a backend's) ---- */

typedef struct rx_jit_vm rx_jit_vm;

/*
 * rx_jit_vm_new(secure):
 * A program compiler with its code memory (rx_exec_alloc's secure) and
 * context for one VM, or NULL.  rx_jit_vm_free(j) releases it (NULL: nothing).
 */
rx_jit_vm *rx_jit_vm_new(int secure);
void rx_jit_vm_free(rx_jit_vm *j);

/*
 * rx_jit_vm_run_program(j, vm, seed, ss):
 * rx_vm_run_program(vm, seed) with the program compiled: the same program
 * from the seed, the same registers, scratchpad and vm->fprc afterwards.
 * Full mode if vm->dataset is set; in light mode the items come from ss
 * (compiled from vm->cache), or from rx_dataset_item if ss is NULL.  The
 * thread's floating-point environment is restored before it returns.
 * Falls back to the interpreter for a program that does not compile.
 * One thread per j and vm.
 */
void rx_jit_vm_run_program(rx_jit_vm *j, rx_vm_state *vm,
    const uint8_t seed[64], const rx_ss_jit *ss);

/*
 * rx_jit_vm_compile(j, vm):
 * Compile the program in vm->program (its instruction words; v1 or v2 as
 * vm->v2) with the configuration vm->cfg, for vm's mode (full if
 * vm->dataset is set).  Returns 0, or -1 if it did not compile (j then has
 * nothing to run).  rx_jit_vm_run(j, vm, ss) then runs its loop on vm as
 * rx_vm_execute does (vm->regs.a set, the scratchpad and vm->fprc as they
 * are), items from ss in light mode as above.  Both are for tests and the
 * benchmark; rx_jit_vm_run_program is the two after generating.
 */
int rx_jit_vm_compile(rx_jit_vm *j, const rx_vm_state *vm);
void rx_jit_vm_run(rx_jit_vm *j, rx_vm_state *vm, const rx_ss_jit *ss);

/*
 * rx_jit_vm_code(j): where j's compiled code runs (for tests that look at
 * its pages' protection; it moves in a child of fork's first compile).
 */
const void *rx_jit_vm_code(const rx_jit_vm *j);

/*
 * rx_jit_rounding_copies(v2):
 * 1 if programs of that version (v2: 0 or 1) compile as four copies, one
 * for each rounding mode, with the rounding in each FP instruction and
 * CFROUND a jump between them (x86-64 with AVX-512: jit-x86.c's
 * emit_copies); 0 if CFROUND sets the thread's rounding mode.  Decided in
 * cpu.c with the module's other choices; 0 for a backend without copies.
 */
int rx_jit_rounding_copies(int v2);

#endif /* RX_HAVE_JIT */

#endif /* !RX_JIT_H */
