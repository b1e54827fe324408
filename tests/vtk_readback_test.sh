#!/bin/sh
# The VTK frames, read back by VTK itself (python3-vtk9, installed by
# make deps-peers), in each vtk_format; skipped (77) where VTK is absent.
# Usage: vtk_readback_test.sh GRAINS_BINARY SOURCE_DIR
set -u
T=$(mktemp -d /tmp/grains-vtk-XXXXXX)
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 -c 'import vtk' 2>/dev/null || { echo "vtk_readback_test: no python3-vtk9, skipped"; [ -n "${GRAINS_REQUIRE_PEERS:-}" ] && exit 1; exit 77; }
for fmt in compressed binary ascii; do
    "$1" run --set N_frames=2 --set N_steps=300 --set vtk_format=$fmt --csv -o "$T/$fmt" --quiet || exit 1
    /usr/bin/python3 "$2/tests/vtk_readback.py" "$T/$fmt" $fmt || exit 1
done
# contacts: the forces in contactsNNNNNN.vtp sum to each particle's contact_force
"$1" run --set N_frames=2 --set N_steps=6000 --set contacts=true --csv -o "$T/contacts" --quiet || exit 1
/usr/bin/python3 "$2/tests/vtk_readback.py" "$T/contacts" compressed contacts || exit 1
