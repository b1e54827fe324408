#!/bin/sh
# The grains command as a user meets it: exit statuses, messages, files.
# Usage: cli_test.sh GRAINS_BINARY SOURCE_DIR
set -u
G="$1"
SRC="$2"
T=$(mktemp -d /tmp/grains-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS REGEX CMD...: the command exits with STATUS and its stderr matches REGEX.
expect() {
    want=$1; pattern=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" -ne "$want" ]; then bad "$* exited $got, expected $want: $(cat "$T/err")"; return; fi
    if ! grep -Eq -- "$pattern" "$T/err" "$T/out"; then bad "$*: output lacks /$pattern/: $(cat "$T/err")"; return; fi
    ok
}

H='x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz'
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.02,0,0.05,0.005,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/good.csv"
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.02,0,0.05,0.005,0,0\n' "$H" > "$T/truncated.csv"
printf '%s\n0,0,0.05,0.004,1,0,0,1,0,0,0,0,0,0\n0.0085,0,0.05,0.004,-1,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/headon.csv"
printf '%s\n0,0,0.05,0.004,0,nan,0,1,0,0,0,0,0,0\n' "$H" > "$T/nan.csv"
printf 'OFF\n4 1 0\n-1 -1 0\n1 -1 0\n1 1 0\n-1 1 0\n4 0 1 2 9\n' > "$T/badindex.off"
printf 'OFF\n4 1 0\n-1 -1 0\n1 -1 0\n1 1 0\n-1 1 0\n4 0 1 2 3 3\n' > "$T/badradius.off"
printf 'OFF\n4 1 0\n-1 -1 0\n1 -1 0\n1 1 0\n-1 1 0\n4 0 1 2 3\n' > "$T/floor.off"
printf 'material: { mu_s = -0.3; };\n' > "$T/range.cfg"
printf 'material: {\n mu_s = ;\n};\n' > "$T/syntax.cfg"

# --- help, version, check ---
expect 0 'usage: grains' "$G" --help
expect 0 '^grains [0-9]' "$G" --version
# GRAINS_ISA naming no set of hot loops: refused before anything is written
expect 2 'GRAINS_ISA = "no-such-set" names no set of hot loops .*\(those are: ([a-z0-9-]+|this build.s)' env GRAINS_ISA=no-such-set "$G" run --set N_frames=1 --set N_steps=2 -o "$T/isa_bad"
[ ! -e "$T/isa_bad" ] && ok || bad "GRAINS_ISA refused, yet $T/isa_bad was written"
expect 0 'timestep dt *: 6.0[0-9]*e-05 s \(Eq. 49\)' "$G" check "$SRC/examples/hourglass.cfg"
expect 0 'contact time' "$G" check "$SRC/examples/hourglass.cfg"
# A pour (v0 = 0) onto a floor 0.2 m below the spawn box's top: check gives the contact times at the
# speed of that fall, sqrt(2 g h) = 1.981 m/s, and they are Hertz's (t_c = 2.9432 delta_max / v,
# delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5)) for two R_min grains and for one on a rigid
# wall, to the 4 digits printed
cat > "$T/pour.cfg" <<EOF
grains: { R_min = 0.002; R_max = 0.002; rho = 2500.0; E = 1.0e7; nu = 0.3; g = [0.0, 0.0, -9.81]; };
walls: { meshes = ( { file = "floor.off"; } ); };
pour: { spawns = ( { min = [-0.05, -0.05, 0.1]; max = [0.05, 0.05, 0.2]; count = 100; } ); N_max = 100; v0 = [0.0, 0.0, 0.0]; };
EOF
"$G" check "$T/pour.cfg" > "$T/pour.out" 2>&1
line=$(grep 'contact time' "$T/pour.out")
echo "$line" | awk '{ pi = 3.14159265358979; R = 0.002; m = 4 / 3 * pi * 2500 * R ^ 3; v = sqrt(2 * 9.81 * 0.2)
    E = 1e7 / (1 - 0.09); d_pp = (15 * m / 2 * v ^ 2 / (16 * E / 2 * sqrt(R / 2))) ^ 0.4; d_pw = (15 * m * v ^ 2 / (16 * E * sqrt(R))) ^ 0.4
    t_pp = 2.9432 * d_pp / v; t_pw = 2.9432 * d_pw / v
    ok = index($0, sprintf("%.4g s particle-particle, %.4g s rigid wall", t_pp, t_pw)) && index($0, sprintf("at %.4g m/s from a fall of 0.2 m", v))
    exit !ok }' && ok || bad "check's contact time for a pour from 0.2 m: $line"
# the tutorial's hopper: its beads' fall from the spawn box's top (0.29 m) to the floor, and the gate's 1.2 m/s
expect 0 'contact time +: 0.0003427 s particle-particle, 0.000275 s rigid wall \(R_min, elastic Hertz, at 2.385 m/s from a fall of 0.29 m; 3.585 m/s on a mesh moving at up to 1.2 m/s\)' "$G" check "$SRC/examples/hopper.cfg"
# a sheared box whose stages shear faster than it starts (examples/mu_of_I.cfg: 0.316 /s, then up to
# 9.48683 /s over a height of 0.0235 m): the contacts come at the fastest stage's images' speed
expect 0 'at 0.2229 m/s from the sheared images. 0.2229 m/s' "$G" check "$SRC/examples/mu_of_I.cfg"
expect 2 'unknown command' "$G" frobnicate
[ "$(wc -l < "$T/err")" -le 2 ] && ok || bad "an unknown command buries its message: $(wc -l < "$T/err") lines"
# options before any command are the default run's (as `grains` alone is it); before a command, refused
expect 0 'frame 1: t=' "$G" --threads 1 --set N_frames=1 --set N_steps=10 -o "$T/first_options"
expect 2 'options come after the command: grains run ... --threads' "$G" --threads 1 run "$SRC/examples/hourglass.cfg"

# --- a FIFO (or any file that is not a regular one) given as an input is refused at once: its open
# does not wait for a writer that never comes (timeout 10 s: a wait is a failure, not a hang) ---
mkfifo "$T/fifo.cfg" "$T/fifo.off" "$T/fifo.csv" "$T/fifo_table.csv"
expect 2 'fifo.cfg: cannot read: not a regular file' timeout 10 "$G" check "$T/fifo.cfg"
expect 2 'fifo.cfg: cannot read: not a regular file' timeout 10 "$G" run "$T/fifo.cfg" -o "$T/fifo_out"
expect 2 'fifo.off: cannot read: not a regular file' timeout 10 "$G" run --mesh "$T/fifo.off" -o "$T/fifo_out"
expect 2 'fifo.csv: cannot read: not a regular file' timeout 10 "$G" run --particles "$T/fifo.csv" -o "$T/fifo_out"
printf 'meshes = ( { file = "%s"; motion = { type = "table"; table = "fifo_table.csv"; axis = [0.0, 0.0, 1.0]; }; } );\n' \
    "$T/floor.off" > "$T/fifo_motion.cfg"
expect 2 'fifo_motion.cfg:1: meshes\[0\].motion.table: .*fifo_table.csv: cannot read: not a regular file' \
    timeout 10 "$G" check "$T/fifo_motion.cfg"
[ ! -e "$T/fifo_out" ] && ok || bad "a refused FIFO input still created the output directory"
"$G" run --set N_frames=1 --set N_steps=10 -o "$T/fifo_run" --quiet && rm "$T/fifo_run/checkpoint.grains" &&
    mkfifo "$T/fifo_run/checkpoint.grains" && ok || bad "a run to plant a FIFO checkpoint in failed"
expect 2 'checkpoint.grains: cannot read: not a regular file' timeout 10 "$G" run --resume "$T/fifo_run"

# --- a command line a checkpoint could not hold back (more than 4,096 arguments) is refused before
# anything is written; a scenario path of over 1,023 characters too (it was cut when its CRC was taken) ---
expect 2 '4202 arguments: a run records at most 4096' "$G" run $(i=0; while [ $i -lt 2100 ]; do printf -- '--set seed=1 '; i=$((i + 1)); done) -o "$T/many"
[ ! -e "$T/many" ] && ok || bad "a refused command line still created the output directory"
expect 2 "a scenario's path of 1210 characters: at most 1023" "$G" check "/tmp/$(i=0; while [ $i -lt 600 ]; do printf a/; i=$((i + 1)); done)x.cfg"

# --- check and run agree, and a refused run writes nothing: a periodic box beyond the grid or
# narrower than 4 cells of its largest grains, and more frames than a run keeps ---
for args in "--set periodic=xyz --set box_max=1e10,1e10,1e10:the periodic box spans 1e\\+10 along x, more than" \
    "--set periodic=xyz --set box_min=0,0,0 --set box_max=0.001,0.001,0.001:period along x \\(0.001\\) must be at least 4 cells" \
    "--set N_frames=2147483648:N_frames = 2147483648: a run writes at most 10000000 frames"; do
    expect 2 "${args#*:}" "$G" check ${args%%:*}
    expect 2 "${args#*:}" "$G" run ${args%%:*} -o "$T/agree"
    [ ! -e "$T/agree" ] && ok || bad "a refused run ($args) still created the output directory"
done

# a membrane cylinder of a few bytes that would take gigabytes is refused before anything is allocated
printf 'membranes = ( { shape = "cylinder"; radius = 0.025; height = 0.1; spacing = 0.00001; } );\n' > "$T/bigmembrane.cfg"
expect 2 'bigmembrane.cfg:1: membranes\[0\]: membrane cylinder: .* make 15708 x 11548 vertices: at most 1e\+07' \
    "$G" check "$T/bigmembrane.cfg"
# spawn attempts per step beyond 10^7 (a step that ran for days, deaf to signals) are refused
expect 2 'N_spawn = 1000000000000: spawn attempts per step must be 0 to 10000000' "$G" check --set N_spawn=1000000000000 \
    --set N_max=100000
printf 'spawns = ( { min = [-0.1, -0.1, 0.3]; max = [0.1, 0.1, 0.4]; rate = 1e12; } );\nN_max = 100000;\n' > "$T/rate.cfg"
expect 2 'rate.cfg:1: spawns\[0\].rate = 1000000000000: attempts per step must be 0 to 10000000' "$G" check "$T/rate.cfg"
# an empty output folder name, and more threads than a machine makes (libgomp aborted, exit 1, with a
# header-only thermo.csv), are refused with what to give instead
expect 2 'output_dir = "": the output folder needs a name' "$G" run -o ""
expect 2 'threads = 1000: at most [0-9]+, 4 for each of this machine.s [0-9]+ cores' "$G" check --threads 1000
# a UTF-8 byte-order mark (some editors write one) is named, not taken for a syntax error
printf '\357\273\277N_max = 10;\n' > "$T/bom.cfg"
printf '\357\273\277%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/bom.csv"
printf '\357\273\277OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' > "$T/bom.off"
for f in bom.cfg "--particles $T/bom.csv" "--mesh $T/bom.off"; do
    case $f in bom.cfg) f="$T/bom.cfg" ;; esac
    expect 2 'bom\.(cfg|csv|off):1: a UTF-8 byte-order mark before the first line: save the file without one' "$G" check $f
done
# a servo's stress times its area beyond a double ("force = inf: must be > 0" before)
printf 'meshes = ( { file = "%s"; motion = { type = "servo"; axis = [0.0, 0.0, -1.0]; stress = 1e308; area = 1e308; max_speed = 1.0; }; } );\n' \
    "$SRC/data/piston_lid.off" > "$T/servo_inf.cfg"
expect 2 'servo_inf.cfg:1: meshes\[0\].motion: stress x area = 1e\+308 x 1e\+308 is not a finite force' "$G" check "$T/servo_inf.cfg"
# check's memory estimate counts the meshes (it left out 441 MB of a 2e6-triangle mesh): 20,000
# triangles at ~250 bytes each add 5 MB to the default run's 3.43
awk 'BEGIN { n = 101; print "OFF"; print n * n, 2 * (n - 1) * (n - 1), 0
             for (i = 0; i < n; i++) for (j = 0; j < n; j++) print i * 0.01 - 0.5, j * 0.01 - 0.5, 0
             for (i = 0; i < n - 1; i++) for (j = 0; j < n - 1; j++) { a = i * n + j
                 print 3, a, a + 1, a + n + 1; print 3, a, a + n + 1, a + n } }' > "$T/grid.off"
expect 0 'memory estimate +: 8\.4[0-9] MB for 1000 particles and the meshes' "$G" check --mesh "$T/grid.off"
# a growth from a tiny fraction made masses of 0 and a state of NaN that exited 0: refused
expect 2 'grow_from = 1e-120: the starting fraction of the radii must be in \[0.01, 1\]' "$G" check --set grow_from=1e-120 \
    --set grow_time=1.0 --set N_max=20

# --- a user's first mistakes, answered at check and at the start of run with the file and line ---
# an insertion region's count beyond N_max (its default, 1000), which stops every region
printf 'spawns = (\n  { min = [-0.1, -0.1, 0.3]; max = [0.1, 0.1, 0.4]; count = 2000; rate = 100; }\n);\n' > "$T/count.cfg"
expect 0 'count.cfg:1: the insertion regions. counts add up to 2000 .* N_max = 1000 \(its default\) stops them at 1000 .* raise N_max to 2000' \
    "$G" check "$T/count.cfg"
expect 0 'count.cfg:1: the insertion regions. counts add up to 2000' "$G" run "$T/count.cfg" --set N_frames=0 -o "$T/count"
printf 'spawns = (\n  { min = [-0.1, -0.1, 0.3]; max = [0.1, 0.1, 0.4]; count = 900; rate = 100; }\n);\n' > "$T/count_ok.cfg"
"$G" check "$T/count_ok.cfg" >"$T/out" 2>&1 && ! grep -q 'warning' "$T/out" && ok \
    || bad "a count within N_max warned or failed: $(cat "$T/out")"
# radii in millimetres where the box is in metres: no grain fits the hourglass's spawn box; without
# a mesh, each grain is larger than the box
printf 'mesh = "builtin:hourglass";\nR_min = 1.5;\nR_max = 3.0;\n' > "$T/mm.cfg"
expect 0 'mm.cfg:2: insertion region 0 .* has no room for a grain of its smallest radius 1.5 .* units of the box' \
    "$G" check "$T/mm.cfg"
expect 0 'mm.cfg:2: insertion region 0 .* has no room' "$G" run "$T/mm.cfg" --set N_frames=0 -o "$T/mm"
expect 0 'mm.cfg:2: insertion region 0 .* is smaller than its smallest grain \(diameter 3\)' \
    "$G" check "$T/mm.cfg" --mesh none
# a mesh file that is not there: the scenario's line and the path tried
printf 'meshes = (\n  { file = "hoper.stl"; }\n);\n' > "$T/hoper.cfg"
expect 2 "hoper.cfg:2: meshes\\[0\\].file: $T/hoper.stl: cannot read: No such file or directory \\(a relative path is taken from the scenario file.s folder\\)" \
    "$G" check "$T/hoper.cfg"

# --- bad input: exit 2, file:line: message, nothing written ---
expect 2 'missing.cfg: cannot read' "$G" run "$T/missing.cfg" -o "$T/o1"
expect 2 'range.cfg:1: mu_s = -0.3: sliding friction coefficient must be >= 0' "$G" run "$T/range.cfg" -o "$T/o1"
expect 2 'syntax.cfg:2: syntax error' "$G" run "$T/syntax.cfg" -o "$T/o1"
expect 2 'e_n = 1.5: coefficient of normal restitution must be in \[0, 1\]' "$G" run --set e_n=1.5 -o "$T/o1"
expect 2 "unknown key 'mu_x'" "$G" run --set mu_x=1 -o "$T/o1"
expect 2 "nu = 'abc': expected a finite number" "$G" run --set nu=abc -o "$T/o1"
expect 2 'missing.off: cannot read' "$G" run --mesh "$T/missing.off" -o "$T/o1"
expect 2 'badindex.off:7: face 0: vertex index .9. out of range' "$G" run --mesh "$T/badindex.off" -o "$T/o1"
expect 2 'badradius.off:7: face 0: radius index 3 has no radius' "$G" run --mesh "$T/badradius.off" -o "$T/o1"
expect 2 'truncated.csv:3: expected 14 comma-separated values' "$G" run --particles "$T/truncated.csv" -o "$T/o1"
expect 2 'nan.csv:2: vy' "$G" run --particles "$T/nan.csv" -o "$T/o1"
expect 2 'cohesion = .glue.: expected one of "none", "van_der_waals", "jkr"' "$G" run --set cohesion=glue -o "$T/o1"
expect 2 'cohesion = "jkr" needs work_of_adhesion > 0' "$G" run --set cohesion=jkr -o "$T/o1"
expect 2 'choose one' "$G" run --set cohesion=jkr --set work_of_adhesion=0.1 --set hamaker=1e-20 -o "$T/o1"
# A sub-model's coefficient given to a run that chooses another sub-model of its kind changes
# nothing: warned about (the key's place named); given with its sub-model, no warning.
expect 0 '^grains: warning: --set k_roll: k_roll is a coefficient of the rolling model "sds", and this run.s rolling model is "spring"' \
    "$G" check --set k_roll=1e3
"$G" check --set k_roll=1e3 --set rolling_model=sds >"$T/out" 2>&1
if grep -q 'is a coefficient of' "$T/out"; then bad "k_roll with rolling_model = sds warned about: $(cat "$T/out")"; else ok; fi
expect 2 'rolling_damping = 2: .* must be in \[0, 1\]' "$G" run --set rolling_model=type_c --set rolling_damping=2 -o "$T/o1"
expect 0 'rolling type_c, twisting spring, cohesion jkr' "$G" check --set rolling_model=type_c --set cohesion=jkr \
    --set work_of_adhesion=0.05
expect 2 'cannot create the output directory' "$G" run --set N_frames=1 -o /proc/grains-no/out
expect 2 "unknown option '--bogus'" "$G" run --bogus
expect 2 'needs a value' "$G" run -o
[ ! -e "$T/o1" ] && ok || bad "a refused input still created the output directory"

# --- instability: exit 1, names particle and time, keeps the last good state ---
expect 1 'overlap .* on particle 0 at t = 0.002 .*dt = 0.002 is above Eq. 49' "$G" run --mesh none --particles "$T/headon.csv" \
    --set dt=2e-3 --set N_frames=5 --set N_steps=100 --set N_max=0 --set g=0,0,0 -o "$T/unstable" --csv --quiet
[ -s "$T/unstable/particles_last_good.vtp" ] && [ -s "$T/unstable/particles_last_good.csv" ] && ok \
    || bad "no last good frame after instability"
grep -q 'particles_last_good.vtp' "$T/unstable/particles.pvd" && ok || bad "last good frame not in the .pvd"

# --- the default simulation, shortened ---
expect 0 'frame 4: t=0.048' "$G" run -o "$T/default" --set N_frames=4 --set N_steps=200
for f in particles000000.vtp particles000004.vtp particles.pvd mesh.vtp thermo.csv; do
    [ -s "$T/default/$f" ] && ok || bad "default run did not write $f"
done
[ "$(wc -l < "$T/default/thermo.csv")" -eq 6 ] && ok || bad "thermo.csv should have a header and 5 rows"
# frame 0 of a run that starts empty holds the first spawned grains (ParaView offers their arrays)
sed -n 2p "$T/default/thermo.csv" | awk -F, '{ exit !($1 == 0 && $3 > 0) }' && ok || bad "frame 0 of the default run: $(sed -n 2p "$T/default/thermo.csv")"

# --- examples/hourglass.cfg writes out the defaults: the same run as no arguments ---
"$G" run -o "$T/plain" --csv --quiet --set N_frames=2 --set N_steps=100 || bad "default run failed"
"$G" run "$SRC/examples/hourglass.cfg" -o "$T/fromfile" --csv --quiet --set N_frames=2 --set N_steps=100 \
    || bad "hourglass.cfg run failed"
same=1
for f in "$T"/plain/*; do [ "${f##*/}" = checkpoint.grains ] && continue; cmp -s "$f" "$T/fromfile/$(basename "$f")" || { same=0; echo "differs: $(basename "$f")"; }; done
[ "$same" -eq 1 ] && ok || bad "examples/hourglass.cfg does not reproduce the default run"

# --- TinyDEM-compatible command line and CSV frames ---
expect 0 'frame 1' "$G" run --mesh "$SRC/data/hourglass.off" --particles "$T/good.csv" --csv -o "$T/compat" \
    --set N_frames=1 --set N_steps=10
"$G" run --mesh none --particles "$T/compat/particles000001.csv" --csv -o "$T/compat2" --set N_frames=0 --quiet
cmp -s "$T/compat/particles000001.csv" "$T/compat2/particles000000.csv" && ok || bad "frame 0 CSV differs from the input CSV"
[ -s "$T/compat/particles000001.csv" ] && ok || bad "no particles000001.csv"

# --- determinism: 1, 2 and 3 threads give byte-identical output (3: the threads' regions of each
# colour phase cut unevenly, more threads than this machine has cores) ---
for n in 1 2 3; do
    "$G" run -o "$T/t$n" --threads "$n" --csv --quiet --set N_frames=3 --set N_steps=100 || bad "threads=$n run failed"
done
for n in 2 3; do
    same=1
    for f in "$T"/t1/*; do [ "${f##*/}" = checkpoint.grains ] && continue; cmp -s "$f" "$T/t$n/$(basename "$f")" || { same=0; echo "differs: $(basename "$f")"; }; done
    [ "$same" -eq 1 ] && ok || bad "output differs between 1 and $n threads"
done

# --- several materials: listed by check, material column in frames, same bits on 1 and 2 threads ---
expect 0 'pair 0-1 .*e_n 0.3, mu_s/r/t 0.6/0.1/0.4' "$G" check "$SRC/examples/two_materials.cfg"
expect 2 'materials = .*given in a scenario file' "$G" run --set materials=1,2,3 -o "$T/o2"
for n in 1 2; do
    "$G" run "$SRC/examples/two_materials.cfg" -o "$T/m$n" --threads "$n" --csv --quiet --set N_frames=2 \
        || bad "two_materials threads=$n run failed"
done
same=1
for f in "$T"/m1/*; do [ "${f##*/}" = checkpoint.grains ] && continue; cmp -s "$f" "$T/m2/$(basename "$f")" || { same=0; echo "differs: $(basename "$f")"; }; done
[ "$same" -eq 1 ] && ok || bad "two_materials output differs between 1 and 2 threads"
head -1 "$T/m1/particles000002.csv" | grep -q ',wz,material$' && ok || bad "CSV frame lacks the material column"
grep -q 'Name="material"' "$T/m1/particles000002.vtp" && ok || bad "VTK frame lacks the material array"
# --- insertion regions and tags: check lists them, the end summary says why each stopped, tags in every output ---
expect 0 'spawn region 1 +: box \[0.01, -0.1, 0.3\] to \[0.1, 0.1, 0.4\], 1 attempt/step, material 1, tag 2, radii discrete' \
    "$G" check "$SRC/examples/insertion.cfg"
expect 0 'spawn region 0: 700 added; its count 700 reached' "$G" run "$SRC/examples/insertion.cfg" -o "$T/ins" --csv \
    --set N_frames=2 --set N_steps=500
head -1 "$T/ins/particles000002.csv" | grep -q ',material,tag$' && ok || bad "CSV frame lacks the tag column"
[ "$(cut -d, -f16 "$T/ins/particles000002.csv" | sort -u | tr '\n' ' ')" = "1 2 tag " ] && ok ||
    bad "CSV tags are not the regions' 1 and 2: $(cut -d, -f16 "$T/ins/particles000002.csv" | sort | uniq -c)"
grep -q 'Name="tag"' "$T/ins/particles000002.vtp" && ok || bad "VTK frame lacks the tag array"
"$G" run "$SRC/examples/insertion.cfg" --set mesh= --set particles="$T/ins/particles000002.csv" --set N_max=0 --csv \
    -o "$T/ins2" --set N_frames=0 --quiet || bad "reading a CSV with tags failed"
cmp -s "$T/ins/particles000002.csv" "$T/ins2/particles000000.csv" && ok || bad "a CSV with tags does not read back to itself"
printf 'spawns = ( { sizes = "discrete"; radii = [0.003]; } );\n' > "$T/sp1.cfg"
expect 2 'sp1.cfg:1: spawns\[0\]: sizes = "discrete" goes with radii = \[...\] and as many fractions' "$G" check "$T/sp1.cfg"
printf 'spawns = ( );\n' > "$T/sp0.cfg"
expect 2 'sp0.cfg:1: spawns: an empty list' "$G" check "$T/sp0.cfg"
printf 'spawns = ( { rate = 5; colour = 2; } );\n' > "$T/sp2.cfg"
expect 2 "sp2.cfg:1: spawns\[0\]: unknown field 'colour'" "$G" check "$T/sp2.cfg"
printf 'spawns = ( { material = 3; } );\n' > "$T/sp3.cfg"
expect 2 'spawns\[0\].material = 3: must name a material, 0 to 0' "$G" check "$T/sp3.cfg"
printf 'spawns = ( { sizes = "lognormal"; median = 0.1; sigma = 0.1; } );\n' > "$T/sp4.cfg"
expect 2 'spawns\[0\]: a lognormal of median 0.1 and sigma 0.1 puts .* of its radii within \[0.002, 0.01\]' "$G" check "$T/sp4.cfg"
printf 'spawns = ( { radii = [0.003]; fractions = [1]; sizes = "discrete"; R_max = 0.02; } );\n' > "$T/sp5.cfg"
expect 2 "spawns\[0\]: R_min = 0.002, R_max = 0.02 must satisfy R_min <= R_max within the run's" "$G" check "$T/sp5.cfg"
printf 'tag_regions = ( { min = [0, 0, 0]; tag = 1; } );\n' > "$T/sp6.cfg"
expect 2 'sp6.cfg:1: tag_regions\[0\]: expected \{ min = \[x, y, z\]; max = \[x, y, z\]; tag = integer; \}' "$G" check "$T/sp6.cfg"
# sinks: a field it does not know, one without max, one of no volume, one outside the periodic box
printf 'N_max = 10;\nsinks = ( { min = [0, 0, 0]; max = [1, 1, 1]; radius = 2.0; } );\n' > "$T/sk1.cfg"
expect 2 "sk1.cfg:2: sinks\\[0\\]: unknown field 'radius' \\(known: min, max, region\\)" "$G" check "$T/sk1.cfg"
printf 'sinks = (\n { min = [0, 0, 0]; } );\n' > "$T/sk2.cfg"
expect 2 'sk2.cfg:2: sinks\[0\]: expected \{ min = \[x, y, z\]; max = \[x, y, z\]; region' "$G" check "$T/sk2.cfg"
printf 'sinks = ( { min = [0, 0, 0]; max = [1, 1, 0]; } );\n' > "$T/sk3.cfg"
expect 2 'sinks\[0\]: min and max must be finite, max > min on every axis \(an empty sink removes nothing\)' "$G" check "$T/sk3.cfg"
printf 'sinks = ( { min = [0.0, 0.0, 0.0]; max = [1e-300, 1e-300, 1e-300]; } );\n' > "$T/sk3b.cfg"
expect 2 'sinks\[0\]: a box of volume 0: no volume a double holds' "$G" check "$T/sk3b.cfg"
printf 'periodic = "x";\nbox_min = [0, 0, 0];\nbox_max = [1, 1, 1];\nsinks = ( { min = [2, 0, 0]; max = [3, 1, 1]; } );\n' > "$T/sk4.cfg"
expect 2 'sinks\[0\]: on the periodic axis x it lies outside the periodic box \[0, 1\]: it can remove nothing' "$G" check "$T/sk4.cfg"
printf 'sinks = ( { min = [0, 0, 0]; max = [1, 1, 1]; region = "sphere"; } );\n' > "$T/sk5.cfg"
expect 2 'sk5.cfg:1: sinks\[0\].region: expected' "$G" check "$T/sk5.cfg"
# stages: two ends, settled without kinetic_energy, an unknown field, an until_time past the run's end or
# before the stage can begin, a mesh or region the run lacks, a table motion; a stage that cannot settle
# within its max_time stops the run (exit 1) naming it
st() { printf 'N_frames = 4;\n%s\n' "$1" > "$T/st.cfg"; }
st 'stages = ( { name = "a"; duration = 0.1; until_time = 0.2; } );'
expect 2 'st.cfg:2: stages\[0\]: give one end: duration = T, until_time = T, or until = "settled"' "$G" check "$T/st.cfg"
st 'stages = ( { until = "settled"; max_time = 1.0; } );'
expect 2 'st.cfg:2: stages\[0\]: until = "settled" goes with kinetic_energy = E and max_time = T' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; colour = 2; } );'
expect 2 "st.cfg:2: stages\\[0\\]: unknown field 'colour'" "$G" check "$T/st.cfg"
st 'stages = ( { until_time = 99.0; } );'
expect 2 'st.cfg:2: stages\[0\]: until_time = 99 is past the run.s end \(t = 0.12.*\): it can never be met' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; }, { until_time = 0.05; } );'
expect 2 'st.cfg:2: stages\[1\]: until_time = 0.05: the stage begins at 0.1 or later: it can never end there' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; motions = ( { mesh = 3; type = "linear"; velocity = [1.0, 0.0, 0.0]; } ); } );'
expect 2 'st.cfg:2: stages\[0\].motions\[0\]: mesh 3: the run has 0' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; open = [5]; } );'
expect 2 'st.cfg:2: stages\[0\]: open or close names an insertion region the run does not have \(it has 1\)' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; motions = ( { mesh = 0; type = "table"; table = "x.csv"; } ); } );'
expect 2 'stages\[0\].motions\[0\]: a stage.s motion cannot be a table' "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.1; set = { E = 1e8; }; } );'
expect 2 "st.cfg:2: stages\\[0\\].set: 'E' cannot change mid-run" "$G" check "$T/st.cfg"
st 'stages = ( { duration = 0.05; }, { duration = 0.05; set = { mu_s = -1.0; }; } );'
expect 2 'st.cfg:2: stages\[1\]: mu_s = -1: sliding friction coefficient must be >= 0' "$G" check "$T/st.cfg"
# a stage's gravity that moves a grain farther than its radius in one step is named as such (it was
# blamed on "particles placed overlapping")
st 'stages = ( { duration = 0.001; }, { duration = 0.01; g = [0.0, 0.0, -1e300]; } );'
expect 1 'gravity \|g\| = 1e\+300 moves a grain .* of R_min' "$G" run "$T/st.cfg" -o "$T/st_g" --quiet --set N_steps=400
# a stage's mu_s of 1e308 is mu_s's to refuse or take, its derived mu_t (2 mu_s / 3) finite: not "mu_t = inf"
st 'stages = ( { duration = 0.05; set = { mu_s = 1e308; }; } );'
expect 0 'st.cfg: OK' "$G" check "$T/st.cfg"  # (before: exit 2, "mu_t = inf")
st 'stages = ( { until = "settled"; kinetic_energy = 1e-12; max_time = 0.01; check_every = 50; } );'
expect 1 'st.cfg:2: stages\[0\] \(""\) did not settle within max_time = 0.01: E_kin \+ E_rot = .*, above kinetic_energy = 1e-12' "$G" run "$T/st.cfg" -o "$T/st" --quiet --set N_steps=400
# a grain lost far below a floor falls for ever: a settled stage leaves it out, ends at its first look and
# the next begins (thermo.csv's lost: 1)
printf '%s\n0,0,-5,0.004,0,0,-3,1,0,0,0,0,0,0\n' "$H" > "$T/lost.csv"
st 'stages = ( { until = "settled"; kinetic_energy = 1e-12; max_time = 0.01; check_every = 50; }, { name = "b"; duration = 0.01; } );'
expect 0 'stage 1 \(b\) begins at t = ' "$G" run "$T/st.cfg" -o "$T/st_lost" --mesh "$T/floor.off" --particles "$T/lost.csv" --set N_max=0 --set N_steps=400
tail -1 "$T/st_lost/thermo.csv" | awk -F, '{ exit !($8 == 1) }' && ok || bad "settled, lost: $(tail -1 "$T/st_lost/thermo.csv")"
# the stages' example: each begins in turn, the gate moves 60 mm while "open" and stays, and thermo.csv says the
# stage (4: after the last ended)
"$G" run "$SRC/tests/stages.cfg" -o "$T/stages" >"$T/out" 2>"$T/err" || bad "stages: $(cat "$T/err")"
grep -q 'stage 1 (settle) begins at t = 0.1 s' "$T/out" && grep -q 'stage 3 (pour) begins' "$T/out" && ok ||
    bad "stages: $(cat "$T/out")"
tail -1 "$T/stages/walls.csv" | awk -F, '{ exit !($3 == 1 && $4 > 0.0599 && $4 < 0.0601) }' && ok ||
    bad "stages: the gate is not 60 mm on: $(tail -1 "$T/stages/walls.csv")"
head -1 "$T/stages/thermo.csv" | grep -q ',stage$' && tail -1 "$T/stages/thermo.csv" | grep -q ',4$' && ok ||
    bad "stages: thermo.csv's stage: $(tail -1 "$T/stages/thermo.csv")"
# the settle stage (kinetic_energy = 2e-5 J) ends only once E_kin + E_rot is below it: every frame in it is
# above (mutation: a threshold 10^6 times larger ended it at its first look, 0.105 s, with 0.023 J)
awk -F, 'NR > 1 && $9 == 1 { n++; if (!($5 + $6 > 2e-5)) low++ }
    END { printf "stages: %d frames settling, %d below 2e-5 J\n", n, low; exit !(n >= 10 && low == 0) }' \
    "$T/stages/thermo.csv" && ok || bad "stages: the settle stage ended before E_kin + E_rot fell below 2e-5 J"
# a sink above the hourglass and its spawn box, against gravity: no grain can reach it
printf 'sinks = ( { min = [-1.0, -1.0, -1.0]; max = [1.0, 1.0, 0.0]; },\n          { min = [-1.0, -1.0, 0.5]; max = [1.0, 1.0, 0.6]; } );\n' > "$T/sk6.cfg"
expect 2 'sk6.cfg:1: sinks\[1\] lies wholly above, against gravity, all that the grains start from or can rise to' "$G" check "$T/sk6.cfg"
printf '%s,material,tag\n0,0,0,0.001,0,0,0,1,0,0,0,0,0,0,0,1.5\n' "$H" > "$T/badtag.csv"
expect 2 'badtag.csv:2: tag = 1.5: expected an integer' "$G" check --particles "$T/badtag.csv"
# --- contacts output: a series beside the frames, which it leaves as they were ---
"$G" run "$SRC/examples/insertion.cfg" -o "$T/ct" --csv --set N_frames=2 --set N_steps=1500 --set contacts=true --quiet ||
    bad "contacts run failed"
[ -s "$T/ct/contacts000002.vtp" ] && grep -q 'contacts000002.vtp' "$T/ct/contacts.pvd" && ok || bad "no contacts series"
grep -q 'Name="stress" NumberOfComponents="9"' "$T/ct/particles000002.vtp" && ok || bad "no stress array in the frame"
"$G" run "$SRC/examples/insertion.cfg" -o "$T/ct0" --csv --set N_frames=2 --set N_steps=1500 --quiet
cmp -s "$T/ct/particles000002.csv" "$T/ct0/particles000002.csv" && cmp -s "$T/ct/thermo.csv" "$T/ct0/thermo.csv" && ok ||
    bad "recording the contacts changed the run"
expect 2 'contacts = true records the force loop of an explicit step' "$G" check --set contacts=true \
    --set integrator=variational_midpoint --set mu_s=0 --set mu_r=0 --set mu_t=0
# --- bonds: a bonds file and its keys; the pair moves as one, a bad id names its line ---
printf '%s\n-0.003,0,0,0.001,0.1,0,0,1,0,0,0,0,0,0\n-0.001,0,0,0.001,0.1,0,0,1,0,0,0,0,0,0\n0.0011,0,0,0.001,-0.1,0,0,1,0,0,0,0,0,0\n' \
    "$H" > "$T/three.csv"
printf 'a,b\n# the pair\n0,1\n' > "$T/pair.csv"
printf 'a,b\n0,3\n' > "$T/badbond.csv"
B="--set particles=$T/three.csv --set mesh= --set R_min=0.001 --set R_max=0.001 --set e_n=1 --set g=0,0,0
   --set contact_model=linear --set k_n=1e4 --set bond_kn=2500 --set N_max=0 --set dt=3.6e-7"
expect 0 'bonds +: k_n 2500, k_t 2058.82' "$G" check $B --set bonds="$T/pair.csv"
"$G" run $B --set bonds="$T/pair.csv" --set N_steps=2500 --set N_frames=1 --csv --quiet -o "$T/bond" \
    && ok || bad "bonded run failed"
tail -1 "$T/bond/thermo.csv" | grep -q ',1,0$' && ok || bad "thermo.csv: one bond holding, none broken"
# after the impact (0.5 to 0.57 ms) the pair moves together at the exact solution's -0.0030 m/s
awk -F, 'NR == 2 || NR == 3 { v += $5 } END { exit !(v / 2 < -0.0029 && v / 2 > -0.0031) }' \
    "$T/bond/particles000001.csv" && ok || bad "the bonded pair's velocity after the impact"
expect 2 'badbond.csv:2: expected two different particle ids' "$G" run $B --set bonds="$T/badbond.csv" -o "$T/o3"
# a pair listed again (either way round) is a mistake, not a second bond: refused at its line
printf 'a,b\n0,1\n1,2\n1,0\n0,1\n' > "$T/twice.csv"
expect 2 'twice.csv:4: bond 0,1 is listed again \(first at line 2\)' "$G" check $B --set bonds="$T/twice.csv"
expect 2 'bond_tolerance = 0.5: must be in \[0, 0.1\]' "$G" check $B --set bond_tolerance=0.5
# a bond stiffer than the step can follow (omega dt = 25, unstable past 2) is named before the run
expect 0 'a bond of stiffness 1e\+10 between two R_min grains .*omega dt = [0-9.]+; past 2' "$G" check $B --set bonds="$T/pair.csv" --set bond_kn=1e10 --set bond_kt=1e10
# --- the variational integrator: frictionless only; Newton's work in the thermo table ---
expect 2 'integrator = variational_midpoint needs a potential .* friction .* depends on the path' \
    "$G" check --set integrator=variational_midpoint
V="--set particles=$T/three.csv --set mesh= --set R_min=0.001 --set R_max=0.001 --set g=0,0,0 --set mu_s=0
   --set mu_r=0 --set contact_model=linear --set k_n=1e4 --set N_max=0 --set dt=3.6e-6 --set integrator=variational_midpoint"
expect 0 'implicit steps +: Newton until no update exceeds 1e-10 R_min' "$G" check $V
"$G" run $V --set N_steps=500 --set N_frames=2 --quiet -o "$T/vi" && ok || bad "variational run failed"
head -1 "$T/vi/thermo.csv" | grep -q ',newton,newton_most,cg,newton_update$' && ok || bad "thermo.csv lacks Newton's columns"
# apart, the first guess is exact (1 iteration, no CG); the impact took more
awk -F, 'NR > 2 && ($8 < 1 || $9 < $8 || $11 > 1e-10) { bad = 1 } END { exit bad || $9 < 2 }' "$T/vi/thermo.csv" \
    && ok || bad "thermo.csv: Newton iterations and the last update"

# --- meshes that move: scenario entries, walls.csv, mesh frames, errors at the entry's line ---
cat > "$T/moving.cfg" <<EOF
R_min = 0.004; R_max = 0.004; E = 1.0e7; N_max = 20; N_spawn = 5; N_frames = 3; N_steps = 200;
s_min = [0.02, 0.02, 0.05]; s_max = [0.08, 0.08, 0.09]; v0 = [0.0, 0.0, 0.0];
meshes = (
  { file = "$SRC/data/piston_box.off"; R_mesh = [0.0]; },
  { file = "$SRC/data/piston_lid.off"; R_mesh = [0.0];
    motion = { type = "vibrate"; direction = [0.0, 0.0, 1.0]; amplitude = 0.01; frequency = 5.0; }; }
);
EOF
expect 0 'mesh 1 .*piston_lid.off, 1 elements, vibrate 0.01 m at 5 Hz' "$G" check "$T/moving.cfg"
"$G" run "$T/moving.cfg" --quiet -o "$T/mv" && ok || bad "moving-mesh run failed"
head -1 "$T/mv/walls.csv" | grep -q '^step,time,mesh,x,y,z,angle,vx,vy,vz,omega,fx,fy,fz,tx,ty,tz$' && ok \
    || bad "walls.csv header: $(head -1 "$T/mv/walls.csv")"
[ "$(wc -l < "$T/mv/walls.csv")" -eq 9 ] && ok || bad "walls.csv: a row per mesh and frame (4 frames x 2 + header)"
[ -e "$T/mv/mesh000003.vtp" ] && [ -e "$T/mv/mesh.pvd" ] && [ ! -e "$T/mv/mesh.vtp" ] && ok \
    || bad "a moving mesh is written per frame"
sed 's/frequency = 5.0/frequency = -5.0/' "$T/moving.cfg" > "$T/badmotion.cfg"
expect 2 'badmotion.cfg:6: meshes\[1\].motion: frequency = -5: must be > 0' "$G" run "$T/badmotion.cfg" -o "$T/o2"
sed 's/type = "vibrate"/type = "spin"/' "$T/moving.cfg" > "$T/badtype.cfg"
expect 2 'badtype.cfg:6: meshes\[1\].motion.type: expected one of' "$G" run "$T/badtype.cfg" -o "$T/o2"
printf 'mesh = "builtin:hourglass";\nmeshes = ( { file = "builtin:hourglass"; } );\n' > "$T/both.cfg"
expect 2 'both.cfg:1: mesh = "builtin:hourglass" and meshes \(line 2\) are both given' "$G" run "$T/both.cfg" -o "$T/o2"
sed 's/type = "vibrate"; direction = \[0.0, 0.0, 1.0\]; amplitude = 0.01; frequency = 5.0;/type = "servo"; axis = [0.0, 0.0, -1.0]; force = 1.0e6; max_speed = 1.0; travel = 0.01;/' \
    "$T/moving.cfg" > "$T/travel.cfg"
expect 2 'servo ran out of travel at t = .*: it moved 0.01' "$G" run "$T/travel.cfg" --quiet -o "$T/o3"
printf 'solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n' > "$T/cut.stl"
expect 2 'cut.stl:5: expected .vertex., the file ends' "$G" run --mesh "$T/cut.stl" -o "$T/o2"
[ ! -e "$T/o2" ] && ok || bad "a refused mesh input still created the output directory"

# --- membranes and the triaxial cell: a small sample, its files, errors at the entry's line ---
sed 's/ 0.0$/ 0.03/' "$SRC/data/platen_bottom.off" > "$T/platen_top.off" # the top platen at z = 0.03
cat > "$T/cell.cfg" <<EOF
R_min = 0.0023; R_max = 0.0027; E = 4.6e10; nu = 0.245; mu_s = 0.25; mu_r = 0.0; g = [0.0, 0.0, 0.0];
integrator = "verlet"; dt = 1.0e-6; N_frames = 4; N_steps = 500;
materials = ( { E = 1.25e6; nu = 0.333333; rho = 1000.0; } );
spawn_region = "cylinder"; s_min = [-0.0095, -0.0095, 0.0003]; s_max = [0.0095, 0.0095, 0.0297];
v0 = [0.0, 0.0, 0.0]; N_max = 40; N_spawn = 1000; grow_from = 0.7; grow_time = 0.001;
meshes = (
  { file = "$SRC/data/platen_bottom.off"; R_mesh = [0.0];
    motion = { type = "servo"; axis = [0.0, 0.0, 1.0]; stress = 1.0e4; area = 3.1e-4; max_speed = 0.05;
               load_after = 0.0015; load_speed = 0.025; }; },
  { file = "$T/platen_top.off"; R_mesh = [0.0];
    motion = { type = "servo"; axis = [0.0, 0.0, -1.0]; stress = 1.0e4; area = 3.1e-4; max_speed = 0.05;
               load_after = 0.0015; load_speed = 0.025; }; }
);
membranes = (
  { shape = "cylinder"; radius = 0.01; height = 0.03; spacing = 0.004; pin_bottom = 0; pin_top = 1;
    gamma = 0.15; pressure = 1.0e4; pressure_after = 0.001; pressure_ramp = 0.0005; material = 1; }
);
triaxial = { membrane = 0; bottom = 0; top = 1; };
EOF
expect 0 'membrane 0 *: cylinder, pinned to meshes at its ends, [0-9]+ vertices, patches; k = 324.8 N/m' "$G" check "$T/cell.cfg"
"$G" run "$T/cell.cfg" --quiet -o "$T/cell" && ok || bad "membrane run failed"
head -1 "$T/cell/triaxial.csv" | grep -q '^time,strain,sigma_c,sigma_p,sigma_d,height,radius,sigma_c_applied$' && ok \
    || bad "triaxial.csv header: $(head -1 "$T/cell/triaxial.csv")"
[ "$(wc -l < "$T/cell/triaxial.csv")" -eq 6 ] && ok || bad "triaxial.csv: a row per frame (5 + header)"
tail -1 "$T/cell/triaxial.csv" | awk -F, '{ exit !($2 > 0 && $2 < 0.01 && $3 > 0 && $8 == 10000) }' && ok \
    || bad "triaxial.csv: loading strain, a confining push and the full pressure at the end: $(tail -1 "$T/cell/triaxial.csv")"
[ -e "$T/cell/membranes000004.vtp" ] && [ -e "$T/cell/membranes.pvd" ] && ok || bad "membrane frames"
head -1 "$T/cell/thermo.csv" | grep -q ',E_membrane,lost$' && ok || bad "thermo.csv: E_membrane"
sed 's/pin_top = 1;/pin_top = 5;/' "$T/cell.cfg" > "$T/nopin.cfg"
expect 2 'nopin.cfg:1[0-9]: pin_top = 5: no such mesh .meshes lists 2.; a pinned vertex needs a mesh' "$G" check "$T/nopin.cfg"
sed 's/gamma = 0.15;/thickness = -0.001;/' "$T/cell.cfg" > "$T/thin.cfg"
expect 2 'thin.cfg:1[0-9]: membranes\[0\].thickness = -0.001: must be > 0' "$G" check "$T/thin.cfg"
sed 's/gamma = 0.15;/gama = 0.15;/' "$T/cell.cfg" > "$T/typo.cfg"
expect 2 "typo.cfg:1[0-9]: membranes\\[0\\]: unknown field 'gama'" "$G" check "$T/typo.cfg"
printf 'OFF\n5 3 0\n0 0 0\n1 0 0\n0 1 0\n0 -1 0\n0 0 1\n3 0 1 2\n3 0 1 3\n3 0 1 4\n' > "$T/fin.off"
sed 's#shape = "cylinder"; radius = 0.01; height = 0.03; spacing = 0.004; pin_bottom = 0; pin_top = 1;#file = "'"$T"'/fin.off";#' \
    "$T/cell.cfg" | grep -v '^triaxial' > "$T/fin.cfg"
expect 2 'fin.cfg:1[0-9]: membranes\[0\]: .*edge .* (three|3|more than two)' "$G" check "$T/fin.cfg"

# --- the confining stress the grains feel, held by the membrane's servo (pressure_control = "felt"):
# the same cell held 5 ms before and 5 ms while the platens close. A triaxial cell holds the stress
# on the sample; here the pinned rims carry half of what the membrane applies, so the grains feel
# 43% of a pressure applied alone (the second run), and the servo (time constant 0.5 ms) raises
# what it applies until they feel 10 kPa: within 1% from 2 time constants after the ramp on,
# loading included (the servo off, they feel 4.2-4.4 kPa). ---
sed -e 's/N_frames = 4; N_steps = 500;/N_frames = 12; N_steps = 1000;/' -e 's/load_after = 0.0015;/load_after = 0.007;/' \
    -e 's/pressure_ramp = 0.0005; material = 1;/pressure_ramp = 0.0005; material = 1; pressure_control = "felt"; control_time = 0.0005;/' \
    "$T/cell.cfg" > "$T/felt.cfg"
"$G" run "$T/felt.cfg" --quiet -o "$T/felt" && ok || bad "membrane run holding the felt stress failed"
awk -F, 'NR > 1 && $1 > 0.0085 { n++; if ($3 < 9900 || $3 > 10100 || $8 < 15000) off++ }
    END { exit !(n == 4 && off == 0) }' "$T/felt/triaxial.csv" && ok \
    || bad "felt confining stress not within 1% of 10 kPa while loading: $(cut -d, -f1,2,3,8 "$T/felt/triaxial.csv" | tr '\n' ' ')"
sed 's/ pressure_control = "felt"; control_time = 0.0005;//' "$T/felt.cfg" > "$T/applied.cfg"
"$G" run "$T/applied.cfg" --quiet -o "$T/applied" && ok || bad "membrane run with the pressure applied failed"
awk -F, 'NR > 1 && $1 > 0.0085 { n++; if ($3 > 5000 || $8 != 10000) off++ } END { exit !(n == 4 && off == 0) }' \
    "$T/applied/triaxial.csv" && ok || bad "the pressure applied alone: not 10 kPa applied, or felt above half of it"
sed 's/shape = "cylinder"; radius = 0.01; height = 0.03; spacing = 0.004; pin_bottom = 0; pin_top = 1;/shape = "sheet"; size = [0.02, 0.02]; spacing = 0.004;/' \
    "$T/felt.cfg" | grep -v '^triaxial' > "$T/felt_sheet.cfg"
expect 2 'felt_sheet.cfg:1[0-9]: membranes\[0\]: pressure_control = "felt" is a cylinder.s' "$G" check "$T/felt_sheet.cfg"
sed 's/pressure_control = "felt"/pressure_control = "held"/' "$T/felt.cfg" > "$T/felt_bad.cfg"
expect 2 'felt_bad.cfg:1[0-9]: membranes\[0\].pressure_control: expected "applied"' "$G" check "$T/felt_bad.cfg"

# --- the friction test: a sphere dragged across a held membrane, friction.csv, its errors ---
(cd "$SRC" && "$G" run examples/membrane_friction.cfg -o "$T/fr" --set N_frames=50 --quiet) && ok || bad "friction example"
head -1 "$T/fr/friction.csv" | grep -q '^x,fx,fz,z$' && ok || bad "friction.csv header: $(head -1 "$T/fr/friction.csv")"
[ "$(wc -l < "$T/fr/friction.csv")" -eq 52 ] && ok || bad "friction.csv: a row per frame (51 + header)"
tail -1 "$T/fr/friction.csv" | awk -F, '{ exit !($1 > 0.0044 && $2 < 0 && $3 > 0 && $4 < 0.007) }' && ok \
    || bad "friction.csv: dragged, held back, pushed up, settled: $(tail -1 "$T/fr/friction.csv")"
(cd "$SRC" && "$G" run examples/membrane_friction.cfg -o "$T/fr2" --set N_frames=50 --set N_max=3 --set N_spawn=3 \
    --set s_min=0.012,0.002,0.009 --set s_max=0.018,0.01,0.012 --quiet) && ok || bad "friction example with spawning"
tail -1 "$T/fr2/friction.csv" | awk -F, '{ exit !($1 > 0.0044 && $1 < 0.0046 && $3 > 0) }' && ok \
    || bad "friction.csv follows the dragged sphere, not a spawned grain: $(tail -1 "$T/fr2/friction.csv")"
sed 's/velocity = \[0.05, 0.0, 0.0\]/velocity = [0.05, 0.0, 0.01]/' "$SRC/examples/membrane_friction.cfg" > "$T/fr_along.cfg"
expect 2 'fr_along.cfg:5[0-9]: friction_test.velocity: must be non-zero and across the axis' "$G" check "$T/fr_along.cfg"
sed 's/radius = 0.002; position/raduis = 0.002; position/' "$SRC/examples/membrane_friction.cfg" > "$T/fr_typo.cfg"
expect 2 "fr_typo.cfg:5[0-9]: friction_test: unknown field 'raduis'" "$G" check "$T/fr_typo.cfg"
sed 's/pin_all = 0;/pin_all = 3;/' "$SRC/examples/membrane_friction.cfg" > "$T/fr_pin.cfg"
expect 2 'fr_pin.cfg:[0-9]+: pin_all = 3: no such mesh' "$G" check "$T/fr_pin.cfg"

# runs CMD...: the command exits 0.
runs() { "$@" >"$T/out" 2>"$T/err" && ok || bad "$* exited $?: $(cat "$T/err")"; }

# --- checkpoints and --resume (the byte-identical resume: resume_test.sh) ---
# (the comparisons above leave out checkpoint.grains: its record names the run's options)
CK="--set N_frames=2 --set N_steps=50 --quiet"
runs "$G" run -o "$T/ck" $CK
[ -f "$T/ck/checkpoint.grains" ] && ok || bad "no checkpoint.grains after a run"
expect 0 'is complete \(frames 0 to 2\)' "$G" run --resume "$T/ck"
expect 2 'may change only N_frames' "$G" run --resume "$T/ck" --set dt=1e-5
expect 2 'takes only --resume' "$G" run --resume "$T/ck" --csv
expect 2 'N_frames = 1: the run has written frames 0 to 2' "$G" run --resume "$T/ck" --set N_frames=1
runs "$G" run -o "$T/ck0" $CK --set checkpoint_every=0
[ ! -e "$T/ck0/checkpoint.grains" ] && ok || bad "checkpoint_every = 0 still wrote a checkpoint"
expect 2 'checkpoint_every = -3: must be >= 0' "$G" check --set checkpoint_every=-3
cp "$T/ck/checkpoint.grains" "$T/ck.keep"
head -c 1000 "$T/ck.keep" > "$T/ck/checkpoint.grains"
expect 2 'checkpoint.grains: damaged or truncated' "$G" run --resume "$T/ck" --set N_frames=3
printf 'X' | dd of="$T/ck/checkpoint.grains" bs=1 seek=0 conv=notrunc 2>/dev/null
expect 2 'not a grains checkpoint' "$G" run --resume "$T/ck" --set N_frames=3
cp "$T/ck.keep" "$T/ck/checkpoint.grains"
size=$(wc -c < "$T/ck.keep")
printf 'X' | dd of="$T/ck/checkpoint.grains" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 2 'its CRC does not match' "$G" run --resume "$T/ck" --set N_frames=3
cmp -s "$T/ck/checkpoint.grains" "$T/ck.keep" && bad "a refused checkpoint was replaced" || ok
expect 2 'its CRC does not match' "$G" run --resume "$T/ck" # (nothing left to run: checked all the same)
# the run's record, peeked at before the state is read, damaged so that its
# options no longer parse: the damage is named, not the option
cp "$T/ck.keep" "$T/ck/checkpoint.grains"
at=$(grep -abo 'N_steps=50' "$T/ck.keep" | head -n 1 | cut -d: -f1)
printf 'X' | dd of="$T/ck/checkpoint.grains" bs=1 seek=$((at + 9)) conv=notrunc 2>/dev/null
expect 2 'its CRC does not match' "$G" run --resume "$T/ck" --set N_frames=3
cp "$SRC/examples/hourglass.cfg" "$T/hg.cfg"
runs "$G" run "$T/hg.cfg" -o "$T/ckf" $CK
echo "# edited" >> "$T/hg.cfg"
expect 2 'hg.cfg: the scenario or a file it reads has changed' "$G" run --resume "$T/ckf" --set N_frames=3
expect 2 'nowhere: no checkpoint there' "$G" run --resume "$T/nowhere"
runs "$G" run -o "$T/ckm" $CK --set checkpoint_every=30
runs "$G" run --resume "$T/ckm" --set N_frames=3 --quiet
[ "$(wc -l < "$T/ckm/thermo.csv")" -eq 5 ] && ok || bad "extended run: thermo.csv has $(wc -l < "$T/ckm/thermo.csv") lines, want 5"
rm -f "$T/ckm/walls.csv" && ln -s "$T/planted" "$T/ckm/walls.csv"
expect 2 'walls.csv: cannot read: Too many levels of symbolic links' "$G" run --resume "$T/ckm" --set N_frames=4
[ ! -e "$T/planted" ] && ok || bad "a symlink planted as walls.csv was followed"

# --- scenario text that libconfig alone would misread (scenario/scenario_text.c) ---
printf 'N_steps = 5000000000;\nN_frames = 0;\nE = 70000000000; # Pa\n/* 3000000000 */\n' > "$T/bigint.cfg"
expect 0 '0 frames of 5000000000' "$G" check "$T/bigint.cfg"
expect 0 'timestep dt *: 2.28[0-9]*e-07' "$G" check "$T/bigint.cfg"
printf 'N_steps = 99999999999999999999;\n' > "$T/bigint2.cfg"
expect 2 'bigint2.cfg:1: 99999999999999999999: beyond 64-bit' "$G" check "$T/bigint2.cfg"
printf 'N_steps = 10;\n/* open\n' > "$T/opencomment.cfg"
expect 2 'opencomment.cfg:2: a comment /\* opened here is never closed' "$G" check "$T/opencomment.cfg"
printf 'mesh = "abc;\n' > "$T/openstring.cfg"
expect 2 'openstring.cfg:1: a string opened here is never closed' "$G" check "$T/openstring.cfg"
printf 'N_steps = 1;\0\nN_frames = 2;\n' > "$T/nul.cfg"
expect 2 'nul.cfg:1: a NUL byte' "$G" check "$T/nul.cfg"
printf '@include "/etc/passwd"\n' > "$T/incabs.cfg"
expect 2 'incabs.cfg:1: @include "/etc/passwd": only an existing file in the scenario' "$G" check "$T/incabs.cfg"
printf '@include "../etc/passwd"\n' > "$T/incup.cfg"
expect 2 'incup.cfg:1: @include "../etc/passwd": only' "$G" check "$T/incup.cfg"
mkdir -p "$T/incdir"
printf '@include "incdir"\n' > "$T/incfolder.cfg"
expect 2 'incfolder.cfg:1: @include "incdir": not a regular file' "$G" check "$T/incfolder.cfg"
printf 'N_steps = 3000000000;\n' > "$T/incdir/big.cfg"
printf '@include "incdir/big.cfg"\n' > "$T/incbig.cfg"
expect 2 'big.cfg:1: 3000000000: libconfig reads integers beyond 32 bits wrongly; write 3000000000L' "$G" check "$T/incbig.cfg"
printf 'N_steps = 7;\nN_frames = 0;\n' > "$T/incdir/ok.cfg"
printf '@include "incdir/ok.cfg"\n' > "$T/incok.cfg"
expect 0 '0 frames of 7' "$G" check "$T/incok.cfg"
awk 'BEGIN { for (k = 0; k < 50000; k++) printf "k%d = 1;\n", k }' > "$T/manykeys.cfg"
expect 2 'manykeys.cfg:10001: more settings than the 10000' "$G" check "$T/manykeys.cfg"
expect 2 "seed = ' -1': expected a non-negative integer" "$G" check --set "seed= -1"

# --- input that once hurt (issue: input that cannot hurt) ---
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n1e300,0,0.05,0.005,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/far.csv"
expect 2 'far.csv: particles and the spawn box spread over 1e\+300 along x.*particle 1 at x = 1e\+300' "$G" check --particles "$T/far.csv"
expect 2 'far.csv: particles and the spawn box spread' "$G" run -o "$T/far" --particles "$T/far.csv" --quiet
[ ! -e "$T/far/particles000000.vtp" ] && ok || bad "a refused start still wrote frame 0"
awk -v h="$H" 'BEGIN { print h; for (k = 0; k < 100000; k++) print "0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0" }' > "$T/same.csv"
expect 2 'same.csv: 100000 particles \(e.g. 0 and 1, at 0, 0, 0.05\) lie in one cell' "$G" check --particles "$T/same.csv"
expect 2 '/dev/zero: cannot read: not a regular file' "$G" check --particles /dev/zero
expect 2 '/dev/zero: cannot read: not a regular file' "$G" check --mesh /dev/zero
expect 2 's_max: the spawn box spans 1e\+300' "$G" check --set s_max=1e300,1e300,1e300
expect 2 'N_frames x N_steps \(1000000000000000000\) is more steps than a run can count' "$G" check --set N_frames=10 \
    --set N_steps=1000000000000000000
awk 'BEGIN { printf "OFF\n4 1 0\n-1 -1 0\n1 -1 0\n1 1 0\n-1 1 0\n4 0 1 2 3"; for (k = 0; k < 5000; k++) printf " "; print "1" }' > "$T/longline.off"
expect 2 'longline.off:7: a line longer than 4095 characters' "$G" check --mesh "$T/longline.off"
printf 'OFF\n4 1 0\n-1 -1 0\n1 -1 0\n2 1 0\n-1 1 0\n4 0 1 2 3\n' > "$T/skew.off"
expect 2 'skew.off:7: .*parallelogram.*vertex 2 is not there' "$G" check --mesh "$T/skew.off"
printf 'a,b\n0,1\0\n' > "$T/nul.bonds"
expect 2 'nul.bonds:2: a NUL byte' "$G" check --particles "$T/good.csv" --set bonds="$T/nul.bonds" --set bond_kn=1
# Finite but beyond what a run represents (from its own dt and R_min), refused by check and run alike
# with the figures: they gave inf and NaN in walls.csv, a grain thrown to z = 1e292, E_kin = inf.
cat > "$T/vib.cfg" <<EOF
R_min = 0.004; R_max = 0.004; N_max = 20; N_spawn = 5; N_frames = 1; N_steps = 10;
meshes = (
  { file = "$SRC/data/piston_lid.off"; R_mesh = [0.0];
    motion = { type = "vibrate"; direction = [0.0, 0.0, 1.0]; amplitude = 1e300; frequency = 1e300; }; }
);
EOF
expect 2 'vib.cfg:3: meshes\[0\]: frequency = 1e\+300: a period is .* steps of dt = .*; a vibration needs at least 2' \
    "$G" check "$T/vib.cfg"
expect 2 'vib.cfg:3: meshes\[0\]: frequency = 1e\+300' "$G" run "$T/vib.cfg" -o "$T/vib" --quiet
[ ! -e "$T/vib" ] && ok || bad "a refused vibration still made its output folder"
sed 's/amplitude = 1e300; frequency = 1e300/amplitude = 1; frequency = 500/' "$T/vib.cfg" > "$T/vib2.cfg"
expect 2 'vib2.cfg:3: meshes\[0\]: the mesh moves up to 0\.[0-9]* a step \(speed 3141.59, .*more than R_min = 0.004' \
    "$G" check "$T/vib2.cfg"
expect 2 "R_max: particle radius R = 1e\\+300: its mass or moment of inertia \\(density 1000\\) is beyond what" \
    "$G" check --set R_max=1e300
expect 2 'v0: particle speed \|v\| = 1e\+200 moves it .* of its radius' "$G" check --set v0=1e200,0,0
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.02,0,0.05,0.005,1e200,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/fast.csv"
expect 2 'fast.csv: particle 1: particle speed \|v\| = 1e\+200' "$G" run --particles "$T/fast.csv" -o "$T/fast" --quiet
printf 'OFF\n3 1 0\n-1e300 -1e300 0\n1e300 -1e300 0\n0 1e300 0\n3 0 1 2\n' > "$T/far.off"
expect 2 'far.off: mesh vertex 0 at \(-1e\+300, -1e\+300, 0\) is farther than 2e\+06 \(10\^9 x R_min' \
    "$G" check --mesh "$T/far.off"

printf 'N_steps = 9223372036854775807;\n' > "$T/bigint.cfg"
expect 2 'bigint.cfg:1: N_steps: expected an integer of at most 9e15 in magnitude' "$G" check "$T/bigint.cfg"
printf 'spawns = ( { min = [0.0, 0.0, 0.0]; max = [0.1, 0.1, 0.1]; count = 1000000000000000; } );\n' > "$T/bigcount.cfg"
expect 2 'bigcount.cfg:1: spawns\[0\].count: expected an integer of at most 1e12 in magnitude' \
    "$G" check "$T/bigcount.cfg"

printf 'OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n' > "$T/empty.off"
expect 2 'empty.off: no elements \(3 vertices and not one face' "$G" check --mesh "$T/empty.off"

# An insertion region's attempts inside one step (here 10^7 of them, each against every grain added
# in the step: days) stop at SIGTERM within a second, with 143 and the checkpoint kept as it was.
cat > "$T/spawnlong.cfg" <<EOF
N_max = 100000; N_spawn = 10000000; R_min = 0.001; R_max = 0.001;
s_min = [0.0, 0.0, 0.0]; s_max = [1.0, 1.0, 1.0]; box_min = [0.0, 0.0, 0.0]; box_max = [1.0, 1.0, 1.0];
EOF
"$G" run "$T/spawnlong.cfg" -o "$T/spawnlong" --quiet > /dev/null 2> "$T/spawnlong.err" &
spawn_pid=$!
sleep 2
kill -TERM $spawn_pid
waited=0
while kill -0 $spawn_pid 2>/dev/null && [ $waited -lt 20 ]; do sleep 0.5; waited=$((waited + 1)); done
if kill -0 $spawn_pid 2>/dev/null; then
    kill -9 $spawn_pid; bad "SIGTERM inside a step's insertion attempts: still running 10 s later"
else
    wait $spawn_pid; st=$?
    [ $st -eq 143 ] && grep -q 'stopped on request in step 0, after [0-9]* of insertion region 0' "$T/spawnlong.err" &&
        grep -q 'the last checkpoint stays' "$T/spawnlong.err" && [ ! -e "$T/spawnlong/checkpoint.grains" ] && ok ||
        bad "SIGTERM inside a step's insertion attempts: exit $st, $(cat "$T/spawnlong.err")"
fi

# --- a scenario's paths are taken from its folder ---
(cd "$T" && "$G" check "$SRC/examples/piston.cfg" >"$T/out" 2>"$T/err") && ok || bad "piston.cfg from another folder: $(cat "$T/err")"
mkdir -p "$T/rel/sub"
cp "$T/floor.off" "$T/rel/sub/floor.off"
printf 'mesh = "sub/floor.off";\nR_mesh = [0.0];\nN_frames = 0;\n' > "$T/rel/scene.cfg"
expect 0 'mesh *: 1 elements' "$G" check "$T/rel/scene.cfg"

# --- a run's own checks ---
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.0001,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/overlapping.csv"
expect 1 'likely cause: particles placed overlapping' "$G" run --mesh none --particles "$T/overlapping.csv" --set N_max=0 \
    --set N_frames=1 --set N_steps=10 -o "$T/ovl" --quiet
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n3,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/away.csv"
runs "$G" run --mesh "$T/floor.off" --particles "$T/away.csv" --set N_max=0 --set N_frames=2 --set N_steps=100 -o "$T/lost" --quiet
[ "$(head -1 "$T/lost/thermo.csv" | awk -F, '{ print $NF }')" = lost ] && [ "$(tail -1 "$T/lost/thermo.csv" | awk -F, '{ print $NF }')" = 1 ] \
    && ok || bad "thermo.csv does not count the grain off the floor as lost: $(tail -1 "$T/lost/thermo.csv")"

# --- warnings before a run, with figures ---
expect 0 '^grains: warning: 1 pair of grains overlaps at the start, the deepest \(particles 0 and 1\) by 1.98 of 2R\*' \
    "$G" check --mesh none --particles "$T/overlapping.csv"
printf '%s\n0,0,0.003,0.004,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/onfloor.csv"
expect 0 '1 grain overlaps a mesh at the start, the deepest \(particle 0, on element 0 of radius 0.002\)' "$G" check --mesh "$T/floor.off" --particles "$T/onfloor.csv"
expect 0 '1 of 2 grains lie outside the box of the meshes' "$G" check --mesh "$T/floor.off" --particles "$T/away.csv" --set N_max=0
expect 0 'grains have radii outside \[R_min, R_max\]' "$G" check --particles "$T/good.csv" --set R_min=0.0045
# Two dumbbells, each pair overlapping by 0.1 mm: bonded at the first step by bond_tolerance, they do
# not fly apart and draw no warning of overlaps; unbonded, they do
printf '%s\n0,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.0079,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.1,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n0.1079,0,0.05,0.004,0,0,0,1,0,0,0,0,0,0\n' "$H" > "$T/dumbbells.csv"
"$G" check --mesh "$T/floor.off" --particles "$T/dumbbells.csv" --set N_max=0 --set bond_kn=100 --set bond_tolerance=0.05 >"$T/out" 2>&1 &&
    ! grep -q 'overlap at the start' "$T/out" && ok || bad "bonded dumbbells drew a warning of overlaps: $(cat "$T/out")"
expect 0 '2 pairs of grains overlap at the start' "$G" check --mesh "$T/floor.off" --particles "$T/dumbbells.csv" --set N_max=0 --set bond_kn=100
# A pair's field given to a material points to pairs; a shape asked for is told that grains are spheres
printf 'materials = ( { rho = 1000.0; mu_s = 0.3; } );\n' > "$T/mat_mu.cfg"
expect 2 'mat_mu.cfg:1: materials\[1\]: mu_s belongs to a pair of materials, not to one .*pairs = \( \{ between = \[0, 1\]; mu_s' "$G" check "$T/mat_mu.cfg"
expect 2 "unknown key 'shape' \(grains are spheres: there is no shape to choose" "$G" check --set shape=ellipsoid
# Stages past the run's end: one the end cuts short (0.3 + 0.5 s of stages in a 0.4 s run), one it never reaches
printf 'dt = 1e-4; t_end = 0.4; frame_interval = 0.1;\nstages = ( { name = "fill"; duration = 0.3; }, { name = "shake"; duration = 0.5; }, { name = "rest"; duration = 0.1; } );\n' > "$T/stages_long.cfg"
expect 0 'stages_long.cfg:2: stage 1 \("shake"\) ends at t = 0.8 s at the earliest, past the run.s end \(t_end = 0.4 s\): the run stops in it and the stages after it never run' "$G" check "$T/stages_long.cfg"
expect 0 'stage 1 \("shake"\) begins at t = 0.3 s at the earliest, when the run ends \(t_end = 0.3 s\): it never runs' "$G" check "$T/stages_long.cfg" --set t_end=0.3
expect 0 'at the speed they can reach \(2.801 m/s from a fall of 0.4 m\) lasts [0-9.]+ steps, fewer than about 10' "$G" check --set v0=0,0,0 --set dt=2e-4
expect 0 'sound speed sqrt\(E/rho\) = 1e\+06' "$G" check --set E=1e15
# (check must succeed: a crash that prints nothing is not "no warning"). TinyDEM's hourglass (E =
# 1e6 Pa, Eq. 49's dt) meets its fastest contacts, the first grains' through the neck onto the floor
# after a fall of 0.4 m from |v0| = 1 m/s (2.975 m/s), in 8.2 steps and at an overlap of 0.126 of a
# diameter on a wall (0.29 of R between grains: the run's thermo.csv reaches 0.275): those two
# warnings alone; without gravity (1 m/s), none
"$G" check >"$T/default_check" 2>&1 && grep -q '^built-in default scenario: OK' "$T/default_check" &&
    [ "$(grep -c warning "$T/default_check")" = 2 ] &&
    grep -q 'warning: a contact of R_min grains at the speed they can reach (2.975 m/s from |v0| 1 m/s and a fall of 0.4 m) lasts 8.24 steps' "$T/default_check" &&
    grep -q 'warning: at 2.97456 m/s an R_min grain presses 0.126 of its diameter into a wall' "$T/default_check" &&
    ok || bad "the default scenario's check failed or warns of other things: $(cat "$T/default_check")"
"$G" check --set g=0,0,0 >"$T/default_check" 2>&1 && ! grep -q warning "$T/default_check" && ok ||
    bad "the default scenario without gravity warns: $(cat "$T/default_check")"

# --- errors at their place ---
printf 'OFF\n4 1 0\n-1 -1 0\n1 -1 0\n1 1 0\n-1 1 0\n4 0 1 2 3 0 5\n' > "$T/mat.off"
expect 2 'mat.off:7: mesh element 0 has material 5; materials are 0 to 0' "$G" check --mesh "$T/mat.off"
printf 'R_min = 0.1;\n' > "$T/rmin.cfg"
expect 2 'rmin.cfg:1: R_max = 0.01: maximum particle radius must be >= R_min' "$G" check "$T/rmin.cfg"
printf 'N_steps = 1;\nN_steps = 2;\n' > "$T/dupkey.cfg"
expect 2 'dupkey.cfg:2: N_steps is set twice' "$G" check "$T/dupkey.cfg"
printf 'mu_ss = 0.1;\n' > "$T/typo.cfg"
expect 2 "typo.cfg:1: unknown key 'mu_ss' \\(did you mean 'mu_s'\\?\\)" "$G" check "$T/typo.cfg"
expect 2 "unknown key 'N_step' \\(did you mean 'N_steps'\\?\\)" "$G" check --set N_step=3

# --- VTK files are well-formed XML with consistent array sizes ---
if command -v python3 >/dev/null 2>&1; then
    python3 "$SRC/tests/check_vtk.py" "$T/default" && ok || bad "VTK files failed the XML check"
    python3 "$SRC/tests/check_vtk.py" "$T/mv" && ok || bad "moving-mesh VTK files failed the XML check"
    python3 "$SRC/tests/check_vtk.py" "$T/cell" && ok || bad "membrane VTK files failed the XML check"
else
    bad "python3 missing: cannot check the VTK files"
fi

# --- bench: usage errors, the polydisperse case, the CSV, the plot or why not ---
expect 2 'usage: grains bench' "$G" bench --ratio 0.5
expect 2 'usage: grains bench' "$G" bench --ratio 10,x
expect 2 'usage: grains bench' "$G" bench --n 1000 --repeat 0
expect 0 'scaling, 1 thread\(s\), ratio 10: time per step ~ N\^' "$G" bench --n 300,600 --ratio 1,10 --threads 1 \
    --repeat 1 --settle 0.002 --steps 5 --csv "$T/bench.csv"
# N counts the large sphere: one of ratio 10 among 300 and 600 small ones (a quarter of their volume)
if [ "$(grep -c '^' "$T/bench.csv")" -eq 5 ] && grep -q '^301,10,1,' "$T/bench.csv" && grep -q '^600,1,1,' "$T/bench.csv"; then
    ok
else
    bad "bench.csv: want a header and 4 rows (300/301/600/601 particles): $(cat "$T/bench.csv")"
fi
"$G" bench --n 300 --threads 1 --repeat 1 --settle 0 --steps 3 --plot "$T/bench.png" >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && [ "$(head -c 4 "$T/bench.png" | od -An -c | tr -d ' ')" = "211PNG" ]; then
    ok # matplotlib is there: a PNG
elif ! python3 -c 'import matplotlib' 2>/dev/null && ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null &&
    [ -z "${GRAINS_REQUIRE_PEERS:-}" ] &&
    grep -q 'the plot needs matplotlib (Debian: apt install python3-matplotlib)' "$T/err"; then
    ok # or, where matplotlib is not installed (and CI did not install it), the error says what is missing
else
    bad "bench --plot: neither a PNG nor a word on matplotlib: $(cat "$T/err")"
fi

# --- TinyDEM's command line: grains mesh.off input.csv output, "" skips one ---
expect 0 '^done: 10 steps' "$G" "$T/floor.off" "$T/good.csv" "$T/tiny" --set N_frames=2 --set N_steps=5 --set N_max=0
if [ -f "$T/tiny/particles000002.csv" ] && [ "$(grep -c '^' "$T/tiny/particles000000.csv")" -eq 3 ]; then
    ok # TinyDEM's CSV frames, frame 0 the two particles of the input
else
    bad "TinyDEM form: want CSV frames 0-2 of 2 particles in $T/tiny: $(ls "$T/tiny" | tr '\n' ' ')"
fi
expect 0 'output: '"$T"'/tiny2/' "$G" "" "$T/good.csv" "$T/tiny2" --set N_frames=1 --set N_steps=5 --set N_max=0
expect 2 'at most three arguments' "$G" "$T/floor.off" "$T/good.csv" "$T/tiny3" extra
expect 2 'truncated|fields' "$G" "" "$T/truncated.csv" "$T/tiny4"
# --- the start banner and the end summary ---
expect 0 'open .*/banner/particles.pvd in ParaView' "$G" run --set N_frames=1 --set N_steps=5 -o "$T/banner"
if grep -q '^grains [0-9].*: the default simulation' "$T/out" && grep -q '1 frames of 5 steps to t = ' "$T/out"; then
    ok
else
    bad "start banner: $(head -3 "$T/out")"
fi
"$G" run --set N_frames=1 --set N_steps=5 --set g=0,0,0 -o "$T/quiet" --quiet >"$T/out" 2>&1
[ ! -s "$T/out" ] && ok || bad "--quiet still prints: $(cat "$T/out")"

# --- grains render: a PNG per frame and the thermo plot ---
expect 0 '2 frames in .*/banner/render/frame000000.png' "$G" render "$T/banner" --color tag --view iso
png_ok=1
for f in frame000000 frame000001 thermo; do
    [ "$(head -c 4 "$T/banner/render/$f.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] &&
        [ "$(wc -c <"$T/banner/render/$f.png")" -gt 2000 ] || png_ok=0
done
[ $png_ok -eq 1 ] && ok || bad "render: want frame000000.png, frame000001.png and thermo.png: $(ls "$T/banner/render")"
expect 2 'has a point array "nosuch"' "$G" render "$T/banner" --color nosuch -o "$T/render2"
expect 2 'not the output folder of a run' "$G" render "$T/tiny3"
expect 2 'unknown option' "$G" render "$T/banner" --view sideways
expect 2 'LO,HI with LO < HI' "$G" render "$T/banner" --range 0,1x -o "$T/render3"   # nothing after HI
# the run's frame numbers name the PNGs whatever --frame and --every pick; the camera's box, a clip
# plane, and a coarse-grained field behind the grains
expect 0 '1 frames in .*/r1/frame000001.png' "$G" render "$T/banner" --frame 1 -o "$T/r1" --no-movie
[ -s "$T/r1/frame000001.png" ] && [ ! -e "$T/r1/frame000000.png" ] && ok || bad "--frame 1 did not write frame000001.png"
expect 0 'frames in' "$G" render "$T/ct" --fit particles --clip 0,0,0,0,-1,0 --slice velocity_z --log -o "$T/r2" --no-movie
[ "$(head -c 4 "$T/r2/frame000002.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] && ok ||
    bad "render --clip --slice: no frame000002.png"
expect 0 'frames in' "$G" render "$T/ct" --box -0.2,-0.2,-0.2,0.2,0.2,0.2 --slice stress_zz -o "$T/r3" --no-movie
expect 2 'usage: grains render' "$G" render "$T/ct" --slice nosuch
expect 2 'usage: grains render' "$G" render "$T/ct" --box 0,0,0,1,1
expect 2 'usage: grains render' "$G" render "$T/ct" --clip 0,0,0,0,0,0
mkdir -p "$T/cut"
printf '<VTKFile type="PolyData" version="1.0">\n<PolyData><Piece NumberOfPoints="1">' >"$T/cut/particles000000.vtp"
expect 2 'particles000000.vtp: no </VTKFile>' "$G" render "$T/cut"

# --- probes: the hopper's outlet plane counts, at every frame, the grains the sink removed by then
# plus those below the plane (a box probe), exactly; the rows of each tag and size class add up to the
# total, in number and in mass (to the table's 12 digits); a size class's mass per grain lies between
# those of its bounds' radii (4/3 pi rho R^3); the hopper's box empties ---
"$G" run "$SRC/tests/probes.cfg" -o "$T/probes" --quiet && ok || bad "the probes run failed"
python3 - "$T/probes" <<'PYEOF2' && ok || bad "the outlet probe does not count the grains that left"
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/probes.csv")))
removed = [float(r["time"]) for r in csv.DictReader(open(d + "/sinks.csv"))]
times = sorted({float(r["time"]) for r in rows})
assert len(times) == 13, times
for t in times:
    at = {(r["probe"], r["tag"], r["size_class"]): r for r in rows if float(r["time"]) == t}
    out, below = at[("outlet", "all", "all")], at[("below", "all", "all")]
    gone = sum(1 for s in removed if s <= t + 1e-9)
    assert int(out["number"]) == gone + int(below["number"]), (t, out["number"], gone, below["number"])
    parts = [r for k, r in at.items() if k[0] == "outlet" and k[1] != "all"]
    assert sum(int(r["number"]) for r in parts) == int(out["number"])
    assert abs(sum(float(r["mass"]) for r in parts) - float(out["mass"])) <= 1e-11 * float(out["mass"]), t
    for r in parts:  # size class 0: R in [2, 2.5) mm, class 1: [2.5, 3] mm
        n, m = int(r["number"]), float(r["mass"])
        lo, hi = ((0.002, 0.0025), (0.0025, 0.003))[int(r["size_class"])]
        mass = lambda R: 2500 * 4 / 3 * 3.141592653589793 * R ** 3
        assert n == 0 or mass(lo) * (1 - 1e-11) <= m / n <= mass(hi) * (1 + 1e-11), (t, r)
    assert {k[1] for k in at if k[0] == "outlet" and k[1] != "all"} <= {"1", "2"}
    assert {k[2] for k in at if k[0] == "outlet" and k[2] != "all"} <= {"0", "1"}
last = {(r["probe"], r["tag"]): r for r in rows if float(r["time"]) == times[-1]}
assert int(last[("outlet", "all")]["number"]) == 400 and int(last[("hopper", "all")]["number"]) == 0
PYEOF2
printf 'probes = ( { name = "a"; point = [0.0, 0.0, 0.0]; normal = [0.0, 0.0, 2.0]; } );\n' >"$T/probe_normal.cfg"
expect 2 'probes\[0\]: a plane needs a finite point, a unit normal' "$G" check "$T/probe_normal.cfg"
printf 'probes = ( { name = "a"; point = [0.0, 0.0, 0.0]; min = [0.0, 0.0, 0.0]; } );\n' >"$T/probe_mixed.cfg"
expect 2 'probe_mixed.cfg:1: probes\[0\]: expected \{ name' "$G" check "$T/probe_mixed.cfg"
printf 'probes = ( { name = "a b"; min = [0.0, 0.0, 0.0]; max = [1.0, 1.0, 1.0]; } );\n' >"$T/probe_name.cfg"
expect 2 'probes\[0\].name: expected a name of letters' "$G" check "$T/probe_name.cfg"
printf 'probes = ( { name = "a"; min = [0.0, 0.0, 0.0]; max = [1.0, 1.0, 1.0]; },\n { name = "a"; min = [0.0, 0.0, 0.0]; max = [1.0, 1.0, 1.0]; } );\n' >"$T/probe_twice.cfg"
expect 2 'probe_twice.cfg:2: probes\[1\]: the name "a" is probes\[0\]' "$G" check "$T/probe_twice.cfg"

# --- grains fields: the contacts run's profile along z, its files, the grains' mass in it, refusals ---
expect 0 'grains fields: 2 frames \(1 to 2\), 1 x 1 x [0-9]+ cells, Gaussian kernel .* contacts included' \
    "$G" fields "$T/ct" --average xy --frames 1:
python3 "$SRC/tests/check_vtk.py" "$T/ct/fields" >/dev/null && ok || bad "fields.vti failed the XML check"
# the profile holds the grains' mass: the density integrated over the grid's volume is the frames' mean
# total mass (the default box reaches 3w beyond every grain), to the CSV's 10 digits
python3 - "$T/ct" "$SRC/tests" <<'PYEOF2' && ok || bad "the fields' profile does not hold the grains' mass"
import csv, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from check_vtk import values
rows = list(csv.DictReader(open(d + "/fields/fields.csv")))
img = ET.parse(d + "/fields/fields.vti").getroot().find("ImageData")
sx, sy, sz = (float(v) for v in img.get("Spacing").split())
held = sum(float(r["density"]) for r in rows) * sx * sy * sz
masses = []
for k in (1, 2):  # the frames' masses, as their mass arrays hold them
    root = ET.parse(d + "/particles%06d.vtp" % k).getroot()
    masses.append(sum(values(root.find("PolyData/Piece/PointData/DataArray[@Name='mass']"), root)))
want = sum(masses) / 2
assert abs(held - want) <= 1e-8 * want, (held, want)
PYEOF2
expect 2 'the run in .* has frames 0 to 2' "$G" fields "$T/ct" --frames 1:5
expect 2 'the run in .* has frames 0 to 2' "$G" fields "$T/ct" --frames 7:
expect 2 'usage: grains fields' "$G" fields "$T/ct" --kernel cubic
expect 2 'usage: grains fields' "$G" fields "$T/ct" --average xw
# averaged along a periodic axis over the grains' extent, the mass would spread over a radius too many
expect 2 '--periodic needs --box: along a periodic axis the grid spans the period' "$G" fields "$T/ct" --average xy \
    --periodic xy -o "$T/nofields"
expect 2 'at most 1024 \(a larger --cell, or --box\)' "$G" fields "$T/ct" --cell 1e-7 -o "$T/nofields"
[ ! -e "$T/nofields" ] && ok || bad "a refused grains fields made its folder"
expect 2 'not the output folder of a run' "$G" fields "$T/tiny3"
"$G" run --set N_frames=1 --set N_steps=2 --set N_max=0 -o "$T/nograins" --quiet
expect 2 'the frames hold no grains to choose the grid from: give --box and --width' "$G" fields "$T/nograins"

# --- grains plot: the probes' table and a profile, as PNGs; what is not there is named ---
expect 0 'grains plot: .*/probes/probes.png' "$G" plot "$T/probes"
expect 0 'grains plot: .*/ct/fields/profile.png' "$G" plot "$T/ct" --profile --y density,velocity_z,stress_zz
for f in "$T/probes/probes.png" "$T/ct/fields/profile.png"; do
    [ "$(head -c 4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ] && ok || bad "grains plot: no PNG $f"
done
# the canvas holds the panels it draws: one probe's picture is one panel wide (460 px), two or more two
probes=$(awk -F, 'NR > 1 { seen[$2] = 1 } END { print length(seen) }' "$T/probes/probes.csv")
width=$(od -An -tu1 -j16 -N4 "$T/probes/probes.png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
[ "$width" = $((probes > 1 ? 920 : 460)) ] && ok || bad "grains plot: $probes probes on a canvas $width px wide"
expect 2 'probes.csv: cannot read' "$G" plot "$T/ct"
expect 2 'no column "nosuch"' "$G" plot "$T/ct" --profile --y nosuch
mkdir -p "$T/cutplot" && printf 'time,probe\n0,a\n0.1\n' >"$T/cutplot/probes.csv"
expect 2 'cutplot/probes.csv:3: expected 2 cells' "$G" plot "$T/cutplot"
expect 2 'plot: .*/nodir/p.png: the folder .*/nodir does not exist' "$G" plot "$T/probes" -o "$T/nodir/p.png"

# --- the post-processors write into the run's folder alone: DIR/fields, DIR/render or DIR/probes.png
# planted as a symlink is refused and nothing is written where it points; a FIFO there is refused at
# once (it blocked grains plot for ever); a refused option writes nothing ---
mkdir -p "$T/planted" "$T/elsewhere"
cp "$T/ct/particles00000"[0-2].vtp "$T/ct/contacts00000"[0-2].vtp "$T/planted/"
cp "$T/probes/probes.csv" "$T/planted/"
ln -s "$T/elsewhere" "$T/planted/fields"
expect 2 'fields: .*/planted/fields is a symbolic link' "$G" fields "$T/planted" --average xy
ln -s "$T/elsewhere" "$T/planted/render"
expect 2 'render: .*/planted/render is a symbolic link' "$G" render "$T/planted" --no-movie
ln -s "$T/elsewhere/victim.png" "$T/planted/probes.png"
expect 2 'plot: .*/planted/probes.png is a symbolic link' "$G" plot "$T/planted"
[ -z "$(ls "$T/elsewhere")" ] && ok || bad "a planted symlink let a post-processor write elsewhere: $(ls "$T/elsewhere")"
rm "$T/planted/probes.png" && mkfifo "$T/planted/probes.png"
expect 2 'probes.png: exists and is not a regular file \(a FIFO\)' timeout 20 "$G" plot "$T/planted"
# finite values whose products overflow (velocities of 1e300), a grid of no volume a double holds, a
# kernel wider than 512 cells (an int's overflow before), a cell count past 1024: refused, nothing written
mkdir -p "$T/huge"
printf '<?xml version="1.0"?>\n<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n<PolyData>\n<Piece NumberOfPoints="2" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="0">\n<Points>\n<DataArray type="Float64" Name="position" NumberOfComponents="3" format="ascii">0 0 0 0.01 0 0</DataArray>\n</Points>\n<PointData>\n<DataArray type="Float64" Name="velocity" NumberOfComponents="3" format="ascii">1e300 0 0 0 0 1e300</DataArray>\n<DataArray type="Float64" Name="radius" NumberOfComponents="1" format="ascii">0.004 0.004</DataArray>\n</PointData>\n</Piece>\n</PolyData>\n</VTKFile>\n' >"$T/huge/particles000000.vtp"
expect 2 'the frame.s fields are beyond the range of numbers' "$G" fields "$T/huge" --rho 1000 --average xy
# radii whose volumes a double cannot hold give no kernel width: said so (not "-nan cells of inf", nor "no grains")
for r in 1e300 1e-300; do
    mkdir -p "$T/radius$r" && sed "s|0.004 0.004|$r $r|; s|1e300 0 0 0 0 1e300|0 0 0 0 0 0|" "$T/huge/particles000000.vtp" \
        >"$T/radius$r/particles000000.vtp"
    expect 2 "the grains' mean radius, (inf|0), is no kernel width" "$G" fields "$T/radius$r" --rho 1000 --average xy
done
expect 2 'cells of volume .*: beyond the range' "$G" fields "$T/ct" --box 0,0,0,1e-300,1e-300,1e-300 --width 1e-300 -o "$T/nofields"
expect 2 'the kernel of width 1e\+10 reaches .* cells' "$G" fields "$T/ct" --box -0.1,-0.1,-0.1,0.1,0.1,0.1 --width 1e10 --cell 0.1 -o "$T/nofields"
expect 2 'fields: [0-9.]+e\+[0-9]+ cells of 1e-300 along x: at most 1024' "$G" fields "$T/ct" --cell 1e-300 -o "$T/nofields"
[ ! -e "$T/huge/fields" ] && [ ! -e "$T/nofields" ] && ok || bad "a refused grains fields wrote: $(ls "$T/huge" "$T/nofields" 2>&1)"
: >"$T/afile"
expect 2 'fields: .*/afile/deeper: the folder .* cannot be made: a file stands in its path' "$G" fields "$T/ct" -o "$T/afile/deeper"
# a slice's kernel of 1e300 (an int's overflow in the kernel's reach before): refused, nothing drawn
expect 2 'the kernel of width 1e\+300 reaches' "$G" render "$T/ct" --frame 2 --slice density --slice-width 1e300 -o "$T/rsw" --no-movie
[ -z "$(ls "$T/rsw" 2>/dev/null)" ] && ok || bad "a refused slice drew: $(ls "$T/rsw")"
# a table of the run's that is a FIFO: refused at once (opening it would block, writing fill it), nothing written
mkdir -p "$T/tab" && mkfifo "$T/tab/thermo.csv"
expect 2 'thermo.csv: exists and is not a regular file' timeout 60 "$G" run --set N_frames=1 --set N_steps=10 -o "$T/tab" --quiet
[ "$(ls "$T/tab")" = thermo.csv ] && [ -p "$T/tab/thermo.csv" ] && ok || bad "a refused run wrote: $(ls "$T/tab")"
# a camera 1e-300 across, zoomed into a grain: drawn at once (cairo drew its disc of 1e300 pixels for
# minutes a frame), the grain filling the picture
expect 0 '1 frames in' timeout 60 "$G" render "$T/ct" --frame 2 --box 0,0,0,1e-300,1e-300,1e-300 -o "$T/zoom" --no-movie
# a settled stage's max_time holds even where check_every is longer than it (it ran on, exit 0, before)
st 'stages = ( { until = "settled"; kinetic_energy = 1e-12; max_time = 0.01; check_every = 100000; } );'
expect 1 'did not settle within max_time = 0.01' "$G" run "$T/st.cfg" -o "$T/st_long" --quiet --set N_steps=400

echo "cli_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
