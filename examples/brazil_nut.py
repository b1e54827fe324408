#!/usr/bin/env python3
"""The Brazil nut effect's figure from grains' CSV frames
(examples/brazil_nut.cfg): the large beads' mean height against the number
of base cycles, beside the bed's surface.

Large beads are those of radius above 5 small radii. The bed's surface is
the 95th percentile of the small beads' tops (z + R): a few beads thrown
up by the base do not count. A large bead is at the top when its own top
reaches the surface less one small diameter. Prints one row per frame:
cycles, the large beads' mean centre height and its spread, the surface,
and how many large beads are at the top; then the first cycle at which all
are.

Usage: python3 examples/brazil_nut.py DIR [--frequency F] [--plot PNG]
(F: the base's frequency in Hz, default 27.2598)"""
import csv
import glob
import os
import re
import statistics
import sys


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    d, f = args[0], 27.2598
    if "--frequency" in args:
        f = float(args[args.index("--frequency") + 1])
    files = sorted(glob.glob(os.path.join(d, "particles[0-9]*.csv")))
    if not files:
        sys.exit("no particlesNNNNNN.csv in %s (run with csv = true)" % d)
    t = [float(v) for v in re.findall(r'timestep="([^"]+)"', open(os.path.join(d, "particles.pvd")).read())]
    rows_out, all_top = [], None
    print("cycles  large_mean_z[m]  sd[m]  surface[m]  large_at_top")
    for k, path in enumerate(files):
        with open(path) as fh:
            beads = [(float(r["z"]), float(r["R"])) for r in csv.DictReader(fh)]
        small = sorted(z + r for z, r in beads if r <= 0.0015)
        large = [(z, r) for z, r in beads if r > 0.005]
        rmin = min(r for _, r in beads)
        if not small or not large:
            continue
        surface = small[int(0.95 * (len(small) - 1))]
        top = sum(1 for z, r in large if z + r >= surface - 2 * rmin)
        zs = [z for z, _ in large]
        cycles = t[k] * f if k < len(t) else k
        rows_out.append((cycles, statistics.mean(zs), surface))
        print("%6.1f  %15.5f  %6.5f  %10.5f  %d/%d" % (cycles, statistics.mean(zs), statistics.pstdev(zs), surface,
                                                       top, len(large)))
        if top == len(large) and all_top is None:
            all_top = cycles
    print("all large beads at the top from cycle %s" % ("%.0f" % all_top if all_top is not None else "- (not yet)"))
    if "--plot" in args:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([r[0] for r in rows_out], [r[1] * 1000 for r in rows_out], "o-", label="large beads' mean centre")
        ax.plot([r[0] for r in rows_out], [r[2] * 1000 for r in rows_out], "--", label="bed surface")
        ax.set_xlabel("base cycles")
        ax.set_ylabel("height [mm]")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args[args.index("--plot") + 1], dpi=100)


if __name__ == "__main__":
    main()
