#!/usr/bin/env python3
"""Writes data/pile_quasi2d.stl: the quasi-2D pile of
examples/pile_quasi2d.cfg (TinyDEM Fig. 5D) for grains of diameter D.

Two vertical plates 11 D apart (their faces at y = +-5.5 D), 300 D long in x
(from -150 D to 150 D) and 200 D high, and a floor between them. The ends are
open: grains that run off the floor fall away from the pile (thermo.csv's
lost; remove_lost = true takes them out of the run).
Usage: python3 data/make_pile_quasi2d.py [OUT [D]]"""
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "data/pile_quasi2d.stl"
D = float(sys.argv[2]) if len(sys.argv) > 2 else 0.002
X, Y, Z = 150 * D, 5.5 * D, 200 * D
quads = [
    [(-X, -Y, 0), (X, -Y, 0), (X, Y, 0), (-X, Y, 0)],   # floor
    [(-X, -Y, 0), (X, -Y, 0), (X, -Y, Z), (-X, -Y, Z)],  # plates
    [(-X, Y, 0), (X, Y, 0), (X, Y, Z), (-X, Y, Z)],
]
with open(out, "w") as f:
    f.write("solid pile_quasi2d\n")
    for a, b, c, d in quads:
        for t in ((a, b, c), (a, c, d)):
            f.write("  facet normal 0 0 0\n    outer loop\n")
            for v in t:
                f.write("      vertex %.7f %.7f %.7f\n" % v)
            f.write("    endloop\n  endfacet\n")
    f.write("endsolid pile_quasi2d\n")
print("%s: plates %g m apart, %g m long, %g m high" % (out, 2 * Y, 2 * X, Z))
