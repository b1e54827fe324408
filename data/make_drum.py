#!/usr/bin/env python3
"""Writes data/drum.stl: a closed drum (axis y, radius 0.1 m, width 0.06 m,
centred on the origin) as a binary STL of 4 n triangles (n = 72 sides).
Usage: python3 data/make_drum.py [OUT [RADIUS [WIDTH [SIDES]]]]"""
import math
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data/drum.stl"
R = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
W = float(sys.argv[3]) if len(sys.argv) > 3 else 0.06
n = int(sys.argv[4]) if len(sys.argv) > 4 else 72

ring = [(R * math.cos(2 * math.pi * k / n), R * math.sin(2 * math.pi * k / n)) for k in range(n)]
tris = []
for k in range(n):
    (x0, z0), (x1, z1) = ring[k], ring[(k + 1) % n]
    a, b = (x0, -W / 2, z0), (x1, -W / 2, z1)
    c, d = (x1, W / 2, z1), (x0, W / 2, z0)
    tris += [(a, b, c), (a, c, d)]                   # the mantle
    tris += [((0, -W / 2, 0), b, a), ((0, W / 2, 0), d, c)]  # the two end caps
with open(out, "wb") as f:
    f.write(b"grains rotating drum".ljust(80, b" "))
    f.write(struct.pack("<I", len(tris)))
    for t in tris:
        f.write(struct.pack("<3f", 0, 0, 0))
        for v in t:
            f.write(struct.pack("<3f", *v))
        f.write(struct.pack("<H", 0))
