#!/usr/bin/env python3
"""Where a `frugal run`'s wall time goes, from its evidence.json (each run's start and end):
how long the machine had 0, 1, 2, ... runs at once, and each workload's time alone. Run on the
regression check's Reports/ci/evidence.json it shows what bounds the check: the runs that had the
machine to themselves (exclusive ones, one after another) and the light ones side by side.

    scripts/ci-schedule-times.py Reports/ci/evidence.json
"""
import json
import sys


def main(path):
    with open(path) as file:
        records = json.load(file)["records"]
    runs = [(r["workload"] + "/" + r["scenario"], r["startTime"] / 1e9, r["endTime"] / 1e9) for r in records]
    start, end = min(r[1] for r in runs), max(r[2] for r in runs)
    edges = sorted({t for r in runs for t in r[1:]})
    at_once, alone = {}, {}
    for left, right in zip(edges, edges[1:]):
        middle = (left + right) / 2
        running = [r for r in runs if r[1] <= middle < r[2]]
        at_once[len(running)] = at_once.get(len(running), 0) + right - left
        if len(running) == 1:
            alone[running[0][0]] = alone.get(running[0][0], 0) + right - left
    print("%d runs in %.1f s, %.1f s of runs" % (len(runs), end - start, sum(r[2] - r[1] for r in runs)))
    print("runs at once: " + ", ".join("%d: %.1f s" % (n, at_once[n]) for n in sorted(at_once)))
    lengths = {}
    for name, left, right in runs:
        lengths.setdefault(name, []).append(right - left)
    print("%-44s %4s %9s %9s" % ("workload/scenario", "runs", "mean s", "alone s"))
    for name in sorted(lengths, key=lambda n: (-alone.get(n, 0), -sum(lengths[n]))):
        print("%-44s %4d %9.1f %9.1f" % (name, len(lengths[name]), sum(lengths[name]) / len(lengths[name]), alone.get(name, 0)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
