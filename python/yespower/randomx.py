"""RandomX proof-of-work hashing (v1 and v2), from this library's librandomx.

    from yespower import randomx
    rx = randomx.RandomX(seed_hash)              # light mode, RandomX v1
    rx = randomx.RandomX(seed_hash, v2=True, full=True)   # v2, 2080 MiB
    rx.hash(blob)                                # 32 bytes
    rx.hash_many([blob1, blob2, ...])            # pipelined, a list
    rx.commitment(blob)                          # v2's BLAKE2b commitment
    rx.set_key(new_seed_hash)                    # others keep hashing

    import yespower.randomx as pyrx              # pyrx's function
    pyrx.get_rx_hash(blob, seed_hash, height)

A RandomX object is bound to one key (the seed hash) at a time and may be
used from any number of threads at once.  Every call into the library
releases the GIL (ctypes), so threads hash in parallel, and so do the
threads that build a cache or a dataset.

Why a pool of VMs and not one VM per thread: a VM belongs to the cache or
dataset it was made for (its key).  Each key's memory and the VMs made for
it form one "generation"; hash() borrows an idle VM of the current
generation (or makes one, the first time that many threads hash at once),
hashes, and gives it back.  set_key() builds the next generation on the
calling thread while every other thread keeps borrowing from the old one,
then swaps it in with one assignment under a lock: no hash waits for a
seed change, no VM is ever re-pointed while another thread might be using
it, and the old generation (its VMs, cache and dataset) is freed by
whichever thread gives back its last VM.  Thread-local VMs would have to
be re-pointed one thread at a time and would live as long as their
threads, which in a thread pool is forever.  The cost is a lock taken
twice per hash, microseconds against the milliseconds a hash takes.

Every hash is 32 bytes, in the order it is computed in (Monero compares it
with its target as a little-endian number).  Data that is not bytes-like
raises TypeError; invalid values raise ValueError; memory that cannot be
had raises MemoryError.

The module loads the file named by the environment variable
RANDOMX_LIBRARY, if set (and only that); otherwise the copy that `pip
install` put next to this file, or else librandomx.so.0 from the system.
"""

import ctypes
import operator
import os
import threading
import weakref

from . import __version__, _load_library

__all__ = ["RandomX", "commitment", "get_rx_hash", "seed_height",
           "configure_rx_hash", "library_path", "FLAG_DEFAULT",
           "FLAG_LARGE_PAGES", "FLAG_HARD_AES", "FLAG_FULL_MEM",
           "FLAG_JIT", "FLAG_SECURE", "FLAG_ARGON2_SSSE3",
           "FLAG_ARGON2_AVX2", "FLAG_V2", "default_flags"]

_SONAME = "librandomx.so.0"
HASH_SIZE = 32

# randomx.h's flag values.
FLAG_DEFAULT = 0
FLAG_LARGE_PAGES = 1
FLAG_HARD_AES = 2
FLAG_FULL_MEM = 4
FLAG_JIT = 8
FLAG_SECURE = 16
FLAG_ARGON2_SSSE3 = 32
FLAG_ARGON2_AVX2 = 64
FLAG_V2 = 128

_vp = ctypes.c_void_p


def _declare(lib):
    """The C signatures; AttributeError if lib lacks a function."""
    sigs = {
        "randomx_get_flags": (ctypes.c_int, []),
        "randomx_alloc_cache": (_vp, [ctypes.c_int]),
        "randomx_init_cache": (None, [_vp, ctypes.c_char_p,
                                      ctypes.c_size_t]),
        "randomx_release_cache": (None, [_vp]),
        "randomx_alloc_dataset": (_vp, [ctypes.c_int]),
        "randomx_dataset_item_count": (ctypes.c_ulong, []),
        "randomx_init_dataset": (None, [_vp, _vp, ctypes.c_ulong,
                                        ctypes.c_ulong]),
        "randomx_release_dataset": (None, [_vp]),
        "randomx_create_vm": (_vp, [ctypes.c_int, _vp, _vp]),
        "randomx_destroy_vm": (None, [_vp]),
        "randomx_calculate_hash": (None, [_vp, ctypes.c_char_p,
                                          ctypes.c_size_t, ctypes.c_char_p]),
        "randomx_calculate_hash_first": (None, [_vp, ctypes.c_char_p,
                                                ctypes.c_size_t]),
        "randomx_calculate_hash_next": (None, [_vp, ctypes.c_char_p,
                                               ctypes.c_size_t,
                                               ctypes.c_char_p]),
        "randomx_calculate_hash_last": (None, [_vp, ctypes.c_char_p]),
        "randomx_calculate_commitment": (None, [ctypes.c_char_p,
                                                ctypes.c_size_t,
                                                ctypes.c_char_p,
                                                ctypes.c_char_p]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


_lib, library_path = _load_library(
    "yespower.randomx", "librandomx", _SONAME, "RANDOMX_LIBRARY", _declare)
_ITEMS = _lib.randomx_dataset_item_count()


def default_flags():
    """randomx_get_flags(): what this CPU and build do best (AES-NI, the
    JIT, the Argon2d core), without V2, FULL_MEM or LARGE_PAGES."""
    return _lib.randomx_get_flags()


def _bytes(value, what):
    """value as bytes, if it is bytes-like; else TypeError."""
    if isinstance(value, bytes):
        return value
    try:
        return memoryview(value).tobytes()
    except TypeError:
        raise TypeError("%s must be bytes-like (bytes, bytearray, "
                        "memoryview), not %s" % (what, type(value).__name__))


def _count(value, what, default):
    if value is None:
        return default
    if isinstance(value, bool):
        raise TypeError("%s must be an integer, not bool" % what)
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, not %s"
                        % (what, type(value).__name__))
    if n < 1:
        raise ValueError("%s=%d: must be at least 1" % (what, n))
    return n


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Generation:
    """One key's cache or dataset and the idle VMs made for it.  users
    counts the VMs lent out; retired is set when another generation
    replaces it.  Both are guarded by the owning _Core's lock."""

    __slots__ = ("key", "vm_flags", "cache", "dataset", "idle", "users",
                 "retired")

    def __init__(self, key, vm_flags):
        self.key = key
        self.vm_flags = vm_flags
        self.cache = None
        self.dataset = None
        self.idle = []
        self.users = 0
        self.retired = False

    def build(self, cache_flags, full, threads):
        """Allocate and fill the cache (and dataset); MemoryError if the
        memory cannot be had.  Runs without the GIL in the library."""
        self.cache = _lib.randomx_alloc_cache(cache_flags)
        if not self.cache:
            raise MemoryError("RandomX: cannot allocate the 256 MiB cache%s"
                              % (" in 2 MiB pages" if cache_flags &
                                 FLAG_LARGE_PAGES else ""))
        _lib.randomx_init_cache(self.cache, self.key, len(self.key))
        if not full:
            return
        self.dataset = _lib.randomx_alloc_dataset(cache_flags &
                                                  FLAG_LARGE_PAGES)
        if not self.dataset:
            self.free()
            raise MemoryError("RandomX: cannot allocate the 2080 MiB "
                              "dataset")
        per = _ITEMS // threads
        slices = [(i * per, _ITEMS - i * per if i == threads - 1 else per)
                  for i in range(threads)]
        workers = [threading.Thread(target=_lib.randomx_init_dataset,
                                    args=(self.dataset, self.cache) + s)
                   for s in slices[1:]]
        try:
            for w in workers:
                w.start()
            _lib.randomx_init_dataset(self.dataset, self.cache, *slices[0])
        finally:
            # Even on KeyboardInterrupt: the dataset may be freed only once
            # no thread writes to it.
            for w in workers:
                if w.ident is not None:     # started
                    w.join()
        # A full-mode VM reads only the dataset.
        _lib.randomx_release_cache(self.cache)
        self.cache = None

    def new_vm(self):
        vm = _lib.randomx_create_vm(self.vm_flags, self.cache, self.dataset)
        if not vm:
            raise MemoryError("RandomX: cannot allocate a VM (2 MiB "
                              "scratchpad)")
        return vm

    def free(self):
        for vm in self.idle:
            _lib.randomx_destroy_vm(vm)
        self.idle = []
        if self.dataset:
            _lib.randomx_release_dataset(self.dataset)
            self.dataset = None
        if self.cache:
            _lib.randomx_release_cache(self.cache)
            self.cache = None


class _Core:
    """The state a RandomX object shares with its finalizer (which must
    not hold the object itself)."""

    def __init__(self):
        self.lock = threading.Lock()        # current, and every users/idle
        self.build_lock = threading.Lock()  # one set_key at a time
        self.current = None
        self.closed = False

    def acquire(self, key):
        with self.lock:
            gen = self.current
            if gen is None:
                raise ValueError("RandomX object is closed")
            if key is not None and key != gen.key:
                raise ValueError("RandomX object has key %s, not %s"
                                 % (gen.key.hex(), key.hex()))
            gen.users += 1
            vm = gen.idle.pop() if gen.idle else None
        if vm is None:
            try:
                vm = gen.new_vm()
            except BaseException:
                self.release(gen, None)
                raise
        return gen, vm

    def release(self, gen, vm):
        with self.lock:
            if vm is not None:
                gen.idle.append(vm)
            gen.users -= 1
            done = gen.retired and gen.users == 0
        if done:
            gen.free()

    def replace(self, gen):
        """Make gen current; free the old one if no thread uses it.
        ValueError (gen freed) if the object was closed meanwhile."""
        with self.lock:
            if self.closed:
                refused, old = gen, None
            else:
                refused, old, self.current = None, self.current, gen
                if old is not None:
                    old.retired = True
                    if old.users:
                        old = None
        if old is not None:
            old.free()
        if refused is not None:
            refused.free()
            raise ValueError("RandomX object is closed")

    def close(self):
        with self.lock:
            self.closed = True
            old, self.current = self.current, None
            if old is None:
                return
            old.retired = True
            if old.users:
                return
        old.free()


class RandomX:
    """RandomX hashing with one key (seed hash) at a time.

    RandomX(key, v2=False, full=False, *, flags=None, large_pages=False,
            init_threads=None)

    key: bytes-like (the seed hash; the specification allows 0 to 60
    bytes, Monero uses 32).  v2: RandomX v2 instead of v1.  full: the fast
    mode, a 2080 MiB dataset built on init_threads threads (default: the
    CPUs this process may run on), about 8 times the hash rate of the light
    mode (256 MiB).  flags: randomx.h's flags for the cache and the VMs
    (default default_flags(); only those and FLAG_SECURE are accepted).
    large_pages: put the cache and dataset in 2 MiB pages (MemoryError
    if the system has none to give).

    The constructor and set_key() build the cache (about a second) and, in
    full mode, the dataset (about a minute on two cores) before returning.
    close() (or leaving a with block, or dropping the last reference)
    frees the memory once no thread is hashing with it.
    """

    def __init__(self, key, v2=False, full=False, *, flags=None,
                 large_pages=False, init_threads=None):
        key = _bytes(key, "key")
        supported = default_flags() | FLAG_SECURE
        if flags is None:
            flags = default_flags()
        elif isinstance(flags, bool) or not isinstance(flags, int):
            raise TypeError("flags must be an integer, not %s"
                            % type(flags).__name__)
        elif flags & ~supported:
            raise ValueError("flags=%d: %d is not supported by this CPU or "
                             "build (supported: %d; V2, FULL_MEM and "
                             "LARGE_PAGES come from v2, full, large_pages)"
                             % (flags, flags & ~supported, supported))
        self._v2 = bool(v2)
        self._full = bool(full)
        self._threads = _count(init_threads, "init_threads", _cpu_count())
        self._cache_flags = flags | (FLAG_LARGE_PAGES if large_pages else 0)
        self._vm_flags = (self._cache_flags | (FLAG_V2 if v2 else 0) |
                          (FLAG_FULL_MEM if full else 0))
        self._core = _Core()
        self._finalizer = weakref.finalize(self, _Core.close, self._core)
        self.set_key(key)

    @property
    def key(self):
        """The current key, as bytes (None once closed)."""
        gen = self._core.current
        return gen.key if gen is not None else None

    @property
    def v2(self):
        return self._v2

    @property
    def full(self):
        return self._full

    @property
    def flags(self):
        """The flags the VMs are made with."""
        return self._vm_flags

    def set_key(self, key):
        """Switch to key (bytes-like).  The new cache (and dataset) is built
        on the calling thread with the GIL released; meanwhile other
        threads' hash() calls go on with the old key, and the old memory is
        freed when the last of them is done.  Nothing is rebuilt if key is
        the current key.  Calls on several threads are taken in turn."""
        key = _bytes(key, "key")
        core = self._core
        with core.build_lock:
            if core.closed:
                raise ValueError("RandomX object is closed")
            current = core.current
            if current is not None and current.key == key:
                return
            gen = _Generation(key, self._vm_flags)
            try:
                gen.build(self._cache_flags, self._full, self._threads)
                # One VM made here, so that the first hash after the switch
                # does not pay for it (and a VM that cannot be had fails
                # set_key, not a later hash).
                gen.idle.append(gen.new_vm())
            except BaseException:
                gen.free()
                raise
            core.replace(gen)

    def hash(self, data, key=None):
        """The RandomX hash of data (bytes-like), 32 bytes.  With key
        (bytes-like), ValueError unless that is the object's key when the
        hash starts: a pool passes the seed hash of the share's job and
        is never given a hash made with another."""
        src = _bytes(data, "data")
        if key is not None:
            key = _bytes(key, "key")
        out = ctypes.create_string_buffer(HASH_SIZE)
        gen, vm = self._core.acquire(key)
        try:
            _lib.randomx_calculate_hash(vm, src, len(src), out)
        finally:
            self._core.release(gen, vm)
        return out.raw

    def hash_many(self, inputs, key=None):
        """The hashes of inputs (an iterable of bytes-like), a list, by
        randomx_calculate_hash_first/next/last on one VM: each hash starts
        while the one before it finishes.  key as for hash()."""
        try:
            items = list(inputs)
        except TypeError:
            raise TypeError("inputs must be an iterable of bytes-like, not "
                            "%s" % type(inputs).__name__)
        srcs = [_bytes(x, "inputs[%d]" % i) for i, x in enumerate(items)]
        if key is not None:
            key = _bytes(key, "key")
        if not srcs:
            return []
        outs = [ctypes.create_string_buffer(HASH_SIZE) for _ in srcs]
        gen, vm = self._core.acquire(key)
        try:
            _lib.randomx_calculate_hash_first(vm, srcs[0], len(srcs[0]))
            for i in range(1, len(srcs)):
                _lib.randomx_calculate_hash_next(vm, srcs[i], len(srcs[i]),
                                                 outs[i - 1])
            _lib.randomx_calculate_hash_last(vm, outs[-1])
        finally:
            self._core.release(gen, vm)
        return [o.raw for o in outs]

    def commitment(self, data, key=None):
        """RandomX v2's commitment of data: BLAKE2b-256 of data followed by
        its RandomX hash (computed here with this object's key and version;
        commitment() takes a hash already known)."""
        src = _bytes(data, "data")
        return commitment(src, self.hash(src, key))

    def close(self):
        """Free the memory once no thread is hashing with it; hash() and
        set_key() then raise ValueError.  Closing twice does nothing."""
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        key = self.key
        return "<RandomX %s %s key=%s>" % (
            "v2" if self._v2 else "v1", "full" if self._full else "light",
            key.hex() if key is not None else "(closed)")


def commitment(data, hash):
    """BLAKE2b-256(data || hash), RandomX v2's commitment, where hash is
    data's RandomX hash (32 bytes)."""
    src = _bytes(data, "data")
    h = _bytes(hash, "hash")
    if len(h) != HASH_SIZE:
        raise ValueError("hash must be %d bytes, not %d" % (HASH_SIZE, len(h)))
    out = ctypes.create_string_buffer(HASH_SIZE)
    _lib.randomx_calculate_commitment(src, len(src), h, out)
    return out.raw


# Monero's seed schedule: the key of block height h is the hash of block
# seed_height(h), which changes every 2048 blocks, 64 blocks late.
_EPOCH_BLOCKS = 2048
_EPOCH_LAG = 64


def _height(height):
    if isinstance(height, bool):
        raise TypeError("height must be an integer, not bool")
    try:
        h = operator.index(height)
    except TypeError:
        raise TypeError("height must be an integer, not %s"
                        % type(height).__name__)
    if h < 0 or h >= 1 << 64:
        raise ValueError("height=%d: must be from 0 to 2**64 - 1" % h)
    return h


def seed_height(height):
    """The height of the block whose hash is the RandomX key at height
    (Monero's rx_seedheight)."""
    h = _height(height)
    if h <= _EPOCH_BLOCKS + _EPOCH_LAG:
        return 0
    return (h - _EPOCH_LAG - 1) & ~(_EPOCH_BLOCKS - 1)


class _SeedCache:
    """get_rx_hash's RandomX objects, one per seed hash, the most recently
    used `keep` of them (pyrx keeps two: this epoch's and the last)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.objects = {}       # seed -> [RandomX or None, threading.Event]
        self.order = []         # seeds, least recently used first
        self.full = False
        self.v2 = False
        self.keep = 2

    def get(self, seed):
        with self.lock:
            entry = self.objects.get(seed)
            if entry is not None:
                self.order.remove(seed)
                self.order.append(seed)
                builder = False
            else:
                entry = self.objects[seed] = [None, threading.Event()]
                self.order.append(seed)
                builder = True
                full, v2 = self.full, self.v2
        if not builder:
            entry[1].wait()
            if entry[0] is None:
                raise MemoryError("RandomX: the cache for this seed could "
                                  "not be built")
            return entry[0]
        try:
            entry[0] = RandomX(seed, v2=v2, full=full)
        finally:
            entry[1].set()
            with self.lock:
                if entry[0] is None:
                    self._drop(seed, entry)
                evicted = self._evict()
            for rx in evicted:
                rx.close()      # freed when its hashes in flight are done
        return entry[0]

    def _drop(self, seed, entry):
        if self.objects.get(seed) is entry:
            del self.objects[seed]
            self.order.remove(seed)

    def _evict(self):
        """Drop the least recently used built objects beyond keep."""
        evicted = []
        for seed in list(self.order):
            if len(self.order) <= self.keep:
                break
            entry = self.objects[seed]
            if entry[1].is_set() and entry[0] is not None:
                self._drop(seed, entry)
                evicted.append(entry[0])
        return evicted

    def configure(self, full, v2, keep):
        with self.lock:
            evicted = [e[0] for e in self.objects.values()
                       if e[1].is_set() and e[0] is not None]
            self.objects = {s: e for s, e in self.objects.items()
                            if not e[1].is_set()}
            self.order = [s for s in self.order if s in self.objects]
            self.full, self.v2, self.keep = full, v2, keep
        for rx in evicted:
            rx.close()


_seeds = _SeedCache()


def get_rx_hash(data, seed_hash, height):
    """pyrx's get_rx_hash: the RandomX hash of data (bytes-like, or str as
    UTF-8, as pyrx takes it) with key seed_hash (32 bytes), as 32 bytes.

    The key's cache is built on first use and kept; the two most recently
    used keys are kept (configure_rx_hash changes that), so a pool crossing
    a seed change hashes with both without rebuilding.  Threads share the
    objects and hash in parallel; one seed's cache is built once, while
    calls with the other keys go on.  height (0 to 2**64 - 1) is checked;
    the key is chosen by seed_hash alone (pyrx 0.0.5 compares both the
    seed hash and the seed height, which gives the same hashes).  pyrx
    builds a full-mode dataset on every CPU; here the default is the light
    mode (256 MiB per key, a cache ready in about a second), and
    configure_rx_hash(full=True) gives pyrx's.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    src = _bytes(data, "data")
    seed = _bytes(seed_hash, "seed_hash")
    if len(seed) != 32:
        raise ValueError("seed_hash must be 32 bytes, not %d" % len(seed))
    _height(height)
    while True:
        rx = _seeds.get(seed)
        try:
            return rx.hash(src)
        except ValueError:
            # Evicted and closed between get() and hash() by a burst of
            # other seeds: build it again.
            if rx.key is not None:
                raise


def configure_rx_hash(full=False, v2=False, keep=2):
    """get_rx_hash's settings: full mode (a 2080 MiB dataset per key, as
    pyrx built), RandomX v2, and how many keys to keep.  The keys kept
    so far are dropped."""
    _seeds.configure(bool(full), bool(v2), _count(keep, "keep", 2))
