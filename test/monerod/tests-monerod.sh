#!/bin/sh
# tests-monerod.sh: Debian's monerod (package monero, 0.18) on this
# library in place of Debian's librandomx0, by the loader's search path
# (LD_LIBRARY_PATH), not by relinking.  `make check-monerod` runs it.
#
# Two daemons in regtest mode at a fixed difficulty, each the other's only
# peer: A loads this library (installed by `make install DESTDIR=...`), B
# Debian's.  A mines in light mode (RPC generateblocks) and in full mode
# (start_mining: the dataset built on the miner's threads) and B must
# accept every block; then B mines both ways and A must accept.  Then A is
# restarted with test/monerod/flip-hash.c preloaded (one bit of every hash
# flipped) and B must reject the block it mines: the acceptance above is
# not one the test would have seen anyway.
#
# Loopback only: when it may (root or user namespaces), the script runs
# itself again in a new network namespace whose only interface is lo, so
# no other address can be reached at all; elsewhere the daemons' options
# alone keep them there (p2p and RPC on 127.0.0.1, no seed nodes, no DNS
# checkpoints or blocklist, no update checks, no UPnP).  Either way the
# daemons' sockets are checked at the end.
#
# It never skips: without monerod, Debian's librandomx0 or curl it fails
# and says what to install.  The daemons and their data are removed
# however it exits.  Usage: sh tests-monerod.sh (from the top of the tree,
# after `make`); MAKE and CC as for make.  About two minutes of CPU, most
# of it the two 2 GiB datasets, and some 5 GiB of memory at the peak.

MAKE=${MAKE:-make}
CC=${CC:-cc}
NAME=monerod
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }
note() { echo "$NAME: $*"; }
summary() {
	echo "$NAME: $passed passed, $failed failed"
	[ $failed = 0 ] && [ $passed -gt 0 ]
}
die() { fail "$*"; summary; exit 1; }

# The difficulty every block must meet.  monerod's generateblocks hashes in
# light mode at a difficulty of 100 or less (and builds the dataset above
# it), so 100 is the highest that keeps the light-mode part light.  A hash
# that is wrong but random passes it once in 100 blocks; the blocks here
# (dozens per library) all pass by chance about never; and the negative
# control's hash fails it every time (see flip-hash.c).
DIFFICULTY=${MONEROD_DIFFICULTY:-100}
LIGHT_BLOCKS=${MONEROD_LIGHT_BLOCKS:-2}
FULL_BLOCKS=${MONEROD_FULL_BLOCKS:-10}
# The Monero Project's general fund (a valid main-network address, which
# regtest takes): the coinbase of the blocks mined here goes nowhere real.
ADDRESS=44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A

# ---- a network namespace of our own, where allowed ----

if [ -z "$MONEROD_TEST_NETNS" ] && command -v unshare > /dev/null &&
    unshare -n true 2> /dev/null; then
	MONEROD_TEST_NETNS=1 exec unshare -n sh "$0" "$@"
elif [ -z "$MONEROD_TEST_NETNS" ] && command -v unshare > /dev/null &&
    unshare -rn true 2> /dev/null; then
	MONEROD_TEST_NETNS=1 exec unshare -rn sh "$0" "$@"
fi
if [ "$MONEROD_TEST_NETNS" = 1 ]; then
	ip link set lo up 2> /dev/null ||
	    die "cannot bring lo up in the new network namespace"
	note "in a network namespace of its own (interfaces:" \
	    "$(ip -o link | awk -F': ' '{ print $2 }' | tr '\n' ' '))"
else
	note "on the host's network (no unshare -n here):" \
	    "loopback by the daemons' options only"
fi

# ---- what it needs ----

MONEROD=$(command -v monerod) ||
    die "no monerod: apt-get install monero (Debian's 0.18 package)"
command -v curl > /dev/null || die "no curl: apt-get install curl"
DEBIAN_RX=$(ldd "$MONEROD" | sed -n 's/^[[:space:]]*librandomx\.so\.0 => \([^ ]*\) .*/\1/p')
[ -n "$DEBIAN_RX" ] && [ -f "$DEBIAN_RX" ] ||
    die "$MONEROD does not find librandomx.so.0: apt-get install librandomx0"
DEBIAN_RX=$(readlink -f "$DEBIAN_RX")
note "monerod $($MONEROD --version 2>/dev/null | tr -d '\r' | tail -n 1)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tests-monerod.XXXXXX") || die "mktemp"
# Kept: the fake chain between restarts; at most two threads of verification;
# no ban on the peer that sends the negative control's block; only
# verification errors logged (the negative control reads them).
DAEMON_OPTS="--keep-fakechain --max-concurrency 2 --disable-rpc-ban --log-level 0,verify:ERROR"
. test/monerod/daemons.sh
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# This library as `make install` puts it, in a staging directory.
if ! $MAKE -s install-randomx DESTDIR="$TMP/stage" PREFIX=/usr \
    LIBDIR=/usr/lib > "$TMP/log" 2>&1; then
	die "make install-randomx: $(cat "$TMP/log")"
fi
OURS_DIR=$TMP/stage/usr/lib
OURS_RX=$(readlink -f "$OURS_DIR/librandomx.so.0")
[ -f "$OURS_RX" ] || die "make install left no librandomx.so.0"
# The negative control's shim.
$CC -shared -fPIC -o "$TMP/flip-hash.so" test/monerod/flip-hash.c -ldl \
    > "$TMP/log" 2>&1 || die "building flip-hash.so: $(cat "$TMP/log")"

# ---- daemons (start, rpc, reap, cleanup: daemons.sh) ----

# stop NAME
stop() {
	p=$(cat "$TMP/$1.pid")
	kill "$p"
	reap "$p" 60
	PIDS=$(echo "$PIDS" | sed "s/ $p\b//")
}

# json PORT METHOD [PARAMS]: the daemon's /json_rpc endpoints (rpc is
# daemons.sh's), from 127.0.0.2 as rpc's.
json() {
	curl -s --interface 127.0.0.2 --max-time 600 \
	    "http://127.0.0.1:$1/json_rpc" -d \
	    "{\"jsonrpc\":\"2.0\",\"id\":\"0\",\"method\":\"$2\",\"params\":${3:-{\}}}" |
	    tr -d '\r'
}
# field NAME: the value of "NAME" in the JSON on standard input.
field() {
	sed -n "s/^ *\"$1\": \"*\([^\",]*\)\"*,*\$/\1/p" | head -n 1
}
height() { rpc "$1" get_info | field height; }
top() { rpc "$1" get_info | field top_block_hash; }
rss_mib() {
	kb=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status")
	echo $((${kb:-0} / 1024))
}

# loaded NAME WANT: the one librandomx the daemon mapped is WANT.
loaded() {
	p=$(cat "$TMP/$1.pid")
	got=$(awk '$6 ~ /librandomx/ { print $6 }' "/proc/$p/maps" | sort -u)
	note "$1 (pid $p) maps: $got"
	[ "$got" = "$2" ] && pass || fail "$1 loaded '$got', not '$2'"
}

# connected PORT: wait until the daemon has its peer.
connected() {
	i=0
	until rpc "$1" get_info | grep -Eq '"(incoming|outgoing)_connections_count": [1-9]'; do
		[ $i -lt 120 ] || { fail "port $1: no peer after 120 s"; return 1; }
		sleep 1
		i=$((i + 1))
	done
}

# agree MINER VERIFIER WHAT: wait up to 120 s for the verifier to reach the
# miner's height and top block.
agree() {
	h=$(height "$1") t=$(top "$1")
	i=0
	while [ "$(height "$2")" != "$h" ] || [ "$(top "$2")" != "$t" ]; do
		if [ $i -ge 120 ]; then
			fail "$3: verifier at height $(height "$2") top" \
			    "$(top "$2"), miner at $h top $t"
			return 1
		fi
		sleep 1
		i=$((i + 1))
	done
	note "$3: both at height $h, top $t"
	pass
}

# light MINER-NAME MINER-PORT VERIFIER-PORT: generateblocks, no dataset.
light() {
	h0=$(height "$2")
	s=$(date +%s)
	out=$(json "$2" generateblocks "{\"amount_of_blocks\":$LIGHT_BLOCKS,\"wallet_address\":\"$ADDRESS\"}")
	echo "$out" | grep -q '"status": "OK"' ||
	    { fail "$1 generateblocks: $out"; return; }
	h1=$(height "$2")
	[ "$h1" = $((h0 + LIGHT_BLOCKS)) ] && pass ||
	    fail "$1: height $h1 after $LIGHT_BLOCKS blocks on $h0"
	rss=$(rss_mib "$(cat "$TMP/$1.pid")")
	note "$1 light mode: $LIGHT_BLOCKS blocks in $(($(date +%s) - s)) s," \
	    "resident $rss MiB"
	# No dataset: a light-mode daemon holds the 256 MiB cache, not 2 GiB.
	[ "$rss" -lt 1536 ] && pass ||
	    fail "$1: $rss MiB resident in light mode (a dataset?)"
	agree "$2" "$3" "$1 light mode"
}

# full MINER-NAME MINER-PORT VERIFIER-PORT: start_mining on two threads
# until FULL_BLOCKS more blocks, the dataset resident.
full() {
	h0=$(height "$2")
	s=$(date +%s)
	out=$(rpc "$2" start_mining "{\"do_background_mining\":false,\"ignore_battery\":true,\"miner_address\":\"$ADDRESS\",\"threads_count\":2}")
	echo "$out" | grep -q '"status": "OK"' ||
	    { fail "$1 start_mining: $out"; return; }
	maxrss=0 speeds= first=
	i=0
	while [ "$(height "$2")" -lt $((h0 + FULL_BLOCKS)) ]; do
		[ $i -lt 400 ] || break
		sleep 1
		i=$((i + 1))
		rss=$(rss_mib "$(cat "$TMP/$1.pid")")
		[ "$rss" -gt "$maxrss" ] && maxrss=$rss
		[ -z "$first" ] && [ "$(height "$2")" -gt "$h0" ] &&
		    first=$(($(date +%s) - s))
		sp=$(rpc "$2" mining_status | field speed)
		[ -n "$sp" ] && [ "$sp" != 0 ] && speeds="$speeds $sp"
	done
	rpc "$2" stop_mining > /dev/null
	h1=$(height "$2")
	note "$1 full mode: $((h1 - h0)) blocks in $(($(date +%s) - s)) s" \
	    "(first after ${first:-?} s: the dataset), resident up to" \
	    "$maxrss MiB; mining_status speeds (H/s):$speeds"
	[ "$h1" -ge $((h0 + FULL_BLOCKS)) ] && pass ||
	    fail "$1: $((h1 - h0)) blocks mined in full mode, not $FULL_BLOCKS"
	# The 2080 MiB dataset was there.
	[ "$maxrss" -ge 2048 ] && pass ||
	    fail "$1: at most $maxrss MiB resident while mining (no dataset?)"
	agree "$2" "$3" "$1 full mode"
}

s0=$(date +%s)
start a 18080 18081 18090 "$OURS_DIR"
start b 18090 18091 18080 ""
loaded a "$OURS_RX"
loaded b "$DEBIAN_RX"
connected 18081 && connected 18091 || die "the daemons never connected"
note "started and connected in $(($(date +%s) - s0)) s"

# This library mines, Debian's accepts; then the other way round.
light a 18081 18091
full a 18081 18091
light b 18091 18081
full b 18091 18081

# The negative control: A restarted with the flipped hash.
stop a
start a 18080 18081 18090 "$OURS_DIR" "$TMP/flip-hash.so"
awk '$6 ~ /flip-hash/ { found = 1 } END { exit !found }' \
    "/proc/$(cat "$TMP/a.pid")/maps" && pass ||
    fail "a: flip-hash.so is not loaded"
connected 18081
hb=$(height 18091) tb=$(top 18091)
out=$(json 18081 generateblocks "{\"amount_of_blocks\":1,\"wallet_address\":\"$ADDRESS\"}")
echo "$out" | grep -q '"status": "OK"' && [ "$(height 18081)" = $((hb + 1)) ] &&
    pass || fail "flipped a: generateblocks: $out"
# B must refuse it for its proof of work (its "verify" log category, at
# ERROR, says so): wait for its word, then for anything that would still
# make it move.
i=0
until grep -q 'not have enough proof of work' "$TMP/b.log"; do
	[ $i -lt 120 ] || break
	sleep 1
	i=$((i + 1))
done
sleep 5
grep -m 1 'not have enough proof of work' "$TMP/b.log" | sed "s/^/$NAME: b: /"
grep -q 'not have enough proof of work' "$TMP/b.log" && pass ||
    fail "b did not reject the flipped block for its proof of work"
[ "$(height 18091)" = "$hb" ] && [ "$(top 18091)" = "$tb" ] && pass ||
    fail "b moved to height $(height 18091) top $(top 18091) from $hb $tb"

# Nothing but loopback: every socket either daemon holds is on 127.0.0.1.
if command -v ss > /dev/null; then
	for n in a b; do
		p=$(cat "$TMP/$n.pid")
		ss -tuanp 2> /dev/null | grep "pid=$p," > "$TMP/ss.$n"
		bad=$(awk '{ print $5, $6 }' "$TMP/ss.$n" | tr ' ' '\n' |
		    grep -Ev '^(127\.0\.0\.[12]:[0-9]+|\*|0\.0\.0\.0:\*)$')
		[ -s "$TMP/ss.$n" ] && [ -z "$bad" ] && pass ||
		    fail "$n: sockets other than loopback: $bad"
	done
elif [ "$MONEROD_TEST_NETNS" = 1 ]; then
	note "no ss (iproute2): the daemons' sockets not listed; the" \
	    "namespace had no interface but lo"
else
	fail "neither a network namespace nor ss: loopback-only not shown" \
	    "(apt-get install iproute2)"
fi
note "total $(($(date +%s) - s0)) s"
summary
