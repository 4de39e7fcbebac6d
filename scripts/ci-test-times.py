#!/usr/bin/env python3
"""Where scripts/test.sh's time goes: each test class's time and lane, from its output (or a
.ci/run log), as XCTest prints it ("Test Suite 'X' passed at ... in A (B) seconds").

    scripts/ci-test-times.py LOG            # classes by time, and each lane's sum
    scripts/ci-test-times.py BEFORE AFTER   # both, side by side: what moved and what it cost

The lane is the one whose output the class is in: scripts/test.sh prints the main lane's as it
runs, then "test: the lane beside the others", "test: the network pairs' lane", "test: the lane
sharing the machine gate" and "test: alone, after the lanes". A lane's sum is its length when its classes run one after another (each
lane is one test process; the shared lane's classes also wait for the gate).
"""
import re
import sys

SUITE = re.compile(r"Test Suite '([^']+)' (?:passed|failed) at")
EXECUTED = re.compile(r"Executed (\d+) tests?, with .* in ([0-9.]+) \(([0-9.]+)\) seconds")


def classes(path):
    """{class: (seconds, lane)} for every class the log shows ending."""
    found, lane, name = {}, "main", None
    with open(path, errors="replace") as log:
        for line in log:
            if line.startswith("test: the lane beside"):
                lane = "beside"
            elif line.startswith("test: the network"):
                lane = "network"
            elif line.startswith("test: the lane sharing"):
                lane = "shared"
            elif line.startswith("test: alone, after the lanes"):
                lane = "alone"
            suite = SUITE.search(line)
            if suite:
                name = suite.group(1)
                continue
            executed = EXECUTED.search(line)
            if executed and name and name not in ("Selected tests", "All tests") and not name.endswith(".xctest"):
                found[name] = (float(executed.group(3)), lane)
                name = None
    return found


def main(paths):
    logs = [classes(path) for path in paths]
    names = sorted(set().union(*logs), key=lambda name: -max(log.get(name, (0, ""))[0] for log in logs))
    for name in names:
        cells = ["%7.1f %-8s" % log[name] if name in log else "%7s %-8s" % ("-", "") for log in logs]
        if max(log.get(name, (0, ""))[0] for log in logs) >= 1:
            print("%-40s %s" % (name, " ".join(cells)))
    print("(classes under 1 s left out of the list, not the sums)")
    for index, log in enumerate(logs):
        sums = {}
        for seconds, lane in log.values():
            sums[lane] = sums.get(lane, 0) + seconds
        print("%s: %s" % (paths[index], ", ".join("%s %.1f s" % (lane, sums[lane]) for lane in sorted(sums))))
    if len(logs) == 2:
        # The classes in the main lane in both: the same work, so their ratio is the load's.
        stayed = [name for name in logs[0] if name in logs[1] and logs[0][name][1] == logs[1][name][1] == "main"]
        before, after = sum(logs[0][n][0] for n in stayed), sum(logs[1][n][0] for n in stayed)
        print("main-lane classes in both: %.1f s -> %.1f s (x%.2f: the difference in load)" % (before, after, after / before if before else 0))


if __name__ == "__main__":
    if not 1 <= len(sys.argv) - 1 <= 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
