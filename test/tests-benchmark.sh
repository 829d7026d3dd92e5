#!/bin/sh
# tests-benchmark.sh: the benchmark's command line, output and JSON.
#
# Usage: tests-benchmark.sh [BENCHMARK]   (default ./benchmark)
#
# Run by `make check` (check-benchmark).  Every check either passes or
# prints FAILED and makes the exit status 1; nothing is skipped (python3,
# which checks the JSON, is required).  The documents are collected and
# checked by one python3 at the end: starting one can cost a second.

B=${1:-./benchmark}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail()
{
	echo "benchmark: FAILED: $*"
	failures=$((failures + 1))
}

pass()
{
	checks=$((checks + 1))
}

if ! command -v python3 >/dev/null 2>&1; then
	echo "benchmark: 0 passed, 1 failed (python3 is needed to check the JSON)"
	exit 1
fi
if [ ! -x "$B" ]; then
	echo "benchmark: 0 passed, 1 failed (no program $B)"
	exit 1
fi

# bad TOKEN ARGS...: exit status 2, nothing on stdout, one line on stderr
# that names TOKEN.  (Shell built-ins only: a process costs time here.)
bad()
{
	token=$1
	shift
	"$B" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	lines=0
	msg=
	while IFS= read -r l; do
		lines=$((lines + 1))
		msg=$l
	done <"$TMP/err"
	if [ "$rc" != 2 ]; then
		fail "benchmark $*: exit status $rc, not 2"
	elif [ -s "$TMP/out" ]; then
		fail "benchmark $*: printed on stdout"
	elif [ "$lines" != 1 ]; then
		fail "benchmark $*: $lines lines on stderr, not 1"
	else
		case $msg in
		*"$token"*) pass ;;
		*) fail "benchmark $*: the message does not name $token: $msg" ;;
		esac
	fi
}

# doc LABEL FILE PYTHON: keep FILE, to be checked at the end by PYTHON,
# which sees the file's text as text and its JSON (or None) as d, and calls
# need(condition, what) for each property.
ndocs=0
doc()
{
	ndocs=$((ndocs + 1))
	printf '%s' "$1" >"$TMP/label.$ndocs"
	cp "$2" "$TMP/doc.$ndocs"
	printf '%s' "$3" >"$TMP/code.$ndocs"
}

# Run every doc check in one python3, and count its results.
check_docs()
{
	python3 - "$TMP" "$ndocs" >"$TMP/pyout" 2>&1 <<'PYTHON'
import json, re, sys
tmp, n = sys.argv[1], int(sys.argv[2])
def num(x):
	return type(x) in (int, float)
for i in range(1, n + 1):
	label = open("%s/label.%d" % (tmp, i)).read()
	text = open("%s/doc.%d" % (tmp, i)).read()
	try:
		d = json.loads(text)
	except ValueError:
		d = None
	errors = []
	def need(cond, what):
		if not cond:
			errors.append(what)
	try:
		exec(open("%s/code.%d" % (tmp, i)).read())
	except Exception as e:
		errors.append("%s: %s" % (type(e).__name__, e))
	print("%s %s%s" % ("FAIL" if errors else "PASS", label,
	    ": " + "; ".join(errors) if errors else ""))
PYTHON
	n=0
	while IFS= read -r l; do
		case $l in
		PASS*) pass; n=$((n + 1)) ;;
		FAIL*) fail "${l#FAIL }"; n=$((n + 1)) ;;
		*) fail "python3: $l" ;;
		esac
	done <"$TMP/pyout"
	[ "$n" = "$ndocs" ] || fail "only $n of $ndocs documents were checked"
}

# line N FILE: the N-th line of FILE.
line()
{
	sed -n "$1p" "$2"
}


# ---- arguments ----
"$B" -h >"$TMP/out" 2>"$TMP/err"
rc=$?
IFS= read -r l <"$TMP/out"
if [ "$rc" = 0 ] && [ "${l#usage: benchmark}" != "$l" ] &&
    [ ! -s "$TMP/err" ]; then
	pass
else
	fail "benchmark -h: exit status $rc, or no usage on stdout"
fi
"$B" --help >/dev/null 2>&1 && pass || fail "benchmark --help: exit status $?"
"$B" --list-presets >"$TMP/out" 2>&1 && grep -q '^yespowerr16 ' "$TMP/out" &&
    pass || fail "benchmark --list-presets"

bad "'7'" 7
bad "'1000'" 10 1000
bad "'1536'" 10 1536
bad "'524289'" 10 524289
bad "'7'" 10 2048 7
bad "'33'" 10 2048 33
bad "'x'" x
bad "'abc'" 10 abc
bad "'8x'" 10 2048 8x
bad "'+10'" +10
bad "'9'" 10 2048 8 9
bad "''" -t ''
bad "'0'" -t 0
bad "'1,,2'" -t 1,,2
bad "'1,'" -t 1,
bad "'4-2'" -t 4-2
bad "'1-'" -t 1-
bad "'a'" -t a
bad "'-2'" -t -2
bad "'100000'" -t 100000
bad "'-t'" -t
bad "'abc'" -s abc
bad "'-1'" -s -1
bad "'nan'" -s nan
bad "'inf'" -s inf
bad "'1e999'" -s 1e999
bad "'-s'" -s
bad "'0x10'" -s 0x10
bad "'0x1p-10'" -w 0x1p-10
bad "'x'" -w x
bad "'--bogus'" --bogus
bad "'-x'" -x
bad "'--json=1'" --json=1
bad "'0g'" --pers-hex 0g
bad "'abc'" --pers-hex abc
bad "'nosuch'" --preset nosuch
bad "'weird'" --affinity weird
bad "CPU 4095" --affinity 4095
bad "'nosuch'" --impl nosuch
bad "--no-pers" --pers a --no-pers
bad "--pers-hex" --no-pers --pers-hex 00
bad "'10'" --preset yespower 10
bad "'0'" --batch 0
bad "'65'" --batch 65
bad "'x'" --batch x
bad "--batch" --batch 2 --preset yescrypt
bad "--batch" --batch 2 --components
bad "--pers" --preset yespower --pers x
bad "--b2b" --preset power2b --b2b
bad "'5'" 5 --b2b
bad "--ghz" --ghz 3
bad "--hashes" --hashes 10
bad "'x'" --hashes --only x
bad "'5-3'" --hashes --merkle 5-3
bad "'4294967296-1'" --hashes --merkle 4294967296-1
bad "' 0-1'" --hashes --merkle " 0-1"
bad "--merkle" --merkle 0-0
bad "'1e400'" --hashes --ghz 1e400
bad "(0 to 100)" --hashes --ghz 100000
# more threads from OpenMP than a run takes (the RandomX dataset build
# keeps an array of BENCH_MAX_THREADS)
omp_was=${OMP_NUM_THREADS-unset}
OMP_NUM_THREADS=1500
export OMP_NUM_THREADS
bad "1500 threads" -s 0 5
bad "1500 threads" --randomx --full -s 0
if [ "$omp_was" = unset ]; then
	unset OMP_NUM_THREADS
else
	OMP_NUM_THREADS=$omp_was
fi
bad "--v2" --v2
bad "--full" --full 10
bad "'10'" --randomx 10
bad "--preset" --randomx --preset yespower
bad "--b2b" --randomx --b2b
bad "--seed" --seed 1
bad "--nonces" --nonces 1
bad "--init" --init 2
bad "'2147483648'" --randomx --seed 2147483648
bad "'-2147483649'" --randomx --seed -2147483649
bad "'+1'" --randomx --seed +1
bad "'0x10'" --randomx --seed 0x10
bad "'0'" --randomx --nonces 0
bad "'2147483648'" --randomx --nonces 2147483648
bad "'0'" --randomx --init 0
bad "'1025'" --randomx --init 1025
bad "-s conflicts with --nonces" --randomx --nonces 1 -s 1
bad "--batch conflicts with --nonces" --randomx --nonces 1 --batch 2
bad "--json conflicts with --nonces" --randomx --nonces 1 --json
bad "--components conflicts with --nonces" --randomx --nonces 1 --components

# ---- the original's output, first hashes ----
# Verified with openwall yespower's own benchmark: the hash of bytes i * 3
# (i = 0 .. 79), personalization "Client Key", N 2048, r 8.
H10='d0 78 cd d4 cf 3f 5a a8 4e 3c 4a 58 66 29 81 d8 2d 27 e5 67 36 37 c4 be 77 63 61 32 24 c1 8a 93'
H5='a5 9f ec 4c 4f dd a1 6e 3b 14 05 ad da 66 d5 25 b6 8e 7c ad fc fe 6a c0 66 c7 ad 11 8c d8 05 90'

# first ARGS...: run a minimal benchmark; $hash is its first hash and
# $TMP/out its output.
first()
{
	"$B" "$@" -t 1 -s 0 >"$TMP/out" 2>&1 || fail "benchmark $*: exit $?"
	hash=$(line 3 "$TMP/out")
}

first 10 2048 8
[ "$hash" = "$H10" ] && pass || fail "benchmark 10 2048 8: first hash $hash"
first 10
[ "$hash" = "$H10" ] && pass || fail "benchmark 10: first hash $hash"
first
[ "$hash" = "$H5" ] && pass || fail "benchmark: first hash $hash"
[ "$(line 1 "$TMP/out")" = 'version=0.5 N=2048 r=8' ] && pass ||
    fail "benchmark: first line $(line 1 "$TMP/out")"
first --pers-hex 436c69656e74204b6579
[ "$hash" = "$H5" ] && pass || fail "--pers-hex of \"Client Key\": $hash"
first --pers 'Client Key'
[ "$hash" = "$H5" ] && pass || fail "--pers \"Client Key\": $hash"
first --preset yescryptr8
[ "$hash" = "$H5" ] && pass ||
    fail "--preset yescryptr8 differs from 5 2048 8 \"Client Key\": $hash"
first --no-pers
[ "$hash" != "$H5" ] && pass || fail "--no-pers gives \"Client Key\"'s hash"
first --b2b 10 2048 32 --pers 'Now I am become Death, the destroyer of worlds'
p2b=$hash
grep -q 'blake2b' "$TMP/out" && pass || fail "--b2b does not say blake2b"
first --preset power2b
[ "$hash" = "$p2b" ] && pass ||
    fail "--b2b with power2b's parameters differs from --preset power2b"

# The original's lines, per thread count, with OMP_NUM_THREADS as before.
OMP_NUM_THREADS=2 "$B" 10 1024 8 -s 0.2 >"$TMP/orig" 2>"$TMP/err" ||
    fail "OMP_NUM_THREADS=2 benchmark 10 1024 8: exit status $?"
[ -s "$TMP/err" ] && fail "progress or messages on a non-terminal stderr"
doc "the original's output shape" "$TMP/orig" '
out = text.split("\n")
hexes = " ".join(["[0-9a-f]{2}"] * 32)
need(out[0] == "version=1.0 N=1024 r=8", out[0])
need(out[1] == "Will use 1024.00 KiB RAM", out[1])
need(re.fullmatch(hexes, out[2]), out[2])
runs = [i for i, l in enumerate(out) if l.startswith("Benchmarking")]
need([out[i] for i in runs] == ["Benchmarking 1 thread ...",
    "Benchmarking 2 threads ..."], "Benchmarking lines %r" % runs)
for i in runs:
	need(re.fullmatch(r"[1-9][0-9]* H/s real, [0-9]+ H/s virtual "
	    r"\([0-9]+ hashes in [0-9]+\.[0-9]{2} seconds\)", out[i + 1]),
	    out[i + 1])
	need(re.fullmatch(r"min [0-9.]+ ms, avg [0-9.]+ ms, max [0-9.]+ ms",
	    out[i + 2]), out[i + 2])
need("verified" in "\n".join(out[runs[-1]:]), "no verification line")'

# ---- JSON ----
"$B" 10 1024 8 -t 1,2 -s 0.3 --json >"$TMP/j" 2>"$TMP/err" ||
    fail "benchmark 10 1024 8 -t 1,2 -s 0.3 --json: exit status $?"
[ -s "$TMP/err" ] && fail "--json wrote on stderr: $(cat "$TMP/err")"
doc "JSON of 10 1024 8 -t 1,2 -s 0.3" "$TMP/j" '
need(d is not None, "not JSON")
for k, t in [("version", int), ("N", int), ("r", int), ("pers", str),
    ("pers_hex", str), ("first_hash", str), ("implementation", str),
    ("hash_function", str), ("memory_per_hash_bytes", int),
    ("machine", dict), ("runs", list), ("mismatches", int), ("ok", bool),
    ("affinity", str)]:
	need(type(d.get(k)) is t, "top-level %s is not %s" % (k, t.__name__))
need(num(d.get("seconds")) and d["seconds"] == 0.3, "seconds")
need((d["version"], d["N"], d["r"]) == (10, 1024, 8), "parameters")
need(d["pers"] == "Client Key", "pers")
need(d["pers_hex"] == "436c69656e74204b6579", "pers_hex")
need(len(d["first_hash"]) == 64, "first_hash")
need(d["memory_per_hash_bytes"] >= 128 * 1024 * 8, "memory per hash")
m = d["machine"]
need(type(m.get("cpus_online")) is int and m["cpus_online"] >= 1,
    "machine.cpus_online")
need(type(m.get("omp_max_threads")) is int and m["omp_max_threads"] >= 1,
    "machine.omp_max_threads")
need(type(m.get("cpu_model")) is str and m["cpu_model"], "cpu_model")
need(type(m.get("cpus_allowed")) is str and m["cpus_allowed"],
    "cpus_allowed")
need(d["ok"] is True and d["mismatches"] == 0, "ok/mismatches")
runs = d["runs"]
need([r.get("threads") for r in runs] == [1, 2], "runs threads")
for r in runs:
	t = r.get("threads")
	need(type(r.get("hashes")) is int and r["hashes"] > 0, "hashes")
	for k in ("seconds", "cpu_seconds", "hs_real", "hs_virtual"):
		need(num(r.get(k)) and r[k] > 0, "%d threads: %s" % (t, k))
	need(r["seconds"] >= 0.3, "run shorter than -s")
	need(abs(r["hs_real"] * r["seconds"] - r["hashes"]) < 1e-6 *
	    r["hashes"] + 1e-6, "hs_real != hashes / seconds")
	lat = r.get("latency_ms", {})
	ks = ["min", "p50", "p90", "p99", "max"]
	need(all(num(lat.get(k)) for k in ks + ["mean"]), "latency fields")
	if all(num(lat.get(k)) for k in ks + ["mean"]):
		v = [lat[k] for k in ks]
		need(0 < v[0] and v == sorted(v), "latency order %r" % v)
		need(v[0] <= lat["mean"] <= v[-1], "mean outside min..max")
	need(r.get("memory_per_hash_bytes") == d["memory_per_hash_bytes"],
	    "run memory per hash")
	need(r.get("memory_total_bytes") == t * d["memory_per_hash_bytes"],
	    "memory in all")
	need(type(r.get("implementation")) is str and r["implementation"],
	    "implementation")
	need(r.get("mismatches") == 0 and r.get("all_match") is True and
	    r.get("failed") is False, "%d threads: mismatches/failed" % t)
	need(type(r.get("cpus")) is list and len(r["cpus"]) == t and
	    all(type(c) is int for c in r["cpus"]), "cpus")
	need(r.get("pinned") is False, "pinned without --affinity")
	need(type(r.get("verified")) is int, "verified")
need(runs[0].get("reference") is True, "1 thread is the reference")
need(runs[1].get("verified", 0) > 0, "2 threads verified nothing")'

# Thread lists, oversubscription and affinity.
threads()
{
	"$B" 10 1024 8 -s 0 --json "$@" >"$TMP/j" 2>&1 || fail "$*: exit $?"
}
threads -t 1-3
doc "-t 1-3" "$TMP/j" 'need([r["threads"] for r in d["runs"]] == [1, 2, 3],
    "threads")'
threads -t 2,1-2
doc "-t 2,1-2" "$TMP/j" 'need([r["threads"] for r in d["runs"]] == [2, 1, 2],
    "threads")'
threads -t1 --threads=2
doc "-t1 --threads=2" "$TMP/j" 'need([r["threads"] for r in d["runs"]] ==
    [2], "threads")'
threads -t 3 --affinity 0
doc "-t 3 --affinity 0" "$TMP/j" '
r = d["runs"][0]
need(r["pinned"] is True and r["cpus"] == [0, 0, 0], "pinned to 0: %r" % r)
need(d["affinity"] == "0", "affinity")'
for mode in compact scatter none; do
	threads -t 2 --affinity $mode
	doc "--affinity $mode" "$TMP/j" "need(d['runs'][0]['pinned'] is
	    ('$mode' != 'none'), 'pinned')"
done

# A mismatch must be loud: a sample spoiled on purpose (test hook).
YESPOWER_BENCHMARK_CORRUPT=0 "$B" 10 1024 8 -t 1,2 -s 0.1 >"$TMP/out" \
    2>"$TMP/err"
rc=$?
if [ "$rc" = 1 ] && grep -q '^Mismatch at 0$' "$TMP/out" &&
    grep -q 'MISMATCH' "$TMP/err"; then
	pass
else
	fail "a spoiled hash: exit status $rc, or not reported"
fi
YESPOWER_BENCHMARK_CORRUPT=0 "$B" 10 1024 8 -t 2 -s 0 --json >"$TMP/j" \
    2>/dev/null
[ $? = 1 ] && pass || fail "a spoiled hash with --json: exit status not 1"
doc "a spoiled hash in JSON" "$TMP/j" 'need(d["ok"] is False and
    d["mismatches"] == 1 and d["runs"][0]["all_match"] is False, "%r" % d)'

# --batch: batches checked against single hashes; memory for as many inputs
# as a call interleaves (the library's width for these parameters, at most
# the batch).
"$B" 10 1024 8 -t 1,2 -s 0.2 --batch 4 --json >"$TMP/j" 2>"$TMP/err" ||
    fail "--batch 4 --json: exit status $?"
doc "--batch 4 --json" "$TMP/j" '
need(d is not None and d.get("batch") == 4, "batch field")
need(d["ok"] is True and d["mismatches"] == 0, "ok/mismatches")
for r in d["runs"]:
	need(r["hashes"] > 0 and r["hashes"] % 4 == 0, "hashes in batches")
	need(r.get("verified", 0) > 0, "%d threads verified nothing" %
	    r["threads"])
	k = min(4, d["library_batch_width"])
	need(k >= 1, "library_batch_width %r" % d["library_batch_width"])
	need(r["memory_total_bytes"] == k * r["threads"] *
	    d["memory_per_hash_bytes"], "memory of a batch (width %d)" % k)'
YESPOWER_BENCHMARK_CORRUPT=1 "$B" 10 1024 8 -t 2 -s 0.1 --batch 2 \
    >"$TMP/out" 2>/dev/null
[ $? = 1 ] && grep -q '^Mismatch at 1$' "$TMP/out" && pass ||
    fail "a spoiled batch hash was not reported"

# ---- components ----
"$B" 10 1024 8 --components -s 0.05 >"$TMP/out" 2>&1 ||
    fail "--components: exit status $?"
doc "--components (1.0)" "$TMP/out" '
for part in ("SHA-256, 64 B", "SHA-256, 16 KiB", "SHA-256, recursive 32 B",
    "BLAKE2b-256, 64 B", "BLAKE2b-256, 16 KiB",
    "PBKDF2-SHA256, 10 B salt -> 128 B",
    "HMAC-SHA256, 64 B key, 32 B message", "Salsa20/8 (0.5), 64 B block",
    "Salsa20/2 (1.0), 64 B block", "BlockMix_pwxform (1.0), 1024 B block",
    "SMix1 (1.0), N = 1024 blocks", "SMix2 (1.0), 342 steps",
    "whole hash (sha256)"):
	m = re.search(r"^  " + re.escape(part) +
	    r" +([0-9.]+) [A-Za-z/]+ +[0-9.]+ [nu]?m?s$", text, re.M)
	need(m and float(m.group(1)) > 0, "no positive figure for " + part)
need("FAILED" not in text, "a part failed")'
"$B" 5 1024 16 --components -s 0.05 --json >"$TMP/j" 2>&1 ||
    fail "--components --json (0.5): exit status $?"
doc "--components --json (0.5)" "$TMP/j" '
c = d.get("components", [])
names = [x["name"] for x in c]
for n in ("PBKDF2-SHA256, 80 B salt -> 2048 B",
    "PBKDF2-SHA256, 2048 B salt -> 32 B",
    "HMAC-SHA256, 32 B key, 10 B message",
    "Salsa20/8 (0.5), 64 B block", "BlockMix_pwxform (0.5), 2048 B block",
    "SMix1 (0.5), N = 1024 blocks", "SMix2 (0.5), 342 steps"):
	need(n in names, "missing component %s" % n)
need(len(c) >= 13, "only %d components" % len(c))
for x in c:
	need(num(x.get("rate")) and x["rate"] > 0 and x.get("failed") is False,
	    "component %s" % x.get("name"))
need(d["runs"] == [], "runs with --components")'

# ---- the hashing API ----
"$B" --hashes --only merkle --merkle 10-11 -s 0.05 --json >"$TMP/j" \
    2>"$TMP/err" || fail "--hashes --only merkle --json: exit status $?"
doc "--hashes --json" "$TMP/j" '
need(d is not None and d.get("program") == "libyespower hashing benchmark",
    "program")
rows = d.get("rows", [])
need(len(rows) == 4, "4 Merkle rows, not %d" % len(rows))
for r in rows:
	need(r.get("table") == "merkle" and r.get("hash") in ("sha3-256",
	    "sha256d") and r.get("log2_leaves") in (10, 11), "row %r" % r)
	need(num(r.get("ms_1_thread")) and r["ms_1_thread"] > 0, "ms")'
"$B" --hashes --only recursive -s 0.02 --ghz 3 >"$TMP/out" 2>&1 ||
    fail "--hashes --only recursive: exit status $?"
grep -q 'MH/s/0.1GHz' "$TMP/out" && grep -q '1 chain' "$TMP/out" && pass ||
    fail "--hashes --only recursive --ghz: $(head -c 300 "$TMP/out")"

# ---- RandomX ----
"$B" --randomx -t 1,2 -s 0 --json >"$TMP/j" 2>"$TMP/err" ||
    fail "--randomx -t 1,2 -s 0 --json: exit status $?"
doc "--randomx --json" "$TMP/j" '
need(d is not None, "not JSON")
need(d.get("program") == "librandomx benchmark", "program")
need(d.get("mode") == "light" and d.get("randomx_version") == 1, "mode")
need(num(d.get("cache_init_seconds")) and d["cache_init_seconds"] > 0,
    "cache_init_seconds")
need(type(d.get("first_hash")) is str and len(d["first_hash"]) == 64,
    "first_hash")
need(d.get("ok") is True and d.get("mismatches") == 0, "ok")
runs = d.get("runs", [])
need([r["threads"] for r in runs] == [1, 2], "runs")
need(d.get("seed") == 0 and d.get("dataset_init_threads") == 0, "seed")
# Pipelined, every run is verified against one-at-a-time hashes.
need(runs and runs[0]["reference"] is False and runs[0]["verified"] > 0,
    "1 thread verified")
need(len(runs) == 2 and runs[1]["verified"] > 0, "2 threads verified")'
# The miners' pipeline (_first, _next, _last) against single hashes, v2.
"$B" --randomx --v2 -t 2 -s 0 --batch 3 --json >"$TMP/j" 2>&1 ||
    fail "--randomx --v2 --batch 3: exit status $?"
doc "--randomx --v2 --batch 3" "$TMP/j" '
need(d is not None and d.get("randomx_version") == 2 and
    d.get("batch") == 3, "v2, batch")
r = d["runs"][0]
need(r["hashes"] % 3 == 0 and r["verified"] > 0 and r["mismatches"] == 0,
    "batch verified against single hashes: %r" % r)'
YESPOWER_BENCHMARK_CORRUPT=0 "$B" --randomx -t 2 -s 0 >"$TMP/out" 2>/dev/null
[ $? = 1 ] && grep -q '^Mismatch at 0$' "$TMP/out" && pass ||
    fail "--randomx: a spoiled hash was not reported"
# By default the JIT where it is built (its rows then), and with
# --interpreter the interpreter's rows only.
for mode in "" --interpreter; do
"$B" --randomx --components $mode -s 0.01 >"$TMP/out" 2>&1 ||
    fail "--randomx --components $mode: exit status $?"
doc "--randomx --components $mode" "$TMP/out" '
jit = re.search(r"^RandomX v1, light mode, JIT,", text, re.M) is not None
need(jit == ("'"$mode"'" == "" and "'"$(uname -m)"'" == "x86_64"),
    "JIT in the header: %s" % jit)
for part in ("Blake2b-512, 64 B", "Blake2bLong, 1 KiB out",
    "Argon2d cache, 256 MiB (portable)", "SuperscalarHash generation",
    "dataset items, 64 at a time", "dataset items, one at a time",
    "AES fill 1R, 2 MiB (soft)", "AES hash 1R, 2 MiB (soft)",
    "program generation and decoding", "VM program, light mode",
    "whole hash, light mode"):
	if part == "whole hash, light mode" and jit:
		part += ", JIT"
	m = re.search(r"^  " + re.escape(part) +
	    r" +([0-9.]+) [A-Za-z/]+ +[0-9.]+ [nu]?m?s$", text, re.M)
	need(m and float(m.group(1)) > 0, "no positive figure for " + part)
for part in ("dataset items, JIT, 64 at a time", "VM program, light mode, JIT"):
	m = re.search(r"^  " + re.escape(part) + r"[ (]", text, re.M)
	need(bool(m) == jit, "JIT row %s %s" % (part,
	    "missing" if jit else "in an interpreter run"))
need("FAILED" not in text, "a part failed")'
done

check_docs
echo "benchmark: $checks passed, $failures failed"
[ "$failures" = 0 ]
