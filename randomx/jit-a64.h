/*
 * jit-a64.h: what AArch64's two compilers share beyond jit.h (internal).
 *
 * rx_ss_jit_a64_single(j): the routine in j's code that computes one
 * dataset item for the compiled program loop in light mode, called with
 * BL/BLR and this convention: in, x4 the item number and x7 the cache's
 * memory; out, x8 .. x15 the item's r0 .. r7 (the 64 bytes
 * rx_dataset_item gives, as little-endian words).  It writes x4 .. x6,
 * x8 .. x15 and x30 and nothing else (no stack, no memory, no flags), so
 * that x7 and the caller's constants in x16 and x17 survive it.  NULL when j holds no
 * compiled programs.
 */
#ifndef RX_JIT_A64_H
#define RX_JIT_A64_H

#include "randomx/jit.h"

const void *rx_ss_jit_a64_single(const rx_ss_jit *j);

#endif /* !RX_JIT_A64_H */
