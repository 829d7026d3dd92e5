/*
 * rx-jit-diff.c: the interpreter and the JIT on one program (see
 * rx-jit-diff.h).
 */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/randomx/rx-jit-diff.h"

#if RX_HAVE_JIT

#include "randomx/rx-params.h"

/* Two VM states: about 8 KiB each, too much for a fuzzer's stack. */
static rx_vm_state st_interp, st_jit;

static void prepare(rx_vm_state *st, const rx_jit_diff *d, uint8_t *sp,
    const uint8_t *program, int v2, const rx_aes_impl *aes, unsigned fprc)
{
	memset(st, 0, sizeof(*st));
	st->scratchpad = sp;
	st->dataset = d->dataset;
	st->cache = d->dataset ? NULL : d->cache;
	st->aes = aes;
	st->v2 = v2;
	st->fprc = fprc & 3;
	memcpy(st->program, program, RX_PROGRAM_BYTES(rx_program_size(v2)));
	rx_program_configure(st->program, &st->cfg);
	memcpy(st->regs.a, st->cfg.a, sizeof(st->regs.a));
}

/* The first differing 64-bit word of two arrays, named, or 0. */
static int differ_words(rx_jit_diff *d, const char *name, const uint64_t *x,
    const uint64_t *y, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i]) {
			snprintf(d->what, sizeof(d->what), "%s[%u]: interpreter "
			    "%016llx, JIT %016llx", name, i,
			    (unsigned long long)x[i], (unsigned long long)y[i]);
			return 1;
		}
	return 0;
}

int rx_jit_diff_run(rx_jit_diff *d, const uint8_t *program, int v2,
    const rx_aes_impl *aes, unsigned fprc, const uint8_t *sp_init)
{
	size_t i;
	fenv_t env;
	int mode;

	d->what[0] = 0;
	memcpy(d->sp_interp, sp_init, RX_SCRATCHPAD_L3);
	memcpy(d->sp_jit, sp_init, RX_SCRATCHPAD_L3);
	prepare(&st_interp, d, d->sp_interp, program, v2, aes, fprc);
	prepare(&st_jit, d, d->sp_jit, program, v2, aes, fprc);
	rx_program_decode(st_interp.program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(v2), st_interp.code);

	fegetenv(&env);
	mode = fegetround();
	rx_vm_execute(&st_interp);
	fesetenv(&env);
	if (rx_jit_vm_compile(d->jit, &st_jit)) {
		snprintf(d->what, sizeof(d->what), "did not compile");
		return -1;
	}
	rx_jit_vm_run(d->jit, &st_jit, d->ss);
	if (fegetround() != mode) {
		fesetenv(&env);
		snprintf(d->what, sizeof(d->what), "the JIT left the rounding "
		    "mode changed");
		return 1;
	}
	if (differ_words(d, "r", st_interp.regs.r, st_jit.regs.r, 8) ||
	    differ_words(d, "f", st_interp.regs.f, st_jit.regs.f, 8) ||
	    differ_words(d, "e", st_interp.regs.e, st_jit.regs.e, 8))
		return 1;
	if (st_interp.fprc != st_jit.fprc) {
		snprintf(d->what, sizeof(d->what), "fprc: interpreter %u, JIT %u",
		    st_interp.fprc, st_jit.fprc);
		return 1;
	}
	for (i = 0; i < RX_SCRATCHPAD_L3; i += 8)
		if (memcmp(d->sp_interp + i, d->sp_jit + i, 8)) {
			snprintf(d->what, sizeof(d->what), "scratchpad at byte %zu",
			    i);
			return 1;
		}
	return 0;
}

#endif /* RX_HAVE_JIT */
