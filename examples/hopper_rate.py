#!/usr/bin/env python3
"""The hopper's discharge rate (examples/hopper.cfg) from its outlet probe,
against Beverloo's law.

The probe "outlet" (a disc under the gate) counts the grains and the mass
that cross it, net, by the step; probes.csv has its totals at every frame.
The rate is the slope of the mass through it against time over the steady
flow (from a fifth to four fifths of the mass out), by least squares, with
its standard error; Beverloo's law, W = C rho_b sqrt(g) (pi/4) (D - k d)^2
(D - k d)^(1/2) for a round outlet (C = 0.58, k = 1.5), taken for the square
one with its area (L - k d)^2 in place of the circle's: W = C (4/pi) rho_b
sqrt(g) (L - k d)^(5/2), with the settled bed's bulk density rho_b = 0.59 rho
(its solid fraction: grains fields over the bed's core, frames 15 to 19), is
a rough guide for an outlet of 7 beads.

Usage: python3 examples/hopper_rate.py DIR   (DIR: the run's output, e.g. output/hopper)"""
import csv
import math
import sys

RHO, L, R_MEAN = 2500.0, 0.03, 0.00225  # [kg/m^3], [m] outlet side, [m] mean radius (examples/hopper.cfg)
PHI_BED = 0.59  # the settled bed's solid fraction (measured: grains fields, docs/analysis.md)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-1])
    with open(sys.argv[1] + "/probes.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["probe"] == "outlet" and r["tag"] == "all"]
    t = [float(r["time"]) for r in rows]
    m = [float(r["mass"]) for r in rows]
    total = m[-1]
    steady = [k for k in range(len(t)) if 0.2 * total <= m[k] <= 0.8 * total]
    if len(steady) < 3:
        sys.exit("too few frames in the steady flow (%d): a longer run, or frames more often" % len(steady))
    ts, ms = [t[k] for k in steady], [m[k] for k in steady]
    mt, mm = sum(ts) / len(ts), sum(ms) / len(ms)
    sxx = sum((a - mt) ** 2 for a in ts)
    rate = sum((a - mt) * (b - mm) for a, b in zip(ts, ms)) / sxx
    residual = sum((b - mm - rate * (a - mt)) ** 2 for a, b in zip(ts, ms)) / (len(ts) - 2)
    beverloo = 0.58 * 4 / math.pi * PHI_BED * RHO * math.sqrt(9.81) * (L - 1.5 * 2 * R_MEAN) ** 2.5
    print("through the outlet: %d grains, %.4f kg; the first at t = %.3f s"
          % (int(rows[-1]["number"]), total, next(t[k] for k in range(len(t)) if m[k] > 0)))
    print("steady discharge rate %.4f +- %.4f kg/s over %d frames (t = %.2f to %.2f s)"
          % (rate, math.sqrt(residual / sxx), len(steady), ts[0], ts[-1]))
    print("Beverloo's law: %.4f kg/s (measured / Beverloo = %.2f)" % (beverloo, rate / beverloo))


if __name__ == "__main__":
    main()
