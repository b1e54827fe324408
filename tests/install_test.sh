#!/bin/sh
# make install's promise: the installed command runs from anywhere, and the
# installed examples find the meshes they name (../data/ beside them).
# Usage: install_test.sh BUILD_DIR
set -u
T=$(mktemp -d /tmp/grains-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
cmake --install "$1" --prefix "$T/usr" >"$T/log" 2>&1 || { cat "$T/log"; bad "cmake --install failed"; exit 1; }
G="$T/usr/bin/grains"
[ -x "$G" ] || bad "no $G"
{ "$G" --version >"$T/version" 2>&1 && grep -q '^grains ' "$T/version"; } ||
    bad "the installed grains --version: $(cat "$T/version")"
cd "$T" || exit 1
"$G" check "$T/usr/share/grains/examples/piston.cfg" >"$T/out" 2>&1 || bad "the installed piston example: $(cat "$T/out")"
"$G" run "$T/usr/share/grains/examples/rotating_drum.cfg" --set N_frames=1 --set N_steps=5 -o "$T/drum" >"$T/out" 2>&1 ||
    bad "the installed drum example does not run: $(cat "$T/out")"
grep -q "^done: 5 steps" "$T/out" || bad "no end summary: $(cat "$T/out")"
[ -f "$T/usr/share/doc/grains/scenario.md" ] || bad "the docs are not installed"
echo "install_test: $fail failed"
[ "$fail" -eq 0 ]
