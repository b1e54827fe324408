#!/bin/sh
# What the machine allows two ranks: half of the box that bench/ranks_compare.sh
# times on 2 ranks (the settled box of N tiled NX/2 x NY x NZ), run in one
# process on one thread, alone and then two copies at once. Where two
# copies take what one takes alone, the cores and their memory give 2x, and
# what a run on 2 ranks takes beyond a half's time is the ranks' own cost
# (messages, copies, waiting for the slower rank). ROUNDS interleaved
# rounds; each line is the steps' own time (grains' end summary less its
# frames' writing).
# Usage: bench/ranks_ceiling.sh N STEPS ROUNDS [HALF_TILES]
#   (after make; HALF_TILES "5 1 1" with N = 100000: half the 10^6 box of
#   TILES="5 2 1", as in docs/benchmarks.md)
set -eu
N=${1:-100000}
STEPS=${2:-100}
ROUNDS=${3:-3}
TILES=${4:-5 1 1}
G=$(realpath "${GRAINS:-build/grains}")
D=$(mktemp -d /tmp/grains-ceiling-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$G" bench --n "$N" --threads 1 --repeat 1 --steps 1 --save "$D" > /dev/null 2>&1
L=$(cat "$D/settled$N.box")
# shellcheck disable=SC2086 # the three tile counts
python3 "$(dirname "$0")/tile_box.py" "$D/settled$N.csv" "$L" $TILES "$D/half"
for copy in a b; do
    mkdir -p "$D/$copy"
    cat > "$D/$copy/box.cfg" <<CFG
R_min = 0.0045; R_max = 0.0055; R_mesh = [0.0]; N_max = 0; N_spawn = 0; eta = 0.0;
particles = "$D/half.csv"; mesh = "$D/half.off";
N_frames = 1; N_steps = $STEPS; output_dir = "out"; checkpoint_every = 0;
CFG
done

# run COPY: one thread of grains on the half box, in its own folder
run() { rm -rf "$D/$1/out"; (cd "$D/$1" && "$G" run box.cfg --threads 1 > log 2>&1); }
# steps COPY: the steps' seconds from the end summary
steps() {
    sed -n 's/^done: [0-9]* steps in \([^ ]*\) s.*; \([^ ]*\) s of it writing.*/\1 \2/p' "$D/$1/log" |
        awk '{ printf "%.3g", $1 - $2 }'
}
echo "half: the settled box of $N tiled $TILES, $STEPS steps; seconds for the steps"
for round in $(seq "$ROUNDS"); do
    run a
    echo "round $round: alone $(steps a)"
    run a & run b
    wait
    echo "round $round: two at once $(steps a), $(steps b)"
done
