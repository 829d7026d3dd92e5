# mk/reliability.mk: sanitizers, valgrind, fuzzing, thread stress, memory
# exhaustion and API misuse (issue 7).
#
#   make check-sanitize   every test built with AddressSanitizer and
#                         UndefinedBehaviorSanitizer (SAN_CC, default $(CC);
#                         objects in build-san/), through every mixing core
#                         this CPU runs and through the reference; any
#                         report fails
#   make check-valgrind   a reduced set under valgrind memcheck; an error, or
#                         a leak "definitely" or "indirectly lost", fails
#   make fuzz-smoke       the fuzz target under libFuzzer (FUZZ_CC, default
#                         clang) for FUZZ_SECONDS seconds (default 60)
#   make fuzz-replay      the corpus (fuzz/corpus, and fuzz/out/corpus if
#                         there is one) through the plain driver
#   make reliability-build  all the instrumented programs (use -j)
#
# `make check` runs check-misuse, check-exhaust, check-stress and
# check-fuzz-replay, on the ordinary build.

# ---- settings ----

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
SAN_CC ?= $(CC)
SAN_DIFF_CASES ?= 30

SAN_DIR = build-san
FUZZ_LIB = fuzz/out/libfuzzer
FUZZ_PLAIN = fuzz/out/plain
REL_HEADERS = $(wildcard *.h)

# The instrumented builds take the Makefile's flags (with the defines the
# fragments add to them) at -O1 and with line tables only: full debug
# information triples the time the mixing cores take to compile.
REL_CFLAGS = $(filter-out -O% -g%,$(ALL_CFLAGS)) -O1 -g1 \
	-fno-omit-frame-pointer
SAN_CFLAGS = $(REL_CFLAGS) -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZ_CFLAGS = $(SAN_CFLAGS) -fsanitize=fuzzer-no-link
# clang's UBSan makes each mixing core take minutes to compile (gcc's,
# about as long as the ordinary build): in the fuzz build the cores get
# AddressSanitizer only, and check-sanitize runs them under gcc's UBSan.
FUZZ_CORE_CFLAGS = $(REL_CFLAGS) -fsanitize=address -fsanitize=fuzzer-no-link

# allocator_may_return_null: the reference mallocs its memory, and the
# exhaustion tests want NULL (ENOMEM) from it, not a sanitizer report.
# For those tests, no quarantine either: freed blocks that stay mapped
# would use up a budget that the reference would otherwise fit in.
SAN_ASAN = detect_leaks=1:allocator_may_return_null=1
SAN_ENV = ASAN_OPTIONS=$(SAN_ASAN) UBSAN_OPTIONS=print_stacktrace=1
SAN_ENV_EXHAUST = ASAN_OPTIONS=$(SAN_ASAN):quarantine_size_mb=0 \
	UBSAN_OPTIONS=print_stacktrace=1

# valgrind 3.19 does not know AVX-512 and hides it from the CPU: the
# avx512vl core is skipped under it (tests-misuse --impl says so).
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect

# ---- the new tests, ordinary build ----

REL_PROGS = tests-stress tests-misuse tests-exhaust
PROGS += $(REL_PROGS)
all: $(REL_PROGS)

$(REL_PROGS): %: %.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ $< libyespower.a $(LDLIBS)

tests-stress.o tests-misuse.o tests-exhaust.o: yespower.h tests-util.h

CHECKS += check-misuse check-exhaust check-stress check-fuzz-replay

check-misuse: tests-misuse
	@./tests-misuse > TESTS-MISUSE-OUT; rc=$$?; \
	grep -v ': ok$$' TESTS-MISUSE-OUT | grep -v implementation; exit $$rc

check-exhaust: tests-exhaust
	@./tests-exhaust > TESTS-EXHAUST-OUT; rc=$$?; \
	grep -v ': ok$$' TESTS-EXHAUST-OUT | grep -v implementation; exit $$rc

check-stress: tests-stress
	@./tests-stress > TESTS-STRESS-OUT; rc=$$?; \
	if [ $$rc != 0 ]; then cat TESTS-STRESS-OUT; \
	else sed -n 2p TESTS-STRESS-OUT; fi; exit $$rc

check-fuzz-replay: fuzz-replay

# ---- the instrumented builds' objects ----

# DIR/FLAGS holds a build's compiler and flags and changes only when they
# do, so that changing them (SAN_CC=clang, CFLAGS=...) rebuilds that build.
rel_stamp = mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
rel-flags-force:
$(SAN_DIR)/FLAGS: rel-flags-force
	@$(call rel_stamp,$(SAN_CC) $(SAN_CFLAGS))
$(FUZZ_LIB)/FLAGS: rel-flags-force
	@$(call rel_stamp,$(FUZZ_CC) $(FUZZ_CFLAGS) / $(FUZZ_CORE_CFLAGS))

# Each object as the Makefile builds it: a mixing core per CORES entry with
# CORE_FLAGS_<core>, a SHA-256 compression function with SHA256_FLAGS_<impl>,
# the reference renamed as for tests-diff (REF_RENAME), the rest plain.
$(SAN_DIR)/yespower-opt-%.o: yespower-opt.c $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* \
		-c $< -o $@
$(SAN_DIR)/sha256-%.o: sha256-%.c $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) $(SHA256_FLAGS_$*) -c $< -o $@
$(SAN_DIR)/yespower-ref-renamed.o: yespower-ref.c $(REL_HEADERS) \
    $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) $(REF_RENAME) -c $< -o $@
$(SAN_DIR)/%.o: fuzz/%.c $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) -c $< -o $@
$(SAN_DIR)/%.o: %.c $(REL_HEADERS) $(SAN_DIR)/FLAGS
	$(SAN_CC) $(SAN_CFLAGS) -c $< -o $@

$(FUZZ_LIB)/yespower-opt-%.o: yespower-opt.c $(REL_HEADERS) $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CORE_CFLAGS) $(CORE_FLAGS_$*) -DYESPOWER_CORE=$* \
		-c $< -o $@
$(FUZZ_LIB)/sha256-%.o: sha256-%.c $(REL_HEADERS) $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(SHA256_FLAGS_$*) -c $< -o $@
$(FUZZ_LIB)/yespower-ref-renamed.o: yespower-ref.c $(REL_HEADERS) \
    $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(REF_RENAME) -c $< -o $@
$(FUZZ_LIB)/%.o: fuzz/%.c $(REL_HEADERS) $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_LIB)/%.o: %.c $(REL_HEADERS) $(FUZZ_LIB)/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# The plain driver's objects: the ordinary compiler and flags.
$(FUZZ_PLAIN)/%.o: fuzz/%.c yespower.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# ---- the fuzz target ----

fuzz/out/fuzz-yespower: $(FUZZ_LIB)/fuzz-yespower.o \
    $(FUZZ_LIB)/yespower-ref-renamed.o $(LIB_OBJS:%=$(FUZZ_LIB)/%)
	$(FUZZ_CC) $(SAN_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz/out/replay: $(FUZZ_PLAIN)/replay.o $(FUZZ_PLAIN)/fuzz-yespower.o \
    yespower-ref-renamed.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-replay: fuzz/out/replay
	@fuzz/out/replay fuzz/corpus $(wildcard fuzz/out/corpus)

# libFuzzer adds what it finds to fuzz/out/corpus (the seeds in fuzz/corpus
# stay as they are) and writes a failing input to fuzz/out/crash-*; its log
# is fuzz/out/fuzz-smoke.log.
fuzz-smoke: fuzz/out/fuzz-yespower
	@mkdir -p fuzz/out/corpus
	@echo "fuzz-smoke: $(FUZZ_SECONDS) s of libFuzzer ($(FUZZ_CC))"
	@fuzz/out/fuzz-yespower -max_total_time=$(FUZZ_SECONDS) \
		-max_len=512 -timeout=60 -rss_limit_mb=4096 \
		-print_final_stats=1 -artifact_prefix=fuzz/out/ \
		fuzz/out/corpus fuzz/corpus > fuzz/out/fuzz-smoke.log 2>&1; \
	rc=$$?; \
	if [ $$rc != 0 ]; then tail -n 60 fuzz/out/fuzz-smoke.log; \
		echo "fuzz-smoke: FAILED (log: fuzz/out/fuzz-smoke.log)"; \
		exit $$rc; fi; \
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^Done' \
		fuzz/out/fuzz-smoke.log; \
	echo "fuzz-smoke: $$(ls fuzz/out/corpus | wc -l) inputs in" \
		"fuzz/out/corpus; no difference"

# ---- sanitizers ----

SAN_LIB = $(LIB_OBJS:%=$(SAN_DIR)/%)
SAN_REF = $(REF_OBJS:%=$(SAN_DIR)/%)
SAN_OPT_PROGS = tests tests-stress tests-misuse tests-exhaust tests-chains
SAN_REF_PROGS = tests tests-misuse tests-exhaust
SAN_PROGS = $(SAN_OPT_PROGS:%=$(SAN_DIR)/%) \
	$(SAN_REF_PROGS:%=$(SAN_DIR)/%-ref) \
	$(SAN_DIR)/tests-diff $(SAN_DIR)/replay

$(SAN_OPT_PROGS:%=$(SAN_DIR)/%): $(SAN_DIR)/%: $(SAN_DIR)/%.o $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN_REF_PROGS:%=$(SAN_DIR)/%-ref): $(SAN_DIR)/%-ref: $(SAN_DIR)/%.o \
    $(SAN_REF)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN_DIR)/tests-diff: $(SAN_DIR)/tests-diff.o \
    $(SAN_DIR)/yespower-ref-renamed.o $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN_DIR)/replay: $(SAN_DIR)/replay.o $(SAN_DIR)/fuzz-yespower.o \
    $(SAN_DIR)/yespower-ref-renamed.o $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

# Every instrumented program, for one parallel make before the checks.
reliability-build: $(SAN_PROGS) fuzz/out/fuzz-yespower fuzz/out/replay

# rel_run LOG CMD...: run CMD with its output in LOG, shown if it fails.
REL_RUN = rel_run() { log=$$1; shift; \
	if "$$@" > $$log 2>&1; then return 0; fi; \
	echo "  FAILED: $$*"; tail -n 40 $$log; fail=1; return 1; }


# Per core (fixed by YESPOWER_IMPL): the known answers (against TESTS-OK),
# the fuzz corpus (optimized against reference), misuse, exhaustion and a
# short stress.  For the reference: its known answers, misuse and
# exhaustion.  Then, with the automatic choice, SAN_DIFF_CASES random cases
# against the reference (tests-diff, whose batch part runs every core
# itself), the real headers and the corpus.
check-sanitize: $(SAN_PROGS)
	@echo "sanitizers: address, undefined ($(SAN_CC)); logs in $(SAN_DIR)/"
	@$(REL_RUN); fail=0; d=$(SAN_DIR); \
	for impl in $(CORES) reference; do \
		t=tests; opt="--impl $$impl"; \
		[ $$impl = reference ] && { t=tests-ref; opt=; }; \
		env $(SAN_ENV) $$d/$$t $$opt vectors/primitives.txt \
			> $$d/TESTS-OUT-$$impl 2> $$d/tests-$$impl.log; \
		rc=$$?; \
		if [ $$rc = 77 ]; then \
			echo "core $$impl: skipped, this CPU cannot run it"; \
			continue; fi; \
		before=$$fail; \
		if [ $$rc != 0 ] || \
		    ! diff -U0 TESTS-OK $$d/TESTS-OUT-$$impl; then \
			echo "  FAILED: $$t $$opt"; \
			tail -n 40 $$d/tests-$$impl.log; fail=1; fi; \
		if [ $$impl = reference ]; then \
			rel_run $$d/tests-misuse-ref.log \
				env $(SAN_ENV) $$d/tests-misuse-ref; \
			rel_run $$d/tests-exhaust-ref.log \
				env $(SAN_ENV_EXHAUST) $$d/tests-exhaust-ref; \
		else \
			for t in "replay fuzz/corpus" tests-misuse \
			    "tests-stress 2 4"; do \
				rel_run $$d/$${t%% *}-$$impl.log env \
				    YESPOWER_IMPL=$$impl $(SAN_ENV) $$d/$$t; \
			done; \
			rel_run $$d/tests-exhaust-$$impl.log env \
			    YESPOWER_IMPL=$$impl $(SAN_ENV_EXHAUST) \
			    $$d/tests-exhaust; \
		fi; \
		[ $$fail = $$before ] && echo "core $$impl: ok"; \
	done; \
	before=$$fail; \
	rel_run $$d/tests-diff.log env $(SAN_ENV) \
		$$d/tests-diff $(SAN_DIFF_CASES); \
	rel_run $$d/tests-chains.log env $(SAN_ENV) $$d/tests-chains; \
	rel_run $$d/replay.log env $(SAN_ENV) $$d/replay fuzz/corpus; \
	[ $$fail = $$before ] && \
		echo "differential ($(SAN_DIFF_CASES) cases), real headers," \
		"fuzz corpus (core auto): ok"; \
	if [ $$fail = 0 ]; then echo "check-sanitize: PASSED"; \
	else echo "check-sanitize: FAILED"; exit 1; fi

# ---- valgrind ----

# Per core this CPU runs under valgrind: the misuse test and the fuzz
# corpus (optimized against reference).  Then threads that start and
# exit, whose per-thread memory must be freed, while the core switches.
# tests-diff is left out (its batch part alone takes minutes here), and so
# is tests-exhaust: valgrind keeps its own address-space accounting.
# Logs in fuzz/out/valgrind-*.log.
check-valgrind: tests-misuse tests-stress fuzz/out/replay
	@echo "valgrind memcheck: $$(valgrind --version)"
	@$(REL_RUN); fail=0; mkdir -p fuzz/out; \
	for impl in $(CORES); do \
		log=fuzz/out/valgrind-misuse-$$impl.log; \
		$(VALGRIND) ./tests-misuse --impl $$impl > $$log 2>&1; \
		rc=$$?; \
		if [ $$rc = 77 ]; then \
			echo "core $$impl: skipped, valgrind cannot run it"; \
			continue; fi; \
		before=$$fail; \
		if [ $$rc != 0 ]; then echo "  FAILED: tests-misuse --impl" \
			"$$impl under valgrind"; tail -n 40 $$log; fail=1; fi; \
		rel_run fuzz/out/valgrind-replay-$$impl.log env \
			YESPOWER_IMPL=$$impl $(VALGRIND) \
			fuzz/out/replay fuzz/corpus; \
		[ $$fail = $$before ] && \
			echo "core $$impl: misuse, fuzz corpus: ok"; \
	done; \
	before=$$fail; \
	rel_run fuzz/out/valgrind-stress.log $(VALGRIND) ./tests-stress 2 3; \
	[ $$fail = $$before ] && \
		echo "threads exiting, cores switching: ok"; \
	if [ $$fail = 0 ]; then echo "check-valgrind: PASSED"; \
	else echo "check-valgrind: FAILED"; exit 1; fi

clean: clean-reliability
clean-reliability:
	rm -rf $(SAN_DIR) fuzz/out TESTS-MISUSE-OUT TESTS-EXHAUST-OUT \
		TESTS-STRESS-OUT

.PHONY: check-sanitize check-valgrind fuzz-smoke fuzz-replay \
	reliability-build clean-reliability rel-flags-force
