/*
 * jit-vm.c: what every backend's program compiler is used for (see
 * jit.h): generate a VM's program, compile it with the backend's
 * rx_jit_vm_compile and run it, or interpret it where it did not compile.
 * The backends (jit-x86.c, jit-a64.c) provide only the compiling and
 * running.
 */
#include "randomx/jit.h"

#if RX_HAVE_JIT

#include <string.h>

#include "randomx/program.h"

void rx_jit_vm_run_program(rx_jit_vm *j, rx_vm_state *vm,
    const uint8_t seed[64], const rx_ss_jit *ss)
{
	rx_program_generate(vm->aes, seed, vm->program, vm->v2);
	rx_program_configure(vm->program, &vm->cfg);
	memcpy(vm->regs.a, vm->cfg.a, sizeof(vm->regs.a));
	if (rx_jit_vm_compile(j, vm) == 0) {
		rx_jit_vm_run(j, vm, ss);
		return;
	}
	rx_program_decode(vm->program + RX_PROGRAM_CONFIG_BYTES,
	    rx_program_size(vm->v2), vm->code);
	rx_vm_execute(vm);
}

#endif /* RX_HAVE_JIT */
