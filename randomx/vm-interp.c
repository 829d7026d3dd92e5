/*
 * vm-interp.c: the portable RandomX interpreter (specification, chapters
 * 4.6 and 5).  See vm.h.
 *
 * Programs are decoded once (program.c) into 16-byte operations; the
 * loop dispatches on them with GNU C's computed goto, one indirect jump
 * per operation, so each operation's jump is predicted on its own.  The
 * registers live in local arrays whose address never escapes, so the
 * compiler knows scratchpad stores cannot change them.  Floating-point
 * registers are pairs of doubles in GNU C vector types: SSE2 (or NEON)
 * arithmetic where there is one, scalar code elsewhere, and the same
 * IEEE-754 results.
 *
 * The rounding mode is the thread's, set with fesetround: the operations
 * are plain C arithmetic and round as the mode says.  This file must be
 * compiled without FMA contraction (never on x86-64 by default) and is
 * best compiled with -frounding-math.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "randomx/mulh.h"
#include "randomx/vm.h"
#include "sysendian.h"

#if !defined(FE_TONEAREST) || !defined(FE_DOWNWARD) || \
    !defined(FE_UPWARD) || !defined(FE_TOWARDZERO)
#error "RandomX needs the four IEEE-754 rounding modes (fenv.h)"
#endif

#if !defined(__GNUC__)
#error "vm-interp.c needs GNU C: computed goto and vector types"
#endif

/*
 * Everything here that takes or returns vectors is static, so that GCC's
 * note on 32-bit x86 without SSE (vectors are passed differently there)
 * concerns no interface.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

typedef double v2df __attribute__((vector_size(16)));
typedef uint64_t v2du __attribute__((vector_size(16)));

#define SIGN_AND_EXPONENT_LOW 0x80F0000000000000ULL	/* FSCAL_R's XOR */
#define E_KEEP_MASK 0x00FFFFFFFFFFFFFFULL	/* low exponent bits + fraction */

static const int fe_modes[4] = {
	FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO
};

void rx_fp_set_mode(unsigned fprc)
{
	fesetround(fe_modes[fprc & 3]);
}

/*
 * On 32-bit x86 without SSE2 arithmetic, doubles are computed on the x87
 * in extended precision, which rounds differently; its precision control
 * set to 53 bits gives IEEE double results (no RandomX value comes near
 * the ranges where the x87's wider exponent would still differ).  The
 * caller's control word comes back with its fesetenv.
 */
static void fp_double_precision(void)
{
#if defined(__i386__) && !defined(__SSE2_MATH__)
	uint16_t cw;

	__asm__ volatile ("fnstcw %0" : "=m" (cw));
	cw = (uint16_t)((cw & ~0x300u) | 0x200u);
	__asm__ volatile ("fldcw %0" : : "m" (cw));
#endif
}

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << ((64 - n) & 63));
}

static inline uint64_t rotl64(uint64_t x, unsigned n)
{
	return (x << n) | (x >> ((64 - n) & 63));
}

/* Two signed 32-bit integers as doubles (exact): F conversion (4.3.1). */
static inline v2df cvt_pair(const uint8_t *p)
{
	v2df x = { (double)(int32_t)le32dec(p), (double)(int32_t)le32dec(p + 4) };

	return x;
}

/* E conversion (4.3.2) of converted values x: sign off, masks in. */
static inline v2df to_e(v2df x, v2du e_mask)
{
	v2du keep = { E_KEEP_MASK, E_KEEP_MASK };

	return (v2df)(((v2du)x & keep) | e_mask);
}

static inline v2df bits_pair(uint64_t lo, uint64_t hi)
{
	v2du u = { lo, hi };

	return (v2df)u;
}

static inline void store_pair(uint8_t *p, v2df x)
{
	v2du u = (v2du)x;

	le64enc(p, u[0]);
	le64enc(p + 8, u[1]);
}

/*
 * Where dataset items come from and the memory registers; the loop's
 * state besides the registers.
 */
typedef struct {
	const uint8_t *dataset;
	const rx_cache_state *cache;
	const rx_aes_impl *aes;
	void (*item_trace)(void *ctx, uint64_t item_number);
	void *item_trace_ctx;
	uint64_t dataset_offset;
	uint32_t ma, mx;
	unsigned read_reg[4];
} loop_ctx;

/* Step 7 of 4.6.2: the item at byte address addr XORed into r[0..7]. */
static inline void xor_item(uint64_t r[9], const loop_ctx *c, uint64_t addr)
{
	uint8_t buf[64];
	const uint8_t *item;
	unsigned i;

	if (c->dataset) {
		item = c->dataset + addr;
	} else {
		if (c->item_trace)
			c->item_trace(c->item_trace_ctx, addr / 64);
		rx_dataset_item(c->cache, addr / 64, buf);
		item = buf;
	}
	for (i = 0; i < 8; i++)
		r[i] ^= le64dec(item + 8 * i);
}

/* v2's step 10: F registers through AES rounds keyed by the E ones. */
static void mix_fe_aes(v2df fe[8], const rx_aes_impl *aes)
{
	uint64_t f[8], e[8];
	unsigned i;

	for (i = 0; i < 4; i++) {
		v2du fu = (v2du)fe[i], eu = (v2du)fe[4 + i];

		f[2 * i] = fu[0];
		f[2 * i + 1] = fu[1];
		e[2 * i] = eu[0];
		e[2 * i + 1] = eu[1];
	}
	aes->mix_fe(f, e);
	for (i = 0; i < 4; i++)
		fe[i] = bits_pair(f[2 * i], f[2 * i + 1]);
}

/*
 * The interpreter.  With bare set it runs code once over the registers
 * and nothing else (for tests); otherwise it is the whole program loop of
 * 4.6.2, `iterations` times.  regs is read at the start and written at
 * the end; *fprc likewise, and the thread's rounding mode follows it
 * throughout.
 */
static void interp(const rx_insn *code, rx_regfile *regs, uint8_t *sp,
    const uint64_t e_mask_in[2], loop_ctx *c, unsigned iterations,
    int bare, int v2, unsigned *fprc_io)
{
	static const void *const labels[RX_OP_COUNT] = {
		[RX_OP_IADD_RS] = &&op_IADD_RS, [RX_OP_IADD_M] = &&op_IADD_M,
		[RX_OP_IADD_C] = &&op_IADD_C, [RX_OP_ISUB_R] = &&op_ISUB_R,
		[RX_OP_ISUB_M] = &&op_ISUB_M, [RX_OP_IMUL_R] = &&op_IMUL_R,
		[RX_OP_IMUL_M] = &&op_IMUL_M, [RX_OP_IMUL_C] = &&op_IMUL_C,
		[RX_OP_IMULH_R] = &&op_IMULH_R, [RX_OP_IMULH_M] = &&op_IMULH_M,
		[RX_OP_ISMULH_R] = &&op_ISMULH_R,
		[RX_OP_ISMULH_M] = &&op_ISMULH_M,
		[RX_OP_INEG_R] = &&op_INEG_R, [RX_OP_IXOR_R] = &&op_IXOR_R,
		[RX_OP_IXOR_M] = &&op_IXOR_M, [RX_OP_IXOR_C] = &&op_IXOR_C,
		[RX_OP_IROR_R] = &&op_IROR_R, [RX_OP_IROL_R] = &&op_IROL_R,
		[RX_OP_IROR_C] = &&op_IROR_C, [RX_OP_ISWAP_R] = &&op_ISWAP_R,
		[RX_OP_FSWAP_R] = &&op_FSWAP_R, [RX_OP_FADD_R] = &&op_FADD_R,
		[RX_OP_FADD_M] = &&op_FADD_M, [RX_OP_FSUB_R] = &&op_FSUB_R,
		[RX_OP_FSUB_M] = &&op_FSUB_M, [RX_OP_FSCAL_R] = &&op_FSCAL_R,
		[RX_OP_FMUL_R] = &&op_FMUL_R, [RX_OP_FDIV_M] = &&op_FDIV_M,
		[RX_OP_FSQRT_R] = &&op_FSQRT_R, [RX_OP_CBRANCH] = &&op_CBRANCH,
		[RX_OP_CFROUND] = &&op_CFROUND, [RX_OP_ISTORE] = &&op_ISTORE,
		[RX_OP_END] = &&op_END
	};
	const v2du scal = { SIGN_AND_EXPONENT_LOW, SIGN_AND_EXPONENT_LOW };
	const v2du e_mask = { e_mask_in[0], e_mask_in[1] };
	uint64_t r[9];
	v2df fe[8], a[4];
	uint32_t sp0 = 0, sp1 = 0;
	unsigned fprc = *fprc_io & 3, ic, i;
	const rx_insn *ip;

	for (i = 0; i < 8; i++)
		r[i] = regs->r[i];
	r[RX_REG_ZERO] = 0;
	for (i = 0; i < 4; i++) {
		fe[i] = bits_pair(regs->f[2 * i], regs->f[2 * i + 1]);
		fe[4 + i] = bits_pair(regs->e[2 * i], regs->e[2 * i + 1]);
		a[i] = bits_pair(regs->a[2 * i], regs->a[2 * i + 1]);
	}
	if (!bare) {
		sp0 = c->mx;
		sp1 = c->ma;
	}
	fp_double_precision();
	rx_fp_set_mode(fprc);

#define NEXT() do { ip++; goto *labels[ip->op]; } while (0)
#define ADDR(reg) (sp + ((uint32_t)(r[reg] + ip->imm) & ip->mask))

	for (ic = 0; ic < iterations; ic++) {
		if (!bare) {
			uint64_t mix = r[c->read_reg[0]] ^ r[c->read_reg[1]];

			sp0 = (sp0 ^ (uint32_t)mix) & RX_L3_MASK64;
			sp1 = (sp1 ^ (uint32_t)(mix >> 32)) & RX_L3_MASK64;
			for (i = 0; i < 8; i++)
				r[i] ^= le64dec(sp + sp0 + 8 * i);
			for (i = 0; i < 4; i++) {
				fe[i] = cvt_pair(sp + sp1 + 8 * i);
				fe[4 + i] = to_e(cvt_pair(sp + sp1 + 32 + 8 * i),
				    e_mask);
			}
		}
		ip = code;
		goto *labels[ip->op];

	op_IADD_RS:
		r[ip->dst] += (r[ip->src] << ip->shift) + ip->imm;
		NEXT();
	op_IADD_M:
		r[ip->dst] += le64dec(ADDR(ip->src));
		NEXT();
	op_IADD_C:
		r[ip->dst] += ip->imm;
		NEXT();
	op_ISUB_R:
		r[ip->dst] -= r[ip->src];
		NEXT();
	op_ISUB_M:
		r[ip->dst] -= le64dec(ADDR(ip->src));
		NEXT();
	op_IMUL_R:
		r[ip->dst] *= r[ip->src];
		NEXT();
	op_IMUL_M:
		r[ip->dst] *= le64dec(ADDR(ip->src));
		NEXT();
	op_IMUL_C:
		r[ip->dst] *= ip->imm;
		NEXT();
	op_IMULH_R:
		r[ip->dst] = rx_mulh(r[ip->dst], r[ip->src]);
		NEXT();
	op_IMULH_M:
		r[ip->dst] = rx_mulh(r[ip->dst], le64dec(ADDR(ip->src)));
		NEXT();
	op_ISMULH_R:
		r[ip->dst] = rx_smulh(r[ip->dst], r[ip->src]);
		NEXT();
	op_ISMULH_M:
		r[ip->dst] = rx_smulh(r[ip->dst], le64dec(ADDR(ip->src)));
		NEXT();
	op_INEG_R:
		r[ip->dst] = 0 - r[ip->dst];
		NEXT();
	op_IXOR_R:
		r[ip->dst] ^= r[ip->src];
		NEXT();
	op_IXOR_M:
		r[ip->dst] ^= le64dec(ADDR(ip->src));
		NEXT();
	op_IXOR_C:
		r[ip->dst] ^= ip->imm;
		NEXT();
	op_IROR_R:
		r[ip->dst] = rotr64(r[ip->dst], r[ip->src] & 63);
		NEXT();
	op_IROL_R:
		r[ip->dst] = rotl64(r[ip->dst], r[ip->src] & 63);
		NEXT();
	op_IROR_C:
		r[ip->dst] = rotr64(r[ip->dst], (unsigned)ip->imm);
		NEXT();
	op_ISWAP_R: {
		uint64_t t = r[ip->src];

		r[ip->src] = r[ip->dst];
		r[ip->dst] = t;
		NEXT();
	}
	op_FSWAP_R: {
		v2df x = fe[ip->dst];

		fe[ip->dst] = (v2df){ x[1], x[0] };
		NEXT();
	}
	op_FADD_R:
		fe[ip->dst] += a[ip->src];
		NEXT();
	op_FADD_M:
		fe[ip->dst] += cvt_pair(ADDR(ip->src));
		NEXT();
	op_FSUB_R:
		fe[ip->dst] -= a[ip->src];
		NEXT();
	op_FSUB_M:
		fe[ip->dst] -= cvt_pair(ADDR(ip->src));
		NEXT();
	op_FSCAL_R:
		fe[ip->dst] = (v2df)((v2du)fe[ip->dst] ^ scal);
		NEXT();
	op_FMUL_R:
		fe[ip->dst] *= a[ip->src];
		NEXT();
	op_FDIV_M:
		fe[ip->dst] /= to_e(cvt_pair(ADDR(ip->src)), e_mask);
		NEXT();
	op_FSQRT_R: {
		v2df x = fe[ip->dst];

		fe[ip->dst] = (v2df){ sqrt(x[0]), sqrt(x[1]) };
		NEXT();
	}
	op_CBRANCH: {
		uint64_t v = r[ip->dst] + ip->imm;

		r[ip->dst] = v;
		if ((v & ip->mask) == 0) {
			ip = code + ip->target;
			goto *labels[ip->op];
		}
		NEXT();
	}
	op_CFROUND: {
		uint64_t v = rotr64(r[ip->src], (unsigned)ip->imm);

		/* v2 takes the new mode only when bits 2-5 are zero */
		if ((!v2 || (v & 60) == 0) && (v & 3) != fprc) {
			fprc = v & 3;
			rx_fp_set_mode(fprc);
		}
		NEXT();
	}
	op_ISTORE:
		le64enc(ADDR(ip->dst), r[ip->src]);
		NEXT();
	op_END:
		if (!bare) {
			uint32_t mt = c->ma;
			uint32_t *mp = v2 ? &c->ma : &c->mx;

			*mp ^= (uint32_t)(r[c->read_reg[2]] ^ r[c->read_reg[3]]);
			if (c->dataset)
				__builtin_prefetch(c->dataset +
				    c->dataset_offset +
				    (*mp & RX_DATASET_ADDR_MASK), 0, 0);
			xor_item(r, c, c->dataset_offset +
			    (mt & RX_DATASET_ADDR_MASK));
			mt = c->mx;
			c->mx = c->ma;
			c->ma = mt;
			for (i = 0; i < 8; i++)
				le64enc(sp + sp1 + 8 * i, r[i]);
			if (v2) {
				mix_fe_aes(fe, c->aes);
			} else {
				for (i = 0; i < 4; i++)
					fe[i] = (v2df)((v2du)fe[i] ^
					    (v2du)fe[4 + i]);
			}
			for (i = 0; i < 4; i++)
				store_pair(sp + sp0 + 16 * i, fe[i]);
			sp0 = 0;
			sp1 = 0;
		}
	}
#undef NEXT
#undef ADDR

	for (i = 0; i < 8; i++)
		regs->r[i] = r[i];
	for (i = 0; i < 4; i++) {
		v2du f = (v2du)fe[i], e = (v2du)fe[4 + i];

		regs->f[2 * i] = f[0];
		regs->f[2 * i + 1] = f[1];
		regs->e[2 * i] = e[0];
		regs->e[2 * i + 1] = e[1];
	}
	*fprc_io = fprc;
}

void rx_vm_execute(rx_vm_state *vm)
{
	loop_ctx c;
	unsigned i;

	c.dataset = vm->dataset;
	c.cache = vm->cache;
	c.aes = vm->aes;
	c.item_trace = vm->item_trace;
	c.item_trace_ctx = vm->item_trace_ctx;
	c.dataset_offset = vm->cfg.dataset_offset;
	c.ma = vm->cfg.ma;
	c.mx = vm->cfg.mx;
	for (i = 0; i < 4; i++)
		c.read_reg[i] = vm->cfg.read_reg[i];
	for (i = 0; i < 8; i++)
		vm->regs.r[i] = 0;
	interp(vm->code, &vm->regs, vm->scratchpad, vm->cfg.e_mask, &c,
	    RX_PROGRAM_ITERATIONS, 0, vm->v2, &vm->fprc);
}

void rx_vm_run_program(rx_vm_state *vm, const uint8_t seed[64])
{
	unsigned size = rx_program_size(vm->v2);

	rx_program_generate(vm->aes, seed, vm->program, vm->v2);
	rx_program_configure(vm->program, &vm->cfg);
	rx_program_decode(vm->program + RX_PROGRAM_CONFIG_BYTES, size,
	    vm->code);
	memcpy(vm->regs.a, vm->cfg.a, sizeof(vm->regs.a));
	rx_vm_execute(vm);
}

void rx_vm_exec_code(const rx_insn *code, rx_regfile *regs,
    uint8_t *scratchpad, const uint64_t e_mask[2], int v2, unsigned *fprc)
{
	fenv_t saved;

	feholdexcept(&saved);
	interp(code, regs, scratchpad, e_mask, NULL, 1, 1, v2, fprc);
	fesetenv(&saved);
}

void rx_vm_regfile_bytes(const rx_regfile *regs, uint8_t out[256])
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		le64enc(out + 8 * i, regs->r[i]);
		le64enc(out + 64 + 8 * i, regs->f[i]);
		le64enc(out + 128 + 8 * i, regs->e[i]);
		le64enc(out + 192 + 8 * i, regs->a[i]);
	}
}
