#!/bin/sh
# The paper's examples (examples/*.cfg, docs/examples.md) in short form: each
# runs its scenario file with fewer grains or a shorter time and checks the
# physical fact its figure rests on.
# Usage: examples_test.sh GRAINS SOURCE_DIR
set -u
G=$1
S=$(cd "$2" && pwd)
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

# --- Brazil nut: one large bead (radius 10 mm) resting on the example's
# base, which vibrates from its lowest point (phase -pi/2) at amplitude
# 1 mm. At a peak acceleration of Gamma = 3 g the bead leaves the base when
# the base's downward acceleration first exceeds g: at omega t =
# arccos(-1/Gamma), t = 11.155 ms; the Hertz contact's compliance delays it
# by up to 1/omega_c, omega_c = sqrt(k/m), k = 1.5 m g / delta_0 its
# stiffness under the bead's weight (1.07 ms here). At Gamma = 0.9 it never
# leaves. Frames every 0.05 ms; the base's disc is 72 flat triangles. ---
takeoff() { # amplitude [m] -> the first time the bead has no contact (or "none")
    # the bead rests on the base at its lowest point, -amplitude, pressed in by its static overlap
    awk -v a="$1" 'BEGIN { pi = atan2(0, -1); m = 2500 * 4 / 3 * pi * 0.01^3
        d0 = (3 * m * 9.81 / (4 * 1e7 / (1 - 0.09) * sqrt(0.01)))^(2 / 3)
        printf "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n0,0,%.17g,0.01,0,0,0,1,0,0,0,0,0,0\n", 0.01 - a - d0 }' >"$T/bead.csv"
    cat >"$T/takeoff.cfg" <<CFG
R_min = 0.001; R_max = 0.01; rho = 2500.0; E = 1.0e7; nu = 0.3; e_n = 0.5; mu_s = 0.3; mu_r = 0.3;
g = [0.0, 0.0, -9.81]; particles = "$T/bead.csv"; N_max = 1; t_end = $2; frame_interval = 0.00005;
meshes = ( { file = "$S/data/brazil_nut_base.stl"; R_mesh = [0.0];
  motion = { type = "vibrate"; direction = [0.0, 0.0, 1.0]; amplitude = $1; frequency = 27.2598;
             phase = -1.5707963267948966; }; } );
CFG
    "$G" run "$T/takeoff.cfg" --quiet -o "$T/takeoff" >"$T/out" 2>&1 &&
        awk -F, 'NR > 2 && $4 == 0 { print $2; found = 1; exit } END { if (!found) print "none" }' \
            "$T/takeoff/thermo.csv"
}
t3=$(takeoff 0.001 0.02)
t09=$(takeoff 0.0003 0.11)
if awk -v t="$t3" -v t09="$t09" 'BEGIN {
    pi = atan2(0, -1); w = 2 * pi * 27.2598; want = atan2(sqrt(1 - 1 / 9), -1 / 3) / w
    m = 2500 * 4 / 3 * pi * 0.01^3; Es = 1e7 / (1 - 0.09)
    d0 = (3 * m * 9.81 / (4 * Es * sqrt(0.01)))^(2 / 3); wc = sqrt(1.5 * m * 9.81 / d0 / m)
    printf "brazil nut: takeoff at %s s (want %.6f s, delayed by at most %.6f s); Gamma 0.9: %s\n", t, want, 1 / wc, t09
    exit !(t != "none" && t >= want && t <= want + 1 / wc && t09 == "none") }'; then
    ok
else
    bad "Brazil nut: takeoff at Gamma = 3 not at arccos(-1/3)/omega, or a takeoff at Gamma = 0.9"
fi

# --- binary stream: 1,500 grains for 0.6 s. Every grain below the splitter
# went past it on one side and carries its tag (1 left, 2 right); the course
# is mirror-symmetric, so the two tags are equally likely: the counts differ
# by less than 4 sigma of a fair binomial split. ---
if "$G" run "$S/examples/binary_stream.cfg" --quiet --csv -o "$T/stream" --set N_max=1500 --set t_end=0.6 \
    --set frame_interval=0.1 >"$T/out" 2>&1; then
    ok
    if awk -F, 'NR > 1 && $3 < 0.37 { n++; if ($16 == 1) a++; else if ($16 == 2) b++; else untagged++ }
        END { printf "binary stream: %d grains below the splitter, %d left, %d right, %d untagged\n", n, a, b, untagged
              exit !(n >= 200 && untagged == 0 && (a - b)^2 < 16 * n) }  # sd(a - b) = sqrt(n)' "$T/stream/particles000006.csv"; then
        ok
    else
        bad "binary stream: untagged grains below the splitter, or an unfair split"
    fi
else
    bad "binary stream: $(tail -3 "$T/out")"
fi

# --- quasi-2D pile: 1,500 grains between the plates, a timestep of Eq. 49 / 2
# for speed. A pile poured from the middle of a mirror-symmetric slot is
# mirror-symmetric: its two flanks' fitted angles agree within 3 standard
# errors of their difference. ---
if "$G" run "$S/examples/pile_quasi2d.cfg" --quiet -o "$T/pile" --set N_max=1500 --set dt=2.4e-5 --set t_end=1.0 \
    --set frame_interval=0.5 >"$T/out" 2>&1 && python3 "$S/examples/pile_angle.py" "$T/pile" >"$T/angle" 2>&1; then
    ok
    cat "$T/angle"
    if awk '/flank/ { th[++n] = $3; se[n] = $5 } END {
            exit !(n == 2 && (th[1] - th[2])^2 <= 9 * (se[1]^2 + se[2]^2) && th[1] > 5 && th[2] > 5) }' "$T/angle"; then
        ok
    else
        bad "quasi-2D pile: the flanks' angles differ beyond their errors"
    fi
else
    bad "quasi-2D pile: $(tail -3 "$T/out") $(cat "$T/angle" 2>/dev/null)"
fi

echo "examples_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
