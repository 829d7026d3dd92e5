"""A PEP 517 build backend for the yespower Python package, standard library
only, so that pip can install ./python with no network and no setuptools.

build_wheel() runs `make B=build/python build/python/libyespower.so.1
build/python/randomx/librandomx.so.0` in the libyespower checkout that
holds this directory (pip builds a local directory in place): a build of
its own with the default flags, whatever the top level was built with.
Then it writes a wheel of:
  yespower/__init__.py, yespower/libyespower.so.1   the module and library
  yespower/randomx.py, yespower/librandomx.so.0     RandomX's
  modules/*.py, at the top level                    getPoWHash per preset
  yespower-VERSION.dist-info/                       METADATA, WHEEL, RECORD

The wheel holds a native library but no Python extension, so its tag is
py3-none-<platform>: one wheel serves every Python 3 on this platform.
The environment variables MAKE and CC choose the tools.
"""

import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import zipfile

NAME = "yespower"
SONAME = "libyespower.so.1"
RX_SONAME = "librandomx.so.0"
SUMMARY = ("yespower and RandomX proof-of-work hashing (libyespower): "
           "yespower 0.5/1.0, power2b, chain presets, the getPoWHash "
           "modules pools import, RandomX v1/v2 and pyrx's get_rx_hash")

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)           # python/
SOURCE_ROOT = os.path.dirname(PACKAGE_ROOT)    # the libyespower checkout


def _version():
    path = os.path.join(PACKAGE_ROOT, "yespower", "__init__.py")
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("no __version__ in %s" % path)
    return m.group(1)


def _platform_tag():
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _build_library():
    """Build libyespower.so.1 and librandomx.so.0 in the checkout; return
    their paths."""
    for needed in ("Makefile", "yespower.h"):
        if not os.path.exists(os.path.join(SOURCE_ROOT, needed)):
            raise RuntimeError(
                "yespower: %s has no %s: python/ must be built inside a "
                "libyespower checkout (pip >= 21.3 builds a local directory "
                "in place)" % (SOURCE_ROOT, needed))
    make = os.environ.get("MAKE", "make")
    # A build of its own, in build/python/ with the default flags: the
    # top-level library may have been built for something else (a
    # sanitizer, -march=native), which must not end up in the wheel.
    build = "build/python"
    cmd = [make, "-C", SOURCE_ROOT, "B=" + build, build + "/" + SONAME,
           build + "/randomx/" + RX_SONAME]
    env = dict(os.environ)
    env.pop("CFLAGS", None)
    print("yespower: running %s" % " ".join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, stdout=sys.stderr, stderr=sys.stderr, env=env)
    if done.returncode != 0:
        raise RuntimeError("yespower: `%s` failed (exit status %d): the "
                           "package needs make and a C compiler"
                           % (" ".join(cmd), done.returncode))
    return (os.path.join(SOURCE_ROOT, build, SONAME),
            os.path.join(SOURCE_ROOT, build, "randomx", RX_SONAME))


def _files(libraries):
    """(name in the wheel, path on disk, mode) for every packaged file."""
    package = os.path.join(PACKAGE_ROOT, "yespower")
    files = [("yespower/__init__.py",
              os.path.join(package, "__init__.py"), 0o644),
             ("yespower/randomx.py",
              os.path.join(package, "randomx.py"), 0o644)]
    files += [("yespower/" + os.path.basename(lib), lib, 0o755)
              for lib in libraries]
    modules = os.path.join(PACKAGE_ROOT, "modules")
    for name in sorted(os.listdir(modules)):
        if name.endswith(".py"):
            files.append((name, os.path.join(modules, name), 0o644))
    return files


def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _add(zf, record, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)
    record.append("%s,%s,%d" % (name, _record_hash(data), len(data)))


def _metadata(version):
    return ("Metadata-Version: 2.1\n"
            "Name: %s\n"
            "Version: %s\n"
            "Summary: %s\n"
            "Requires-Python: >=3.7\n" % (NAME, version, SUMMARY))


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    tag = "py3-none-" + _platform_tag()
    dist_info = "%s-%s.dist-info" % (NAME, version)
    wheel_name = "%s-%s-%s.whl" % (NAME, version, tag)
    files = _files(_build_library())
    top_level = sorted({name.split("/")[0].rsplit(".py", 1)[0]
                        for name, _, _ in files})
    record = []
    path = os.path.join(wheel_directory, wheel_name)
    with zipfile.ZipFile(path, "w") as zf:
        for name, source, mode in files:
            with open(source, "rb") as f:
                _add(zf, record, name, f.read(), mode)
        _add(zf, record, dist_info + "/METADATA",
             _metadata(version).encode())
        _add(zf, record, dist_info + "/WHEEL",
             ("Wheel-Version: 1.0\n"
              "Generator: yespower_build\n"
              "Root-Is-Purelib: false\n"
              "Tag: %s\n" % tag).encode())
        _add(zf, record, dist_info + "/top_level.txt",
             "".join(m + "\n" for m in top_level).encode())
        record.append(dist_info + "/RECORD,,")
        _add(zf, [], dist_info + "/RECORD",
             "".join(line + "\n" for line in record).encode())
    return wheel_name
