#!/bin/sh
# Rotational kinetic energy of a settled dense box under the two friction
# orders (docs/model.md): settle N spheres with the spring incremented before
# the force (which comes to rest), then continue the same state with each
# order and print E_rot per particle every 100 steps.
# Usage: bench/friction_order.sh [N] [steps]   (from the repository root, after make)
set -eu
N=${1:-10000}
STEPS=${2:-1000}
G=${GRAINS:-build/grains}
D=$(mktemp -d /tmp/grains-friction-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$G" bench --n "$N" --threads 1 --steps 100 --settle 1.0 --set friction_order=increment_first --save "$D" > /dev/null
L=$(cat "$D/settled$N.box")
# the closed cube [0, L]^3 as six rectangles
awk -v L="$L" 'BEGIN { print "OFF\n8 6 0";
  print 0,0,0; print L,0,0; print L,L,0; print 0,L,0; print 0,0,L; print L,0,L; print L,L,L; print 0,L,L;
  print "4 0 1 2 3\n4 4 5 6 7\n4 0 1 5 4\n4 3 2 6 7\n4 0 3 7 4\n4 1 2 6 5" }' > "$D/box.off"
for order in increment_first tinydem; do
    "$G" run --mesh "$D/box.off" --particles "$D/settled$N.csv" -o "$D/$order" --quiet \
        --set R_min=0.0045 --set R_max=0.0055 --set R_mesh=0 --set N_max=0 --set N_spawn=0 \
        --set N_frames=$((STEPS / 100)) --set N_steps=100 --set vtk=false --set friction_order=$order
done
echo "step  E_rot/N [J] increment_first  E_rot/N [J] tinydem"
paste -d, "$D/increment_first/thermo.csv" "$D/tinydem/thermo.csv" | awk -F, -v n="$N" \
    'NR > 1 { printf "%5d  %28.3e  %20.3e\n", $1, $6 / n, $13 / n }'
