"""The Python module fuzzed: hostile values (NaN, inf, 1e308, 1e-308, -0,
huge and negative integers, wrong types and shapes, NUL bytes) thrown at
every setter and method of a Simulation, its walls and Fields, and the
readers of a run's results (grains.Run, read_frame) on damaged copies of
its files, in a random
order: CALLS of them (default 40000, the same sequence on any machine, so
that the suite's verdict does not depend on its speed), from SEED (default
1), stopping early after SECONDS (default 120) at most. What must hold:
each call succeeds or raises one of the module's errors or Python's own
for a bad argument (TypeError, ValueError, IndexError, OverflowError),
never crashes (the sanitizer build runs it under AddressSanitizer), and
nothing the simulation reports afterwards is NaN or inf.
Usage: fuzz_python.py SOURCE_DIR OUTPUT_DIR [CALLS [SEED [SECONDS]]]."""
import math
import os
import random
import sys
import time

import numpy as np

import grains

SRC, OUT = sys.argv[1], sys.argv[2]
CALLS = int(sys.argv[3]) if len(sys.argv) > 3 else 40000
SECONDS = float(sys.argv[5]) if len(sys.argv) > 5 else 120.0
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
TRACE = os.environ.get("GRAINS_FUZZ_TRACE")  # each call's line on stderr, to find the one that crashed
ALLOWED = (grains.GrainsError, TypeError, ValueError, IndexError, OverflowError, KeyError, MemoryError)
NUMBERS = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-308, 5e-324, 1e308, -1e308, float("inf"), float("-inf"), float("nan"),
           2 ** 31, -2 ** 31 - 1, 2 ** 63, 2 ** 64 - 1, -2 ** 64, 10 ** 30, 3, 7, 1e-3]


def value():
    """A hostile value: a number, or something that is not one."""
    kind = rng.random()
    if kind < 0.7:
        return rng.choice(NUMBERS)
    return rng.choice([None, "x", "1\0", b"\0", [], [1.0, 2.0], {"a": 1}, (1, 2, 3), np.nan, np.int64(-1),
                       np.uint64(2 ** 64 - 1), np.array([np.inf] * 3), object()])


def vec():
    return [value() for _ in range(rng.choice([3, 3, 3, 2, 4]))]


def array(sim, width):
    n = len(sim)
    shape = rng.choice([(n, width) if width > 1 else (n,), (max(n - 1, 0), width), (n + 1,)])
    a = np.full(shape, rng.choice(NUMBERS), dtype=rng.choice([np.float64, np.int64, np.uint64, np.float32]))
    return a


def damaged_copy():
    """A copy of the run's last frame and tables in OUT/damaged, one of its
    files damaged (cut short, bytes overwritten, junk appended): the folder."""
    import shutil
    dst = os.path.join(OUT, "damaged")
    shutil.rmtree(dst, ignore_errors=True)
    os.mkdir(dst)
    frames = sorted(n for n in os.listdir(OUT) if n.startswith("particles0") and n.endswith(".vtp"))
    names = [n for n in os.listdir(OUT) if n.endswith((".pvd", ".csv"))] + frames[-2:]
    for n in names:
        if os.path.isfile(os.path.join(OUT, n)):
            shutil.copy(os.path.join(OUT, n), dst)
    files = sorted(os.listdir(dst))
    if files:
        path = os.path.join(dst, rng.choice(files))
        data = bytearray(open(path, "rb").read())
        how = rng.randrange(3)
        if how == 0 and data:
            data = data[:rng.randrange(len(data))]
        elif how == 1 and data:
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        else:
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        open(path, "wb").write(bytes(data))
    return dst


def read_back(sim):
    """One of the readers of a run's results on a damaged copy of it (a
    frame written first, now and then)."""
    if rng.random() < 0.02 or not os.path.exists(os.path.join(OUT, "particles.pvd")):
        sim.write_frame()
    run = grains.Run(damaged_copy())
    return rng.choice([lambda: run.frame(rng.randrange(-3, 3)), lambda: run.thermo, lambda: run.table("sinks"),
                       lambda: run.times, lambda: len(run), lambda: run.mesh(0),
                       lambda: grains.read_frame(os.path.join(run.dir, rng.choice(os.listdir(run.dir))))])()


def actions(sim, fields):
    walls = lambda: sim.walls[rng.randrange(-2, 3)]
    return [
        lambda: setattr(sim, rng.choice(["positions", "velocities", "angular_velocities"]), array(sim, 3)),
        lambda: setattr(sim, rng.choice(["radii", "tags", "materials"]), array(sim, 1)),
        lambda: setattr(sim, "gravity", vec()),
        lambda: sim.set_params(**{rng.choice(grains.CHANGEABLE): value()}),
        lambda: sim.set_params(**{rng.choice(["E", "dt", "", "mu_s\0", "g", "mu_s_dyn"]): value()}),
        lambda: sim._param(rng.choice(["dt", "g", "t_end", "", "integrator", "x" * 300, "N_max", "seed"])),
        lambda: grains.Simulation(set={rng.choice(["mu_s", "threads", "N_frames", "no_key", "a=b", "", "g", "csv",
                                                   "output_dir", "dt"]): value(), "N_max": 10}).close(),
        lambda: sim.run(),
        lambda: sim.open_region(value(), rng.random() < 0.5),
        lambda: sim.add_particles(np.array([vec()], dtype=object).astype(float), value()),
        lambda: sim.add_particles([[0.0, 0.0, 0.3]], 0.003, tag=value(), material=value()),
        lambda: sim.remove([value()]),
        # (counts a run cannot hold, or that are no count; not 2^31 steps: the fuzzer's own time)
        lambda: sim.advance(rng.choice([0, 1, 5, 20, -1, 2 ** 63, 2 ** 70, 1.5, float("nan"), "x", None])),
        lambda: sim.run_until(lambda s: True, every=value(), max_steps=value()),
        lambda: walls().set_motion(rng.choice(["linear", "rotate", "vibrate", "servo", "fixed", "x"]),
                                   velocity=vec(), axis=vec(), omega=value(), amplitude=value(),
                                   frequency=value(), force=value(), max_speed=value(), gain=value()),
        lambda: setattr(walls(), rng.choice(["position", "velocity"]), vec()),
        lambda: setattr(walls(), "angle", value()),
        lambda: grains.Wall(sim, value()).position,
        lambda: sim.probe(value()),
        lambda: sim.removed(value(), value()),
        lambda: fields.add(sim),
        lambda: grains.Fields(vec(), vec(), [value(), value(), value()], value(),
                              average=rng.choice(["", "xy", "z", "q"]), kernel=rng.choice(["gaussian", "lucy", 3])),
        lambda: sim.save_checkpoint(os.path.join(OUT, rng.choice(["c.grains", "d\0.grains", ""]))),
        lambda: fields.write_csv(os.path.join(OUT, rng.choice(["f.csv", "g\0.csv", "nodir/f.csv"]))),
        lambda: setattr(sim, "record_contacts", value()),
        lambda: read_back(sim),
        lambda: grains.Fields((-0.2, -0.2, -0.1), (0.2, 0.2, 0.4), cells=(1, 1, 2), width=0.03, average="xy",
                              contacts=value()).add(sim),
        lambda: setattr(sim, "progress", value()),
        lambda: sim.uids[value()],
    ]


def bad(sim):
    """What is not finite, named."""
    t = sim.thermo()
    names = [k for k, v in t.items() if isinstance(v, float) and not math.isfinite(v)]
    names += [n for n in ("positions", "velocities", "angular_velocities", "radii")
              if not np.isfinite(getattr(sim, n)).all()]
    return ", ".join(names)


def finite_state(sim):
    t = sim.thermo()
    numbers = [v for v in t.values() if isinstance(v, float)]
    arrays = [sim.positions, sim.velocities, sim.angular_velocities, sim.radii]
    return all(math.isfinite(v) for v in numbers) and all(np.isfinite(a).all() for a in arrays)


calls = refused = 0
with grains.Simulation(os.path.join(SRC, "tests", "sinks.cfg"), set={"t_end": 0.01}, output=OUT) as sim:
    sim.record_contacts = True
    sim.advance(200)
    fields = grains.Fields((-0.2, -0.2, -0.1), (0.2, 0.2, 0.4), cells=(1, 1, 10), width=0.03, average="xy")
    menu = actions(sim, fields)
    end = time.monotonic() + SECONDS
    while calls < CALLS and time.monotonic() < end:
        calls += 1
        action, why = rng.choice(menu), "returned"
        if TRACE:
            print("call %d: line %d" % (calls, action.__code__.co_firstlineno), file=sys.stderr, flush=True)
        last = "line %d of %s" % (action.__code__.co_firstlineno, os.path.basename(__file__))
        try:
            action()
        except ALLOWED as e:
            refused += 1
            why = "%s: %s" % (type(e).__name__, e)
        except grains.UnstableError:
            refused += 1
        if not finite_state(sim):
            print("FAILED: after call %d (%s; %s) the state holds a value that is not finite: %s"
                  % (calls, last, why, bad(sim)))
            sys.exit(1)
print("fuzz_python: %d calls, %d refused, every state finite" % (calls, refused))
