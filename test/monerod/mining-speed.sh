#!/bin/sh
# mining-speed.sh: monerod's own mining speed (RPC mining_status) on this
# library and on Debian's librandomx0, read alternately.  A measurement,
# not a test: it asserts nothing and is in no make target's checks.
#
#   sh test/monerod/mining-speed.sh [THREADS [ROUNDS [READINGS]]]
#
# Two regtest daemons as in tests-monerod.sh (a on this library, b on
# Debian's), peers of each other on loopback, at a difficulty no hash here
# meets, so that the chain never moves and neither dataset is rebuilt.
# Both mine with THREADS threads (default 1) and build their datasets;
# then each round stops one daemon (SIGSTOP) while the other runs, takes
# READINGS readings (default 3) of the running one 10 s apart after 15 s
# to settle, and swaps.  Run from the top of the tree after `make`.

THREADS=${1:-1} ROUNDS=${2:-3} READINGS=${3:-3}
MAKE=${MAKE:-make}
ADDRESS=44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A

if [ -z "$MONEROD_TEST_NETNS" ] && command -v unshare > /dev/null &&
    unshare -n true 2> /dev/null; then
	MONEROD_TEST_NETNS=1 exec unshare -n sh "$0" "$@"
fi
[ "$MONEROD_TEST_NETNS" = 1 ] && ip link set lo up

die() { echo "mining-speed.sh: $*" >&2; exit 2; }
MONEROD=$(command -v monerod) || die "no monerod"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mining-speed.XXXXXX") || die "mktemp"
# A difficulty no hash here meets: the chain never moves.
DIFFICULTY=1000000000000 DAEMON_OPTS="--log-level 0"
. test/monerod/daemons.sh
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

$MAKE -s install-randomx DESTDIR="$TMP/stage" PREFIX=/usr LIBDIR=/usr/lib \
    > "$TMP/log" 2>&1 || { cat "$TMP/log"; exit 2; }

speed() {
	rpc "$1" mining_status | sed -n 's/^ *"speed": \([0-9]*\),*$/\1/p'
}
start a 18080 18081 18090 "$TMP/stage/usr/lib"
start b 18090 18091 18080 ""
for port in 18081 18091; do
	until rpc $port get_info | grep -q '"synchronized": true'; do
		sleep 1
	done
	rpc $port start_mining "{\"do_background_mining\":false,\"ignore_battery\":true,\"miner_address\":\"$ADDRESS\",\"threads_count\":$THREADS}" |
	    grep -q '"status": "OK"' || { echo "start_mining on $port failed"; exit 1; }
done
for n in a b; do
	echo "$n: $(awk '$6 ~ /librandomx/ { print $6 }' "/proc/$(cat "$TMP/$n.pid")/maps" | sort -u)"
done
# Both datasets built: each daemon reports a speed.
until [ "$(speed 18081)" -gt 0 ] 2> /dev/null &&
    [ "$(speed 18091)" -gt 0 ] 2> /dev/null; do
	sleep 5
done
echo "datasets built; $THREADS thread(s) each; machine: $(nproc) CPUs," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ $r -le "$ROUNDS" ]; do
	for n in a b; do
		if [ $n = a ]; then run=a stopped=b port=18081 lib=ours
		else run=b stopped=a port=18091 lib=Debian; fi
		kill -STOP "$(cat "$TMP/$stopped.pid")"
		kill -CONT "$(cat "$TMP/$run.pid")"
		sleep 15
		k=1 line=
		while [ $k -le "$READINGS" ]; do
			line="$line $(speed $port)"
			sleep 10
			k=$((k + 1))
		done
		echo "round $r, $lib: H/s$line (load $(cut -d' ' -f1 /proc/loadavg))"
	done
	r=$((r + 1))
done
