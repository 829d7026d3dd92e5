# mk/hashes.mk: the hashing API (pow-hash.h, issue 17): its kernels'
# flags, its tests and its benchmark part.  The Makefile lists the objects
# (POW_OBJS, in LIB_OBJS); each kernel file gets its instruction set's
# flags here and nothing else does.
#
#   make check-hashes   (in `make check`) tests-hashes: the standards'
#                       vectors, real Bitcoin blocks, every kernel set this
#                       CPU runs against the portable one, errors, threads
#   make check-hashes-qemu   tests-hashes --quick under qemu-x86_64 -cpu
#                       qemu64 (SSE2 only: the SHA-NI and AVX2 sets must be
#                       named as skipped, SSE2 and portable must pass)
#   make NO_AVX2=1      leave the AVX2 kernels out (NO_SHANI=1, NO_SSE2=1
#                       leave out theirs too)

POW_FLAGS_shani = -mavx -msha -DPOW_SHANI_VEX
POW_FLAGS_shani-sse = -msha -msse4.1
POW_FLAGS_avx2 = -mavx2 -DPOW_SIMD_AVX2
POW_FLAGS_sse2 = -msse2 -DPOW_SIMD_SSE2

# Which kernel sets the dispatcher may list (pow-hash-impl.h).
POW_ISA_DEFS = $(if $(filter shani,$(POW_KERNELS)),,-DPOW_NO_SHANI) \
	$(if $(filter avx2,$(POW_KERNELS)),,-DPOW_NO_AVX2) \
	$(if $(filter sse2,$(POW_KERNELS)),,-DPOW_NO_SSE2)
ALL_CFLAGS += $(POW_ISA_DEFS)

POW_HEADERS = pow-hash.h pow-hash-impl.h

# One source, two encodings (see pow-sha256-shani.c).
pow-sha256-shani.o pow-sha256-shani-sse.o: pow-sha256-%.o: pow-sha256-shani.c \
	pow-sha256-shani-streams.h $(POW_HEADERS) sha256.h cpu-features.h
	$(CC) $(ALL_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@

# One source, two instruction sets.
pow-sha256-avx2.o pow-sha256-sse2.o: pow-sha256-%.o: pow-sha256-simd.c \
	$(POW_HEADERS) sha256.h cpu-features.h insecure_memzero.h
	$(CC) $(ALL_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@

pow-keccak-avx2.o: pow-keccak-avx2.c pow-keccak-round.h $(POW_HEADERS) \
	cpu-features.h insecure_memzero.h
	$(CC) $(ALL_CFLAGS) -mavx2 -c $< -o $@

pow-hash.o: $(POW_HEADERS) sha256.h insecure_memzero.h
pow-sha3.o: $(POW_HEADERS) sysendian.h insecure_memzero.h
pow-merkle.o: $(POW_HEADERS) insecure_memzero.h
pow-hash-dispatch.o: $(POW_HEADERS) sha256.h cpu-features.h yespower.h \
	ISA-CONFIG
pow-sha256-portable.o: $(POW_HEADERS) sha256.h sysendian.h insecure_memzero.h
pow-keccak.o: pow-keccak-round.h $(POW_HEADERS) sysendian.h \
	insecure_memzero.h

# ---- tests ----

PROGS += test/tests-hashes
all: test/tests-hashes

test/tests-hashes.o: test/tests-hashes.c pow-hash.h pow-hash-impl.h \
	cpu-features.h
	$(CC) $(ALL_CFLAGS) -I. -c $< -o $@

test/tests-hashes: test/tests-hashes.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ test/tests-hashes.o libyespower.a $(LDLIBS)

CHECKS += check-hashes

# The whole suite, then POW_HASH_IMPL's choice at first use.
check-hashes: test/tests-hashes
	@./test/tests-hashes test/vectors > TESTS-HASHES-OUT; rc=$$?; \
	grep -v '^ok ' TESTS-HASHES-OUT; \
	POW_HASH_IMPL=sha256=portable,keccak=portable ./test/tests-hashes \
		--expect-impl sha256=portable,keccak=portable > TESTS-HASHES-OUT \
		|| { cat TESTS-HASHES-OUT; rc=1; }; \
	exit $$rc

check-hashes-qemu: test/tests-hashes
	@if ! command -v qemu-x86_64 > /dev/null; then \
		echo "hashes under qemu64: skipped (no qemu-x86_64)"; exit 0; fi; \
	qemu-x86_64 -cpu qemu64 ./test/tests-hashes --quick test/vectors \
		> TESTS-HASHES-OUT; rc=$$?; \
	grep -v '^ok \|^skipped ' TESTS-HASHES-OUT; \
	grep -q 'skipped (.*sha256=avx2' TESTS-HASHES-OUT || \
		{ echo "qemu64: AVX2 not refused"; rc=1; }; \
	exit $$rc

clean: clean-hashes
clean-hashes:
	rm -f test/*.o test/tests-hashes TESTS-HASHES-OUT

.PHONY: check-hashes check-hashes-qemu clean-hashes
