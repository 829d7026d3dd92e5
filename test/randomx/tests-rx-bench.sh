#!/bin/sh
# tests-rx-bench.sh: `benchmark --randomx --nonces N --seed S` prints the
# reference benchmark's folded result, bit for bit (the known answers in
# bench-vectors.txt, taken from the reference's own program).
#
# Usage: tests-rx-bench.sh light|full [BENCHMARK]   (default ./benchmark)
#
# light: the light-mode rows, a few seconds (`make check`, through
# check-benchmark).  full: the full-mode rows, each building the 2080 MiB
# dataset (minutes; check-randomx-full).  Every row runs on 1 and then 2
# threads in one process, and both results must be the row's.

MODE=$1
B=${2:-./benchmark}
DIR=$(dirname "$0")
NAME=tests-rx-bench-$MODE
passed=0
failed=0

case $MODE in
light) mode_opt= ;;
full) mode_opt=--full ;;
*) echo "usage: tests-rx-bench.sh light|full [BENCHMARK]" >&2; exit 2 ;;
esac
OUT=$(mktemp) || exit 1
trap 'rm -f "$OUT"' EXIT

rows=$(grep -v '^#' "$DIR/bench-vectors.txt" | awk -v m="$MODE" '$1 == m')
if [ -z "$rows" ]; then
	echo "$NAME: 0 passed, 1 failed (no $MODE rows in bench-vectors.txt)"
	exit 1
fi

# Each row: mode version seed nonces result.
while read -r mode version seed nonces want; do
	v2=
	[ "$version" = v2 ] && v2=--v2
	what="$mode $version seed $seed, $nonces nonces"
	"$B" --randomx $mode_opt $v2 --seed "$seed" --nonces "$nonces" \
	    -t 1,2 >"$OUT" 2>&1
	rc=$?
	got=$(sed -n 's/^Calculated result: //p' "$OUT")
	n=0
	for g in $got; do
		n=$((n + 1))
		if [ "$g" = "$want" ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "$NAME: FAILED: $what, run $n: $g, not $want"
		fi
	done
	if [ "$rc" != 0 ] || [ "$n" != 2 ]; then
		failed=$((failed + 1))
		echo "$NAME: FAILED: $what: exit status $rc, $n results" \
		    "(2 wanted); its output:"
		tail -n 5 "$OUT"
	fi
done <<ROWS
$rows
ROWS

echo "$NAME: $passed passed, $failed failed"
[ "$failed" = 0 ]
