#!/usr/bin/env python3
"""The flowing layer of the rotating drum (examples/rotating_drum.cfg) from
the engine's coarse-grained fields (grains fields, docs/analysis.md).

1. A map in x-z, averaged along the drum's axis y over the frames from
   FIRST on: the free surface is where the solid fraction falls to half the
   bed's; a line through it over the middle 60% of the bed gives the dynamic
   angle of repose.
2. A profile along the surface's normal through the drum's axis, in the
   axes of the surface (downhill, the drum's axis, the normal: grains
   fields --axes), averaged along the axis and over a band 4 diameters wide
   along the slope: velocity_x is the velocity down the slope.
3. The surface velocity (at the free surface) and the flowing layer's
   thickness (from the free surface down to where the velocity down the
   slope changes sign), with their standard errors from the frames' spread.

Usage: python3 examples/drum_flow.py DIR [--first K] [--grains BINARY]
(DIR: the run's output, e.g. output/drum; FIRST: the first frame averaged,
default the second half of the run). Writes DIR/fields/ (the profile's
fields.csv and .vti; grains plot DIR --profile draws it)."""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def grains_binary(given):
    """The grains command: given, on the PATH (make install), or the source tree's build/grains."""
    built = os.path.join(HERE, "..", "build", "grains")
    found = given or shutil.which("grains") or (built if os.access(built, os.X_OK) else None)
    if not found or not os.access(found, os.X_OK) and not shutil.which(found):
        sys.exit("the grains command is not found%s: make install puts it on the PATH, or give --grains "
                 "PATH/TO/build/grains" % (" at %s" % given if given else " on the PATH nor at " + built))
    return found


def fields(binary, run, out, *options):
    cmd = [binary, "fields", run, "-o", out] + [str(o) for o in options]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("grains fields failed: %s" % done.stderr.strip())
    with open(os.path.join(out, "fields.csv")) as f:
        return list(csv.DictReader(f))


def surface_line(rows):
    """(slope, intercept) of the free surface in x-z: per column of x, the
    highest z where the solid fraction is half the bed's, fitted over the
    middle 60% of the bed."""
    bed = max(float(r["solid_fraction"]) for r in rows)
    top = {}
    for r in rows:
        x, z, phi = float(r["x"]), float(r["z"]), float(r["solid_fraction"])
        if phi >= bed / 2:
            top[x] = max(top.get(x, -math.inf), z)
    xs = sorted(top)
    keep = xs[int(0.2 * len(xs)): len(xs) - int(0.2 * len(xs))]
    mx = sum(keep) / len(keep)
    mz = sum(top[x] for x in keep) / len(keep)
    slope = sum((x - mx) * (top[x] - mz) for x in keep) / sum((x - mx) ** 2 for x in keep)
    return slope, mz - slope * mx


def crossing(zs, vs, level, below=None):
    """The z where vs passes level (linear between the cells), scanning down
    from the top, or from the last cell below `below`."""
    top = len(zs) - 1 if below is None else max(k for k in range(len(zs)) if zs[k] <= below)
    for k in range(top, 0, -1):
        a, b = vs[k - 1] - level, vs[k] - level
        if (a <= 0 < b) or (b <= 0 < a) or (a < 0 <= b) or (b < 0 <= a):
            return zs[k - 1] + (zs[k] - zs[k - 1]) * a / (a - b)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--first", type=int, default=None, help="the first frame averaged")
    ap.add_argument("--grains", default=None, help="the grains command (default: on the PATH, or build/grains)")
    args = ap.parse_args()
    binary = grains_binary(args.grains)
    frames = len([f for f in os.listdir(args.run) if f.startswith("particles") and f.endswith(".vtp")])
    first = args.first if args.first is not None else frames // 2
    R = 0.004  # [m] the beads' radius (examples/rotating_drum.cfg): the kernel's width

    # 1. the map and the surface's slope
    flow = os.path.join(args.run, "fields")  # (the profile last: grains plot DIR --profile draws it)
    rows = fields(binary, args.run, flow, "--frames", "%d:" % first, "--average", "y", "--width", R, "--cell", R)
    slope, icept = surface_line(rows)
    angle = math.degrees(math.atan(abs(slope)))
    # 2. the axes: downhill, the drum's axis (its sign making the third the upward normal), the normal
    down = (1, 0, slope) if slope < 0 else (-1, 0, -slope)
    norm = math.hypot(down[0], down[2])
    down = (down[0] / norm, 0, down[2] / norm)
    axis = (0, 1, 0) if down[0] > 0 else (0, -1, 0)  # down x axis = (-down_z, 0, down_x) up when down_x > 0
    options = ["--frames", "%d:" % first, "--axes", ",".join("%.12g" % v for v in down + axis),
               "--average", "xy", "--box", "%g,%g,%g,%g,%g,%g" % (-4 * R, -0.03, -0.1, 4 * R, 0.03, 0.1),
               "--width", R, "--cell", R / 2]
    prof = fields(binary, args.run, flow, *options)
    zs = [float(r["z"]) for r in prof]
    phi = [float(r["solid_fraction"]) for r in prof]
    u = [float(r["velocity_x"]) for r in prof]
    u_err = [float(r["velocity_x_sem"]) for r in prof]
    bed = max(phi)
    z_surface = crossing(zs, phi, bed / 2)
    z_zero = crossing(zs, u, 0.0, below=z_surface)
    k = min(range(len(zs)), key=lambda j: abs(zs[j] - z_surface))
    print("frames %d to %d: dynamic angle of repose %.1f degrees" % (first, frames - 1, angle))
    print("free surface %.4f m above the drum's axis (solid fraction %.3f in the bed, half of it there)"
          % (z_surface, bed))
    print("surface velocity down the slope %.3f +- %.3f m/s" % (u[k], u_err[k]))
    if z_zero is not None:
        print("flowing layer %.4f m thick (%.1f diameters): from the surface down to where the flow turns"
              % (z_surface - z_zero, (z_surface - z_zero) / (2 * R)))
    print("the profile: %s/fields.csv (grains plot %s --profile)" % (flow, args.run))


if __name__ == "__main__":
    main()
