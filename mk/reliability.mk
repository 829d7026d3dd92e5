# mk/reliability.mk: sanitizers, valgrind, fuzzing, thread stress, memory
# exhaustion and API misuse.
#
#   make check-sanitize   every test built with AddressSanitizer and
#                         UndefinedBehaviorSanitizer (SAN_CC, default $(CC);
#                         in build/san/), through every mixing core this
#                         CPU runs and through the reference; any report
#                         fails
#   make check-valgrind   a reduced set under valgrind memcheck; an error, or
#                         a leak "definitely" or "indirectly lost", fails
#   make fuzz-smoke       the fuzz targets under libFuzzer (FUZZ_CC, default
#                         clang; in build/fuzz/) for FUZZ_SECONDS seconds
#                         each (default 60): fuzz-yespower, and on x86
#                         fuzz-rx-jit (the RandomX JIT)
#   make fuzz-replay      the corpora (test/fuzz/corpus and corpus-rx-jit,
#                         and build/fuzz/'s if there are) through the plain
#                         drivers
#   make reliability-build  all the instrumented programs (use -j)
#
# `make check` runs check-misuse, check-exhaust, check-stress and
# check-fuzz-replay, on the ordinary build.

#h Reliability (mk/reliability.mk; .ci/run runs them):
#h   check-sanitize       every test under ASan+UBSan, every core, the reference
#h   check-valgrind       misuse, fuzz corpus and thread exits under memcheck
#h   fuzz-smoke           FUZZ_SECONDS of libFuzzer (clang) per target
#h   check-fork-huge      a child of fork() with the huge page pool taken
#h   check-tsan           huge page regions from threads under ThreadSanitizer

# ---- settings ----

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
SAN_CC ?= $(CC)
SAN_DIFF_CASES ?= 30

SAN = $(B)/san
FUZZ = $(B)/fuzz
CORPUS = test/fuzz/corpus

# The instrumented builds take the Makefile's flags at -O1 and with line
# tables only: full debug information triples the time the mixing cores
# take to compile.
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
# RandomX's light path (api-compat: caches, VMs, hashes, released) must
# give valgrind no error and no leak; its hashes are not checked there,
# since valgrind computes SSE arithmetic in round-to-nearest whatever the
# rounding mode (a RandomX program's FP instructions then differ), so its
# own exit status is ignored and valgrind's errors exit with 99.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect
VALGRIND_RX = $(subst --error-exitcode=1,--error-exitcode=99,$(VALGRIND))

# ---- the suites of `make check` ----

# Their lines that are not a check that passed, or the implementation.
check-misuse check-exhaust check-overflow check-fork check-atexit: \
    check-%: $(B)/test/tests-%
	@$< > $(B)/test/TESTS-$*-OUT; rc=$$?; \
	grep -v ': ok$$\|: implementation ' $(B)/test/TESTS-$*-OUT; exit $$rc

check-stress: $(B)/test/tests-stress
	@$(B)/test/tests-stress > $(B)/test/TESTS-STRESS-OUT; rc=$$?; \
	if [ $$rc != 0 ]; then cat $(B)/test/TESTS-STRESS-OUT; \
	else tail -n 1 $(B)/test/TESTS-STRESS-OUT; fi; exit $$rc

check-fuzz-replay: fuzz-replay

# The RandomX JIT's fuzz target runs where there is a JIT: x86-64 (not x32).
RX_HAS_JIT = $(filter x86_64-% amd64-%,$(filter-out %x32,$(MACHINE)))

# tests-fork and tests-rx-fork with the huge page pool exhausted, and
# tests-huge-threads: need huge pages reserved (as root: sysctl
# vm.nr_hugepages=160, for RandomX's 256 MiB cache), which .ci/run does
# around it.  RX_FORK_ARGS=--dataset adds the dataset's stages (a dataset
# being built: 1180 pages), --full a fully built one too (minutes).
RX_FORK_ARGS ?=
check-fork-huge: $(B)/test/tests-fork $(RX_BUILD)/tests-rx-fork \
    $(B)/test/tests-huge-threads
	@$(B)/test/tests-fork --need-huge && \
		$(B)/test/tests-huge-threads --need-huge && \
		$(RX_BUILD)/tests-rx-fork --need-huge $(RX_FORK_ARGS) > \
		$(RX_BUILD)/tests-rx-fork-huge.out; rc=$$?; \
	grep -v ': ok$$' $(RX_BUILD)/tests-rx-fork-huge.out; exit $$rc

# Explicit huge page regions allocated and freed by several threads at
# once (the list yespower-platform.c keeps for its fork handler).
$(B)/test/tests-huge-threads: $(B)/test/tests-huge-threads.o $(UTIL_OBJ) \
    libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same under ThreadSanitizer (TSAN_CC, default clang; in build/tsan/):
# any report fails.  It needs huge pages reserved to exercise the list
# (else it says it skipped); TSAN_ARGS=--need-huge makes that a failure.
TSAN_CC ?= clang
TSAN_ARGS ?=
$(B)/tsan/tests-huge-threads: test/tests-huge-threads.c yespower-platform.c \
    yespower-impl.h $(B)/CONFIG
	@mkdir -p $(@D)
	$(TSAN_CC) $(REL_CFLAGS) -fsanitize=thread -o $@ \
		test/tests-huge-threads.c yespower-platform.c -lpthread

check-tsan:
	@command -v $(TSAN_CC) > /dev/null || { echo "check-tsan: FAILED:" \
		"no $(TSAN_CC) (apt-get install clang)"; exit 1; }
	@$(MAKE) -s $(B)/tsan/tests-huge-threads
	@TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
		$(B)/tsan/tests-huge-threads $(TSAN_ARGS)

# ---- the instrumented builds ----

# An instrumented build in DIR: its own CONFIG, rewritten (so that
# everything rebuilds) when its compiler or flags change, and its objects,
# each as the Makefile builds it: a mixing core per CORES entry with
# CORE_FLAGS_<core>, per-file flags from FLAGS_<name>, the reference
# renamed (REF_RENAME), the fuzz sources.  Only when a goal needs them, so
# that other makes leave build/san and build/fuzz alone.
#   $(call instrumented,DIR,CC,FLAGS,CORE-FLAGS)
REL_GOALS = check-sanitize fuzz-smoke reliability-build $(SAN)/% $(FUZZ)/%
define instrumented
ifneq ($$(filter $(REL_GOALS),$$(MAKECMDGOALS)),)
ifneq ($$(file <$(1)/CONFIG),$$(strip $(2) $(3) / $(4)))
$$(shell mkdir -p $(1))
$$(file >$(1)/CONFIG,$$(strip $(2) $(3) / $(4)))
endif
endif
$(1)/yespower-opt-%.o: yespower-opt.c $(1)/CONFIG
	$(2) $(4) $$(CORE_FLAGS_$$*) -DYESPOWER_CORE=$$* -c $$< -o $$@
$(1)/yespower-opt-%-plain.o: yespower-opt.c $(1)/CONFIG
	$(2) $(4) $$(CORE_FLAGS_$$*) -DYESPOWER_CORE=$$* -DYESPOWER_PLAIN \
		-c $$< -o $$@
$(1)/yespower-ref-renamed.o: yespower-ref.c $(1)/CONFIG
	$(2) $(3) $(REF_RENAME) -c $$< -o $$@
$(1)/fuzz/%.o: test/fuzz/%.c $(1)/CONFIG
	@mkdir -p $$(@D)
	$(2) $(3) -c $$< -o $$@
$(1)/%.o: %.c $(1)/CONFIG
	@mkdir -p $$(@D)
	$(2) $(3) $$(FLAGS_$$(*F)) -c $$< -o $$@
$(call pow_variants,$(1),$(2),$(3))
-include $(wildcard $(1)/*.d $(1)/*/*.d)
$(1)/%.d: ;
endef

$(eval $(call instrumented,$(SAN),$(SAN_CC),$(SAN_CFLAGS),$(SAN_CFLAGS)))
$(eval $(call instrumented,$(FUZZ),$(FUZZ_CC),$(FUZZ_CFLAGS),$(FUZZ_CORE_CFLAGS)))

# The plain driver's objects: the ordinary compiler and flags.
$(B)/fuzz/plain/%.o: test/fuzz/%.c $(B)/CONFIG
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# ---- the fuzz target ----

$(FUZZ)/fuzz-yespower: $(FUZZ)/fuzz/fuzz-yespower.o \
    $(FUZZ)/yespower-ref-renamed.o $(LIB_OBJS:$(B)/%=$(FUZZ)/%)
	$(FUZZ_CC) $(SAN_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(B)/fuzz/replay: $(B)/fuzz/plain/replay.o $(B)/fuzz/plain/fuzz-yespower.o \
    $(B)/yespower-ref-renamed.o libyespower.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-replay: $(B)/fuzz/replay $(if $(RX_HAS_JIT),$(RX_BUILD)/replay-rx-jit)
	@$(B)/fuzz/replay $(CORPUS) $(wildcard $(FUZZ)/corpus)
ifneq ($(RX_HAS_JIT),)
	@$(RX_BUILD)/replay-rx-jit $(RX_CORPUS) $(wildcard $(FUZZ)/corpus-rx-jit)
endif

# ---- the RandomX JIT's fuzz target ----

# test/fuzz/fuzz-rx-jit.c: the JIT against the interpreter on programs
# from fuzz data (x86 builds; elsewhere there is no JIT).  Under libFuzzer
# RandomX's sources are compiled instrumented in build/fuzz/rx/, each with
# its own flags; the plain replay links build/randomx/librandomx.a.
RX_CORPUS = test/fuzz/corpus-rx-jit
FUZZ_RX_OBJS = $(patsubst %.c,$(FUZZ)/rx/%.o,$(RX_LIB_SRCS) \
	test/fuzz/fuzz-rx-jit.c test/randomx/rx-jit-diff.c)

$(FUZZ)/rx/%.o: %.c $(FUZZ)/CONFIG
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(RX_DEFS) $(RX_CFLAGS_$(*F)) -c $< -o $@

$(FUZZ)/fuzz-rx-jit: $(FUZZ_RX_OBJS)
	$(FUZZ_CC) $(SAN_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(RX_LDLIBS)

$(RX_BUILD)/fuzz-rx-jit.o: test/fuzz/fuzz-rx-jit.c $(B)/CONFIG
	@mkdir -p $(@D)
	$(CC) $(RX_ALL_CFLAGS) -c $< -o $@

$(RX_BUILD)/replay-rx-jit: $(B)/fuzz/plain/replay.o \
    $(RX_BUILD)/fuzz-rx-jit.o $(RX_BUILD)/rx-jit-diff.o \
    $(RX_BUILD)/librandomx.a
	$(CC) $(LDFLAGS) -o $@ $^ $(RX_LDLIBS)

# libFuzzer adds what it finds to build/fuzz/corpus (build/fuzz/corpus-rx-jit
# for the JIT's target; the seeds in test/fuzz/ stay as they are) and
# writes a failing input to build/fuzz/crash-* (rx-jit-crash-*); the logs
# are build/fuzz/fuzz-smoke.log and fuzz-smoke-rx-jit.log.  Each target
# runs FUZZ_SECONDS.
#   $(call fuzz_run,TARGET,CORPUS-DIR,SEEDS,LOG,ARTIFACT-PREFIX,MAX-LEN)
define fuzz_run
	@mkdir -p $(FUZZ)/$(2)
	@echo "fuzz-smoke: $(FUZZ_SECONDS) s of libFuzzer ($(FUZZ_CC)) on $(1)"
	@$(FUZZ)/$(1) -max_total_time=$(FUZZ_SECONDS) \
		-max_len=$(6) -timeout=60 -rss_limit_mb=4096 \
		-print_final_stats=1 -artifact_prefix=$(FUZZ)/$(5) \
		$(FUZZ)/$(2) $(3) > $(FUZZ)/$(4) 2>&1; \
	rc=$$?; \
	if [ $$rc != 0 ]; then tail -n 60 $(FUZZ)/$(4); \
		echo "fuzz-smoke: 0 passed, 1 failed ($(1); log:" \
		    "$(FUZZ)/$(4))"; exit $$rc; fi; \
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^Done' \
		$(FUZZ)/$(4); \
	echo "fuzz-smoke: 1 passed, 0 failed ($(1): $$(ls $(FUZZ)/$(2) | wc -l)" \
		"inputs in $(FUZZ)/$(2); no difference)"
endef

fuzz-smoke: $(FUZZ)/fuzz-yespower $(if $(RX_HAS_JIT),$(FUZZ)/fuzz-rx-jit)
	$(call fuzz_run,fuzz-yespower,corpus,$(CORPUS),fuzz-smoke.log,,512)
ifneq ($(RX_HAS_JIT),)
	$(call fuzz_run,fuzz-rx-jit,corpus-rx-jit,$(RX_CORPUS),fuzz-smoke-rx-jit.log,rx-jit-,4096)
endif

# ---- sanitizers ----

SAN_LIB = $(LIB_OBJS:$(B)/%=$(SAN)/%)
SAN_REF = $(REF_OBJS:$(B)/%=$(SAN)/%)
SAN_UTIL = $(UTIL_OBJ:$(B)/%=$(SAN)/%)
SAN_OPT_PROGS = tests-stress tests-misuse tests-exhaust tests-chains \
	tests-hashes
SAN_REF_PROGS = tests-misuse tests-exhaust
SAN_PROGS = $(SAN)/tests $(SAN)/tests-ref \
	$(SAN_OPT_PROGS:%=$(SAN)/test/%) $(SAN_REF_PROGS:%=$(SAN)/test/%-ref) \
	$(SAN)/test/tests-diff $(SAN)/replay

$(SAN)/tests: $(SAN)/tests.o $(SAN_UTIL) $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN)/tests-ref: $(SAN)/tests.o $(SAN_UTIL) $(SAN_REF)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN_OPT_PROGS:%=$(SAN)/test/%): $(SAN)/test/%: $(SAN)/test/%.o \
    $(SAN_UTIL) $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN_REF_PROGS:%=$(SAN)/test/%-ref): $(SAN)/test/%-ref: $(SAN)/test/%.o \
    $(SAN_UTIL) $(SAN_REF)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN)/test/tests-diff: $(SAN)/test/tests-diff.o \
    $(SAN)/yespower-ref-renamed.o $(SAN_UTIL) $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)
$(SAN)/replay: $(SAN)/fuzz/replay.o $(SAN)/fuzz/fuzz-yespower.o \
    $(SAN)/yespower-ref-renamed.o $(SAN_LIB)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

# Every instrumented program, for one parallel make before the checks.
reliability-build: $(SAN_PROGS) $(FUZZ)/fuzz-yespower $(B)/fuzz/replay \
    $(if $(RX_HAS_JIT),$(FUZZ)/fuzz-rx-jit)

# rel_run LOG CMD...: run CMD with its output in LOG, shown if it fails;
# counts into passed and failed.
REL_RUN = rel_run() { log=$$1; shift; \
	if "$$@" > $$log 2>&1; then passed=$$((passed + 1)); return 0; fi; \
	echo "  FAILED: $$*"; tail -n 40 $$log; failed=$$((failed + 1)); \
	return 1; }

# Per core (fixed by YESPOWER_IMPL): the known answers (against TESTS-OK;
# the -plain twins too, whose one-hash path is their own), the fuzz corpus (optimized against reference), misuse, exhaustion and a
# short stress.  For the reference: its known answers, misuse and
# exhaustion.  Then, with the automatic choice, SAN_DIFF_CASES random cases
# against the reference (tests-diff, whose batch part runs every core
# itself), the real headers and the corpus.
check-sanitize: $(SAN_PROGS)
	@echo "sanitizers: address, undefined ($(SAN_CC)); logs in $(SAN)/"
	@$(REL_RUN); passed=0 failed=0 d=$(SAN); \
	KAT_RUN="env $(SAN_ENV)" $(RUN_KAT) kat $$d/tests $$d/TESTS-OUT- \
		core= $(CORES) $(PLAIN_CORES:%=%-plain) > $$d/kat.log; rc=$$?; \
	grep -v 'known answers ok' $$d/kat.log; \
	if [ $$rc = 0 ]; then passed=$$((passed + 1)); \
	else failed=$$((failed + 1)); fi; \
	KAT_RUN="env $(SAN_ENV)" $(RUN_KAT) kat-ref $$d/tests-ref \
		$$d/TESTS-OUT-REF- core= reference > $$d/kat-ref.log; \
	if [ $$? = 0 ]; then passed=$$((passed + 1)); \
	else cat $$d/kat-ref.log; failed=$$((failed + 1)); fi; \
	rel_run $$d/tests-misuse-ref.log env $(SAN_ENV) $$d/test/tests-misuse-ref; \
	rel_run $$d/tests-exhaust-ref.log env $(SAN_ENV_EXHAUST) \
		$$d/test/tests-exhaust-ref; \
	for impl in $(CORES); do \
		$$d/test/tests-misuse --impl $$impl > /dev/null 2>&1; \
		[ $$? = 77 ] && continue; \
		for t in "replay $(CORPUS)" test/tests-misuse \
		    "test/tests-stress 2 4"; do \
			rel_run $$d/$$(basename $${t%% *})-$$impl.log env \
			    YESPOWER_IMPL=$$impl $(SAN_ENV) $$d/$$t; \
		done; \
		rel_run $$d/tests-exhaust-$$impl.log env \
		    YESPOWER_IMPL=$$impl $(SAN_ENV_EXHAUST) \
		    $$d/test/tests-exhaust; \
	done; \
	rel_run $$d/tests-diff.log env $(SAN_ENV) \
		$$d/test/tests-diff $(SAN_DIFF_CASES); \
	rel_run $$d/tests-chains.log env $(SAN_ENV) $$d/test/tests-chains; \
	rel_run $$d/tests-hashes.log env $(SAN_ENV) $$d/test/tests-hashes \
		test/vectors; \
	rel_run $$d/replay.log env $(SAN_ENV) $$d/replay $(CORPUS); \
	echo "sanitize: $$passed passed, $$failed failed"; [ $$failed = 0 ]

# ---- valgrind ----

# Per core this CPU runs under valgrind: the misuse test and the fuzz
# corpus (optimized against reference).  Then threads that start and
# exit, whose per-thread memory must be freed, while the core switches;
# then RandomX's light path.
# tests-diff is left out (its batch part alone takes minutes here), and so
# is tests-exhaust: valgrind keeps its own address-space accounting.
# Logs in build/fuzz/valgrind-*.log.
check-valgrind: $(B)/test/tests-misuse $(B)/test/tests-stress $(B)/fuzz/replay \
    $(RX_BUILD)/api-compat
	@echo "valgrind memcheck: $$(valgrind --version)"
	@$(REL_RUN); passed=0 failed=0 skipped=0 cannot=; \
	for impl in $(CORES); do \
		log=$(B)/fuzz/valgrind-misuse-$$impl.log; \
		$(VALGRIND) $(B)/test/tests-misuse --impl $$impl > $$log 2>&1; \
		rc=$$?; \
		if [ $$rc = 77 ]; then skipped=$$((skipped + 1)); \
			cannot="$$cannot $$impl"; continue; fi; \
		if [ $$rc = 0 ]; then passed=$$((passed + 1)); \
		else echo "  FAILED: tests-misuse --impl $$impl under" \
			"valgrind"; tail -n 40 $$log; \
			failed=$$((failed + 1)); fi; \
		rel_run $(B)/fuzz/valgrind-replay-$$impl.log env \
			YESPOWER_IMPL=$$impl $(VALGRIND) \
			$(B)/fuzz/replay $(CORPUS); \
	done; \
	rel_run $(B)/fuzz/valgrind-stress.log $(VALGRIND) \
		$(B)/test/tests-stress 2 3; \
	log=$(B)/fuzz/valgrind-randomx.log; \
	$(VALGRIND_RX) $(RX_BUILD)/api-compat > $$log 2>&1; \
	if [ $$? != 99 ]; then passed=$$((passed + 1)); \
	else echo "  FAILED: RandomX's light path under valgrind"; \
		grep '^==' $$log | head -n 40; failed=$$((failed + 1)); fi; \
	summary="valgrind: $$passed passed, $$failed failed"; \
	why="valgrind cannot run$$cannot"; \
	[ $$skipped = 0 ] || summary="$$summary, $$skipped skipped ($$why)"; \
	echo "$$summary"; [ $$failed = 0 ]

.PHONY: check-sanitize check-valgrind fuzz-smoke fuzz-replay \
	reliability-build check-fork-huge check-tsan
