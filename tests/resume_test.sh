#!/bin/sh
# The promise of checkpoints: a run killed at a random moment (kill -9, or
# SIGTERM) and resumed with another thread count writes byte-identical
# frames, thermo and every other table to the run that was never stopped.
# Cases: both Verlet integrators and Euler, a variational one, a turning
# drum, a servo piston, bonds, a membrane with a guided sphere, two
# insertion regions still adding, with a tag rule, grains poured into a
# sink (sinks.csv and the counts in thermo.csv), the same through probes
# (probes.csv), a run in stages (fill,
# settle, open a gate, pour on under another gravity), grains poured onto
# a bed of grains that stay put (the rough incline), simple shear in a
# sheared periodic box (its images' offset), the same at constant
# pressure (the box's height, its servo and box.csv); and a run
# given in time (t_end) extended by its resume.
# Usage: resume_test.sh GRAINS_BINARY SOURCE_DIR
set -u
G="$1"
SRC="$2"
T=$(mktemp -d /tmp/grains-resume-XXXXXX)
cd "$SRC" || exit 1 # the examples name their meshes from here
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
now() { date +%s.%N; }
random() { od -An -N2 -tu2 /dev/urandom | tr -d ' '; } # 0 .. 65535

# same A B: every file of run A but its checkpoint is in B with the same bytes, and B has no other.
same() {
    for f in "$1"/*; do
        name=$(basename "$f")
        [ "$name" = checkpoint.grains ] && continue
        cmp -s "$f" "$2/$name" || { bad "$3: $name differs after the resume"; return; }
    done
    [ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ] || { bad "$3: other files after the resume: $(ls "$2" | tr "\n" " ")"; return; }
    ok
}

# case NAME SIGNAL ARGS...: the run whole on 1 thread; then again, stopped
# by SIGNAL at a random moment within the whole run's time, resumed on 2.
case_() {
    name=$1; sig=$2; shift 2
    start=$(now)
    "$G" run "$@" -o "$T/$name.whole" --threads 1 --quiet >/dev/null 2>"$T/err" || { bad "$name: the whole run failed: $(cat "$T/err")"; return; }
    took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    delay=$(awk -v t="$took" -v r="$(random)" 'BEGIN { printf "%.3f", t * (0.15 + 0.7 * r / 65535) }')
    # (a run that finished before the signal came is run again, stopped sooner: a resume of a
    # complete run would test nothing)
    for try in 1 2 3 4; do
        rm -rf "$T/$name.cut"
        "$G" run "$@" -o "$T/$name.cut" --threads 1 --quiet >/dev/null 2>"$T/err" &
        pid=$!
        sleep "$delay"
        kill -s "$sig" $pid 2>/dev/null
        wait $pid
        rc=$?
        [ "$rc" -ne 0 ] && break
        delay=$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 2 }')
    done
    echo "$name: stopped by $sig after ${delay} s of ${took} s (exit $rc, $(wc -l <"$T/$name.cut/thermo.csv") thermo lines)"
    case "$sig:$rc" in
        KILL:137|TERM:143) ;;
        *) bad "$name: the stopped run exited $rc (not stopped by $sig in 4 tries): $(cat "$T/err")"; return ;;
    esac
    if [ "$sig" = TERM ] && [ $rc -eq 143 ] && ! grep -q "grains run --resume" "$T/err"; then
        bad "$name: SIGTERM did not say how to resume: $(cat "$T/err")"
    fi
    "$G" run --resume "$T/$name.cut" --threads 2 --quiet >/dev/null 2>"$T/err" || { bad "$name: the resume failed: $(cat "$T/err")"; return; }
    same "$T/$name.whole" "$T/$name.cut" "$name"
}

SHORT="--set N_frames=6 --set N_steps=300"
case_ euler KILL $SHORT --csv
case_ euler_term TERM $SHORT
case_ verlet KILL $SHORT --set integrator=verlet
case_ verlet_improved TERM $SHORT --set integrator=verlet_improved
case_ variational KILL --set N_frames=4 --set N_steps=150 --set integrator=variational_midpoint \
    --set mu_s=0 --set mu_r=0 --set mu_t=0
case_ drum KILL "$SRC/examples/rotating_drum.cfg" --set N_frames=5 --set N_steps=300
case_ piston TERM "$SRC/examples/piston.cfg" --set N_frames=5 --set N_steps=300 --set integrator=verlet
case_ bonds KILL --particles "$T/euler.whole/particles000006.csv" --set N_max=0 --set bond_kn=2000 \
    --set bond_tolerance=0.05 --set bond_max_force=2 $SHORT
case_ membrane KILL "$SRC/examples/membrane_friction.cfg" --set N_frames=40
case_ insertion TERM "$SRC/examples/insertion.cfg" --set N_frames=6 --set N_steps=150 --csv
case_ sinks KILL "$SRC/tests/sinks.cfg" --csv
case_ probes TERM "$SRC/tests/probes.cfg"
case_ stages TERM "$SRC/tests/stages.cfg" --csv
case_ fixed_bed KILL "$SRC/examples/rough_incline.cfg" --set t_end=0.06 --set frame_interval=0.01 --csv
case_ sheared TERM "$SRC/examples/simple_shear.cfg" --set t_end=0.3 --set frame_interval=0.03 --csv
case_ pressed KILL "$SRC/examples/shear_pressure.cfg" --set t_end=0.25 --set frame_interval=0.025 --csv

# A run given in time (3 frames of 0.018 s), extended by its resume to
# t_end = 0.108 s: the same bytes as the run given that time at once.
TIMED="--set frame_interval=0.018 --set vtk=false --csv"
"$G" run $TIMED --set t_end=0.108 -o "$T/timed.whole" --threads 1 --quiet >/dev/null 2>"$T/err" || bad "timed: $(cat "$T/err")"
"$G" run $TIMED --set t_end=0.054 -o "$T/timed.cut" --threads 1 --quiet >/dev/null 2>"$T/err" || bad "timed: $(cat "$T/err")"
[ -f "$T/timed.cut/particles000003.csv" ] && [ ! -f "$T/timed.cut/particles000004.csv" ] ||
    bad "timed: t_end = 0.054 s did not make 3 frames of 0.018 s: $(ls "$T/timed.cut" | tr "\n" " ")"
"$G" run --resume "$T/timed.cut" --set t_end=0.108 --threads 2 --quiet >/dev/null 2>"$T/err" || bad "timed resume: $(cat "$T/err")"
same "$T/timed.whole" "$T/timed.cut" "timed, extended by --set t_end"
# The same run extended by a count of frames instead: its own t_end gives way (not "given twice").
"$G" run $TIMED --set t_end=0.054 -o "$T/timed.frames" --threads 1 --quiet >/dev/null 2>"$T/err" || bad "timed: $(cat "$T/err")"
"$G" run --resume "$T/timed.frames" --set N_frames=6 --threads 2 --quiet >/dev/null 2>"$T/err" ||
    bad "timed resume by frames: $(cat "$T/err")"
same "$T/timed.whole" "$T/timed.frames" "timed, extended by --set N_frames"

grep -q ',' "$T/bonds.whole/thermo.csv" && tail -1 "$T/bonds.whole/thermo.csv" | awk -F, '{ exit !($8 > 0) }' ||
    bad "bonds: no bonds formed (the case would not test them): $(tail -1 "$T/bonds.whole/thermo.csv")"

# A resume goes on only from tables that hold what its checkpoint recorded of them, and a refused
# one changes nothing: another run's checkpoint copied in (its tables' bytes differ), extended by
# two frames, is refused with every file as it was; so is a run whose thermo.csv gained a line and
# whose walls.csv is gone (no table cut, no empty walls.csv made).
"$G" run $SHORT -o "$T/mine" --threads 1 --quiet >/dev/null 2>&1 &&
    "$G" run $SHORT --set seed=7 --set N_frames=4 -o "$T/other" --threads 1 --quiet >/dev/null 2>&1 ||
    bad "the runs to swap failed" # (shorter: mine holds more than its tables' lengths, as it would after a crash)
cp -p "$T/other/checkpoint.grains" "$T/mine/checkpoint.grains"
cp -rp "$T/mine" "$T/mine.before"
if "$G" run --resume "$T/mine" --set N_frames=8 --quiet >/dev/null 2>"$T/err"; then
    bad "another run's checkpoint was resumed"
else
    grep -q 'thermo.csv: its first .* bytes are not those the checkpoint recorded' "$T/err" && ok ||
        bad "another run's checkpoint: $(cat "$T/err")"
fi
diff -r "$T/mine.before" "$T/mine" >/dev/null && ok || bad "a refused resume (another run's checkpoint) changed files"
rm -rf "$T/mine" "$T/mine.before"
"$G" run $SHORT -o "$T/mine" --threads 1 --quiet >/dev/null 2>&1 || bad "the run to damage failed"
echo "6000,1,1,1,1,1,1,1" >>"$T/mine/thermo.csv"
rm "$T/mine/walls.csv"
cp -rp "$T/mine" "$T/mine.before"
if "$G" run --resume "$T/mine" --set N_frames=8 --quiet >/dev/null 2>"$T/err"; then
    bad "a resume without walls.csv went on"
else
    grep -q 'walls.csv: cannot read: No such file' "$T/err" && ok || bad "walls.csv gone: $(cat "$T/err")"
fi
diff -r "$T/mine.before" "$T/mine" >/dev/null && [ ! -e "$T/mine/walls.csv" ] && ok ||
    bad "a refused resume (walls.csv gone) changed files: $(diff -r "$T/mine.before" "$T/mine" 2>&1 | head -3)"

# A resume removes the temporaries a killed run left (NAME.grains-partial-XXXXXX) and nothing of the
# user's: files named like a table or frame plus a suffix of six letters (taken for temporaries and
# deleted before) stay as they were.
rm -rf "$T/mine"
"$G" run $SHORT -o "$T/mine" --threads 1 --quiet >/dev/null 2>&1 || bad "the run to resume failed"
for f in thermo.csv.backup particles000002.vtp.keepme notes.csv.mydata; do echo mine >"$T/mine/$f"; done
echo partial >"$T/mine/thermo.csv.grains-partial-Ab12Cd"
"$G" run --resume "$T/mine" --set N_frames=7 --quiet >/dev/null 2>"$T/err" || bad "the resume failed: $(cat "$T/err")"
kept=0
for f in thermo.csv.backup particles000002.vtp.keepme notes.csv.mydata; do grep -qx mine "$T/mine/$f" && kept=$((kept + 1)); done
[ $kept -eq 3 ] && [ ! -e "$T/mine/thermo.csv.grains-partial-Ab12Cd" ] && ok ||
    bad "a resume removed a user's file ($kept of 3 kept) or left a temporary: $(ls "$T/mine")"

echo "resume_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
