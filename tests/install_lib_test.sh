#!/bin/sh
# The installed library, as a C programmer meets it: `cmake --install` into a fresh prefix puts
# libgrains.so with its soname, the public headers, grains.pc and the examples' sources there;
# examples/two_spheres.c, copied from the installed examples, compiles with
# `pkg-config --cflags --libs grains` alone (no path into the source tree) and measures the
# restitution it asks for (e_n = 0.5: e within 1e-2, the contact's damping fit to Eq. 21).
# Usage: install_lib_test.sh CMAKE BUILD_DIR [PYTHON_BUILT [SOURCE_DIR]]: with PYTHON_BUILT 1 (the
# build made the Python module) its installed copy must be there and run, and pip must build the
# source's python/ folder against the installed library into a fresh venv (made from Debian's Python
# with --system-site-packages, offline: --no-build-isolation --no-index) where `import grains` runs a
# simulation on the installed library; with 0 the Python part is skipped, saying so.
set -eu
cmake=$1 build=$2 python_built=${3:-0} src=${4:-}
command -v pkg-config >/dev/null || { echo "install_lib_test: pkg-config missing: skipped"; exit 77; }
T=$(mktemp -d /tmp/grains-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$cmake" --install "$build" --prefix "$T/prefix" >/dev/null
pc=$(find "$T/prefix" -name grains.pc)
[ -n "$pc" ] || { echo "FAIL: no grains.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
for f in "$libdir/libgrains.so" "$libdir/libgrains.so.0" "$T/prefix/include/grains/sim.h" \
         "$T/prefix/share/grains/examples/two_spheres.c"; do
    [ -e "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
soname=$(objdump -p "$libdir/libgrains.so" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = libgrains.so.0 ] || { echo "FAIL: soname '$soname', not libgrains.so.0"; exit 1; }
cd "$T"
# The boundary: the library exports the functions and tables its installed headers declare, and
# nothing else (grains/api.h); no header of the engine's own is installed.
[ ! -e "$T/prefix/include/grains/validate.h" ] || { echo "FAIL: an internal header (validate.h) is installed"; exit 1; }
for h in "$T/prefix/include/grains"/*.h; do echo "#include \"grains/$(basename "$h")\""; done >all.c
cc -std=c11 -E -P -I"$T/prefix/include" all.c | tr '\n' ' ' | sed 's/[;{}]/&\n/g' >headers.i
grep -oE '\bgrains_[A-Za-z0-9_]+\b' headers.i | sort -u >named
grep -v 'static inline' headers.i | grep -v '^ *typedef' | grep -oE '\bgrains_[A-Za-z0-9_]+ *\(' | tr -d ' (' | sort -u >functions
nm -D --defined-only "$libdir/libgrains.so" | awk '$3 !~ /^_/ {print $3}' | sort -u >exported
outside=$(comm -23 exported named | tr '\n' ' ')
missing=$(comm -23 functions exported | tr '\n' ' ')
[ -z "$outside" ] || { echo "FAIL: exported but not in the public headers: $outside"; exit 1; }
[ -z "$missing" ] || { echo "FAIL: declared in the public headers but not exported: $missing"; exit 1; }
echo "install_lib_test: libgrains.so exports $(wc -l <exported) names, $(wc -l <functions) functions of the public headers among them, nothing else"
cp "$T/prefix/share/grains/examples/two_spheres.c" .
# shellcheck disable=SC2046
cc -std=c11 -o two_spheres two_spheres.c $(PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags --libs grains)
LD_LIBRARY_PATH="$libdir" ./two_spheres >out
cat out
awk '{ for (i = 1; i < NF; i++) if ($i == "e" && $(i + 1) == "=") e = $(i + 2) + 0 }
     END { if (e < 0.49 || e > 0.51) { print "FAIL: e = " e ", not 0.5 within 1e-2"; exit 1 } }' out
LD_LIBRARY_PATH="$libdir" ldd ./two_spheres | grep -q "=> $libdir/libgrains.so.0" || { echo "FAIL: not linked to the installed library"; exit 1; }
echo "install_lib_test: installed library, headers and grains.pc build and run examples/two_spheres.c"
# The Python module, where it was built: imported from the installed tree (lib/python3.X/dist-packages,
# where Debian's python3 finds it for /usr/local), it finds the installed library by its RPATH.
py=$(find "$T/prefix" -path '*dist-packages/grains/__init__.py')
if [ "$python_built" = 1 ] && [ -z "$py" ]; then
    echo "FAIL: the Python module was built but not installed"; exit 1
elif [ -z "$py" ]; then
    echo "install_lib_test: the Python module was not built: its installed copy not tried"
else
    # (its output to a file, then shown: through a pipe the script would see tee's status, not Python's)
    PYTHONPATH=$(dirname "$(dirname "$py")") /usr/bin/python3 -c '
import os, grains
sim = grains.Simulation(set={"N_frames": 1})
sim.advance(10)
assert sim.steps == 10 and len(sim) > 0
loaded = {os.path.realpath(l.split()[-1]) for l in open("/proc/self/maps") if "libgrains.so" in l}
print("installed module:", grains.__file__, len(sim), "particles")
print("library:", *loaded)' >pyout 2>&1 || { cat pyout; echo "FAIL: the installed module did not run"; exit 1; }
    cat pyout
    grep -q "^installed module: $T/prefix" pyout || { echo "FAIL: the installed module is not the one imported"; exit 1; }
    grep -q "^library: $(realpath "$libdir")/libgrains.so.0" pyout ||
        { echo "FAIL: the installed module does not load the installed library"; exit 1; }
fi
[ "$python_built" = 1 ] && [ -n "$src" ] || exit 0
{ /usr/bin/python3 -c 'import setuptools' && /usr/bin/python3 -c 'import pip'; } 2>/dev/null ||
    { echo "install_lib_test: python3-pip or python3-setuptools missing (make deps): pip's build not tried"; exit 0; }
# pip: the module built by pip against the installed library, in a venv, in a folder of its own
/usr/bin/python3 -m venv --system-site-packages --without-pip "$T/venv"
cp -r "$src/python" "$T/pysrc"
rm -rf "$T/pysrc/build" "$T/pysrc"/*.egg-info
PKG_CONFIG_PATH="$(dirname "$pc")" "$T/venv/bin/python" -m pip install --no-build-isolation --no-index --quiet \
    "$T/pysrc" >pipout 2>&1 || { cat pipout; echo "FAIL: pip install of python/ into a venv"; exit 1; }
mkdir "$T/elsewhere" && cd "$T/elsewhere"
"$T/venv/bin/python" -c '
import os, sys, grains
sim = grains.Simulation(set={"N_frames": 1})
sim.advance(10)
assert sim.steps == 10 and len(sim) > 0
loaded = {os.path.realpath(l.split()[-1]) for l in open("/proc/self/maps") if "libgrains.so" in l}
print("pip module:", grains.__file__, sys.prefix)
print("library:", *loaded)' >pyout 2>&1 || { cat pyout; echo "FAIL: the module pip installed did not run"; exit 1; }
cat pyout
grep -q "^pip module: $T/venv/lib/python3[0-9.]*/site-packages/grains/__init__.py $T/venv" pyout ||
    { echo "FAIL: the module imported is not the venv's"; exit 1; }
grep -q "^library: $(realpath "$libdir")/libgrains.so.0" pyout ||
    { echo "FAIL: the module pip built does not load the installed library"; exit 1; }
echo "install_lib_test: pip built python/ against the installed library into a venv, and it runs there"
