#!/usr/bin/env python3
"""Plots friction.csv of the friction test (membrane paper Section 3.2, Fig. 6)
for one or more runs, and prints what each saw once the sphere slides (from
2 mm of travel on): the friction force over mu F_n, its range, the height's
range and the dominant period of the height along the drag.

    python3 examples/plot_friction.py MU OUT.png DIR [DIR ...]
e.g.
    python3 examples/plot_friction.py 1.2 friction.png output/membrane_friction output/membrane_friction_particle
"""
import sys

import numpy as np


def summary(path, mu):
    a = np.genfromtxt(path, delimiter=",", names=True)
    m = a["x"] >= a["x"][0] + 0.002
    x, fx, fz, z = a["x"][m], a["fx"][m], a["fz"][m], a["z"][m]
    zz = z - z.mean()
    spectrum = np.abs(np.fft.rfft(zz))
    freq = np.fft.rfftfreq(len(zz), d=x[1] - x[0])
    k = 1 + np.argmax(spectrum[1:])
    return {
        "ratio": -fx.mean() / (mu * fz.mean()),
        "fx": (fx.min(), fx.max()),
        "fz": (fz.min(), fz.max()),
        "z": (z.min(), z.max()),
        "period": 1 / freq[k] if zz.std() > 0 else float("nan"),
        "off": float(np.mean(fz <= 0)),
        "data": a,
    }


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    mu, out, dirs = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
    for d in dirs:
        s = summary(d + "/friction.csv", mu)
        print("%s: mean fx / (mu mean fz) = %.6f; fx %.4g to %.4g N; fz %.4g to %.4g N; z range %.3g um; "
              "period of z along x %.3g mm; off the surface %.0f%% of rows"
              % (d, s["ratio"], *s["fx"], *s["fz"], (s["z"][1] - s["z"][0]) * 1e6, s["period"] * 1e3,
                 100 * s["off"]))
        a = s["data"]
        name = d.rstrip("/").split("/")[-1]
        top.plot(a["x"] * 1e3, -a["fx"] * 1e3, label=name)
        bottom.plot(a["x"] * 1e3, a["z"] * 1e3, label=name)
    top.set_ylabel("friction force -fx [mN]")
    bottom.set_ylabel("height z [mm]")
    bottom.set_xlabel("x [mm]")
    top.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
