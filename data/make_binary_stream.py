#!/usr/bin/env python3
"""Writes data/binary_stream.stl: the binary stream of
examples/binary_stream.cfg (TinyDEM Fig. 5B) for grains of diameter D, as a
slab between two plates THICK diameters apart (y from -THICK/2 D to
+THICK/2 D). From the top (heights in D, x across):

- a hopper from 110 D wide at z = 250 D down to an outlet 8 D wide at 220 D;
- the splitter: a ridge with its apex 10 D under the outlet, its sides
  falling at 45 degrees to x = +-20 D: a grain goes left or right of it;
- the chutes: a V from the side walls (x = +-50 D) at z = 180 D down to a
  second outlet, 8 D wide, at z = 140 D, that merges the two streams;
- the bed: a box 100 D wide from the floor (z = 0) up to the chutes.
Side walls at x = +-50 D from the floor to z = 290 D close the slab.
Usage: python3 data/make_binary_stream.py [OUT [D [THICK]]]"""
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data/binary_stream.stl"
D = float(sys.argv[2]) if len(sys.argv) > 2 else 0.002
thick = float(sys.argv[3]) if len(sys.argv) > 3 else 10
Y, W, TOP = thick / 2 * D, 50 * D, 290 * D
tris = []


def wall(x0, z0, x1, z1):
    """A rectangle across the slab over the x-z segment (x0, z0)-(x1, z1)."""
    a, b, c, d = (x0, -Y, z0), (x1, -Y, z1), (x1, Y, z1), (x0, Y, z0)
    tris.extend([(a, b, c), (a, c, d)])


def plate(y):
    a, b, c, d = (-W, y, 0), (W, y, 0), (W, y, TOP), (-W, y, TOP)
    tris.extend([(a, b, c), (a, c, d)])


plate(-Y)
plate(Y)
wall(-W, 0, W, 0)                                  # the bed's floor
wall(-W, 0, -W, TOP)                               # side walls
wall(W, 0, W, TOP)
for s in (-1, 1):
    wall(s * 55 * D, 250 * D, s * 4 * D, 220 * D)  # hopper
    wall(0, 210 * D, s * 20 * D, 190 * D)          # splitter ridge
    wall(s * W, 180 * D, s * 4 * D, 140 * D)       # merging chutes
with open(out, "w") as f:
    f.write("solid binary_stream\n")
    for t in tris:
        f.write("  facet normal 0 0 0\n    outer loop\n")
        for v in t:
            f.write("      vertex %.7f %.7f %.7f\n" % v)
        f.write("    endloop\n  endfacet\n")
    f.write("endsolid binary_stream\n")
print("%s: %d triangles, slab %g m thick, %g m wide, %g m high" % (out, len(tris), 2 * Y, 2 * W, TOP))
