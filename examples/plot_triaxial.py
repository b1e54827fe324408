#!/usr/bin/env python3
"""The triaxial test's figures from triaxial.csv files (docs/howto-triaxial.md).

    python3 examples/plot_triaxial.py output/triaxial_case1 [output/triaxial_case1_particle ...]
        [--plot docs/triaxial_cases.png]

For each run: the peak deviatoric stress, the strain where it is reached, the
confining stress the grains felt there, and the friction angle
sin(phi) = sigma_d / (sigma_d + 2 sigma_c) at the peak; then sigma_d at
strains 0.01, 0.02, ... as a table. Only the standard library is needed;
--plot needs matplotlib.
"""
import argparse
import csv
import math
import os


def read(directory):
    with open(os.path.join(directory, "triaxial.csv")) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return [r for r in rows if r["strain"] > 0]  # the loading


def peak(rows):
    top = max(rows, key=lambda r: r["sigma_d"])
    sin_phi = top["sigma_d"] / (top["sigma_d"] + 2 * top["sigma_c"])
    return top, sin_phi


def at_strain(rows, eps):
    """sigma_d interpolated linearly at strain eps, or None past the run."""
    for a, b in zip(rows, rows[1:]):
        if a["strain"] <= eps <= b["strain"]:
            w = (eps - a["strain"]) / (b["strain"] - a["strain"])
            return a["sigma_d"] + w * (b["sigma_d"] - a["sigma_d"])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="output directories holding triaxial.csv")
    ap.add_argument("--plot", help="write sigma_d against strain to this PNG")
    args = ap.parse_args()
    curves = {d: read(d) for d in args.runs}
    for d, rows in curves.items():
        top, sin_phi = peak(rows)
        print(f"{d}: peak sigma_d {top['sigma_d'] / 1e3:.1f} kPa at strain {top['strain']:.4f} "
              f"(sigma_c felt {top['sigma_c'] / 1e3:.1f} kPa); sin(phi) = {sin_phi:.3f}, "
              f"phi = {math.degrees(math.asin(sin_phi)):.1f} deg")
    print("strain | " + " | ".join(os.path.basename(d.rstrip("/")) for d in curves) + "  (sigma_d, kPa)")
    for k in range(1, 21):
        vals = [at_strain(rows, k / 200) for rows in curves.values()]
        if all(v is None for v in vals):
            break
        print(f"{k / 200:.3f} | " + " | ".join("-" if v is None else f"{v / 1e3:.1f}" for v in vals))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for d, rows in curves.items():
            ax.plot([r["strain"] for r in rows], [r["sigma_d"] / 1e3 for r in rows],
                    label=os.path.basename(d.rstrip("/")))
        ax.set_xlabel("axial strain ln(h0/h)")
        ax.set_ylabel("deviatoric stress sigma_d [kPa]")
        ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


if __name__ == "__main__":
    main()
