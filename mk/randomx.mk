# mk/randomx.mk: the RandomX library, built apart from libyespower in
# build/randomx/ with its own flags.
#
#   make randomx          build/randomx/librandomx.a, librandomx.so (SONAME
#                         librandomx.so.1) and the RandomX test programs
#   make check-randomx    (in `make check`) every RandomX test program
#   make clean-randomx    remove build/randomx/
#   make build/randomx/rx-cache-abcompare   a speed comparison of two
#                         librandomx.so's caches and dataset items
#
# Sources: the cache and dataset files below; the VM's list comes from
# randomx/vm-sources.mk (RX_VM_SRCS: generic files; RX_VM_X86_SRCS: files
# for x86 instruction sets, built only for x86 targets; RX_VM_TESTS: test
# programs under test/randomx/, one source file each).  A file's own flags
# are RX_CFLAGS_<basename>, e.g. RX_CFLAGS_argon2d-avx2 = -mavx2; generic
# files get no ISA flags.  Every RandomX compile defines RX_X86_ISAS=1 on
# x86, where the x86 files exist, so that dispatchers know they can call
# them.  libyespower's shared helpers (BLAKE2b, CPU features, memory
# regions) are compiled again here, with RandomX's flags, and linked in.

RX_BUILD = build/randomx

RX_SRCS = randomx/blake2-generator.c randomx/argon2d.c \
	randomx/superscalar.c randomx/dataset.c
RX_X86_SRCS = randomx/argon2d-ssse3.c randomx/argon2d-avx2.c
RX_CFLAGS_argon2d-ssse3 = -mssse3
RX_CFLAGS_argon2d-avx2 = -mavx2
RX_SHARED_SRCS = blake2b.c cpu-features.c insecure_memzero.c \
	yespower-platform.c
RX_TESTS = test/randomx/tests-rx-cache.c

RX_VM_SRCS =
RX_VM_X86_SRCS =
RX_VM_TESTS =
-include randomx/vm-sources.mk

RX_IS_X86 = $(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE))
RX_DEFS = $(if $(RX_IS_X86),-DRX_X86_ISAS=1)
RX_ALL_CFLAGS = $(WARN) $(CFLAGS) -std=gnu11 -fPIC -I. $(RX_DEFS) -MMD -MP
RX_LDLIBS = -lpthread -lm

RX_LIB_SRCS = $(RX_SRCS) $(RX_VM_SRCS) $(RX_SHARED_SRCS) \
	$(if $(RX_IS_X86),$(RX_X86_SRCS) $(RX_VM_X86_SRCS))
RX_LIB_OBJS = $(addprefix $(RX_BUILD)/,$(notdir $(RX_LIB_SRCS:.c=.o)))
RX_TEST_SRCS = $(RX_TESTS) $(RX_VM_TESTS)
RX_TEST_PROGS = $(addprefix $(RX_BUILD)/,$(notdir $(RX_TEST_SRCS:.c=)))
RX_SONAME = librandomx.so.1
RX_MAP = $(wildcard randomx/librandomx.map)

randomx: $(RX_BUILD)/librandomx.a $(RX_BUILD)/librandomx.so $(RX_TEST_PROGS)
all: randomx

$(RX_BUILD)/.dir:
	mkdir -p $(RX_BUILD)
	@touch $@

# One rule per source directory; the stem is the file's basename, which
# names its own flags.
$(RX_BUILD)/%.o: randomx/%.c | $(RX_BUILD)/.dir
	$(CC) $(RX_ALL_CFLAGS) $(RX_CFLAGS_$*) -c $< -o $@
$(RX_BUILD)/%.o: test/randomx/%.c | $(RX_BUILD)/.dir
	$(CC) $(RX_ALL_CFLAGS) $(RX_CFLAGS_$*) -c $< -o $@
$(RX_BUILD)/%.o: %.c | $(RX_BUILD)/.dir
	$(CC) $(RX_ALL_CFLAGS) $(RX_CFLAGS_$*) -c $< -o $@

$(RX_BUILD)/librandomx.a: $(RX_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(RX_LIB_OBJS)

# Only the randomx_* API is exported (randomx/librandomx.map).
$(RX_BUILD)/$(RX_SONAME): $(RX_LIB_OBJS) $(RX_MAP)
	$(CC) -shared -Wl,-soname,$(RX_SONAME) \
		$(RX_MAP:%=-Wl,--version-script=%) \
		$(LDFLAGS) -o $@ $(RX_LIB_OBJS) $(RX_LDLIBS)

$(RX_BUILD)/librandomx.so: $(RX_BUILD)/$(RX_SONAME)
	ln -sf $(RX_SONAME) $@

$(RX_TEST_PROGS): $(RX_BUILD)/%: $(RX_BUILD)/%.o $(RX_BUILD)/librandomx.a
	$(CC) $(LDFLAGS) -o $@ $< $(RX_BUILD)/librandomx.a $(RX_LDLIBS)

# rx-cache-abcompare: the cache and dataset speed of two librandomx.so
# side by side (not a test: `make build/randomx/rx-cache-abcompare`, see
# the file).
RX_CFLAGS_rx-cache-abcompare = -Irandomx
$(RX_BUILD)/rx-cache-abcompare: $(RX_BUILD)/rx-cache-abcompare.o
	$(CC) $(LDFLAGS) -o $@ $< -ldl

# Each program prints its own "NAME: N passed, N failed" line last and
# exits non-zero on a failure; all of them run even if one fails.
check-randomx: $(RX_TEST_PROGS)
	@fail=0; for t in $(RX_TEST_PROGS); do \
		$$t || { echo "$$t: FAILED (exit status $$?)"; fail=1; }; \
	done; exit $$fail
CHECKS += check-randomx

clean-randomx:
	rm -rf $(RX_BUILD)
clean: clean-randomx

-include $(RX_LIB_OBJS:.o=.d) $(RX_TEST_PROGS:=.d) \
	$(RX_BUILD)/rx-cache-abcompare.d

.PHONY: randomx check-randomx clean-randomx
