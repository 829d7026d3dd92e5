# libyespower
#
#   make              libyespower.a, libyespower.so, tests, benchmark and the
#                     other test programs
#   make check        every test suite (see CHECKS below); PASSED or FAILED
#   make ref          tests-ref, benchmark-ref and tests-chains-ref, linked
#                     with the reference implementation
#   make check-ref    known answers and real headers through the reference
#   make abcompare    side-by-side speed comparison of two shared libraries
#   make clean

CC ?= cc
CFLAGS ?= -O2 -fomit-frame-pointer
WARN = -Wall -Wextra
ALL_CFLAGS = $(WARN) $(CFLAGS) -fPIC
LDLIBS = -lpthread
OMPFLAGS = -fopenmp
AR ?= ar

SOVERSION = 1
SONAME = libyespower.so.$(SOVERSION)

# Mixing cores: yespower-opt.c compiled once per instruction set, each with
# its own flags; SHA-256 compression functions likewise (sha256.c has the
# portable one, sha256-shani.c the SHA-NI one).  Everything else is
# compiled with no ISA flags.  NO_SSE2=1, NO_AVX=1, NO_XOP=1, NO_AVX512=1
# and NO_SHANI=1 leave one out; NATIVE=1 (`make native`) builds one core
# with -march=native instead of the x86 ones.  See mk/isa.mk.
MACHINE := $(shell $(CC) -dumpmachine)
ifneq ($(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE)),)
CORES = portable sse2 avx xop avx512vl
SHA256_IMPLS = portable shani
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
	$(if $(filter 1,$(NO_XOP)),xop) $(if $(filter 1,$(NO_AVX512)),avx512vl) \
	$(if $(filter 1,$(NO_SHANI)),shani)
CORES := $(filter-out $(NO_ISAS),$(CORES))
SHA256_IMPLS := $(filter-out $(NO_ISAS),$(SHA256_IMPLS))
CORE_FLAGS_portable = -DYESPOWER_CORE_PORTABLE
CORE_FLAGS_sse2 = -msse2
CORE_FLAGS_avx = -mavx
CORE_FLAGS_xop = -mxop
CORE_FLAGS_avx512vl = -mavx512vl
CORE_FLAGS_native = -march=native
SHA256_FLAGS_shani = -msha -msse4.1

CORE_OBJS = $(CORES:%=yespower-opt-%.o)
SHA256_OBJS = $(filter-out sha256-portable.o,$(SHA256_IMPLS:%=sha256-%.o))
# The hashing API (pow-hash.h); its kernels and flags are in mk/hashes.mk.
POW_KERNELS = $(if $(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE)),\
	$(filter-out $(NO_ISAS) $(if $(filter 1,$(NO_AVX2)),avx2),shani avx2 sse2))
POW_OBJS = pow-hash.o pow-sha3.o pow-merkle.o pow-hash-dispatch.o \
	pow-sha256-portable.o pow-keccak.o $(POW_KERNELS:%=pow-sha256-%.o) \
	$(if $(filter shani,$(POW_KERNELS)),pow-sha256-shani-sse.o) \
	$(if $(filter avx2,$(POW_KERNELS)),pow-keccak-avx2.o)
LIB_OBJS = yespower-api.o yespower-platform.o yespower-dispatch.o \
	yespower-presets.o yespower-hashes.o sha256.o blake2b.o insecure_memzero.o \
	cpu-features.o \
	$(CORE_OBJS) $(SHA256_OBJS) $(POW_OBJS)
REF_OBJS = yespower-ref.o yespower-presets.o yespower-hashes.o sha256.o blake2b.o insecure_memzero.o

PROGS = tests benchmark tests-diff tests-threads tests-unload tests-chains \
	tests-blake2b
LIBS = libyespower.a libyespower.so

all: $(LIBS) $(PROGS)

libyespower.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(SONAME): $(LIB_OBJS) libyespower.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libyespower.map \
		$(LDFLAGS) -o $@ $(LIB_OBJS) $(LDLIBS)

libyespower.so: $(SONAME)
	ln -sf $(SONAME) $@

yespower-opt-%.o: yespower-opt.c yespower-impl.h yespower.h sysendian.h
	$(CC) $(ALL_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* -c $< -o $@

sha256-%.o: sha256-%.c sha256.h
	$(CC) $(ALL_CFLAGS) $(SHA256_FLAGS_$*) -c $< -o $@

%.o: %.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

tests: tests.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ tests.o libyespower.a $(LDLIBS)

benchmark.o: benchmark.c yespower.h
	$(CC) $(ALL_CFLAGS) $(OMPFLAGS) -c $< -o $@

benchmark: benchmark.o libyespower.a
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ benchmark.o libyespower.a $(LDLIBS)

tests-threads: tests-threads.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ tests-threads.o libyespower.a $(LDLIBS)

# Built against nothing: it loads the shared library itself.
tests-unload: tests-unload.o
	$(CC) $(LDFLAGS) -o $@ tests-unload.o -ldl $(LDLIBS)

tests-chains: tests-chains.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ tests-chains.o libyespower.a $(LDLIBS)

# BLAKE2b against libsodium (a test dependency only: apt install libsodium-dev).
tests-blake2b: tests-blake2b.o blake2b.o insecure_memzero.o
	$(CC) $(LDFLAGS) -o $@ tests-blake2b.o blake2b.o insecure_memzero.o -lsodium

# The differential test links the reference too, under other names.
REF_RENAME = -Dyespower=ref_yespower -Dyespower_tls=ref_yespower_tls \
	-Dyespower_init_local=ref_yespower_init_local \
	-Dyespower_free_local=ref_yespower_free_local \
	-Dyespower_impl_name=ref_yespower_impl_name \
	-Dyespower_set_impl=ref_yespower_set_impl \
	-Dyespower_b2b=ref_yespower_b2b -Dyespower_b2b_tls=ref_yespower_b2b_tls
yespower-ref-renamed.o: yespower-ref.c yespower.h yespower-hashes.h sysendian.h
	$(CC) $(ALL_CFLAGS) $(REF_RENAME) -c $< -o $@

tests-diff: tests-diff.o yespower-ref-renamed.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ tests-diff.o yespower-ref-renamed.o \
		libyespower.a $(LDLIBS)

# Side-by-side speed comparison of two shared libraries (see README).
abcompare: abcompare.c yespower.h
	$(CC) $(WARN) $(CFLAGS) $(OMPFLAGS) -o $@ abcompare.c -ldl

# The reference builds, as in the original's `make ref`.
ref: tests-ref benchmark-ref tests-chains-ref

tests-ref: tests.o $(REF_OBJS)
	$(CC) $(LDFLAGS) -o $@ tests.o $(REF_OBJS) $(LDLIBS)

tests-chains-ref: tests-chains.o $(REF_OBJS)
	$(CC) $(LDFLAGS) -o $@ tests-chains.o $(REF_OBJS) $(LDLIBS)

benchmark-ref: benchmark.o $(REF_OBJS)
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ benchmark.o $(REF_OBJS) $(LDLIBS)

# make check: every suite below, then PASSED or FAILED (and a non-zero exit).
CHECKS = check-kat check-diff check-threads check-chains check-blake2b

check:
	@if $(MAKE) -s -k $(CHECKS); then echo PASSED; \
	else echo FAILED; exit 1; fi

# Known answers: the output must match TESTS-OK line for line, through
# every mixing core this CPU can run (the others are named as skipped),
# and through the automatic choice.
check-kat: tests
	@echo 'Running tests'
	@fail=0; for impl in $(CORES) auto; do \
		./tests --impl $$impl vectors/primitives.txt > TESTS-OUT; \
		rc=$$?; \
		if [ $$rc = 77 ]; then \
			echo "core $$impl: skipped, this CPU cannot run it"; \
		elif [ $$rc = 0 ] && diff -U0 TESTS-OK TESTS-OUT; then \
			echo "core $$impl: known answers ok"; \
		else echo "core $$impl: FAILED"; fail=1; fi; \
	done; exit $$fail

# The optimized implementation against the reference on random cases.
check-diff: tests-diff
	@./tests-diff

check-threads: tests-threads tests-unload $(SONAME)
	@./tests-threads && ./tests-unload ./$(SONAME)

# Real headers from real chains: published PoW hashes and targets.
check-chains: tests-chains
	@./tests-chains > TESTS-CHAINS-OUT; rc=$$?; \
	grep -v 'hash matches, meets\|target, meets' TESTS-CHAINS-OUT; exit $$rc

check-blake2b: tests-blake2b
	@./tests-blake2b vectors/primitives.txt > TESTS-BLAKE2B-OUT; rc=$$?; \
	tail -1 TESTS-BLAKE2B-OUT; exit $$rc

check-ref: tests-ref tests-chains-ref
	@echo 'Running tests (reference implementation)'
	@./tests-ref vectors/primitives.txt > TESTS-OUT-REF; \
	if diff -U0 TESTS-OK TESTS-OUT-REF && \
	    ./tests-chains-ref > TESTS-CHAINS-OUT-REF; then \
		tail -1 TESTS-CHAINS-OUT-REF; echo PASSED; \
	else echo FAILED; exit 1; fi

clean:
	rm -f *.o $(LIBS) $(SONAME) $(PROGS) tests-ref benchmark-ref abcompare \
		tests-chains-ref TESTS-CHAINS-OUT-REF \
		TESTS-OUT TESTS-OUT-REF TESTS-CHAINS-OUT TESTS-BLAKE2B-OUT

yespower-api.o: yespower-impl.h yespower.h yespower-hashes.h
yespower-hashes.o: yespower-hashes.h sha256.h blake2b.h
yespower-presets.o: yespower.h
yespower-dispatch.o: yespower-impl.h yespower.h cpu-features.h
cpu-features.o: cpu-features.h
yespower-platform.o: yespower-impl.h yespower.h
yespower-ref.o: yespower.h yespower-hashes.h sysendian.h insecure_memzero.h
sha256.o: sha256.h sysendian.h insecure_memzero.h
blake2b.o: blake2b.h sysendian.h insecure_memzero.h
insecure_memzero.o: insecure_memzero.h
tests.o tests-diff.o tests-threads.o tests-unload.o tests-chains.o tests-blake2b.o: yespower.h sha256.h blake2b.h
tests.o tests-diff.o tests-threads.o tests-blake2b.o: tests-util.h

# Further targets, one file per concern (install, fuzzing, cross builds...).
# A fragment adds its suites to `make check` with `CHECKS += check-name`.
-include $(sort $(wildcard mk/*.mk))

.PHONY: all ref check check-ref clean $(CHECKS)
