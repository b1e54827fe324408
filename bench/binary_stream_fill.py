#!/usr/bin/env python3
"""Writes a TinyDEM CSV of N grains (diameter D) that fill the course of
data/make_binary_stream.py (a slab THICK diameters deep) as it looks in a long
run: the bed full from the floor up, the rest in the hopper from its outlet
up. Grains sit on a cubic lattice of spacing 1.05 D, a diameter clear of
every wall, with a jitter of 0.02 D so that the packing collapses into
contact at once: the work per step of a crowded run, without hours of
pouring first. Used by bench/binary_stream_1e6.sh.
Usage: python3 bench/binary_stream_fill.py OUT N [D [THICK]]"""
import random
import sys

out, n = sys.argv[1], int(sys.argv[2])
D = float(sys.argv[3]) if len(sys.argv) > 3 else 0.002
thick = float(sys.argv[4]) if len(sys.argv) > 4 else 70
S = 1.05  # lattice spacing in D
rng = random.Random(1)


def row(lo, hi):
    """Lattice coordinates (in D) from lo to hi, a diameter clear of both."""
    k = int((hi - lo - 2) / S) + 1
    return [lo + 1 + i * S for i in range(k)]


def hopper_half_width(z):
    """Half the hopper's inner width at height z (in D), a diameter in from
    its walls: from 4 D at the outlet (220 D) to 55 D at 250 D, cut by
    the side walls at 50 D (from 247 D up)."""
    return min(4 + (z - 220) * (51 / 30) - 1.5, 50 - 1)


def layers():
    """Lattice layers from the bed's floor up, then the hopper's."""
    for z in row(0, 139):
        yield z, row(-50, 50)
    z = 221.0
    while z < 288:
        h = hopper_half_width(z)
        yield z, row(-h - 1, h + 1)
        z += S


ys = row(-thick / 2, thick / 2)
count = 0
with open(out, "w") as f:
    f.write("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material,tag\n")
    for z, xs in layers():
        for x in xs:
            for y in ys:
                if count == n:
                    break
                j = [rng.uniform(-0.02, 0.02) for _ in range(3)]
                f.write("%.7g,%.7g,%.7g,%g,0,0,0,1,0,0,0,0,0,0,0,0\n"
                        % ((x + j[0]) * D, (y + j[1]) * D, (z + j[2]) * D, D / 2))
                count += 1
if count < n:
    sys.exit("%s: the course holds only %d grains on the lattice; make THICK larger" % (out, count))
print("%s: %d grains" % (out, count))
