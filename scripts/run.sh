#!/usr/bin/env bash
# The main job: set up, build, and run the default suite into Reports/latest/.
# Extra arguments go to `frugal run` (for example: --workload news.polling --repeat 3).
# Says which stage it is in (packages, build, suite) and how long each took, on standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
times=()
stage() {
    local name="$1"; shift
    local began=$SECONDS
    echo "run: ── $name" >&2
    "$@"
    times+=("$name $((SECONDS - began)) s")
    echo "run: ── $name: $((SECONDS - began)) s" >&2
}
# Packages: what the system needs (scripts/setup.sh), then the Swift packages resolved.
packages() { scripts/setup.sh && swift package resolve >&2; }
stage "packages" packages
# Both products (SwiftPM takes one --product a build), with SwiftPM's progress ([n/N]) as it goes.
build() { swift build -c release --product frugal-workload-host >&2 && swift build -c release --product frugal >&2; }
stage "build (release)" build
echo "run: ── suite (frugal run: its progress and time left below)" >&2
suite_started=$SECONDS
status=0
.build/release/frugal run "$@" || status=$?
times+=("suite $((SECONDS - suite_started)) s")
echo "run: $((SECONDS - started)) s in all: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')" >&2
exit "$status"
