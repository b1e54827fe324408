"""What the Python module costs over the library: the time of one advance
call beyond its steps, and of one bulk field read, at N particles (default
10^5). Usage: PYTHONPATH=build/python python3 bench/python_overhead.py [N]

The grains sit on a cubic lattice with gaps (no mesh, no gravity, small random
velocities: a step costs what a dilute gas of N grains costs). Each figure is
the fastest of 5 rounds of R calls.
"""
import sys
import time

import numpy as np

import grains
from grains import _lib

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
R = 0.001


def fastest(fn, calls, rounds=5):
    """[s] per call, the fastest round's."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


side = int(np.ceil(N ** (1 / 3)))
i = np.arange(N)
x = 2.5 * R * np.stack([i % side, (i // side) % side, i // side ** 2], axis=1).astype(float)
rng = np.random.default_rng(1)
sim = grains.Simulation(set={"mesh": "", "N_max": 0, "g": [0, 0, 0], "R_min": R, "R_max": R,
                             "s_min": [0, 0, 0], "s_max": [1, 1, 1]})
sim.add_particles(x, R, velocities=rng.normal(0, 0.01, (N, 3)))
sim.advance(5)  # (lists built, memory touched)

step_c = fastest(lambda: _lib.grains_run_advance(sim._run, 1, grains._ffi.NULL), 20)
step_py = fastest(lambda: sim.advance(1), 20)
empty = fastest(lambda: sim.advance(0), 10000)
read = fastest(lambda: sim.positions, 50)
read_r = fastest(lambda: sim.radii, 50)
thermo = fastest(lambda: sim.kinetic_energy, 200)
copy = fastest(lambda: x.copy(), 50)
print("N = %d particles, %d threads, dt = %.3g s" % (len(sim), sim.threads, sim.dt))
print("one step in C (grains_run_advance):       %9.3f ms" % (1e3 * step_c))
print("one step through sim.advance(1):          %9.3f ms (%+.1f us beyond C's)"
      % (1e3 * step_py, 1e6 * (step_py - step_c)))
print("sim.advance(0), the call alone:           %9.2f us" % (1e6 * empty))
print("sim.positions (N, 3) float64, %5.1f MB:    %9.3f ms (a numpy copy of as many bytes: %.3f ms)"
      % (N * 24 / 1e6, 1e3 * read, 1e3 * copy))
print("sim.radii (N,) float64:                   %9.3f ms" % (1e3 * read_r))
print("sim.kinetic_energy (a thermo sum over N): %9.3f ms" % (1e3 * thermo))
