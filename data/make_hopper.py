#!/usr/bin/env python3
"""Writes the small hopper of docs/tutorial.md (examples/hopper.cfg):

- data/hopper.stl: a square hopper, walls at 45 degrees from a square outlet
  2 W wide at z = H (W = 0.015 m, H = 0.1 m) up to a square 2 T wide
  (T = 0.06 m) at z = H + T - W, then straight up to z = 0.3 m; and a floor
  0.4 m square at z = 0 to catch what flows out;
- data/hopper_gate.off: the gate, a square 0.05 m wide under the outlet, at
  z = H - 0.001;
- data/hopper_gate.csv: the gate's motion: it rests until t = 0.4 s, then
  slides 0.06 m along x in 0.05 s and stays there.
Usage: python3 data/make_hopper.py [DIR]"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data"
W, T, H, TOP, FLOOR = 0.015, 0.06, 0.1, 0.3, 0.2
z_rim = H + T - W  # where the 45-degree walls meet the straight ones


def square(half, z):
    """The corners of a horizontal square, counter-clockwise seen from above."""
    return [(-half, -half, z), (half, -half, z), (half, half, z), (-half, half, z)]


quads = [square(FLOOR, 0.0)]
for lo, hi in ((square(W, H), square(T, z_rim)), (square(T, z_rim), square(T, TOP))):
    for k in range(4):  # the four sides of the funnel, then of the box above it
        quads.append([lo[k], lo[(k + 1) % 4], hi[(k + 1) % 4], hi[k]])
with open(os.path.join(out, "hopper.stl"), "w") as f:
    f.write("solid hopper\n")
    for a, b, c, d in quads:
        for t in ((a, b, c), (a, c, d)):
            f.write("  facet normal 0 0 0\n    outer loop\n")
            for v in t:
                f.write("      vertex %.6f %.6f %.6f\n" % v)
            f.write("    endloop\n  endfacet\n")
    f.write("endsolid hopper\n")
with open(os.path.join(out, "hopper_gate.off"), "w") as f:
    f.write("OFF\n# the gate under the hopper's outlet (data/make_hopper.py)\n4 1 0\n")
    for v in square(0.025, H - 0.001):
        f.write("%.6f %.6f %.6f\n" % v)
    f.write("4 0 1 2 3\n")
with open(os.path.join(out, "hopper_gate.csv"), "w") as f:
    f.write("# the gate's shift [m] and turn [rad] against time [s] (data/make_hopper.py)\n")
    f.write("t,x,y,z,angle\n0,0,0,0,0\n0.4,0,0,0,0\n0.45,0.06,0,0,0\n")
print("%s: hopper.stl (%d triangles), hopper_gate.off, hopper_gate.csv" % (out, 2 * len(quads)))
