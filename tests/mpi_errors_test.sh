#!/bin/sh
# Errors under mpirun: the first bad input stops every rank with one
# message (a bad value; a bad row in one rank's part of the particles'
# file; particles given twice, which the rank checking their cell finds
# among the particles the ranks were dealt), and a failure on one rank alone (it runs out of memory) stops
# every rank too, with one message that names that rank, instead of
# leaving the others waiting for it in an exchange (docs/internals.md,
# "Ranks"). Every run is bounded by `timeout`: a hang fails the case.
# Usage: mpi_errors_test.sh GRAINS_BINARY
# More ranks x threads than cores: OpenMP threads that spin at their barriers
# take the cores of the ranks they wait for (3 ranks x 2 threads on 2 cores:
# 218 s instead of 8.9 s for the halo case); passive waiting changes no result.
export OMP_WAIT_POLICY=passive
set -u
G="$1"
T=$(mktemp -d /tmp/grains-mpi-errors-XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect NAME STATUS PATTERN ARGS...: mpirun ARGS exits with STATUS within
# 120 s, and grains printed exactly one line (its warnings aside), which matches PATTERN.
expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    timeout 120 mpirun --oversubscribe "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" -ne 124 ] || { bad "$name: still running after 120 s (a rank waits for another)"; return; }
    [ "$got" -eq "$want" ] || { bad "$name: exit status $got, expected $want: $(cat "$T/err")"; return; }
    lines=$(cat "$T/out" "$T/err" | grep '^grains:' | grep -vc '^grains: warning:')
    [ "$lines" -eq 1 ] || { bad "$name: $lines lines from grains, expected one: $(grep '^grains:' "$T/err")"; return; }
    grep '^grains:' "$T/err" | grep -q "$pattern" || { bad "$name: '$(grep '^grains:' "$T/err")' lacks '$pattern'"; return; }
    ok
}

# Every rank reads the same bad value: one message, from rank 0, naming no rank.
expect "bad input" 2 'grains: --set: mu_s = -1: sliding friction' -np 2 "$G" run --set mu_s=-1 -o "$T/run"
expect "bad input, 3 ranks" 2 'grains: --set: mu_s = -1: sliding friction' -np 3 "$G" run --set mu_s=-1 -o "$T/run"
# Outlets among ranks that each hold every grain (rank_holds_all) are refused before anything is
# written (ranks holding their own alone, the default, take them: mpi_identity_test.sh).
printf 'sinks = ( { min = [-1, -1, -1]; max = [1, 1, 0]; } );\nrank_holds_all = true;\n' >"$T/sinks.cfg"
expect "sinks among ranks holding all" 2 'sinks and remove_lost among ranks that each hold every particle (rank_holds_all) are not supported' \
    -np 2 "$G" run "$T/sinks.cfg" -o "$T/sinks"
[ ! -e "$T/sinks" ] && ok || bad "sinks among ranks holding all: $T/sinks was made"
# Probes among ranks: not yet; refused before anything is written
printf 'probes = ( { name = "a"; min = [-1.0, -1.0, -1.0]; max = [1.0, 1.0, 0.0]; } );\n' >"$T/probes.cfg"
expect "probes among ranks" 2 'probes among ranks are not supported yet' -np 2 "$G" run "$T/probes.cfg" -o "$T/probes"
[ ! -e "$T/probes" ] && ok || bad "probes among ranks: $T/probes was made"
# A sheared periodic box among ranks: not yet; refused before anything is written
printf 'periodic = "xyz";\nbox_max = [0.1, 0.1, 0.1];\nshear_rate = 10.0;\nmesh = "";\n' >"$T/sheared.cfg"
expect "a sheared box among ranks" 2 'a sheared periodic box (shear_rate) among ranks is not supported yet' -np 2 \
    "$G" run "$T/sheared.cfg" -o "$T/sheared"
[ ! -e "$T/sheared" ] && ok || bad "a sheared box among ranks: $T/sheared was made"
# A box held at a pressure among ranks: not yet; refused before anything is written
printf 'periodic = "xyz";\nbox_max = [0.1, 0.1, 0.1];\nbox_pressure = 10.0;\nmesh = "";\n' >"$T/pressed.cfg"
expect "a pressed box among ranks" 2 'a box held at a pressure (box_pressure) among ranks is not supported yet' -np 2 \
    "$G" run "$T/pressed.cfg" -o "$T/pressed"
[ ! -e "$T/pressed" ] && ok || bad "a pressed box among ranks: $T/pressed was made"

# A particles' file that gives one grain 1,000 times: dealt among the ranks
# (each holds its share alone), the home rank of their cell block finds
# them (no rank gathers every particle), and every rank stops with one
# process's message, naming no rank.
python3 - "$T/twice.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n" + "0.01,0.02,0.03,0.001,0,0,0,1,0,0,0,0,0,0\n" * 1000)
PY
expect "particles given twice, dealt" 2 "grains: $T/twice.csv: 1000 particles (e.g. 0 and 1, .*given twice" -np 3 "$G" \
    run --particles "$T/twice.csv" --mesh none --set N_max=0 -o "$T/run"

# A bad row in the last third of a particles' file: on 3 ranks, each
# reading its part, rank 2 alone meets it; every rank stops with its
# message at the file's line, naming no rank, as in one process.
python3 - "$T/late.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n")
    for n in range(3000):
        f.write("%.4f,0,0,0.001,0,0,0,1,0,0,0,0,0,%s\n" % (n * 0.003, "x" if n == 2500 else "0"))
PY
expect "a bad row in rank 2's part" 2 "grains: $T/late.csv:2502: wz = 'x'" -np 3 "$G" run --particles "$T/late.csv" \
    --mesh none --set N_max=0 -o "$T/run"

# Rank 1 alone cannot hold the particles (its address space kept to 350 MB:
# its share of the million particles, and what it sends rank 0 to write
# frame 0, need more): it names itself, and rank 0, which waits for it,
# stops too.
python3 - "$T/million.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material,tag\n")
    for n in range(1000000):
        i, j, k = n % 100, n // 100 % 100, n // 10000
        f.write("%.4f,%.4f,%.4f,0.001,0,0,0,1,0,0,0,0,0,0,0,0\n" % (i * 0.003, j * 0.003, k * 0.003))
PY
cat >"$T/limit.sh" <<'SH'
#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 1 ] && ulimit -v 350000
exec "$@"
SH
chmod +x "$T/limit.sh"
MILLION="run --particles $T/million.csv --mesh none --set R_min=0.001 --set R_max=0.001 --set N_max=0
    --set N_frames=1 --set N_steps=2 --threads 1 -o $T/run"
expect "rank 1 out of memory" 2 'grains: rank 1: .*out of memory' -np 2 "$T/limit.sh" "$G" $MILLION
expect "rank 1 of 3 out of memory" 2 'grains: rank 1: .*out of memory' -np 3 "$T/limit.sh" "$G" $MILLION

# SIGTERM to rank 1 alone, once the run steps (frame 0 is in thermo.csv,
# however loaded the machine): every rank stops after
# the same step (they learn of it from the maximum of the step's largest
# speed, or a reduction of their own), rank 0 writes the checkpoint, and
# the run exits with 128 + 15 (a rank that went on would wait for the
# others until the timeout).
cat >"$T/term1.sh" <<'SH'
#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 1 ] || exec "$@"
"$@" &
waited=0
while [ "$(cat "$STEPPING_WHEN" 2>/dev/null | wc -l)" -lt 2 ] && [ $waited -lt 600 ]; do
    sleep 0.1; waited=$((waited + 1))
done
kill -TERM $!
wait $!
SH
export STEPPING_WHEN="$T/sig/thermo.csv"
chmod +x "$T/term1.sh"
expect "SIGTERM to rank 1" 143 'grains: interrupted at step [0-9]* .*checkpoint in' -x STEPPING_WHEN -np 2 \
    "$T/term1.sh" "$G" run \
    --set N_frames=4 --set N_steps=100000 --threads 1 -o "$T/sig"
[ -s "$T/sig/checkpoint.grains" ] && ok || bad "SIGTERM to rank 1: no checkpoint"

echo "mpi_errors_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
