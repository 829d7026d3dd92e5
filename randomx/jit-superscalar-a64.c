/*
 * jit-superscalar-a64.c: SuperscalarHash compiled to AArch64 (see jit.h).
 *
 * A cache's 8 programs become one routine, f(out, cache, items, n), that
 * computes n dataset items (chapter 7.3) one after the other:
 *	x4 .. x11	r0 .. r7 of the item
 *	x0		where the item goes (advanced by 64)
 *	x1		the cache	x2	the item numbers (advanced)
 *	x3		items left	x12	the first cache index
 *	x13		the cache line	x14, x15	scratch
 * A second routine computes one item for the compiled program loop in
 * light mode, which calls it directly with the registers of jit-a64.h:
 * r0 .. r7 in x8 .. x15, the index and then scratch in x4 and x5, the
 * line in x6, the cache in x7.
 * Each program starts by prefetching the cache line it will mix in, which
 * its result does not change; the line is used only after the program's
 * few hundred instructions.  Every SuperscalarHash instruction is one A64
 * instruction, except IMUL_RCP (a load of its reciprocal from the constant
 * pool in front of the code, then the multiply) and IADD_C / IXOR_C with
 * a constant no immediate form takes (its load from the pool, then the
 * operation).  Only caller-saved
 * registers are used: no stack frame.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit.h"

#if RX_JIT_A64

#include "randomx/jit-a64-asm.h"
#include "randomx/jit-a64.h"

#define POOL_BYTES 8192
#define CODE_BYTES 65536
#define JIT_BYTES (POOL_BYTES + CODE_BYTES)

#define XOUT 0
#define XITEMS 2
#define XN 3

/* where an item's computation keeps what: the batch routine's registers,
 * and the single-item routine's (jit-a64.h) */
typedef struct {
	int r[8];
	int cache, line, idx, s0, s1;
} ss_regs;

static const ss_regs batch_regs = {
	{ 4, 5, 6, 7, 8, 9, 10, 11 }, 1, 13, 12, 14, 15
};
static const ss_regs single_regs = {
	{ 8, 9, 10, 11, 12, 13, 14, 15 }, 7, 6, 4, 4, 5
};

typedef void (*ss_fn)(uint8_t *out, const uint8_t *cache,
    const uint64_t *items, size_t n);

struct rx_ss_jit {
	rx_exec_mem mem;
	ss_fn fn;
	const void *single;	/* jit-a64.h's rx_ss_jit_a64_single */
};

typedef struct {
	a64_asm a;
	uint64_t *pool;
	unsigned npool;
	const ss_regs *m;
} ss_compiler;

static void ldr_const(ss_compiler *c, int t, uint64_t k)
{
	unsigned i;

	for (i = 0; i < c->npool; i++)
		if (c->pool[i] == k)
			break;
	if (i == c->npool) {
		if (c->npool == POOL_BYTES / 8) {
			c->a.overflow = 1;
			return;
		}
		c->pool[c->npool++] = k;
	}
	a64_ldr_lit(&c->a, t,
	    (int32_t)(8 * i - POOL_BYTES - 4 * (int32_t)c->a.pos));
}

/*
 * t = k: one MOVZ or MOVN where that makes it, else a load from the pool
 * (one instruction off the dependency chains, where MOVZ/MOVN + MOVK
 * would be two).
 */
static void mov_const(ss_compiler *c, int t, uint64_t k)
{
	unsigned hw;

	for (hw = 0; hw < 4; hw++) {
		uint64_t rest = ~(UINT64_C(0xffff) << (16 * hw));

		if ((k & rest) == 0) {
			a64_movw(&c->a, A64_MOVZ, t, (uint32_t)(k >> (16 * hw)),
			    hw);
			return;
		}
		if ((~k & rest) == 0) {
			a64_movw(&c->a, A64_MOVN, t,
			    (uint32_t)(~k >> (16 * hw)), hw);
			return;
		}
	}
	ldr_const(c, t, k);
}

static void emit_op(ss_compiler *c, const rx_ss_op *op)
{
	a64_asm *a = &c->a;
	int d = c->m->r[op->dst], s = c->m->r[op->src], enc, S0 = c->m->s0;
	uint64_t k = op->k, m = 0 - k;

	switch (op->kind) {
	case RX_SS_ISUB_R:
		a64_rrr(a, A64_SUB, d, d, s, 0, 0);
		break;
	case RX_SS_IXOR_R:
		a64_rrr(a, A64_EOR, d, d, s, 0, 0);
		break;
	case RX_SS_IADD_RS:
		a64_rrr(a, A64_ADD, d, d, s, 0, op->shift);
		break;
	case RX_SS_IMUL_R:
		a64_mul(a, d, d, s);
		break;
	case RX_SS_IROR_C:
		a64_rori(a, d, d, op->shift);
		break;
	case RX_SS_IADD_C7:
		if (k < 4096) {
			a64_addi(a, 1, 0, d, d, (uint32_t)k, 0);
		} else if (m < 4096) {
			a64_addi(a, 1, 1, d, d, (uint32_t)m, 0);
		} else {
			mov_const(c, S0, k);
			a64_rrr(a, A64_ADD, d, d, S0, 0, 0);
		}
		break;
	case RX_SS_IXOR_C7:
		if ((enc = a64_bitmask(k)) >= 0) {
			a64_logi(a, A64_EORI, d, d, enc);
		} else {
			mov_const(c, S0, k);
			a64_rrr(a, A64_EOR, d, d, S0, 0, 0);
		}
		break;
	case RX_SS_IMULH_R:
		a64_umulh(a, d, d, s);
		break;
	case RX_SS_ISMULH_R:
		a64_smulh(a, d, d, s);
		break;
	case RX_SS_IMUL_RCP:
		ldr_const(c, S0, k);
		a64_mul(a, d, d, S0);
		break;
	default:
		a->overflow = 1;	/* no such operation: refuse */
		break;
	}
}

/* the cache line of index idx into m->line, prefetched */
static void emit_line(ss_compiler *c, int idx)
{
	a64_asm *a = &c->a;
	const ss_regs *m = c->m;

	/* UBFIZ line, idx, #6, #22: the line's offset in the cache */
	a64_put(a, 0xd37a0000u | 21u << 10 | (uint32_t)idx << 5 |
	    (uint32_t)m->line);
	a64_rrr(a, A64_ADD, m->line, m->cache, m->line, 0, 0);
	a64_prfm_reg(a, 0, m->line, A64_XZR);
}

/*
 * chapter 7.3 for the item number in m->idx: registers m->r[].  idx is
 * read before anything is written (it may be s0).
 */
static void emit_item(ss_compiler *c, const rx_cache_state *cs)
{
	a64_asm *a = &c->a;
	const ss_regs *m = c->m;
	int p, i;

	emit_line(c, m->idx);
	a64_addi(a, 1, 0, m->r[0], m->idx, 1, 0);
	ldr_const(c, m->s0, RX_ITEM_MUL);
	a64_mul(a, m->r[0], m->r[0], m->s0);
	for (i = 1; i < 8; i++) {
		ldr_const(c, m->s0, rx_item_xor[i]);
		a64_rrr(a, A64_EOR, m->r[i], m->r[0], m->s0, 0, 0);
	}
	for (p = 0; p < RX_CACHE_ACCESSES; p++) {
		const rx_ss_program *prog = &cs->programs[p];
		unsigned n;

		if (p)
			emit_line(c, m->r[cs->programs[p - 1].address_reg]);
		for (n = 0; n < prog->size; n++)
			emit_op(c, &prog->op[n]);
		for (i = 0; i < 8; i += 2) {
			a64_ldp(a, m->s0, m->s1, m->line, 8 * i);
			a64_rrr(a, A64_EOR, m->r[i], m->r[i], m->s0, 0, 0);
			a64_rrr(a, A64_EOR, m->r[i + 1], m->r[i + 1], m->s1,
			    0, 0);
		}
	}
}

/* f(out, cache, items, n): n items, one after the other */
static void emit_batch(ss_compiler *c, const rx_cache_state *cs)
{
	a64_asm *a = &c->a;
	size_t top, skip;
	int i;

	c->m = &batch_regs;
	skip = a->pos;
	a64_put(a, 0);		/* CBZ x3, the end */
	top = a->pos;
	/* LDR idx, [x2], #8 */
	a64_put(a, 0xf8400400u | 8u << 12 | XITEMS << 5 |
	    (uint32_t)batch_regs.idx);
	emit_item(c, cs);
	for (i = 0; i < 8; i += 2)
		a64_stp(a, batch_regs.r[i], batch_regs.r[i + 1], XOUT, 8 * i);
	a64_addi(a, 1, 0, XOUT, XOUT, 64, 0);
	a64_addi(a, 1, 1, XN, XN, 1, 0);
	/* CBNZ x3, top */
	a64_put(a, 0xb5000000u | ((uint32_t)(top - a->pos) & 0x7ffff) << 5 |
	    XN);
	if (a->pos <= a->cap)	/* CBZ x3 */
		a->buf[skip] = 0xb4000000u |
		    ((uint32_t)(a->pos - skip) & 0x7ffff) << 5 | XN;
	a64_ret(a);
}

/* the single-item routine of jit-a64.h: registers in, registers out */
static void emit_single(ss_compiler *c, const rx_cache_state *cs)
{
	c->m = &single_regs;
	emit_item(c, cs);
	a64_ret(&c->a);
}

rx_ss_jit *rx_ss_jit_new(int secure)
{
	return rx_exec_owner_new(sizeof(rx_ss_jit), offsetof(rx_ss_jit, mem),
	    JIT_BYTES, secure);
}

void rx_ss_jit_free(rx_ss_jit *j)
{
	rx_exec_owner_free(j, offsetof(rx_ss_jit, mem));
}

int rx_ss_jit_compile(rx_ss_jit *j, const rx_cache_state *c)
{
	ss_compiler sc;
	size_t single;

	j->fn = NULL;
	j->single = NULL;
	if (rx_exec_writable(&j->mem) < 0)
		return -1;
	a64_init(&sc.a, j->mem.w + POOL_BYTES, CODE_BYTES);
	sc.pool = (uint64_t *)(void *)j->mem.w;
	sc.npool = 0;
	emit_batch(&sc, c);
	single = sc.a.pos;
	emit_single(&sc, c);
	rx_exec_sync(&j->mem, JIT_BYTES);
	if (rx_exec_executable(&j->mem) || sc.a.overflow)
		return -1;
	j->fn = (ss_fn)(void *)(j->mem.x + POOL_BYTES);
	j->single = j->mem.x + POOL_BYTES + 4 * single;
	return 0;
}

const void *rx_ss_jit_a64_single(const rx_ss_jit *j)
{
	return j->single;
}

void rx_ss_jit_items(const rx_ss_jit *j, const uint8_t *cache_memory,
    const uint64_t *items, size_t n, uint8_t *out)
{
	j->fn(out, cache_memory, items, n);
}

void rx_ss_jit_dataset_init(const rx_ss_jit *j, const rx_cache_state *c,
    uint8_t *dataset, uint64_t start_item, uint64_t item_count)
{
	uint64_t numbers[RX_SS_JIT_MAX_BATCH], n = start_item;
	uint64_t end = start_item + item_count;
	size_t k, m;

	while (n < end) {
		m = end - n < RX_SS_JIT_MAX_BATCH ? (size_t)(end - n) :
		    RX_SS_JIT_MAX_BATCH;
		for (k = 0; k < m; k++)
			numbers[k] = n + k;
		j->fn(dataset + n * RX_DATASET_ITEM_BYTES, c->memory, numbers,
		    m);
		n += m;
	}
}

#endif /* RX_JIT_A64 */
