#!/usr/bin/env python3
"""Writes the container and the large beads of examples/brazil_nut.cfg
(TinyDEM Fig. 5F), for small beads of radius R (default 1 mm):

- data/brazil_nut_tube.stl: the cylinder wall, radius 39 R, axis z, from
  z = -5 R to z = 200 R, as SIDES flat faces (binary STL);
- data/brazil_nut_base.stl: the base, a disc of radius 39 R at z = 0 (a fan
  of SIDES triangles) that vibrates; its rim slides along the wall, and the
  wall reaches below it, so no gap opens as it moves down;
- data/brazil_nut_large.csv: the 7 large beads (radius 10 R) resting on the
  base, one on the axis and six around it at 20.5 R, in TinyDEM's CSV format.
Usage: python3 data/make_brazil_nut.py [R [SIDES]]"""
import math
import struct
import sys

R = float(sys.argv[1]) if len(sys.argv) > 1 else 0.001
n = int(sys.argv[2]) if len(sys.argv) > 2 else 72
# the faces' centres lie at the wall's radius; the corners just outside it
Rc = 39 * R / math.cos(math.pi / n)
ring = [(Rc * math.cos(2 * math.pi * k / n), Rc * math.sin(2 * math.pi * k / n)) for k in range(n)]


def stl(path, tris):
    with open(path, "wb") as f:
        f.write(b"grains brazil nut".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", 0, 0, 0))
            for v in t:
                f.write(struct.pack("<3f", *v))
            f.write(struct.pack("<H", 0))


tube, base = [], []
z0, z1 = -5 * R, 200 * R
for k in range(n):
    (x0, y0), (x1, y1) = ring[k], ring[(k + 1) % n]
    tube += [((x0, y0, z0), (x1, y1, z0), (x1, y1, z1)), ((x0, y0, z0), (x1, y1, z1), (x0, y0, z1))]
    base.append(((0, 0, 0), (x0, y0, 0), (x1, y1, 0)))
stl("data/brazil_nut_tube.stl", tube)
stl("data/brazil_nut_base.stl", base)
with open("data/brazil_nut_large.csv", "w") as f:
    f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material,tag\n")
    for k in range(7):
        r = 0 if k == 0 else 20.5 * R
        a = 2 * math.pi * (k - 1) / 6
        f.write("%.9g,%.9g,%.9g,%.9g,0,0,0,1,0,0,0,0,0,0,0,1\n" % (r * math.cos(a), r * math.sin(a), 10.05 * R, 10 * R))
print("tube %d and base %d triangles, wall radius %g m; 7 large beads of radius %g m" % (len(tube), len(base), 39 * R, 10 * R))
