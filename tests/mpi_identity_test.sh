#!/bin/sh
# The promise of ranks: a run under mpirun -np N writes byte for byte the
# frames, tables and checkpoint of the run in one process (docs/internals.md,
# "Ranks"). Cases (each rank holding its own grains and their partners alone
# but where rank_holds_all is set): the default
# run (Euler) and Verlet, a turning drum and a
# servo piston (walls that move and push back), bonds (breaking, and stretched
# beyond the lists' reach), a periodic box, two insertion regions, grains that stay put, the
# triaxial test's membrane under servo platens, bonds and the membrane with
# every rank holding every grain, blocks cut anew only past
# an imbalance of 1.1; a turning drum, a settled hopper (Euler on 1 and 2
# threads per rank, Verlet on 2, with tag regions) and a periodic box whose
# ranks hold their own grains and their partners alone, send only the halo
# and list only their particles' reach (bonds stretched and the hopper on 2
# threads with NP = 2 alone); outlets (sinks, remove_lost) removing grains, bonded ones too;
# with NP = 3, the settled hopper on 8 ranks too; and a checkpoint written by 2 ranks resumed by
# NP.
# Usage: mpi_identity_test.sh GRAINS_BINARY SOURCE_DIR NP
# More ranks x threads than cores: OpenMP threads that spin at their barriers
# take the cores of the ranks they wait for (3 ranks x 2 threads on 2 cores:
# 218 s instead of 8.9 s for the halo case); passive waiting changes no result.
export OMP_WAIT_POLICY=passive
set -u
G="$1"
SRC="$2"
NP="$3"
T=$(mktemp -d /tmp/grains-mpi-XXXXXX)
cd "$SRC" || exit 1 # the examples name their meshes from here
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# Ranks that disagree on a collective (a rebuild on one alone) wait for
# each other forever: a run that long has failed.
mpi() { np=$1; shift; timeout 300 mpirun --oversubscribe -np "$np" "$@"; }

# same A B NAME: every file of run A is in B with the same bytes, and B has no other.
same() {
    for f in "$1"/*; do
        cmp -s "$f" "$2/$(basename "$f")" || { bad "$3: $(basename "$f") differs"; return; }
    done
    [ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ] || { bad "$3: other files: $(ls "$2" | tr "\n" " ")"; return; }
    ok
}

# case NAME ARGS...: the run in one process, then on NP ranks, each into
# $T/out (the checkpoint records the output folder and the threads) and
# moved aside; THREADS threads per process (1).
case_() {
    name=$1; shift
    "$G" run "$@" -o "$T/out" --threads "${THREADS:-1}" --quiet >/dev/null 2>"$T/err" || { bad "$name: one process failed: $(cat "$T/err")"; return; }
    mv "$T/out" "$T/$name.1"
    mpi "$NP" "$G" run "$@" -o "$T/out" --threads "${THREADS:-1}" --quiet >/dev/null 2>"$T/err" || { bad "$name: $NP ranks failed: $(cat "$T/err")"; return; }
    mv "$T/out" "$T/$name.$NP"
    same "$T/$name.1" "$T/$name.$NP" "$name on $NP ranks"
}

SHORT="--set N_frames=6 --set N_steps=300"
# (rank 0 is sent the particles to write a window of ids at a time: 7 here, so that the frames'
# arrays and rows come in many windows; the drum below 100, and 32768 elsewhere)
case_ default $SHORT --csv --set frame_window=7
case_ verlet $SHORT --set integrator=verlet
case_ drum "$SRC/examples/rotating_drum.cfg" --set N_frames=4 --set N_steps=300 --csv
# the drum's grains, none spawned: each rank holds its own and their partners alone
# (grains_ranks.local), the turning mesh whole on every rank
case_ drum_own "$SRC/examples/rotating_drum.cfg" --particles "$T/drum.1/particles000004.csv" --set N_max=0 \
    --set N_frames=4 --set N_steps=300 --set frame_window=100
case_ piston "$SRC/examples/piston.cfg" --set N_frames=4 --set N_steps=300 --set integrator=verlet
case_ bonds --particles "$T/default.1/particles000006.csv" --set N_max=0 --set bond_kn=2000 \
    --set bond_tolerance=0.05 --set bond_max_force=2 $SHORT
# bonds stretched beyond the lists' reach (a skin of 0.04 R, soft unbreakable bonds among
# colliding grains): each rank evaluates the bonds of its own grains, whose partners its halo
# must hold (without them frames 1 to 6 differ on 2 and 3 ranks; the case above breaks 7 bonds)
# (on 2 ranks alone, as halo_2_threads below: CI's time; each fails on 2 ranks as on 3 when broken)
[ "$NP" -eq 2 ] && case_ bonds_stretched --particles "$T/default.1/particles000003.csv" --set N_max=0 --set bond_kn=200 \
    --set bond_tolerance=0.01 --set skin=0.0003 $SHORT
PERIODIC="--mesh none --set periodic=xyz --set box_min=-0.1,-0.1,-0.1 --set box_max=0.1,0.1,0.5"
case_ periodic $PERIODIC $SHORT --csv
# two insertion regions feeding the hourglass: every rank attempts alike, reading the particles
# within the regions' reach, which their owners send every rank (without them the default
# case's frames differ)
case_ insertion "$SRC/examples/insertion.cfg" --set N_frames=4 --set N_steps=300
# the triaxial test's membrane, grains grown against it within 2 ms (in 200 steps at the example's pace
# none touches it): the blocks' logs of what their grains gave its vertices travel named by their
# entries in the whole's table, and every rank adds them to the vertices in the whole's order
case_ triaxial "$SRC/examples/triaxial_case1.cfg" --set N_frames=2 --set N_steps=1000 --set grow_time=0.002
# the membrane's servo on the felt confining stress from 0.5 ms: every rank adds the whole's push in
# one order and sets the same pressure
sed -e "s|\.\./data/|$SRC/data/|" -e 's/pressure_after = 0.02; pressure_ramp = 0.02;/pressure_after = 0.0005; pressure_ramp = 0.0005;/' \
    "$SRC/examples/triaxial_case1.cfg" >"$T/triaxial_felt.cfg"
grep -q 'pressure_after = 0.0005;.*pressure_control = "felt"' "$T/triaxial_felt.cfg" && ok || bad "triaxial_felt.cfg not made"
case_ triaxial_felt "$T/triaxial_felt.cfg" --set N_frames=2 --set N_steps=1000 --set grow_time=0.002
# every rank holding every grain (rank_holds_all): the bonds and the membrane as the ranks of stage 1 share them
case_ bonds_all --particles "$T/default.1/particles000006.csv" --set N_max=0 --set bond_kn=2000 \
    --set bond_tolerance=0.05 --set bond_max_force=2 $SHORT --set rank_holds_all=true
case_ triaxial_all "$SRC/examples/triaxial_case1.cfg" --set N_frames=2 --set N_steps=1000 --set grow_time=0.002 \
    --set rank_holds_all=true
# grains that stay put (the rough incline's bed, laid by its region within the first steps) under
# grains poured and flowing across the periodic faces: held by each rank that owns them
case_ fixed_bed "$SRC/examples/rough_incline.cfg" --set t_end=0.04 --set frame_interval=0.01 --csv
# the blocks keep their planes until the imbalance passes 1.1
case_ rebalance $SHORT --set rebalance=1.1
# nothing spawns: between rebuilds the steps send only the halo, and each rank holds its own grains
# and their partners alone, the hopper whole (the walls' force summed by the blocks' names in the
# whole's table: without them the checkpoint's differs)
HALO="--particles $T/default.1/particles000006.csv --set N_max=0 $SHORT"
case_ halo $HALO
[ "$NP" -eq 2 ] && THREADS=2 case_ halo_2_threads $HALO
# Verlet's begin moves the halo's copies as their owners do (it reads their force sums)
THREADS=2 case_ halo_verlet $HALO --set integrator=verlet
# tag regions: each rank tags its own grains, and a grain's tag goes with it to a new owner and
# to the writer (a thin slab the falling grains cross between rebuilds, rare with a wide skin:
# the writer's own copies of the others' grains, old since the last rebuild, miss it; on 3 ranks
# frame 1 differs when the tags do not go)
printf 'particles = "%s";\ntag_regions = ( { min = [-1.0, -1.0, -1.0]; max = [0.0, 1.0, 1.0]; tag = 1; },
    { min = [-1.0, -1.0, -0.031]; max = [1.0, 1.0, -0.03]; tag = 3; } );\n' "$T/default.1/particles000006.csv" >"$T/tags.cfg"
case_ halo_tags "$T/tags.cfg" --set N_max=0 --set skin=0.02 $SHORT --csv --set frame_window=100
# and across the periodic faces (each rank lists its own particles and those within reach, through them)
case_ halo_periodic --particles "$T/periodic.1/particles000006.csv" --set N_max=0 $PERIODIC $SHORT
# outlets (tests/sinks.cfg: a hopper pours 400 grains of two tags into a cylinder sink, and grains
# thrown out of the meshes' box go too): each rank finds its own grains' removals, every rank
# removes them all alike and renames the ids past them; Verlet's next half kick reads the force
# sums, which travel with their grains through the removal's rebuild (without them frame 3
# differs on 3 ranks)
case_ sinks "$SRC/tests/sinks.cfg" --csv
THREADS=2 case_ sinks_verlet "$SRC/tests/sinks.cfg" --set integrator=verlet
# bonded grains removed: half the hourglass's grains at the first step, then those that fall
printf 'particles = "%s";\nsinks = ( { min = [0.02, -1.0, -1.0]; max = [1.0, 1.0, 1.0]; },
    { min = [-1.0, -1.0, -1.0]; max = [1.0, 1.0, 0.15]; } );\n' "$T/default.1/particles000006.csv" >"$T/bonds_sinks.cfg"
case_ sinks_bonds "$T/bonds_sinks.cfg" --set N_max=0 --set bond_kn=2000 --set bond_tolerance=0.05 \
    --set bond_max_force=2 $SHORT --csv
awk -F, 'NR > 1 && $1 == 1 { first++ } NR > 1 { all++ } END { exit !(first > 100 && all > first) }' \
    "$T/sinks_bonds.1/sinks.csv" && ok || bad "sinks_bonds: not many grains removed at the first step and later"
if [ "$NP" -gt 1 ]; then
    mpi "$NP" "$G" run $HALO -o "$T/halo_report" --threads 1 >"$T/report" 2>&1
    grep -q "halo alone on [1-9]" "$T/report" && ok || bad "halo: no step sent the halo alone: $(grep ranks: "$T/report")"
    # thermo_imbalance: the last cut's imbalance, on ranks between 1 and the ranks' number, and at the
    # end (grains settled in the bulb, the blocks cut anew at each rebuild) within the granularity of
    # its blocks (< 1.2); 1 in one process
    mpi "$NP" "$G" run $SHORT --set thermo_imbalance=true -o "$T/imb" --threads 1 --quiet >/dev/null 2>&1
    "$G" run $SHORT --set thermo_imbalance=true -o "$T/imb1" --quiet >/dev/null 2>&1
    head -1 "$T/imb/thermo.csv" | grep -q ',imbalance$' &&
        awk -F, -v np="$NP" 'NR > 1 && !($NF >= 1 && $NF <= np) { bad = 1 } END { exit bad || NR < 2 || $NF >= 1.2 }' \
            "$T/imb/thermo.csv" &&
        awk -F, 'NR > 1 && $NF != "1.0000" { bad = 1 } END { exit bad || NR < 2 }' "$T/imb1/thermo.csv" && ok ||
        bad "thermo_imbalance: $(tail -1 "$T/imb/thermo.csv"), one process $(tail -1 "$T/imb1/thermo.csv")"
    # a rank built fewer lists than one process: its own and those within reach
    grep ranks: "$T/report" | sed 's/.*built the lists of \([0-9.]*\)%.*/\1/' | awk '{ seen = 1; fine = $1 < 100 } END { exit !(seen && fine) }' && ok ||
        bad "halo: every rank built every list: $(grep ranks: "$T/report")"
fi

# Many ranks (once, beside the 3-rank suite): 8 regions of the settled hopper
# write the bytes of one process, and rank 0 sends its halo in messages to
# the ranks that read it alone, not to all 7 others.
if [ "$NP" -eq 3 ]; then
    mpi 8 "$G" run $HALO -o "$T/out" --threads 1 >"$T/report8" 2>&1 || bad "halo: 8 ranks failed: $(cat "$T/report8")"
    rm "$T/out/checkpoint.grains" # it records the command, here without --quiet
    mv "$T/out" "$T/halo.8"
    mkdir "$T/halo.1c" && cp "$T/halo.1"/* "$T/halo.1c" && rm "$T/halo.1c/checkpoint.grains"
    same "$T/halo.1c" "$T/halo.8" "halo on 8 ranks"
    grep ranks: "$T/report8" | sed 's/.*, to \([0-9.]*\) ranks per step.*/\1/' | awk '{ seen = 1; fine = $1 > 0 && $1 < 7 } END { exit !(seen && fine) }' &&
        ok || bad "halo on 8 ranks: not to the readers alone: $(grep ranks: "$T/report8")"
fi

# A checkpoint written by 2 ranks at frame 3, resumed by NP to frame 6: the
# run in one process. (With NP = 1 in the suite, 2 and 3 check it.) The
# default run, the periodic box of grains, bonds and the triaxial test's
# membrane, on ranks holding their own alone: rank 0 lays out the grid,
# lists and histories of the others' blocks as one process holds them
# (without them its checkpoint differs), and every rank of the resumed run
# reads its share of them, the lists and histories as they were, alone
# (sim/state.c's read_share, decomp/rank_resume.c).
resumed() {
    name=$1; shift
    rm -rf "$T/out" "$T/whole"
    mpi 2 "$G" run "$@" --set N_frames=3 --set N_steps=$RS -o "$T/out" --threads 1 --quiet >/dev/null 2>"$T/err" || { bad "resume $name: 2 ranks failed: $(cat "$T/err")"; return; }
    mpi "$NP" "$G" run --resume "$T/out" --set N_frames=6 --quiet >/dev/null 2>"$T/err" || { bad "resume $name: $NP ranks failed: $(cat "$T/err")"; return; }
    "$G" run "$@" --set N_frames=6 --set N_steps=$RS -o "$T/whole" --threads 2 --quiet >/dev/null 2>"$T/err" || { bad "resume $name: one process failed: $(cat "$T/err")"; return; }
    for f in "$T/whole"/*; do
        f_name=$(basename "$f")
        [ "$f_name" = checkpoint.grains ] && continue # it records the command
        cmp -s "$f" "$T/out/$f_name" || { bad "resume $name: $f_name differs after 2 ranks' checkpoint resumed by $NP"; return; }
    done
    ok
}
RS=300 # steps a frame
[ "$NP" -gt 1 ] && resumed default
# the drum while grains enter: its checkpoint at frame 3 holds a grain added since the last rebuild,
# which waits in no list (sim/newcomers.c), kept by every rank and written by one
[ "$NP" -gt 1 ] && resumed drum_entering "$SRC/examples/rotating_drum.cfg"
[ "$NP" -gt 1 ] && resumed periodic_own --particles "$T/periodic.1/particles000006.csv" --set N_max=0 $PERIODIC
# bonds, each on the ranks of its particles' owners: the owners of their first particles send rank 0
# every bond, with the index of those intact at the last rebuild
[ "$NP" -gt 1 ] && resumed bonds_own --particles "$T/default.1/particles000006.csv" --set N_max=0 --set bond_kn=2000 \
    --set bond_tolerance=0.05 --set bond_max_force=2
# the triaxial test's membrane: its vertices, patch logs and servo platens go on from the checkpoint
[ "$NP" -gt 1 ] && resumed triaxial "$SRC/examples/triaxial_case1.cfg" --set grow_time=0.002
# and its servo's addition to the pressure (the felt stress held from 0.5 ms)
[ "$NP" -gt 1 ] && resumed triaxial_felt "$T/triaxial_felt.cfg" --set grow_time=0.002
# outlets removing grains before and after the checkpoint (0.3 s of the hopper's 0.6)
sed -e "s|\.\./data/|$SRC/data/|" -e '/^dt = /d' "$SRC/tests/sinks.cfg" >"$T/sinks_steps.cfg"
echo 'dt = 2.5e-5;' >>"$T/sinks_steps.cfg"
RS=4000
[ "$NP" -gt 1 ] && resumed sinks "$T/sinks_steps.cfg" --csv
# a lattice of 1,000 grains 3R apart falling, 2 steps a frame: the resumed run steps on the lists of
# the checkpoint (no rebuild yet). Ranks that each stepped with every grain there until their first
# rebuild (until 2026-11-28) wrote other kinetic energies and frames than one process.
awk 'BEGIN { print "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material,tag"
             for (n = 0; n < 1000; n++) printf "%.4f,%.4f,%.4f,0.001,0,0,0,1,0,0,0,0,0,0,0,0\n",
                 n % 10 * 0.003, int(n / 10) % 10 * 0.003, int(n / 100) * 0.003 }' >"$T/lattice.csv"
RS=2
[ "$NP" -gt 1 ] && resumed lattice --particles "$T/lattice.csv" --mesh none --set R_min=0.001 --set R_max=0.001 \
    --set N_max=0
# a lattice of 42 x 42 x 40 grains (70,560) 0.5% overlapped, in 206,556 contacts: more than one
# window of the fields (32,768 grains) and springs (4,096 histories) for each rank, so that every
# rank of the resumed run checks a slice of its own and the file's CRC is joined from theirs
awk 'BEGIN { print "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material,tag"
             for (n = 0; n < 70560; n++) printf "%.5f,%.5f,%.5f,0.001,0,0,0,1,0,0,0,0,0,0,0,0\n",
                 n % 42 * 0.00199, int(n / 42) % 42 * 0.00199, int(n / 1764) * 0.00199 }' >"$T/pressed.csv"
[ "$NP" -gt 1 ] && resumed pressed_lattice --particles "$T/pressed.csv" --mesh none --set R_min=0.001 \
    --set R_max=0.001 --set N_max=0

grep -q ',' "$T/bonds.1/thermo.csv" && tail -1 "$T/bonds.1/thermo.csv" | awk -F, '{ exit !($8 > 0) }' ||
    bad "bonds: no bonds formed (the case would not test them)"
echo "mpi_identity_test on $NP ranks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
