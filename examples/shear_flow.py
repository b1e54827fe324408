#!/usr/bin/env python3
"""mu, phi and the inertial number of a steady shear at constant pressure
(examples/shear_pressure.cfg) from its box.csv.

Each row of box.csv holds the means of the grains' stress and solid
fraction over its frame's samples, one every 10 steps (docs/model.md, "A box
held at a pressure"). Over the rows from time T on (the steady flow; to
T_END, a stage's end, when given), the mean normal stress P = <-sigma_zz>,
the friction coefficient mu = <sigma_xz> / <-sigma_zz>, the solid fraction
phi and the inertial number I = shear_rate d / sqrt(P / rho) (GDR MiDi
2004), each with its standard error from the means of blocks of rows (10
blocks: rows far apart in time are independent, neighbours are not), each
row weighed by its samples.

Usage: python3 examples/shear_flow.py DIR T SHEAR_RATE D RHO [T_END]
  (DIR: the run's output; T [s]: the steady flow's start; SHEAR_RATE [1/s];
   D [m]: the mean diameter; RHO [kg/m^3]; T_END [s]: its end), e.g.
  python3 examples/shear_flow.py output/shear_pressure 0.3 10 0.002 2500"""
import csv
import math
import sys

BLOCKS = 10


def block_means(values, weights):
    """The weighed means of `values` over BLOCKS consecutive blocks."""
    n = len(values) // BLOCKS
    return [sum(v * w for v, w in zip(values[b * n:(b + 1) * n], weights[b * n:(b + 1) * n])) /
            sum(weights[b * n:(b + 1) * n]) for b in range(BLOCKS)]


def spread(means):
    """The mean of BLOCKS block means and its standard error."""
    mean = sum(means) / BLOCKS
    return mean, math.sqrt(sum((m - mean) ** 2 for m in means) / (BLOCKS - 1) / BLOCKS)


def flow(rows):
    """P, mu and phi of box.csv's rows with their standard errors, a dict."""
    w = [int(r["samples"]) for r in rows]
    P_b = block_means([-float(r["szz"]) for r in rows], w)
    tau_b = block_means([float(r["sxz"]) for r in rows], w)
    P, dP = spread(P_b)
    phi, dphi = spread(block_means([float(r["solid_fraction"]) for r in rows], w))
    # mu's error from its blocks' own (tau and P rise and fall together)
    mu = sum(tau_b) / sum(P_b)
    dmu = spread([t / p for t, p in zip(tau_b, P_b)])[1]
    return {"P": P, "dP": dP, "mu": mu, "dmu": dmu, "phi": phi, "dphi": dphi}


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__.split("\n\n")[-1])
    out, t0, rate, d, rho = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), \
        float(sys.argv[5])
    t1 = float(sys.argv[6]) if len(sys.argv) == 7 else math.inf
    with open(out + "/box.csv") as f:
        rows = [r for r in csv.DictReader(f) if t0 <= float(r["time"]) <= t1 and int(r["samples"]) > 0]
    if len(rows) < 2 * BLOCKS:
        sys.exit("%d rows from t = %g s on: too few for %d blocks (a longer run, or frames more often)"
                 % (len(rows), t0, BLOCKS))
    f = flow(rows)
    P, dP = f["P"], f["dP"]
    I = rate * d / math.sqrt(P / rho)
    dI = I * dP / (2 * P)
    span = "from t = %g s" % t0 + (" to %g s" % t1 if t1 < math.inf else "")
    print("%d rows %s: P = %.4g +- %.2g Pa, mu = %.4f +- %.4f, phi = %.4f +- %.4f, I = %.4g +- %.2g"
          % (len(rows), span, P, dP, f["mu"], f["dmu"], f["phi"], f["dphi"], I, dI))


if __name__ == "__main__":
    main()
