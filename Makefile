# libyespower
#
#   make              libyespower.a, libyespower.so, tests, benchmark
#   make check        known answers (diff against TESTS-OK) through every core,
#                     the differential test and the thread test
#   make ref          tests-ref and benchmark-ref, linked with the reference
#   make check-ref    the known answers through the reference implementation
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
# its own flags.  Everything else is compiled with no ISA flags.
MACHINE := $(shell $(CC) -dumpmachine)
ifneq ($(filter x86_64% i386% i486% i586% i686% amd64%,$(MACHINE)),)
CORES = portable sse2 avx xop avx512vl
else
CORES = portable
endif
CORE_FLAGS_portable = -DYESPOWER_CORE_PORTABLE
CORE_FLAGS_sse2 = -msse2
CORE_FLAGS_avx = -mavx
CORE_FLAGS_xop = -mxop
CORE_FLAGS_avx512vl = -mavx512vl

CORE_OBJS = $(CORES:%=yespower-opt-%.o)
LIB_OBJS = yespower-api.o yespower-platform.o yespower-dispatch.o \
	sha256.o blake2b.o insecure_memzero.o $(CORE_OBJS)
REF_OBJS = yespower-ref.o sha256.o blake2b.o insecure_memzero.o

PROGS = tests benchmark tests-diff tests-threads
LIBS = libyespower.a libyespower.so

all: $(LIBS) $(PROGS)

libyespower.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(SONAME): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $(LIB_OBJS) $(LDLIBS)

libyespower.so: $(SONAME)
	ln -sf $(SONAME) $@

yespower-opt-%.o: yespower-opt.c yespower-impl.h yespower.h sysendian.h
	$(CC) $(ALL_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* -c $< -o $@

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

# The differential test links the reference too, under other names.
REF_RENAME = -Dyespower=ref_yespower -Dyespower_tls=ref_yespower_tls \
	-Dyespower_init_local=ref_yespower_init_local \
	-Dyespower_free_local=ref_yespower_free_local \
	-Dyespower_impl_name=ref_yespower_impl_name \
	-Dyespower_set_impl=ref_yespower_set_impl
yespower-ref-renamed.o: yespower-ref.c yespower.h sha256.h sysendian.h
	$(CC) $(ALL_CFLAGS) $(REF_RENAME) -c $< -o $@

tests-diff: tests-diff.o yespower-ref-renamed.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ tests-diff.o yespower-ref-renamed.o \
		libyespower.a $(LDLIBS)

# The reference builds, as in the original's `make ref`.
ref: tests-ref benchmark-ref

tests-ref: tests.o $(REF_OBJS)
	$(CC) $(LDFLAGS) -o $@ tests.o $(REF_OBJS) $(LDLIBS)

benchmark-ref: benchmark.o $(REF_OBJS)
	$(CC) $(LDFLAGS) $(OMPFLAGS) -o $@ benchmark.o $(REF_OBJS) $(LDLIBS)

# Known answers: the output must match TESTS-OK line for line, through
# every mixing core this CPU can run (the others are named as skipped);
# then the differential test of the automatic choice against the reference.
check: tests tests-diff tests-threads
	@echo 'Running tests'
	@fail=0; for impl in $(CORES); do \
		./tests --impl $$impl vectors/primitives.txt > TESTS-OUT; \
		rc=$$?; \
		if [ $$rc = 77 ]; then echo "core $$impl: skipped, this CPU cannot run it"; \
		elif [ $$rc = 0 ] && diff -U0 TESTS-OK TESTS-OUT; then \
			echo "core $$impl: known answers ok"; \
		else echo "core $$impl: FAILED"; fail=1; fi; \
	done; \
	./tests vectors/primitives.txt > TESTS-OUT || fail=1; \
	diff -U0 TESTS-OK TESTS-OUT || fail=1; \
	./tests-diff || fail=1; \
	./tests-threads || fail=1; \
	if [ $$fail = 0 ]; then echo PASSED; else echo FAILED; exit 1; fi

check-ref: tests-ref
	@echo 'Running tests (reference implementation)'
	@./tests-ref vectors/primitives.txt > TESTS-OUT-REF; \
	if diff -U0 TESTS-OK TESTS-OUT-REF; then \
		echo PASSED; else echo FAILED; exit 1; fi

clean:
	rm -f *.o $(LIBS) $(SONAME) $(PROGS) tests-ref benchmark-ref \
		TESTS-OUT TESTS-OUT-REF

yespower-api.o: yespower-impl.h yespower.h sha256.h
yespower-dispatch.o: yespower-impl.h yespower.h
yespower-platform.o: yespower-impl.h yespower.h
yespower-ref.o: yespower.h sha256.h sysendian.h insecure_memzero.h
sha256.o: sha256.h sysendian.h insecure_memzero.h
blake2b.o: blake2b.h sysendian.h insecure_memzero.h
insecure_memzero.o: insecure_memzero.h
tests.o tests-diff.o tests-threads.o: yespower.h sha256.h blake2b.h

.PHONY: all ref check check-ref clean
