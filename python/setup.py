"""The compiled part of the module grains (grains._grains), built against
the installed libgrains that pkg-config finds (grains.pc): its headers,
its library, and a run path to it, so that no LD_LIBRARY_PATH is needed.
The rest is pyproject.toml's."""
import os
import shlex
import subprocess
import sys

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_ffi  # noqa: E402 (beside this file)


def pkg_config(*what):
    try:
        return subprocess.run(["pkg-config", *what, "grains"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("grains: pkg-config finds no installed libgrains (grains.pc): install the library first "
                 "(sudo make install; or cmake --install build --prefix P, then PKG_CONFIG_PATH=P/lib/pkgconfig "
                 "or P/lib/x86_64-linux-gnu/pkgconfig) (%s)" % (getattr(e, "stderr", "") or e).strip())


flags = shlex.split(pkg_config("--cflags", "--libs"))
libdir = pkg_config("--variable=libdir").strip()
ffi = build_ffi.make(include_dirs=[f[2:] for f in flags if f.startswith("-I")],
                     library_dirs=[f[2:] for f in flags if f.startswith("-L")],
                     libraries=[f[2:] for f in flags if f.startswith("-l")],
                     runtime_library_dirs=[libdir] if libdir else [])
setup(version=pkg_config("--modversion").strip(),
      ext_modules=[ffi.distutils_extension(tmpdir=os.path.join("build", "cffi"))])
