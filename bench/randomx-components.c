/*
 * bench/randomx-components.c: the parts of a RandomX hash, timed one by
 * one on one thread (`benchmark --randomx --components`): the rows the
 * reference's and modernRX's benchmarks report.  Uses the RandomX
 * module's internal headers, as bench/components.c uses yespower's.
 *
 *   Blake2b-512 of 64 B            hashes/s (the hash's first step)
 *   Blake2bLong, 1 KiB out         outputs/s (Argon2's H')
 *   Argon2d cache fill             MB/s (the whole 256 MiB cache)
 *   SuperscalarHash generation     programs/s
 *   dataset items                  MB/s (64 items at a time, as the
 *                                  dataset is built; one at a time, as
 *                                  light mode reads them)
 *   AES fill 1R, hash 1R           MB/s over a 2 MiB scratchpad, AES-NI
 *                                  and software
 *   program generation            programs/s (AesGenerator4R, decode)
 *   VM program                     programs/s (light mode: dataset items
 *                                  computed; the program loop alone)
 *   whole hash                     H/s (light mode)
 * With RANDOMX_FLAG_JIT (x86-64, unless --interpreter) also the compiled
 * dataset items (as the dataset is built: AVX2 where the CPU has it; two
 * at a time, as a light VM computes them) and the compiled VM program;
 * the whole hash is then the JIT's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "blake2b.h"
#include "cpu-features.h"
#include "randomx/argon2d.h"
#include "randomx/blake2-generator.h"
#include "randomx/dataset.h"
#include "randomx/jit.h"
#include "randomx/program.h"
#include "randomx/randomx.h"
#include "randomx/vm.h"

/* A part and its arguments. */
typedef struct {
	bench_part part;	/* first: the functions get &part */
	randomx_flags flags;
	const rx_aes_impl *aes;
	const rx_cache_state *cache;
	randomx_vm *vm;
	rx_vm_state *state;
	uint8_t *buf;		/* 2 MiB */
	rx_argon2_impl argon2;
#if RX_HAVE_JIT
	rx_ss_jit *ss;		/* with RANDOMX_FLAG_JIT */
	rx_jit_vm *jit;
#endif
} rx_part;

#define BUF_BYTES ((size_t)2 << 20)

static uint32_t run_blake2b(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t out[64] = { 0 };

	while (count--) {
		r->buf[0] ^= out[0];
		pow_blake2b(out, 64, r->buf, 64, NULL, 0);
	}
	return out[0];
}

static uint32_t run_blake2b_long(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;

	while (count--) {
		r->buf[0] ^= r->buf[4096];
		rx_argon2_hash_long(r->buf + 4096, 1024, r->buf, 72);
	}
	return r->buf[4096];
}

/* The whole cache: 256 MiB of Argon2d, then the 8 programs. */
static uint32_t run_cache(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	static rx_cache_state c;
	uint8_t *memory;

	if (!count)
		return 0;
	if (posix_memalign((void **)&memory, 64, RX_CACHE_BYTES)) {
		p->failed = 1;
		return 0;
	}
	while (count--)
		if (rx_cache_init(&c, memory, r->buf, 32, r->argon2))
			p->failed = 1;
	count = memory[12345];
	free(memory);
	return (uint32_t)count;
}

static uint32_t run_superscalar(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	static rx_ss_program prog;
	rx_blake2_generator gen;
	uint32_t sum = 0;

	rx_blake2_generator_init(&gen, r->buf, 32, 0);
	while (count--) {
		rx_superscalar_generate(&prog, &gen);
		sum += (uint32_t)prog.size;
	}
	return sum;
}

/* 64 items at a time, as a dataset is built. */
static uint32_t run_items_range(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint64_t start = 0;

	while (count--) {
		/* r->buf stands for items start .. start + 63 of a dataset
		 * whose base lies 64 * start bytes before it. */
		rx_dataset_init(r->cache, r->buf - 64 * start, start, 64);
		start += 64 * 1024;
	}
	return r->buf[0];
}

static uint32_t run_item(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint64_t n = 7;

	while (count--) {
		rx_dataset_item(r->cache, n, r->buf);
		n = n * 6364136223846793005ULL + 1442695040888963407ULL;
		n %= RX_DATASET_ITEMS;
	}
	return r->buf[0];
}

#if RX_HAVE_JIT
/* Compiled: 64 at a time, as the dataset is built (AVX2 if there). */
static uint32_t run_jit_items_range(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint64_t start = 0;

	while (count--) {
		rx_ss_jit_dataset_init(r->ss, r->cache, r->buf - 64 * start,
		    start, 64);
		start += 64 * 1024;
	}
	return r->buf[0];
}

/* Compiled, two at a time, as a light v1 VM computes them. */
static uint32_t run_jit_items_pair(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint64_t n[2] = { 7, 8 };

	while (count--) {
		rx_ss_jit_items(r->ss, r->cache->memory, n, 2, r->buf);
		n[0] = (n[0] * 6364136223846793005ULL + 1442695040888963407ULL) %
		    RX_DATASET_ITEMS;
		n[1] = (n[0] ^ 0x5555) % RX_DATASET_ITEMS;
	}
	return r->buf[0];
}

static uint32_t run_jit_program(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t seed[64];

	memcpy(seed, r->buf, 64);
	while (count--) {
		rx_jit_vm_run_program(r->jit, r->state, seed, r->ss);
		seed[0] ^= (uint8_t)r->state->regs.r[0];
	}
	return (uint32_t)r->state->regs.r[1];
}
#endif

static uint32_t run_aes_fill(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t state[64];

	memcpy(state, r->buf, 64);
	while (count--)
		r->aes->fill1r(state, r->buf, BUF_BYTES);
	return r->buf[BUF_BYTES - 1];
}

static uint32_t run_aes_hash(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t hash[64] = { 0 };

	while (count--) {
		r->buf[0] ^= hash[0];
		r->aes->hash1r(r->buf, BUF_BYTES, hash);
	}
	return hash[0];
}

/* AesGenerator4R's program bytes, configured and decoded. */
static uint32_t run_program_gen(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	rx_vm_state *s = r->state;
	uint8_t seed[64];

	memcpy(seed, r->buf, 64);
	while (count--) {
		rx_program_generate(s->aes, seed, s->program, s->v2);
		rx_program_configure(s->program, &s->cfg);
		rx_program_decode(s->program + RX_PROGRAM_CONFIG_BYTES,
		    rx_program_size(s->v2), s->code);
		seed[0] ^= s->program[100];
	}
	return s->program[200];
}

#if RX_HAVE_JIT
/* AesGenerator4R's program bytes, configured and compiled (not run). */
static uint32_t run_jit_compile(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	rx_vm_state *s = r->state;
	uint8_t seed[64];
	uint32_t failed = 0;

	memcpy(seed, r->buf, 64);
	while (count--) {
		rx_program_generate(s->aes, seed, s->program, s->v2);
		rx_program_configure(s->program, &s->cfg);
		failed += (uint32_t)rx_jit_vm_compile(r->jit, s) != 0;
		seed[0] ^= s->program[100];
	}
	return failed + s->program[200];
}
#endif

/* One program run: 2048 iterations, light mode (items computed). */
static uint32_t run_vm_program(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t seed[64];

	memcpy(seed, r->buf, 64);
	while (count--) {
		rx_vm_run_program(r->state, seed);
		seed[0] ^= (uint8_t)r->state->regs.r[0];
	}
	rx_fp_set_mode(0);
	return (uint32_t)r->state->regs.r[1];
}

static uint32_t run_whole(bench_part *p, uint64_t count)
{
	rx_part *r = (rx_part *)p;
	uint8_t out[32] = { 0 };

	while (count--) {
		r->buf[0] ^= out[0];
		randomx_calculate_hash(r->vm, r->buf, 76, out);
	}
	return out[0];
}

static rx_part *add(rx_part *list, size_t *n, const char *name,
    const char *unit, double per_call, bench_part_fn fn)
{
	rx_part *r = &list[(*n)++];

	snprintf(r->part.name, sizeof(r->part.name), "%s", name);
	r->part.unit = unit;
	r->part.per_call = per_call;
	r->part.fn = fn;
	return r;
}

/* The rows, in the order a hash meets them. */
static size_t build_parts(rx_part *list, randomx_flags f)
{
	const rx_aes_impl *hard = rx_aes_hard();
	char name[96];
	size_t n = 0, i;
	int a;

	add(list, &n, "Blake2b-512, 64 B", "hashes/s", 1, run_blake2b);
	add(list, &n, "Blake2bLong, 1 KiB out", "outputs/s", 1,
	    run_blake2b_long);
	for (a = RX_ARGON2_PORTABLE; a <= RX_ARGON2_AVX512; a++) {
		if (!rx_argon2_impl_available((rx_argon2_impl)a))
			continue;
		snprintf(name, sizeof(name), "Argon2d cache, 256 MiB (%s)",
		    rx_argon2_impl_name((rx_argon2_impl)a));
		add(list, &n, name, "MB/s", RX_CACHE_BYTES * 1e-6,
		    run_cache)->argon2 = (rx_argon2_impl)a;
	}
	add(list, &n, "SuperscalarHash generation", "programs/s", 1,
	    run_superscalar);
	add(list, &n, "dataset items, 64 at a time", "MB/s", 64 * 64e-6,
	    run_items_range);
	add(list, &n, "dataset items, one at a time", "MB/s", 64e-6,
	    run_item);
#if RX_HAVE_JIT
	if (f & RANDOMX_FLAG_JIT) {
		snprintf(name, sizeof(name), "dataset items, JIT, 64 at a time "
		    "(%s)", rx_jit_features() & POW_CPU_AVX2 ? "avx2" :
		    "scalar");
		add(list, &n, name, "MB/s", 64 * 64e-6, run_jit_items_range);
		add(list, &n, "dataset items, JIT, two at a time", "MB/s",
		    2 * 64e-6, run_jit_items_pair);
	}
#endif
	for (a = 0; a < 2; a++) {
		const rx_aes_impl *aes = a ? &rx_aes_soft : hard;

		if (!aes)
			continue;
		snprintf(name, sizeof(name), "AES fill 1R, 2 MiB (%s)",
		    aes->name);
		add(list, &n, name, "MB/s", BUF_BYTES * 1e-6,
		    run_aes_fill)->aes = aes;
		snprintf(name, sizeof(name), "AES hash 1R, 2 MiB (%s)",
		    aes->name);
		add(list, &n, name, "MB/s", BUF_BYTES * 1e-6,
		    run_aes_hash)->aes = aes;
	}
	add(list, &n, "program generation and decoding", "programs/s", 1,
	    run_program_gen);
#if RX_HAVE_JIT
	if (f & RANDOMX_FLAG_JIT)
		add(list, &n, "program generation and JIT compile",
		    "programs/s", 1, run_jit_compile);
#endif
	add(list, &n, "VM program, light mode", "programs/s", 1,
	    run_vm_program)->part.in_hash = 1;
#if RX_HAVE_JIT
	if (f & RANDOMX_FLAG_JIT)
		add(list, &n, "VM program, light mode, JIT", "programs/s", 1,
		    run_jit_program)->part.in_hash = 1;
#endif
	add(list, &n, f & RANDOMX_FLAG_JIT ? "whole hash, light mode, JIT" :
	    "whole hash, light mode", "H/s", 1, run_whole);
	for (i = 0; i < n; i++)
		list[i].flags = f;
	return n;
}

int bench_randomx_components(const bench_options *o, randomx_flags f,
    json_writer *j)
{
	static rx_part list[32];
	randomx_flags light = f & ~RANDOMX_FLAG_FULL_MEM;
	randomx_cache *cache = randomx_alloc_cache(light &
	    (RANDOMX_FLAG_LARGE_PAGES | RANDOMX_FLAG_ARGON2 |
	    RANDOMX_FLAG_JIT));
	randomx_vm *vm = NULL;
	rx_vm_state *state = NULL;
	uint8_t *buf = NULL;
	size_t i, n;
	int failed = 0;

	if (cache)
		randomx_init_cache(cache, "components", 10);
	if (cache)
		vm = randomx_create_vm(light, cache, NULL);
	if (posix_memalign((void **)&buf, 64, BUF_BYTES + 8192) ||
	    posix_memalign((void **)&state, 64, sizeof(*state)) ||
	    posix_memalign((void **)&state->scratchpad, 64, RX_SCRATCHPAD_L3) ||
	    !vm) {
		fprintf(stderr, "benchmark: no memory for the RandomX "
		    "components\n");
		return 1;
	}
	for (i = 0; i < BUF_BYTES + 8192; i++)
		buf[i] = (uint8_t)(i * 11);
	memset(state->scratchpad, 0x5a, RX_SCRATCHPAD_L3);
	state->cache = rx_cache_state_of(cache);
	state->dataset = NULL;
	state->aes = (f & RANDOMX_FLAG_HARD_AES) && rx_aes_hard() ?
	    rx_aes_hard() : &rx_aes_soft;
	state->v2 = (f & RANDOMX_FLAG_V2) != 0;
	state->fprc = 0;
	state->item_trace = NULL;
	memset(&state->regs, 0, sizeof(state->regs));

#if RX_HAVE_JIT
	rx_ss_jit *ss = NULL;
	rx_jit_vm *jit = NULL;

	if ((f & RANDOMX_FLAG_JIT) && (!(ss = rx_ss_jit_new(0)) ||
	    rx_ss_jit_compile(ss, state->cache) ||
	    !(jit = rx_jit_vm_new(0)))) {
		fprintf(stderr, "benchmark: the RandomX JIT failed\n");
		return 1;
	}
#endif
	n = build_parts(list, f);
	for (i = 0; i < n; i++) {
		list[i].cache = state->cache;
		list[i].vm = vm;
		list[i].state = state;
		list[i].buf = buf;
#if RX_HAVE_JIT
		list[i].ss = ss;
		list[i].jit = jit;
#endif
	}
	if (o->ncpus)
		bench_pin_thread(o->cpus[0]);
	if (!j)
		printf("Components (1 thread, %s, about %.2f s each):\n",
		    state->v2 ? "v2" : "v1", o->seconds);
	for (i = 0; i < n; i++) {
		bench_part_measure(&list[i].part, o->seconds);
		failed |= list[i].part.failed;
		if (!j)
			bench_part_print(&list[i].part);
	}
	if (j) {
		json_open(j, "components", '[');
		for (i = 0; i < n; i++)
			bench_part_json(j, &list[i].part);
		json_close(j, ']');
	}
	randomx_destroy_vm(vm);
	randomx_release_cache(cache);
#if RX_HAVE_JIT
	rx_ss_jit_free(ss);
	rx_jit_vm_free(jit);
#endif
	free(state->scratchpad);
	free(state);
	free(buf);
	return failed;
}
