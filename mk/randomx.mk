# mk/randomx.mk: the RandomX library, built apart from libyespower in
# build/randomx/ with its own flags.
#
#   make                  also build/randomx/librandomx.a and librandomx.so
#                         (SONAME librandomx.so.0, exporting randomx.h only)
#   make check-randomx    (in `make check`) the RandomX test programs
#   make check-randomx-qemu   the suites under qemu-x86_64 as qemu64,
#                         Westmere and Haswell CPUs (test/randomx/
#                         tests-rx-qemu.sh; .ci/run runs it)
#   make rx-abcompare     build/randomx/rx-abcompare: two RandomX shared
#                         libraries' hash rates side by side
#   make rx-cache-abcompare   their cache builds and dataset items
#
# A file's own flags are RX_CFLAGS_<basename> (RX_CFLAGS_argon2d-avx2 =
# -mavx2); generic files get no ISA flags.  The x86 files are built for x86
# targets only, where every RandomX compile defines RX_X86_ISAS=1 so that
# the dispatchers know they exist.  libyespower's shared helpers (BLAKE2b,
# CPU features, memory regions) are compiled again here, with RandomX's
# flags, and linked in.

#h RandomX (mk/randomx.mk):
#h   check-randomx        known answers, light and full mode (dataset slices)
#h   check-randomx-full   full mode with the whole dataset (minutes; .ci/run)
#h   check-randomx-qemu   the suites under qemu as CPUs without AVX2, AVX or AES-NI
#h   rx-abcompare         build/randomx/rx-abcompare: two librandomx.so side by side

RX_BUILD = $(B)/randomx

# The cache and dataset: Argon2d, Blake2Generator, SuperscalarHash.  The
# VM: AES, program generation and decoding, the interpreter, the API.
# The JIT compilers (x86-64 only: the files compile to nothing on 32-bit
# x86, see randomx/jit.h) are generic code that emits machine code; they
# get no ISA flags either.
RX_SRCS = randomx/blake2-generator.c randomx/argon2d.c \
	randomx/superscalar.c randomx/reciprocal.c randomx/dataset.c \
	randomx/cpu.c \
	randomx/aes.c randomx/program.c randomx/vm-interp.c randomx/api.c
RX_X86_SRCS = randomx/argon2d-ssse3.c randomx/argon2d-avx2.c \
	randomx/argon2d-avx512.c \
	randomx/aes-ni.c randomx/jit-mem.c randomx/jit-vm.c randomx/jit-x86.c \
	randomx/jit-x86-int.c randomx/jit-x86-fp.c randomx/jit-x86-ctl.c \
	randomx/jit-superscalar-x86.c
RX_SHARED_SRCS = blake2b.c cpu-features.c insecure_memzero.c \
	yespower-platform.c
RX_TESTS = test/randomx/tests-rx-cache.c test/randomx/tests-rx-vm.c \
	test/randomx/api-compat.c test/randomx/tests-rx-fork.c \
	test/randomx/tests-rx-jit.c test/randomx/tests-rx-reliability.c

RX_CFLAGS_argon2d-ssse3 = -mssse3
RX_CFLAGS_argon2d-avx2 = -mavx2
RX_CFLAGS_argon2d-avx512 = -mavx512f
RX_CFLAGS_aes-ni = -maes
# vm-interp.c rounds as the thread's rounding mode says: -frounding-math
# keeps the compiler from assuming round-to-nearest, -ffp-contract=off
# from fusing a multiply and an add into one differently-rounded FMA.
RX_CFLAGS_vm-interp = -frounding-math -ffp-contract=off
# These include "randomx.h" as a reference user's program does.
RX_CFLAGS_api-compat = -Irandomx
RX_CFLAGS_rx-abcompare = -Irandomx
RX_CFLAGS_rx-cache-abcompare = -Irandomx

RX_IS_X86 = $(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE))
RX_DEFS = $(if $(RX_IS_X86),-DRX_X86_ISAS=1)
# ---- AArch64 (little-endian, LP64 Linux): its files and flags ----
RX_IS_A64 = $(filter aarch64-%linux-gnu aarch64-%linux-musl,$(MACHINE))
RX_A64_SRCS = randomx/aes-armv8.c randomx/jit-mem.c randomx/jit-vm.c \
	randomx/jit-a64.c randomx/jit-superscalar-a64.c
RX_CFLAGS_aes-armv8 = -march=armv8-a+crypto
RX_DEFS += $(if $(RX_IS_A64),-DRX_A64_ISAS=1)
# ---- end AArch64 ----
RX_ALL_CFLAGS = $(WARN) $(CFLAGS) -std=gnu11 -fPIC -I. $(RX_DEFS) -MMD -MP
RX_LDLIBS = -lpthread -lm

RX_LIB_SRCS = $(RX_SRCS) $(RX_SHARED_SRCS) $(if $(RX_IS_X86),$(RX_X86_SRCS)) \
	$(if $(RX_IS_A64),$(RX_A64_SRCS))
RX_LIB_OBJS = $(addprefix $(RX_BUILD)/,$(notdir $(RX_LIB_SRCS:.c=.o)))
RX_TEST_PROGS = $(addprefix $(RX_BUILD)/,$(notdir $(RX_TESTS:.c=)))
# The reference's shared library is librandomx.so.0 wherever it is
# packaged (Debian's librandomx0: the file librandomx.so.0.0.0 and the
# links librandomx.so.0 and librandomx.so), and programs such as monerod
# are linked against that name: ours takes the same SONAME and file names so
# that it can stand in for it.  mk/install.mk installs it.
RX_SONAME = librandomx.so.0
RX_SOFILE = librandomx.so.0.0.0
RX_LIBS = $(RX_BUILD)/librandomx.a $(RX_BUILD)/librandomx.so

all: $(RX_LIBS)

# One rule per source directory; the stem is the file's basename, which
# names its own flags.
define rx_compile
$(RX_BUILD)/%.o: $(1)%.c $(B)/CONFIG
	@mkdir -p $$(@D)
	$$(CC) $$(RX_ALL_CFLAGS) $$(RX_CFLAGS_$$*) -c $$< -o $$@
endef
$(foreach dir,randomx/ test/randomx/ tools/ ./,$(eval $(call rx_compile,$(dir))))

$(RX_BUILD)/librandomx.a: $(RX_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(RX_LIB_OBJS)

# Only the randomx_* API is exported (randomx/librandomx.map).
$(RX_BUILD)/$(RX_SOFILE): $(RX_LIB_OBJS) randomx/librandomx.map
	$(CC) -shared -Wl,-soname,$(RX_SONAME) \
		-Wl,--version-script=randomx/librandomx.map \
		$(LDFLAGS) -o $@ $(RX_LIB_OBJS) $(RX_LDLIBS)

$(RX_BUILD)/$(RX_SONAME): $(RX_BUILD)/$(RX_SOFILE)
	ln -sf $(RX_SOFILE) $@

$(RX_BUILD)/librandomx.so: $(RX_BUILD)/$(RX_SONAME)
	ln -sf $(RX_SONAME) $@

$(RX_TEST_PROGS): $(RX_BUILD)/%: $(RX_BUILD)/%.o $(RX_BUILD)/librandomx.a \
    $(B)/tools/util.o $(B)/tools/timing.o
	$(CC) $(LDFLAGS) -o $@ $^ $(RX_LDLIBS)

# The JIT's test shares the program-by-program comparison with the fuzz
# target.
$(RX_BUILD)/tests-rx-jit: $(RX_BUILD)/rx-jit-diff.o

# The comparison tools load the libraries they compare.
rx-abcompare: $(RX_BUILD)/rx-abcompare
rx-cache-abcompare: $(RX_BUILD)/rx-cache-abcompare
$(RX_BUILD)/rx-abcompare: $(RX_BUILD)/rx-abcompare.o $(RX_BUILD)/timing.o
	$(CC) $(LDFLAGS) -o $@ $^ -ldl -lpthread
$(RX_BUILD)/rx-cache-abcompare: $(RX_BUILD)/rx-cache-abcompare.o \
    $(RX_BUILD)/timing.o
	$(CC) $(LDFLAGS) -o $@ $^ -ldl -lpthread

# Each program prints its own "NAME: N passed, N failed" line last and
# exits non-zero on a failure; all of them run even if one fails.
check-randomx: $(RX_TEST_PROGS)
	@fail=0; for t in $(RX_TEST_PROGS); do \
		$$t > $$t.out 2>&1; rc=$$?; \
		grep -v ': ok$$' $$t.out | tail -n 20; \
		[ $$rc = 0 ] || { echo "$$t: FAILED (exit status $$rc)"; \
		fail=1; }; \
	done; exit $$fail

# Full mode end to end: the whole 2080 MiB dataset, built on every CPU
# (minutes by the interpreter); .ci/run runs it.
# tests-rx-jit builds it again with the compiled SuperscalarHash, and the
# benchmark once per row of test/randomx/bench-vectors.txt (four).
check-randomx-full: $(RX_BUILD)/tests-rx-vm $(RX_BUILD)/api-compat \
    $(RX_BUILD)/tests-rx-jit benchmark
	@RANDOMX_TEST_FULL=1 $(RX_BUILD)/tests-rx-vm > \
		$(RX_BUILD)/tests-rx-vm-full.out 2>&1; rc=$$?; \
	grep -v ': ok$$' $(RX_BUILD)/tests-rx-vm-full.out | tail -n 20; \
	RANDOMX_TEST_FULL=1 $(RX_BUILD)/tests-rx-jit > \
		$(RX_BUILD)/tests-rx-jit-full.out 2>&1 || rc=1; \
	tail -n 20 $(RX_BUILD)/tests-rx-jit-full.out; \
	$(RX_BUILD)/api-compat --full --threads $$(nproc) || rc=1; \
	sh test/randomx/tests-rx-bench.sh full ./benchmark || rc=1; exit $$rc

# What CPUID picks on CPUs this machine is not, under qemu-x86_64; a build
# with -march= flags would not run there.
check-randomx-qemu: $(RX_BUILD)/tests-rx-vm $(RX_BUILD)/tests-rx-jit \
    $(RX_BUILD)/api-compat
	@case "$(CFLAGS)" in *-march=*) \
		echo "randomx-qemu: 0 passed, 0 failed, 1 skipped (CFLAGS" \
		    "has -march=)"; exit 0 ;; esac; \
	sh test/randomx/tests-rx-qemu.sh $(RX_BUILD)

.PHONY: check-randomx check-randomx-full check-randomx-qemu rx-abcompare \
	rx-cache-abcompare
