/*
 * yespower-impl.h: the interface between the optimized front end
 * (yespower-api.c) and the mixing cores (yespower-opt.c, compiled once per
 * instruction set).  Internal to the library.
 */
#ifndef YESPOWER_IMPL_H
#define YESPOWER_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "yespower.h"

/* Bytes of S-boxes each version uses: 2 or 3 boxes of 2^Swidth entries of
 * 16 bytes (Swidth = 8 in 0.5, 11 in 1.0). */
#define YESPOWER_SBYTES_0_5 (2 * 16 * 256)
#define YESPOWER_SBYTES_1_0 (3 * 16 * 2048)

/*
 * A mixing core: SMix for both versions, built for one instruction set.
 *
 * smix(B, r, N, version, V, XY, S):
 * Replace the 128*r bytes at B (as PBKDF2 produced them) by SMix's output.
 * V (128*r*N bytes), XY (256*r bytes) and S (YESPOWER_SBYTES_* bytes) are
 * scratch memory, each aligned to 64 bytes.  Parameters are valid (the
 * caller checked them).  Thread-safe: it touches only the memory given.
 */
typedef struct {
	const char *name;
	void (*smix)(uint8_t *B, uint32_t r, uint32_t N,
	    yespower_version_t version, void *V, void *XY, void *S);
} yespower_core_t;

/* The builds of yespower-opt.c; which exist depends on the target. */
extern const yespower_core_t yespower_core_portable;
#if defined(__x86_64__) || defined(__i386__)
extern const yespower_core_t yespower_core_sse2;
extern const yespower_core_t yespower_core_avx;
extern const yespower_core_t yespower_core_xop;
extern const yespower_core_t yespower_core_avx512vl;
#endif

/*
 * Memory regions (yespower-platform.c).  yespower_region_alloc(region,
 * size) maps at least size bytes aligned to 64 (and, when large, to 2 MiB,
 * with huge pages if the system gives them); it returns 0, or -1 with errno
 * ENOMEM and region left empty.  yespower_region_free() unmaps and leaves
 * the region empty; freeing an empty region does nothing.  Thread-safe for
 * distinct regions.
 */
void yespower_region_init(yespower_region_t *region);
int yespower_region_alloc(yespower_region_t *region, size_t size);
int yespower_region_free(yespower_region_t *region);

/*
 * yespower_select_core():
 * The best core this CPU can run.  Detects the CPU's features once;
 * thread-safe.
 */
const yespower_core_t *yespower_select_core(void);

#endif /* !YESPOWER_IMPL_H */
