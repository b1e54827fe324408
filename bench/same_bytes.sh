#!/bin/sh
# Do two builds write the same bytes? Runs each case below with OLD and with NEW (each into the
# same folder, as the checkpoint records it, then moved aside) and compares every file they
# wrote, and `grains validate --quick`'s rows (NEW may add rows; OLD's must all be there). For a change that must change no result (a
# move of code, a new list of names): build the commit before it into another folder, then
#   bench/same_bytes.sh /tmp/before/grains build/grains [NP]
# NP > 1 also runs three cases under mpirun -np NP (and 1) with both. The cases are short forms
# of every example (their first impacts, insertion, moving and servo walls, membranes, bonds),
# Verlet, improved Verlet, the variational and implicit integrators, the linear model, JKR,
# van der Waals, periodic boxes, 2D, and compat = "tinydem". Exit status 1 if anything differs.
set -u
OLD=$1
NEW=$2
NP=${3:-1}
S=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/grains-same-XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$S" || exit 1
same=0
differ=0
E=examples
SHORT="--set N_frames=4 --set N_steps=400"

# one NAME LAUNCH ARGS...: the case with both programs; LAUNCH is "" or "mpirun -np N".
one() {
    name=$1 launch=$2
    shift 2
    for who in old new; do
        prog=$OLD
        [ "$who" = new ] && prog=$NEW
        # shellcheck disable=SC2086
        $launch "$prog" run "$@" -o "$T/out" --threads 2 --quiet >"$T/log" 2>&1 ||
            { echo "$name: $who failed: $(grep -m1 '^grains:' "$T/log" || tail -1 "$T/log")"; differ=$((differ + 1)); rm -rf "$T/out"; return; }
        mv "$T/out" "$T/$name.$who"
    done
    if diff -r -q "$T/$name.old" "$T/$name.new" >"$T/diff"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "$name: differs:"
        sed 's/^/    /' "$T/diff"
    fi
    rm -rf "$T/$name.old" "$T/$name.new"
}

one hourglass "" $SHORT --csv --set contacts=true
one hourglass_tinydem "" $SHORT --set compat=tinydem
one hourglass_verlet "" $SHORT --set integrator=verlet --set contacts=true
one hourglass_improved "" $SHORT --set integrator=verlet_improved
one hourglass_linear "" $SHORT --set contact_model=linear --set overlap_tol=0.05
one hourglass_restitution "" $SHORT --set contact_model=hertz_restitution --set rolling_model=type_c
one hopper "" $E/hopper.cfg --set t_end=0.6 --set frame_interval=0.15 --csv --set contacts=true
one insertion "" $E/insertion.cfg --set N_frames=8 --csv
one two_materials "" $E/two_materials.cfg --set N_frames=8
one piston "" $E/piston.cfg --set N_frames=4
one drum "" $E/rotating_drum.cfg --set N_max=400 --set N_frames=4
one marble_run "" $E/marble_run.cfg --set t_end=1.5 --set frame_interval=0.5
one jamming_2d "" $E/jamming_2d.cfg --set N_max=300 --set t_end=0.1 --set frame_interval=0.05
one brazil_nut "" $E/brazil_nut.cfg --set t_end=0.04 --set frame_interval=0.02
one binary_stream "" $E/binary_stream.cfg --set N_max=600 --set t_end=0.3 --set frame_interval=0.1
one pile_quasi2d "" $E/pile_quasi2d.cfg --set N_max=600 --set t_end=0.25 --set frame_interval=0.125
one membrane_friction "" $E/membrane_friction.cfg --set N_frames=50
one membrane_friction_particle "" $E/membrane_friction_particle.cfg --set N_frames=50
one triaxial_case1 "" $E/triaxial_case1.cfg --set N_frames=3
one triaxial_case1_particle "" $E/triaxial_case1_particle.cfg --set N_frames=2
FRICTIONLESS="--set mu_s=0 --set mu_r=0 --set mu_t=0"
one variational_left "" $SHORT --set integrator=variational_left $FRICTIONLESS
one variational_midpoint "" $SHORT --set integrator=variational_midpoint $FRICTIONLESS
one periodic_jkr "" --mesh none --set R_min=0.001 --set R_max=0.001 --set periodic=xyz --set box_min=0,0,0 --set box_max=0.02,0.02,0.02 \
    --set s_min=0,0,0 --set s_max=0.02,0.02,0.02 --set N_max=300 --set g=0,0,0 --set v0=0.2,0.1,0 \
    --set cohesion=jkr --set work_of_adhesion=0.05 --set N_frames=4 --set N_steps=500
one van_der_waals "" $SHORT --set hamaker=1e-19
one two_d "" $SHORT --set dimension=2 --set s_min=-0.02,0,0.02 --set s_max=0.02,0,0.06
if [ "$NP" -gt 1 ]; then
    # (mpirun refuses root unless told: the test machines run as root)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    # the hopper without its probe (probes are refused among ranks), its paths still found
    mkdir -p "$T/ranks" && ln -s "$S/data" "$T/data" && sed '/^ *probes = /d' $E/hopper.cfg >"$T/ranks/hopper.cfg"
    for np in 1 "$NP"; do
        one "hourglass_np$np" "mpirun --oversubscribe -np $np" $SHORT
        one "hopper_np$np" "mpirun --oversubscribe -np $np" "$T/ranks/hopper.cfg" --set t_end=0.3 --set frame_interval=0.1
        one "piston_np$np" "mpirun --oversubscribe -np $np" $E/piston.cfg --set N_frames=2
    done
fi
# validate: every row of OLD's in NEW's, the same (NEW may add rows)
"$OLD" validate --quick | grep -v 'rows pass$' >"$T/validate.old" 2>&1
"$NEW" validate --quick | grep -v 'rows pass$' >"$T/validate.new" 2>&1
if diff "$T/validate.old" "$T/validate.new" | grep -q '^<'; then
    differ=$((differ + 1))
    echo "validate --quick: rows differ:"
    diff "$T/validate.old" "$T/validate.new" | grep '^[<>]' | head -20 | sed 's/^/    /'
else
    same=$((same + 1))
fi
echo "same: $same, different: $differ"
[ "$differ" -eq 0 ]
