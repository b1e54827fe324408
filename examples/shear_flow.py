#!/usr/bin/env python3
"""mu, phi and the inertial number of a steady shear at constant pressure
(examples/shear_pressure.cfg) from its box.csv.

Each row of box.csv holds the grains' stress and solid fraction sampled at
one step (docs/model.md, "A box held at a pressure"). Over the rows from
time T on (the steady flow; to T_END, a stage's end, when given), the mean normal stress P = <-sigma_zz>, the
friction coefficient mu = <sigma_xz> / <-sigma_zz>, the solid fraction phi
and the inertial number I = shear_rate d / sqrt(P / rho) (GDR MiDi 2004),
each with its standard error from the means of blocks of rows (10 blocks:
rows far apart in time are independent, neighbours are not).

Usage: python3 examples/shear_flow.py DIR T SHEAR_RATE D RHO [T_END]
  (DIR: the run's output; T [s]: the steady flow's start; SHEAR_RATE [1/s];
   D [m]: the mean diameter; RHO [kg/m^3]; T_END [s]: its end), e.g.
  python3 examples/shear_flow.py output/shear_pressure 0.3 10 0.002 2500"""
import csv
import math
import sys

BLOCKS = 10


def blocked(values):
    """The mean of `values` and its standard error from BLOCKS block means."""
    n = len(values) // BLOCKS
    means = [sum(values[b * n:(b + 1) * n]) / n for b in range(BLOCKS)]
    mean = sum(means) / BLOCKS
    spread = sum((m - mean) ** 2 for m in means) / (BLOCKS - 1)
    return mean, math.sqrt(spread / BLOCKS)


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__.split("\n\n")[-1])
    out, t0, rate, d, rho = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), \
        float(sys.argv[5])
    t1 = float(sys.argv[6]) if len(sys.argv) == 7 else math.inf
    with open(out + "/box.csv") as f:
        rows = [r for r in csv.DictReader(f) if t0 <= float(r["time"]) <= t1 and int(r["sampled_step"]) >= 0]
    if len(rows) < 2 * BLOCKS:
        sys.exit("%d rows from t = %g s on: too few for %d blocks (a longer run, or frames more often)"
                 % (len(rows), t0, BLOCKS))
    P, dP = blocked([-float(r["szz"]) for r in rows])
    tau, dtau = blocked([float(r["sxz"]) for r in rows])
    phi, dphi = blocked([float(r["solid_fraction"]) for r in rows])
    mu = tau / P
    dmu = mu * math.sqrt((dtau / tau) ** 2 + (dP / P) ** 2)
    I = rate * d / math.sqrt(P / rho)
    dI = I * dP / (2 * P)
    span = "from t = %g s" % t0 + (" to %g s" % t1 if t1 < math.inf else "")
    print("%d rows %s: P = %.4g +- %.2g Pa, mu = %.4f +- %.4f, phi = %.4f +- %.4f, I = %.4g +- %.2g"
          % (len(rows), span, P, dP, mu, dmu, phi, dphi, I, dI))


if __name__ == "__main__":
    main()
