# mk/hashes.mk: the hashing API (hashes/pow-hash.h): its kernels' flags,
# its tests.  The Makefile lists the objects (POW_OBJS, in LIB_OBJS) and
# which kernel sets exist (POW_KERNELS); each kernel file gets its
# instruction set's flags here and nothing else does.
#
#   make check-hashes   (in `make check`) tests-hashes: the standards'
#                       vectors, real Bitcoin blocks, every kernel set this
#                       CPU runs against the portable one, the AVX-512
#                       sets' code on emulated lanes (every CPU), errors,
#                       threads; then POW_HASH_IMPL's choice at first use
#   make check-hashes-qemu   tests-hashes --quick under qemu-x86_64 -cpu
#                       qemu64 (SSE2 only: the SHA-NI and AVX2 sets must be
#                       named as skipped, SSE2 and portable must pass), and
#                       as a Haswell the first use must choose the AVX2
#                       sets (.ci/run runs it)
#   make NO_AVX2=1      leave the AVX2 kernels out (NO_SHANI=1,
#                       NO_AVX512=1, NO_SSE2=1 leave out theirs too)

#h The hashing API (mk/hashes.mk):
#h   check-hashes-qemu    tests-hashes under qemu-x86_64 -cpu qemu64
#h   make NO_AVX2=1 ...   leave the AVX2 kernels out

POW_FLAGS_shani = -mavx -msha -DPOW_SHANI_VEX
POW_FLAGS_shani-sse = -msha -msse4.1
POW_FLAGS_avx512 = -mavx512f -DPOW_SIMD_AVX512
POW_FLAGS_avx2 = -mavx2 -DPOW_SIMD_AVX2
POW_FLAGS_sse2 = -msse2 -DPOW_SIMD_SSE2
# The emulated lanes at -Og: at -O2 gcc 12 spends minutes of CPU on the
# SHA-256 file alone (48 s at -O1, 0.3 s at -Og), in every build that
# compiles it (native, sanitizers, each cross target); the tests' speed
# does not depend on it.
POW_FLAGS_avx512emu = -DPOW_SIMD_EMU16 -Og
FLAGS_pow-keccak-avx2 = -mavx2
FLAGS_pow-keccak-avx512 = -mavx512f -DPOW_KECCAK_AVX512

# The AVX-512 sets' code on emulated lanes (plain C, every target): linked
# into tests-hashes only, so that it is tested where AVX-512 is absent.
POW_EMU_OBJS = hashes/pow-sha256-avx512emu.o hashes/pow-keccak-avx512emu.o

# One source, two encodings (hashes/pow-sha256-shani.c); one source, three
# instruction sets and the tests' emulated AVX-512 (hashes/pow-sha256-
# simd.c); the emulated build of the AVX-512 Keccak: their objects in build
# directory DIR, compiled with CC and FLAGS (mk/reliability.mk makes them
# for the instrumented builds too).
#   $(call pow_variants,DIR,CC,FLAGS)
define pow_variants
$(1)/hashes/pow-sha256-shani.o $(1)/hashes/pow-sha256-shani-sse.o: \
    $(1)/hashes/pow-sha256-%.o: hashes/pow-sha256-shani.c $(1)/CONFIG
	@mkdir -p $$(@D)
	$(2) $(3) $$(POW_FLAGS_$$*) -c $$< -o $$@
$(1)/hashes/pow-sha256-avx512.o $(1)/hashes/pow-sha256-avx2.o \
    $(1)/hashes/pow-sha256-sse2.o $(1)/hashes/pow-sha256-avx512emu.o: \
    $(1)/hashes/pow-sha256-%.o: hashes/pow-sha256-simd.c $(1)/CONFIG
	@mkdir -p $$(@D)
	$(2) $(3) $$(POW_FLAGS_$$*) -c $$< -o $$@
$(1)/hashes/pow-keccak-avx512emu.o: hashes/pow-keccak-avx512.c $(1)/CONFIG
	@mkdir -p $$(@D)
	$(2) $(3) -DPOW_KECCAK_EMU8 -Og -c $$< -o $$@
$(1)/test/tests-hashes: $(POW_EMU_OBJS:%=$(1)/%)
endef
$(eval $(call pow_variants,$(B),$$(CC),$$(ALL_CFLAGS)))

$(B)/test/tests-hashes: $(B)/test/tests-hashes.o $(B)/tools/util.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(LDLIBS)

check-hashes: $(B)/test/tests-hashes
	@$< test/vectors > $(B)/test/TESTS-HASHES-OUT; rc=$$?; \
	grep -v '^ok ' $(B)/test/TESTS-HASHES-OUT; \
	POW_HASH_IMPL=sha256=portable,keccak=portable $< --expect-impl \
		sha256=portable,keccak=portable > $(B)/test/TESTS-HASHES-OUT \
		|| { cat $(B)/test/TESTS-HASHES-OUT; rc=1; }; \
	exit $$rc

COMMA := ,
check-hashes-qemu: $(B)/test/tests-hashes
	@if ! command -v qemu-x86_64 > /dev/null; then \
		echo "hashes-qemu: 0 passed, 0 failed, 1 skipped (no" \
		    "qemu-x86_64: apt-get install qemu-user)"; exit 0; fi; \
	qemu-x86_64 -cpu qemu64 $< --quick test/vectors \
		> $(B)/test/TESTS-HASHES-OUT; rc=$$?; \
	grep -v '^ok \|^skipped: ' $(B)/test/TESTS-HASHES-OUT; \
	grep -q 'skipped (.*sha256=avx2' $(B)/test/TESTS-HASHES-OUT || \
		{ echo "qemu64: AVX2 not refused"; rc=1; }; \
	$(if $(filter avx2,$(POW_KERNELS)),qemu-x86_64 -cpu Haswell $< \
		--expect-impl sha256=avx2$(COMMA)keccak=avx2 \
		> $(B)/test/TESTS-HASHES-OUT 2>&1 || rc=1; \
	grep -v '^ok \|warning: TCG' $(B)/test/TESTS-HASHES-OUT;) \
	exit $$rc

.PHONY: check-hashes check-hashes-qemu
