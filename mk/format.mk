# mk/format.mk: the source layout, as .clang-format writes it down.
#
#   make check-format   clang-format finds no drift in FORMAT_FILES, the
#                       files that already conform to .clang-format; the
#                       others keep their hand layout until someone
#                       reformats them (a file joins the list when
#                       clang-format leaves it unchanged).  Needs
#                       clang-format (apt-get install clang-format; the
#                       list was made with version 14); without it the
#                       target says so and is skipped.  Not in make check.
#   make format-report  how far each C file of the library, its tests and
#                       tools is from .clang-format (lines of diff)

#h Layout (mk/format.mk):
#h   check-format         no drift from .clang-format in the files that conform
#h   format-report        each file's distance from .clang-format

CLANG_FORMAT ?= clang-format
FORMAT_FILES = hashes/pow-keccak-round.h insecure_memzero.c \
	insecure_memzero.h test/tests-atexit.c test/tests-util.h tools/util.h \
	yespower-hashes.h
# The files of other owners' modules (randomx/, bench/, python/, node/,
# test/randomx/, tools/rx-abcompare.c) are left out of the report.
FORMAT_ALL = $(filter-out tools/rx-abcompare.c,$(wildcard *.c *.h \
	hashes/*.c hashes/*.h tools/*.c tools/*.h test/*.c test/*.h \
	test/fuzz/*.c))

check-format:
	@if ! command -v $(CLANG_FORMAT) > /dev/null; then \
		echo "format: 0 passed, 0 failed, 1 skipped (no $(CLANG_FORMAT):" \
		    "apt-get install clang-format)"; exit 0; fi; \
	passed=0 failed=0; \
	for f in $(FORMAT_FILES); do \
		if $(CLANG_FORMAT) --style=file $$f | cmp -s $$f -; then \
			passed=$$((passed + 1)); \
		else \
			echo "FAILED: $$f drifts from .clang-format:"; \
			$(CLANG_FORMAT) --style=file $$f | diff -u $$f - | \
			    head -n 20; \
			failed=$$((failed + 1)); \
		fi; \
	done; \
	echo "format: $$passed passed, $$failed failed"; [ $$failed = 0 ]

format-report:
	@for f in $(FORMAT_ALL); do \
		echo "$$($(CLANG_FORMAT) --style=file $$f | diff $$f - | \
		    grep -c '^[<>]') $$f"; \
	done | sort -n

.PHONY: check-format format-report
