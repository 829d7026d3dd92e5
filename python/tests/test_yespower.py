"""Tests of the yespower Python module against the repository's known answers:
the first lines of TESTS-OK (the original yespower's table) and the real
headers of test/vectors/chains.txt (published PoW hashes and nBits targets).

Run from the tree (make check-python):
    YESPOWER_LIBRARY=libyespower.so.1 PYTHONPATH=python:python/modules \
        python3 python/tests/test_yespower.py
or against an installed copy (make check-python-pip) with
YESPOWER_TEST_INSTALLED=1, which also checks that the copy inside the
package is the one loaded.
"""

import decimal
import importlib
import os
import re
import subprocess
import sys
import threading
import time
import unittest

import yespower

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def read_tests_ok():
    """The yespower(...) lines of TESTS-OK: (version, N, r, pers, hash)."""
    pattern = re.compile(r'^yespower\((\d+), (\d+), (\d+), '
                         r'(NULL|BSTY|"[^"]*")\) = ([0-9a-f ]+)$')
    cases = []
    with open(os.path.join(ROOT, "TESTS-OK"), encoding="ascii") as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if m:
                v, n, r, pers, h = m.groups()
                cases.append((int(v), int(n), int(r), pers,
                              bytes.fromhex(h.replace(" ", ""))))
    return cases


def read_chains():
    """The headers of test/vectors/chains.txt, one dict per line."""
    rows = []
    with open(os.path.join(ROOT, "test", "vectors", "chains.txt"),
              encoding="ascii") as f:
        for line in f:
            if not line.startswith("PRESET "):
                continue
            w = line.split()
            row = {"preset": w[1], "version": w[2], "N": int(w[3]),
                   "r": int(w[4]), "pers": w[5],
                   "header": bytes.fromhex(w[w.index("HEADER") + 1]),
                   "expect": w[w.index("EXPECT") + 1],
                   "bits": int(w[w.index("TARGET_BITS") + 1], 16)}
            rows.append(row)
    return rows


def target_from_bits(bits):
    exponent, mantissa = bits >> 24, bits & 0x007fffff
    if exponent <= 3:
        return mantissa >> (8 * (3 - exponent))
    return mantissa << (8 * (exponent - 3))


def params_of(row):
    """The keyword arguments of yespower.hash() for a chains.txt row."""
    kw = {"N": row["N"], "r": row["r"], "b2b": row["version"] == "1.0b2b",
          "version": 5 if row["version"] == "0.5" else 10}
    if row["pers"] == "INPUT":
        kw["pers"] = row["header"]
    elif row["pers"] != "-":
        kw["pers"] = bytes.fromhex(row["pers"])
    return kw


CHAINS = read_chains()


class KnownAnswers(unittest.TestCase):
    def test_tests_ok(self):
        src = bytes(i * 3 & 0xff for i in range(80))
        cases = read_tests_ok()
        self.assertGreaterEqual(len(cases), 14)
        for v, n, r, pers, expect in cases:
            if pers == "NULL":
                p = None
            elif pers == "BSTY":
                p = src
            else:
                p = pers.strip('"').encode()
            with self.subTest(version=v, N=n, r=r, pers=pers):
                self.assertEqual(yespower.hash(src, n, r, p, v), expect)

    def test_chain_headers_by_preset(self):
        self.assertGreaterEqual(len(CHAINS), 40)
        for row in CHAINS:
            with self.subTest(preset=row["preset"], bits=row["bits"]):
                h = yespower.hash_preset(row["preset"], row["header"])
                if row["expect"] != "?":
                    self.assertEqual(h.hex(), row["expect"])
                self.assertLessEqual(int.from_bytes(h, "little"),
                                     target_from_bits(row["bits"]))

    def test_chain_headers_by_parameters(self):
        for row in CHAINS:
            if row["expect"] == "?":
                continue
            with self.subTest(preset=row["preset"]):
                h = yespower.hash(row["header"], **params_of(row))
                self.assertEqual(h.hex(), row["expect"])

    def test_pool_modules(self):
        """yespowerr16_hash.getPoWHash(header) and its kind, per preset."""
        seen = set()
        for row in CHAINS:
            if row["expect"] == "?" or row["preset"] in seen:
                continue
            seen.add(row["preset"])
            module = importlib.import_module(row["preset"] + "_hash")
            with self.subTest(module=module.__name__):
                h = module.getPoWHash(row["header"])
                self.assertEqual(h.hex(), row["expect"])
        self.assertEqual(len(seen), len(yespower.presets()))

    def test_legacy_module_names(self):
        header = bytes(range(80))
        for legacy, preset in (("zny_yespower_0_5", "yescryptr8"),
                               ("tdc_yespower", "yespowertide")):
            module = importlib.import_module(legacy)
            self.assertEqual(module.getPoWHash(header),
                             yespower.hash_preset(preset, header))


class Interface(unittest.TestCase):
    def test_presets(self):
        names = {p.name for p in yespower.presets()}
        self.assertEqual(names, {row["preset"] for row in CHAINS})
        sugar = [p for p in yespower.presets()
                 if p.name == "yespowersugar"][0]
        self.assertEqual((sugar.version, sugar.N, sugar.r, sugar.hash),
                         (10, 2048, 32, "sha256"))
        self.assertTrue(sugar.pers.startswith(b"Satoshi Nakamoto"))
        bsty = [p for p in yespower.presets() if p.name == "yescrypt"][0]
        self.assertTrue(bsty.pers_is_input)
        self.assertEqual(yespower.hash_preset("YesPowerR16", b"x"),
                         yespower.hash_preset("yespowerr16", b"x"))
        self.assertTrue(yespower.impl_name())

    def test_inputs(self):
        data = bytes(range(80))
        h = yespower.hash(data)
        self.assertEqual(len(h), 32)
        self.assertIsInstance(h, bytes)
        self.assertEqual(yespower.hash(bytearray(data)), h)
        self.assertEqual(yespower.hash(memoryview(data)), h)
        self.assertEqual(yespower.hash(data, pers="UraniumX"),
                         yespower.hash(data, pers=b"UraniumX"))
        self.assertEqual(yespower.hash(data, version=1.0), h)
        self.assertEqual(yespower.hash(b""), yespower.hash(bytearray()))

    def test_null_and_empty_pers(self):
        data = bytes(range(80))
        self.assertNotEqual(yespower.hash(data, r=8, version=5),
                            yespower.hash(data, r=8, version=5, pers=b""))
        self.assertEqual(yespower.hash(data, r=8),
                         yespower.hash(data, r=8, pers=b""))

    def test_errors(self):
        bad = [({"N": 1000}, "N=1000"), ({"N": 512}, "power of 2"),
               ({"N": 1048576}, "power of 2"), ({"r": 7}, "r=7"),
               ({"r": 33}, "r=33"), ({"version": 7}, "version"),
               ({"version": True}, "version"), ({"N": 2048.0}, "integer"),
               ({"version": 1}, "version"), ({"version": 10 + 0j}, "version"),
               ({"version": decimal.Decimal("0.5")}, "version"),
               ({"version": [5]}, "version"), ({"version": "5"}, "version"),
               ({"version": 5, "b2b": True}, "b2b")]
        for kw, reason in bad:
            with self.subTest(**kw):
                with self.assertRaisesRegex(ValueError, reason):
                    yespower.hash(b"x", **kw)
        with self.assertRaisesRegex(ValueError, "unknown preset 'nope'"):
            yespower.hash_preset("nope", b"x")
        for data in ("00ff", 5, None):
            with self.assertRaises(TypeError):
                yespower.hash(data)
        with self.assertRaises(TypeError):
            yespower.hash_preset("yespower", "00ff")
        with self.assertRaises(TypeError):
            importlib.import_module("yespower_hash").getPoWHash("00ff")


    def test_versions_accepted(self):
        data = b"versions"
        self.assertEqual(yespower.hash(data, version=0.5),
                         yespower.hash(data, version=5))
        self.assertEqual(yespower.hash(data, version=1.0),
                         yespower.hash(data, version=10))

    def test_impl_name(self):
        self.assertRegex(yespower.impl_name(), r"^[a-z0-9]+(-plain)?\+[a-z0-9]+$")


def import_with_library(path):
    """Import yespower in a fresh interpreter with YESPOWER_LIBRARY=path;
    (exit status, stderr)."""
    env = dict(os.environ, YESPOWER_LIBRARY=path)
    done = subprocess.run([sys.executable, "-c", "import yespower"], env=env,
                          stderr=subprocess.PIPE, universal_newlines=True)
    return done.returncode, done.stderr


class Loading(unittest.TestCase):
    def test_missing_library_named(self):
        """A YESPOWER_LIBRARY that does not exist is an ImportError naming
        it, never a quiet fall back to another copy."""
        path = os.path.join(ROOT, "no-such-dir", "libyespower.so.1")
        rc, err = import_with_library(path)
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn(path, err)

    def test_wrong_library(self):
        """A library that is not libyespower: ImportError, naming it."""
        path = "libc.so.6"
        rc, err = import_with_library(path)
        self.assertNotEqual(rc, 0)
        self.assertIn("ImportError", err)
        self.assertIn("is not libyespower", err)
        self.assertNotIn("AttributeError:", err)


class Threads(unittest.TestCase):
    def test_gil_released(self):
        """While one thread is inside a long hash, another keeps running
        Python code for most of that time, which it cannot if the call
        holds the GIL (it would run only around the call, for at most a
        switch interval, 5 ms)."""
        data, kw = bytes(80), {"N": 32768, "r": 32}    # 128 MiB, ~0.1 s
        expect = yespower.hash(data, **kw)
        for attempt in range(3):
            state = {"inside": False}

            def work():
                state["inside"] = True
                t0 = time.monotonic()
                state["result"] = yespower.hash(data, **kw)
                state["call"] = time.monotonic() - t0
                state["inside"] = False

            worker = threading.Thread(target=work)
            worker.start()
            first = last = None
            while worker.is_alive():
                if state["inside"]:
                    last = time.monotonic()
                    first = first or last
            worker.join()
            self.assertEqual(state["result"], expect)
            if first and last - first >= 0.5 * state["call"]:
                return
        self.fail("no Python code ran during a hash: is the GIL held?")

    def test_many_threads(self):
        headers = [row for row in CHAINS if row["expect"] != "?"][:12]
        results = {}

        def work(i, row):
            results[i] = yespower.hash_preset(row["preset"], row["header"])

        threads = [threading.Thread(target=work, args=(i, row))
                   for i, row in enumerate(headers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i, row in enumerate(headers):
            self.assertEqual(results[i].hex(), row["expect"])


@unittest.skipUnless(os.environ.get("YESPOWER_TEST_INSTALLED"),
                     "only for an installed copy: make check-python-pip "
                     "runs it")
class Installed(unittest.TestCase):
    def test_bundled_library(self):
        package = os.path.dirname(os.path.abspath(yespower.__file__))
        self.assertNotIn("YESPOWER_LIBRARY", os.environ)
        self.assertEqual(yespower.library_path,
                         os.path.join(package, "libyespower.so.1"))
        self.assertFalse(package.startswith(os.path.join(ROOT, "python")))
        module = importlib.import_module("power2b_hash")
        self.assertFalse(os.path.abspath(module.__file__).startswith(ROOT))


if __name__ == "__main__":
    unittest.main()
