#!/bin/sh
# Validation case 6 against LAMMPS: filling a box (variational-integrator
# paper, Section 3.4) from the same start state with the same law, grains'
# three integrators against LAMMPS' velocity Verlet.
# Usage: box_fill.sh EXAMPLE_BOX_FILL SOURCE_DIR. Exit 77 (skipped) without lmp.
set -eu
command -v lmp >/dev/null 2>&1 || { echo "lmp (Debian package lammps) not found: skipped"; [ -n "${GRAINS_REQUIRE_PEERS:-}" ] && exit 1; exit 77; }
D=$(mktemp -d /tmp/grains-peer-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$1" --lammps "$D" > "$D/grains.txt"
lmp -in "$2/tests/peers/box_fill.in" -var dir "$D" -log "$D/log.lammps" > "$D/lmp.out" 2>&1 \
    || { cat "$D/lmp.out"; exit 1; }
python3 "$2/tests/peers/box_fill_compare.py" "$D/grains.txt" "$D/lammps.txt"
