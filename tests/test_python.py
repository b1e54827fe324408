"""The Python module (python/grains, docs/python.md) against the command and
against itself. Usage: test_python.py GRAINS_BINARY SOURCE_DIR, with the
module on PYTHONPATH (ctest sets it). Each check states the fact it tests."""
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import numpy as np

import grains

GRAINS, SRC = sys.argv[1], sys.argv[2]
HOURGLASS = os.path.join(SRC, "examples", "hourglass.cfg")
# four frames of 500 steps: the grains fall at 1 m/s onto the cone and pile up in it
SHORT = {"N_frames": 4, "N_steps": 500}
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def raises(kind, fn, what):
    try:
        fn()
    except kind as e:
        print("ok: %s (%s: %s)" % (what, type(e).__name__, e))
        return e
    except Exception as e:  # the wrong kind
        check(False, "%s: %s raised, not %s: %s" % (what, type(e).__name__, kind.__name__, e))
        return None
    check(False, "%s: nothing raised" % what)
    return None


def files_equal(a, b):
    def listed(d):  # (a checkpoint records its command line, which differs)
        return sorted(n for n in os.listdir(d) if not n.startswith("checkpoint"))
    names = listed(a)
    if names != listed(b):
        return False, "files %s and %s" % (names, listed(b))
    for name in names:
        with open(os.path.join(a, name), "rb") as fa, open(os.path.join(b, name), "rb") as fb:
            if fa.read() != fb.read():
                return False, name
    return True, "%d files" % len(names)


def same_bits_as_the_command(tmp):
    """A run stepped from Python writes the bytes `grains run` writes for the
    same scenario and options: frames, series and tables, on 1 and 2 threads."""
    words = ["--set", "N_frames=4", "--set", "N_steps=500", "--csv", "--quiet"]
    subprocess.run([GRAINS, "run", HOURGLASS, "-o", tmp + "/cmd", "--threads", "1"] + words, check=True)
    for threads in (1, 2):
        out = "%s/py%d" % (tmp, threads)
        sim = grains.Simulation(HOURGLASS, set=SHORT, threads=threads, output=out, csv=True)
        sim.write_frame()
        for _ in range(SHORT["N_frames"]):
            sim.advance(SHORT["N_steps"])
            sim.write_frame()
        ok, what = files_equal(tmp + "/cmd", out)
        check(ok and sim.frames == 5, "the same bytes as grains run on %d thread(s): %s" % (threads, what))
        sim.close()
    # run(): the command's own loop, to its end (its checkpoint at the last frame)
    sim = grains.Simulation(HOURGLASS, set=SHORT, threads=2, output=tmp + "/py_run", csv=True)
    sim.run()
    ok, what = files_equal(tmp + "/cmd", tmp + "/py_run")
    check(ok and sim.frames == 5 and sim.steps == 4 * 500 and os.path.exists(tmp + "/py_run/checkpoint.grains"),
          "run() to the end: the same bytes as grains run: %s, %d frames, a checkpoint" % (what, sim.frames))
    sim.close()
    # parameters set before the first step: the bytes of a run created with them
    changed = {"e_n": 0.4, "mu_s": 0.3, "mu_t": 0.25}
    subprocess.run([GRAINS, "run", HOURGLASS, "-o", tmp + "/cmd_set"] + words +
                   sum((["--set", "%s=%r" % kv] for kv in changed.items()), []), check=True)
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=tmp + "/py_set", csv=True)
    sim.set_params(**changed)
    sim.write_frame()
    for _ in range(SHORT["N_frames"]):
        sim.advance(SHORT["N_steps"])
        sim.write_frame()
    ok, what = files_equal(tmp + "/cmd_set", tmp + "/py_set")
    check(ok, "set_params(e_n, mu_s, mu_t) before the first step: the bytes of grains run --set: %s" % what)
    sim.close()
    # a scenario in stages: the stages change the run between the same steps in both
    stages = os.path.join(SRC, "tests", "stages.cfg")
    subprocess.run([GRAINS, "run", stages, "-o", tmp + "/cmd_stages", "--quiet", "--csv"], check=True)
    sim = grains.Simulation(stages, output=tmp + "/py_stages", csv=True)
    sim.write_frame()
    every = int(round(0.02 / sim.dt))
    for _ in range(50):
        sim.advance(every)
        sim.write_frame()
    ok, what = files_equal(tmp + "/cmd_stages", tmp + "/py_stages")
    check(ok, "a scenario in stages: the same bytes as grains run: %s" % what)
    sim.close()
    sim = grains.Simulation(stages, output=tmp + "/py_stages_run", csv=True)
    sim.run()
    ok, what = files_equal(tmp + "/cmd_stages", tmp + "/py_stages_run")
    check(ok, "a scenario in stages to its end by run(): the same bytes as grains run: %s" % what)
    sim.close()


def bulk_reads(tmp):
    """The bulk fields are the particles' values: positions as the CSV frame
    writes them (%.17g, exact), ids 0..N-1, in shapes (N, 3) and (N,)."""
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=tmp + "/bulk", csv=True)
    sim.advance(300)
    sim.write_frame()
    x, v, R, ids = sim.positions, sim.velocities, sim.radii, sim.ids
    n = len(sim)
    check(x.shape == (n, 3) and x.dtype == np.float64 and R.shape == (n,) and ids.dtype == np.int64,
          "shapes and dtypes: positions (%d, 3) float64, radii (%d,), ids int64" % (n, n))
    check(np.array_equal(ids, np.arange(n)), "ids are 0 .. N-1 in order")
    rows = np.genfromtxt(tmp + "/bulk/particles000000.csv", delimiter=",", names=True)
    check(np.array_equal(rows["x"], x[:, 0]) and np.array_equal(rows["vz"], v[:, 2]),
          "positions and velocities are the frame's to the bit")
    sim.close()


def sets_and_refusals():
    """A set is read back exactly; an array of the wrong shape or dtype, a
    grain the library refuses, a wrong id changes nothing."""
    sim = grains.Simulation(HOURGLASS, set=SHORT)
    sim.advance(10)
    v = sim.velocities
    v[:, 2] = -2.0
    sim.velocities = v
    check(np.array_equal(sim.velocities, v), "velocities set are read back exactly")
    before = sim.positions
    raises(grains.InputError, lambda: setattr(sim, "positions", before[:-1]), "positions of the wrong shape")
    raises(grains.InputError, lambda: setattr(sim, "positions", before.astype(str)), "positions of strings")
    bad = before.copy()
    bad[7, 1] = np.nan
    e = raises(grains.InputError, lambda: setattr(sim, "positions", bad), "a NaN position")
    check(e is not None and "7" in str(e), "the error names particle 7")
    check(np.array_equal(sim.positions, before), "refused sets changed nothing")
    n = len(sim)
    R = sim.radii
    R[3] = -1
    raises(grains.InputError, lambda: setattr(sim, "radii", R), "a negative radius")
    raises(grains.InputError, lambda: sim.add_particles([[0, 0, 0.35], [0, 0.05, 0.35]], [0.005, -0.005]),
           "add_particles with a negative radius")
    raises(grains.InputError, lambda: sim.add_particles([0, 0, 0.35], 0.005), "add_particles of shape (3,)")
    check(len(sim) == n, "refused additions added none (%d particles)" % len(sim))
    ids = sim.add_particles([[0, 0, 0.5], [0.03, 0, 0.5]], 0.005, velocities=[[0, 0, -1], [0, 0, -1]], tag=3)
    check(list(ids) == [n, n + 1] and len(sim) == n + 2 and list(sim.tags[-2:]) == [3, 3],
          "add_particles gives ids %d, %d with their tag" % (n, n + 1))
    z0 = sim.positions[-1, 2]
    sim.advance(100)
    check(sim.positions[-1, 2] < z0, "an added grain falls")
    raises(IndexError, lambda: sim.walls[5], "walls[5] of a run with one mesh")
    raises(grains.InputError, lambda: sim.advance(-1), "advance(-1)")
    raises(grains.ConditionNotMet, lambda: sim.run_until(lambda s: False, every=50, max_steps=200),
           "run_until a condition that never holds")
    n = len(sim)
    x, tags = sim.positions, sim.tags
    sim.remove([n - 1, 0])
    check(len(sim) == n - 2 and np.array_equal(sim.positions, x[1:-1]) and np.array_equal(sim.tags, tags[1:-1]),
          "remove([last, 0]): the others close up, their state kept")
    raises(grains.InputError, lambda: sim.remove([3, 3]), "remove an id twice")
    raises(grains.InputError, lambda: sim.remove([len(sim)]), "remove an id that does not exist")
    raises(grains.InputError, lambda: sim.remove([1.5]), "remove a fractional id")
    check(len(sim) == n - 2, "refused removals removed none")
    sim.advance(20)
    s0 = sim.steps
    made = sim.run_until(lambda s: s.steps >= s0 + 100, every=50)
    check(sim.steps == s0 + 100 and made == 100, "run_until stops at the first check that holds (%d steps)" % made)
    w = sim.walls[0]
    check(w.force.shape == (3,) and not w.moving and abs(w.force[2]) > 0,
          "the hourglass's wall carries the grains (force %s)" % w.force)
    z, t0 = w.position[2], sim.time
    w.set_motion("linear", velocity=[0, 0, 0.5])
    sim.advance(100)
    check(abs(w.position[2] - z - 0.5 * (w.time - t0)) < 1e-12 and w.moving and w.time > t0,
          "a wall given a motion moves from where it was at 0.5 m/s (%.6g m in %.6g s)" % (w.position[2] - z,
                                                                                          w.time - t0))
    w.stop()
    z = w.position[2]
    sim.advance(10)
    check(w.position[2] == z and not w.moving, "a stopped wall stays")
    raises(grains.InputError, lambda: w.set_motion("sideways"), "a motion type that does not exist")
    sim.gravity = [0, 0, -5.0]
    check(list(sim.gravity) == [0, 0, -5.0], "gravity set is read back")
    raises(grains.InputError, lambda: setattr(sim, "gravity", [0, float("inf"), 0]), "an infinite gravity")
    raises(grains.InputError, lambda: sim.open_region(3), "a region the run does not have")
    sim.set_params(mu_s=0.2, e_n=0.3)
    check(sim.params["mu_s"] == 0.2 and sim.params["e_n"] == 0.3, "parameters set are read back")
    was = sim.params
    raises(grains.InputError, lambda: sim.set_params(mu_s=0.1, E=1e8), "E, which cannot change during a run")
    e = raises(grains.InputError, lambda: sim.set_params(mu_r=0.1, mu_s=-1), "a negative mu_s")
    check(e is not None and "mu_s" in str(e), "the error names mu_s: %s" % e)
    check(sim.params == was, "refused parameters changed none")
    w.remove()
    sim.advance(10)
    check(w.force[2] == 0, "a removed wall feels no force")
    raises(grains.InputError, lambda: w.set_motion("linear", velocity=[0, 0, float("nan")]), "a NaN velocity")
    sim.close()


def bad_scenarios(tmp):
    """Errors raise exceptions with the library's message and file:line."""
    bad = tmp + "/bad.cfg"
    with open(bad, "w") as f:
        f.write("N_frames = 3;\nmu_s = -1.0;\n")
    e = raises(grains.InputError, lambda: grains.Simulation(bad), "a negative mu_s")
    check(e is not None and e.file == bad and e.line == 2 and "bad.cfg:2" in str(e), "the error is at bad.cfg:2")
    raises(OSError, lambda: grains.Simulation(tmp + "/none.cfg"), "a scenario that does not exist")
    raises(grains.InputError, lambda: grains.Simulation(HOURGLASS, set={"no_such_key": 1}), "an unknown key")
    raises(grains.InputError, lambda: grains.Simulation(HOURGLASS, threads=-3), "threads = -3")
    e = raises(grains.InputError, lambda: grains.Simulation(HOURGLASS, set={"mu_s=0.1 mu_r": 1}), "a key with '='")
    check(e is not None and "no scenario key" in str(e), "a key with '=' is named as no key: %s" % e)
    raises(grains.InputError, lambda: grains.Simulation(HOURGLASS, set={"mu_s": "0.1\0"}), "a value with a NUL")


def resume_same_bits(tmp):
    """A run saved and resumed takes the same steps, bit for bit, as the run
    never stopped, and its outputs go on where they stood."""
    out = tmp + "/resume"
    sim = grains.Simulation(HOURGLASS, set=SHORT, threads=2, output=out, csv=True)
    sim.write_frame()
    sim.advance(400)
    sim.write_frame()
    sim.save_checkpoint(tmp + "/mid.grains")
    sim.advance(400)
    sim.write_frame()
    x, w = sim.positions, sim.angular_velocities
    with open(out + "/thermo.csv") as f:
        rows = f.read()
    sim.close()
    again = grains.Simulation.resume(tmp + "/mid.grains", threads=1)
    check(again.steps == 400 and again.frames == 2, "resumed at step 400 with 2 frames written")
    again.advance(400)
    again.write_frame()
    check(np.array_equal(again.positions, x) and np.array_equal(again.angular_velocities, w),
          "the resumed run's positions and spins are the unbroken run's bits")
    with open(out + "/thermo.csv") as f:
        check(f.read() == rows, "thermo.csv cut back and written on: the unbroken run's bytes")
    raises(grains.InputError, lambda: grains.Simulation.resume(tmp + "/mid.grains", set={"mu_s": 0.1}),
           "a resume that changes mu_s")
    with open(tmp + "/mid.grains", "r+b") as f:
        f.seek(200)
        f.write(b"\x00garbage")
    raises(grains.GrainsError, lambda: grains.Simulation.resume(tmp + "/mid.grains"), "a damaged checkpoint")


def resume_mid_stage(tmp):
    """A run in stages saved while the grains settle and resumed goes on in
    that stage: the same stage transitions and bits as the run never stopped."""
    stages = os.path.join(SRC, "tests", "stages.cfg")
    sim = grains.Simulation(stages, output=tmp + "/mid_stage")
    sim.advance(int(round(0.25 / sim.dt)))  # in "settle" (0.1 s to about 0.4 s)
    sim.save_checkpoint(tmp + "/settling.grains")
    sim.advance(int(round(0.35 / sim.dt)))  # past "open" into "pour"
    x, gate = sim.positions, sim.walls[1].position
    sim.close()
    again = grains.Simulation.resume(tmp + "/settling.grains")
    again.advance(int(round(0.35 / again.dt)))
    check(np.array_equal(again.positions, x) and np.array_equal(again.walls[1].position, gate) and gate[0] > 0.0599,
          "resumed while settling: the gate opened at the same step, the same bits (gate at %.6f m)" % gate[0])


def mesh_series(tmp):
    """A mesh set moving after the first frames starts the mesh series there:
    mesh.pvd lists mesh.vtp for the frames before and a file per frame after,
    every one there, also after a resume."""
    out = tmp + "/series"
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=out)
    sim.write_frame()
    sim.advance(100)
    sim.write_frame()
    sim.walls[0].set_motion("linear", velocity=[0, 0, -0.1])
    sim.advance(100)
    sim.write_frame()
    sim.save_checkpoint(tmp + "/series.grains")
    sim.close()
    again = grains.Simulation.resume(tmp + "/series.grains")
    again.advance(100)
    again.write_frame()
    import re
    with open(out + "/mesh.pvd") as f:
        names = re.findall(r'file="([^"]+)"', f.read())
    check(names == ["mesh.vtp", "mesh.vtp", "mesh000002.vtp", "mesh000003.vtp"] and
          all(os.path.exists(os.path.join(out, n)) for n in names),
          "the mesh series begins where the mesh began moving, and goes on after a resume: %s" % names)


def mesh_moved_and_stopped(tmp):
    """A mesh set moving and stopped again between two frames (a gate opened
    from a program) is drawn where it stands: the frame's mesh file holds
    the file's vertices shifted by the wall's displacement, and the picture
    grains render draws of that frame is not the one of the mesh unmoved."""
    out = tmp + "/gate"
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=out)
    sim.write_frame()
    sim.walls[0].set_motion("linear", velocity=[0.2, 0, -0.1])
    sim.advance(100)
    sim.walls[0].stop()
    sim.advance(10)
    sim.write_frame()
    shift = sim.walls[0].position
    sim.close()
    run = grains.Run(out)
    before, after = run.mesh(0)["position"], run.mesh(1)["position"]
    moved = np.abs(after - before - shift).max()
    check(min(abs(shift[0]), abs(shift[2])) > 1e-4 and before.shape == after.shape and moved < 1e-12,
          "the stopped mesh's frame: its vertices moved by the wall's shift %s (off by %.3g m)" % (shift, moved))
    pictures = []
    for name in ("moved", "unmoved"):
        if name == "unmoved":
            if os.path.exists(os.path.join(out, "mesh000001.vtp")):  # (render then draws mesh.vtp, as it began)
                os.remove(os.path.join(out, "mesh000001.vtp"))
        r = subprocess.run([GRAINS, "render", out, "--frame", "1", "--no-movie", "--width", "200", "-o",
                            "%s/%s" % (tmp, name)], capture_output=True, text=True)
        png = "%s/%s/frame000001.png" % (tmp, name)
        pictures.append(open(png, "rb").read() if r.returncode == 0 and os.path.exists(png) else name)
    check(pictures[0] != pictures[1], "the rendered frame draws the mesh where it stood, not where it began")


def reader_against_the_command(tmp):
    """grains.Run reads a command's run: each VTK frame's positions,
    velocities, radii, tags and orientations are the CSV frame's values
    (written with %.17g: the same doubles), times are thermo.csv's (which
    prints 9 digits, particles.pvd 17), and the
    tables are the files' rows, read as numbers."""
    out = tmp + "/cmd_read"
    subprocess.run([GRAINS, "run", HOURGLASS, "-o", out, "--set", "N_frames=3", "--set", "N_steps=300", "--csv",
                    "--quiet"], check=True)
    run = grains.Run(out)
    check(len(run) == 4, "the run's frames: %d, the command wrote 4" % len(run))
    same = True
    for k in range(len(run)):
        vtk = run.frame(k)
        csv = grains.read_frame(os.path.join(out, "particles%06d.csv" % k))
        for name in ("position", "velocity", "radius", "orientation", "angular_velocity"):
            same &= np.array_equal(vtk[name], csv[name])
        same &= np.array_equal(vtk["id"], np.arange(len(vtk["radius"])))
    check(same, "every VTK frame holds the CSV frame's doubles, ids 0..N-1")
    th = run.thermo
    raw = np.loadtxt(os.path.join(out, "thermo.csv"), delimiter=",", skiprows=1, ndmin=2)
    check(np.array_equal(th["time"], raw[:, 1]) and np.allclose(run.times, raw[:, 1], rtol=1e-8, atol=0) and
          th["N"].dtype == np.int64 and np.array_equal(th["N"], raw[:, 2]),
          "thermo.csv read as its rows: times %s, N an integer column" % run.times)
    check(np.array_equal(run.frame(-1)["position"], run.frame(3)["position"]), "frame -1 is the last")
    raises(IndexError, lambda: run.frame(4), "a frame beyond the run's")
    with open(os.path.join(out, "thermo.csv"), "a") as f:
        f.write("1,2,3\n")
    raises(grains.InputError, lambda: run.thermo, "a table row shorter than its header")
    with open(os.path.join(out, "particles000001.vtp"), "r+b") as f:
        f.truncate(os.path.getsize(f.name) // 2)
    raises(grains.InputError, lambda: run.frame(1), "a frame cut short")
    raises(grains.GrainsIOError, lambda: grains.Run(tmp + "/no_such_run"), "a folder that is not there")


SHEAR = """
R_min = 0.002; R_max = 0.002; rho = 2500.0; E = 1.0e7; nu = 0.3; e_n = 0.3; mu_s = 0.5; mu_r = 0.05;
g = [0.0, 0.0, -9.81];
periodic = "xy"; box_min = [0.0, 0.0, -0.01]; box_max = [0.04, 0.04, 0.05];
meshes = ( { file = "floor.off"; R_mesh = [0.0]; periodic = true; },
           { file = "lid.off"; R_mesh = [0.0]; periodic = true;
             motion = { type = "servo"; axis = [0.0, 0.0, -1.0]; force = 2.0; max_speed = 0.1; }; } );
spawns = ( { min = [0.0, 0.0, 0.003]; max = [0.04, 0.04, 0.012]; count = 150; } );
N_max = 150; v0 = [0.0, 0.0, 0.0];
dt = 2e-5; t_end = 1.0; frame_interval = 0.05;
"""


def servo_shear(tmp):
    """A shear at a held normal load: 150 grains in a box periodic across,
    between a floor and a lid (long plates: meshes are not periodic); the
    lid, a servo pressing with 2 N, given a velocity of 0.02 m/s across its
    axis, moves 0.02 m/s x the time (to one step's lag) while it keeps the
    load: the force on it over the last 0.15 s of shear is 2 N on average to
    1% (the servo closes half the missing force a step: measured 0.6% low), and it
    rises or sinks as the layer dilates; a checkpoint mid-shear resumes to
    the same bits (the travel across is kept)."""
    d = tmp + "/shear"
    os.mkdir(d)
    for name, z in (("floor.off", 0.0), ("lid.off", 0.014)):
        with open(os.path.join(d, name), "w") as f:
            f.write("OFF\n4 1 0\n0 0 %g\n0.04 0 %g\n0.04 0.04 %g\n0 0.04 %g\n4 0 1 2 3\n" % ((z,) * 4))
    with open(os.path.join(d, "shear.cfg"), "w") as f:
        f.write(SHEAR)
    sim = grains.Simulation(os.path.join(d, "shear.cfg"), output=d + "/out")
    sim.advance(15000)  # 0.3 s: filled, settled, pressed
    lid = sim.walls[1]
    v, dt = 0.02, sim.dt
    lid.set_motion("servo", axis=[0, 0, -1], force=2.0, max_speed=0.1, velocity=[v, 0, 0])
    x0, z0, t0 = lid.position[0], lid.position[2], sim.time
    fz = []
    for k in range(200):
        sim.advance(50)
        fz.append(lid.force[2])
        if k == 99:
            sim.save_checkpoint(d + "/mid.grains")
    x, t = lid.position[0] - x0, sim.time - t0
    check(abs(x - v * t) <= v * dt * (1 + 1e-9) and x > 0.0039,
          "the servo's lid moved %.7f m across in %.4f s at 0.02 m/s (%.7f; one step's lag at most)" % (x, t, v * t))
    held = np.mean(fz[50:])  # (after the first 0.05 s, in which it takes up the shear)
    check(abs(held - 2.0) < 0.02 and lid.position[2] != z0,
          "it held 2 N while shearing: %.5f N on average (sd %.4f), its height changed %.3g m"
          % (held, np.std(fz[50:]), lid.position[2] - z0))
    raises(grains.InputError, lambda: lid.set_motion("servo", axis=[0, 0, -1], force=2.0, max_speed=0.1,
                                                     velocity=[0.01, 0, 0.01]), "a servo's velocity along its axis")
    again = grains.Simulation.resume(d + "/mid.grains")
    again.advance(5000)
    check(np.array_equal(again.positions, sim.positions) and np.array_equal(again.walls[1].position, lid.position),
          "resumed mid-shear: the same bits 5,000 steps on")
    sim.close()
    again.close()


FLOOR = """
R_min = 0.002; R_max = 0.002; rho = 2500.0; E = 1.0e7; nu = 0.3; e_n = 0.3; mu_s = 0.5;
g = [0.0, 0.0, -9.81];
periodic = "xy"; box_min = [0.0, 0.0, -0.01]; box_max = [0.04, 0.04, 0.05];
meshes = ( { file = "floor.off"; R_mesh = [0.0]; periodic = %s; } );
spawns = ( { min = [0.0, 0.0, 0.003]; max = [0.04, 0.04, 0.02]; count = 100; } );
N_max = 100; v0 = [0.0, 0.0, 0.0];
dt = 2e-5; t_end = 1.0; frame_interval = 0.05;
"""


def periodic_mesh(tmp):
    """A mesh that repeats with the periodic box: a floor one period long
    (0.04 m) laid across the box's face (x from 0.02 to 0.06) holds every
    grain when periodic, the half of the box it does not cover seeing its
    image; not periodic, the grains over that half fall through. An element
    neither spanning the period nor shorter than it by twice a grain's reach
    is refused, naming it."""
    d = tmp + "/pfloor"
    os.mkdir(d)
    for name, x0, x1 in (("floor.off", 0.02, 0.06), ("short.off", 0.0, 0.036)):
        with open(os.path.join(d, name), "w") as f:
            f.write("OFF\n4 1 0\n%g 0 0\n%g 0 0\n%g 0.04 0\n%g 0.04 0\n4 0 1 2 3\n" % (x0, x1, x1, x0))
    below = {}
    for on in ("true", "false"):
        with open(os.path.join(d, "floor_%s.cfg" % on), "w") as f:
            f.write(FLOOR % on)
        sim = grains.Simulation(os.path.join(d, "floor_%s.cfg" % on), output=d + "/out_" + on)
        sim.advance(10000)  # 0.2 s: fallen 0.2 m if unheld
        below[on] = int((sim.positions[:, 2] < -0.005).sum())
        n = len(sim)
        sim.close()
    check(below["true"] == 0 and below["false"] > 20 and n == 100,
          "a periodic floor across the box's face holds all 100 grains; not periodic, %d fell through" % below["false"])
    with open(os.path.join(d, "short.cfg"), "w") as f:
        f.write((FLOOR % "true").replace("floor.off", "short.off"))
    raises(grains.InputError, lambda: grains.Simulation(os.path.join(d, "short.cfg")),
           "an element 0.036 long in a period of 0.04")


def unstable():
    """A step that cannot be made raises UnstableError naming the grain, at
    the last good state."""
    sim = grains.Simulation(HOURGLASS, set=SHORT)
    sim.advance(5)
    x = sim.positions
    x[0] = x[1] + [1e-4, 0, 0]  # two grains nearly one on the other
    sim.positions = x
    e = raises(grains.UnstableError, lambda: sim.advance(50), "two grains set one inside the other")
    check(e is not None and e.particle in (0, 1), "the error names one of them (%s)" % (e and e.particle))
    # (grains spawned in the failed step stay where they were placed: sim/last_good.c)
    check(np.array_equal(sim.positions[:len(x)], x) and sim.steps == 5, "the state is the last good one, step 5")


CTRL_C = """
import sys, time, grains
sim = grains.Simulation(sys.argv[1], set={"N_frames": 1000})
print("started", flush=True)
try:
    sim.advance(10 ** 9)
except KeyboardInterrupt:
    n = sim.steps
    sim.advance(1)
    print("stopped at", n, "went on to", sim.steps, flush=True)
"""


def interrupted(tmp, name, text, args, after):
    """The script `text` run with `args`, sent SIGINT `after` seconds past
    its first line: its exit status and what it printed then."""
    script = "%s/%s.py" % (tmp, name)
    with open(script, "w") as f:
        f.write(textwrap.dedent(text))
    p = subprocess.Popen([sys.executable, script] + args, stdout=subprocess.PIPE, text=True)
    p.stdout.readline()
    import time
    time.sleep(after)
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out = "(still running 60 s after SIGINT)"
    return p.returncode, out


def ctrl_c(tmp):
    """Ctrl-C stops a long advance between steps; the run goes on after it."""
    code, out = interrupted(tmp, "ctrl_c", CTRL_C, [HOURGLASS], 1.0)
    words = out.split()
    check(code == 0 and len(words) == 7 and int(words[6]) == int(words[2]) + 1,
          "SIGINT stopped advance(10^9): %s" % out.strip())


CTRL_C_RUN = """
import os, signal, sys, grains
sim = grains.Simulation(sys.argv[1], set={"N_frames": 1000}, output=sys.argv[2])
print("started", flush=True)
try:
    sim.run()
except KeyboardInterrupt as e:
    n = sim.steps
    sim.close()
    again = grains.Simulation.resume(os.path.join(sys.argv[2], "checkpoint.grains"))
    kept = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    print("stopped at", n, "resumed at", again.steps, kept, e, flush=True)
"""


def ctrl_c_run(tmp):
    """Ctrl-C stops run() at the end of a step with a checkpoint there, which
    resumes at that step; Python's own handler is back after it."""
    code, out = interrupted(tmp, "ctrl_c_run", CTRL_C_RUN, [HOURGLASS, tmp + "/ctrl_c_run"], 1.5)
    words = out.split()
    check(code == 0 and len(words) > 6 and words[2] == words[5] and int(words[2]) > 0 and words[6] == "True"
          and "checkpoint" in out, "SIGINT stopped run() with a checkpoint that resumes there: %s" % out.strip())


PROGRESS = """
import sys, time, grains
sim = grains.Simulation(sys.argv[1], set={"N_frames": 1})
sim.progress = {"on": True, "off": False, "auto": None}[sys.argv[2]]
t0 = time.perf_counter()
sim.run_until(lambda s: time.perf_counter() - t0 > 3, every=20)
t0 = time.perf_counter()
sim.advance(200)
sim.advance(int(6 / ((time.perf_counter() - t0) / 200)) + 1)  # (an advance of about 6 s, 4 s at least)
print("done", sim.steps)
"""


def progress(tmp):
    """A long advance or run_until draws a progress line on stderr (the
    time, the steps, the grains; advance's percentage and ETA) when asked,
    and wipes it at the end; none by default where stderr is not a
    terminal, nor when turned off."""
    script = tmp + "/progress.py"
    with open(script, "w") as f:
        f.write(PROGRESS)
    for mode in ("on", "auto", "off"):
        p = subprocess.run([sys.executable, script, HOURGLASS, mode], capture_output=True, timeout=120)
        err = p.stderr.decode()  # (bytes: text mode would turn each \r into \n)
        if mode == "on":
            check(p.returncode == 0 and "run_until: t = " in err and "advance: t = " in err and "ETA" in err and
                  err.endswith("\r"), "progress = True: run_until's and advance's lines, ended by a wipe: %r"
                  % err[-160:])
        else:
            check(p.returncode == 0 and err == "", "progress = %s, stderr not a terminal: no line (%r)"
                  % ({"auto": "None", "off": "False"}[mode], err[:160]))


def sinks(tmp):
    """A scenario's sinks remove grains in Python as in the command: every grain
    spawned is either still in the run or counted removed, and the log names
    each with its tag; sinks.csv gets the log at the next frame."""
    sim = grains.Simulation(os.path.join(SRC, "tests", "sinks.cfg"), output=tmp + "/sinks")
    sim.write_frame()
    sim.run_until(lambda s: s.removed(0) >= 50, every=500, max_steps=40000)
    log = sim.removals()
    total = sim.removed(0) + sim.removed(-1)
    check(len(sim) + total == 400 and len(log) == total and set(log["tag"]) <= {1, 2} and (log["sink"] == 0).all()
          and sim.removed(0, 1) + sim.removed(0, 2) == sim.removed(0),
          "%d grains in the run and %d removed: 400; the log names each, with its tag" % (len(sim), total))
    sim.write_frame()
    rows = np.genfromtxt(tmp + "/sinks/sinks.csv", delimiter=",", names=True)
    check(len(rows) == total and len(sim.removals()) == 0, "sinks.csv took the log at the frame")


def persistent_ids(tmp):
    """A grain is followed by its persistent id through a sink's removals:
    step by step while the sink removes grains (their ids closing up), the
    grains of the same uid before and after a step are where one step of
    their velocity takes them (to 1% of R_min), while the same dense ids
    jump; the uids missing after a step are those the log names; uids grow
    with ids (the order the grains were made), a grain added later takes
    the next number, 400, never one let go; the frames' uid array is
    sim.uids, sinks.csv's uid the log's; a resume keeps them."""
    sim = grains.Simulation(os.path.join(SRC, "tests", "sinks.cfg"), output=tmp + "/uids")
    sim.run_until(lambda s: s.removed(0) >= 1, every=100, max_steps=40000)
    R, dt = sim.radii.min(), sim.dt
    logged, followed, jumped, worst, steps = set(), 0, 0, 0.0, 0
    while sim.removed(0) < 40 and steps < 20000:
        u0, x0, v0 = sim.uids, sim.positions, sim.velocities
        sim.advance(1)
        steps += 1
        u1, x1 = sim.uids, sim.positions
        logged |= set(sim.removals()["uid"].tolist())
        if len(u1) == len(u0):
            continue
        common, i0, i1 = np.intersect1d(u0, u1, return_indices=True)
        worst = max(worst, np.abs(x1[i1] - (x0[i0] + v0[i0] * dt)).max() / R)
        followed += len(common)
        n = len(u1)
        jumped += int((np.abs(x1 - x0[:n]).max(axis=1) > 0.5 * R).sum())  # (by dense id: another grain)
        if not set(u0.tolist()) - set(u1.tolist()) <= logged or not (np.diff(u1) > 0).all():
            break
    gone = 400 - len(sim)
    check(followed > 0 and worst < 0.01 and jumped > 0 and len(logged) == gone and (np.diff(sim.uids) > 0).all(),
          "through %d removals in %d steps, the grains of a uid moved one step's velocity (to %.2g of R_min) while "
          "%d by dense id jumped; the log names every uid let go; uids grow with ids" % (gone, steps, worst, jumped))
    new = sim.add_particles([[0.0, 0.0, 0.25]], 0.002)
    check(sim.uids[new[0]] == 400 and 400 not in logged, "a grain added after %d were made takes uid 400" % 400)
    sim.write_frame()
    frame = grains.Run(tmp + "/uids").frame(-1)
    rows = grains.Run(tmp + "/uids").sinks
    check(np.array_equal(frame["uid"], sim.uids) and set(rows["uid"].tolist()) == logged,
          "the frame's uid array is sim.uids; sinks.csv's uids are the log's")
    sim.save_checkpoint(tmp + "/uids.grains")
    again = grains.Simulation.resume(tmp + "/uids.grains")
    check(np.array_equal(again.uids, sim.uids), "a resume keeps the uids")
    raises(AttributeError, lambda: setattr(sim, "uids", sim.uids), "uids set")
    sim.close()
    again.close()


def hopper_study(tmp):
    """examples/hopper_study.py (docs/python.md) runs to its end in a short
    form, 300 grains through the opening and the discharge: every grain
    leaves the hopper and the rate is positive."""
    out = subprocess.run([sys.executable, os.path.join(SRC, "examples", "hopper_study.py"), "--grains", "300",
                          "-o", tmp + "/study"], capture_output=True, text=True)
    print(out.stdout, out.stderr, end="")
    words = out.stdout.split()
    ok = out.returncode == 0 and "discharge:" in words and words[words.index("discharge:") + 1] == "300"
    rate = float(words[words.index("rate") + 1]) if ok and "rate" in words else 0
    check(ok and rate > 0 and os.path.exists(tmp + "/study/discharge.csv"),
          "the hopper study empties 300 grains through the outlet at %g grains/s" % rate)


def probes(tmp):
    """sim.probe on tests/probes.cfg: the rows of probes.csv at the last
    frame, and the hopper's discharge counted once per grain."""
    out = tmp + "/probes"
    sim = grains.Simulation(os.path.join(SRC, "tests", "probes.cfg"), output=out, set={"t_end": 0.3})
    check(sim.probes == ["outlet", "below", "hopper"], "the scenario's probes by name: %s" % sim.probes)
    sim.advance(12000)
    sim.write_frame()
    rows = sim.probe("outlet")
    table = [r for r in open(out + "/probes.csv").read().split("\n")[1:] if r.startswith("0.3,outlet,") and ",all," not in r]
    check(len(rows) == len(table) and all(int(t.split(",")[4]) == r["number"] for t, r in zip(table, rows)) and
          rows["number"].sum() > 0, "sim.probe('outlet') gives probes.csv's rows (%d grains crossed)" % rows["number"].sum())
    raises(grains.InputError, lambda: sim.probe("nosuch"), "a probe the scenario lacks is refused")


def box(tmp):
    """sim.box() on examples/shear_pressure.cfg: the figures of box.csv's
    row at a frame (the means of the samples since the last, which the row
    clears); set_params(box_pressure=...) moves the servo's target."""
    out = tmp + "/box"
    sim = grains.Simulation(os.path.join(SRC, "examples", "shear_pressure.cfg"), output=out,
                            set={"t_end": 0.05, "vtk": False})
    sim.advance(500)
    b = sim.box()
    sim.write_frame()
    row = open(out + "/box.csv").read().split()[-1].split(",")  # (the frame's, the last)
    zz = b["mean_stress"][2][2]
    check(abs(b["L_z"] - float(row[2])) <= 1e-11 * b["L_z"] and b["sampled_step"] == 490 and
          b["samples"] == int(row[6]) and b["samples"] >= 49 and abs(zz - float(row[10])) <= 1e-8 * abs(zz) and
          b["stress"].shape == b["mean_stress"].shape == (3, 3) and zz != b["stress"][2][2],
          "sim.box() gives box.csv's row: L_z %g m, %d samples to step %d, mean sigma_zz %g Pa (the last %g)" %
          (b["L_z"], b["samples"], b["sampled_step"], zz, b["stress"][2][2]))
    after = sim.box()
    check(after["samples"] == 0 and after["mean_stress"][2][2] == after["stress"][2][2],
          "the row cleared the means: %d samples" % after["samples"])
    sim.set_params(box_pressure=50.0)
    check(sim.params["box_pressure"] == 50.0, "box_pressure set: %g" % sim.params["box_pressure"])


def fields(tmp):
    """grains.Fields on the hourglass's grains piling in the cone: the same
    profile as grains fields gives from the frame written at that step (the
    contacts recorded by the step before it), to round-off; the density
    integrated over the grid is the grains' mass; a step without recorded
    contacts is refused by fields with contacts, and taken by fields
    without, which give the same density and kinetic stress and no contact
    fields; contacts come with every step added or none."""
    out = tmp + "/fields"
    sim = grains.Simulation(HOURGLASS, set={"contacts": True, "N_frames": 1}, output=out)
    sim.record_contacts = True
    sim.advance(1500)
    sim.write_frame()
    lo, hi = (-0.5, -0.5, -0.1), (0.5, 0.5, 0.6)
    f = grains.Fields(lo, hi, cells=(1, 1, 70), width=0.01, average="xy")
    f.add(sim)
    subprocess.run([GRAINS, "fields", out, "--average", "xy", "--width", "0.01", "--cell", "0.01", "--box",
                    ",".join(str(v) for v in lo + hi)], check=True, capture_output=True)
    rows = np.genfromtxt(out + "/fields/fields.csv", delimiter=",", names=True)
    szz, rho = f.mean("stress")[:, 2, 2], f.mean("density")
    scale = np.abs(szz).max()
    check(np.allclose(rows["z"], f.centres("z"), rtol=0, atol=1e-12) and
          np.abs(rows["stress_zz"] - szz).max() < 1e-9 * scale and np.abs(rows["density"] - rho).max() < 1e-9 * rho.max(),
          "Fields.add(sim) and grains fields on the frame of that step give the same profile (sigma_zz to %.2g of "
          "its largest)" % (np.abs(rows["stress_zz"] - szz).max() / scale))
    run = grains.Run(out)
    c, frame = run.contacts(-1), run.frame(-1)
    check(len(c["a"]) > 0 and np.array_equal(c["uid_a"], frame["uid"][c["a"]]) and
          np.array_equal(c["uid_b"] == -1, c["kind"] == 1) and
          np.array_equal(c["uid_b"][c["kind"] == 0], frame["uid"][c["b"][c["kind"] == 0]]),
          "the contacts' file names its grains by uid too: uid_a, uid_b the frame's (-1 on a mesh)")
    mass = (4 / 3 * np.pi * sim.radii ** 3).sum() * 1000  # (rho of examples/hourglass.cfg)
    held = rho.sum() * 1.0 * 1.0 * 0.01
    check(abs(held - mass) < 1e-12 * mass, "the profile holds the grains' mass (%.6g kg of %.6g)" % (held, mass))
    sim.record_contacts = False
    sim.advance(10)
    raises(grains.InputError, lambda: f.add(sim), "a step that recorded no contacts, to fields with contacts, "
           "is refused")
    check(f.frames == 1, "nothing was added")
    # fields of the grains alone: no contacts needed, none of the contact fields, the same density
    alone = grains.Fields(lo, hi, cells=(1, 1, 70), width=0.01, average="xy")
    alone.add(sim)
    with_them = grains.Fields(lo, hi, cells=(1, 1, 70), width=0.01, average="xy")
    sim.record_contacts = True
    sim.advance(1)
    alone.add(sim)  # (made without contacts by its first step: its later steps' grains alone)
    check(alone.frames == 2 and alone.contacts is False, "a Fields keeps to the contacts of its first step")
    with_them.add(sim)
    last = grains.Fields(lo, hi, cells=(1, 1, 70), width=0.01, average="xy", contacts=False)
    last.add(sim)
    check(np.array_equal(last.mean("density"), with_them.mean("density")) and
          np.array_equal(last.mean("stress_kinetic"), with_them.mean("stress_kinetic")) and last.mean("density").max() > 0,
          "without contacts: the density and kinetic stress of the same step with them, bit for bit")
    check("stress_contact" not in alone.names and "coordination" not in last.names and "stress" in with_them.names,
          "the contact fields are not a contact-less Fields' names: %s" % alone.names)
    raises(grains.InputError, lambda: alone.mean("stress"), "its stress asked for")
    alone.write_csv(tmp + "/alone.csv")
    with open(tmp + "/alone.csv") as fh:
        head = fh.readline()
    check("density" in head and "stress_contact" not in head and "stress_xx" not in head,
          "its CSV has no contact columns")


def one_caller_at_a_time():
    """A Simulation takes one caller at a time: while one thread advances it
    (the GIL released), another thread's advance, read, addition or close
    raises BusyError, and none crashes; after close() every use raises
    ClosedError; a wall index beyond the meshes raises IndexError (it read
    memory beyond them before, and crashed at 10**9)."""
    sim = grains.Simulation(HOURGLASS, set=SHORT)
    raises(IndexError, lambda: grains.Wall(sim, 10 ** 9).position, "Wall(sim, 10**9)")
    raises(IndexError, lambda: grains.Wall(sim, 5), "Wall(sim, 5) of a run with one mesh")
    steps0, done = sim.steps, []
    def advance_once_free():  # (its first try may meet the poll below holding the simulation: then again)
        for _ in range(5000):
            try:
                return done.append(sim.advance(4000) or "whole")
            except grains.BusyError:
                time.sleep(0.0005)
    worker = threading.Thread(target=advance_once_free)
    worker.start()
    busy = None
    for _ in range(5000):  # (until the other thread holds it: at most 5 s)
        try:
            sim.time
        except grains.BusyError as e:
            busy = e
            break
        time.sleep(0.001)
    seen = [busy is not None]
    if busy is not None and worker.is_alive():
        for name, call in (("advance", lambda: sim.advance(1)), ("positions", lambda: sim.positions),
                           ("add_particles", lambda: sim.add_particles([[0, 0, 0.5]], 0.005)),
                           ("remove", lambda: sim.remove([0])), ("close", sim.close)):
            try:
                call()
                seen.append(not worker.is_alive())  # (done first: nothing to say)
            except grains.BusyError:
                seen.append(True)
    worker.join()
    closed = sim.__dict__.get("_run") is None  # (only where the advance had ended before the close came)
    check(all(seen) and done == ["whole"] and (closed or sim.steps == steps0 + 4000),
          "while one thread advances, another's advance, positions, add_particles, remove and close raise "
          "BusyError (%s); the advance ends whole (%s)" % (seen, done))
    sim.close()
    sim.close()  # (a second close does nothing)
    for name in ("time", "positions", "walls", "thermo", "kinetic_energy", "probes"):
        raises(grains.ClosedError, lambda: getattr(sim, name) if name != "thermo" else sim.thermo(),
               "%s after close()" % name)
    raises(grains.ClosedError, lambda: sim.advance(1), "advance after close()")
    check(repr(sim) == "<grains.Simulation: closed>", "a closed Simulation says so: %r" % sim)


def paths_and_values(tmp):
    """Paths are resolved once, at creation: a program's os.chdir later moves
    no output, and a resume changes no process's folder (another run's frames
    stay in its own); a NUL in a path, a scenario named like an option, a
    tag beyond 32 bits, a max_steps that is no count, a FIFO where a file is
    to be written: each refused, or taken as what it is, with nothing
    changed; a stage that does not settle in time raises ConditionNotMet."""
    here, tmp, hourglass = os.getcwd(), os.path.realpath(tmp), os.path.abspath(HOURGLASS)
    os.chdir(tmp)
    try:
        a = grains.Simulation(hourglass, set=SHORT, output="rel_a")
        b = grains.Simulation(hourglass, set=SHORT, output="rel_b")
        a.write_frame()
        a.save_checkpoint()
        os.mkdir("elsewhere")
        os.chdir("elsewhere")
        a.advance(10)
        a.write_frame()
        resumed = grains.Simulation.resume(os.path.join(tmp, "rel_a", "checkpoint.grains"))
        check(os.getcwd() == os.path.join(tmp, "elsewhere"), "a resume leaves the process's folder (%s)" % os.getcwd())
        b.write_frame()
        check(os.path.exists(os.path.join(tmp, "rel_a", "particles000001.vtp")) and
              os.path.exists(os.path.join(tmp, "rel_b", "particles000000.vtp")) and
              not os.path.exists("rel_a") and not os.path.exists("rel_b") and
              a.output_dir == os.path.join(tmp, "rel_a"),
              "after os.chdir, each run's frames go on in the folder it was created with (%s)" % a.output_dir)
        resumed.close(), a.close(), b.close()
    finally:
        os.chdir(here)
    raises(grains.InputError, lambda: grains.Simulation(HOURGLASS, output=tmp + "/a\0b"), "a NUL in a path")
    raises(grains.InputError, lambda: grains.Simulation.resume(tmp + "/x\0.grains"), "a NUL in a checkpoint's path")
    e = raises(OSError, lambda: grains.Simulation("--quiet"), "a scenario named --quiet")
    check(e is not None and "--quiet" in str(e), "is the file ./--quiet, not an option: %s" % e)
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=tmp + "/values")
    sim.advance(10)
    tags = sim.tags
    bad = np.full(len(sim), 2 ** 64 - 1, dtype=np.uint64)
    raises(grains.InputError, lambda: setattr(sim, "tags", bad), "tags of 2**64 - 1")
    check(np.array_equal(sim.tags, tags), "the tags are unchanged (not -1)")
    raises(grains.InputError, lambda: sim.run_until(lambda s: False, max_steps=float("nan")), "max_steps = nan")
    raises(grains.InputError, lambda: sim.run_until(lambda s: False, max_steps=1e9), "max_steps = 1e9, a float")
    fifo = tmp + "/fifo.csv"
    os.mkfifo(fifo)
    f = grains.Fields((-0.5, -0.5, -0.1), (0.5, 0.5, 0.6), cells=(1, 1, 10), width=0.05, average="xy")
    f.add(sim)
    e = raises(grains.GrainsIOError, lambda: f.write_csv(fifo), "Fields.write_csv into a FIFO")
    check(e is not None and "not a regular file" in str(e), "a FIFO is refused, never replaced: %s" % e)
    raises(grains.GrainsIOError, lambda: sim.save_checkpoint(fifo), "save_checkpoint into a FIFO")
    check(os.path.exists(fifo) and not os.path.isfile(fifo), "the FIFO is still a FIFO")
    raises(grains.InputError, lambda: grains.Fields((0, 0, 0), (1e-150,) * 3, cells=(4, 4, 4), width=1e-150),
           "a grid of 1e-150")
    raises(grains.InputError, lambda: grains.Fields((0, 0, 0), (1, 1, 1), cells=(4, 4, 4), width=1e300),
           "a kernel of width 1e300")
    sim.close()
    stage = tmp + "/unsettled.cfg"
    with open(HOURGLASS) as src, open(stage, "w") as out:
        out.write(src.read())
        out.write('\nstages = ( { until = "settled"; kinetic_energy = 1e-12; max_time = 0.01; check_every = 50; } );\n')
    sim = grains.Simulation(stage, output=tmp + "/unsettled")
    raises(grains.ConditionNotMet, lambda: sim.advance(1000), "a stage that did not settle within max_time")
    sim.close()


def missing_numpy():
    """`import grains` in a Python without numpy (a venv's, pyenv's) says what
    is missing and which Python the module is for, not a bare
    ModuleNotFoundError."""
    run = subprocess.run([sys.executable, "-c", "import sys; sys.modules['numpy'] = None; import grains"],
                         capture_output=True, text=True)
    check(run.returncode != 0 and "grains needs numpy" in run.stderr and "/usr/bin/python3" in run.stderr
          and "python3-numpy" in run.stderr, "import grains without numpy says why: %s"
          % run.stderr.strip().splitlines()[-1][:200])


def params_kept(tmp):
    """Parameters and gravity set from Python are the run's from then on: a
    checkpoint keeps them, and the resumed run steps with them, the same bits
    as the run never stopped (they were lost before: the scenario's again)."""
    sim = grains.Simulation(HOURGLASS, set=SHORT, output=tmp + "/kept")
    sim.advance(100)
    sim.set_params(mu_s=0.2, e_n=0.3, eta=1e-4)
    sim.gravity = [0.5, 0, -7.0]
    sim.save_checkpoint(tmp + "/kept.grains")
    sim.advance(300)
    x, params = sim.positions, sim.params
    sim.close()
    again = grains.Simulation.resume(tmp + "/kept.grains")
    check(again.params == params and list(again.gravity) == [0.5, 0, -7.0],
          "a resume has the parameters and gravity set before the checkpoint (%s, g %s)" % (again.params, again.gravity))
    again.advance(300)
    check(np.array_equal(again.positions, x), "and steps with them: the unbroken run's bits")
    again.close()


with tempfile.TemporaryDirectory() as tmp:
    same_bits_as_the_command(tmp)
    bulk_reads(tmp)
    sets_and_refusals()
    bad_scenarios(tmp)
    resume_same_bits(tmp)
    resume_mid_stage(tmp)
    mesh_series(tmp)
    mesh_moved_and_stopped(tmp)
    servo_shear(tmp)
    periodic_mesh(tmp)
    reader_against_the_command(tmp)
    unstable()
    ctrl_c(tmp)
    ctrl_c_run(tmp)
    progress(tmp)
    sinks(tmp)
    persistent_ids(tmp)
    hopper_study(tmp)
    fields(tmp)
    probes(tmp)
    box(tmp)
    one_caller_at_a_time()
    paths_and_values(tmp)
    params_kept(tmp)
    missing_numpy()
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
