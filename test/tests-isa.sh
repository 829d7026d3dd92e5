#!/bin/sh
# tests-isa.sh: the instruction-set tests of `make check-isa`, all
# through one shared library, libyespower.so, and tests-isa.  The cores
# and SHA-256 functions are the library's own list (tests-isa --list).
#
# Usage: tests-isa.sh [--qemu-only] TESTS-ISA
#
# Natively: every core with every SHA-256 compression function forced
# gives the known answers (those this CPU cannot run are named); the
# yespower_set_impl() checks (tests-isa --api); YESPOWER_IMPL's syntax and
# its messages; the automatic choice of a core or its plain twin by vendor.
#
# Under qemu-x86_64 -cpu qemu64, an x86-64 with SSE2 but no SSSE3, AVX or
# SHA, which makes any such instruction fault: the automatic choice must
# be sse2+portable and give the known answers, and forcing more is
# refused.  First, one AVX, one AVX-512 and one SHA instruction must each
# kill a process there, or passing would prove nothing.  Then as the
# Westmere, SandyBridge, Haswell and EPYC models: the core expected on
# each (the plain twin on Intel's), with the known answers.  Skipped (with a
# message) if qemu-x86_64 is missing, this is not an x86-64 host, or this
# is a native build (make native), which is not meant to run elsewhere.
set -u

qemu_only=0
if [ "${1:-}" = --qemu-only ]; then
	qemu_only=1
	shift
fi
prog=$1
cores=$("$prog" --list | grep -v = | tr "\n" " ")
shas=$("$prog" --list | sed -n 's/^sha256=//p')
fail=0 passed=0 failed=0 skipped=0 skip_why=
# shellcheck disable=SC3045 # dash, bash and busybox sh have ulimit -c
ulimit -c 0 2>/dev/null	# the canaries must not leave core files
unset YESPOWER_IMPL

failed() {
	echo "  FAILED: $*"
	fail=1
	failed=$((failed + 1))
}

# ok MESSAGE: a group of checks passed.
ok() {
	passed=$((passed + 1))
	echo "$*"
}

# skip WHY: a group could not run here.
skip() {
	skipped=$((skipped + 1))
	skip_why="$skip_why${skip_why:+; }$*"
}

# run_isa EXPECTED-STATUS ARGS...: tests-isa's output in $out.
run_isa() {
	want=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] && return 0
	echo "$out" | sed 's/^/    /'
	failed "$* (exit status $rc, expected $want)"
	return 1
}

# env_case SPEC NAME [MESSAGE...]: with YESPOWER_IMPL=SPEC, tests-isa
# passes with NAME, and the library says each MESSAGE on stderr (or, with
# none given, nothing).
env_case() {
	spec=$1 want=$2
	shift 2
	YESPOWER_IMPL=$spec run_isa 0 "$prog" --expect "$want" || return
	if [ $# = 0 ] && echo "$out" | grep -q '^libyespower'; then
		failed "YESPOWER_IMPL=$spec: unexpected message: $out"
	fi
	for msg in "$@"; do
		echo "$out" | grep -qF -- "$msg" ||
		    failed "YESPOWER_IMPL=$spec: no message \"$msg\": $out"
	done
}

native() {
	ran=0 cannot=
	for c in $cores; do
		for s in $shas; do
			out=$("$prog" --impl "$c,sha256=$s" --expect "$c+$s" \
			    2>&1)
			rc=$?
			if [ $rc = 77 ]; then
				cannot="$cannot $c+$s"
			elif [ $rc = 0 ]; then
				ran=$((ran + 1))
			else
				echo "$out" | sed 's/^/    /'
				failed "$prog --impl $c,sha256=$s"
			fi
		done
	done
	passed=$((passed + ran))
	echo "libyespower.so: $ran core+sha256 pairs give the known answers"
	[ -n "$cannot" ] && skip "this CPU cannot run$cannot"

	run_isa 0 "$prog" --api && ok "yespower_set_impl(): specs and errors ok"

	# YESPOWER_IMPL: what it selects, and what it says about bad names.
	best=$("$prog" 2>&1 | sed -n 's/^implementation //p')
	best_core=${best%+*} best_sha=${best#*+}
	before=$fail
	case " $cores " in *" sse2 "*)
		env_case sse2,sha256=portable sse2+portable ;; esac
	env_case portable+portable portable+portable
	env_case sha256=portable "$best_core+portable"
	env_case core=portable "portable+$best_sha"
	env_case nonsense "$best" \
	    "libyespower: YESPOWER_IMPL=nonsense: nonsense: no such implementation; using $best"
	if ! "$prog" --impl xop > /dev/null 2>&1; then
		env_case xop,sha256=portable "$best_core+portable" \
		    ": xop: " "; using $best_core+portable"
	fi
	[ $fail = $before ] && ok "YESPOWER_IMPL: choices and messages ok"

	# A core with a plain twin: the twin on Intel, the core elsewhere
	# (yespower-dispatch.c).
	case " $cores " in *" ${best_core%-plain}-plain "*)
		vendor=$(sed -n 's/^vendor_id[^:]*: *//p' /proc/cpuinfo \
		    2>/dev/null | head -n 1)
		case $best_core in *-plain) plain=1 ;; *) plain=0 ;; esac
		want=0
		[ "$vendor" = GenuineIntel ] && want=1
		if [ -z "$vendor" ]; then
			skip "no vendor_id in /proc/cpuinfo"
		elif [ $plain = $want ]; then
			ok "vendor $vendor: $best_core chosen"
		else
			failed "vendor $vendor: $best_core chosen"
		fi ;;
	esac
}

qemu64() {
	qemu-x86_64 -cpu qemu64 "$@"
}

qemu() {
	if [ "$(uname -m)" != x86_64 ]; then
		skip "qemu64: not an x86-64 host"
		return
	fi
	case " $cores " in *" native "*)
		skip "qemu64: a native build runs only on CPUs like this one"
		return ;;
	esac
	if ! command -v qemu-x86_64 > /dev/null 2>&1; then
		skip "qemu64: no qemu-x86_64 (apt-get install qemu-user)"
		return
	fi
	for kind in avx avx512 sha; do
		if qemu64 "$prog" --canary $kind > /dev/null 2>&1; then
			failed "qemu64 runs $kind instructions: this test proves nothing"
			return
		fi
	done
	before=$fail
	if run_isa 0 qemu64 "$prog" --expect sse2+portable; then
		echo "$out" | grep -q '^tests-isa: [0-9]* passed, 0 failed$' ||
		    failed "qemu64: automatic choice"
	fi
	for spec in avx avx512vl sha256=shani; do
		run_isa 77 qemu64 "$prog" --impl $spec
	done
	[ $fail = $before ] && ok "qemu64 (SSE2 only): sse2+portable chosen," \
	    "known answers ok, avx, avx512vl and sha256=shani refused; an AVX," \
	    "AVX-512 or SHA instruction would have killed it"
	qemu_models
}

# The automatic choice on CPU models this machine is not: Intel's get a
# core's plain twin (yespower-dispatch.c), AMD's the core itself (the
# SHA-256 function is whichever the model and qemu offer).  A model whose
# core is not in this build is left out.
qemu_models() {
	before=$fail n=0
	for m in Westmere:sse2-plain SandyBridge:avx-plain \
	    Haswell:avx2-plain EPYC:avx2; do
		cpu=${m%%:*} core=${m#*:}
		case " $cores " in *" $core "*) ;; *) continue ;; esac
		if run_isa 0 qemu-x86_64 -cpu "$cpu" "$prog"; then
			got=$(echo "$out" | sed -n 's/^implementation //p')
			[ "${got%+*}" = "$core" ] ||
			    failed "qemu $cpu: $got chosen, not $core"
			echo "$out" | grep -q '^tests-isa: [0-9]* passed, 0 failed$' ||
			    failed "qemu $cpu: known answers"
		fi
		n=$((n + 1))
	done
	[ $fail = $before ] && ok "qemu as $n CPU models: the expected core" \
	    "chosen on each, known answers ok"
}

[ $qemu_only = 1 ] || native
qemu
summary="isa: $passed passed, $failed failed"
[ $skipped = 0 ] || summary="$summary, $skipped skipped ($skip_why)"
echo "$summary"
exit $fail
