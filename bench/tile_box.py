#!/usr/bin/env python3
"""Tiles a settled dense box (grains bench --save: settledN.csv, the cube
[0, L]^3) NX x NY x NZ times side by side into one cuboid: a settled pack of
NX*NY*NZ*N grains without settling it again (a tile's faces lie flat against
the walls it had, so copies meet plane to plane; the contacts across the
seams form in the first steps). Writes OUT.csv (the particles, ids and every
column as in the input) and OUT.off (the closed cuboid [0, NX L] x [0, NY L]
x [0, NZ L] as six rectangles of mesh radius index 0, as
../shared/bench/gen_box_off.py writes the cube).

Usage: bench/tile_box.py SETTLED.csv L NX NY NZ OUT"""
import sys


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    src, L = sys.argv[1], float(sys.argv[2])
    nx, ny, nz = (int(a) for a in sys.argv[3:6])
    out = sys.argv[6]
    if not (L > 0 and nx > 0 and ny > 0 and nz > 0):
        sys.exit("tile_box.py: L and the tile counts must be positive")
    with open(src) as f:
        header = f.readline()
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    if not header.startswith("x,y,z,") or not rows or any(len(r) != len(rows[0]) for r in rows):
        sys.exit("tile_box.py: %s is not a particle CSV (x,y,z,... with rows of one width)" % src)
    with open(out + ".csv", "w") as f:
        f.write(header)
        for k in range(nz):
            for j in range(ny):
                for i in range(nx):
                    for r in rows:
                        x, y, z = float(r[0]) + i * L, float(r[1]) + j * L, float(r[2]) + k * L
                        f.write("%r,%r,%r,%s\n" % (x, y, z, ",".join(r[3:])))
    X, Y, Z = nx * L, ny * L, nz * L
    v = [(x, y, z) for z in (0, Z) for y in (0, Y) for x in (0, X)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    with open(out + ".off", "w") as f:
        f.write("OFF\n8 6 0\n")
        for p in v:
            f.write("%r %r %r\n" % p)
        for q in quads:
            f.write("4 %d %d %d %d 0\n" % q)
    print("%s.csv: %d grains in [0, %g] x [0, %g] x [0, %g]; %s.off" % (out, len(rows) * nx * ny * nz, X, Y, Z, out))


main()
