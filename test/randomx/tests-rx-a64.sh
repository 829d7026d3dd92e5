#!/bin/sh
# tests-rx-a64.sh: RandomX on AArch64 without ARM hardware.  The library
# and its test programs are cross-built (static, -Werror) into BUILD-DIR
# with make's B= and CC=, then run under qemu-aarch64 as several CPUs:
#   max          every feature qemu has (the Crypto Extensions' AES)
#   cortex-a53   an in-order ARMv8.0 core, also with AES
# On each, the suites must pass against the known answers (they run the
# interpreter and software AES as well as what randomx_get_flags() offers)
# and api-compat's first line must report exactly the flags expected of
# the build on that CPU.  qemu 7.2 cannot take AES away from an AArch64
# CPU model (it has no such -cpu property): software AES is checked by the
# suites choosing it through the flags, not by a CPU without AES.
#
# Usage: tests-rx-a64.sh CC BUILD-DIR
# Environment: MAKE (make).  Two programs run at a time.  Prints a line
# per program and "randomx-a64: N passed, N failed" last; exits 1 if any
# failed.  A missing compiler or qemu-aarch64 is a failure that names the
# Debian packages: this target exists to run them.
set -u
cd "$(dirname "$0")/../.." || exit 2
MAKE=${MAKE:-make}
cc=$1 dir=$2
rx=$dir/randomx
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "  FAILED: $*"; }
finish() {
	echo "randomx-a64: $passed passed, $failed failed"
	[ $failed = 0 ]
	exit
}

for tool in "$cc" qemu-aarch64; do
	if ! command -v "$tool" > /dev/null 2>&1; then
		fail "$tool not found (apt-get install gcc-aarch64-linux-gnu" \
		    "qemu-user)"
		finish
	fi
done

progs="tests-rx-vm tests-rx-jit tests-rx-cache api-compat"
start=$(date +%s)
mkdir -p "$dir"
# shellcheck disable=SC2046
if ! $MAKE -j2 B="$dir" CC="$cc" CFLAGS="-O2 -Werror" LDFLAGS=-static \
    $(for p in $progs; do printf '%s ' "$rx/$p"; done) \
    > "$dir/BUILD-LOG" 2>&1; then
	tail -n 30 "$dir/BUILD-LOG"
	fail "build with $cc (log: $dir/BUILD-LOG)"
	finish
fi
# The compiler's and linker's warnings; not make's own ("-j2 forced in
# submake" when this runs under a parallel make).
warnings=$(grep 'warning:' "$dir/BUILD-LOG" | grep -v '^make\(\[[0-9]*\]\)\{0,1\}: ' || true)
if [ -n "$warnings" ]; then
	printf '%s\n' "$warnings" | head -n 10
	fail "warnings from $cc"
else
	pass
fi
echo "randomx-a64: built with $cc in $(($(date +%s) - start)) s"

# run CPU PROG: PROG under qemu as CPU, its output in $rx/PROG-CPU.out
run() {
	qemu-aarch64 -cpu "$1" "$rx/$2" > "$rx/$2-$1.out" 2> "$rx/$2-$1.err"
	echo $? > "$rx/$2-$1.rc"
}

# what each CPU runs: everything on max, the API's answers on the others
jobs="max:tests-rx-vm max:tests-rx-jit max:tests-rx-cache max:api-compat"
jobs="$jobs cortex-a53:api-compat cortex-a53:tests-rx-jit"
start=$(date +%s)
n=0
for j in $jobs; do
	run "${j%%:*}" "${j#*:}" &
	n=$((n + 1))
	[ $((n % 2)) = 0 ] && wait
done
wait
for j in $jobs; do
	cpu=${j%%:*} p=${j#*:}
	out=$rx/$p-$cpu.out rc=$(cat "$rx/$p-$cpu.rc")
	if [ "$rc" = 0 ]; then
		pass
		echo "$cpu: $(tail -n 1 "$out")"
	else
		fail "$p on $cpu (exit status $rc; $out):"
		grep -v ': ok$' "$out" | tail -n 8
		grep -v 'warning: TCG' "$rx/$p-$cpu.err" | tail -n 5
	fi
done
echo "randomx-a64: the suites ran in $(($(date +%s) - start)) s"

# flags every CPU model here must report: HARD_AES 2 where the build has
# the Crypto Extensions' AES, JIT 8 where it has the AArch64 JIT
want=10
for cpu in max cortex-a53; do
	got=$(sed -n 's/^api-compat: flags //p' "$rx/api-compat-$cpu.out")
	if [ "$got" = "$want" ]; then
		pass
	else
		fail "randomx_get_flags() on $cpu: '$got', not $want"
	fi
done
finish
