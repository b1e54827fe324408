#!/usr/bin/env python3
"""Which necks of examples/jamming_2d.cfg jam, and the shape of their arches,
from grains' CSV frames.

The necks (10, 8 and 6 diameters, top to bottom) are at the heights
data/make_jamming_2d.py prints. For each neck: the grains that have passed
it (below its height) frame by frame. A neck is jammed at the end when none
passed it in the last quarter of the run while grains still wait in its
funnel (within 20 D above it). For a jammed neck the arch that holds them
is traced as the lowest chain of touching grains from wall to wall; its
aspect ratio is its rise over its half-span: 1 for a semicircle.

Usage: python3 examples/jamming_2d.py DIR [--plot PNG]
--plot draws the grains passed through each neck against time."""
import csv
import math
import glob
import os
import re
import sys

D = 0.002
NECKS = [(10, 0.27360), (8, 0.15353), (6, 0.03000)]  # (width in D, height [m])


def read(path):
    with open(path) as f:
        return [(float(r["x"]), float(r["z"])) for r in csv.DictReader(f)]


def times(d, n):
    try:
        t = [float(v) for v in re.findall(r'timestep="([^"]+)"', open(os.path.join(d, "particles.pvd")).read())]
        return t[:n] if len(t) >= n else list(range(n))
    except OSError:
        return list(range(n))


def arch(rows, w, z0):
    """(aspect ratio, rise [m], half-span [m], grains) of the arch that holds
    the grains over a neck of width w at z0, or None.

    Grains touch when their centres are closer than 1.02 D, and touch a
    funnel wall (60 degrees, through the neck's edge) when their centre is
    within 0.52 D of it. The arch is the lowest chain of touching grains from
    the left wall to the right one: the path with the least summed height
    above the neck (Dijkstra). Its rise is the crown's centre above the mean
    of its two ends' centres; its half-span half the ends' distance in x."""
    import heapq
    s, c = math.sin(math.radians(60)), math.cos(math.radians(60))
    g = [(x, z) for x, z in rows if z0 - D < z < z0 + 40 * D and abs(x) < w / 2 + 40 * D]
    left = [(x + w / 2) * s + (z - z0) * c < 0.52 * D for x, z in g]
    right = [(w / 2 - x) * s + (z - z0) * c < 0.52 * D for x, z in g]
    cells = {}
    for i, (x, z) in enumerate(g):
        cells.setdefault((int(x // D), int(z // D)), []).append(i)

    def neighbours(i):
        x, z = g[i]
        for dx in (-1, 0, 1):
            for dz in (-1, 0, 1):
                for j in cells.get((int(x // D) + dx, int(z // D) + dz), []):
                    if j != i and (g[j][0] - x) ** 2 + (g[j][1] - z) ** 2 < (1.02 * D) ** 2:
                        yield j

    cost = {i: g[i][1] - z0 + D for i in range(len(g)) if left[i]}
    back, heap = {}, [(v, i) for i, v in cost.items()]
    heapq.heapify(heap)
    while heap:
        v, i = heapq.heappop(heap)
        if v > cost[i]:
            continue
        if right[i] and not left[i]:
            path = [i]
            while path[-1] in back:
                path.append(back[path[-1]])
            xs, zs = [g[k][0] for k in path], [g[k][1] for k in path]
            half = abs(xs[0] - xs[-1]) / 2
            rise = max(zs) - (zs[0] + zs[-1]) / 2
            return (rise / half if half > 0 else float("nan")), rise, half, len(path)
        for j in neighbours(i):
            u = v + g[j][1] - z0 + D
            if u < cost.get(j, float("inf")):
                cost[j], back[j] = u, i
                heapq.heappush(heap, (u, j))
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, "particles[0-9]*.csv")))
    if not files:
        sys.exit("no particlesNNNNNN.csv in %s (run with csv = true)" % d)
    t = times(d, len(files))
    passed = [[] for _ in NECKS]
    for path in files:
        rows = read(path)
        for k, (_, z0) in enumerate(NECKS):
            passed[k].append(sum(1 for _, z in rows if z < z0))
    last = read(files[-1])
    q = len(files) * 3 // 4
    print("grains: %d at t = %.3f s" % (len(last), t[-1]))
    for k, (n, z0) in enumerate(NECKS):
        w = n * D
        waiting = sum(1 for x, z in last if z0 < z < z0 + 20 * D)
        flow = passed[k][-1] - passed[k][q]
        jammed = flow == 0 and waiting > 0
        line = "neck %2d D: %4d grains passed, %3d in the last quarter, %4d waiting: %s" % (
            n, passed[k][-1], flow, waiting, "JAMMED" if jammed else ("flowing" if flow else "empty"))
        a = arch(last, w, z0) if jammed else None
        if a:
            line += "; arch of %d grains, rise %.2f D over a half-span of %.2f D: aspect ratio %.2f" % (
                a[3], a[1] / D, a[2] / D, a[0])
        print(line)
    if "--plot" in sys.argv:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        for k, (n, _) in enumerate(NECKS):
            ax.plot(t, passed[k], label="neck %d D" % n)
        ax.set_xlabel("time [s]")
        ax.set_ylabel("grains passed")
        ax.legend()
        fig.tight_layout()
        fig.savefig(sys.argv[sys.argv.index("--plot") + 1], dpi=100)


if __name__ == "__main__":
    main()
