#!/bin/sh
# tests-cli.sh: tests of the `yespower` tool, of `make install`, and of the
# Python module, against the known answers of test/vectors/chains.txt and
# TESTS-OK.
#
#   sh tests-cli.sh cli          the tool (build/yespower)
#   sh tests-cli.sh install      make install/uninstall into temporary
#                                prefixes; pkg-config; exported symbols;
#                                RandomX by pkg-config, CMake and -lrandomx
#   sh tests-cli.sh python       the Python module, from the tree
#   sh tests-cli.sh python-pip   python3 -m pip install ./python into a
#                                fresh venv, then the module's tests there
#   sh tests-cli.sh python-full  the RandomX full mode from Python (a 2080
#                                MiB dataset; minutes)
#
# Each suite prints the checks that failed and a last line
# "SUITE: N passed, N failed"; the exit status is 1 if any failed.
# Environment: MAKE, CC and PYTHON name the tools (make, cc, python3);
# RX_SO the tree's librandomx.so.0 (build/randomx/librandomx.so.0).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
MAKE=${MAKE:-make}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
# The tree's librandomx, for the Python suites (make passes its own B).
RX_SO=${RX_SO:-$ROOT/build/randomx/librandomx.so.0}
case $RX_SO in /*) ;; *) RX_SO=$ROOT/$RX_SO ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/yespower-tests.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 2' HUP INT TERM

# Sugarchain's genesis header and its published hash (test/vectors/chains.txt).
GENESIS=0100000000000000000000000000000000000000000000000000000000000000
GENESIS=${GENESIS}00000000b050e156acdac2cada87b39ce5f137f5b872901e6b9e1c1d41
GENESIS=${GENESIS}b09c572ace77767073555dffff3f1ff7000000
GENESIS_HASH=eb04debd01f77f58e6debe8805b98fd6790179849bf7189c9ac6dcce5a203100

passed=0
failed=0
skipped=0 why=
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect DESCRIPTION STATUS STDOUT STDERR-PATTERN -- COMMAND...
# Runs COMMAND with stdin from $TMP/stdin (empty unless a test wrote it),
# and checks its exit status, its whole stdout, and that its stderr is
# empty (pattern "") or one line matching the grep pattern.
expect() {
	desc=$1 status=$2 out=$3 errpat=$4
	shift 5
	"$@" < "$TMP/stdin" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	got=$(cat "$TMP/out")
	if [ "$rc" != "$status" ]; then
		fail "$desc: exit status $rc, expected $status ($(head -c 300 "$TMP/err"))"
	elif [ "$got" != "$out" ]; then
		fail "$desc: printed '$got', expected '$out'"
	elif [ -z "$errpat" ] && [ -s "$TMP/err" ]; then
		fail "$desc: unexpected stderr: $(head -c 300 "$TMP/err")"
	elif [ -n "$errpat" ] && { [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
	    ! grep -q -- "$errpat" "$TMP/err"; }; then
		fail "$desc: stderr '$(cat "$TMP/err")' does not match '$errpat'"
	else
		pass
	fi
	: > "$TMP/stdin"
}

# The 64 hex digits of $1 in reverse byte order.
reverse_hex() {
	echo "$1" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--)
	    printf "%s", $i; print "" }'
}

# The explicit-parameter options for one line of test/vectors/chains.txt.
params_of() {	# version N r pers
	case $1 in
	0.5) opts="-v 5" ;;
	1.0) opts="-v 10" ;;
	1.0b2b) opts="-v 10 --b2b" ;;
	esac
	opts="$opts -N $2 -r $3"
	case $4 in
	-) ;;
	INPUT) opts="$opts --pers-input" ;;
	*) opts="$opts --pers-hex $4" ;;
	esac
	echo "$opts"
}

# The real headers: "preset version N r pers header expect bits" per line.
chains() {
	awk '$1 == "PRESET" { for (i = 1; i < NF; i++) v[$i] = $(i + 1);
	    print $2, $3, $4, $5, $6, v["HEADER"], v["EXPECT"],
	    v["TARGET_BITS"] }' test/vectors/chains.txt
}

# The tool with the Sugarchain preset (called through expect, with
# arguments).
# shellcheck disable=SC2120
sugar() {
	"$Y" --preset yespowersugar "$@"
}

suite_cli() {
	Y=build/yespower
	: > "$TMP/stdin"
	[ -x "$Y" ] || { fail "no $Y: run make first"; return; }

	# Every real header through its preset: its published hash (in the
	# display order, --reverse) and its own nBits target (--bits); and
	# the first header of each preset through explicit parameters.
	chains > "$TMP/chains"
	seen=" "
	while read -r preset ver n r pers header exp bits; do
		got=$("$Y" --preset "$preset" --bits "$bits" --reverse \
		    "$header" < /dev/null)
		rc=$?
		hash=${got% *}
		if [ $rc != 0 ] || [ "${got#* }" != meets ] ||
		    { [ "$exp" != "?" ] &&
		    [ "$hash" != "$(reverse_hex "$exp")" ]; }; then
			fail "$preset $header --bits $bits --reverse: $got ($rc)"
		else
			pass
		fi
		case $seen in *" $preset "*) continue ;; esac
		seen="$seen$preset "
		[ "$exp" = "?" ] && continue
		# shellcheck disable=SC2046
		expect "$preset by parameters" 0 "$exp" "" \
		    -- "$Y" $(params_of "$ver" "$n" "$r" "$pers") "$header"
	done < "$TMP/chains"
	[ "$(echo "$seen" | wc -w)" -ge 14 ] && pass ||
	    fail "fewer than 14 presets in test/vectors/chains.txt: $seen"

	# Batch mode: every header of one preset on stdin, answers in order,
	# with any number of threads.
	for preset in yescryptr16 yespowerr16; do
		awk -v p="$preset" '$1 == p { print $6 }' "$TMP/chains" \
		    > "$TMP/in"
		awk -v p="$preset" '$1 == p { print $7 }' "$TMP/chains" \
		    > "$TMP/exp"
		for j in 1 2 5; do
			"$Y" --preset "$preset" -j $j < "$TMP/in" \
			    > "$TMP/batch" 2> "$TMP/err"
			rc=$?
			if [ $rc = 0 ] && [ ! -s "$TMP/err" ] &&
			    [ "$(wc -l < "$TMP/batch")" = "$(wc -l < "$TMP/in")" ] &&
			    paste -d' ' "$TMP/exp" "$TMP/batch" | awk '
			    $1 != "?" && $1 != $2 { bad = 1 } END { exit bad }'
			then
				pass
			else
				fail "batch $preset -j $j (status $rc)"
			fi
		done
	done

	# Order kept over many small inputs and threads, arguments and
	# batch alike.
	i=0
	: > "$TMP/many"
	while [ $i -lt 60 ]; do
		printf '%02x%02x\n' $i $((i * 7 % 256)) >> "$TMP/many"
		i=$((i + 1))
	done
	# shellcheck disable=SC2046
	"$Y" -N 1024 -r 8 -j 1 $(cat "$TMP/many") > "$TMP/one"
	"$Y" -N 1024 -r 8 -j 7 < "$TMP/many" > "$TMP/seven"
	"$Y" -N 1024 -r 8 < "$TMP/many" > "$TMP/all"
	if [ "$(wc -l < "$TMP/one")" = 60 ] && cmp -s "$TMP/one" "$TMP/seven" &&
	    cmp -s "$TMP/one" "$TMP/all" &&
	    [ "$(sort -u "$TMP/one" | wc -l)" = 60 ]; then
		pass
	else
		fail "60 inputs: -j 1 arguments, -j 7 and default batch differ"
	fi

	# TESTS-OK: the original's table through explicit parameters.
	src=$(awk 'BEGIN { for (i = 0; i < 80; i++)
	    printf "%02x", (i * 3) % 256 }')
	n='\([0-9]*\)'
	sed -n "s/^yespower($n, $n, $n, \(.*\)) = \([0-9a-f ]*\)\$/\1|\2|\3|\4|\5/p" \
	    TESTS-OK > "$TMP/ok"
	[ "$(wc -l < "$TMP/ok")" -ge 14 ] && pass ||
	    fail "TESTS-OK: fewer than 14 yespower lines"
	while IFS='|' read -r v n r pers hash; do
		hash=$(echo "$hash" | tr -d ' ')
		case $pers in
		NULL) expect "TESTS-OK $v $n $r NULL" 0 "$hash" "" \
			-- "$Y" -v "$v" -N "$n" -r "$r" "$src" ;;
		BSTY) expect "TESTS-OK $v $n $r BSTY" 0 "$hash" "" \
			-- "$Y" -v "$v" -N "$n" -r "$r" --pers-input "$src" ;;
		*) pers=${pers#\"}
			pers=${pers%\"}
			expect "TESTS-OK $v $n $r $pers" 0 "$hash" "" \
			    -- "$Y" -v "$v" -N "$n" -r "$r" --pers "$pers" \
			    "$src" ;;
		esac
	done < "$TMP/ok"

	# Targets, exit statuses and the quiet mode, on the Sugarchain
	# genesis header ($g): its hash is $gr, or $gd in display order.
	g=$GENESIS
	gr=$GENESIS_HASH
	gd=$(reverse_hex "$gr")
	expect "--reverse" 0 "$gd" "" -- sugar --reverse "$g"
	expect "target = hash" 0 "$gr meets" "" -- sugar --target "$gd" "$g"
	expect "target = hash - 1" 1 "$gr above" "" \
	    -- sugar --target "${gd%b}a" "$g"
	expect "short target" 1 "$gr above" "" -- sugar --target ff "$g"
	expect "--bits meets" 0 "$gr meets" "" -- sugar --bits 1f3fffff "$g"
	expect "--bits above" 1 "$gr above" "" -- sugar --bits 1d00ffff "$g"
	expect "-q meets" 0 "" "" -- sugar -q --bits 1f3fffff "$g"
	expect "-q above" 1 "" "" -- sugar -q --bits 1d00ffff "$g"
	expect "power2b by --b2b" 0 \
	    "$("$Y" --preset power2b "$g")" "" -- "$Y" --b2b \
	    --pers "Now I am become Death, the destroyer of worlds" "$g"
	expect "default parameters" 0 "$("$Y" --preset yespower "$g")" "" \
	    -- "$Y" "$g"
	expect "preset name case" 0 "$gr" "" \
	    -- "$Y" --preset YesPowerSugar "$g"
	expect "uppercase hex" 0 "$gr" "" \
	    -- sugar "$(echo "$g" | tr a-f A-F)"

	# Errors: one line naming the problem, status 2, nothing on stdout.
	expect "unknown preset" 2 "" "unknown preset 'nope'" \
	    -- "$Y" --preset nope "$g"
	expect "bad hex" 2 "" "invalid hex character 'g' at position 3" \
	    -- sugar 00g0
	expect "odd hex" 2 "" "odd number of hex digits (3)" -- sugar abc
	expect "bad argument 2" 2 "" "argument 2: odd number" \
	    -- sugar 00 abc
	expect "bad N" 2 "" "N must be a power of 2" -- "$Y" -N 3000 00
	expect "bad r" 2 "" "r must be from 8 to 32" -- "$Y" -r 7 00
	expect "bad version" 2 "" "version must be 5" -- "$Y" -v 7 00
	expect "b2b 0.5" 2 "" "needs version 10" -- "$Y" -v 5 --b2b 00
	expect "preset and -N" 2 "" "cannot be combined" \
	    -- sugar -N 2048 00
	expect "two pers" 2 "" "only one of" -- "$Y" --pers a --pers-hex 61 00
	expect "bad pers-hex" 2 "" "pers-hex: odd number" \
	    -- "$Y" --pers-hex 6 00
	expect "bad bits" 2 "" "give 8 hex digits" -- sugar --bits 1d00ff 00
	expect "negative bits" 2 "" "negative target" \
	    -- sugar --bits 1d800001 00
	expect "zero bits" 2 "" "target is zero" -- sugar --bits 1d000000 00
	expect "overflowing bits" 2 "" "overflows 256 bits" \
	    -- sugar --bits 2200ffff 00
	expect "65 digits, a leading zero" 0 "$gr meets" "" \
	    -- sugar --target "0$gd" "$g"
	expect "long target" 2 "" "does not fit 256 bits" \
	    -- sugar --target "1$gd" 00
	expect "zero target" 2 "" "target is zero" -- sugar --target 000 00
	expect "0x00800000 is zero, not negative" 2 "" "target is zero" \
	    -- sugar --bits 00800000 00
	expect "bad target" 2 "" "invalid hex character" \
	    -- sugar --target 0x1 00
	expect "target and bits" 2 "" "not both" \
	    -- sugar --target 1 --bits 1d00ffff 00
	expect "bad -j" 2 "" "give 1 to 1024 threads" -- "$Y" -j 0 00
	expect "unknown option" 2 "" "unknown option '--frobnicate'" \
	    -- "$Y" --frobnicate
	expect "unknown short option" 2 "" "unknown option '-x'" -- "$Y" -x
	# a byte of a UTF-8 letter, in a group: named, not another argument
	expect "non-ASCII short option" 2 "" "unknown option byte 0xc3" \
	    -- "$Y" -N 2048 -q$(printf '\303\251') 00
	expect "ambiguous option" 2 "" \
	    "ambiguous option '--p' (--preset, --pers, --pers-hex, --pers-input)" \
	    -- "$Y" --p x 00
	expect "value for a flag" 2 "" "option '--reverse=1' takes no value" \
	    -- "$Y" --reverse=1 00
	expect "missing argument" 2 "" "--preset needs an argument" \
	    -- "$Y" --preset

	# A batch goes on past bad lines: an empty output line and a message
	# naming each bad line; status 2 at the end.
	printf '%s\nzz\n0\n %s\r\n' "$g" "$g" > "$TMP/stdin"
	sugar < "$TMP/stdin" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc = 2 ] &&
	    [ "$(cat "$TMP/out")" = "$(printf '%s\n\n\n%s' "$gr" "$gr")" ] &&
	    grep -q "line 2: invalid hex character 'z' at position 1" "$TMP/err" &&
	    grep -q "line 3: odd number of hex digits (1)" "$TMP/err" &&
	    [ "$(wc -l < "$TMP/err")" = 2 ]; then
		pass
	else
		fail "batch with bad lines: status $rc; $(cat "$TMP/out" "$TMP/err")"
	fi
	: > "$TMP/stdin"
	printf '%s\n%s\n' "$g" "$g" > "$TMP/stdin"
	expect "batch --bits" 1 "$(printf '%s above\n%s above' "$gr" "$gr")" "" \
	    -- sugar --bits 1d00ffff
	expect "empty batch" 0 "" "" -- sugar
	printf '\n' > "$TMP/stdin"
	expect "empty line = empty input" 0 "$("$Y" "")" "" -- "$Y"

	# A co-process: each answer comes out before the next line goes in.
	if command -v timeout > /dev/null && command -v mkfifo > /dev/null; then
		mkfifo "$TMP/to" "$TMP/from"
		timeout 20 sh -c '
			"$1" -N 1024 -r 8 < "$2/to" > "$2/from" &
			exec 3> "$2/to" 4< "$2/from"
			echo 00 >&3; read -r a <&4
			echo 01 >&3; read -r b <&4
			exec 3>&-; wait
			[ "$a" = "$("$1" -N 1024 -r 8 00)" ] &&
			    [ "$b" = "$("$1" -N 1024 -r 8 01)" ]' \
		    sh "$Y" "$TMP" && pass ||
		    fail "co-process: no answer before the next input"
	fi

	# Information.
	expect "--list-presets" 0 "$("$Y" --list-presets)" "" \
	    -- "$Y" --list-presets
	for p in $(cut -d' ' -f1 "$TMP/chains" | sort -u); do
		grep -q "^$p " "$TMP/out" || fail "--list-presets lacks $p"
	done
	[ "$(wc -l < "$TMP/out")" = 15 ] && pass ||
	    fail "--list-presets: $(wc -l < "$TMP/out") lines, expected 15"
	"$Y" --version > "$TMP/out" &&
	    grep -q '^yespower (libyespower) [0-9][0-9.]*, implementation [a-z0-9-]*+[a-z0-9]*$' \
	    "$TMP/out" && pass || fail "--version: $(cat "$TMP/out")"
	"$Y" -h > "$TMP/out" && grep -q '^Usage: yespower' "$TMP/out" &&
	    grep -q -- '--list-presets' "$TMP/out" && pass || fail "-h"
	# Every long option the help names is one the tool takes.
	for o in $(grep -o -- '--[a-z][a-z-]*' "$TMP/out" | sort -u); do
		"$Y" "$o" 2>&1 | grep -q "unknown option" &&
		    fail "-h names $o, which the tool does not know"
	done
	pass

	suite_cli_io
}

# Input that cannot be read whole, and output that cannot be written.
suite_cli_io() {
	h00=$("$Y" -N 1024 -r 8 00) h11=$("$Y" -N 1024 -r 8 11)
	h22=$("$Y" -N 1024 -r 8 22)
	# A 200 MB line with 300 MB of address space: named, and the lines
	# after it still answered, in order; status 2.
	(ulimit -v 300000; (printf '00\n'; head -c 200000000 /dev/zero |
	    tr '\0' a; printf '\n11\n22\n') |
	    "$Y" -N 1024 -r 8 -j 1 > "$TMP/out" 2> "$TMP/err"; echo $? \
	    > "$TMP/rc")
	if [ "$(cat "$TMP/rc")" = 2 ] &&
	    [ "$(cat "$TMP/out")" = "$(printf '%s\n\n%s\n%s' "$h00" "$h11" \
	    "$h22")" ] && grep -q '^yespower: line 2: ' "$TMP/err" &&
	    [ "$(wc -l < "$TMP/err")" = 1 ]; then
		pass
	else
		fail "a 200 MB line: status $(cat "$TMP/rc"), $(head -c 300 \
		    "$TMP/err")"
	fi
	# Endless input is given up on, with a message: never a success.
	"$Y" -N 1024 -r 8 -j 1 < /dev/zero > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc = 2 ] && grep -q 'line 1: no end' "$TMP/err" && pass ||
	    fail "reading /dev/zero: status $rc, $(cat "$TMP/err")"
	# Output that fails stops everything at once, with a message: endless
	# input here, so not stopping would never end (timeout: a hang guard).
	if command -v timeout > /dev/null; then
		yes "$GENESIS" 2> /dev/null | timeout 300 "$Y" -N 1024 -r 8 -j 1 \
		    > /dev/full 2> "$TMP/err"
		rc=$?
		[ $rc = 2 ] && grep -q 'writing standard output: No space' \
		    "$TMP/err" && pass ||
		    fail "stdout /dev/full: status $rc, $(cat "$TMP/err")"
		(trap '' PIPE; yes 00 2> /dev/null | timeout 300 "$Y" -N 1024 -r 8 -j 2 \
		    2> "$TMP/err" | head -n 1 > /dev/null; echo $? > "$TMP/rc")
		grep -q 'writing standard output: Broken pipe' "$TMP/err" &&
		    pass || fail "EPIPE: $(cat "$TMP/err")"
	fi
	for a in --list-presets --version -h; do
		"$Y" $a > /dev/full 2> "$TMP/err"
		rc=$?
		[ $rc = 2 ] && grep -q 'writing standard output' "$TMP/err" &&
		    pass || fail "$a > /dev/full: status $rc, $(cat "$TMP/err")"
	done
}

# A program that uses the installed library: the Sugarchain genesis hash,
# through a preset and through yespower_tls().
write_program() {
	cat > "$TMP/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <yespower.h>

int main(void)
{
	static const char hex[] = "0100000000000000000000000000000000000000"
	    "00000000000000000000000000000000b050e156acdac2cada87b39ce5f137f5"
	    "b872901e6b9e1c1d41b09c572ace77767073555dffff3f1ff7000000";
	static const char pers[] = "Satoshi Nakamoto 31/Oct/2008 "
	    "Proof-of-work is essentially one-CPU-one-vote";
	yespower_params_t params = { YESPOWER_1_0, 2048, 32,
	    (const uint8_t *)pers, sizeof(pers) - 1 };
	yespower_binary_t a, b;
	uint8_t header[80];
	unsigned v;
	int i;

	for (i = 0; i < 80; i++) {
		sscanf(&hex[2 * i], "%2x", &v);
		header[i] = (uint8_t)v;
	}
	if (yespower_preset_hash(yespower_preset_find("yespowersugar"),
	    header, 80, &a) || yespower_tls(header, 80, &params, &b) ||
	    memcmp(&a, &b, sizeof(a)))
		return 1;
	for (i = 0; i < 32; i++)
		printf("%02x", a.uc[i]);
	printf("\n");
	return 0;
}
EOF
}


# Build the program with pkg-config and run it against the installed copy.
# check_program NAME LIBDIR [VAR=VALUE...]: the VARs for pkg-config.
check_program() {
	name=$1 libdir=$2
	shift 2
	if ! flags=$(env "$@" pkg-config --cflags --libs yespower) ||
	    ! $CC "$TMP/prog.c" -o "$TMP/prog" $flags > "$TMP/log" 2>&1; then
		fail "$name: building with pkg-config: $(cat "$TMP/log")"
		return
	fi
	readelf -d "$TMP/prog" | grep -q 'NEEDED.*\[libyespower\.so\.1\]' &&
	    pass || fail "$name: the program does not link libyespower.so.1"
	got=$(env LD_LIBRARY_PATH="$libdir" "$TMP/prog")
	[ "$got" = "$GENESIS_HASH" ] && pass ||
	    fail "$name: the program printed '$got'"
}

# Nothing left of directory $1 (what install made): no file, no link, no
# directory, but $1 itself if it existed before (a DESTDIR).
check_empty() {
	left=
	[ -e "$1" ] && left=$(find "$1" -mindepth 1)
	[ -z "$left" ] && pass || fail "$2: left behind: $left"
}

# ---- RandomX, installed as a stand-in for the reference's librandomx ----

# The light-mode answers of the reference's first test vector ("test key
# 000", "This is a test"; its src/tests/tests.cpp): v1, v2, and v2's
# commitment, as test/install/rx-installed.c prints them.
RX_ANSWERS="639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f
22ec6b861b3eb23686b2efbad69513c967ecfce80983df66c9c5b4fbfb4cdb6f
133be717399046b03ae82ce8ddd9d1ee4d3ea7fca03a50dec09b6848cbb98e18"

# The functions of the reference's randomx.h (v1.1.10's seventeen and
# v2.0's randomx_get_cache_memory and randomx_calculate_commitment): the
# library exports these and nothing else.
RX_API="randomx_alloc_cache randomx_alloc_dataset randomx_calculate_commitment
randomx_calculate_hash randomx_calculate_hash_first randomx_calculate_hash_last
randomx_calculate_hash_next randomx_create_vm randomx_dataset_item_count
randomx_destroy_vm randomx_get_cache_memory randomx_get_dataset_memory
randomx_get_flags randomx_init_cache randomx_init_dataset randomx_release_cache
randomx_release_dataset randomx_vm_set_cache randomx_vm_set_dataset"

# rx_run NAME PROGRAM [LIBDIR]: the program, with the installed shared
# library found in LIBDIR (if given), prints the published answers.
rx_run() {
	got=$(env ${3:+LD_LIBRARY_PATH="$3"} "$2" 2> "$TMP/err")
	[ "$got" = "$RX_ANSWERS" ] && pass ||
	    fail "$1: printed '$got' ($(head -c 300 "$TMP/err"))"
}

# rx_needs NAME PROGRAM LIBDIR: linked against librandomx.so.0, the
# installed SONAME, which the loader finds in LIBDIR (with LIBDIR on
# LD_LIBRARY_PATH, as rx_run runs it), not in the tree or the system.
rx_needs() {
	readelf -d "$2" | grep -q 'NEEDED.*\[librandomx\.so\.0\]' && pass ||
	    fail "$1: the program does not link librandomx.so.0"
	got=$(LD_LIBRARY_PATH="$3" ldd "$2" 2> /dev/null |
	    sed -n 's/^[[:space:]]*librandomx\.so\.0 => \([^ ]*\) .*/\1/p')
	[ "$got" = "$3/librandomx.so.0" ] && pass ||
	    fail "$1: librandomx.so.0 resolves to '$got', not $3/librandomx.so.0"
}

# check_randomx_files P: what install put under prefix P.
check_randomx_files() {
	for f in include/randomx.h lib/librandomx.a lib/librandomx.so.0.0.0 \
	    lib/pkgconfig/randomx.pc lib/cmake/RandomX/RandomXConfig.cmake \
	    lib/cmake/RandomX/RandomXConfigVersion.cmake; do
		[ -f "$1/$f" ] && [ ! -h "$1/$f" ] && pass ||
		    fail "install: no file $f"
	done
	# Debian's librandomx0 and librandomx-dev names.
	[ "$(readlink "$1/lib/librandomx.so.0")" = librandomx.so.0.0.0 ] &&
	    [ "$(readlink "$1/lib/librandomx.so")" = librandomx.so.0 ] &&
	    pass || fail "install: librandomx.so -> librandomx.so.0 ->" \
	    "librandomx.so.0.0.0 not there"
	readelf -d "$1/lib/librandomx.so.0.0.0" |
	    grep -q 'SONAME.*\[librandomx\.so\.0\]' && pass ||
	    fail "install: SONAME is not librandomx.so.0"
	cmp -s randomx/randomx.h "$1/include/randomx.h" && pass ||
	    fail "install: include/randomx.h is not randomx/randomx.h"

	# The reference's functions, all of them functions, nothing else.
	echo "$RX_API" | tr ' ' '\n' | sort > "$TMP/rx-api"
	nm -D --defined-only "$1/lib/librandomx.so.0.0.0" |
	    awk '{ print $NF }' | sed 's/@.*//' | sort > "$TMP/rx-exported"
	cmp -s "$TMP/rx-api" "$TMP/rx-exported" && pass ||
	    fail "librandomx exports other than the reference's functions:" \
	    "$(diff "$TMP/rx-api" "$TMP/rx-exported" | grep '^[<>]' |
	    tr '\n' ' ')"
	nm -D --defined-only "$1/lib/librandomx.so.0.0.0" |
	    awk '$2 != "T" { bad = 1 } END { exit bad }' && pass ||
	    fail "librandomx exports something other than functions"
	# And randomx.h declares exactly those.
	grep -E '^RANDOMX_EXPORT' randomx/randomx.h |
	    sed -E 's/^.*[ *](randomx_[a-z0-9_]*)\(.*$/\1/' | sort |
	    cmp -s - "$TMP/rx-api" && pass ||
	    fail "randomx/randomx.h does not declare the reference's functions"
}

# check_randomx_programs P LIBDIR [VAR=VALUE...]: the program built by
# pkg-config (the VARs for it), by plain -I/-L/-lrandomx, and with the
# static library; each prints the published answers.
check_randomx_programs() {
	p=$1 libdir=$2
	shift 2
	if flags=$(env "$@" pkg-config --cflags --libs randomx) &&
	    $CC -std=c11 test/install/rx-installed.c -o "$TMP/rx-pc" \
	    $flags > "$TMP/log" 2>&1; then
		rx_needs "pkg-config ($p)" "$TMP/rx-pc" "$libdir"
		rx_run "pkg-config ($p)" "$TMP/rx-pc" "$libdir"
	else
		fail "$p: building with pkg-config randomx: $(cat "$TMP/log")"
	fi
	env "$@" pkg-config --static --libs randomx | grep -q -- '-lpthread -lm' &&
	    pass || fail "$p: pkg-config --static --libs randomx lacks -lpthread -lm"
	if flags=$(env "$@" pkg-config --cflags randomx) &&
	    $CC -std=c11 $flags test/install/rx-installed.c \
	    -o "$TMP/rx-pc-static" "$libdir/librandomx.a" -lpthread -lm \
	    > "$TMP/log" 2>&1 &&
	    ! readelf -d "$TMP/rx-pc-static" | grep -q librandomx; then
		rx_run "librandomx.a ($p)" "$TMP/rx-pc-static"
	else
		fail "$p: building with librandomx.a: $(cat "$TMP/log")"
	fi
	if $CC -std=c11 -I"$(dirname "$libdir")/include" \
	    test/install/rx-installed.c -o "$TMP/rx-l" -L"$libdir" \
	    -lrandomx > "$TMP/log" 2>&1; then
		rx_needs "-lrandomx ($p)" "$TMP/rx-l" "$libdir"
		rx_run "-lrandomx ($p)" "$TMP/rx-l" "$libdir"
	else
		fail "$p: building with -lrandomx: $(cat "$TMP/log")"
	fi
}

# check_randomx_cmake P LIBDIR: find_package(RandomX) from prefix P.
check_randomx_cmake() {
	if ! command -v cmake > /dev/null; then
		skipped=$((skipped + 1))
		why="$why${why:+; }no cmake, find_package(RandomX) not built (apt-get install cmake)"
		return
	fi
	# CMake takes a compiler program, not a command: CC="cc -I..." or
	# "gcc -m32" gives it the program, and the words after it as flags.
	cc_prog=${CC%% *}
	cc_flags=${CC#"$cc_prog"}
	rm -rf "$TMP/cmake"
	if cmake -S test/install/cmake -B "$TMP/cmake" \
	    -DCMAKE_PREFIX_PATH="$1" -DCMAKE_C_COMPILER="$cc_prog" \
	    -DCMAKE_C_FLAGS="$cc_flags" \
	    > "$TMP/log" 2>&1 && cmake --build "$TMP/cmake" >> "$TMP/log" 2>&1
	then
		grep -q "^RandomX_DIR:PATH=$1/lib/cmake/RandomX\$" \
		    "$TMP/cmake/CMakeCache.txt" && pass ||
		    fail "cmake ($1): RandomX found elsewhere:" \
		    "$(grep ^RandomX_DIR "$TMP/cmake/CMakeCache.txt")"
		rx_needs "cmake ($1)" "$TMP/cmake/rx-installed-shared" "$2"
		rx_run "cmake RandomX::randomx ($1)" \
		    "$TMP/cmake/rx-installed-shared" "$2"
		rx_run "cmake RandomX::randomx_static ($1)" \
		    "$TMP/cmake/rx-installed-static"
	else
		fail "cmake with find_package(RandomX) ($1): $(tail -n 20 "$TMP/log")"
	fi
	# A later version than the library's is refused.
	if cmake -S test/install/cmake -B "$TMP/cmake-v3" -DRX_WANT=3.0 \
	    -DCMAKE_PREFIX_PATH="$1" -DCMAKE_C_COMPILER="$cc_prog" \
	    -DCMAKE_C_FLAGS="$cc_flags" \
	    > "$TMP/log" 2>&1; then
		fail "cmake: find_package(RandomX 3.0) was satisfied"
	else
		grep -q 'version: 2\.0\.0' "$TMP/log" && pass ||
		    fail "cmake: find_package(RandomX 3.0): $(tail -n 5 "$TMP/log")"
	fi
	rm -rf "$TMP/cmake" "$TMP/cmake-v3"
}

suite_install() {
	if ! command -v pkg-config > /dev/null; then
		skipped=1 why="no pkg-config: apt-get install pkg-config"
		return
	fi
	write_program
	version=$(build/yespower --version | sed 's/.*) \([^,]*\),.*/\1/')

	# 1. PREFIX only: a real temporary prefix.
	P=$TMP/prefix
	if ! $MAKE -s install PREFIX="$P" > "$TMP/log" 2>&1; then
		fail "make install PREFIX=$P: $(cat "$TMP/log")"
		return
	fi
	for f in include/yespower.h lib/libyespower.a lib/libyespower.so.1 \
	    bin/yespower lib/pkgconfig/yespower.pc; do
		[ -f "$P/$f" ] && [ ! -h "$P/$f" ] && pass ||
		    fail "install: no file $f"
	done
	[ "$(readlink "$P/lib/libyespower.so")" = libyespower.so.1 ] && pass ||
	    fail "install: lib/libyespower.so is not a link to libyespower.so.1"
	readelf -d "$P/lib/libyespower.so.1" |
	    grep -q 'SONAME.*\[libyespower\.so\.1\]' && pass ||
	    fail "install: SONAME is not libyespower.so.1"
	pc="PKG_CONFIG_PATH=$P/lib/pkgconfig"
	got=$(env "$pc" pkg-config --modversion yespower)
	[ "$got" = "$version" ] && pass ||
	    fail "pkg-config --modversion: '$got', not '$version'"
	env "$pc" pkg-config --static --libs yespower | grep -q -- -lpthread &&
	    pass || fail "pkg-config --static --libs lacks -lpthread"
	check_program "PREFIX=$P" "$P/lib" "$pc"
	check_randomx_files "$P"
	got=$(env "$pc" pkg-config --modversion randomx)
	[ "$got" = 2.0.0 ] && pass ||
	    fail "pkg-config --modversion randomx: '$got', not 2.0.0"
	check_randomx_programs "PREFIX=$P" "$P/lib" "$pc"
	check_randomx_cmake "$P" "$P/lib"
	got=$("$P/bin/yespower" --preset yespowersugar "$GENESIS")
	[ "$got" = "$GENESIS_HASH" ] && pass ||
	    fail "installed tool printed '$got'"

	# Exactly the functions of yespower.h and pow-hash.h are exported.
	{ grep -E '^[a-z].*[ *]yespower[a-z0-9_]*\(' yespower.h |
	    sed -E 's/^.*[ *](yespower[a-z0-9_]*)\(.*$/\1/'
	  grep -E '^[a-z].*[ *]pow_[a-z0-9_]*\(' hashes/pow-hash.h |
	    sed -E 's/^.*[ *](pow_[a-z0-9_]*)\(.*$/\1/'; } | sort > "$TMP/api"
	nm -D --defined-only "$P/lib/libyespower.so.1" |
	    awk '{ print $NF }' | sed 's/@.*//' | sort > "$TMP/exported"
	if [ "$(wc -l < "$TMP/api")" -ge 11 ] &&
	    cmp -s "$TMP/api" "$TMP/exported"; then
		pass
	else
		fail "exported symbols differ from the headers' functions:" \
		    "$(diff "$TMP/api" "$TMP/exported" | grep '^[<>]' | tr '\n' ' ')"
	fi
	nm -D --defined-only "$P/lib/libyespower.so.1" |
	    awk '$2 != "T" { bad = 1 } END { exit bad }' && pass ||
	    fail "the library exports something other than functions"

	if $MAKE -s uninstall PREFIX="$P" > "$TMP/log" 2>&1; then
		check_empty "$P" "make uninstall PREFIX=$P"
	else
		fail "make uninstall: $(cat "$TMP/log")"
	fi

	# 2. DESTDIR staging for PREFIX=/usr/local, as packagers do; the
	# program builds through pkg-config's sysroot.
	D=$TMP/stage
	if ! $MAKE -s install DESTDIR="$D" PREFIX=/usr/local \
	    > "$TMP/log" 2>&1; then
		fail "make install DESTDIR: $(cat "$TMP/log")"
		return
	fi
	grep -q '^prefix=/usr/local$' "$D/usr/local/lib/pkgconfig/yespower.pc" &&
	    pass || fail "DESTDIR: yespower.pc does not say prefix=/usr/local"
	check_program "DESTDIR=$D" "$D/usr/local/lib" \
	    "PKG_CONFIG_PATH=$D/usr/local/lib/pkgconfig" \
	    "PKG_CONFIG_SYSROOT_DIR=$D"
	check_randomx_programs "DESTDIR=$D" "$D/usr/local/lib" \
	    "PKG_CONFIG_PATH=$D/usr/local/lib/pkgconfig" \
	    "PKG_CONFIG_SYSROOT_DIR=$D"
	# The CMake package finds its files relative to itself.
	check_randomx_cmake "$D/usr/local" "$D/usr/local/lib"
	if $MAKE -s uninstall DESTDIR="$D" PREFIX=/usr/local \
	    > "$TMP/log" 2>&1; then
		check_empty "$D" "make uninstall DESTDIR=$D"
	else
		fail "make uninstall DESTDIR: $(cat "$TMP/log")"
	fi
}

# run_unittest DIR PYTHON [VAR=VALUE...]: the module's tests (yespower's,
# then RandomX's), run in DIR, quiet unless they fail.
run_unittest() {
	dir=$1 python=$2
	shift 2
	for t in test_yespower test_randomx; do
		run_one_unittest "$dir" "$python" "$t" "$@"
	done
}

run_one_unittest() {
	dir=$1 python=$2 test=$3
	shift 3
	if (cd "$dir" && env "$@" PYTHONDONTWRITEBYTECODE=1 "$python" \
	    "$ROOT/python/tests/$test.py" -v) > "$TMP/log" 2>&1; then
		n=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in.*/\1/p' "$TMP/log")
		nskip=$(sed -n 's/.*skipped=\([0-9]*\).*/\1/p' "$TMP/log")
		passed=$((passed + ${n:-0} - ${nskip:-0}))
		if [ "${nskip:-0}" != 0 ]; then
			skipped=$((skipped + nskip))
			# unittest's own words for each skip, once each.
			reasons=$(sed -n 's/.* skipped .\(.*\).$/\1/p' \
			    "$TMP/log" | sort -u | sed -e ':a' -e 'N;s/\n/; /;ta')
			why="$why${why:+; }$test: ${reasons:-see its -v output}"
		fi
	else
		cat "$TMP/log"
		fail "python $test with $python"
	fi
}

suite_python() {
	if ! command -v "$PYTHON" > /dev/null; then
		skipped=1 why="no $PYTHON"
		return
	fi
	run_unittest "$ROOT" "$PYTHON" \
	    YESPOWER_LIBRARY="$ROOT/libyespower.so.1" \
	    RANDOMX_LIBRARY="$RX_SO" \
	    PYTHONPATH="$ROOT/python:$ROOT/python/modules"
}

# The full mode (a 2080 MiB dataset) on its own: minutes.
suite_python_full() {
	if ! command -v "$PYTHON" > /dev/null; then
		skipped=1 why="no $PYTHON"
		return
	fi
	run_one_unittest "$ROOT" "$PYTHON" test_randomx \
	    YESPOWER_LIBRARY="$ROOT/libyespower.so.1" \
	    RANDOMX_LIBRARY="$RX_SO" \
	    PYTHONPATH="$ROOT/python:$ROOT/python/modules" RANDOMX_TEST_FULL=1
}

suite_python_pip() {
	V=$TMP/venv
	if ! "$PYTHON" -m venv "$V" > "$TMP/log" 2>&1; then
		cat "$TMP/log"
		fail "$PYTHON -m venv failed (apt-get install python3-venv)"
		return
	fi
	# The tree's own library built otherwise (with debugging
	# information): the package must build and ship one of its own.
	if ! $MAKE -s CFLAGS="-O1 -g" libyespower.so.1 > "$TMP/log" 2>&1; then
		cat "$TMP/log"
		fail "make CFLAGS=\"-O1 -g\" libyespower.so.1"
		return
	fi
	# The command the README gives, from the top of the checkout, with
	# --no-index to prove that nothing is downloaded.
	if ! "$V/bin/python" -m pip install --no-index \
	    --disable-pip-version-check ./python > "$TMP/log" 2>&1; then
		cat "$TMP/log"
		fail "pip install ./python"
		return
	fi
	pass
	shipped=$(find "$V" -name libyespower.so.1 | head -n 1)
	if [ -n "$shipped" ] && ! readelf -S "$shipped" | grep -q debug_info
	then
		pass
	else
		fail "pip install shipped the tree's libyespower.so.1 ($shipped)"
	fi
	$MAKE -s libyespower.so.1 > /dev/null 2>&1 ||
	    fail "make libyespower.so.1 (back to the default flags)"
	# Run from elsewhere, so that nothing is imported from the tree.
	(cd "$TMP" && "$V/bin/python" -c 'import yespower_hash, yespower
import yespower.randomx
print(yespower.library_path)
print(yespower.randomx.library_path)') > "$TMP/out" 2>&1 &&
	    grep -q "^$V/.*/yespower/libyespower.so.1$" "$TMP/out" &&
	    grep -q "^$V/.*/yespower/librandomx.so.0$" "$TMP/out" && pass ||
	    fail "installed module: $(cat "$TMP/out")"
	run_unittest "$TMP" "$V/bin/python" YESPOWER_TEST_INSTALLED=1
	if "$V/bin/python" -m pip uninstall -y yespower > "$TMP/log" 2>&1 &&
	    ! (cd "$TMP" && "$V/bin/python" -c 'import yespower' 2> /dev/null)
	then
		pass
	else
		fail "pip uninstall yespower: $(cat "$TMP/log")"
	fi
}

case ${1:-} in
cli) suite_cli ;;
install) suite_install ;;
python) suite_python ;;
python-pip) suite_python_pip ;;
python-full) suite_python_full ;;
*) echo "usage: sh tests-cli.sh cli|install|python|python-pip|python-full" \
	>&2; exit 2 ;;
esac
summary="$1: $passed passed, $failed failed"
[ "$skipped" = 0 ] || summary="$summary, $skipped skipped ($why)"
echo "$summary"
[ "$failed" = 0 ]
