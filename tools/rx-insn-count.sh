#!/bin/sh
# rx-insn-count.sh: guest instructions per RandomX hash under qemu-aarch64,
# counted by the TCG plugin tools/rx-insn-count.c, for this library's
# AArch64 build (interpreter and JIT) and, if given, the reference's
# (tevador/RandomX built for aarch64 with its own cmake, outside this
# tree).  Light mode, key "test key 000", hard AES; v1 and v2.  An
# instruction count, not a speed (see the plugin's comment).
#
# Usage: rx-insn-count.sh BUILD-DIR QEMU-PLUGIN-INCLUDE [REF-BUILD REF-SRC]
#   BUILD-DIR   where to build (build/rx-insn-count)
#   QEMU-PLUGIN-INCLUDE   a directory with the installed QEMU's qemu-plugin.h
#   REF-BUILD   the reference's cmake build directory (its librandomx.a)
#   REF-SRC     the reference's src/ (its randomx.h)
# Environment: MAKE, RX_INSN_HASHES (hashes counted, 2), CC_A64
# (aarch64-linux-gnu-gcc), CXX_A64 (aarch64-linux-gnu-g++).
# For each run: "NAME vN: N insns per hash (image N, compiled N)", then
# the compiled code's 4 KiB pages with their counts, which tell the
# program loop from SuperscalarHash (two buffers here; in the reference
# one buffer, SuperscalarHash from the static code's size on).
set -u
cd "$(dirname "$0")/.." || exit 2
MAKE=${MAKE:-make}
dir=$1 inc=$2 refb=${3:-} refs=${4:-}
n=${RX_INSN_HASHES:-2}
cc=${CC_A64:-aarch64-linux-gnu-gcc} cxx=${CXX_A64:-aarch64-linux-gnu-g++}
mkdir -p "$dir" || exit 2

if [ ! -f "$inc/qemu-plugin.h" ]; then
	echo "rx-insn-count: no $inc/qemu-plugin.h (QEMU's plugin header of" \
	    "the installed version; see mk/randomx-a64.mk)"
	exit 1
fi
${CC:-cc} -O2 -Wall -Wextra -shared -fPIC -I"$inc" \
    -o "$dir/rx-insn-count.so" tools/rx-insn-count.c || exit 1
$MAKE -s B="$dir/lib" CC="$cc" CFLAGS=-O2 LDFLAGS=-static \
    "$dir/lib/randomx/librandomx.a" > "$dir/BUILD-LOG" 2>&1 || {
	tail -n 20 "$dir/BUILD-LOG"; exit 1; }
$cc -O2 -Irandomx -static -o "$dir/driver-ours" tools/rx-insn-driver.c \
    "$dir/lib/randomx/librandomx.a" -lpthread -lm || exit 1
drivers=ours
if [ -n "$refb" ]; then
	$cc -O2 -I"$refs" -c -o "$dir/driver-ref.o" \
	    tools/rx-insn-driver.c &&
	$cxx -static -o "$dir/driver-ref" "$dir/driver-ref.o" \
	    "$refb/librandomx.a" -lpthread || exit 1
	drivers="ours ref"
fi

# text DRIVER: the executable segment, LO:HI in hexadecimal
text() {
	aarch64-linux-gnu-readelf -lW "$1" | grep 'LOAD.*R E' |
	    { read -r _ _ v _ _ s _; printf '%x:%x' $((v)) $((v + s)); }
}

for d in $drivers; do
	for v in v1 v2; do
		vf=; [ $v = v2 ] && vf=--v2
		for mode in jit interp; do
			[ "$d" = ref ] && [ $mode = interp ] && continue
			mf=; [ $mode = jit ] && mf=--jit
			# shellcheck disable=SC2086
			out=$(qemu-aarch64 -plugin "$dir/rx-insn-count.so,text=$(text \
			    "$dir/driver-$d"),region=12" -d plugin \
			    "$dir/driver-$d" --hard-aes $mf $vf "$n" 2>&1) || {
				echo "$d $mode $v: failed"; echo "$out"; continue; }
			echo "$out" | awk -v name="$d-$mode $v" -v n="$n" '
			    /^insns:/ { printf "%s: %d insns per hash (image %d, compiled %d)\n", name, $2 / n, $4 / n, $6 / n }
			    /^region/ { printf "  page %s %d\n", $2, $3 / n }
			    /^[0-9a-f]+$/ { printf "  hash %s\n", $1 }'
		done
	done
done
