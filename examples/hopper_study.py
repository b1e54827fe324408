"""The hopper of examples/hopper.cfg, studied from Python (docs/python.md):
fill it, let it settle, open the gate, and measure the discharge rate.

    PYTHONPATH=build/python /usr/bin/python3 examples/hopper_study.py [--grains N] [-o DIR] [--scenario CFG]

The run is the scenario's, with its gate's timed opening replaced by steps
that wait on the grains: the gate stays shut until the filling is done and
the grains are at rest, then slides away at 0.5 m/s. Frames go to DIR every
0.02 s (ParaView: DIR/particles.pvd and mesh.pvd); the discharge (the grains
and their mass through the scenario's probe "outlet", a disc under the gate,
against time) to DIR/discharge.csv.
"""
import argparse
import os

import sys

import numpy as np

try:
    import grains
except ModuleNotFoundError as e:
    sys.exit("%s: the Python module grains is not found: from the source folder run PYTHONPATH=build/python "
             "/usr/bin/python3 %s, or make install it (docs/python.md)" % (e, sys.argv[0]))

HERE = os.path.dirname(os.path.abspath(__file__))
OUTLET_SIDE = 0.03  # [m] the square outlet's side (data/make_hopper.py)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grains", type=int, default=1000, help="grains poured in (default 1000)")
    ap.add_argument("-o", "--output", default="output/hopper_study", help="output folder")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--scenario", default=os.path.join(HERE, "hopper.cfg"),
                    help="the hopper's scenario (default: hopper.cfg beside this script, examples/ of the source)")
    args = ap.parse_args()
    if not os.path.isfile(args.scenario):
        sys.exit("no scenario at %s: give --scenario PATH/TO/examples/hopper.cfg (its meshes are found from its "
                 "folder)" % args.scenario)

    sim = grains.Simulation(args.scenario, set={"N_max": args.grains},
                            threads=args.threads, output=args.output)
    gate = sim.walls[1]
    gate.stop()  # shut until the grains say otherwise (the scenario's table would open it at 0.4 s)
    frame_every = int(round(0.02 / sim.dt))

    def frames_while(condition):
        """Steps, a frame every 0.02 s, while condition() holds."""
        while condition():
            sim.advance(frame_every)
            sim.write_frame()

    sim.write_frame()
    # 1. fill: the insertion region adds grains at its rate until N_max
    frames_while(lambda: len(sim) < args.grains)
    print("filled: %d grains at t = %.3f s" % (len(sim), sim.time))
    # 2. settle: at rest when the kinetic energy is below 1e-7 J a grain
    frames_while(lambda: sim.kinetic_energy > 1e-7 * len(sim))
    print("settled at t = %.3f s: E_kin = %.3g J" % (sim.time, sim.kinetic_energy))
    # 3. open: the gate slides 60 mm along x at 0.5 m/s, then stays
    t_open = sim.time
    gate.set_motion("linear", velocity=[0.5, 0, 0])
    sim.run_until(lambda s: gate.position[0] >= 0.06, every=10)
    gate.stop()
    # 4. discharge: the grains through the outlet's probe against time, until all are through
    times, counts, through_mass = [], [], []
    while True:
        through = sim.probe("outlet")  # a row per tag and size class: net crossings since the start
        times.append(sim.time - t_open)
        counts.append(int(through["number"].sum()))
        through_mass.append(through["mass"].sum())
        if counts[-1] == len(sim) or sim.time - t_open > 5:
            break
        sim.advance(frame_every // 4)
        if len(times) % 4 == 0:
            sim.write_frame()
    sim.write_frame()
    t, n, m = np.array(times), np.array(counts), np.array(through_mass)
    np.savetxt(os.path.join(sim.output_dir, "discharge.csv"), np.column_stack([t, n, m]), delimiter=",",
               header="t_since_opening,grains_through,mass_through", comments="")
    # the steady flow: from a fifth to four fifths of the grains out, a least-squares line
    steady = (n >= 0.2 * len(sim)) & (n <= 0.8 * len(sim))
    if steady.sum() < 3:
        print("too few samples in the steady flow to fit a rate (%d)" % steady.sum())
        return
    rate, _ = np.polyfit(t[steady], n[steady], 1)
    mass_rate, _ = np.polyfit(t[steady], m[steady], 1)
    print("discharge: %d grains out in %.3f s; steady rate %.0f grains/s, %.4f kg/s (%d samples)"
          % (n[-1], t[-1], rate, mass_rate, steady.sum()))
    # Beverloo's law for comparison (C = 0.58, k = 1.5), the square outlet's area (L - k d)^2 in
    # place of the round one's (pi/4) (D - k d)^2, the bed's bulk density 0.59 rho (measured:
    # examples/hopper_rate.py): a rough guide for a 7-bead outlet
    d = 2 * sim.radii.mean()
    beverloo = 0.58 * 4 / np.pi * 0.59 * 2500.0 * np.sqrt(9.81) * (OUTLET_SIDE - 1.5 * d) ** 2.5
    print("Beverloo's estimate: %.4f kg/s (measured / Beverloo = %.2f)" % (beverloo, mass_rate / beverloo))


if __name__ == "__main__":
    main()
