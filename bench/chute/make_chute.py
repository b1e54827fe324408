#!/usr/bin/env python3
"""The starting state of the chute benchmark as a LAMMPS data file (atom_style sphere): a rough
base of frozen grains (type 2: a square lattice of spacing d, each jittered by up to d/4 along
x and y and raised by up to d/2) and, above it, flowing grains (type 1) on a loose cubic lattice
of spacing 1.05 d with small random velocities, in a box periodic along x and y, L diameters
each way. Monodisperse, d = 2 mm, rho = 2500 kg/m^3 (LAMMPS's bench/in.chute is the same in
Lennard-Jones units: d = 1, g = 1; chute.in has the conversion).
Usage: make_chute.py L LAYERS OUT.data [SEED]"""
import random
import sys

D, RHO = 0.002, 2500.0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    L, layers, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    side = L * D
    base = [(2, (i + 0.5 + rng.uniform(-0.25, 0.25)) * D, (j + 0.5 + rng.uniform(-0.25, 0.25)) * D,
             rng.uniform(0, 0.5) * D) for i in range(L) for j in range(L)]
    per_row = int(L / 1.05)
    a = side / per_row
    flow = [(1, (i + 0.5) * a, (j + 0.5) * a, (1.6 + 1.05 * k) * D)
            for k in range(layers) for i in range(per_row) for j in range(per_row)]
    grains = base + flow
    top = max(z for _, _, _, z in grains) + 10 * D
    with open(out, "w") as f:
        f.write("chute: %d base grains, %d flowing\n\n%d atoms\n2 atom types\n\n" % (len(base), len(flow), len(grains)))
        f.write("0.0 %r xlo xhi\n0.0 %r ylo yhi\n%r %r zlo zhi\n\nAtoms # sphere\n\n" % (side, side, -D, top))
        for n, (t, x, y, z) in enumerate(grains, 1):
            f.write("%d %d %r %r %r %r %r\n" % (n, t, D, RHO, x, y, z))
        f.write("\nVelocities\n\n")
        for n, (t, _, _, _) in enumerate(grains, 1):
            v = [rng.uniform(-0.01, 0.01) for _ in range(3)] if t == 1 else [0.0, 0.0, 0.0]
            f.write("%d %r %r %r 0 0 0\n" % (n, v[0], v[1], v[2]))
    print("wrote %s: %d base grains, %d flowing, box %.4g m wide" % (out, len(base), len(flow), side))


main()
