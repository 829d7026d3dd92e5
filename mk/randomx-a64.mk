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
