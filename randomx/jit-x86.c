/*
 * jit-x86.c: RandomX programs compiled to x86-64 (see jit.h).
 *
 * The program is decoded by program-decode.h's step, as for the
 * interpreter (the same operations, no-ops left out, CBRANCH targets in
 * the decoded numbering), one instruction word at a time, and each
 * operation becomes one to six x86 instructions inside the program loop
 * of chapter 4.6.2, which is compiled around it.  Registers live in
 * machine registers throughout (jit-x86.h has the allocation).  Each
 * operation's code comes from its emitter, picked from a table by
 * operation (emitters below); the emitters are grouped by kind in
 * jit-x86-int.c, jit-x86-fp.c and jit-x86-ctl.c.
 *
 * The rounding mode is MXCSR's RC field, which has fprc's encoding; the
 * caller's MXCSR is saved and restored.  Group E conversion and FP
 * arithmetic are SSE2's, IEEE-754 double, as the interpreter's C.  Where
 * rx_jit_rounding_copies() says so (v1 on AMD's AVX-512 cores), the mode
 * is instead the copy of the program that runs (emit_copies), and the
 * rounding FP operations are AVX-512's with the mode in the instruction.
 *
 * Differences from a line-by-line translation, for speed:
 * - IMULH uses BMI2's MULX where the CPU has it; 64-bit multipliers
 *   (IMUL_RCP) are immediates of a mov into rax; 64-bit addends (IADD_C)
 *   are loaded from a constant pool in front of the code.
 * - Light mode: the item numbers of the next iteration (v1) or two (v2)
 *   are known before they are needed, so items are computed two or three
 *   at a time (rx_ss_jit_items), which overlaps their cache misses.
 */
#include <stdlib.h>
#include <string.h>

#include "randomx/jit-x86.h"

#if RX_JIT_X86_64

#include "randomx/program-decode.h"

/* Most light items computed at once: two in v1, three in v2. */
#define LIGHT_GROUP 3

/*
 * What the compiled loop reads and writes.  The offsets are used by the
 * generated code (offsetof); a, the masks and the results are 16-byte
 * aligned for movapd.
 */
typedef struct rx_jit_ctx {
	uint64_t r[8];
	uint64_t f[8];
	uint64_t e[8];
	uint64_t a[8];
	uint64_t e_and[2], e_or[2], scale[2];
	uint8_t *scratchpad;
	const uint8_t *memory;		/* full mode: dataset + offset */
	uint64_t mem;			/* rbp at the start */
	uint32_t sp0, sp1;		/* first iteration's addresses */
	uint32_t iterations;
	uint32_t mxcsr;			/* in, and out at the end */
	/* light mode */
	const rx_ss_jit *ss;
	const rx_cache_state *cache;
	void (*item_trace)(void *ctx, uint64_t item_number);
	void *item_trace_ctx;
	uint64_t dataset_offset;
	uint32_t done, pending, next;
	int v2;
	uint64_t numbers[LIGHT_GROUP];
	uint8_t items[LIGHT_GROUP][64] __attribute__((aligned(64)));
} rx_jit_ctx;

typedef void (*program_fn)(rx_jit_ctx *ctx);

struct rx_jit_vm {
	rx_jit_ctx ctx __attribute__((aligned(64)));
	rx_exec_mem mem;
	program_fn fn;
	size_t head_len, top;	/* the head, the same for every program */
	int head_copies;	/* which head: emit_copies' or the plain one */
	uint32_t pos[RX_PROGRAM_MAX_SIZE + 1];	/* each operation's code */
};

/* ---- the stack frame of the compiled function ---- */

#define SAVED_REGS 6
static const int callee_saved[SAVED_REGS] = {
	RX_RBX, RX_RBP, RX_R12, RX_R13, RX_R14, RX_R15
};
_Static_assert(FRAME % 16 == 8, "the frame keeps calls 16-byte aligned");

/* ---- compiling one program ---- */

typedef rx_x86_compiler compiler;

/*
 * Each operation's emitter.  The table is constant and indexed by a
 * constant in each of the decoder's cases (emit_program), so the compiler
 * turns each lookup into a direct call.
 */
static rx_x86_emitter *const emitters[RX_OP_COUNT] = {
	[RX_OP_IADD_RS] = rx_x86_iadd_rs, [RX_OP_IADD_M] = rx_x86_iadd_m,
	[RX_OP_IADD_C] = rx_x86_iadd_c, [RX_OP_ISUB_R] = rx_x86_isub_r,
	[RX_OP_ISUB_M] = rx_x86_isub_m, [RX_OP_IMUL_R] = rx_x86_imul_r,
	[RX_OP_IMUL_M] = rx_x86_imul_m, [RX_OP_IMUL_C] = rx_x86_imul_c,
	[RX_OP_IMULH_R] = rx_x86_imulh_r, [RX_OP_IMULH_M] = rx_x86_imulh_m,
	[RX_OP_ISMULH_R] = rx_x86_ismulh_r,
	[RX_OP_ISMULH_M] = rx_x86_ismulh_m,
	[RX_OP_INEG_R] = rx_x86_ineg_r, [RX_OP_IXOR_R] = rx_x86_ixor_r,
	[RX_OP_IXOR_M] = rx_x86_ixor_m, [RX_OP_IXOR_C] = rx_x86_ixor_c,
	[RX_OP_IROR_R] = rx_x86_iror_r, [RX_OP_IROL_R] = rx_x86_irol_r,
	[RX_OP_IROR_C] = rx_x86_iror_c, [RX_OP_ISWAP_R] = rx_x86_iswap_r,
	[RX_OP_FSWAP_R] = rx_x86_fswap_r, [RX_OP_FADD_R] = rx_x86_fadd_r,
	[RX_OP_FADD_M] = rx_x86_fadd_m, [RX_OP_FSUB_R] = rx_x86_fsub_r,
	[RX_OP_FSUB_M] = rx_x86_fsub_m, [RX_OP_FSCAL_R] = rx_x86_fscal_r,
	[RX_OP_FMUL_R] = rx_x86_fmul_r, [RX_OP_FDIV_M] = rx_x86_fdiv_m,
	[RX_OP_FSQRT_R] = rx_x86_fsqrt_r, [RX_OP_CBRANCH] = rx_x86_cbranch,
	[RX_OP_CFROUND] = rx_x86_cfround, [RX_OP_ISTORE] = rx_x86_istore,
};

/* One operation's code, if there is room for any. */
static inline __attribute__((always_inline)) void emit_insn(compiler *c,
    const rx_insn *in)
{
	if (c->a.pos + INSN_ROOM > c->a.cap) {
		c->a.overflow = 1;
		return;
	}
	if (in->op < RX_OP_COUNT && emitters[in->op])
		emitters[in->op](c, in);
}

/* eax = readReg2 ^ readReg3 (32 bits) */
static void emit_mix23(compiler *c, const rx_program_config *cfg)
{
	rx_alu32(&c->a, RX_MOV, RX_RAX, rx_reg(VREG(cfg->read_reg[2])));
	rx_alu32(&c->a, RX_XOR, RX_RAX, rx_reg(VREG(cfg->read_reg[3])));
}

/* mx ^= eax, and the prefetch of the dataset line it names (v1, full). */
static void emit_v1_prefetch(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	emit_mix23(c, cfg);
	rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
	rx_alu32(a, RX_MOV, RX_RAX, rx_reg(RX_RBP));
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), (int32_t)RX_DATASET_ADDR_MASK);
	rx_prefetch(a, 0, rx_mem_idx(RX_RDI, RX_RAX, 0, 0));
}

/* r0 .. r7 ^= the 64 bytes at [base + index] */
static void emit_xor_item(rx_asm *a, int base, int index)
{
	int i;

	for (i = 0; i < 8; i++)
		rx_alu(a, RX_XOR, VREG(i), index < 0 ? rx_mem(base, 8 * i) :
		    rx_mem_idx(base, index, 0, 8 * i));
}

/*
 * Around a call to C: the registers a C function may change and the
 * loop needs (r8 .. r11, rsi, rdi, xmm0 .. xmm15) go to the frame and
 * back.
 */
static void emit_save(rx_asm *a)
{
	int i;

	for (i = 0; i < 4; i++)
		rx_store(a, rx_mem(RX_RSP, F_GPR + 8 * i), VREG(i));
	rx_store(a, rx_mem(RX_RSP, F_GPR + 32), RX_RSI);
	rx_store(a, rx_mem(RX_RSP, F_GPR + 40), RX_RDI);
	for (i = 0; i < 16; i++)
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RSP, F_XMM + 16 * i));
}

static void emit_restore(rx_asm *a)
{
	int i;

	for (i = 0; i < 16; i++)
		rx_sse(a, RX_MOVAPD_LOAD, i, rx_mem(RX_RSP, F_XMM + 16 * i));
	for (i = 0; i < 4; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RSP, F_GPR + 8 * i));
	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RSP, F_GPR + 32));
	rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RSP, F_GPR + 40));
}

static const uint8_t *light_item(rx_jit_ctx *x, uint64_t old_mem,
    uint64_t new_mem);

/* k1 = 3, emit_copies' mask: the low two lanes of a zmm register */
static void emit_k1(rx_asm *a)
{
	rx_b(a, 0xb9);		/* mov ecx, 3 */
	rx_b32(a, 3);
	rx_kmovw_k_r32(a, 1, RX_RCX);
}

/* Steps 7 (the dataset item) and the memory registers' swap. */
static void emit_read_dataset(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	if (!c->full) {
		/* light_item(ctx, rbp before, rbp after the XOR) */
		emit_save(a);
		rx_alu(a, RX_MOV, RX_RSI, rx_reg(RX_RBP));
		emit_mix23(c, cfg);
		rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
		rx_alu(a, RX_MOV, RX_RDX, rx_reg(RX_RBP));
		rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RSP, F_CTX));
		rx_mov_imm(a, RX_RAX, (uint64_t)(uintptr_t)light_item);
		rx_call_reg(a, RX_RAX);
		emit_restore(a);
		if (c->copies)
			emit_k1(a);	/* C may have used it */
		emit_xor_item(a, RX_RAX, -1);
	} else if (!c->v2) {
		/*
		 * ma's address from rbp as it came into the iteration,
		 * before mx's XOR: read after it, the CPU would wait for
		 * readReg2 and readReg3 (two of the program's last results)
		 * before it could load the item, and the next iteration's
		 * scratchpad addresses wait for the item.
		 */
		rx_alu(a, RX_MOV, RX_RCX, rx_reg(RX_RBP));
		rx_shift_imm(a, 1, 5, RX_RCX, 32);
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		emit_v1_prefetch(c, cfg);
		emit_xor_item(a, RX_RDI, RX_RCX);
	} else {
		rx_alu32(a, RX_MOV, RX_RCX, rx_reg(RX_RBP));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		emit_mix23(c, cfg);
		rx_alu(a, RX_XOR, RX_RBP, rx_reg(RX_RAX));
		rx_alu32(a, RX_MOV, RX_RDX, rx_reg(RX_RBP));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RDX),
		    (int32_t)RX_DATASET_ADDR_MASK);
		rx_prefetch(a, 0, rx_mem_idx(RX_RDI, RX_RDX, 0, 0));
		emit_xor_item(a, RX_RDI, RX_RCX);
	}
	rx_shift_imm(a, 1, 1, RX_RBP, 32);	/* ror: swap ma and mx */
}

/* Steps 8 to 11: R to spAddr1, F (mixed with E) to spAddr0. */
static void emit_store(compiler *c)
{
	rx_asm *a = &c->a;
	int i, k;

	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_SP1));
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RCX, 8 * i), VREG(i));
	if (!c->v2) {
		for (i = 0; i < 4; i++)
			rx_sse(a, RX_XORPD, i, rx_reg(4 + i));
	} else if (c->hard_aes) {
		for (k = 0; k < 4; k++)
			for (i = 0; i < 4; i++)
				rx_sse(a, i & 1 ? RX_AESDEC : RX_AESENC, i,
				    rx_reg(4 + k));
	} else {
		emit_save(a);
		rx_lea(a, 1, RX_RDI, rx_mem(RX_RSP, F_XMM));
		rx_lea(a, 1, RX_RSI, rx_mem(RX_RSP, F_XMM + 64));
		rx_mov_imm(a, RX_RAX, (uint64_t)(uintptr_t)c->mix_fe);
		rx_call_reg(a, RX_RAX);
		emit_restore(a);
	}
	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_SP0));
	for (i = 0; i < 4; i++)
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RCX, 16 * i));
}

/* Step 1 and 2 of the next iteration's addresses: eax, edx. */
static void emit_next_addresses(compiler *c, const rx_program_config *cfg)
{
	rx_asm *a = &c->a;

	rx_alu(a, RX_MOV, RX_RAX, rx_reg(VREG(cfg->read_reg[0])));
	rx_alu(a, RX_XOR, RX_RAX, rx_reg(VREG(cfg->read_reg[1])));
	rx_alu(a, RX_MOV, RX_RDX, rx_reg(RX_RAX));
	rx_shift_imm(a, 1, 5, RX_RDX, 32);
	rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), (int32_t)RX_L3_MASK64);
	rx_alu_imm(a, 0, 4, rx_reg(RX_RDX), (int32_t)RX_L3_MASK64);
	rx_prefetch(a, 1, rx_mem_idx(RX_RSI, RX_RAX, 0, 0));
	rx_prefetch(a, 1, rx_mem_idx(RX_RSI, RX_RDX, 0, 0));
}

/* Steps 3 and 4: R from spAddr0, F and E from spAddr1 (eax, edx). */
static void emit_loop_load(rx_asm *a)
{
	int i;

	rx_lea(a, 1, RX_RCX, rx_mem_idx(RX_RSI, RX_RAX, 0, 0));
	rx_store(a, rx_mem(RX_RSP, F_SP0), RX_RCX);
	emit_xor_item(a, RX_RCX, -1);
	rx_lea(a, 1, RX_RCX, rx_mem_idx(RX_RSI, RX_RDX, 0, 0));
	rx_store(a, rx_mem(RX_RSP, F_SP1), RX_RCX);
	for (i = 0; i < 8; i++)
		rx_sse(a, RX_CVTDQ2PD, i, rx_mem(RX_RCX, 8 * i));
	for (i = 4; i < 8; i++)
		rx_sse(a, RX_ANDPS, i, rx_reg(XEAND));
	for (i = 4; i < 8; i++)
		rx_sse(a, RX_ORPS, i, rx_reg(XEOR));
}

static void emit_prologue(rx_asm *a)
{
	int i;

	for (i = 0; i < SAVED_REGS; i++)
		rx_push(a, callee_saved[i]);
	rx_alu_imm(a, 1, 5, rx_reg(RX_RSP), FRAME);
	rx_store(a, rx_mem(RX_RSP, F_CTX), RX_RDI);
	rx_stmxcsr(a, rx_mem(RX_RSP, F_CALLER_MXCSR));
	rx_ldmxcsr(a, rx_mem(RX_RDI, offsetof(rx_jit_ctx, mxcsr)));
	for (i = 0; i < 4; i++)
		rx_sse(a, RX_MOVAPD_LOAD, XA(i),
		    rx_mem(RX_RDI, offsetof(rx_jit_ctx, a) + 16 * i));
	rx_sse(a, RX_MOVAPD_LOAD, XEAND,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, e_and)));
	rx_sse(a, RX_MOVAPD_LOAD, XEOR,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, e_or)));
	rx_sse(a, RX_MOVAPD_LOAD, XSCALE,
	    rx_mem(RX_RDI, offsetof(rx_jit_ctx, scale)));
	rx_alu(a, RX_MOV, RX_RSI, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, scratchpad)));
	rx_alu(a, RX_MOV, RX_RBP, rx_mem(RX_RDI, offsetof(rx_jit_ctx, mem)));
	rx_alu32(a, RX_MOV, RX_RBX, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, iterations)));
	rx_alu32(a, RX_MOV, RX_RAX, rx_mem(RX_RDI, offsetof(rx_jit_ctx, sp0)));
	rx_alu32(a, RX_MOV, RX_RDX, rx_mem(RX_RDI, offsetof(rx_jit_ctx, sp1)));
	for (i = 0; i < 8; i++)
		rx_alu(a, RX_MOV, VREG(i), rx_mem(RX_RDI,
		    offsetof(rx_jit_ctx, r) + 8 * i));
	rx_alu(a, RX_MOV, RX_RDI, rx_mem(RX_RDI,
	    offsetof(rx_jit_ctx, memory)));
}

/* With copies, the final rounding mode is the number of the copy. */
static void emit_epilogue(rx_asm *a, int copies)
{
	int i;

	rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_CTX));
	for (i = 0; i < 8; i++)
		rx_store(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, r) + 8 * i),
		    VREG(i));
	for (i = 0; i < 4; i++) {
		rx_sse(a, RX_MOVAPD_STORE, i, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, f) + 16 * i));
		rx_sse(a, RX_MOVAPD_STORE, 4 + i, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, e) + 16 * i));
	}
	if (copies) {
		rx_lea_next(a, RX_RAX);
		rx_alu_imm(a, 0, 4, rx_reg(RX_RAX), COPY_MODE_BITS);
		rx_alu_imm(a, 0, 1, rx_reg(RX_RAX), MXCSR_DEFAULT);
		rx_store32(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, mxcsr)),
		    RX_RAX);
	} else {
		rx_stmxcsr(a, rx_mem(RX_RCX, offsetof(rx_jit_ctx, mxcsr)));
	}
	rx_ldmxcsr(a, rx_mem(RX_RSP, F_CALLER_MXCSR));
	rx_alu_imm(a, 1, 0, rx_reg(RX_RSP), FRAME);
	for (i = SAVED_REGS - 1; i >= 0; i--)
		rx_pop(a, callee_saved[i]);
	if (copies)
		rx_vzeroupper(a);
	rx_ret(a);
}

/* emit_insn as rx_decode_word's sink. */
static inline __attribute__((always_inline)) void emit_decoded(void *ctx,
    const rx_insn *in)
{
	emit_insn((compiler *)ctx, in);
}

/*
 * The program's instructions, count words: each decoded and compiled at
 * once.  The decoder's step calls emit_insn (both inlined) in each of its
 * cases with the operation known, so the compiler turns emit_insn's
 * table lookup into a direct call of that operation's emitter: one
 * dispatch an instruction, where decoding the whole program first and
 * then compiling it took two (measured: PERFORMANCE section 7).  pos[k]
 * is where operation k's code starts, for the CBRANCHes that jump back to
 * it.
 */
static void emit_program(compiler *c, const uint8_t *words, unsigned count)
{
	rx_decoder d;
	rx_insn in;
	unsigned i;

	rx_decoder_init(&d);
	for (i = 0; i < count; i++) {
		c->pos[d.n] = (uint32_t)c->a.pos;
		rx_decode_word(&d, words + 8 * i, &in, emit_decoded, c);
	}
}

/* The program and the rest of the loop, back to top, and the epilogue. */
static void emit_loop_rest(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg, const uint8_t *top)
{
	rx_asm *a = &c->a;

	emit_program(c, words, count);
	emit_read_dataset(c, cfg);
	/*
	 * The next iteration's addresses, and their prefetch, as soon as
	 * they are final, unless the store calls soft AES (which clobbers
	 * rax and rdx).
	 */
	if (c->v2 && !c->hard_aes) {
		emit_store(c);
		emit_next_addresses(c, cfg);
	} else {
		emit_next_addresses(c, cfg);
		emit_store(c);
	}
	rx_alu_imm(a, 0, 5, rx_reg(RX_RBX), 1);
	rx_jump(a, 5, top);
	emit_epilogue(a, c->copies);
}

/*
 * Programs as four copies, one for each rounding mode (PERFORMANCE
 * section 9: LDMXCSR that changes the mode cost about 57 cycles on a Zen
 * 5, and v1 changes it about 0.75 times an iteration).  Each copy's FP
 * operations carry their mode in the instruction (AVX-512's embedded
 * rounding, t_evex), CFROUND jumps to the same place in the copy of the
 * new mode, and MXCSR's mode is left alone.  The copies lie COPY_STRIDE
 * apart from a COPY_ALIGN boundary, so that bits 13-14 of an address in
 * them are the mode (as in MXCSR); nothing in a copy refers outside it
 * but for absolute addresses, so the other three are the first copied,
 * with their rounding bits set.  The head (emitted once per VM) starts
 * the copy of ctx->mxcsr's mode.  The boundary and the addresses are
 * where the code runs (c->run_at), which is not where it is written.  -1
 * if a copy would not fit.
 */
#define COPIES_HEAD_ROOM 512

static int emit_copies(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg)
{
	rx_asm *a = &c->a;
	uintptr_t run0 = (c->run_at + COPIES_HEAD_ROOM + COPY_ALIGN - 1) &
	    ~(uintptr_t)(COPY_ALIGN - 1);
	uint8_t *copy0;
	size_t len, m, i;

	c->copy_base = (size_t)(run0 - c->run_at);
	if (c->copy_base + COPY_ALIGN > a->cap)
		return -1;
	copy0 = a->buf + c->copy_base;
	if (!*c->head_len || !*c->head_copies) {
		a->pos = 0;
		emit_prologue(a);
		emit_k1(a);
		rx_alu(a, RX_MOV, RX_RCX, rx_mem(RX_RSP, F_CTX));
		rx_alu32(a, RX_MOV, RX_RCX, rx_mem(RX_RCX,
		    offsetof(rx_jit_ctx, mxcsr)));
		rx_alu_imm(a, 0, 4, rx_reg(RX_RCX), COPY_MODE_BITS);
		rx_store(a, rx_mem(RX_RSP, F_ENTRY), RX_RCX);
		rx_mov_imm(a, RX_RCX, (uint64_t)run0);
		rx_alu(a, RX_ADD, RX_RCX, rx_mem(RX_RSP, F_ENTRY));
		rx_jmp_reg(a, RX_RCX);
		if (a->overflow || a->pos > COPIES_HEAD_ROOM)
			return -1;
		*c->head_len = a->pos;
		*c->head_copies = 1;
	}
	a->pos = c->copy_base;
	c->nrc = 0;
	emit_loop_load(a);
	emit_loop_rest(c, words, count, cfg, copy0);
	len = a->pos - c->copy_base;
	if (a->overflow || len > COPY_STRIDE)
		return -1;
	for (m = 1; m < 4; m++) {
		uint8_t *copy = copy0 + m * COPY_STRIDE;

		memcpy(copy, copy0, len);
		for (i = 0; i < c->nrc; i++)
			copy[c->rc_at[i]] |= (uint8_t)(m << 5);
	}
	return 0;
}

/* The whole function for a program of count instruction words. */
static void emit_function(compiler *c, const uint8_t *words, unsigned count,
    const rx_program_config *cfg)
{
	rx_asm *a = &c->a;
	size_t to_top;

	if (c->copies) {
		if (emit_copies(c, words, count, cfg) == 0)
			return;
		/* too long for a copy: as usual */
		c->copies = 0;
		a->overflow = 0;
		*c->head_len = 0;
	}
	/* The prologue and the loop's first steps: only once per VM. */
	if (*c->head_len && !*c->head_copies) {
		a->pos = *c->head_len;
	} else {
		a->pos = 0;
		emit_prologue(a);
		to_top = rx_jump8_fwd(a, -1);
		rx_align(a, 64);
		rx_patch8(a, to_top);
		*c->top = a->pos;
		emit_loop_load(a);
		*c->head_copies = 0;
		*c->head_len = a->overflow ? 0 : a->pos;
	}
	emit_loop_rest(c, words, count, cfg, a->buf + *c->top);
}

/* ---- light mode's items ---- */

static uint64_t item_number(const rx_jit_ctx *x, uint32_t m)
{
	return (x->dataset_offset + (m & RX_DATASET_ADDR_MASK)) /
	    RX_DATASET_ITEM_BYTES;
}

/*
 * The item this iteration mixes in, from the compiled loop (light mode):
 * old_mem and new_mem are rbp before and after the iteration's XOR.  When
 * none is left from before, it computes this one together with those the
 * next iterations will read, which the memory registers already name:
 * v1 reads ma (high half) now and the new mx next; v2 reads ma (low half)
 * now, mx next, the new ma after that.
 */
static const uint8_t *light_item(rx_jit_ctx *x, uint64_t old_mem,
    uint64_t new_mem)
{
	uint32_t k, left = x->iterations - x->done, n;

	if (x->next >= x->pending) {
		if (x->v2) {
			x->numbers[0] = item_number(x, (uint32_t)old_mem);
			x->numbers[1] = item_number(x, (uint32_t)(new_mem >> 32));
			x->numbers[2] = item_number(x, (uint32_t)new_mem);
			n = 3;
		} else {
			x->numbers[0] = item_number(x, (uint32_t)(old_mem >> 32));
			x->numbers[1] = item_number(x, (uint32_t)new_mem);
			n = 2;
		}
		if (n > left)
			n = left;
		if (x->ss)
			rx_ss_jit_items(x->ss, x->cache->memory, x->numbers, n,
			    x->items[0]);
		else
			for (k = 0; k < n; k++)
				rx_dataset_item(x->cache, x->numbers[k],
				    x->items[k]);
		x->pending = n;
		x->next = 0;
	}
	k = x->next++;
	x->done++;
	if (x->item_trace)
		x->item_trace(x->item_trace_ctx, x->numbers[k]);
	return x->items[k];
}

/* ---- the VM's side ---- */

rx_jit_vm *rx_jit_vm_new(int secure)
{
	return rx_exec_owner_new(sizeof(rx_jit_vm), offsetof(rx_jit_vm, mem),
	    JIT_BYTES, secure);
}

void rx_jit_vm_free(rx_jit_vm *j)
{
	rx_exec_owner_free(j, offsetof(rx_jit_vm, mem));
}

const void *rx_jit_vm_code(const rx_jit_vm *j)
{
	return j->mem.x;
}

int rx_jit_vm_compile(rx_jit_vm *j, const rx_vm_state *vm)
{
	compiler c;
	int fresh;

	j->fn = NULL;
	if ((fresh = rx_exec_writable(&j->mem)) < 0)
		return -1;
	if (fresh)
		j->head_len = 0;	/* the head is gone: emit it again */
	rx_asm_init(&c.a, j->mem.w + POOL_BYTES, CODE_BYTES);
	c.run_at = (uintptr_t)(j->mem.x + POOL_BYTES);
	c.pool = (uint64_t *)(void *)j->mem.w;
	c.npool = 0;
	c.pos = j->pos;
	c.head_len = &j->head_len;
	c.head_copies = &j->head_copies;
	c.top = &j->top;
	c.copies = rx_jit_rounding_copies(vm->v2);
	c.bmi2 = rx_cpu_uses(RX_USE_JIT_MULX);
	c.v2 = vm->v2;
	c.full = vm->dataset != NULL;
	c.mix_fe = vm->aes->mix_fe;
	c.hard_aes = 0;
#ifdef RX_X86_ISAS
	c.hard_aes = vm->aes == &rx_aes_aesni;
#endif
	emit_function(&c, vm->program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(vm->v2), &vm->cfg);
	if (rx_exec_executable(&j->mem) || c.a.overflow)
		return -1;
	j->fn = (program_fn)(void *)(j->mem.x + POOL_BYTES);
	return 0;
}

/* The context for a run of the loop on vm with configuration cfg. */
static void setup(rx_jit_ctx *x, const rx_program_config *cfg,
    const rx_vm_state *vm, const rx_ss_jit *ss)
{
	unsigned i;

	memset(x->r, 0, sizeof(x->r));
	memcpy(x->a, vm->regs.a, sizeof(x->a));
	x->e_and[0] = x->e_and[1] = UINT64_C(0x00ffffffffffffff);
	x->e_or[0] = cfg->e_mask[0];
	x->e_or[1] = cfg->e_mask[1];
	x->scale[0] = x->scale[1] = UINT64_C(0x80f0000000000000);
	x->scratchpad = vm->scratchpad;
	x->memory = vm->dataset ? vm->dataset + cfg->dataset_offset : NULL;
	if (vm->v2)
		x->mem = (uint64_t)cfg->mx << 32 | cfg->ma;
	else
		x->mem = (uint64_t)cfg->ma << 32 | cfg->mx;
	x->sp0 = cfg->mx & RX_L3_MASK64;
	x->sp1 = cfg->ma & RX_L3_MASK64;
	x->iterations = RX_PROGRAM_ITERATIONS;
	x->mxcsr = MXCSR_DEFAULT | (vm->fprc & 3) << 13;
	x->ss = ss;
	x->cache = vm->cache;
	x->item_trace = vm->item_trace;
	x->item_trace_ctx = vm->item_trace_ctx;
	x->dataset_offset = cfg->dataset_offset;
	x->done = x->pending = x->next = 0;
	x->v2 = vm->v2;
	for (i = 0; i < LIGHT_GROUP; i++)
		x->numbers[i] = 0;
}

static void finish(const rx_jit_ctx *x, rx_vm_state *vm)
{
	memcpy(vm->regs.r, x->r, sizeof(x->r));
	memcpy(vm->regs.f, x->f, sizeof(x->f));
	memcpy(vm->regs.e, x->e, sizeof(x->e));
	vm->fprc = (x->mxcsr >> 13) & 3;
}

void rx_jit_vm_run(rx_jit_vm *j, rx_vm_state *vm, const rx_ss_jit *ss)
{
	setup(&j->ctx, &vm->cfg, vm, ss);
	j->fn(&j->ctx);
	finish(&j->ctx, vm);
}

#endif /* RX_JIT_X86_64 */
