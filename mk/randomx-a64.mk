# mk/randomx-a64.mk: the RandomX library built for AArch64 with the cross
# compiler and its test programs run under qemu-aarch64
# (test/randomx/tests-rx-a64.sh).
#
#   make check-randomx-a64   build/cross-rx-aarch64/ from this tree (make
#                         with B= that directory and CC=aarch64-linux-gnu-gcc,
#                         static, -Werror), then the suites under qemu's
#                         CPU models; minutes of emulation, not in `make
#                         check` (.ci/run runs it)
#
# Needs gcc-aarch64-linux-gnu and qemu-user; without them the target fails
# and names the packages.

#h   check-randomx-a64    RandomX built for aarch64, under qemu-aarch64 (minutes)

RX_A64_CC ?= aarch64-linux-gnu-gcc
RX_A64_B = $(B)/cross-rx-aarch64

check-randomx-a64:
	@sh test/randomx/tests-rx-a64.sh "$(RX_A64_CC)" "$(RX_A64_B)"

.PHONY: check-randomx-a64

# Guest instructions per hash under qemu-aarch64 (tools/rx-insn-count.sh):
# QEMU_PLUGIN_INC is a directory with the installed QEMU's qemu-plugin.h
# (not in this tree: QEMU's include/qemu/qemu-plugin.h of that version);
# RX_REF_A64 the reference's cmake build for aarch64 and RX_REF_A64_SRC
# its src/, to count it too.
#h   rx-insn-count-a64    instructions per RandomX hash under qemu-aarch64
#h                        (QEMU_PLUGIN_INC=dir [RX_REF_A64=... RX_REF_A64_SRC=...])
rx-insn-count-a64:
	@sh tools/rx-insn-count.sh $(B)/rx-insn-count "$(QEMU_PLUGIN_INC)" \
		"$(RX_REF_A64)" "$(RX_REF_A64_SRC)"

.PHONY: rx-insn-count-a64
