#!/bin/sh
# tests-cross.sh: portability checks.  Each TARGET is built from a copy of
# the source tree in build/cross-TARGET/ (never in the root, which the
# native build uses), with -Werror, and its known answers are run:
#
#   aarch64   aarch64-linux-gnu-gcc, static, under qemu-aarch64
#   armhf     arm-linux-gnueabihf-gcc, static, under qemu-arm
#   s390x     s390x-linux-gnu-gcc, static, under qemu-s390x (big-endian)
#   i686      i686-linux-gnu-gcc, static, under qemu-i386
#   clang     clang, natively
#   clang-aarch64   clang --target=aarch64-linux-gnu (with the aarch64
#             cross toolchain's libraries), static, under qemu-aarch64
#
# For every mixing core the target's build has (the Makefile chooses them
# by `$(CC) -dumpmachine`; this checks its choice, and that no x86 flag
# reaches a non-x86 compiler): `tests --impl CORE`, diffed with TESTS-OK
# line for line (the original's known answers, the primitives, the API
# checks), and tests-chains (real headers) with YESPOWER_IMPL=CORE.  A
# core the emulated CPU cannot run is skipped and named, unless the target
# must run it (neon on ARM, sse2 on i686).  Once per target: a few random
# cases of tests-diff against the reference with the automatic choice
# (and its batch checks, through the cores tests-diff names), and
# `yespower --version`, which tells what the automatic choice is.
#
# Usage: sh tests-cross.sh TARGET...
# Environment: MAKE (make), CROSS_DIFF_CASES (tests-diff's cases, 8).
# Prints a line per check that ran, "TARGET: N passed, N failed" after
# each target and, for several, "cross: N passed, N failed" at the end;
# exits 1 if any failed.  A target whose compiler or qemu is missing
# fails (it names the Debian packages).
set -u
cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
DIFF_CASES=${CROSS_DIFF_CASES:-8}
CFLAGS_CROSS="-O2 -fomit-frame-pointer -Werror"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# target_config TARGET: sets CC_T, QEMU (empty: native), LDFLAGS_T, CORES_T
# (the cores the Makefile must build; empty: whatever it chooses), MUST
# (cores that must run), AUTO (the automatic choice expected; empty: any),
# KAT (how the known answers run: tests, or cli, see cli_known_answers),
# QEMU_R (qemu's -R, see run), LOWCPU (a qemu CPU without the target's
# SIMD, see check_low_cpu) and PKGS (what to install).
target_config() {
	QEMU='' LDFLAGS_T=-static CORES_T='' MUST=portable AUTO='' KAT=tests
	QEMU_R=0x40000000 LOWCPU=''
	case $1 in
	aarch64)
		CC_T=aarch64-linux-gnu-gcc QEMU=qemu-aarch64
		CORES_T="portable neon" MUST="portable neon" AUTO=neon
		PKGS="gcc-aarch64-linux-gnu qemu-user" ;;
	armhf)
		CC_T=arm-linux-gnueabihf-gcc QEMU=qemu-arm
		CORES_T="portable neon" MUST="portable neon" AUTO=neon KAT=cli
		QEMU_R='' LOWCPU=cortex-r5f
		PKGS="gcc-arm-linux-gnueabihf qemu-user" ;;
	s390x)
		CC_T=s390x-linux-gnu-gcc QEMU=qemu-s390x
		CORES_T=portable AUTO=portable
		PKGS="gcc-s390x-linux-gnu qemu-user" ;;
	i686)
		CC_T=i686-linux-gnu-gcc QEMU=qemu-i386
		CORES_T="portable sse2 avx xop avx512vl" MUST="portable sse2"
		LOWCPU=pentium3
		PKGS="gcc-i686-linux-gnu qemu-user" ;;
	clang)
		CC_T=clang LDFLAGS_T='' PKGS="clang libomp-dev" ;;
	clang-aarch64)
		CC_T="clang --target=aarch64-linux-gnu" QEMU=qemu-aarch64
		CORES_T="portable neon" MUST="portable neon" AUTO=neon
		PKGS="clang gcc-aarch64-linux-gnu qemu-user" ;;
	*)
		return 1 ;;
	esac
	return 0
}

# copy_tree DIR: the sources (tracked and untracked, not ignored) into DIR,
# with their times, so that make there rebuilds only what changed.  The
# Makefile includes every mk/*.mk: a fragment removed here goes there too.
copy_tree() {
	rm -rf "$1/mk" && mkdir -p "$1" || return 1
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z -co --exclude-standard |
		    grep -zv -e '^build/' |
		    tar --null -T - -cf - | tar -C "$1" -xpf -
	else
		tar --exclude='./build' \
		    --exclude='*.o' --exclude='*.a' --exclude='*.so*' -cf - . |
		    tar -C "$1" -xpf -
	fi
}

# run DIR [NAME=VALUE...] CMD...: CMD in DIR with those variables in its
# environment (qemu-user reads QEMU_CPU too), under qemu if the target has
# one.  qemu-user does not apply the guest's RLIMIT_AS, which the
# allocation-failure check of `tests` sets (without it, its 2 GiB hash
# would be computed, for a minute or more): a guest address space of 1 GiB
# (-R) makes that hash fail with ENOMEM as it must.  Every other test
# needs less than 100 MiB.  qemu-arm 7.2 aborts with -R (its ARM commpage
# lies above the reserved space), hence KAT=cli there.
run() {
	(
		cd "$1" || exit 2
		shift
		while case $1 in [A-Z_]*=*) true ;; *) false ;; esac; do
			export "${1?}"
			shift
		done
		[ -n "$QEMU" ] && exec "$QEMU" ${QEMU_R:+-R "$QEMU_R"} "$@"
		exec "$@"
	)
}

# make_var DIR NAME: the value of make's variable NAME there, for CC_T.
make_var() {
	$MAKE -s --no-print-directory -C "$1" CC="$CC_T" \
	    --eval "cross-print-var: ; @echo \$($2)" cross-print-var
}

# shellcheck disable=SC2086
sorted() { printf '%s\n' $1 | sort | tr '\n' ' '; }

check_target() {
	t=$1 d=build/cross-$1
	if ! target_config "$t"; then
		fail "$t: unknown target (see tests-cross.sh)"
		return
	fi
	for tool in "${CC_T%% *}" $QEMU; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			fail "$t: $tool not found (apt-get install $PKGS)"
			return
		fi
	done
	copy_tree "$d" || { fail "$t: cannot copy the tree to $d"; return; }

	# The Makefile's choices for this compiler (a recipe is expanded
	# after every makefile has been read).
	cores=$(make_var "$d" CORES) progs=$(make_var "$d" TEST_BINS)
	# Natively, everything `make` builds and every test program; cross,
	# what runs under qemu, and every other program's object (for its
	# warnings).
	if [ -z "$QEMU" ]; then
		goal="all $progs"
	else
		goal='libyespower.a tests build/test/tests-chains'
		goal="$goal build/test/tests-diff build/test/tests-overflow"
		goal="$goal build/test/tests-hashes"
		goal="$goal build/yespower"
		for p in $progs; do
			goal="$goal $p.o"
		done
	fi
	start=$(date +%s)
	# shellcheck disable=SC2086
	if ! $MAKE -C "$d" CC="$CC_T" CFLAGS="$CFLAGS_CROSS" \
	    LDFLAGS="$LDFLAGS_T" $goal > "$d/BUILD-LOG" 2>&1; then
		tail -n 30 "$d/BUILD-LOG"
		fail "$t: build with $CC_T (log: $d/BUILD-LOG)"
		return
	fi
	if grep -q 'warning:' "$d/BUILD-LOG"; then
		grep 'warning:' "$d/BUILD-LOG" | head -n 10
		fail "$t: warnings from $CC_T"
	else
		pass
	fi
	# shellcheck disable=SC2086
	if [ -n "$CORES_T" ] &&
	    [ "$(sorted "$cores")" != "$(sorted "$CORES_T")" ]; then
		fail "$t: the Makefile built cores '$cores', expected '$CORES_T'"
	elif [ "$t" != i686 ] && [ "$t" != clang ] &&
	    $MAKE -B -n -C "$d" CC="$CC_T" $goal 2>&1 |
	    grep -e '-m\(sse\|avx\|xop\|sha\|arch=native\)'; then
		fail "$t: an x86 flag would reach $CC_T (make -B -n above)"
	else
		pass
	fi
	echo "$t: built with $CC_T ($($CC_T -dumpmachine)) in" \
	    "$(($(date +%s) - start)) s, no warnings; cores: $cores"

	for c in $cores; do
		check_core "$t" "$d" "$c"
	done

	# Once per target, with the automatic choice: tests-diff runs its
	# batch checks through every core it knows itself.
	start=$(date +%s)
	if run "$d" build/test/tests-diff "$DIFF_CASES" > "$d/TESTS-DIFF-OUT" \
	    2>&1; then
		pass
		echo "$t: tests-diff $DIFF_CASES: $(grep '==' \
		    "$d/TESTS-DIFF-OUT" | sed 's/ == .*//' | tr '\n' ';' |
		    sed 's/;$//; s/;/, /g'): == reference," \
		    "ok ($(($(date +%s) - start)) s)"
	else
		tail -n 10 "$d/TESTS-DIFF-OUT"
		fail "$t: against the reference (tests-diff $DIFF_CASES)"
	fi

	# Sizes past a 32-bit size_t (and, on 64-bit targets, past qemu's
	# 1 GiB guest): ENOMEM, never a wrapped size.
	if run "$d" build/test/tests-overflow > "$d/TESTS-OVERFLOW-OUT" 2>&1
	then
		pass
		echo "$t: $(tail -n 1 "$d/TESTS-OVERFLOW-OUT")"
	else
		cat "$d/TESTS-OVERFLOW-OUT"
		fail "$t: tests-overflow"
	fi

	# The hashing API: every kernel set the target has, against the
	# portable ones and the standards' vectors (quick: fewer rounds).
	if run "$d" build/test/tests-hashes --quick test/vectors \
	    > "$d/TESTS-HASHES-OUT" 2>&1; then
		pass
		echo "$t: $(tail -n 1 "$d/TESTS-HASHES-OUT")"
	else
		grep -v '^ok ' "$d/TESTS-HASHES-OUT" | tail -n 20
		fail "$t: tests-hashes"
	fi

	check_low_cpu "$t" "$d"

	v=$(run "$d" build/yespower --version 2>&1)
	got=$(echo "$v" | sed -n 's/.*implementation \([a-z0-9]*\).*/\1/p')
	if [ -n "$AUTO" ] && [ "$got" != "$AUTO" ]; then
		fail "$t: the automatic choice is '$v', expected core $AUTO"
	else
		pass
		echo "$t: automatic choice: $v"
	fi
}

# cli_known_answers DIR [NAME=VALUE...]: the lines "yespower(V, N, r,
# PERS) = HASH" of TESTS-OK (the original's known answers, for its 80-byte
# input i * 3), each hashed by the yespower tool (run with those
# variables, e.g. YESPOWER_IMPL=CORE) and printed as `tests` prints it.
# The rest of TESTS-OK (the XOR of 150 hashes, the primitives, the API
# checks) is not core-specific and runs on the other targets.
cli_known_answers() {
	input=$(i=0; while [ $i -lt 80 ]; do
		printf '%02x' $((i * 3)); i=$((i + 1)); done)
	grep '^yespower(' TESTS-OK | while IFS= read -r line; do
		args=$(echo "$line" | sed \
		    's/^yespower(\([0-9]*\), \([0-9]*\), \([0-9]*\), .*/-v \1 -N \2 -r \3/')
		pers=$(echo "$line" |
		    sed 's/^yespower([^,]*,[^,]*,[^,]*, \(.*\)) = .*/\1/')
		# shellcheck disable=SC2086
		case $pers in
		NULL) h=$(run "$@" build/yespower $args "$input") ;;
		BSTY) h=$(run "$@" build/yespower $args --pers-input \
		    "$input") ;;
		*) h=$(run "$@" build/yespower $args --pers \
		    "$(echo "$pers" | sed 's/^"\(.*\)"$/\1/')" "$input") ;;
		esac || return 1
		echo "${line%% = *} = $(echo "$h" | sed 's/../& /g; s/ $//')"
	done
}

# check_low_cpu TARGET DIR: on a CPU without the target's SIMD (qemu -cpu
# LOWCPU: a Cortex-R5F has VFP but no NEON, a Pentium III SSE but no
# SSE2), the automatic choice must be portable, a SIMD core asked for must
# be refused, and the known answers must come out right: nothing outside
# the SIMD cores may use their instructions.
check_low_cpu() {
	t=$1 d=$2
	[ -n "$LOWCPU" ] || return 0
	simd=$(echo "$MUST" | tr ' ' '\n' | grep -v portable | head -n 1)
	v=$(run "$d" QEMU_CPU="$LOWCPU" build/yespower --version 2>&1)
	w=$(run "$d" QEMU_CPU="$LOWCPU" YESPOWER_IMPL="$simd" build/yespower \
	    --version 2>&1)
	case $v/$w in
	*"implementation portable+"*/*"$simd: this CPU cannot run it"*) ;;
	*)
		fail "$t on $LOWCPU: '$v', and with $simd asked for: '$w'"
		return ;;
	esac
	if cli_known_answers "$d" QEMU_CPU="$LOWCPU" > "$d/TESTS-OUT-low" \
	    2>&1 && grep '^yespower(' TESTS-OK | diff -U0 - "$d/TESTS-OUT-low"
	then
		pass
		echo "$t on qemu's $LOWCPU (no $simd): portable chosen, $simd" \
		    "refused, $(wc -l < "$d/TESTS-OUT-low") known answers ok"
	else
		fail "$t on $LOWCPU: known answers (log: $d/TESTS-OUT-low)"
	fi
}

# check_core TARGET DIR CORE
check_core() {
	t=$1 d=$2 c=$3
	start=$(date +%s)
	if [ "$KAT" = cli ]; then
		what="$(grep -c '^yespower(' TESTS-OK) of TESTS-OK's lines"
		what="$what through the yespower tool"
		expect=$d/TESTS-OK-CLI
		grep '^yespower(' TESTS-OK > "$expect"
		# An unknown or unrunnable YESPOWER_IMPL falls back to the
		# automatic choice, with a message: ask what is in use.
		v=$(run "$d" YESPOWER_IMPL="$c" build/yespower --version 2>&1)
		case $v in
		*"implementation $c+"*)
			cli_known_answers "$d" YESPOWER_IMPL="$c" \
			    > "$d/TESTS-OUT-$c" \
			    2> "$d/TESTS-ERR-$c"
			rc=$? ;;
		*)
			echo "$v" > "$d/TESTS-ERR-$c"
			rc=77 ;;
		esac
	else
		what="$(wc -l < TESTS-OK) lines of TESTS-OK"
		expect=TESTS-OK
		run "$d" ./tests --impl "$c" test/vectors/primitives.txt \
		    > "$d/TESTS-OUT-$c" 2> "$d/TESTS-ERR-$c"
		rc=$?
	fi
	if [ $rc = 77 ]; then
		case " $MUST " in
		*" $c "*)
			head -c 500 "$d/TESTS-ERR-$c"
			fail "$t core $c: ${QEMU:-this CPU} cannot run it" ;;
		*) skipped=$((skipped + 1))
		   cannot="$cannot $c" ;;
		esac
		return
	fi
	if [ $rc != 0 ] || ! diff -U0 "$expect" "$d/TESTS-OUT-$c"; then
		head -c 500 "$d/TESTS-ERR-$c"
		fail "$t core $c: known answers (exit $rc)"
		return
	fi
	pass
	if ! run "$d" YESPOWER_IMPL="$c" build/test/tests-chains \
	    > "$d/TESTS-CHAINS-OUT-$c" 2>&1; then
		grep -v ': ok$' "$d/TESTS-CHAINS-OUT-$c" | tail -n 10
		fail "$t core $c: real headers (tests-chains)"
		return
	fi
	pass
	echo "$t core $c: $what;" \
	    "$(tail -n 1 "$d/TESTS-CHAINS-OUT-$c" | sed 's/^tests-chains: //'):" \
	    "ok ($(($(date +%s) - start)) s)"
}

if [ $# = 0 ]; then
	echo "usage: sh tests-cross.sh TARGET..." \
	    "(aarch64 armhf s390x i686 clang clang-aarch64)"
	exit 2
fi
all_passed=0 all_failed=0
for target in "$@"; do
	passed=0 failed=0 skipped=0 cannot=
	check_target "$target"
	summary="$target: $passed passed, $failed failed"
	[ $skipped = 0 ] ||
	    summary="$summary, $skipped skipped (${QEMU:-this CPU} cannot run$cannot)"
	echo "$summary"
	all_passed=$((all_passed + passed)) all_failed=$((all_failed + failed))
done
[ $# -gt 1 ] && echo "cross: $all_passed passed, $all_failed failed"
[ $all_failed = 0 ]
