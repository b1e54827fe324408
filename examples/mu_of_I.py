#!/usr/bin/env python3
"""The friction law mu(I) and the solid fraction phi(I) of steady simple
shear at constant pressure, from runs whose stages shear at several rates
(examples/mu_of_I.cfg; docs/analysis.md, "mu(I) and phi(I)").

Each stage of a run that shears its box at one rate with the box held at a
pressure (box.csv's height_rate not 0) is a point: its rows from SKIP
strains after the stage began on (the flow forgets the last rate within
about one strain) give the mean normal stress P = <-sigma_zz>, the friction
coefficient mu = <sigma_xz> / <-sigma_zz>, the solid fraction phi and the
inertial number I = shear_rate d / sqrt(P / rho) (GDR MiDi 2004), each with
its standard error from the means of 10 blocks of rows (rows far apart in
time are independent, neighbours are not). The rows' stages come from
thermo.csv's column `stage`; a stage at constant volume (no servo) is left
out.

The points of one material (one MATERIAL argument: run folders joined by
commas) are fitted with the law of Jop, Forterre & Pouliquen (2006),
mu(I) = mu_s + (mu_2 - mu_s) / (I_0 / I + 1), weighted by the points'
errors: linear in mu_s and mu_2 for a given I_0, whose best value is found
on a fine logarithmic grid; with mu(I) = mu_0 + c I^alpha (the approach to
the quasi-static limit as a power of I, Peyneau & Roux 2008; the plot
draws it, dashed, where it fits better); and phi(I) = phi_c - b I (da Cruz
et al. 2005) and phi_0 - b I^beta. The parameters' errors: mu_s's and mu_2's from the fit's covariance
at the best I_0 (scaled by chi^2 per degree of freedom where that is above
1), I_0's the range where chi^2 stays within that scale of its least.

Usage: python3 examples/mu_of_I.py [--skip STRAINS] [--labels A,B,..] [--plot PNG]
                                   D RHO MATERIAL [MATERIAL ...]
  (D [m]: the mean diameter; RHO [kg/m^3]; MATERIAL: DIR[,DIR...]), e.g.
  python3 examples/mu_of_I.py 0.002 2500 output/mu_of_I"""
import csv
import math
import sys

from shear_flow import BLOCKS, flow  # (examples/shear_flow.py, beside this file: box.csv's rows to P, mu, phi)


def stages(folder):
    """box.csv's rows with samples, in runs of one stage and one shear rate."""
    with open(folder + "/thermo.csv") as f:
        stage = {int(r["step"]): int(r["stage"]) for r in csv.DictReader(f)}
    groups = []
    with open(folder + "/box.csv") as f:
        for r in csv.DictReader(f):
            if int(r["samples"]) == 0 or float(r["L_z"]) <= 0:
                continue
            rate = float(r["shear_velocity"]) / float(r["L_z"])
            key = (stage.get(int(r["step"]), -1), float("%.6g" % rate))
            if not groups or groups[-1][0] != key:
                groups.append((key, []))
            groups[-1][1].append(r)
    return groups


def point(rows, skip, d, rho):
    """A stage's flow: I, mu, phi with their errors, or None (too short, no servo)."""
    rate = float(rows[0]["shear_velocity"]) / float(rows[0]["L_z"])
    t0 = float(rows[0]["time"])
    kept = [r for r in rows if abs(rate) * (float(r["time"]) - t0) >= skip]
    if rate == 0 or len(kept) < 2 * BLOCKS or all(float(r["height_rate"]) == 0 for r in rows):
        return None
    p = flow(kept)
    p["I"] = abs(rate) * d / math.sqrt(p["P"] / rho)
    p["dI"] = p["I"] * p["dP"] / (2 * p["P"])
    p.update(rate=rate, rows=len(kept), strains=abs(rate) * (float(kept[-1]["time"]) - float(kept[0]["time"])))
    return p


def linear_fit(xs, ys, errs, basis):
    """Weighted least squares of y = a f(x) + b g(x), basis(x) = (f, g):
    (a, b), their covariance and chi^2."""
    s = [[0.0, 0.0], [0.0, 0.0]]
    r = [0.0, 0.0]
    for x, y, e in zip(xs, ys, errs):
        f = basis(x)
        for i in range(2):
            r[i] += f[i] * y / e ** 2
            for j in range(2):
                s[i][j] += f[i] * f[j] / e ** 2
    det = s[0][0] * s[1][1] - s[0][1] * s[1][0]
    cov = [[s[1][1] / det, -s[0][1] / det], [-s[1][0] / det, s[0][0] / det]]
    a = cov[0][0] * r[0] + cov[0][1] * r[1]
    b = cov[1][0] * r[0] + cov[1][1] * r[1]
    chi2 = sum(((y - a * basis(x)[0] - b * basis(x)[1]) / e) ** 2 for x, y, e in zip(xs, ys, errs))
    return (a, b), cov, chi2


def fit_mu(points):
    """mu_s, mu_2, I_0 and their errors; chi^2 per degree of freedom."""
    xs, ys, es = [p["I"] for p in points], [p["mu"] for p in points], [p["dmu"] for p in points]
    grid = [10 ** (-4 + 5 * k / 5000) for k in range(5001)]  # I_0 from 1e-4 to 10
    fits = [(linear_fit(xs, ys, es, lambda x, i0=i0: (i0 / (i0 + x), x / (i0 + x))), i0) for i0 in grid]
    (best, cov, chi2), i0 = min(fits, key=lambda f: f[0][2])
    dof = max(1, len(points) - 3)
    scale = max(1.0, chi2 / dof)
    inside = [g for (fit, g) in fits if fit[2] <= chi2 + scale]
    return {"mu_s": best[0], "dmu_s": math.sqrt(cov[0][0] * scale), "mu_2": best[1],
            "dmu_2": math.sqrt(cov[1][1] * scale), "I_0": i0, "I_0_range": (min(inside), max(inside)),
            "chi2_dof": chi2 / dof}


def fit_power(points, key):
    """y = y_0 + c I^alpha, alpha on a grid from 0.1 to 1.5 (the approach
    to the quasi-static limit as a power of I: Peyneau & Roux 2008): y_0,
    c, alpha, y_0's error and chi^2 per degree of freedom."""
    xs, ys, es = [p["I"] for p in points], [p[key] for p in points], [max(p["d" + key], 1e-6) for p in points]
    fits = [(linear_fit(xs, ys, es, lambda x, a=a: (1.0, x ** a)), a) for a in
            [0.1 + 1.4 * k / 1400 for k in range(1401)]]
    ((y0, c), cov, chi2), alpha = min(fits, key=lambda f: f[0][2])
    dof = max(1, len(points) - 3)
    return {"y_0": y0, "dy_0": math.sqrt(cov[0][0] * max(1.0, chi2 / dof)), "c": c, "alpha": alpha,
            "chi2_dof": chi2 / dof}


def fit_phi(points):
    """phi_c and b of phi = phi_c - b I, with their errors."""
    (phi_c, minus_b), cov, chi2 = linear_fit([p["I"] for p in points], [p["phi"] for p in points],
                                             [max(p["dphi"], 1e-6) for p in points], lambda x: (1.0, x))
    scale = max(1.0, chi2 / max(1, len(points) - 2))
    return {"phi_c": phi_c, "dphi_c": math.sqrt(cov[0][0] * scale), "b": -minus_b,
            "db": math.sqrt(cov[1][1] * scale)}


def plot(path, materials):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for label, points, mu, power, phi in materials:
        I = [p["I"] for p in points]
        line = a.errorbar(I, [p["mu"] for p in points], yerr=[p["dmu"] for p in points], fmt="o", label=label)
        grid = [10 ** (-3.3 + 3 * k / 200) for k in range(201)]
        if mu and (not power or mu["chi2_dof"] <= power["chi2_dof"]):
            a.plot(grid, [mu["mu_s"] + (mu["mu_2"] - mu["mu_s"]) / (mu["I_0"] / x + 1) for x in grid],
                   color=line[0].get_color())
        elif power:
            a.plot(grid, [power["y_0"] + power["c"] * x ** power["alpha"] for x in grid], "--",
                   color=line[0].get_color())
        b.errorbar(I, [p["phi"] for p in points], yerr=[p["dphi"] for p in points], fmt="o", label=label)
        if phi:
            b.plot([0, max(I)], [phi["phi_c"], phi["phi_c"] - phi["b"] * max(I)], color=line[0].get_color())
    a.set_xscale("log")
    a.set_xlabel("inertial number I")
    a.set_ylabel("mu = sigma_xz / P")
    b.set_xlabel("inertial number I")
    b.set_ylabel("solid fraction phi")
    a.legend(title="contact friction mu_p")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    args, skip, labels, png = sys.argv[1:], 1.0, None, None
    while args and args[0].startswith("--") and len(args) > 1:
        if args[0] == "--skip":
            skip = float(args[1])
        elif args[0] == "--labels":
            labels = args[1].split(",")
        elif args[0] == "--plot":
            png = args[1]
        else:
            sys.exit(__doc__.split("\n\n")[-1])
        args = args[2:]
    if len(args) < 3 or (labels and len(labels) != len(args) - 2):
        sys.exit(__doc__.split("\n\n")[-1])
    d, rho = float(args[0]), float(args[1])
    materials = []
    for k, material in enumerate(args[2:]):
        label = labels[k] if labels else material
        points = []
        for folder in material.split(","):
            for (stage, rate), rows in stages(folder):
                p = point(rows, skip, d, rho)
                if p:
                    p["where"] = "%s stage %d" % (folder, stage)
                    points.append(p)
        points.sort(key=lambda p: p["I"])
        print("%s:" % label)
        for p in points:
            print("  %-28s rate %8.4g /s, %5.2f strains, %4d rows: P = %6.3g +- %.2g Pa, I = %.4g +- %.2g, "
                  "mu = %.4f +- %.4f, phi = %.4f +- %.4f" % (p["where"], p["rate"], p["strains"], p["rows"], p["P"],
                                                           p["dP"], p["I"], p["dI"], p["mu"], p["dmu"], p["phi"],
                                                           p["dphi"]))
        mu = fit_mu(points) if len(points) >= 4 else None
        power = fit_power(points, "mu") if len(points) >= 4 else None
        phi = fit_phi(points) if len(points) >= 3 else None
        phi_power = fit_power(points, "phi") if len(points) >= 4 else None
        if mu:
            print("  mu(I) = mu_s + (mu_2 - mu_s) / (I_0 / I + 1): mu_s = %.4f +- %.4f, mu_2 = %.3f +- %.3f, "
                  "I_0 = %.3g (%.3g to %.3g), chi^2/dof = %.2f" % (mu["mu_s"], mu["dmu_s"], mu["mu_2"], mu["dmu_2"],
                                                                 mu["I_0"], mu["I_0_range"][0], mu["I_0_range"][1],
                                                                 mu["chi2_dof"]))
        if power:
            print("  mu(I) = mu_0 + c I^alpha: mu_0 = %.4f +- %.4f, c = %.3f, alpha = %.3f, chi^2/dof = %.2f"
                  % (power["y_0"], power["dy_0"], power["c"], power["alpha"], power["chi2_dof"]))
        if phi:
            print("  phi(I) = phi_c - b I: phi_c = %.4f +- %.4f, b = %.3f +- %.3f" % (phi["phi_c"], phi["dphi_c"],
                                                                               phi["b"], phi["db"]))
        if phi_power:
            print("  phi(I) = phi_0 - b I^beta: phi_0 = %.4f +- %.4f, b = %.3f, beta = %.3f, chi^2/dof = %.2f"
                  % (phi_power["y_0"], phi_power["dy_0"], -phi_power["c"], phi_power["alpha"],
                     phi_power["chi2_dof"]))
        if not points:
            print("  no stage at constant pressure with %d rows after %g strains" % (2 * BLOCKS, skip))
        materials.append((label, points, mu, power, phi))
    if png:
        plot(png, materials)


if __name__ == "__main__":
    main()
