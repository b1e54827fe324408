#!/usr/bin/env python3
"""The marble run's figures from grains' CSV frames (examples/marble_run.cfg).

For each marble: its release (the first frame it is in), its finish (the
first frame it is in the tray, below TRAY_Z), and its spin while on the
course: the rolling ratio |w| R / |v| (1 is rolling without slipping) and
its largest spin rate. Prints the per-marble table's summary: mean run time,
the time the last marble finished, the mean rolling ratio on the channels
and the largest spin.

Usage: python3 examples/marble_run.py DIR [--tray-z Z] [--plot PNG]
--plot draws every marble's height against time (needs matplotlib)."""
import csv
import glob
import math
import os
import re
import statistics
import sys


def frame_times(d, n):
    """The frames' times from particles.pvd, else 0.05 s apart."""
    try:
        text = open(os.path.join(d, "particles.pvd")).read()
        t = [float(v) for v in re.findall(r'timestep="([^"]+)"', text)]
        if len(t) >= n:
            return t
    except OSError:
        pass
    return [0.05 * k for k in range(n)]


def read_frames(d):
    files = sorted(glob.glob(os.path.join(d, "particles[0-9]*.csv")))
    if not files:
        sys.exit("no particlesNNNNNN.csv in %s (run with csv = true)" % d)
    frames = []
    for path in files:
        with open(path) as f:
            frames.append([{k: float(v) for k, v in r.items() if k in "x y z R vx vy vz wx wy wz".split()}
                           for r in csv.DictReader(f)])
    return frames, frame_times(d, len(frames))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    d, tray_z, plot = args[0], -0.69, None
    if "--tray-z" in args:
        tray_z = float(args[args.index("--tray-z") + 1])
    if "--plot" in args:
        plot = args[args.index("--plot") + 1]
    frames, times = read_frames(d)
    n = len(frames[-1])
    release, finish, ratios, spin = [None] * n, [None] * n, [], 0.0
    heights = [[] for _ in range(n)]
    for t, rows in zip(times, frames):
        for i, r in enumerate(rows):
            release[i] = t if release[i] is None else release[i]
            heights[i].append((t, r["z"]))
            if finish[i] is None and r["z"] < tray_z:
                finish[i] = t
            v = math.sqrt(r["vx"] ** 2 + r["vy"] ** 2 + r["vz"] ** 2)
            w = math.sqrt(r["wx"] ** 2 + r["wy"] ** 2 + r["wz"] ** 2)
            if finish[i] is None:
                spin = max(spin, w)
                if v > 0.2:  # rolling down a channel, not waiting at the top
                    ratios.append(w * r["R"] / v)
    done = [f - s for f, s in zip(finish, release) if f is not None]
    print("marbles: %d, finished: %d" % (n, len(done)))
    if done:
        print("run time from release to tray: mean %.3f s, min %.3f s, max %.3f s"
              % (statistics.mean(done), min(done), max(done)))
        print("last marble in the tray at t = %.3f s" % max(f for f in finish if f is not None))
    if ratios:
        print("rolling ratio |w| R / |v| on the channels: mean %.3f, sd %.3f over %d samples"
              % (statistics.mean(ratios), statistics.pstdev(ratios), len(ratios)))
    print("largest spin on the course: %.1f rad/s (%.1f rev/s)" % (spin, spin / (2 * math.pi)))
    if plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        for h in heights:
            ax.plot([p[0] for p in h], [p[1] for p in h], lw=0.8)
        ax.set_xlabel("time [s]")
        ax.set_ylabel("height z [m]")
        ax.set_title("marble run: %d marbles, each line one marble" % n)
        fig.tight_layout()
        fig.savefig(plot, dpi=100)


if __name__ == "__main__":
    main()
