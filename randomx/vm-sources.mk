# randomx/vm-sources.mk: the RandomX VM's files, for mk/randomx.mk.
#
# vm-interp.c rounds as the thread's rounding mode says: -frounding-math
# keeps the compiler from assuming round-to-nearest, -ffp-contract=off
# from fusing a multiply and an add into one differently-rounded FMA.

RX_VM_SRCS = randomx/aes.c randomx/program.c randomx/vm-interp.c \
	randomx/api.c
RX_VM_X86_SRCS = randomx/aes-ni.c
RX_CFLAGS_aes-ni = -maes
RX_CFLAGS_vm-interp = -frounding-math -ffp-contract=off
RX_VM_TESTS = test/randomx/tests-rx-vm.c

# api-compat.c includes "randomx.h" as a reference user's program does.
RX_VM_TESTS += test/randomx/api-compat.c
RX_CFLAGS_api-compat = -Irandomx

# rx-abcompare: two RandomX shared libraries side by side (not a test;
# `make build/randomx/rx-abcompare`, see the file).
RX_CFLAGS_rx-abcompare = -Irandomx
$(RX_BUILD)/rx-abcompare: $(RX_BUILD)/rx-abcompare.o
	$(CC) $(LDFLAGS) -o $@ $< -ldl -lpthread
