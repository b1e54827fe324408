"""Compares grains' box filling (example_box_fill) with LAMMPS' (box_fill.in).

Physical facts checked:
- Until the first spheres reach the floor (t <= 0.2 s), grains' velocity
  Verlet and LAMMPS' are the same law and the same scheme: Eq. 35's mean
  kinetic energy and Eq. 36's velocity fluctuation agree to round-off (1e-8)
  through the collisions of the falling cloud.
- After that the packing is chaotic (the paper: trajectories diverge after a
  few collisions), so only ensemble figures are compared, for every
  integrator: the peak of K (1%), K summed over the first 0.1 s of impact
  (2%) and the settling time, when K first falls below 1e-3 of its peak
  (within 0.02 s, two samples).
Usage: box_fill_compare.py GRAINS_TABLE LAMMPS_TABLE
"""
import sys


def table(path):
    return [list(map(float, line.split())) for line in open(path) if line.strip() and not line.startswith("#")]


def settling(t, K, fraction=1e-3):
    peak = max(K)
    after = K.index(peak)
    for k in range(after, len(K)):
        if K[k] < fraction * peak:
            return t[k]
    return float("inf")


def main():
    g, lmp = table(sys.argv[1]), table(sys.argv[2])
    if len(g) != len(lmp):
        print(f"FAIL: {len(g)} grains samples, {len(lmp)} LAMMPS samples")
        return 1
    t = [row[0] for row in lmp]
    K_l, dv_l = [row[1] for row in lmp], [row[2] for row in lmp]
    if max(abs(g[k][0] - t[k]) for k in range(len(t))) > 1e-8:
        print("FAIL: sample times differ")
        return 1
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what)
        failures += not ok

    fall = [k for k in range(len(t)) if t[k] <= 0.2 + 1e-9]
    err_K = max(abs(g[k][3] - K_l[k]) / K_l[k] for k in fall)
    err_dv = max(abs(g[k][4] - dv_l[k]) / dv_l[k] for k in fall)
    check(err_K < 1e-8 and err_dv < 1e-8,
          f"verlet = LAMMPS while falling (t <= 0.2 s): K {err_K:.2e}, dv {err_dv:.2e} (< 1e-8)")
    impact = [k for k in range(len(t)) if 0.2 - 1e-9 <= t[k] < 0.3 - 1e-9]
    t_l = settling(t, K_l)
    for i, name in enumerate(["euler", "verlet", "verlet_improved"]):
        K = [row[1 + 2 * i] for row in g]
        peak = max(K) / max(K_l) - 1
        burst = sum(K[k] for k in impact) / sum(K_l[k] for k in impact) - 1
        t_g = settling(t, K)
        check(abs(peak) < 0.01, f"{name}: peak K {max(K):.6e} J vs LAMMPS {max(K_l):.6e} J ({peak:+.2e}, < 1%)")
        check(abs(burst) < 0.02, f"{name}: K summed over 0.2-0.3 s vs LAMMPS {burst:+.2e} (< 2%)")
        check(abs(t_g - t_l) <= 0.02 + 1e-9, f"{name}: settled (K < 1e-3 peak) at {t_g:.3f} s, LAMMPS {t_l:.3f} s")
    print(f"box_fill vs LAMMPS: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
