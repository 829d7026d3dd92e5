# mk/sanitize-hashes.mk: the hashing API's kernel objects in the
# instrumented builds of mk/reliability.mk (this file sorts after it, so
# SAN_DIR and FUZZ_LIB are set): the same flags as in mk/hashes.mk, where
# one source gives two objects.

$(SAN_DIR)/pow-sha256-shani.o $(SAN_DIR)/pow-sha256-shani-sse.o: \
    $(SAN_DIR)/pow-sha256-%.o: pow-sha256-shani.c pow-sha256-shani-streams.h \
    $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@
$(SAN_DIR)/pow-sha256-avx2.o $(SAN_DIR)/pow-sha256-sse2.o: \
    $(SAN_DIR)/pow-sha256-%.o: pow-sha256-simd.c $(REL_HEADERS) \
    $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@
$(SAN_DIR)/pow-keccak-avx2.o: pow-keccak-avx2.c $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) -mavx2 -c $< -o $@

$(FUZZ_LIB)/pow-sha256-shani.o $(FUZZ_LIB)/pow-sha256-shani-sse.o: \
    $(FUZZ_LIB)/pow-sha256-%.o: pow-sha256-shani.c pow-sha256-shani-streams.h \
    $(REL_HEADERS) $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@
$(FUZZ_LIB)/pow-sha256-avx2.o $(FUZZ_LIB)/pow-sha256-sse2.o: \
    $(FUZZ_LIB)/pow-sha256-%.o: pow-sha256-simd.c $(REL_HEADERS) \
    $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(POW_FLAGS_$*) -c $< -o $@
$(FUZZ_LIB)/pow-keccak-avx2.o: pow-keccak-avx2.c $(REL_HEADERS) \
    $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) -mavx2 -c $< -o $@

# tests-hashes under AddressSanitizer and UndefinedBehaviorSanitizer, once
# with the automatic choice (every kernel set is forced in turn inside).
$(SAN_DIR)/test/tests-hashes.o: test/tests-hashes.c $(REL_HEADERS) \
    $(SAN_DIR)/FLAGS
	@mkdir -p $(@D)
	$(SAN_CC) $(SAN_CFLAGS) -I. -c $< -o $@
$(SAN_DIR)/tests-hashes: $(SAN_DIR)/test/tests-hashes.o $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

check-sanitize-hashes: $(SAN_DIR)/tests-hashes
	@env $(SAN_ENV) $(SAN_DIR)/tests-hashes test/vectors \
		> $(SAN_DIR)/TESTS-HASHES-OUT 2> $(SAN_DIR)/tests-hashes.log; \
	rc=$$?; tail -1 $(SAN_DIR)/TESTS-HASHES-OUT; \
	if [ $$rc != 0 ] || [ -s $(SAN_DIR)/tests-hashes.log ]; then \
		grep -v '^ok ' $(SAN_DIR)/TESTS-HASHES-OUT; \
		tail -n 40 $(SAN_DIR)/tests-hashes.log; \
		echo "check-sanitize-hashes: FAILED"; exit 1; fi

.PHONY: check-sanitize-hashes
