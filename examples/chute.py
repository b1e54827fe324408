#!/usr/bin/env python3
"""The chute's depth profiles (examples/chute.cfg) against Bagnold's, and where a layer stops.

Profiles, from `grains fields RUN --average xy --periodic xy --box 0,0,Z0,LX,LY,Z1` (RUN/fields/fields.csv,
contacts recorded by the run):

    python3 examples/chute.py RUN[@DEG] [RUN[@DEG] ...] [--theta DEG] [--d D] [--rho RHO] [--base Z] [--plot PNG]

prints, for each run at its angle (RUN@DEG, else --theta's, default 23: chute.cfg's): the depth H (from the bed's top,
z = BASE, to where the solid fraction falls to half its bulk value), the bulk's solid fraction
(its middle three fifths) and its spread; the velocity fitted by v(z) = v_s - A (h - z)^alpha over
the bulk, alpha free (Bagnold: 3/2; a linear profile: 1), and the error of the fits with alpha at
3/2 and at 1; the depth-averaged velocity u and the Froude number u / sqrt(g H); the stress ratio
-sigma_xz / sigma_zz in the bulk, which a steady uniform flow holds at tan(theta) at every depth;
the inertial number I = (dv/dz) d / sqrt(P / rho) through the bulk (P = -sigma_zz), one value
where a local friction law mu(I) = tan(theta) holds (GDR MiDi 2004); and sigma_zz at mid-depth
against the weight of the grains above it, rho g cos(theta) times the
integral of the solid fraction (the normal stress a layer on an incline carries).

Stopping, from a run whose stages lower the angle (thermo.csv's `stage` and `E_kin`):

    python3 examples/chute.py --stop RUN ANGLE0,ANGLE1,... [--grains N]

prints each stage's kinetic energy per grain halfway through it and at its end, in m g d (N grains:
default thermo.csv's N), and whether the layer has stopped (below 1e-3 m g d at the end), is
stopping (its energy fell fourfold over the stage's second half) or flows.
Standard library only (matplotlib for --plot).
"""
import argparse
import csv
import math
import os
import sys

G = 9.81


def read_profile(run):
    path = os.path.join(run, "fields", "fields.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = ("z", "solid_fraction", "velocity_x")
    if len(rows) < 3 or any(k not in rows[0] for k in need):
        sys.exit(f"{path}: not a profile along z (grains fields --average xy) with {', '.join(need)}")
    try:
        out = [{k: float(v) for k, v in r.items()} for r in rows]
    except (TypeError, ValueError):
        sys.exit(f"{path}: a value that is not a number")
    if not all(math.isfinite(v) for r in out for v in r.values()):
        sys.exit(f"{path}: a value that is not finite")
    return out


def surface(rows, base):
    """The height where the solid fraction falls to half its value in the layer's middle."""
    top = max((r["z"] for r in rows if r["solid_fraction"] > 0.3), default=base)
    mid = [r["solid_fraction"] for r in rows if base + 0.3 * (top - base) <= r["z"] <= base + 0.7 * (top - base)]
    if top <= base or not mid:
        sys.exit("no layer above the bed in the profile (solid fraction above 0.3 beyond --base)")
    half = 0.5 * sum(mid) / len(mid)
    above = sorted((r for r in rows if r["z"] > base), key=lambda r: r["z"])
    for lo, hi in zip(above, above[1:]):
        if lo["solid_fraction"] >= half > hi["solid_fraction"]:
            return lo["z"] + (hi["z"] - lo["z"]) * (lo["solid_fraction"] - half) / (lo["solid_fraction"] - hi["solid_fraction"])
    sys.exit("no free surface in the profile")


def fit_power(zs, vs, h, alpha):
    """Least squares v = v_s - A (h - z)^alpha: (v_s, A, rms)."""
    xs = [(h - z) ** alpha for z in zs]
    n = len(xs)
    mx, mv = sum(xs) / n, sum(vs) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    a = -sum((x - mx) * (v - mv) for x, v in zip(xs, vs)) / sxx
    vsurf = mv + a * mx
    rms = math.sqrt(sum((vsurf - a * x - v) ** 2 for x, v in zip(xs, vs)) / n)
    return vsurf, a, rms


def velocity(rows, bulk, h, a):
    """The bulk's density, the velocity's fits and the depth-averaged speed."""
    d, H = a.d, h - a.base
    phi = [r["solid_fraction"] for r in bulk]
    zs = [r["z"] for r in bulk]
    vs = [r["velocity_x"] for r in bulk]
    best = min((0.5 + 0.01 * k for k in range(251)), key=lambda al: fit_power(zs, vs, h, al)[2])
    vsurf, _, rms15 = fit_power(zs, vs, h, 1.5)
    rms1 = fit_power(zs, vs, h, 1.0)[2]
    flow = [r for r in rows if r["z"] >= a.base]
    u = sum(r["solid_fraction"] * r["velocity_x"] for r in flow) / sum(r["solid_fraction"] for r in flow)
    print(f"  bulk ({(a.base + 0.2 * H) / d:.1f} to {(h - 0.2 * H) / d:.1f} d): solid fraction {sum(phi) / len(phi):.4f}, "
          f"from {min(phi):.4f} to {max(phi):.4f}")
    print(f"  velocity: v_s - A (h - z)^alpha fits best at alpha = {best:.2f}; error of the fit "
          f"{rms15 / vsurf:.4f} of v_s at alpha = 3/2 (Bagnold), {rms1 / vsurf:.4f} at alpha = 1 (linear)")
    print(f"  surface velocity {vsurf / math.sqrt(G * d):.3f} sqrt(g d), depth-averaged u = {u / math.sqrt(G * d):.3f} "
          f"sqrt(g d), u / sqrt(g H) = {u / math.sqrt(G * H):.4f}")


def stresses(rows, bulk, H, theta, a):
    """The stress ratio and the inertial number through the bulk, sigma_zz against the weight."""
    if "stress_xz" not in rows[0]:
        print("  no contact stress (the run records contacts with output's contacts = true)")
        return
    pressed = [r for r in bulk if r["stress_zz"] < 0]
    ratio = [-r["stress_xz"] / r["stress_zz"] for r in pressed]
    inertial = []  # I = (dv/dz) d / sqrt(P / rho), P = -sigma_zz: one value through the bulk is a local mu(I)
    for k in range(1, len(rows) - 1):
        r = rows[k]
        if bulk[0]["z"] <= r["z"] <= bulk[-1]["z"] and r["stress_zz"] < 0:
            rate = (rows[k + 1]["velocity_x"] - rows[k - 1]["velocity_x"]) / (rows[k + 1]["z"] - rows[k - 1]["z"])
            inertial.append(rate * a.d / math.sqrt(-r["stress_zz"] / a.rho))
    if not ratio or not inertial:
        print("  no compressed cell in the bulk")
        return
    dz = rows[1]["z"] - rows[0]["z"]
    mid = min(rows, key=lambda r: abs(r["z"] - (a.base + 0.5 * H)))
    above = sum(r["solid_fraction"] for r in rows if r["z"] > mid["z"]) + 0.5 * mid["solid_fraction"]  # (its cell's upper half)
    weight = a.rho * G * math.cos(theta) * above * dz
    print(f"  -sigma_xz / sigma_zz in the bulk {sum(ratio) / len(ratio):.4f} (from {min(ratio):.4f} to {max(ratio):.4f}), "
          f"tan(theta) = {math.tan(theta):.4f}")
    print(f"  inertial number in the bulk {sum(inertial) / len(inertial):.4f} (from {min(inertial):.4f} "
          f"to {max(inertial):.4f})")
    print(f"  sigma_zz at mid-depth {-mid['stress_zz']:.2f} +- {mid['stress_zz_sem']:.2f} Pa (the frames' standard error), "
          f"the weight above it {weight:.2f} Pa (ratio {-mid['stress_zz'] / weight:.4f})")


def profile(arg, a):
    run, _, deg = arg.rpartition("@") if "@" in arg else (arg, "", "")
    deg = float(deg) if deg else a.theta
    rows = read_profile(run)
    h = surface(rows, a.base)
    H = h - a.base
    bulk = [r for r in rows if a.base + 0.2 * H <= r["z"] <= h - 0.2 * H]
    print(f"{run}: theta {deg:g} deg, H = {H / a.d:.2f} d (surface at z = {h * 1e3:.2f} mm)")
    velocity(rows, bulk, h, a)
    stresses(rows, bulk, H, math.radians(deg), a)
    return rows, h, deg


def plot(runs, a, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8, 4.5), sharey=True)
    for run, (rows, h, deg) in runs:
        H = (h - a.base) / a.d
        layer = [r for r in rows if r["z"] >= a.base - a.d and r["solid_fraction"] > 0.05]
        z = [(r["z"] - a.base) / a.d for r in layer]
        v = [r["velocity_x"] / math.sqrt(G * a.d) for r in layer]
        phi = [r["solid_fraction"] for r in layer]
        line, = ax1.plot(v, z, ".", label=f"{deg:g} deg, H = {H:.1f} d")
        bulk = [(zz, vv) for zz, vv in zip(z, v) if 0.2 * H <= zz <= 0.8 * H]
        vsurf, A, _ = fit_power([b[0] for b in bulk], [b[1] for b in bulk], H, 1.5)
        zz = [H * k / 50 for k in range(51)]
        ax1.plot([vsurf - A * (H - x) ** 1.5 for x in zz], zz, "-", color=line.get_color(), lw=0.8)
        ax2.plot(phi, z, ".", color=line.get_color())
    ax1.set_xlabel("v_x / sqrt(g d)  (lines: Bagnold's v_s - A (H - z)^3/2)")
    ax1.set_ylabel("z / d above the bed")
    ax2.set_xlabel("solid fraction")
    ax2.set_xlim(0.3, 0.7)
    ax1.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def stop(run, angles, grains, a):
    with open(os.path.join(run, "thermo.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or any(k not in rows[0] for k in ("stage", "time", "N", "E_kin")):
        sys.exit(f"{run}/thermo.csv has no stages (or is not a run's thermo.csv)")
    stages = {}
    for r in rows:
        stages.setdefault(int(r["stage"]), []).append(r)
    mgd = a.rho * math.pi / 6 * a.d ** 3 * G * a.d
    for s, angle in enumerate(angles):
        if s not in stages:
            break
        rs = stages[s]
        n = grains or float(rs[-1]["N"])
        mid, end = (float(r["E_kin"]) / n / mgd for r in (rs[len(rs) // 2], rs[-1]))
        state = "stopped" if end < 1e-3 else "stopping" if end < mid / 4 else "flows"
        print(f"stage {s}: {angle:g} deg, E_kin {mid:.3g} m g d a grain at t = {float(rs[len(rs) // 2]['time']):.3f} s, "
              f"{end:.3g} at its end, t = {float(rs[-1]['time']):.3f} s: {state}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--theta", type=float, default=23.0, help="the chute's angle [deg]")
    ap.add_argument("--d", type=float, default=0.002, help="the grains' diameter [m]")
    ap.add_argument("--rho", type=float, default=2500.0, help="the grains' density [kg/m^3]")
    ap.add_argument("--base", type=float, default=0.00105, help="the bed's top [m] (chute.cfg's: 1.05 mm)")
    ap.add_argument("--plot", help="draw the profiles into this PNG")
    ap.add_argument("--stop", action="store_true", help="RUN ANGLES: each stage's angle, comma-separated")
    ap.add_argument("--grains", type=float, default=0, help="--stop: the flowing grains (default thermo.csv's N)")
    a = ap.parse_args()
    if a.stop:
        if len(a.runs) != 2:
            sys.exit("--stop takes RUN ANGLE0,ANGLE1,...")
        stop(a.runs[0], [float(x) for x in a.runs[1].split(",")], a.grains, a)
        return
    done = [(run, profile(run, a)) for run in a.runs]
    if a.plot:
        plot(done, a, a.plot)


if __name__ == "__main__":
    main()
