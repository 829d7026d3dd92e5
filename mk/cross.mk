# mk/cross.mk: portability: cross builds run under qemu-user, and the
# clang build.  Each target is built with -Werror from a copy of the tree
# in build/cross-TARGET/, never in the root (see test/tests-cross.sh).
#
#   make check-cross    every target of CROSS_TARGETS (default: aarch64
#                       armhf s390x i686), statically linked, under
#                       qemu-aarch64, qemu-arm, qemu-s390x (big-endian) and
#                       qemu-i386: for every core of the target, the known
#                       answers and real headers; once, random cases against
#                       the reference and the automatic choice.  With -j2,
#                       two targets at a time (-Otarget keeps their output
#                       apart).  check-cross-TARGET runs one; TARGET may
#                       also be clang-aarch64 (clang's NEON code, under
#                       qemu-aarch64), which is not in the default set.
#   make check-clang    everything built with clang, then the same checks
#                       natively for every core this CPU runs
#   make clean-cross    removes the build/cross-TARGET/ directories
#
#h Portability (mk/cross.mk; .ci/run runs them):
#h   check-cross          aarch64, armhf, s390x, i686 under qemu-user
#h   check-clang          everything built with clang, checked natively

# Needs gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, gcc-s390x-linux-gnu,
# gcc-i686-linux-gnu, qemu-user and clang (.ci/run installs them).  Not in
# `make check`: a few minutes of emulation.

CROSS_TARGETS ?= aarch64 armhf s390x i686

check-cross: $(CROSS_TARGETS:%=check-cross-%)

check-cross-%:
	@MAKE="$(MAKE)" sh test/tests-cross.sh $*

check-clang: check-cross-clang

clean-cross:
	rm -rf $(B)/cross-*

.PHONY: check-cross check-clang clean-cross
