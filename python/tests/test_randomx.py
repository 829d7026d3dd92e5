"""Tests of yespower.randomx (RandomX v1 and v2, light mode) against known
answers: the reference's published hashes (tevador/RandomX tests.cpp, as
test/randomx/rx-published.h holds them), the project's vectors printed by
the reference (test/randomx/rx-vm-vectors.txt: hashes and commitments) and
pyrx's published answers; then errors, memory and threads, with a
pool-style run: threads verifying RandomX and yespower shares across a
seed change, every answer checked.

Run from the tree (make check-python runs it beside test_yespower.py):
    RANDOMX_LIBRARY=build/randomx/librandomx.so.0 \
    YESPOWER_LIBRARY=libyespower.so.1 PYTHONPATH=python:python/modules \
        python3 python/tests/test_randomx.py
RANDOMX_TEST_FULL=1 adds the full mode (a 2080 MiB dataset, minutes;
make check-python-full).
"""

import gc
import os
import re
import subprocess
import sys
import threading
import time
import unittest

import yespower
from yespower import randomx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
KEY0, KEY1 = b"test key 000", b"test key 001"


def read_published():
    """rx-published.h: (v1 hashes, v2 hashes, inputs), five of each; the
    first three with key KEY0, the last two with KEY1 (tests.cpp)."""
    with open(os.path.join(ROOT, "test", "randomx", "rx-published.h"),
              encoding="ascii") as f:
        text = f.read()

    def strings(name):
        body = re.search(name + r"\[5\] = \{(.*?)\};", text, re.S).group(1)
        return re.findall(r'"([^"]*)"|NULL', body)

    e_hex = "".join(re.findall(r'"([0-9a-f]+)"', re.search(
        r"input_e_hex\[\] =(.*?);", text, re.S).group(1)))
    inputs = [s.encode() if s else bytes.fromhex(e_hex)
              for s in strings("published_input")]
    inputs[4] = bytes.fromhex(e_hex)
    return strings("published_v1"), strings("published_v2"), inputs


def read_vm_vectors():
    """The hash lines of rx-vm-vectors.txt: (v2, key, input, hash,
    commitment)."""
    rows = []
    with open(os.path.join(ROOT, "test", "randomx", "rx-vm-vectors.txt"),
              encoding="ascii") as f:
        for line in f:
            w = line.split()
            if w and w[0] == "hash":
                field = [b"" if x == "-" else bytes.fromhex(x)
                         for x in w[2:4]]
                rows.append((w[1] == "1", field[0], field[1],
                             bytes.fromhex(w[4]), bytes.fromhex(w[5])))
    return rows


def read_chains(n):
    """n yespower headers of test/vectors/chains.txt with published hashes:
    (preset, header, hash)."""
    rows = []
    with open(os.path.join(ROOT, "test", "vectors", "chains.txt"),
              encoding="ascii") as f:
        for line in f:
            w = line.split()
            if w[:1] != ["PRESET"] or w[w.index("EXPECT") + 1] == "?":
                continue
            rows.append((w[1], bytes.fromhex(w[w.index("HEADER") + 1]),
                         bytes.fromhex(w[w.index("EXPECT") + 1])))
    return rows[:n]


PUBLISHED_V1, PUBLISHED_V2, PUBLISHED_IN = read_published()
VECTORS = read_vm_vectors()

# pyrx 0.0.5's tests/test.py (github.com/jtgrassie/pyrx): get_rx_hash of
# "Hello RandomX x" with this seed hash at height 1 + x.
PYRX_SEED = bytes.fromhex(
    "63eceef7919087068ac5d1b7faffa23fc90a58ad0ca89ecb224a2ef7ba282d48")
PYRX_EXPECTED = [
    "a86260b7bf2c35910177ae47bad732b415d977d865a3d64c12e06a3f012b2ee7",
    "aa820e6869feccba3e58790437de698bafc2eeaf1a135c928d1b59b2473fb74d",
    "776a5cb55b212950c55911a99b1fc35f36e937e2b1ff6cdf6aff27e0bb36f637",
    "f2f1ae1030f53b743da7c13f9c2f85db6991f0617e360663c815158d72897ec4",
    "0ea23341e489a9720ff4bfbd0391338918a295d46416b87dfe8a785cce9eb51d",
]

_objects = {}


def light(key, v2=False):
    """A shared light-mode object for key, built once (a cache costs about
    a second)."""
    if (key, v2) not in _objects:
        _objects[key, v2] = randomx.RandomX(key, v2=v2)
    return _objects[key, v2]


def tearDownModule():
    for rx in _objects.values():
        rx.close()


def vm_size():
    """This process's virtual size in bytes (/proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


class KnownAnswers(unittest.TestCase):
    def test_published(self):
        for v2, want in ((False, PUBLISHED_V1), (True, PUBLISHED_V2)):
            for i, data in enumerate(PUBLISHED_IN):
                rx = light(KEY0 if i < 3 else KEY1, v2)
                with self.subTest(v2=v2, i=i):
                    self.assertEqual(rx.hash(data).hex(), want[i])

    def test_published_hash_many(self):
        for v2, want in ((False, PUBLISHED_V1), (True, PUBLISHED_V2)):
            got = light(KEY0, v2).hash_many(PUBLISHED_IN[:3])
            self.assertEqual([h.hex() for h in got], want[:3])
            got = light(KEY1, v2).hash_many(iter(PUBLISHED_IN[3:]))
            self.assertEqual([h.hex() for h in got], want[3:])

    def test_project_vectors(self):
        self.assertEqual(len(VECTORS), 8)
        for v2, key, data, want, com in VECTORS:
            rx = light(key, v2)
            with self.subTest(v2=v2, key=key, data=data[:16]):
                self.assertEqual(rx.hash(data), want)
                self.assertEqual(rx.commitment(data), com)
                self.assertEqual(randomx.commitment(data, want), com)
                self.assertEqual(rx.hash_many([data, data, b""])[:2],
                                 [want, want])

    def test_bytes_like(self):
        rx = light(KEY0)
        data = PUBLISHED_IN[0]
        for form in (bytearray(data), memoryview(data),
                     memoryview(b"xx" + data)[2:]):
            self.assertEqual(rx.hash(form).hex(), PUBLISHED_V1[0])
            self.assertEqual(rx.hash_many([form])[0].hex(), PUBLISHED_V1[0])

    def test_pyrx(self):
        for x, want in enumerate(PYRX_EXPECTED):
            m = "Hello RandomX {}".format(x)
            self.assertEqual(randomx.get_rx_hash(m, PYRX_SEED, 1 + x).hex(),
                             want)
            self.assertEqual(randomx.get_rx_hash(m.encode(), PYRX_SEED,
                                                 1 + x).hex(), want)
        self.assertGreaterEqual(randomx.__version__, "0.0.3")

    def test_pyrx_two_seeds(self):
        """Two seeds in turn, as across a seed change: both kept."""
        other = bytes(32)
        m = b"Hello RandomX 0"
        h = randomx.get_rx_hash(m, other, 3000)
        self.assertNotEqual(h.hex(), PYRX_EXPECTED[0])
        self.assertEqual(randomx.get_rx_hash(m, PYRX_SEED, 1).hex(),
                         PYRX_EXPECTED[0])
        self.assertEqual(randomx.get_rx_hash(m, other, 3000), h)
        self.assertEqual(len(randomx._seeds.objects), 2)
        # A third seed: the least recently used one goes, and its memory.
        dropped = randomx._seeds.objects[PYRX_SEED][0]
        third = bytes([1]) * 32
        self.assertNotEqual(randomx.get_rx_hash(m, third, 5000), h)
        self.assertEqual(sorted(randomx._seeds.objects), [other, third])
        self.assertIsNone(dropped.key)
        self.assertEqual(randomx.get_rx_hash(m, PYRX_SEED, 1).hex(),
                         PYRX_EXPECTED[0])

    def test_seed_height(self):
        # Monero: keys change every 2048 blocks, 64 blocks late.
        for h, s in ((0, 0), (2048 + 64, 0), (2048 + 65, 2048),
                     (4096 + 64, 2048), (4096 + 65, 4096),
                     (2 ** 64 - 1, (2 ** 64 - 66) & ~2047)):
            self.assertEqual(randomx.seed_height(h), s)


class Errors(unittest.TestCase):
    def test_type_errors(self):
        rx = light(KEY0)
        for bad in ("text", None, 12, 1.5, [1, 2]):
            self.assertRaises(TypeError, rx.hash, bad)
            self.assertRaises(TypeError, rx.hash_many, [b"ok", bad])
            self.assertRaises(TypeError, randomx.RandomX, bad)
            self.assertRaises(TypeError, randomx.commitment, bad, bytes(32))
        self.assertRaises(TypeError, rx.hash_many, 5)
        self.assertRaises(TypeError, rx.hash, b"x", key="text")
        self.assertRaises(TypeError, randomx.RandomX, KEY0, flags="8")
        self.assertRaises(TypeError, randomx.RandomX, KEY0, init_threads=1.0)
        self.assertRaises(TypeError, randomx.get_rx_hash, b"x", "s" * 32, 1)
        self.assertRaises(TypeError, randomx.get_rx_hash, 5, PYRX_SEED, 1)
        self.assertRaises(TypeError, randomx.get_rx_hash, b"x", PYRX_SEED,
                          "1")
        self.assertRaises(TypeError, randomx.seed_height, 1.0)

    def test_value_errors(self):
        self.assertRaises(ValueError, randomx.RandomX, KEY0, flags=1 << 8)
        self.assertRaises(ValueError, randomx.RandomX, KEY0,
                          flags=randomx.FLAG_V2)
        self.assertRaises(ValueError, randomx.RandomX, KEY0, init_threads=0)
        self.assertRaises(ValueError, randomx.commitment, b"x", bytes(31))
        self.assertRaises(ValueError, randomx.get_rx_hash, b"x", bytes(31), 1)
        self.assertRaises(ValueError, randomx.get_rx_hash, b"x", PYRX_SEED,
                          -1)
        self.assertRaises(ValueError, randomx.get_rx_hash, b"x", PYRX_SEED,
                          2 ** 64)
        self.assertRaises(ValueError, randomx.configure_rx_hash, keep=0)
        rx = light(KEY0)
        self.assertRaises(ValueError, rx.hash, b"x", key=KEY1)
        self.assertRaises(ValueError, rx.hash_many, [b"x"], key=KEY1)
        self.assertEqual(rx.hash(PUBLISHED_IN[0], key=KEY0).hex(),
                         PUBLISHED_V1[0])

    def test_closed(self):
        rx = randomx.RandomX(KEY0)
        with rx:
            self.assertEqual(rx.hash(PUBLISHED_IN[0]).hex(), PUBLISHED_V1[0])
        self.assertIsNone(rx.key)
        for call in (lambda: rx.hash(b"x"), lambda: rx.hash_many([b"x"]),
                     lambda: rx.commitment(b"x"), lambda: rx.set_key(KEY1)):
            self.assertRaises(ValueError, call)
        rx.close()      # twice: nothing

    def test_memory_error(self):
        """Address space for the interpreter but not for a 256 MiB cache."""
        code = ("import os, resource\n"
                "from yespower import randomx\n"
                "with open('/proc/self/statm') as f:\n"
                "    size = int(f.read().split()[0]) * "
                "os.sysconf('SC_PAGE_SIZE')\n"
                "limit = size + 64 * 2 ** 20\n"
                "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
                "try:\n"
                "    randomx.RandomX(b'key')\n"
                "except MemoryError as e:\n"
                "    print('MemoryError', e)\n")
        done = subprocess.run([sys.executable, "-c", code],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn("MemoryError RandomX: cannot allocate the 256 MiB",
                      done.stdout)

    def test_large_pages(self):
        """large_pages=True: MemoryError where the system has no 2 MiB
        pages; where it has some, the published hash."""
        with open("/proc/sys/vm/nr_hugepages") as f:
            configured = int(f.read())
        if configured == 0:
            self.assertRaises(MemoryError, randomx.RandomX, KEY0,
                              large_pages=True)
            return
        try:
            rx = randomx.RandomX(KEY0, large_pages=True)
        except MemoryError:
            self.skipTest("%d 2 MiB pages configured, too few free for a "
                          "cache" % configured)
        with rx:
            self.assertEqual(rx.hash(PUBLISHED_IN[0]).hex(), PUBLISHED_V1[0])


class Memory(unittest.TestCase):
    def test_create_destroy_cycles(self):
        """Caches freed by close(), by dropping the object and by set_key;
        a leaked cache would add 256 MiB of address space per cycle."""
        def cycle(i):
            rx = randomx.RandomX(KEY0 if i % 2 else KEY1)
            rx.hash(b"x")
            if i % 3 == 0:
                rx.close()
            elif i % 3 == 1:
                rx.set_key(KEY0 if i % 2 == 0 else KEY1)
                rx.hash(b"y")
            del rx
            gc.collect()

        cycle(0)
        before = vm_size()
        for i in range(1, 7):
            cycle(i)
        grown = vm_size() - before
        self.assertLess(grown, 128 * 2 ** 20,
                        "address space grew by %d MiB" % (grown >> 20))

    def test_close_while_hashing(self):
        """close() while another thread is inside a hash: that hash
        finishes right, and the memory goes when it is done."""
        for attempt in range(5):
            rx = randomx.RandomX(KEY0)
            inside, result = threading.Event(), {}

            def work():
                inside.set()
                try:
                    result["h"] = rx.hash_many(PUBLISHED_IN[:3])
                except ValueError as e:
                    result["e"] = e
            t = threading.Thread(target=work)
            t.start()
            inside.wait()
            time.sleep(0.002)
            in_flight = rx._core.current.users > 0
            rx.close()
            t.join()
            if "h" in result:
                self.assertEqual([h.hex() for h in result["h"]],
                                 PUBLISHED_V1[:3])
            if in_flight:
                self.assertIn("h", result)
                return
        self.fail("no close() landed while a hash was in flight")


class Threads(unittest.TestCase):
    def test_gil_released(self):
        """While one thread is inside hash(), another runs Python code for
        most of that time."""
        rx = light(KEY0)
        for attempt in range(5):
            state = {"inside": False}

            def work():
                state["inside"] = True
                t0 = time.monotonic()
                state["result"] = rx.hash(PUBLISHED_IN[0])
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
            self.assertEqual(state["result"].hex(), PUBLISHED_V1[0])
            if first and last - first >= 0.5 * state["call"]:
                return
        self.fail("no Python code ran during a hash: is the GIL held?")

    def test_pool_seed_change(self):
        """Four threads verify RandomX and yespower shares while the key
        changes from KEY0 to the empty key.  Each RandomX share names the
        key of its job: its hash is right for that key, or the object says
        it has moved on (ValueError); shares keep being verified with the
        old key while the new cache is built."""
        want = {KEY0: {PUBLISHED_IN[0]: PUBLISHED_V1[0]},
                b"": {PUBLISHED_IN[0]: None}}
        for v2, key, data, h, _ in VECTORS:
            if not v2 and key in want:
                want[key][data] = h.hex()
        self.assertTrue(all(h for k in want for h in want[k].values()))
        chains = read_chains(4)
        rx = randomx.RandomX(KEY0)
        stop = threading.Event()
        building = {"on": False, "during": 0}
        counts = {"rx": 0, "moved": 0, "yespower": 0}
        errors = []
        lock = threading.Lock()

        def share(i, n):
            if n % 3 == 2:
                preset, header, h = chains[(i + n) % len(chains)]
                got = yespower.hash_preset(preset, header)
                if got != h:
                    errors.append(("yespower", preset))
                return "yespower"
            key = rx.key
            data = list(want[key])[(i + n) % len(want[key])]
            during = building["on"]
            try:
                got = rx.hash(data, key=key).hex()
            except ValueError:
                if key == KEY0:
                    return "moved"
                raise
            if got != want[key][data]:
                errors.append(("randomx", key, data))
            if during and building["on"] and key == KEY0:
                with lock:
                    building["during"] += 1
            return "rx"

        def worker(i):
            n = 0
            try:
                while not stop.is_set() or n < 6:
                    kind = share(i, n)
                    with lock:
                        counts[kind] += 1
                    n += 1
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(i,))
                   for i in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.2)
        building["on"] = True
        rx.set_key(b"")
        building["on"] = False
        self.assertEqual(rx.key, b"")
        after = rx.hash(PUBLISHED_IN[0]).hex()
        time.sleep(0.2)
        stop.set()
        for t in threads:
            t.join()
        rx.close()
        self.assertEqual(errors, [])
        self.assertEqual(after, want[b""][PUBLISHED_IN[0]])
        self.assertGreater(counts["yespower"], 0)
        self.assertGreater(counts["rx"], 0)
        self.assertGreater(building["during"], 0,
                           "no share was verified while the key changed")


@unittest.skipUnless(os.environ.get("RANDOMX_TEST_FULL"),
                     "full mode (2080 MiB, minutes): make check-python-full")
class FullMode(unittest.TestCase):
    def test_published_full(self):
        """One dataset (v1): building one takes minutes on two cores."""
        rx = randomx.RandomX(KEY0, full=True)
        try:
            self.assertEqual([h.hex() for h in
                              rx.hash_many(PUBLISHED_IN[:3])],
                             PUBLISHED_V1[:3])
            self.assertEqual(rx.hash(PUBLISHED_IN[0]).hex(), PUBLISHED_V1[0])
            self.assertEqual(rx.commitment(PUBLISHED_IN[0]),
                             randomx.commitment(PUBLISHED_IN[0],
                                                rx.hash(PUBLISHED_IN[0])))
        finally:
            rx.close()


@unittest.skipUnless(os.environ.get("YESPOWER_TEST_INSTALLED"),
                     "only for an installed copy: make check-python-pip "
                     "runs it")
class Installed(unittest.TestCase):
    def test_bundled_library(self):
        package = os.path.dirname(os.path.abspath(yespower.__file__))
        self.assertNotIn("RANDOMX_LIBRARY", os.environ)
        self.assertEqual(randomx.library_path,
                         os.path.join(package, "librandomx.so.0"))


if __name__ == "__main__":
    unittest.main()
