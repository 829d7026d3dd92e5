"""yespower proof-of-work hashing, from libyespower.

    import yespower
    yespower.hash(header)                        # yespower 1.0, N=2048, r=32
    yespower.hash(header, N=4096, r=16)          # Yenten's yespowerR16
    yespower.hash(header, version=5, r=8, pers=b"Client Key")
    yespower.hash_preset("yescryptr16", header)  # a chain's parameters
    yespower.presets()                           # what the presets are

    import yespowerr16_hash                      # the module names pools use
    yespowerr16_hash.getPoWHash(header)

RandomX (v1 and v2, pyrx's get_rx_hash) is in yespower.randomx.

Every hash is 32 bytes, in the order it is computed in: chains compare it with
their target as a little-endian number (int.from_bytes(h, "little")), and
block explorers show it reversed (h[::-1].hex()).

Invalid values raise ValueError naming the problem; data that is not
bytes-like raises TypeError, as hashlib does; a hash that cannot get its
memory raises MemoryError.  The GIL is released while hashing, so threads
hash in parallel; each thread keeps its own working memory.

The module calls libyespower.so through ctypes.  It loads the file named
by the environment variable YESPOWER_LIBRARY, if set (and only that: if it
cannot be loaded, or is not libyespower, importing fails naming it);
otherwise the copy that `pip install` put next to this file, or else
libyespower.so.1 from the system (`make install`).
"""

import collections
import ctypes
import errno as _errno
import operator
import os

__all__ = ["hash", "hash_preset", "presets", "Preset", "impl_name",
           "library_path"]
__version__ = "1.0.0"

_SONAME = "libyespower.so.1"
_MIN_N, _MAX_N = 1024, 524288
_MIN_R, _MAX_R = 8, 32
_HASH_BLAKE2B = 1


class _Params(ctypes.Structure):
    """yespower_params_t."""
    _fields_ = [("version", ctypes.c_int),
                ("N", ctypes.c_uint32),
                ("r", ctypes.c_uint32),
                ("pers", ctypes.POINTER(ctypes.c_ubyte)),
                ("perslen", ctypes.c_size_t)]


class _Binary(ctypes.Structure):
    """yespower_binary_t."""
    _fields_ = [("uc", ctypes.c_ubyte * 32)]


class _Preset(ctypes.Structure):
    """yespower_preset_t."""
    _fields_ = [("name", ctypes.c_char_p),
                ("params", _Params),
                ("pers_is_input", ctypes.c_int),
                ("hash", ctypes.c_int),
                ("coins", ctypes.c_char_p)]


def _load_library(module, name, soname, env, declare, **cdll):
    """Load lib<name> for module: $env alone if set, else the copy beside
    this file, then the system's soname; declare(lib) states the C
    signatures.  The library and its path; ImportError if it cannot be
    had.  (yespower.randomx loads librandomx the same way.)"""
    here = os.path.dirname(os.path.abspath(__file__))
    named = os.environ.get(env)
    # A library named in the environment is the only one tried: falling
    # back to another copy would hide that it is not the one asked for.
    candidates = [named] if named else [os.path.join(here, soname), soname]
    problems = []
    for path in candidates:
        try:
            # CDLL, not PyDLL: every call releases the GIL.
            lib = ctypes.CDLL(path, **cdll)
        except OSError as e:
            problems.append(str(e))
            continue
        try:
            declare(lib)
        except AttributeError as e:
            problems.append("%s is not %s (%s)" % (path, name, e))
            continue
        return lib, path
    raise ImportError("%s: cannot load %s (tried %s%s): %s"
                      % (module, name, ", ".join(candidates),
                         " from $%s" % env if named else "",
                         "; ".join(problems)))


def _declare(lib):
    """The C signatures; AttributeError if lib lacks a function."""
    hash_args = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_Params),
                 ctypes.POINTER(_Binary)]
    lib.yespower_tls.argtypes = hash_args
    lib.yespower_tls.restype = ctypes.c_int
    lib.yespower_b2b_tls.argtypes = hash_args
    lib.yespower_b2b_tls.restype = ctypes.c_int
    lib.yespower_preset_at.argtypes = [ctypes.c_size_t]
    lib.yespower_preset_at.restype = ctypes.POINTER(_Preset)
    lib.yespower_preset_hash.argtypes = [ctypes.POINTER(_Preset),
                                         ctypes.c_char_p, ctypes.c_size_t,
                                         ctypes.POINTER(_Binary)]
    lib.yespower_preset_hash.restype = ctypes.c_int
    lib.yespower_impl_name.argtypes = []
    lib.yespower_impl_name.restype = ctypes.c_char_p


_lib, library_path = _load_library(
    "yespower", "libyespower", _SONAME, "YESPOWER_LIBRARY", _declare,
    use_errno=True)

Preset = collections.namedtuple(
    "Preset", "name version N r pers pers_is_input hash coins")
Preset.__doc__ = """A chain's parameter set.  version is 5 or 10; pers is
bytes, or None for none, or None with pers_is_input True when the input is
its own personalization; hash is "sha256", or "blake2b" for power2b."""


def _read_presets():
    table = {}
    i = 0
    while True:
        p = _lib.yespower_preset_at(i)
        if not p:
            return table
        c = p.contents
        pers = None
        if c.params.pers:
            pers = ctypes.string_at(c.params.pers, c.params.perslen)
        info = Preset(c.name.decode("ascii"), c.params.version, c.params.N,
                      c.params.r, pers, bool(c.pers_is_input),
                      "blake2b" if c.hash == _HASH_BLAKE2B else "sha256",
                      c.coins.decode("utf-8"))
        table[info.name.lower()] = (p, info)
        i += 1


_presets = _read_presets()


def _bytes(value, what):
    """value as bytes, if it is bytes-like."""
    if isinstance(value, bytes):
        return value
    try:
        return memoryview(value).tobytes()
    except TypeError:
        raise TypeError("%s must be bytes-like (bytes, bytearray, "
                        "memoryview), not %s" % (what, type(value).__name__))


def _int(value, what):
    if isinstance(value, bool):
        raise ValueError("%s=%r: must be an integer" % (what, value))
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError("%s=%r: must be an integer" % (what, value))


def _version(value):
    """5 or 10 from 5, 10 (integers) or 0.5, 1.0 (floats); else ValueError."""
    if isinstance(value, float):
        if value in (0.5, 1.0):
            return 5 if value == 0.5 else 10
    elif not isinstance(value, bool):
        try:
            v = operator.index(value)
        except TypeError:
            v = None
        if v in (5, 10):
            return v
    raise ValueError("version=%r: must be 10 (1.0) or 5 (0.5)" % (value,))


def _check(rc, what):
    if rc == 0:
        return
    err = ctypes.get_errno()
    if err == _errno.ENOMEM:
        raise MemoryError("yespower: not enough memory for %s" % what)
    if err == _errno.EINVAL:
        raise ValueError("yespower: invalid parameters for %s" % what)
    raise OSError(err, "yespower: %s failed: %s" % (what, os.strerror(err)))


def hash(data, N=2048, r=32, pers=None, version=10, *, b2b=False):
    """The yespower hash of data (bytes-like), as 32 bytes.

    N: a power of 2 from 1024 to 524288; r: 8 to 32 (memory: 128*N*r
    bytes); pers: the personalization, bytes or str (UTF-8), or None;
    version: 10 (yespower 1.0) or 5 (0.5, yescrypt-compatible; also 1.0
    and 0.5).  In version 5, pers=None and pers=b"" differ.  b2b=True
    computes power2b (BLAKE2b in place of SHA-256; version 10 only).
    """
    src = _bytes(data, "data")
    N = _int(N, "N")
    r = _int(r, "r")
    version = _version(version)
    if N < _MIN_N or N > _MAX_N or N & (N - 1):
        raise ValueError("N=%d: must be a power of 2 from %d to %d"
                         % (N, _MIN_N, _MAX_N))
    if r < _MIN_R or r > _MAX_R:
        raise ValueError("r=%d: must be from %d to %d" % (r, _MIN_R, _MAX_R))
    if b2b and version != 10:
        raise ValueError("b2b (power2b) needs version 10 (1.0)")
    params = _Params(version, N, r, None, 0)
    if pers is not None:
        pers = pers.encode("utf-8") if isinstance(pers, str) else \
            _bytes(pers, "pers")
        # NUL-terminated, so that even b"" is a valid non-NULL pointer.
        pers_buf = ctypes.create_string_buffer(pers)
        params.pers = ctypes.cast(pers_buf,
                                  ctypes.POINTER(ctypes.c_ubyte))
        params.perslen = len(pers)
    out = _Binary()
    fn = _lib.yespower_b2b_tls if b2b else _lib.yespower_tls
    _check(fn(src, len(src), ctypes.byref(params), ctypes.byref(out)),
           "N=%d, r=%d" % (N, r))
    return bytes(out.uc)


def _find(name):
    if not isinstance(name, str):
        raise TypeError("preset name must be str, not %s"
                        % type(name).__name__)
    try:
        return _presets[name.lower()]
    except KeyError:
        raise ValueError("unknown preset %r; the presets are: %s"
                         % (name, ", ".join(p.name for p in presets())))


def hash_preset(name, data):
    """The hash of data as the chain of preset name computes it (32 bytes).

    name is one of presets() (case does not matter), such as "yespower",
    "yespowerr16", "yescryptr16" or "power2b".
    """
    preset, info = _find(name)
    src = _bytes(data, "data")
    out = _Binary()
    _check(_lib.yespower_preset_hash(preset, src, len(src),
                                     ctypes.byref(out)),
           "preset %s" % info.name)
    return bytes(out.uc)


def presets():
    """Every preset, as a tuple of Preset, in the library's order."""
    return tuple(info for _, info in _presets.values())


def impl_name():
    """The implementation in use, as "CORE+SHA256": the mixing core and
    the SHA-256 compression function, such as "avx512vl+shani" or
    "sse2+portable" (see the README's Implementations)."""
    return _lib.yespower_impl_name().decode("ascii")


def _pow_hash_function(name):
    """getPoWHash(header) for preset name, for the per-coin modules."""
    preset, info = _find(name)

    def getPoWHash(header):
        src = _bytes(header, "header")
        out = _Binary()
        _check(_lib.yespower_preset_hash(preset, src, len(src),
                                         ctypes.byref(out)),
               "preset %s" % info.name)
        return bytes(out.uc)

    getPoWHash.__doc__ = ("The %s hash of header (bytes-like, usually the "
                          "80-byte block header), 32 bytes in the order it "
                          "is computed in (%s)." % (info.name, info.coins))
    return getPoWHash
