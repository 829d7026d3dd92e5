/*
 * vm.h: the RandomX virtual machine (specification, chapter 4): its state
 * and the interpreter that runs programs (vm-interp.c).  Internal; the
 * public API (api.c) builds the hash out of these.
 */
#ifndef RX_VM_H
#define RX_VM_H

#include <stddef.h>
#include <stdint.h>

#include "randomx/aes.h"
#include "randomx/dataset.h"
#include "randomx/program.h"
#include "randomx/rx-params.h"

/*
 * The register file between programs, as bit patterns: r0-r7, then
 * f0-f3, e0-e3, a0-a3 with two words each (low half first).  Its
 * little-endian bytes are the specification's 256-byte Register File.
 */
typedef struct rx_regfile {
	uint64_t r[8];
	uint64_t f[8];
	uint64_t e[8];
	uint64_t a[8];
} rx_regfile;

/*
 * What a run of the interpreter needs: the decoded program and its
 * configuration, the scratchpad, where dataset items come from, and the
 * version.  fprc (0-3, table 4.3.1) carries the rounding mode from one
 * program of a hash to the next.
 */
typedef struct rx_vm_state {
	rx_insn code[RX_PROGRAM_MAX_SIZE + 1];
	rx_program_config cfg;
	rx_regfile regs;
	uint8_t *scratchpad;		/* RX_SCRATCHPAD_L3 bytes, 64-aligned */
	const uint8_t *dataset;		/* full mode: the dataset's items */
	const rx_cache_state *cache;	/* light mode: items computed */
	const rx_aes_impl *aes;
	unsigned fprc;
	int v2;
	/* For tests: told of every item number the light mode computes. */
	void (*item_trace)(void *ctx, uint64_t item_number);
	void *item_trace_ctx;
	uint8_t program[RX_PROGRAM_MAX_BYTES];
} rx_vm_state;

/*
 * rx_vm_run_program(vm, seed):
 * Program the VM from the 64-byte seed (AesGenerator4R) and run it
 * (chapter 4.6): RX_PROGRAM_ITERATIONS iterations of the program over the
 * scratchpad, reading dataset items from vm->dataset if it is set, else
 * computing them from vm->cache.  Leaves the register file in vm->regs
 * and the rounding mode in vm->fprc.  Changes the thread's floating-point
 * rounding mode; the caller restores its own afterwards.  Writes vm and
 * its scratchpad, reads the dataset or cache only: one thread per vm, any
 * number of them on one dataset or cache.
 */
void rx_vm_run_program(rx_vm_state *vm, const uint8_t seed[64]);

/*
 * rx_vm_execute(vm):
 * The program loop alone, for a program already decoded into vm->code
 * with its configuration in vm->cfg (and a[] copied into vm->regs.a).
 */
void rx_vm_execute(rx_vm_state *vm);

/*
 * rx_vm_exec_code(code, regs, scratchpad, e_mask, v2, fprc):
 * Run decoded operations from code[0] to its END once, with no loop
 * around them: the instruction semantics alone, for tests.  regs holds
 * the registers in and out; *fprc is the rounding mode in and out.  The
 * caller's rounding mode is restored before returning.
 */
void rx_vm_exec_code(const rx_insn *code, rx_regfile *regs,
    uint8_t *scratchpad, const uint64_t e_mask[2], int v2, unsigned *fprc);

/*
 * rx_vm_regfile_bytes(regs, out):
 * The 256-byte Register File (little-endian) of regs.
 */
void rx_vm_regfile_bytes(const rx_regfile *regs, uint8_t out[256]);

/*
 * rx_vm_set_item_trace(vm, fn, ctx):
 * For tests (api.c): call fn(ctx, n) for every dataset item n that the
 * light-mode VM vm computes from now on (fn NULL: stop).  This is how the
 * tests know which items a hash reads, to build just those in a dataset.
 */
struct randomx_vm;
void rx_vm_set_item_trace(struct randomx_vm *vm,
    void (*fn)(void *ctx, uint64_t item_number), void *ctx);

/*
 * rx_cache_state_of(cache):
 * The cache and programs inside a randomx_cache (api.c), for tests that
 * drive rx_vm_state directly.
 */
struct randomx_cache;
const rx_cache_state *rx_cache_state_of(const struct randomx_cache *cache);

/*
 * rx_fp_set_mode(fprc):
 * Set the thread's rounding mode to fprc (0 nearest, 1 down, 2 up, 3
 * toward zero) with fesetround.
 */
void rx_fp_set_mode(unsigned fprc);

#endif /* !RX_VM_H */
