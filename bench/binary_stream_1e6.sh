#!/bin/sh
# The binary stream (examples/binary_stream.cfg) with N grains in it: the
# course made THICK diameters deep (data/make_binary_stream.py), the bed and
# hopper filled by bench/binary_stream_fill.py and settled under the
# example's physics for SETTLE steps, then resumed from that checkpoint
# for 250 and for 750 steps. Time per step is the
# difference of their wall times over 500 steps (loading the checkpoint
# cancels); memory is the longer run's peak RSS.
# Usage: bench/binary_stream_1e6.sh [N [THICK [SETTLE [THREADS]]]]
# (after make; default 1000000 grains, 70 D, 4000 steps (0.06 s) of
# settling, a multiple of 250, 2 threads)
set -eu
[ -n "${DEBUG:-}" ] && set -x
N=${1:-1000000} THICK=${2:-70} SETTLE=${3:-4000} S0=250 S1=750 T=${4:-2}
G=$(pwd)/build/grains
D=$(mktemp -d /tmp/grains-stream-XXXXXX)
trap 'rm -rf "$D"' EXIT
python3 data/make_binary_stream.py "$D/course.stl" 0.002 "$THICK"
python3 bench/binary_stream_fill.py "$D/fill.csv" "$N" 0.002 "$THICK"
sed -e "s|\.\./data/binary_stream\.stl|course.stl|" \
    -e "/t_end\|frame_interval/d" \
    -e "s|output_dir = .*|output_dir = \"$D/out\"; checkpoint_every = $SETTLE; particles = \"fill.csv\"; vtk = false;|" \
    examples/binary_stream.cfg > "$D/stream.cfg"
settle() {
    /usr/bin/time -f "%e %M" -o "$D/time" "$G" run "$D/stream.cfg" --quiet --threads "$T" \
        --set N_frames=$((SETTLE / 250)) --set N_steps=250 --set N_max="$N" > "$D/log" 2>&1 ||
        { cat "$D/log"; exit 1; }
    cat "$D/time"
}
more() { # steps after the settled state
    rm -rf "$D/more" && cp -r "$D/out" "$D/more"
    /usr/bin/time -f "%e %M" -o "$D/time" "$G" run --resume "$D/more" --quiet --threads "$T" \
        --set N_frames=$(((SETTLE + $1) / 250)) > "$D/log" 2>&1 || { cat "$D/log"; exit 1; }
    cat "$D/time"
}
rs=$(settle)
r0=$(more "$S0")
r1=$(more "$S1")
C=$(tail -1 "$D/more/thermo.csv" | cut -d, -f4)
echo "$rs $r0 $r1" | awk -v n="$N" -v s0="$S0" -v s1="$S1" -v t="$T" -v st="$SETTLE" -v c="$C" '{
    s = ($5 - $3) / (s1 - s0)
    printf "binary stream, %d grains, %d threads, after %d steps of settling (%.0f s): %.4f s per step, %.3g particle-steps/s, %.2f contacts per grain; peak RSS %.0f MB (%.0f bytes per grain)\n",
        n, t, st, $1, s, n / s, c / n, $6 / 1024, $6 * 1024 / n }'
