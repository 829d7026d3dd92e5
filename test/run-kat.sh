#!/bin/sh
# run-kat.sh NAME PROGRAM OUT-PREFIX OPTION-PREFIX IMPL...: the known
# answers through each implementation.  For each IMPL, runs
#     PROGRAM --impl OPTION-PREFIX$IMPL test/vectors/primitives.txt
# into OUT-PREFIX$IMPL and compares that with TESTS-OK line for line.
# Exit status 77 from PROGRAM means this CPU cannot run IMPL: it is
# counted as skipped and named.  Prints one line per implementation and
# "NAME: N passed, N failed[, N skipped (...)]" last; exits 1 if any failed.
# PROGRAM's stderr goes to OUT-PREFIX$IMPL.err, shown only on failure.
# Environment: KAT_RUN, a command to run PROGRAM under (e.g. valgrind or
# env VAR=...), and KAT_VECTORS (default test/vectors/primitives.txt).
set -u
name=$1 prog=$2 out=$3 prefix=$4
shift 4
vectors=${KAT_VECTORS:-test/vectors/primitives.txt}
passed=0 failed=0 skipped=0 skipped_names=
mkdir -p "$(dirname "$out")"
for impl in "$@"; do
	# shellcheck disable=SC2086
	${KAT_RUN:-} "$prog" --impl "$prefix$impl" "$vectors" \
		> "$out$impl" 2> "$out$impl.err"
	rc=$?
	if [ $rc = 77 ]; then
		skipped=$((skipped + 1))
		skipped_names="$skipped_names $impl"
	elif [ $rc = 0 ] && diff -U0 TESTS-OK "$out$impl" > "$out$impl.diff"
	then
		passed=$((passed + 1))
		echo "$name $impl: known answers ok"
	else
		failed=$((failed + 1))
		echo "$name $impl: FAILED (exit status $rc)"
		head -n 40 "$out$impl.diff" "$out$impl.err"
	fi
done
summary="$name: $passed passed, $failed failed"
if [ $skipped != 0 ]; then
	summary="$summary, $skipped skipped (this CPU cannot run$skipped_names)"
fi
echo "$summary"
[ $failed = 0 ]
