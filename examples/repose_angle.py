#!/usr/bin/env python3
"""Dynamic angle of repose of a rotating drum (axis y) from grains' CSV frames.

For each of the last FRAMES frames the free surface is traced in the x-z
plane: the bed's x range is cut into columns two diameters wide, the top of
each column is its highest grain (z + R), and a straight line is fitted by
least squares through the columns of the middle 60% of the bed (the ends
curl up or down at the wall). Prints each frame's angle and the mean with its
standard deviation.

Usage: python3 examples/repose_angle.py DIR [FRAMES] [--plot PNG]   (default 10 frames)
--plot draws the last frame in the x-z plane with its fitted surface (needs
matplotlib: Debian python3-matplotlib)."""
import csv
import glob
import math
import os
import statistics
import sys


def read_frame(path):
    with open(path) as f:
        return [(float(r["x"]), float(r["z"]), float(r["R"])) for r in csv.DictReader(f)]


def surface_fit(rows):
    """(angle in degrees, slope, intercept, the columns' x and z) of a bed, or None."""
    if len(rows) < 50:
        return None
    width = 4 * max(r[2] for r in rows)
    x_lo, x_hi = min(r[0] for r in rows), max(r[0] for r in rows)
    tops = {}
    for x, z, R in rows:
        k = int((x - x_lo) / width)
        tops[k] = max(tops.get(k, -math.inf), z + R)
    columns = sorted(tops)
    n = len(columns)
    keep = columns[int(0.2 * n): n - int(0.2 * n)]
    xs = [x_lo + (k + 0.5) * width for k in keep]
    zs = [tops[k] for k in keep]
    mx, mz = statistics.fmean(xs), statistics.fmean(zs)
    slope = sum((x - mx) * (z - mz) for x, z in zip(xs, zs)) / sum((x - mx) ** 2 for x in xs)
    return math.degrees(math.atan(abs(slope))), slope, mz - slope * mx, xs, zs


def surface_angle(path):
    fit = surface_fit(read_frame(path))
    return fit[0] if fit else None


def plot(path, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = read_frame(path)
    angle, slope, icept, xs, zs = surface_fit(rows)
    fig, ax = plt.subplots(figsize=(5, 5))
    for x, z, R in rows:
        ax.add_patch(plt.Circle((x, z), R, alpha=0.4))
    ax.plot(xs, zs, "k.", xs, [slope * x + icept for x in xs], "r-")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xlabel("x [m]")
    ax.set_ylabel("z [m]")
    ax.set_title(f"{os.path.basename(path)}: surface at {angle:.1f} deg")
    fig.savefig(out, dpi=80)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    args = sys.argv[1:]
    out = None
    if "--plot" in args:
        k = args.index("--plot")
        out = args[k + 1]
        del args[k:k + 2]
    frames = int(args[1]) if len(args) > 1 else 10
    files = sorted(glob.glob(os.path.join(args[0], "particles[0-9]*.csv")))[-frames:]
    angles = [a for a in (surface_angle(f) for f in files) if a is not None]
    if not angles:
        sys.exit("no frame with a bed in " + args[0])
    for f, a in zip(files, angles):
        print(f"{os.path.basename(f)}: {a:.1f} deg")
    sd = statistics.stdev(angles) if len(angles) > 1 else 0.0
    print(f"dynamic angle of repose: {statistics.fmean(angles):.1f} +- {sd:.1f} deg over {len(angles)} frames")
    if out:
        plot(files[-1], out)


if __name__ == "__main__":
    main()
