#!/bin/sh
# Instructions per step of the dense box, counted by callgrind (stable on a
# noisy machine, unlike wall time): N settled spheres from `grains bench
# --save`, their cube as an OFF mesh of six rectangles, one thread; a run of
# 2S steps less a run of S steps, so that loading and the first rebuild cancel.
# Usage: bench/callgrind_step.sh GRAINS SAVE_DIR N [S] [--set K=V ...]
set -eu
grains=$1 save=$2 n=$3 s=${4:-300}
shift 3; [ $# -gt 0 ] && shift
edge=$(cat "$save/settled$n.box")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/cube.off" <<END_OFF
OFF
8 6 0
0 0 0
$edge 0 0
$edge $edge 0
0 $edge 0
0 0 $edge
$edge 0 $edge
$edge $edge $edge
0 $edge $edge
4 0 1 2 3 0
4 4 7 6 5 0
4 0 4 5 1 0
4 1 5 6 2 0
4 2 6 7 3 0
4 3 7 4 0 0
END_OFF
count() {
    steps=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$steps" "$grains" run --mesh "$work/cube.off" \
        --particles "$save/settled$n.csv" --set N_max=0 --set N_frames=1 --set vtk=false --set R_mesh=0 \
        --set R_min=0.0045 --set R_max=0.0055 --set eta=0 --threads 1 --quiet --set N_steps="$steps" "$@" \
        -o "$work/out" >/dev/null 2>&1
    sed -n 's/^summary: //p' "$work/cg.$steps"
}
one=$(count "$s" "$@")
two=$(count $((2 * s)) "$@")
echo "instructions/step: $(( (two - one) / s ))"
