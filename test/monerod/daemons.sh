# daemons.sh: regtest monerods on loopback, for tests-monerod.sh and
# mining-speed.sh, which source it after setting:
#   MONEROD      the daemon to run
#   TMP          a scratch directory of their own (removed by cleanup)
#   DIFFICULTY   the fixed difficulty of every block
#   DAEMON_OPTS  further options for every daemon (may be empty)
# and defining die MESSAGE (say it and exit).
PIDS=

# cleanup: every daemon started here asked to stop (woken first, in case
# mining-speed.sh left it stopped), killed if it has not within 30 s, and
# the scratch directory removed.
cleanup() {
	for p in $PIDS; do
		kill -CONT "$p"
		kill "$p"
	done 2> /dev/null
	for p in $PIDS; do
		reap "$p" 30
	done
	rm -rf "$TMP"
}

# reap PID SECONDS: wait up to SECONDS for PID to exit, then kill it.
reap() {
	i=0
	while kill -0 "$1" 2> /dev/null && [ $i -lt "$2" ]; do
		sleep 1
		i=$((i + 1))
	done
	kill -9 "$1" 2> /dev/null
}

# rpc PORT METHOD [JSON]: the daemon's plain (non-JSON-RPC) endpoints,
# with CR taken out of its CRLF line ends.  The requests come from
# 127.0.0.2, another loopback address: a daemon that blocks its peer for a
# bad block blocks 127.0.0.1 (where the peer connects from), RPC included,
# and must still answer.
rpc() {
	curl -s --interface 127.0.0.2 --max-time 600 \
	    "http://127.0.0.1:$1/$2" ${3:+-d "$3"} | tr -d '\r'
}

# start NAME P2P-PORT RPC-PORT PEER-PORT LIBDIR [PRELOAD]: a regtest
# daemon whose only peer is 127.0.0.1:PEER-PORT, loading librandomx.so.0
# from LIBDIR (empty: the system's); its pid in $TMP/NAME.pid, its log in
# $TMP/NAME.log.  Returns once it answers RPC.
start() {
	n=$1 p2p=$2 rpc=$3 peer=$4 libdir=$5 preload=$6
	mkdir -p "$TMP/$n"
	# shellcheck disable=SC2086 # DAEMON_OPTS is a list of options
	env ${libdir:+LD_LIBRARY_PATH="$libdir"} ${preload:+LD_PRELOAD="$preload"} \
	    "$MONEROD" --regtest --fixed-difficulty "$DIFFICULTY" \
	    --data-dir "$TMP/$n" --non-interactive \
	    --no-igd --disable-dns-checkpoints --check-updates disabled \
	    --p2p-bind-ip 127.0.0.1 --p2p-bind-port "$p2p" \
	    --rpc-bind-ip 127.0.0.1 --rpc-bind-port "$rpc" --no-zmq \
	    --add-exclusive-node "127.0.0.1:$peer" $DAEMON_OPTS \
	    > "$TMP/$n.log" 2>&1 &
	echo $! > "$TMP/$n.pid"
	PIDS="$PIDS $!"
	i=0
	until rpc "$rpc" get_info | grep -q '"status": "OK"'; do
		kill -0 "$(cat "$TMP/$n.pid")" 2> /dev/null ||
		    die "$n exited: $(tail -n 5 "$TMP/$n.log")"
		[ $i -lt 120 ] || die "$n: no RPC after 120 s"
		sleep 1
		i=$((i + 1))
	done
}
