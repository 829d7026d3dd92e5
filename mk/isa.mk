# mk/isa.mk: instruction sets.  The Makefile says which mixing cores
# (CORES) and SHA-256 compression functions (SHA256_IMPLS) a build has;
# this fragment adds the tests and tools that go with them.
#
#   make NO_XOP=1 ...   leave a core out (NO_SSE2, NO_AVX, NO_XOP,
#                       NO_AVX512) or SHA-NI (NO_SHANI); combinable
#   make native         one core compiled with -march=native (as the
#                       original's build), plus the portable one as the
#                       self-test fallback; SHA-NI still chosen by cpuid.
#                       Test it with `make NATIVE=1 check`.  The library
#                       runs only on CPUs like the build machine's.
#   make check-isa      (in `make check`) the known answers, primitives
#                       included, through every SHA-256 implementation
#                       this CPU runs; then test/tests-isa.sh:
#                       libyespower.so with every core and SHA-256 forced,
#                       the YESPOWER_IMPL syntax, and the library under
#                       qemu-x86_64 -cpu qemu64, then as four other CPU
#                       models (skipped, and said, without qemu)
#   make check-qemu     only the qemu64 part
#   make bench-sha256   our SHA-256 against OpenSSL's, side by side
#                       (build/sha256-vs-openssl, from
#                       tools/sha256-vs-openssl.c; needs libssl-dev; not
#                       part of `make check`)

#h Instruction sets (mk/isa.mk):
#h   make NO_XOP=1 ...    leave a core out (NO_SSE2, NO_AVX, NO_AVX512, NO_SHANI)
#h   check-qemu           the library under qemu-x86_64 -cpu qemu64 (SSE2 only)
#h   bench-sha256         our SHA-256 against OpenSSL's (needs libssl-dev)

native:
	@$(MAKE) NATIVE=1 all

# Linked with the shared library: the test is that one libyespower.so
# works everywhere.
$(B)/test/tests-isa: $(B)/test/tests-isa.o $(SONAME)
	$(CC) $(LDFLAGS) -o $@ $< ./$(SONAME) -Wl,-rpath,'$$ORIGIN/../..' \
		$(LDLIBS)

# The primitives' known answers (and the rest of TESTS-OK) through every
# SHA-256 implementation, the core left to the automatic choice; then
# tests-isa.sh.
check-isa: tests $(B)/test/tests-isa
	@$(RUN_KAT) kat-sha256 ./tests $(B)/test/TESTS-ISA-OUT- sha256= \
		$(SHA256_IMPLS); rc=$$?; \
	sh test/tests-isa.sh $(B)/test/tests-isa || rc=1; exit $$rc

check-qemu: $(B)/test/tests-isa
	@sh test/tests-isa.sh --qemu-only $(B)/test/tests-isa

# ---- the SHA-256 speed comparison (a development tool) ----

# `make bench-sha256` builds the program (linked with -lcrypto) and runs
# it; BENCH_SHA256_ROUNDS (default 201) rounds.  OpenSSL 3 marks
# SHA256_Init and friends deprecated; they are still the low-level
# interface the comparison is about.
BENCH_SHA256_ROUNDS ?= 201
FLAGS_sha256-vs-openssl = -DOPENSSL_SUPPRESS_DEPRECATED

bench-sha256: $(B)/sha256-vs-openssl
	$(B)/sha256-vs-openssl $(BENCH_SHA256_ROUNDS)

$(B)/sha256-vs-openssl: $(B)/tools/sha256-vs-openssl.o $(B)/tools/timing.o \
    libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ -lcrypto $(LDLIBS)

.PHONY: native check-qemu bench-sha256
