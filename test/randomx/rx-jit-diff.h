/*
 * rx-jit-diff.h: one RandomX program run through the interpreter and the
 * JIT, and the two results compared (for tests-rx-jit and the fuzz
 * target fuzz-rx-jit).  Test code; builds with a JIT only (RX_HAVE_JIT).
 */
#ifndef RX_JIT_DIFF_H
#define RX_JIT_DIFF_H

#include <stdint.h>

#include "randomx/jit.h"

#if RX_HAVE_JIT

/*
 * What the runs need: two scratchpads (RX_SCRATCHPAD_L3 bytes each,
 * 64-aligned), the compiler, and where dataset items come from: dataset
 * (any readable RX_DATASET_BYTES, full mode) or else cache (light mode;
 * with ss the JIT computes its items compiled, else interpreted).  what
 * says what differed.
 */
typedef struct {
	uint8_t *sp_interp, *sp_jit;
	rx_jit_vm *jit;
	const uint8_t *dataset;
	const rx_cache_state *cache;
	const rx_ss_jit *ss;
	char what[160];
} rx_jit_diff;

/*
 * rx_jit_diff_run(d, program, v2, aes, fprc, sp_init):
 * Configure and decode program (RX_PROGRAM_BYTES(rx_program_size(v2))
 * bytes), then run its loop as rx_vm_execute does, once interpreted and
 * once compiled, each from scratchpad contents sp_init, rounding mode
 * fprc (0-3) and the AES implementation aes.  Returns 0 if the register
 * files, the rounding modes after and the scratchpads agree, 1 if they
 * differ (d->what says where), -1 if the program did not compile.  The
 * caller's floating-point environment is kept.
 */
int rx_jit_diff_run(rx_jit_diff *d, const uint8_t *program, int v2,
    const rx_aes_impl *aes, unsigned fprc, const uint8_t *sp_init);

#endif /* RX_HAVE_JIT */

#endif /* !RX_JIT_DIFF_H */
