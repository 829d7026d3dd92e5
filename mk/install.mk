# mk/install.mk: make install and uninstall (with a generated
# yespower.pc, and RandomX with randomx.pc and a CMake package); the checks of the `yespower` tool (build/yespower), of the
# installed copy and of the Python module (python/).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   headers, libraries, the
#                       tool and yespower.pc; randomx.h, librandomx.a,
#                       librandomx.so.0.0.0 with its links librandomx.so.0
#                       and librandomx.so (the names of Debian's
#                       librandomx0, so that it stands in for it),
#                       randomx.pc and LIBDIR/cmake/RandomX (BINDIR,
#                       LIBDIR, INCLUDEDIR, PKGCONFIGDIR and CMAKEDIR may be
#                       set one by one)
#   make uninstall      removes exactly those files
#   make check-cli      the tool against test/vectors/chains.txt and TESTS-OK
#   make check-install  install into a temporary prefix; programs built
#                       with pkg-config (yespower and RandomX), CMake's
#                       find_package(RandomX) and plain -lrandomx run;
#                       only the headers' functions are exported
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
CMAKEDIR ?= $(LIBDIR)/cmake/RandomX
INSTALL ?= install
PYTHON ?= python3

# The version randomx.pc and the CMake package give: the reference's
# release whose randomx.h this library's matches function for function.
RX_API_VERSION = 2.0.0
RX_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@CMAKEDIR@|$(CMAKEDIR)|g' \
	-e 's|@VERSION@|$(RX_API_VERSION)|g' -e 's|@SONAME@|$(RX_SONAME)|g' \
	-e 's|@SOFILE@|$(RX_SOFILE)|g' \
	-e "s|@SIZEOF_VOID_P@|$$($(CC) -dM -E - < /dev/null | \
	    sed -n 's/^\#define __SIZEOF_POINTER__ //p')|g"
RX_INSTALL_IN = randomx/randomx.pc.in randomx/RandomXConfig.cmake.in \
	randomx/RandomXConfigVersion.cmake.in

install: install-randomx
# (mk/randomx.mk, read after this file, names these libraries RX_LIBS.)
RX_INSTALL_LIBS = $(B)/randomx/librandomx.a $(B)/randomx/librandomx.so
install-randomx: $(RX_INSTALL_LIBS) $(RX_INSTALL_IN)
	$(INSTALL) -d "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(LIBDIR)" \
		"$(DESTDIR)$(PKGCONFIGDIR)" "$(DESTDIR)$(CMAKEDIR)"
	$(INSTALL) -m 644 randomx/randomx.h "$(DESTDIR)$(INCLUDEDIR)/randomx.h"
	$(INSTALL) -m 644 $(RX_BUILD)/librandomx.a \
		"$(DESTDIR)$(LIBDIR)/librandomx.a"
	$(INSTALL) -m 755 $(RX_BUILD)/$(RX_SOFILE) \
		"$(DESTDIR)$(LIBDIR)/$(RX_SOFILE)"
	ln -sf $(RX_SOFILE) "$(DESTDIR)$(LIBDIR)/$(RX_SONAME)"
	ln -sf $(RX_SONAME) "$(DESTDIR)$(LIBDIR)/librandomx.so"
	$(RX_SUBST) randomx/randomx.pc.in > "$(DESTDIR)$(PKGCONFIGDIR)/randomx.pc"
	$(RX_SUBST) randomx/RandomXConfig.cmake.in \
		> "$(DESTDIR)$(CMAKEDIR)/RandomXConfig.cmake"
	$(RX_SUBST) randomx/RandomXConfigVersion.cmake.in \
		> "$(DESTDIR)$(CMAKEDIR)/RandomXConfigVersion.cmake"
	chmod 644 "$(DESTDIR)$(PKGCONFIGDIR)/randomx.pc" \
		"$(DESTDIR)$(CMAKEDIR)/RandomXConfig.cmake" \
		"$(DESTDIR)$(CMAKEDIR)/RandomXConfigVersion.cmake"

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
		"$(DESTDIR)$(PKGCONFIGDIR)/yespower.pc" \
		"$(DESTDIR)$(INCLUDEDIR)/randomx.h" \
		"$(DESTDIR)$(LIBDIR)/librandomx.a" \
		"$(DESTDIR)$(LIBDIR)/$(RX_SOFILE)" \
		"$(DESTDIR)$(LIBDIR)/$(RX_SONAME)" \
		"$(DESTDIR)$(LIBDIR)/librandomx.so" \
		"$(DESTDIR)$(PKGCONFIGDIR)/randomx.pc" \
		"$(DESTDIR)$(CMAKEDIR)/RandomXConfig.cmake" \
		"$(DESTDIR)$(CMAKEDIR)/RandomXConfigVersion.cmake"
	@for d in "$(CMAKEDIR)" "$(PKGCONFIGDIR)" "$(INCLUDEDIR)" \
	    "$(BINDIR)" "$(LIBDIR)"; do \
		while [ "$$d" != / ] && [ "$$d" != . ] && \
		    rmdir "$(DESTDIR)$$d" 2>/dev/null; do \
			[ -n "$(DESTDIR)" ] || [ "$$d" != "$(PREFIX)" ] || \
				break; \
			d=$$(dirname "$$d"); \
		done; \
	done

check-cli: $(B)/yespower
	@sh test/tests-cli.sh cli

check-install: $(LIBS) $(B)/yespower $(RX_INSTALL_LIBS)
	@MAKE="$(MAKE)" CC="$(CC)" sh test/tests-cli.sh install

check-python: $(SONAME) $(B)/randomx/librandomx.so.0
	@PYTHON="$(PYTHON)" RX_SO="$(B)/randomx/librandomx.so.0" \
		sh test/tests-cli.sh python

check-python-pip: $(SONAME)
	@PYTHON="$(PYTHON)" sh test/tests-cli.sh python-pip

check-python-full: $(SONAME) $(B)/randomx/librandomx.so.0
	@PYTHON="$(PYTHON)" RX_SO="$(B)/randomx/librandomx.so.0" \
		sh test/tests-cli.sh python-full

# Shares verified per second from Python against C on the same work (not
# a test: see python/bench/bench_shares.py --help).
bench-python: $(SONAME) $(B)/randomx/librandomx.so.0
	$(PYTHON) python/bench/bench_shares.py --yespower-lib ./$(SONAME) \
		--randomx-lib $(B)/randomx/librandomx.so.0 $(BENCH_PYTHON_ARGS)

clean: clean-python
clean-python:
	rm -rf python/__pycache__ python/*/__pycache__ python/*/*/__pycache__

.PHONY: install install-randomx uninstall clean-python check-python-pip \
	check-python-full bench-python
