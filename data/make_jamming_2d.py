#!/usr/bin/env python3
"""Writes data/jamming_2d.stl: the three funnel layers of
examples/jamming_2d.cfg (TinyDEM Fig. 5E) for grains of diameter D.

A channel 60 D wide (side walls at x = +-30 D, z from 0 to 280 D) holds three
funnels one above the other; each is two walls at 60 degrees from the
horizontal from the side walls down to a neck of 10 D (top), 8 D and 6 D
(bottom), with 15 D of free fall below each neck; a floor at z = 0. The run
is 2D in the x-z plane (plane_normal y): each wall is a rectangle across
y from -2 D to 2 D. Prints each neck's height (examples/jamming_2d.py
needs them).
Usage: python3 data/make_jamming_2d.py [OUT [D]]"""
import math
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data/jamming_2d.stl"
D = float(sys.argv[2]) if len(sys.argv) > 2 else 0.002
half, top, gap, y = 30 * D, 280 * D, 15 * D, 2 * D
necks = [10, 8, 6]  # in D, top to bottom
tris = []


def wall(x0, z0, x1, z1):
    a, b, c, d = (x0, -y, z0), (x1, -y, z1), (x1, y, z1), (x0, y, z0)
    tris.extend([(a, b, c), (a, c, d)])


wall(-half, 0, half, 0)               # floor
wall(-half, 0, -half, top)            # side walls
wall(half, 0, half, top)
z = gap
heights = []
for n in reversed(necks):             # from the bottom funnel up
    h = (half - n * D / 2) * math.tan(math.radians(60))
    wall(-half, z + h, -n * D / 2, z)
    wall(half, z + h, n * D / 2, z)
    heights.append((n, z, z + h))
    z += h + gap
with open(out, "w") as f:
    f.write("solid jamming_2d\n")
    for t in tris:
        f.write("  facet normal 0 0 0\n    outer loop\n")
        for v in t:
            f.write("      vertex %.7f %.7f %.7f\n" % v)
        f.write("    endloop\n  endfacet\n")
    f.write("endsolid jamming_2d\n")
for n, z0, z1 in reversed(heights):
    print("neck %2d D at z = %.5f m, funnel top at z = %.5f m" % (n, z0, z1))
