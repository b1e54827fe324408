#!/usr/bin/env python3
"""Writes data/marble_run.stl: the marble run of examples/marble_run.cfg
(TinyDEM Fig. 5C), a zig-zag of RAMPS U-channels down a tower, then a tray.

Each channel is 0.6 m long in x, 0.03 m wide (y from -0.015 to 0.015), falls
at SLOPE degrees, and has side rails 0.025 m high. Ramp k runs towards +x
for even k, -x for odd k. A marble leaving a ramp's low end drops 0.05 m
onto the next, whose floor reaches 0.06 m past that end to a back wall
0.12 m high that stops it and turns it round. Below the last ramp, a tray
(x from -0.7 to 0.7, y from -0.1 to 0.1, walls 0.15 m high) collects them.
Usage: python3 data/make_marble_run.py [OUT [RAMPS [SLOPE]]]"""
import math
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data/marble_run.stl"
ramps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
slope = math.radians(float(sys.argv[3]) if len(sys.argv) > 3 else 8.0)
L, W, RAIL, DROP, CATCH, BACK = 0.6, 0.03, 0.025, 0.05, 0.06, 0.12
tris = []


def quad(a, b, c, d):
    tris.extend([(a, b, c), (a, c, d)])


def ramp(k, z_top):
    """Ramp k from its high end at z_top; returns the z of its low end."""
    d = 1 if k % 2 == 0 else -1
    x0, x1 = -d * L / 2, d * L / 2            # high end, low end
    xb = x0 - d * CATCH                       # the back wall, past the high end
    z1 = z_top - L * math.tan(slope)
    zb = z_top + CATCH * math.tan(slope)      # the floor, continued to the back wall
    y0, y1 = -W / 2, W / 2
    quad((xb, y0, zb), (x1, y0, z1), (x1, y1, z1), (xb, y1, zb))                       # floor
    for y in (y0, y1):                                                                 # rails
        quad((xb, y, zb), (x1, y, z1), (x1, y, z1 + RAIL), (xb, y, zb + BACK))
    quad((xb, y0, zb), (xb, y1, zb), (xb, y1, zb + BACK), (xb, y0, zb + BACK))         # back wall
    return z1


def tray(z):
    x0, x1, y0, y1, h = -0.7, 0.7, -0.1, 0.1, 0.15
    quad((x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z))
    quad((x0, y0, z), (x1, y0, z), (x1, y0, z + h), (x0, y0, z + h))
    quad((x0, y1, z), (x1, y1, z), (x1, y1, z + h), (x0, y1, z + h))
    quad((x0, y0, z), (x0, y1, z), (x0, y1, z + h), (x0, y0, z + h))
    quad((x1, y0, z), (x1, y1, z), (x1, y1, z + h), (x1, y0, z + h))


z = 0.0
for k in range(ramps):
    z = ramp(k, z) - DROP
tray(z - 0.05)
with open(out, "w") as f:
    f.write("solid marble_run\n")
    for t in tris:
        f.write("  facet normal 0 0 0\n    outer loop\n")
        for v in t:
            f.write("      vertex %.6f %.6f %.6f\n" % v)
        f.write("    endloop\n  endfacet\n")
    f.write("endsolid marble_run\n")
print("%s: %d triangles, %d ramps at %.1f degrees, tray at z = %.4f m"
      % (out, len(tris), ramps, math.degrees(slope), z - 0.05))
