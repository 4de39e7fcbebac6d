#!/usr/bin/env bash
# What an app links stays small: FrugalKit (the runtime every app built against Frugal links)
# must not reach FrugalCore (the model, analysis, audits) or FrugalProbe (the harness's probes,
# which depend on FrugalCore), directly or through any target it depends on; FrugalProtocol (the
# wire protocol) depends on nothing. Reads the targets from `swift package dump-package`, and the
# import lines of the sources too: SwiftPM puts every module of a build in one directory, so an
# undeclared `import FrugalCore` can compile once something else has built FrugalCore.
# Exits 1 naming each path that breaks it.
#
#   scripts/check-module-graph.sh
set -euo pipefail
cd "$(dirname "$0")/.."
package_json=$(mktemp "${TMPDIR:-/tmp}/frugal-package.XXXXXX")
trap 'rm -f "$package_json"' EXIT
swift package dump-package > "$package_json"
python3 - "$package_json" <<'PY'
import json, os, re, sys

package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"]}

def direct(name):
    """The package's own targets `name` depends on (products of other packages are not ours)."""
    found = []
    for dependency in targets[name].get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency and dependency[kind][0] in targets:
                found.append(dependency[kind][0])
    return found

def paths_to(start, forbidden):
    """Every dependency path from `start` to a target in `forbidden`."""
    bad, stack = [], [[start]]
    while stack:
        path = stack.pop()
        for next_target in direct(path[-1]):
            if next_target in path:
                continue
            if next_target in forbidden:
                bad.append(path + [next_target])
            else:
                stack.append(path + [next_target])
    return bad

def source_dir(name):
    return targets[name].get("path") or os.path.join("Sources", name)

def closure(start):
    seen, stack = {start}, [start]
    while stack:
        for next_target in direct(stack.pop()):
            if next_target not in seen:
                seen.add(next_target)
                stack.append(next_target)
    return seen

forbidden = {"FrugalCore", "FrugalProbe"}
problems = []
for path in paths_to("FrugalKit", forbidden):
    problems.append("FrugalKit depends on " + path[-1] + ": " + " → ".join(path))
if direct("FrugalProtocol"):
    problems.append("FrugalProtocol depends on " + ", ".join(direct("FrugalProtocol")) + " (it must depend on nothing)")
import_line = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:[a-z]+\s+)?(FrugalCore|FrugalProbe)\b", re.M)
for name in sorted(closure("FrugalKit")):
    if targets[name].get("type") != "regular":
        continue
    for root, _, files in os.walk(source_dir(name)):
        for file in sorted(files):
            if file.endswith(".swift"):
                path = os.path.join(root, file)
                for match in import_line.finditer(open(path, encoding="utf-8").read()):
                    problems.append(f"{path} imports {match.group(1)} (target {name} is linked into every app with FrugalKit)")
if problems:
    print("check-module-graph: an app would link the analysis:", file=sys.stderr)
    for problem in problems:
        print("  " + problem, file=sys.stderr)
    sys.exit(1)
print("check-module-graph: FrugalKit links " + ", ".join(sorted(closure("FrugalKit") - {"FrugalKit"})) + "; no FrugalCore, no FrugalProbe",
      file=sys.stderr)
PY
