"""The wall time of one neighbour-list rebuild, on the grains of a run's
checkpoint: the run resumed, then ROUNDS times a step after its tags are set
as they are (which asks for a rebuild: the lists, the cells and the
grains' order made anew) and a plain step; a rebuild's time is the first
less the second. Prints the median and the range over the rounds, and the
setting's own time (not counted).
Usage: PYTHONPATH=BUILD/python python3 bench/rebuild_time.py CHECKPOINT THREADS [ROUNDS]"""
import statistics
import sys
import time

import grains


def main():
    path, threads = sys.argv[1], int(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    sim = grains.Simulation.resume(path, threads=threads)
    sim.advance(1)  # (the resumed lists, if they are built at the first step)
    tags = sim.tags
    rebuild, setting = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        sim.tags = tags
        t1 = time.perf_counter()
        sim.advance(1)
        t2 = time.perf_counter()
        sim.advance(1)
        t3 = time.perf_counter()
        rebuild.append((t2 - t1) - (t3 - t2))
        setting.append(t1 - t0)
    print("%d grains, %d threads, %d rounds: a rebuild %.4g s (median; %.4g to %.4g), a plain step %.4g s, "
          "setting the tags %.4g s" % (len(tags), threads, rounds, statistics.median(rebuild), min(rebuild),
                                       max(rebuild), t3 - t2, statistics.median(setting)))
    sim.close()


if __name__ == "__main__":
    main()
