#!/bin/sh
# tests-rx-qemu.sh: the RandomX suites under qemu-x86_64, as x86-64 CPUs
# this machine is not, so that what the library picks by CPUID on them
# is run and checked against the known answers:
#   qemu64     SSE2 only: software AES, the portable Argon2d, no BMI2 or
#              AVX2 in the JIT's code
#   Westmere   AES-NI and SSSE3, no AVX
#   Haswell    AVX2, BMI2 and AES-NI, no AVX-512
# On each, tests-rx-vm, tests-rx-jit and api-compat must pass, and
# randomx_get_flags() (api-compat's first line) must give exactly that
# CPU's flags.  qemu's TCG has no AVX-512, so those paths stay with the
# native suites.
#
# Usage: tests-rx-qemu.sh BUILD-DIR (build/randomx, the programs built)
# Skipped, and said, if qemu-x86_64 is missing or this is not an x86-64
# host.  The build must not use -march= flags (the Makefile checks).
set -u

dir=$1
passed=0 failed=0

if [ "$(uname -m)" != x86_64 ]; then
	echo "randomx-qemu: 0 passed, 0 failed, 1 skipped (not an x86-64 host)"
	exit 0
fi
if ! command -v qemu-x86_64 > /dev/null 2>&1; then
	echo "randomx-qemu: 0 passed, 0 failed, 1 skipped (no qemu-x86_64:" \
	    "apt-get install qemu-user)"
	exit 0
fi

# flags the CPU model must report: JIT 8, HARD_AES 2, ARGON2_SSSE3 32,
# ARGON2_AVX2 64
for model in qemu64:8 Westmere:42 Haswell:106; do
	cpu=${model%%:*} want=${model#*:}
	for t in tests-rx-vm tests-rx-jit api-compat; do
		out=$dir/$t-$cpu.out
		qemu-x86_64 -cpu "$cpu" "$dir/$t" > "$out" 2> "$out.err"
		rc=$?
		if [ $rc != 0 ]; then
			failed=$((failed + 1))
			echo "  FAILED: $t on $cpu (exit status $rc; $out):"
			grep -v ': ok$' "$out" | tail -n 5
			grep -v 'warning: TCG' "$out.err" | tail -n 5
			continue
		fi
		passed=$((passed + 1))
		echo "$cpu: $(tail -n 1 "$out")"
	done
	got=$(sed -n 's/^api-compat: flags //p' "$dir/api-compat-$cpu.out")
	if [ "$got" = "$want" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "  FAILED: randomx_get_flags() on $cpu: '$got', not $want"
	fi
done
echo "randomx-qemu: $passed passed, $failed failed"
[ $failed = 0 ]
