#!/bin/sh
# Two grains builds on the same settled polydisperse box (grains bench
# --ratio: N small spheres and a few of RATIO times their radius), through
# `grains run` on a scenario, so that a build without --ratio can run it.
# Usage: bench/poly_compare.sh N RATIO STEPS OLD_GRAINS NEW_GRAINS [SKIN]
# (after make; SKIN empty: each build's default skin)
set -eu
[ -n "${DEBUG:-}" ] && set -x
N=$1 RATIO=$2 STEPS=$3 OLD=$4 NEW=$5 SKIN=${6:-}
D=$(mktemp -d /tmp/grains-poly-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$NEW" bench --n "$N" --ratio "$RATIO" --threads 1 --repeat 1 --steps 10 --save "$D" > /dev/null
L=$(cat "$D"/settled"$N"*.box)
R_MAX=$(awk -v r="$RATIO" 'BEGIN { print (r > 1 ? r * 0.005 : 0.0055) }')
cat > "$D/cube.off" <<END_OFF
OFF
8 6 0
0 0 0
$L 0 0
$L $L 0
0 $L 0
0 0 $L
$L 0 $L
$L $L $L
0 $L $L
4 0 1 2 3 0
4 4 5 6 7 0
4 0 1 5 4 0
4 3 2 6 7 0
4 0 3 7 4 0
4 1 2 6 5 0
END_OFF
cat > "$D/poly.cfg" <<CFG
R_min = 0.0045; R_max = $R_MAX; R_mesh = [0.0]; N_max = 0; N_spawn = 0; eta = 0.0;
particles = "$(ls "$D"/settled"$N"*.csv)"; mesh = "cube.off";
N_frames = 1; N_steps = $STEPS; output_dir = "out"; checkpoint_every = 0;
${SKIN:+skin = $SKIN;}
CFG
for round in 1 2 3; do
    for G in "$OLD" "$NEW"; do
        rm -rf "$D/out"
        start=$(date +%s.%N)
        (cd "$D" && "$G" run poly.cfg --threads 1 --quiet > /dev/null 2>&1)
        end=$(date +%s.%N)
        echo "$G: $(awk -v a="$start" -v b="$end" -v s="$STEPS" -v n="$N" 'BEGIN { t = (b - a) / s; printf "%.4e s/step (load and 2 frames included)", t }')"
    done
done
