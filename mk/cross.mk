# mk/cross.mk: portability (issue 9): cross builds run under qemu-user,
# and the clang build.  Each target is built with -Werror from a copy of
# the tree in build-TARGET/, never in the root (see tests-cross.sh).
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
#   make clean-cross    removes the build-TARGET/ directories
#
# Needs gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, gcc-s390x-linux-gnu,
# gcc-i686-linux-gnu, qemu-user and clang (.ci/run installs them).  Not in
# `make check`: a few minutes of emulation.

CROSS_TARGETS ?= aarch64 armhf s390x i686

check-cross: $(CROSS_TARGETS:%=check-cross-%)

check-cross-%:
	@MAKE="$(MAKE)" sh ./tests-cross.sh $*

check-clang: check-cross-clang

clean: clean-cross
clean-cross:
	rm -rf build-aarch64 build-armhf build-s390x build-i686 build-clang \
		build-clang-aarch64

.PHONY: check-cross check-clang clean-cross
