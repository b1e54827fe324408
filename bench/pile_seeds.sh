#!/bin/sh
# The quasi-2D pile (examples/pile_quasi2d.cfg, as shipped) poured with N grains for each of
# SEEDS seeds and left to rest until T_END, JOBS runs at once, one thread each. Prints a row
# per seed (the largest overlap of the run, the kinetic energy at the end, both flanks' fitted
# angles and their mean, from examples/pile_angle.py), then the angle's mean and standard
# deviation over the seeds. A run that stops (exit 1) is a row that says so.
# Usage: bench/pile_seeds.sh [GRAINS] [N] [SEEDS] [T_END] [JOBS] [DIR]
#   defaults: build/grains 4000 10 1.0 2 /tmp/grains-pile-seeds
set -u
G=${1:-build/grains}
N=${2:-4000}
SEEDS=${3:-10}
T_END=${4:-1.0}
JOBS=${5:-2}
DIR=${6:-/tmp/grains-pile-seeds}
S=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"

one() { # seed
    t0=$(date +%s)
    "$G" run "$S/examples/pile_quasi2d.cfg" --quiet -o "$DIR/s$1" \
        --threads 1 --set N_max="$N" --set t_end="$T_END" --set frame_interval="$T_END" --set seed="$1" \
        >"$DIR/s$1.log" 2>&1
    echo $? >"$DIR/s$1.rc"
    echo $(($(date +%s) - t0)) >"$DIR/s$1.time"
}

seed=1
while [ "$seed" -le "$SEEDS" ]; do
    k=0
    while [ "$k" -lt "$JOBS" ] && [ "$seed" -le "$SEEDS" ]; do
        one "$seed" &
        seed=$((seed + 1))
        k=$((k + 1))
    done
    wait
done

echo "seed | rc | wall s | grains | largest overlap/2R* | E_kin at end [J] | left flank | right flank | angle"
seed=1
while [ "$seed" -le "$SEEDS" ]; do
    d="$DIR/s$seed"
    rc=$(cat "$d.rc")
    python3 "$S/examples/pile_angle.py" "$d" >"$d.angle" 2>&1
    awk -F, -v seed="$seed" -v rc="$rc" -v wall="$(tail -1 "$d.time")" -v angle="$d.angle" '
        NR > 1 { if ($7 > most) most = $7; n = $3; ek = $5 }
        END {
            while ((getline line < angle) > 0) {
                split(line, w, " ")
                if (line ~ /^left flank:/) left = w[3] " +- " w[5]
                if (line ~ /^right flank:/) right = w[3] " +- " w[5]
                if (line ~ /angle of repose/) { sub(/.*angle of repose /, "", line); sub(/ deg.*/, "", line); mean = line }
            }
            printf "%d | %s | %s | %d | %.3f | %.3g | %s | %s | %s\n", seed, rc, wall, n, most, ek, left, right, mean
        }' "$d/thermo.csv"
    seed=$((seed + 1))
done | tee "$DIR/table.txt"
awk -F'|' '{ split($9, a, " "); if (a[1] != "") { x[++n] = a[1]; s += a[1] } }
    END { if (n < 2) exit 1; m = s / n; for (k = 1; k <= n; k++) v += (x[k] - m)^2
          printf "angle of repose over %d seeds: mean %.1f deg, standard deviation %.1f deg\n", n, m, sqrt(v / (n - 1)) }' \
    "$DIR/table.txt"
