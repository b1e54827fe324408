#!/bin/sh
# Runs examples/NAME.cfg as shipped for each NAME given (default: every scenario in examples/),
# one after another on THREADS threads (default 2), into DIR/NAME, and prints a row each: its exit
# status, wall time, steps, simulated time, grains at the end, the largest overlap any frame saw
# (thermo.csv's max_overlap, of 2R*) and the grains lost. docs/examples.md's table of wall times
# comes from it. Exit status 1 if any run failed.
# Usage: bench/examples_wall.sh [-j THREADS] [-o DIR] [NAME...]   (from any folder)
set -u
S=$(cd "$(dirname "$0")/.." && pwd)
G=${GRAINS:-$S/build/grains}
THREADS=2
DIR=/tmp/grains-examples-wall
while [ $# -gt 0 ]; do
    case $1 in
    -j) THREADS=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- $(cd "$S/examples" && ls *.cfg | sed 's/\.cfg$//')
mkdir -p "$DIR"
failed=0
echo "example | exit | wall s | steps | t [s] | grains | largest overlap/2R* | lost"
for name in "$@"; do
    rm -rf "${DIR:?}/$name"
    t0=$(date +%s)
    "$G" run "$S/examples/$name.cfg" -o "$DIR/$name" --threads "$THREADS" --quiet >"$DIR/$name.log" 2>&1
    rc=$?
    wall=$(($(date +%s) - t0))
    [ "$rc" -eq 0 ] || failed=1
    awk -F, -v name="$name" -v rc="$rc" -v wall="$wall" '
        NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k }
        NR > 1 { steps = $col["step"]; t = $col["time"]; n = $col["N"]; lost = ("lost" in col) ? $col["lost"] : 0
                 if ($col["max_overlap"] > most) most = $col["max_overlap"] }
        END { printf "%s | %d | %d | %d | %.4g | %d | %.3f | %d\n", name, rc, wall, steps, t, n, most, lost }' \
        "$DIR/$name/thermo.csv"
    [ "$rc" -eq 0 ] || tail -3 "$DIR/$name.log" | sed 's/^/    /'
done
exit "$failed"
