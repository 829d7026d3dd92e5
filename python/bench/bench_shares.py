#!/usr/bin/env python3
"""Shares verified per second from Python and from C on the same work.

    python3 python/bench/bench_shares.py [--full] [--rounds N] ...
    make bench-python [BENCH_PYTHON_ARGS="--full"]

A benchmark, not a test: it prints figures and asserts nothing about them
(it does check that Python's and C's answers agree).  For each workload
(RandomX v1 light mode; with --full, RandomX v1 full mode; one yespower
preset, "yespower" by default) and for one and two threads, it verifies
the same shares (the same inputs, the same key, the same RandomX cache or
dataset, the same library) from Python (yespower.randomx's hash() and
yespower.hash_preset() on Python threads) and from C (shares_driver.c,
compiled here into a shared object and loaded into this process: its
threads call randomx_calculate_hash and yespower_preset_hash in a loop),
C and Python alternating, --rounds times each.  It prints each run and
the median rates, Python's as a share of C's, and the two-thread rate as
a multiple of the one-thread rate.

Both sides hash with the same RandomX VMs, made before the clock
starts: Python's pool is warmed with as many VMs as threads, and the C
threads borrow them from it.  The
machine's load goes into both sides alike only if it is steady: run it on
a quiet machine, and read a shared machine's figures as such.
"""

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--yespower-lib", default=os.path.join(
        ROOT, "libyespower.so.1"), help="libyespower.so.1 to use")
    ap.add_argument("--randomx-lib", default=os.path.join(
        ROOT, "build", "randomx", "librandomx.so.0"),
        help="librandomx.so.0 to use")
    ap.add_argument("--full", action="store_true",
                    help="also the full mode (builds a 2080 MiB dataset)")
    ap.add_argument("--preset", default="yespower",
                    help="the yespower preset (default yespower)")
    ap.add_argument("--rounds", type=int, default=7,
                    help="runs of each side, alternating (default 7)")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="about how long one run takes (default 1)")
    ap.add_argument("--threads", default="1,2",
                    help="thread counts (default 1,2)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    return ap.parse_args()


ARGS = parse()
os.environ["YESPOWER_LIBRARY"] = os.path.abspath(ARGS.yespower_lib)
os.environ["RANDOMX_LIBRARY"] = os.path.abspath(ARGS.randomx_lib)
sys.path.insert(0, os.path.join(ROOT, "python"))

import yespower                     # noqa: E402
from yespower import randomx        # noqa: E402


def build_driver(tmp):
    """shares_driver.c compiled against the libraries this run uses."""
    so = os.path.join(tmp, "shares_driver.so")
    libs = [os.path.abspath(ARGS.yespower_lib),
            os.path.abspath(ARGS.randomx_lib)]
    cmd = [ARGS.cc, "-O2", "-shared", "-fPIC", "-I" + ROOT,
           "-o", so, os.path.join(HERE, "shares_driver.c")] + libs + \
        ["-Wl,-rpath," + ":".join(sorted({os.path.dirname(p)
                                          for p in libs})), "-lpthread"]
    subprocess.run(cmd, check=True)
    drv = ctypes.CDLL(so)
    drv.shares_run.restype = ctypes.c_double
    drv.shares_run.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                               ctypes.c_char_p, ctypes.c_char_p,
                               ctypes.c_size_t, ctypes.c_size_t,
                               ctypes.c_int, ctypes.c_char_p]
    return drv


def inputs(count, length):
    """count distinct share blobs of length bytes (a nonce at 39)."""
    base = bytearray(range(length))
    out = []
    for i in range(count):
        base[39:43] = i.to_bytes(4, "little")
        out.append(bytes(base))
    return out


def run_python(fn, blobs, threads):
    """Seconds for `threads` Python threads to apply fn to their
    contiguous slices of blobs; the answers."""
    answers = [None] * len(blobs)
    per = len(blobs) // threads
    bounds = [(t * per, len(blobs) if t == threads - 1 else (t + 1) * per)
              for t in range(threads)]

    def work(lo, hi):
        for i in range(lo, hi):
            answers[i] = fn(blobs[i])

    workers = [threading.Thread(target=work, args=b) for b in bounds[1:]]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    work(*bounds[0])
    for w in workers:
        w.join()
    return time.perf_counter() - t0, answers


def run_c(drv, pool, preset, blobs, threads):
    """Seconds for shares_driver's C threads to hash blobs; the answers.
    RandomX: the C threads borrow their VMs from the Python object's
    pool, the ones Python's threads hash with (taken from the top of the
    pool and put back in the same order), so that C and Python differ
    only in who calls the library."""
    length = len(blobs[0])
    buf = b"".join(blobs)
    out = ctypes.create_string_buffer(32 * len(blobs))
    arr = None
    borrowed = []
    if pool is not None:
        borrowed = [pool.acquire(None) for _ in range(threads)]
        arr = (ctypes.c_void_p * threads)(*[vm for _, vm in borrowed])
    try:
        secs = drv.shares_run(arr, preset.encode() if preset else None, buf,
                              length, len(blobs), threads, out)
    finally:
        for gen, vm in reversed(borrowed):
            pool.release(gen, vm)
    if secs < 0:
        raise RuntimeError("shares_run failed")
    raw = out.raw
    return secs, [raw[32 * i:32 * i + 32] for i in range(len(blobs))]


CPU_ROWS = []
WRAPPER = []


def thread_cpu():
    """This thread's CPU seconds (user + system)."""
    r = resource.getrusage(resource.RUSAGE_THREAD)
    return r.ru_utime + r.ru_stime


def measure(name, drv, py_fn, pool, preset, length, threads_list):
    # Size the runs from a short Python pass, after one that warms up
    # (a first hash pays for page faults and compiled code).
    run_python(py_fn, inputs(2, length), 1)
    probe = inputs(8, length)
    t, _ = run_python(py_fn, probe, 1)
    per_hash = max(t / len(probe), 1e-6)
    rows = []
    for threads in threads_list:
        count = max(8 * threads,
                    int(ARGS.seconds / per_hash * min(threads, 2)))
        count -= count % threads
        blobs = inputs(count, length)
        rates = {"C": [], "Python": []}
        cpu_ms = {"C": [], "Python": []}
        for r in range(ARGS.rounds):
            for side in ("C", "Python") if r % 2 == 0 else ("Python", "C"):
                cpu = thread_cpu()
                if side == "C":
                    secs, got = run_c(drv, pool, preset, blobs, threads)
                else:
                    secs, got = run_python(py_fn, blobs, threads)
                cpu = thread_cpu() - cpu
                if threads == 1:
                    # One thread hashes on this one, C's as Python's: its
                    # CPU time per share depends far less on the machine's
                    # load than the wall-clock rate does.
                    cpu_ms[side].append(1000.0 * cpu / count)
                if side == "C":
                    c_answers = got
                else:
                    py_answers = got
                rates[side].append(count / secs)
                print("  %-24s %d thread%s %-6s %8.1f shares/s (%d in "
                      "%.2f s)" % (name, threads, "s" if threads > 1 else "",
                                   side, count / secs, count, secs),
                      flush=True)
            if c_answers != py_answers:
                raise RuntimeError("%s: C and Python disagree" % name)
        rows.append((name, threads, statistics.median(rates["C"]),
                     statistics.median(rates["Python"])))
        if threads == 1:
            CPU_ROWS.append((name, statistics.median(cpu_ms["C"]),
                             statistics.median(cpu_ms["Python"])))
    return rows


def wrapper_cost(rx, n=20000):
    """CPU microseconds per call of everything hash() does but the hash:
    argument checks, the output buffer, borrowing and returning a VM,
    and a ctypes call (to randomx_dataset_item_count, which does
    nothing).  A bound on Python's share of a share's cost that no load
    on the machine can blur."""
    core, lib = rx._core, randomx._lib
    blob = bytes(76)
    t0 = thread_cpu()
    for _ in range(n):
        src = randomx._bytes(blob, "data")
        ctypes.create_string_buffer(32)
        gen, vm = core.acquire(None)
        try:
            lib.randomx_dataset_item_count()
        finally:
            core.release(gen, vm)
        len(src)
    return 1e6 * (thread_cpu() - t0) / n


def rx_workload(drv, full, threads_list):
    t0 = time.perf_counter()
    rx = randomx.RandomX(b"bench_shares key", full=full)
    print("  RandomX %s: key ready in %.1f s" % (
        "full" if full else "light", time.perf_counter() - t0), flush=True)
    # The pool warmed with as many VMs as threads: both sides hash with
    # these.
    n = max(threads_list)
    warm = [rx._core.acquire(None) for _ in range(n)]
    for g, vm in reversed(warm):
        rx._core.release(g, vm)
    WRAPPER.append(("RandomX hash()", wrapper_cost(rx)))
    try:
        return measure("RandomX v1 %s" % ("full" if full else "light"),
                       drv, rx.hash, rx._core, None, 76, threads_list)
    finally:
        rx.close()


def main():
    threads_list = [int(x) for x in ARGS.threads.split(",")]
    print("bench_shares: Python %s, %s, yespower %s, librandomx flags %d"
          % (sys.version.split()[0], ARGS.randomx_lib, yespower.impl_name(),
             randomx.default_flags()))
    print("  load average at start: %s" % " ".join(
        "%.2f" % x for x in os.getloadavg()), flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        drv = build_driver(tmp)
        rows += rx_workload(drv, False, threads_list)
        if ARGS.full:
            rows += rx_workload(drv, True, threads_list)
        preset = ARGS.preset
        rows += measure("yespower preset %s" % preset, drv,
                        lambda b: yespower.hash_preset(preset, b), None,
                        preset, 80, threads_list)
    print("  load average at end: %s" % " ".join(
        "%.2f" % x for x in os.getloadavg()))
    print("\n%-26s %7s %12s %12s %8s %7s %7s %8s" % (
        "workload", "threads", "C shares/s", "Py shares/s", "Py/C",
        "C n/1", "Py n/1", "Py n/C1"))
    one = {}
    for name, threads, c, py in rows:
        if threads == 1:
            one[name] = (c, py)
        base = one.get(name)

        def ratio(x, y):
            return "%.2fx" % (x / y) if base else "-"
        print("%-26s %7d %12.1f %12.1f %7.1f%% %7s %7s %8s" % (
            name, threads, c, py, 100.0 * py / c,
            ratio(c, base[0]) if base else "-",
            ratio(py, base[1]) if base else "-",
            ratio(py, base[0]) if base else "-"))
    print("(n/1: the rate over the same side's one-thread rate; n/C1: "
          "Python's over C's one-thread rate; medians of %d runs)"
          % ARGS.rounds)
    print("\n%-26s %14s %14s %8s" % ("one thread, CPU time", "C ms/share",
                                     "Py ms/share", "Py/C"))
    for name, c, py in CPU_ROWS:
        print("%-26s %14.3f %14.3f %7.1f%%" % (name, c, py, 100.0 * py / c))
    for name, us in WRAPPER[:1]:
        print("\n%s without the hash (checks, buffer, VM pool, a ctypes "
              "call): %.1f us of CPU time per share" % (name, us))

if __name__ == "__main__":
    main()
