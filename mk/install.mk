# mk/install.mk: make install and uninstall (with a generated
# yespower.pc); the checks of the `yespower` tool (build/yespower), of the
# installed copy and of the Python module (python/).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   headers, libraries, the
#                       tool and yespower.pc (BINDIR, LIBDIR, INCLUDEDIR
#                       and PKGCONFIGDIR may be set one by one)
#   make uninstall      removes exactly those files
#   make check-cli      the tool against test/vectors/chains.txt and TESTS-OK
#   make check-install  install into a temporary prefix; a program built
#                       with pkg-config runs; only yespower.h's functions
#                       are exported
#   make check-python   the Python module, from the tree
#   make check-python-pip   python3 -m pip install ./python into a fresh
#                       venv, then the same tests against the installed copy
#                       (needs python3-venv; run by .ci/run)
#   make check-python-full  the Python RandomX tests with the full mode
#                       (a 2080 MiB dataset; minutes)
#   make bench-python   shares/s from Python and from C on the same work
#                       (BENCH_PYTHON_ARGS="--full" adds the full mode)

#h Python (mk/install.mk; check-python is in make check):
#h   check-python-pip     pip install ./python into a fresh venv, offline
#h   check-python-full    the Python RandomX tests in full mode (minutes)
#h   bench-python         Python against C, shares/s (not a test)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install
PYTHON ?= python3

install: $(LIBS) $(B)/yespower yespower.pc.in
	$(INSTALL) -d "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(LIBDIR)" \
		"$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(PKGCONFIGDIR)"
	$(INSTALL) -m 644 yespower.h "$(DESTDIR)$(INCLUDEDIR)/yespower.h"
	$(INSTALL) -m 644 hashes/pow-hash.h "$(DESTDIR)$(INCLUDEDIR)/pow-hash.h"
	$(INSTALL) -m 644 libyespower.a "$(DESTDIR)$(LIBDIR)/libyespower.a"
	$(INSTALL) -m 755 $(SONAME) "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(LIBDIR)/libyespower.so"
	$(INSTALL) -m 755 $(B)/yespower "$(DESTDIR)$(BINDIR)/yespower"
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
		-e 's|@VERSION@|$(LIBYESPOWER_VERSION)|g' yespower.pc.in \
		> "$(DESTDIR)$(PKGCONFIGDIR)/yespower.pc"
	chmod 644 "$(DESTDIR)$(PKGCONFIGDIR)/yespower.pc"

# Then the directories left empty, each and its parents, up to PREFIX
# (with DESTDIR, up to DESTDIR): what install made for these files.
uninstall:
	rm -f "$(DESTDIR)$(INCLUDEDIR)/yespower.h" \
		"$(DESTDIR)$(INCLUDEDIR)/pow-hash.h" \
		"$(DESTDIR)$(LIBDIR)/libyespower.a" \
		"$(DESTDIR)$(LIBDIR)/$(SONAME)" \
		"$(DESTDIR)$(LIBDIR)/libyespower.so" \
		"$(DESTDIR)$(BINDIR)/yespower" \
		"$(DESTDIR)$(PKGCONFIGDIR)/yespower.pc"
	@for d in "$(PKGCONFIGDIR)" "$(INCLUDEDIR)" "$(BINDIR)" "$(LIBDIR)"; do \
		while [ "$$d" != / ] && [ "$$d" != . ] && \
		    rmdir "$(DESTDIR)$$d" 2>/dev/null; do \
			[ -n "$(DESTDIR)" ] || [ "$$d" != "$(PREFIX)" ] || \
				break; \
			d=$$(dirname "$$d"); \
		done; \
	done

check-cli: $(B)/yespower
	@sh test/tests-cli.sh cli

check-install: $(LIBS) $(B)/yespower
	@MAKE="$(MAKE)" CC="$(CC)" sh test/tests-cli.sh install

check-python: $(SONAME) $(B)/randomx/librandomx.so.1
	@PYTHON="$(PYTHON)" RX_SO="$(B)/randomx/librandomx.so.1" \
		sh test/tests-cli.sh python

check-python-pip: $(SONAME)
	@PYTHON="$(PYTHON)" sh test/tests-cli.sh python-pip

check-python-full: $(SONAME) $(B)/randomx/librandomx.so.1
	@PYTHON="$(PYTHON)" RX_SO="$(B)/randomx/librandomx.so.1" \
		sh test/tests-cli.sh python-full

# Shares verified per second from Python against C on the same work (not
# a test: see python/bench/bench_shares.py --help).
bench-python: $(SONAME) $(B)/randomx/librandomx.so.1
	$(PYTHON) python/bench/bench_shares.py --yespower-lib ./$(SONAME) \
		--randomx-lib $(B)/randomx/librandomx.so.1 $(BENCH_PYTHON_ARGS)

clean: clean-python
clean-python:
	rm -rf python/__pycache__ python/*/__pycache__ python/*/*/__pycache__

.PHONY: install uninstall clean-python check-python-pip check-python-full \
	bench-python
