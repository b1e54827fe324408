#!/bin/sh
# The paper's examples (examples/*.cfg, docs/examples.md) in short form: each
# runs its scenario file with fewer grains or a shorter time and checks the
# physical fact its figure rests on.
# Usage: examples_test.sh GRAINS SOURCE_DIR
set -u
G=$1
S=$2
T=$(mktemp -d /tmp/grains-examples-XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Field $2 (1-based CSV column) of particle row $3 (1 = first particle) in frame file $1.
field() { awk -F, -v c="$2" -v r="$3" 'NR == r + 1 { printf "%.17g", $c }' "$1"; }

# --- marble run: one marble on the first channel (8 degrees, no drag, no
# rolling friction) rolls without slipping, so it accelerates at
# a = 5/7 g sin(8 deg) = 0.975203 m/s^2 and keeps |w| R = |v|. From 0.1 s to
# 0.6 s it has landed and rolls; the contact's compliance and the
# integrator's error stay below 1e-3 of both. ---
if "$G" run "$S/examples/marble_run.cfg" --quiet -o "$T/marble" --set N_max=1 --set eta=0 --set e_n=0.1 \
    --set t_end=0.6 --set frame_interval=0.05 >"$T/out" 2>&1; then
    ok
    speed_spin() { awk -F, 'NR == 2 { printf "%.17g %.17g", sqrt($5^2 + $6^2 + $7^2), sqrt($12^2 + $13^2 + $14^2) * $4 }' "$1"; }
    set -- $(speed_spin "$T/marble/particles000002.csv") $(speed_spin "$T/marble/particles000012.csv")
    if awk -v v0="$1" -v v1="$3" -v s1="$4" 'BEGIN {
        a = (v1 - v0) / 0.5; want = 5 / 7 * 9.81 * sin(8 * atan2(1, 1) / 45)
        printf "marble: a = %.6f m/s^2 (want %.6f), |w|R/|v| = %.6f\n", a, want, s1 / v1
        exit !(a / want - 1 < 1e-3 && a / want - 1 > -1e-3 && s1 / v1 - 1 < 1e-3 && s1 / v1 - 1 > -1e-3) }'; then
        ok
    else
        bad "marble run: not rolling without slipping at 5/7 g sin(theta)"
    fi
else
    bad "marble run: $(tail -3 "$T/out")"
fi

# --- jamming in 2D: 300 grains poured into the funnels for 0.2 s. A 2D run
# keeps every grain in the plane y = 0 exactly (no y velocity, spin about y
# only) while it collides with walls and grains, and the funnels hold them
# all (inside the channel, above the floor, none lost). ---
if "$G" run "$S/examples/jamming_2d.cfg" --quiet -o "$T/jam" --set N_max=300 --set t_end=0.2 \
    --set frame_interval=0.05 >"$T/out" 2>&1; then
    ok
    if awk -F, 'NR > 1 { n++; if ($2 != 0 || $6 != 0 || $12 != 0 || $14 != 0) off++
                         if ($1 > 0.06 - $4 || $1 < -0.06 + $4 || $3 < $4 * 0.9) out++ }
        END { printf "jamming: %d grains, %d off the plane, %d outside the channel\n", n, off, out
              exit !(n == 300 && off == 0 && out == 0) }' "$T/jam/particles000004.csv" &&
        awk -F, 'END { exit !($4 >= 10 && $8 == 0) }' "$T/jam/thermo.csv"; then # in contact, none lost
        ok
    else
        bad "jamming 2D: grains left the plane or the channel"
    fi
else
    bad "jamming 2D: $(tail -3 "$T/out")"
fi

echo "examples_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
