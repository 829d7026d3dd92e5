# libyespower: `make help` lists the targets.
#
#   make              libyespower.a, libyespower.so, tests, benchmark and
#                     the yespower tool (build/yespower); needs only a C
#                     compiler, make and the C library
#   make check        every test suite (CHECKS below); PASSED or FAILED
#   make ref          build/tests-ref, build/benchmark-ref and
#                     build/tests-chains-ref, linked with the reference
#   make check-ref    known answers and real headers through the reference
#   make clean
#
# Objects and every other program go to build/; the build remembers the
# compiler and flags it used (build/CONFIG), so changing them rebuilds.

# No built-in rules: with them, make would try to remake the dependency
# files (build/*.d) from objects of the same name.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

CC ?= cc
CFLAGS ?= -O2 -fomit-frame-pointer
WARN = -Wall -Wextra
ALL_CFLAGS = $(WARN) $(CFLAGS) -fPIC -I. -MMD -MP
LDLIBS = -lpthread
OMPFLAGS = -fopenmp
AR ?= ar

B = build
SOVERSION = 1
SONAME = libyespower.so.$(SOVERSION)

# ---- instruction sets ----

# Mixing cores: yespower-opt.c compiled once per instruction set, each with
# its own flags; other per-ISA sources (sha256-shani.c) take theirs from
# FLAGS_<name>.  Everything else is compiled with no ISA flags.  NO_SSE2=1,
# NO_AVX=1, NO_AVX2=1, NO_XOP=1, NO_AVX512=1 and NO_SHANI=1 leave one out; NATIVE=1
# (`make native`) builds one core with -march=native instead of the x86
# ones.  See mk/isa.mk.
MACHINE := $(shell $(CC) -dumpmachine)
ifneq ($(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE)),)
CORES = portable sse2 avx xop avx512vl
SHA256_IMPLS = portable shani
# avx2 (AVX2 with BMI1 and BMI2) is a 64-bit core: what it adds is the
# BMI forms of the 64-bit index arithmetic (see yespower-opt.c).
ifneq ($(filter x86_64-%,$(MACHINE))$(filter amd64-%,$(MACHINE)),)
ifeq ($(filter %x32,$(MACHINE)),)
CORES += avx2
endif
endif
else ifneq ($(filter aarch64-% arm64-%,$(MACHINE)),)
# ARM: NEON, always there on aarch64 (little-endian; aarch64_be is portable)
CORES = portable neon
SHA256_IMPLS = portable
CORE_FLAGS_neon = -DYESPOWER_CORE_NEON
else ifneq ($(filter arm%hf,$(MACHINE)),)
# 32-bit ARM, hard-float: NEON is optional there, the dispatcher asks
CORES = portable neon
SHA256_IMPLS = portable
CORE_FLAGS_neon = -DYESPOWER_CORE_NEON -march=armv7-a -mfpu=neon
else
CORES = portable
SHA256_IMPLS = portable
endif
ifeq ($(NATIVE),1)
CORES = native portable
endif
NO_ISAS = $(if $(filter 1,$(NO_SSE2)),sse2) $(if $(filter 1,$(NO_AVX)),avx) \
	$(if $(filter 1,$(NO_AVX2)),avx2) \
	$(if $(filter 1,$(NO_XOP)),xop) $(if $(filter 1,$(NO_AVX512)),avx512vl) \
	$(if $(filter 1,$(NO_SHANI)),shani)
CORES := $(filter-out $(NO_ISAS),$(CORES))
# x86-64: every SIMD core also built without the one-hash shadow
# (YESPOWER_PLAIN, "NAME-plain"); the dispatcher chooses per CPU vendor.
PLAIN_CORES := $(if $(filter x86_64-% amd64-%,$(MACHINE)),$(if \
	$(filter %x32,$(MACHINE)),,$(filter-out portable native,$(CORES))))
SHA256_IMPLS := $(filter-out $(NO_ISAS),$(SHA256_IMPLS))
CORE_FLAGS_portable = -DYESPOWER_CORE_PORTABLE
CORE_FLAGS_sse2 = -msse2
CORE_FLAGS_avx = -mavx
CORE_FLAGS_avx2 = -mavx2 -mbmi -mbmi2
CORE_FLAGS_xop = -mxop
CORE_FLAGS_avx512vl = -mavx512vl -mbmi -mbmi2
CORE_FLAGS_native = -march=native
FLAGS_sha256-shani = -msha -msse4.1

# The dispatcher's view of the build: which cores and SHA-256 functions
# exist.
ISA_DEFS = $(if $(filter native,$(CORES)),-DYESPOWER_NATIVE) \
	$(if $(filter sse2,$(CORES)),,-DYESPOWER_NO_SSE2) \
	$(if $(filter avx,$(CORES)),,-DYESPOWER_NO_AVX) \
	$(if $(filter avx2,$(CORES)),,-DYESPOWER_NO_AVX2) \
	$(if $(filter xop,$(CORES)),,-DYESPOWER_NO_XOP) \
	$(if $(filter avx512vl,$(CORES)),,-DYESPOWER_NO_AVX512) \
	$(if $(filter shani,$(SHA256_IMPLS)),,-DYESPOWER_NO_SHANI) \
	$(if $(PLAIN_CORES),-DYESPOWER_HAVE_PLAIN)
ALL_CFLAGS += $(ISA_DEFS)

# The hashing API's kernel sets (hashes/, see mk/hashes.mk): SHA-NI,
# AVX-512, AVX2 and SSE2 on x86 (NO_SHANI=1, NO_AVX512=1, NO_AVX2=1,
# NO_SSE2=1 leave one out), the portable ones everywhere; the dispatcher
# is told which exist.
POW_KERNELS = $(if $(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE)),\
	$(filter-out $(NO_ISAS) $(if $(filter 1,$(NO_AVX2)),avx2) \
	$(if $(filter 1,$(NO_AVX512)),avx512),shani avx512 avx2 sse2))
POW_ISA_DEFS = $(if $(filter shani,$(POW_KERNELS)),,-DPOW_NO_SHANI) \
	$(if $(filter avx512,$(POW_KERNELS)),,-DPOW_NO_AVX512) \
	$(if $(filter avx2,$(POW_KERNELS)),,-DPOW_NO_AVX2) \
	$(if $(filter sse2,$(POW_KERNELS)),,-DPOW_NO_SSE2)
ALL_CFLAGS += $(POW_ISA_DEFS)

# ---- what the build was made with ----

# build/CONFIG holds the compiler, flags and cores, and is rewritten only
# when they change; every object depends on it.  So `make CC=clang` and
# then `make` rebuild, and `make -q` is true after `make`.
CONFIG_LINE = $(CC) | $(ALL_CFLAGS) | $(OMPFLAGS) | $(LDFLAGS) | \
	$(LDLIBS) | $(CORES) | $(PLAIN_CORES) | $(SHA256_IMPLS)
ifneq ($(file <$(B)/CONFIG),$(strip $(CONFIG_LINE)))
$(shell mkdir -p $(B))
$(file >$(B)/CONFIG,$(strip $(CONFIG_LINE)))
endif

# ---- the library ----

CORE_OBJS = $(CORES:%=$(B)/yespower-opt-%.o) \
	$(PLAIN_CORES:%=$(B)/yespower-opt-%-plain.o)
SHA256_OBJS = $(filter-out $(B)/sha256-portable.o,\
	$(SHA256_IMPLS:%=$(B)/sha256-%.o))
COMMON_OBJS = $(addprefix $(B)/,yespower-presets.o yespower-hashes.o \
	sha256.o blake2b.o insecure_memzero.o cpu-features.o)
# The hashing API (hashes/pow-hash.h), exported by the library too.
POW_OBJS = $(addprefix $(B)/hashes/,pow-hash.o pow-sha3.o pow-merkle.o \
	pow-hash-dispatch.o pow-sha256-portable.o pow-keccak.o \
	$(POW_KERNELS:%=pow-sha256-%.o) \
	$(if $(filter shani,$(POW_KERNELS)),pow-sha256-shani-sse.o) \
	$(if $(filter avx512,$(POW_KERNELS)),pow-keccak-avx512.o) \
	$(if $(filter avx2,$(POW_KERNELS)),pow-keccak-avx2.o))
LIB_OBJS = $(addprefix $(B)/,yespower-api.o yespower-platform.o \
	yespower-dispatch.o impl-spec.o) $(COMMON_OBJS) $(CORE_OBJS) \
	$(SHA256_OBJS) $(POW_OBJS)
REF_OBJS = $(B)/yespower-ref.o $(COMMON_OBJS) $(SHA256_OBJS)
LIBS = libyespower.a libyespower.so $(SONAME)
UTIL_OBJ = $(B)/tools/util.o $(B)/tools/util-yespower.o

all: $(LIBS) tests benchmark $(B)/yespower

libyespower.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

# The shared library; also in the build directory, apart from the top
# level's: the Python package ships that one, built afresh with the default
# flags (make B=build/python build/python/libyespower.so.1).
$(SONAME) $(B)/$(SONAME): $(LIB_OBJS) libyespower.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libyespower.map \
		$(LDFLAGS) -o $@ $(LIB_OBJS) $(LDLIBS)

libyespower.so: $(SONAME)
	ln -sf $(SONAME) $@

# ---- compiling ----

$(B)/yespower-opt-%.o: yespower-opt.c $(B)/CONFIG
	$(CC) $(ALL_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* -c $< -o $@

# (the shorter stem wins: yespower-opt-avx-plain.o is built here)
$(B)/yespower-opt-%-plain.o: yespower-opt.c $(B)/CONFIG
	$(CC) $(ALL_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* \
		-DYESPOWER_PLAIN -c $< -o $@

$(B)/%.o: %.c $(B)/CONFIG
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(FLAGS_$(*F)) -c $< -o $@

# The benchmark's parts and the programs that use OpenMP.
BENCH_OBJS = $(addprefix $(B)/bench/,options.o affinity.o harness.o \
	report.o json.o parts.o components.o randomx.o randomx-components.o \
	hashes.o) $(B)/tools/timing.o
OMP_OBJS = $(B)/benchmark.o $(BENCH_OBJS) $(B)/tools/abcompare.o
$(OMP_OBJS): ALL_CFLAGS += $(OMPFLAGS)

# The reference under other names, for the programs that link both.
REF_RENAME = -Dyespower=ref_yespower -Dyespower_tls=ref_yespower_tls \
	-Dyespower_init_local=ref_yespower_init_local \
	-Dyespower_free_local=ref_yespower_free_local \
	-Dyespower_impl_name=ref_yespower_impl_name \
	-Dyespower_set_impl=ref_yespower_set_impl \
	-Dyespower_b2b=ref_yespower_b2b -Dyespower_b2b_tls=ref_yespower_b2b_tls \
	-Dyespower_batch=ref_yespower_batch \
	-Dyespower_batch_tls=ref_yespower_batch_tls \
	-Dyespower_b2b_batch=ref_yespower_b2b_batch \
	-Dyespower_b2b_batch_tls=ref_yespower_b2b_batch_tls \
	-Dyespower_impl_at=ref_yespower_impl_at
$(B)/yespower-ref-renamed.o: yespower-ref.c $(B)/CONFIG
	$(CC) $(ALL_CFLAGS) $(REF_RENAME) -c $< -o $@

-include $(wildcard $(B)/*.d $(B)/*/*.d)
$(B)/%.d: ;

# ---- programs ----

tests: $(B)/tests.o $(UTIL_OBJ) libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# With RandomX (benchmark --randomx), whose library shares libyespower's
# helpers: libyespower.a comes first and provides them.
benchmark: $(B)/benchmark.o $(BENCH_OBJS) $(UTIL_OBJ) libyespower.a \
    $(B)/randomx/librandomx.a
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ $^ $(LDLIBS) -lm

# The tool, linked statically: it runs wherever it is copied.
LIBYESPOWER_VERSION = $(SOVERSION).0.0
FLAGS_yespower-cli = -DYESPOWER_CLI_VERSION='"$(LIBYESPOWER_VERSION)"'
$(B)/yespower: $(B)/tools/yespower-cli.o $(UTIL_OBJ) libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Side-by-side speed comparison of two shared libraries (see README).
abcompare: $(B)/abcompare
$(B)/abcompare: $(B)/tools/abcompare.o $(B)/tools/timing.o
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ $^ -ldl

# The test programs, each from test/NAME.c with the static library.
TEST_PROGS = tests-diff tests-threads tests-chains tests-stress \
	tests-misuse tests-exhaust tests-overflow tests-fork tests-atexit
$(TEST_PROGS:%=$(B)/test/%): $(B)/test/%: $(B)/test/%.o $(UTIL_OBJ) \
    libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every test program, for the cross and clang builds.
TEST_BINS = $(TEST_PROGS:%=$(B)/test/%) $(B)/test/tests-unload \
	$(B)/test/tests-blake2b $(B)/test/tests-isa $(B)/test/tests-hashes

# The differential test links the reference too, under other names.
$(B)/test/tests-diff: $(B)/yespower-ref-renamed.o

# Built against nothing: it loads the shared library itself.
$(B)/test/tests-unload: $(B)/test/tests-unload.o
	$(CC) $(LDFLAGS) -o $@ $^ -ldl $(LDLIBS)

# BLAKE2b against libsodium, which it loads at run time (no headers).
$(B)/test/tests-blake2b: $(B)/test/tests-blake2b.o $(UTIL_OBJ) libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ -ldl $(LDLIBS)

# ---- the reference, as in the original's `make ref` ----

ref: $(B)/tests-ref $(B)/benchmark-ref $(B)/tests-chains-ref

$(B)/tests-ref: $(B)/tests.o $(UTIL_OBJ) $(REF_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests-chains-ref: $(B)/test/tests-chains.o $(UTIL_OBJ) $(REF_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# With the hashing API and RandomX as the optimized library has them (only
# yespower's implementation is the reference's).
$(B)/benchmark-ref: $(B)/benchmark.o $(BENCH_OBJS) $(UTIL_OBJ) $(REF_OBJS) \
    $(POW_OBJS) $(B)/impl-spec.o $(B)/randomx/librandomx.a
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ $^ $(LDLIBS) -lm

# ---- checks ----

# Every suite of `make check`, in the order they run.  Each ends with a line
# "NAME: N passed, N failed" (and ", N skipped (why)" where some could not
# run here).  The fragments in mk/ define most of them.
CHECKS = check-kat check-isa check-diff check-threads check-chains \
	check-blake2b check-benchmark check-cli check-install check-python \
	check-misuse check-exhaust check-overflow check-fork check-atexit \
	check-stress check-fuzz-replay check-hashes check-randomx

check:
	@if $(MAKE) -s -k $(CHECKS); then echo PASSED; \
	else echo FAILED; exit 1; fi

# $(RUN_KAT) NAME PROGRAM OUT-PREFIX OPTION-PREFIX IMPLS...: see
# test/run-kat.sh.
RUN_KAT = sh test/run-kat.sh

# Known answers: the output must match TESTS-OK line for line, through
# every mixing core this CPU can run (the others are named as skipped),
# and through the automatic choice (TESTS-OUT, as the original's).
check-kat: tests
	@echo 'Running tests'
	@$(RUN_KAT) kat ./tests $(B)/test/TESTS-OUT- core= $(CORES) \
		$(PLAIN_CORES:%=%-plain) auto; \
	rc=$$?; cp $(B)/test/TESTS-OUT-auto TESTS-OUT; exit $$rc

# The optimized implementation against the reference on random cases.
check-diff: $(B)/test/tests-diff
	@$(B)/test/tests-diff

check-threads: $(B)/test/tests-threads $(B)/test/tests-unload $(SONAME)
	@$(B)/test/tests-threads && $(B)/test/tests-unload ./$(SONAME)

# Real headers from real chains: published PoW hashes and targets.
check-chains: $(B)/test/tests-chains
	@$(B)/test/tests-chains > $(B)/test/TESTS-CHAINS-OUT; rc=$$?; \
	grep -v ': ok$$' $(B)/test/TESTS-CHAINS-OUT; exit $$rc

check-blake2b: $(B)/test/tests-blake2b
	@$(B)/test/tests-blake2b test/vectors/primitives.txt \
		> $(B)/test/TESTS-BLAKE2B-OUT; rc=$$?; \
	grep -v "^BLAKE2B " $(B)/test/TESTS-BLAKE2B-OUT; exit $$rc

check-ref: ref
	@echo 'Running tests (reference implementation)'
	@$(B)/tests-ref test/vectors/primitives.txt > $(B)/TESTS-OUT-REF; \
	if diff -U0 TESTS-OK $(B)/TESTS-OUT-REF && \
	    $(B)/tests-chains-ref > $(B)/TESTS-CHAINS-OUT-REF; then \
		echo 'kat-ref: 1 passed, 0 failed'; \
		tail -1 $(B)/TESTS-CHAINS-OUT-REF; echo PASSED; \
	else echo FAILED; exit 1; fi

help:
	@sed -n 's/^#h //p' Makefile $(sort $(wildcard mk/*.mk))

#h Building:
#h   make                 the libraries, tests, benchmark and build/yespower
#h   make native          one mixing core built with -march=native
#h   make ref             the reference builds (build/tests-ref ...)
#h   make abcompare       build/abcompare, an A/B speed comparison
#h   make install         see README (PREFIX, DESTDIR); make uninstall
#h   make clean
#h Testing (make check runs the first group; each ends with a count line):
#h   check-kat            known answers through every mixing core
#h   check-isa            every SHA-256 function, every core+SHA-256 pair
#h   check-diff           optimized against the reference, random cases
#h   check-threads        many threads; memory freed at thread exit; dlclose
#h   check-chains         real headers of 14 chains
#h   check-blake2b        BLAKE2b against libsodium (loaded at run time)
#h   check-benchmark      the benchmark's options, output and JSON
#h   check-cli            the yespower tool
#h   check-install        make install into a temporary prefix
#h   check-python         the Python module from the tree
#h   check-hashes         the hashing API: standards' vectors, Bitcoin blocks, every kernel
#h   check-misuse, check-exhaust, check-overflow, check-fork,
#h   check-atexit, check-stress, check-fuzz-replay  see doc/testing.md, Reliability
#h Slower suites (.ci/run runs them after make check):
#h   check-ref            known answers through the reference

clean:
	rm -rf $(B) $(LIBS) tests benchmark TESTS-OUT

# Further targets, one file per concern (instruction sets, install,
# reliability, cross builds).
include $(sort $(wildcard mk/*.mk))

.PHONY: all ref check check-ref help clean abcompare $(CHECKS)
