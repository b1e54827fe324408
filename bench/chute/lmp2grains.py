#!/usr/bin/env python3
"""A LAMMPS data file of the chute (atom_style sphere, as chute.in's write_data leaves it) as
grains reads it: OUT.csv, the flowing grains (type 1) with their velocities and spins (TinyDEM's
columns and the material, 0; positions wrapped into the periodic box), then with --base grains
the frozen base (type 2) as grains of material 1 (chute.cfg makes it fixed: they stay put), else
OUT.off, the base as mesh points of radius index 0; and OUT.box, the box's x and y extent (one
line "L").
Usage: lmp2grains.py IN.data OUT [--base grains|mesh]"""
import sys


def sections(path):
    """The header's box and the Atoms and Velocities rows by id."""
    atoms, vel, box, part = {}, {}, {}, None
    for line in open(path):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] in ("Atoms", "Velocities"):
            part = words[0]
        elif len(words) == 4 and words[2].endswith("lo") and words[3].endswith("hi"):
            box[words[2][0]] = (float(words[0]), float(words[1]))
        elif part == "Atoms" and len(words) >= 7:
            atoms[int(words[0])] = words[1:7]
        elif part == "Velocities" and len(words) == 7:
            vel[int(words[0])] = [float(w) for w in words[1:]]
        elif part and not words[0].lstrip("-").isdigit():
            part = None
    return box, atoms, vel


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and (sys.argv[3] != "--base" or
                                                               sys.argv[4] not in ("grains", "mesh"))):
        sys.exit(__doc__)
    base_grains = len(sys.argv) == 5 and sys.argv[4] == "grains"
    box, atoms, vel = sections(sys.argv[1])
    (x0, x1), (y0, y1) = box["x"], box["y"]
    flow, base = [], []
    for n in sorted(atoms):
        t, d, _, x, y, z = atoms[n]
        x = x0 + (float(x) - x0) % (x1 - x0)
        y = y0 + (float(y) - y0) % (y1 - y0)
        row = (x - x0, y - y0, float(z), float(d) / 2)
        (flow if t == "1" else base).append((row, vel.get(n, [0.0] * 6)))
    out = sys.argv[2]
    with open(out + ".csv", "w") as f:
        f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material\n")
        for (x, y, z, r), v in flow:
            f.write("%r,%r,%r,%r,%r,%r,%r,1,0,0,0,%r,%r,%r,0\n" % (x, y, z, r, v[0], v[1], v[2], v[3], v[4], v[5]))
        for (x, y, z, r), _v in base if base_grains else []:
            f.write("%r,%r,%r,%r,0,0,0,1,0,0,0,0,0,0,1\n" % (x, y, z, r))
    with open(out + ".box", "w") as f:
        f.write("%r\n" % (x1 - x0))
    if base_grains:
        print("wrote %s.csv (%d grains, %d of the base), %s.box" % (out, len(flow) + len(base), len(base), out))
    else:
        write_mesh(out, base)
        print("wrote %s.csv (%d grains), %s.off (%d base points), %s.box" % (out, len(flow), out, len(base), out))


def write_mesh(out, base):
    """The base as an OFF file of points."""
    with open(out + ".off", "w") as f:
        f.write("OFF\n# the chute's frozen base, points of radius R_mesh[0]\n%d %d 0\n" % (len(base), len(base)))
        for (x, y, z, _), _v in base:
            f.write("%r %r %r\n" % (x, y, z))
        for k in range(len(base)):
            f.write("1 %d 0\n" % k)


main()
