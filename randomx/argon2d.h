/*
 * argon2d.h: the memory fill of Argon2d (version 0x13, one lane), as
 * RandomX builds its cache with it (specification, chapter 7.1): the
 * initial hash H0, the first two blocks from H' (BLAKE2b-long), then the
 * passes of data-dependent block compressions; no finalization.  Internal.
 *
 * The block compression exists once per instruction set (argon2d.c is the
 * portable one, argon2d-ssse3.c, argon2d-avx2.c and argon2d-avx512.c the
 * SIMD ones), each
 * filling whole segments so the compiler can keep everything inline.
 */
#ifndef RX_ARGON2D_H
#define RX_ARGON2D_H

#include <stddef.h>
#include <stdint.h>

#include "rx-params.h"

#define RX_ARGON2_QWORDS (RX_ARGON2_BLOCK_BYTES / 8)
#define RX_ARGON2_SYNC_POINTS 4	/* slices per pass */

/* One 1 KiB block as 128 64-bit words (little-endian in memory). */
typedef struct {
	uint64_t v[RX_ARGON2_QWORDS];
} rx_argon2_block;

typedef enum {
	RX_ARGON2_PORTABLE,
	RX_ARGON2_SSSE3,
	RX_ARGON2_AVX2,
	RX_ARGON2_AVX512
} rx_argon2_impl;

/*
 * rx_argon2_impl_available(impl):
 * Whether impl was built into this library and this CPU runs it.
 * rx_argon2_impl_best(): the fastest available one.
 * rx_argon2_impl_avx2(): what RANDOMX_FLAG_ARGON2_AVX2 runs: the AVX-512
 * code where the CPU has it (the same cache; randomx.h has no flag of its
 * own for it), else the AVX2 code (which may not be available).
 * rx_argon2_impl_name(impl): "portable", "ssse3", "avx2" or "avx512" (NULL if
 * impl is not one of them).  All thread-safe.
 */
int rx_argon2_impl_available(rx_argon2_impl impl);
rx_argon2_impl rx_argon2_impl_best(void);
rx_argon2_impl rx_argon2_impl_avx2(void);
const char *rx_argon2_impl_name(rx_argon2_impl impl);

/*
 * rx_argon2d_fill(memory, blocks, passes, pwd, pwdlen, salt, saltlen, impl):
 * Fill memory (blocks * 1 KiB, 64-byte aligned) as Argon2d version 0x13
 * fills its memory before the finalization, with password pwd, salt salt,
 * one lane, blocks KiB of memory, passes iterations, tag length 0, no
 * secret and no associated data.  blocks must be a multiple of 4 and at
 * least 8, passes at least 1, salt at least 8 bytes (Argon2's own
 * limits); pwd may be NULL when pwdlen is 0.  Returns 0, or -1 with
 * errno = EINVAL, memory untouched, for parameters outside those limits
 * or an impl that is not available.
 * RandomX's cache is blocks = RX_ARGON2_MEMORY_KIB, passes =
 * RX_ARGON2_ITERATIONS, salt RX_ARGON2_SALT (rx_cache_init does that).
 * Thread-safe for distinct memory.
 */
int rx_argon2d_fill(uint8_t *memory, uint32_t blocks, uint32_t passes,
    const void *pwd, size_t pwdlen, const void *salt, size_t saltlen,
    rx_argon2_impl impl);

/*
 * rx_argon2_hash_long(out, outlen, in, inlen):
 * Argon2's variable-length hash H' (BLAKE2b-long) of in[0 .. inlen - 1]
 * into out[0 .. outlen - 1]; outlen from 1 up.
 */
void rx_argon2_hash_long(uint8_t *out, size_t outlen, const void *in,
    size_t inlen);

/*
 * The segment fillers, one per instruction set: compute the blocks of
 * slice `slice` of pass `pass` in a lane of lane_blocks blocks (the first
 * two blocks of pass 0 are skipped: they come from H').  For rx_argon2d_fill.
 */
void rx_argon2d_fill_segment_portable(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice);
void rx_argon2d_fill_segment_ssse3(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice);
void rx_argon2d_fill_segment_avx2(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice);
void rx_argon2d_fill_segment_avx512(rx_argon2_block *mem,
    uint32_t lane_blocks, uint32_t pass, uint32_t slice);

/*
 * rx_argon2d_ref_index(lane_blocks, pass, slice, index, pseudo_rand):
 * Which block of the (single) lane the block at position index of the
 * segment refers to, given the first 64-bit word of the block before it
 * (Argon2's index_alpha for one lane: the window of blocks already
 * finished, and the quadratic map of the low 32 bits that favours recent
 * ones).
 */
static inline uint32_t rx_argon2d_ref_index(uint32_t lane_blocks,
    uint32_t pass, uint32_t slice, uint32_t index, uint64_t pseudo_rand)
{
	uint32_t segment_blocks = lane_blocks / RX_ARGON2_SYNC_POINTS;
	uint32_t area, start = 0;
	uint64_t x = (uint32_t)pseudo_rand;

	if (pass == 0) {
		area = slice * segment_blocks + index - 1;
	} else {
		area = lane_blocks - segment_blocks + index - 1;
		if (slice != RX_ARGON2_SYNC_POINTS - 1)
			start = (slice + 1) * segment_blocks;
	}
	x = (x * x) >> 32;
	x = area - 1 - (((uint64_t)area * x) >> 32);
	/* start and x are both below lane_blocks: the wrap-around is one
	 * subtraction, not a division on the critical path. */
	x += start;
	return (uint32_t)(x >= lane_blocks ? x - lane_blocks : x);
}

/*
 * Where a block being computed sits: its segment and its position in it,
 * and whether the block after it is in the same segment.  A compression
 * uses it to prefetch its successor's reference block as soon as word 0
 * of its own result is known: memory latency, not arithmetic, bounds a
 * 256 MiB fill.
 */
typedef struct {
	rx_argon2_block *mem;
	uint32_t lane_blocks, pass, slice;
	uint32_t index;
	int prefetch_next;
} rx_argon2d_position;

/* The successor's reference block, given word 0 of this block's result
 * (after the xor with its old contents in later passes). */
static inline const char *rx_argon2d_successor_ref(
    const rx_argon2d_position *pos, uint64_t w0)
{
	return (const char *)&pos->mem[rx_argon2d_ref_index(pos->lane_blocks,
	    pos->pass, pos->slice, pos->index + 1, w0)];
}

/*
 * rx_argon2d_fill_segment(mem, lane_blocks, pass, slice, compress):
 * The segment loop each instruction set's filler runs with its own block
 * compression, inlined: compress(prev, ref, next, with_xor, pos) sets
 * next to G(prev ^ ref), xored into next's old contents from the second
 * pass on (version 0x13).  The block before the lane's first is its last.
 * (A compression that prefetches must do it in its own body: GCC deems a
 * function that only prefetches pure, and deletes calls to it.)
 */
typedef void rx_argon2d_compress_fn(const rx_argon2_block *prev,
    const rx_argon2_block *ref, rx_argon2_block *next, int with_xor,
    const rx_argon2d_position *pos);

static inline __attribute__((always_inline)) void rx_argon2d_fill_segment(
    rx_argon2_block *mem, uint32_t lane_blocks, uint32_t pass, uint32_t slice,
    rx_argon2d_compress_fn *compress)
{
	uint32_t segment_blocks = lane_blocks / RX_ARGON2_SYNC_POINTS;
	uint32_t i = (pass == 0 && slice == 0) ? 2 : 0;
	uint32_t cur = slice * segment_blocks + i;
	rx_argon2d_position pos = { mem, lane_blocks, pass, slice, 0, 0 };

	for (; i < segment_blocks; i++, cur++) {
		uint32_t prev = cur ? cur - 1 : lane_blocks - 1;
		uint32_t ref = rx_argon2d_ref_index(lane_blocks, pass, slice,
		    i, mem[prev].v[0]);

		pos.index = i;
		pos.prefetch_next = i + 1 < segment_blocks;
		compress(&mem[prev], &mem[ref], &mem[cur], pass != 0, &pos);
	}
}

#endif /* !RX_ARGON2D_H */
