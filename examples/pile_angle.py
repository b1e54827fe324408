#!/usr/bin/env python3
"""Angle of repose of a quasi-2D pile (examples/pile_quasi2d.cfg) from the
last CSV frame of a run: both slopes fitted on their own.

The pile's profile in the x-z plane: columns two diameters wide along x,
the top of each its highest grain (z + R). The crest is the highest column;
each flank is fitted by least squares over the columns from 15% to 85% of
the way from the crest to its toe (where the profile first falls below two
diameters), leaving out the rounded crest and the toe's runout. Prints each
flank's angle with its standard error (from the fit's residuals), their
mean and the effective friction tan(theta). Exits 1 when a flank has fewer
than 4 columns.

Usage: python3 examples/pile_angle.py DIR [FRAME]   (default: the last frame)"""
import csv
import glob
import math
import os
import sys


def profile(rows, w):
    cols = {}
    for x, z, r in rows:
        k = math.floor(x / w)
        cols[k] = max(cols.get(k, 0.0), z + r)
    return sorted(((k + 0.5) * w, h) for k, h in cols.items())


def fit(points):
    """(slope, its standard error) of a least-squares line through points."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    mz = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    b = sum((p[0] - mx) * (p[1] - mz) for p in points) / sxx
    res = sum((p[1] - mz - b * (p[0] - mx)) ** 2 for p in points)
    return b, math.sqrt(res / (n - 2) / sxx) if n > 2 else float("inf")


def flank(prof, crest, step, d):
    """The columns of one flank, from the crest outwards (step +1 or -1)."""
    out, k = [], crest
    while 0 <= k < len(prof) and prof[k][1] > 2 * d:
        out.append(prof[k])
        k += step
    n = len(out)
    return out[int(0.15 * n):int(0.85 * n) + 1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    files = sorted(glob.glob(os.path.join(sys.argv[1], "particles[0-9]*.csv")))
    if not files:
        sys.exit("no particlesNNNNNN.csv in %s (run with csv = true)" % sys.argv[1])
    path = files[int(sys.argv[2])] if len(sys.argv) > 2 else files[-1]
    with open(path) as f:
        rows = [(float(r["x"]), float(r["z"]), float(r["R"])) for r in csv.DictReader(f)]
    d = 2 * min(r for _, _, r in rows)
    prof = profile(rows, 2 * d)
    crest = max(range(len(prof)), key=lambda k: prof[k][1])
    result = []
    for name, step in (("left", -1), ("right", 1)):
        pts = flank(prof, crest, step, d)
        if len(pts) < 4:
            print("%s flank: %d columns, too few to fit" % (name, len(pts)))
            sys.exit(1)
        b, se = fit(pts)
        theta = math.degrees(math.atan(abs(b)))
        dtheta = math.degrees(se / (1 + b * b))
        result.append((theta, dtheta))
        print("%s flank: %.1f +- %.1f deg over %d columns (x from %.3f to %.3f m)"
              % (name, theta, dtheta, len(pts), min(p[0] for p in pts), max(p[0] for p in pts)))
    mean = (result[0][0] + result[1][0]) / 2
    err = math.hypot(result[0][1], result[1][1]) / 2
    print("%s: %d grains, crest %.4f m; angle of repose %.1f +- %.1f deg, tan = %.2f"
          % (os.path.basename(path), len(rows), prof[crest][1], mean, err, math.tan(math.radians(mean))))


if __name__ == "__main__":
    main()
