/*
 * jit-superscalar-x86.c: SuperscalarHash compiled to x86-64 (see jit.h).
 *
 * A dataset item is 8 programs, each followed by a read of a cache line
 * whose address only the program's result gives.  Computed one item at a
 * time that is 8 trips to memory in a chain (256 MiB of cache: each one a
 * miss), and waiting for them costs more than the programs.  Here a batch
 * of items takes turns instead: program k runs for item 0, 1, ... n-1 in
 * turn, each turn ending with the prefetch of that item's next line, which
 * is used only in the next pass, after the n-1 other items' programs.
 *
 * The routine, f(state, lines, n, cache), with the System V ABI:
 *	state: n items' registers r0..r7 (64 bytes each), in and out;
 *	lines: n pointers, the cache line each item mixes in next (in: the
 *	       first ones; they are advanced in place);
 *	for k = 0 .. 7: for each item: load its registers, run program k,
 *	       XOR its line into them, find and prefetch its next line (k < 7),
 *	       store them.
 * Registers inside: r8..r15 hold the item's r0..r7 (so every instruction
 * is one x86 instruction with REX.B/R); rax and rdx are the multiplier's;
 * rsi walks the states, rbx the line pointers, rbp is the states' end,
 * rdi the cache, rcx a line pointer.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit.h"

#if RX_HAVE_JIT

#include "cpu-features.h"
#include "randomx/jit-x86-asm.h"
#include "sysendian.h"

/* The largest routine: 8 programs of the longest instructions, and loops. */
#define SS_CODE_BYTES ((size_t)RX_CACHE_ACCESSES * \
	(RX_SUPERSCALAR_MAX_SIZE * 14 + 256) + 256)

typedef void (*ss_routine)(uint8_t *state, const uint8_t **lines, size_t n,
    const uint8_t *cache);

struct rx_ss_jit {
	rx_exec_mem mem;
	ss_routine fn;		/* NULL until compiled */
};

#define VREG(i) (RX_R8 + (i))	/* SuperscalarHash register i */

static void emit_op(rx_asm *a, const rx_ss_op *op, int bmi2)
{
	int d = VREG(op->dst), s = VREG(op->src);

	switch (op->kind) {
	case RX_SS_ISUB_R:
		rx_alu(a, RX_SUB, d, rx_reg(s));
		break;
	case RX_SS_IXOR_R:
		rx_alu(a, RX_XOR, d, rx_reg(s));
		break;
	case RX_SS_IADD_RS:
		rx_lea(a, 1, d, rx_mem_idx(d, s, op->shift, 0));
		break;
	case RX_SS_IMUL_R:
		rx_imul(a, d, rx_reg(s));
		break;
	case RX_SS_IROR_C:
		if (op->shift)
			rx_shift_imm(a, 1, 1, d, op->shift);
		break;
	case RX_SS_IADD_C7:
		rx_alu_imm(a, 1, 0, rx_reg(d), (int32_t)op->k);
		break;
	case RX_SS_IXOR_C7:
		rx_alu_imm(a, 1, 6, rx_reg(d), (int32_t)op->k);
		break;
	case RX_SS_IMULH_R:
		if (bmi2) {
			rx_alu(a, RX_MOV, RX_RDX, rx_reg(d));
			rx_mulx(a, d, RX_RAX, rx_reg(s));
		} else {
			rx_alu(a, RX_MOV, RX_RAX, rx_reg(d));
			rx_grp3(a, 4, rx_reg(s));
			rx_alu(a, RX_MOV, d, rx_reg(RX_RDX));
		}
		break;
	case RX_SS_ISMULH_R:
		rx_alu(a, RX_MOV, RX_RAX, rx_reg(d));
		rx_grp3(a, 5, rx_reg(s));
		rx_alu(a, RX_MOV, d, rx_reg(RX_RDX));
		break;
	default:	/* RX_SS_IMUL_RCP */
		rx_mov_imm(a, RX_RAX, op->k);
		rx_imul(a, d, rx_reg(RX_RAX));
		break;
	}
}

/* Stack slots of the routine: the states, the lines, the states' end. */
#define SLOT_STATE 0
#define SLOT_LINES 8
#define SLOT_END 16

static void emit_pass(rx_asm *a, const rx_ss_program *p, int last, int bmi2)
{
	const uint8_t *top;
	uint32_t i;

	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RSP, SLOT_STATE));
	rx_alu(a, RX_MOV, RX_RBX, rx_mem(RX_RSP, SLOT_LINES));
	rx_align(a, 16);
	top = rx_asm_here(a);
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RSI, 8 * (int32_t)i));
	for (i = 0; i < p->size; i++)
		emit_op(a, &p->op[i], bmi2);
	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RBX, 0));
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_XOR, VREG(i), rx_mem(RX_RCX, 8 * (int32_t)i));
	if (!last) {
		/* the next line: cache + 64 * (r[address_reg] mod items) */
		rx_alu32(a, RX_MOV, RX_RCX, rx_reg(VREG(p->address_reg)));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX), (int32_t)(RX_CACHE_ITEMS - 1));
		rx_shift_imm(a, 1, 4, RX_RCX, 6);
		rx_alu(a, RX_ADD, RX_RCX, rx_reg(RX_RDI));
		rx_prefetch(a, 1, rx_mem(RX_RCX, 0));
		rx_store(a, rx_mem(RX_RBX, 0), RX_RCX);
	}
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RSI, 8 * (int32_t)i), VREG(i));
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSI), 64);
	rx_alu_imm(a, 1, 0, rx_reg(RX_RBX), 8);
	rx_alu(a, RX_CMP, RX_RSI, rx_reg(RX_RBP));
	rx_jump(a, 2, top);		/* jb */
}

static const int saved[] = {
	RX_RBX, RX_RBP, RX_R12, RX_R13, RX_R14, RX_R15
};

/* The routine for c's programs into a, from its start. */
static void emit_routine(rx_asm *a, const rx_cache_state *c, int bmi2)
{
	int i;

	for (i = 0; i < 6; i++)
		rx_push(a, saved[i]);
	rx_alu_imm(a, 1, 5, rx_reg(RX_RSP), 24);
	rx_store(a, rx_mem(RX_RSP, SLOT_STATE), RX_RDI);
	rx_store(a, rx_mem(RX_RSP, SLOT_LINES), RX_RSI);
	rx_shift_imm(a, 1, 4, RX_RDX, 6);
	rx_alu(a, RX_ADD, RX_RDX, rx_reg(RX_RDI));
	rx_store(a, rx_mem(RX_RSP, SLOT_END), RX_RDX);
	rx_alu(a, RX_MOV, RX_RBP, rx_reg(RX_RDX));
	rx_alu(a, RX_MOV, RX_RDI, rx_reg(RX_RCX));
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		emit_pass(a, &c->programs[i], i == RX_CACHE_ACCESSES - 1, bmi2);
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSP), 24);
	for (i = 5; i >= 0; i--)
		rx_pop(a, saved[i]);
	rx_ret(a);
}

rx_ss_jit *rx_ss_jit_new(int secure)
{
	rx_ss_jit *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	if (rx_exec_alloc(&j->mem, SS_CODE_BYTES, secure)) {
		free(j);
		return NULL;
	}
	return j;
}

void rx_ss_jit_free(rx_ss_jit *j)
{
	if (!j)
		return;
	rx_exec_free(&j->mem);
	free(j);
}

int rx_ss_jit_compile(rx_ss_jit *j, const rx_cache_state *c)
{
	rx_asm a;

	j->fn = NULL;
	if (rx_exec_writable(&j->mem))
		return -1;
	rx_asm_init(&a, j->mem.base, j->mem.len);
	emit_routine(&a, c, pow_cpu_has(POW_CPU_BMI2));
	if (rx_exec_executable(&j->mem) || a.overflow)
		return -1;
	j->fn = (ss_routine)(void *)j->mem.base;
	return 0;
}

/*
 * Step 1 of chapter 7.3 for item n into state (see dataset.c: the same
 * constants from BLAKE2b-512 of "RandomX SuperScalarHash initialize").
 */
static void init_registers(uint8_t *state, uint64_t n)
{
	static const uint64_t k[8] = {
		0,
		UINT64_C(9298411001130361340),
		UINT64_C(12065312585734608966),
		UINT64_C(9306329213124626780),
		UINT64_C(5281919268842080866),
		UINT64_C(10536153434571861004),
		UINT64_C(3398623926847679864),
		UINT64_C(9549104520008361294),
	};
	uint64_t r0 = (n + 1) * UINT64_C(6364136223846793005), *r;
	int i;

	r = (uint64_t *)(void *)state;
	for (i = 0; i < 8; i++)
		r[i] = r0 ^ k[i];
}

static const uint8_t *first_line(const uint8_t *cache, uint64_t n)
{
	const uint8_t *line = cache + (n & (RX_CACHE_ITEMS - 1)) *
	    RX_DATASET_ITEM_BYTES;

	__builtin_prefetch(line, 0, 3);
	return line;
}

void rx_ss_jit_items(const rx_ss_jit *j, const uint8_t *cache_memory,
    const uint64_t *items, size_t n, uint8_t *out)
{
	const uint8_t *lines[RX_SS_JIT_MAX_BATCH];
	uint64_t state[RX_SS_JIT_MAX_BATCH * 8];
	size_t i;

	for (i = 0; i < n; i++) {
		lines[i] = first_line(cache_memory, items[i]);
		init_registers((uint8_t *)&state[8 * i], items[i]);
	}
	j->fn((uint8_t *)state, lines, n, cache_memory);
	for (i = 0; i < 8 * n; i++)
		le64enc(out + 8 * i, state[i]);
}

/* Items per call when building the dataset (see the file's comment). */
#define DATASET_BATCH 16

void rx_ss_jit_dataset_init(const rx_ss_jit *j, const rx_cache_state *c,
    uint8_t *dataset, uint64_t start_item, uint64_t item_count)
{
	const uint8_t *lines[DATASET_BATCH];
	uint64_t n = start_item, end = start_item + item_count;

	/* The routine works on the dataset's own slots (little-endian). */
	while (n < end) {
		size_t b = end - n < DATASET_BATCH ? (size_t)(end - n) :
		    DATASET_BATCH, i;
		uint8_t *slot = dataset + n * RX_DATASET_ITEM_BYTES;

		for (i = 0; i < b; i++) {
			lines[i] = first_line(c->memory, n + i);
			init_registers(slot + RX_DATASET_ITEM_BYTES * i, n + i);
		}
		j->fn(slot, lines, b, c->memory);
		n += b;
	}
}

#endif /* RX_HAVE_JIT */
