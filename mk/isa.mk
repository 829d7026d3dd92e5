# mk/isa.mk: instruction sets (issue 4).  The Makefile's core/ISA section
# says which mixing cores (CORES) and SHA-256 compression functions
# (SHA256_IMPLS) a build has; this fragment tells the dispatcher, and adds
# the tests and tools that go with them.
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
#                       this CPU runs; then tests-isa.sh: libyespower.so
#                       with every core and SHA-256 forced, the
#                       YESPOWER_IMPL syntax, and the library under
#                       qemu-x86_64 -cpu qemu64 (skipped without qemu)
#   make check-qemu     only the qemu64 part
#   make bench-sha256   our SHA-256 against OpenSSL's, side by side
#                       (sha256-vs-openssl, from bench-sha256.c; needs
#                       libssl-dev; not part of `make check`)

# The dispatcher's view of the build: which cores and SHA-256 functions
# exist.  ISA-CONFIG holds it and changes only when it does, so switching
# NO_* or NATIVE rebuilds the dispatcher (and relinks) without make clean.
ISA_DEFS = $(if $(filter native,$(CORES)),-DYESPOWER_NATIVE) \
	$(if $(filter sse2,$(CORES)),,-DYESPOWER_NO_SSE2) \
	$(if $(filter avx,$(CORES)),,-DYESPOWER_NO_AVX) \
	$(if $(filter xop,$(CORES)),,-DYESPOWER_NO_XOP) \
	$(if $(filter avx512vl,$(CORES)),,-DYESPOWER_NO_AVX512) \
	$(if $(filter shani,$(SHA256_IMPLS)),,-DYESPOWER_NO_SHANI)
ALL_CFLAGS += $(ISA_DEFS)

ISA-CONFIG: isa-config-force
	@echo '$(strip $(ISA_DEFS))' | cmp -s - $@ || \
		echo '$(strip $(ISA_DEFS))' > $@
isa-config-force:

yespower-dispatch.o: ISA-CONFIG sha256.h yespower-impl.h
sha256-shani.o: sha256.h

native:
	@$(MAKE) NATIVE=1 all

# ---- tests ----

PROGS += tests-isa
all: tests-isa

tests-isa.o: tests-isa.c yespower.h

# Linked with the shared library: the test is that one libyespower.so
# works everywhere.
tests-isa: tests-isa.o $(SONAME)
	$(CC) $(LDFLAGS) -o $@ tests-isa.o ./$(SONAME) \
		-Wl,-rpath,'$$ORIGIN' $(LDLIBS)

CHECKS += check-isa

# The primitives' known answers (and the rest of TESTS-OK) through every
# SHA-256 implementation, the core left to the automatic choice; exit
# status 77 means this CPU cannot run it.  Then tests-isa.sh.
check-isa: tests tests-isa
	@fail=0; for s in $(SHA256_IMPLS); do \
		./tests --impl sha256=$$s vectors/primitives.txt \
			> TESTS-ISA-OUT; \
		rc=$$?; \
		if [ $$rc = 77 ]; then \
			echo "sha256 $$s: skipped, this CPU cannot run it"; \
		elif [ $$rc = 0 ] && diff -U0 TESTS-OK TESTS-ISA-OUT; then \
			echo "sha256 $$s: known answers ok"; \
		else echo "sha256 $$s: FAILED"; fail=1; fi; \
	done; \
	sh ./tests-isa.sh ./tests-isa "$(CORES)" "$(SHA256_IMPLS)" || fail=1; \
	exit $$fail

check-qemu: tests-isa
	@sh ./tests-isa.sh --qemu-only ./tests-isa "$(CORES)" "$(SHA256_IMPLS)"

# ---- the SHA-256 speed comparison (a development tool) ----

# `make bench-sha256` builds the program (linked with -lcrypto) and runs
# it; BENCH_SHA256_ROUNDS (default 201) rounds.  OpenSSL 3 marks
# SHA256_Init and friends deprecated; they are still the low-level
# interface the comparison is about.
BENCH_SHA256_ROUNDS ?= 201

bench-sha256: sha256-vs-openssl
	./sha256-vs-openssl $(BENCH_SHA256_ROUNDS)

sha256-vs-openssl: bench-sha256.c libyespower.a sha256.h yespower.h
	$(CC) $(WARN) $(CFLAGS) -DOPENSSL_SUPPRESS_DEPRECATED -o $@ \
		bench-sha256.c libyespower.a -lcrypto $(LDLIBS)

clean: clean-isa
clean-isa:
	rm -f ISA-CONFIG TESTS-ISA-OUT tests-isa tests-isa.out sha256-vs-openssl

.PHONY: native check-isa check-qemu bench-sha256 isa-config-force clean-isa
