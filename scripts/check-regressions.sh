#!/usr/bin/env bash
# CI's regression check: runs the built-in good workloads (every default-suite workload whose
# summary is not marked "(bad") with repetitions and compares them against the committed
# baseline, Reports/baseline.json. Exits 2 on a significant regression, listing it.
#
#   scripts/check-regressions.sh            # compare against Reports/baseline.json
#   scripts/check-regressions.sh --update   # regenerate Reports/baseline.json (one command)
#
# Choices, for CI time (the good workloads take about 165 s of scenario time per repetition;
# with 5 repetitions and 2 jobs the check takes about 8 minutes):
# - only the good workloads (the bad ones are meant to fail their audits; their regressions do
#   not matter), about half the suite;
# - 5 repetitions (FRUGAL_CI_REPEAT), the fewest at which the rank test can reach α = 0.05 with
#   a swapped pair to spare; fewer is reported as "insufficient repetitions", never as a pass;
# - --jobs 2 (FRUGAL_CI_JOBS): the CPU contention it adds moves timing metrics, which do not
#   gate for that reason; wakeup counts and the audits' values do not move with it;
# - the debug build the tests already built, so CI builds nothing more. The baseline must come
#   from the same build configuration: --update uses the same one.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT="${FRUGAL_CI_REPEAT:-5}"
JOBS="${FRUGAL_CI_JOBS:-2}"
BASELINE="Reports/baseline.json"
OUT="Reports/ci"

swift build --product frugal-workload-host >&2
swift build --product frugal >&2
FRUGAL=.build/debug/frugal

workloads=()
while read -r name; do workloads+=(--workload "$name"); done < <(
    "$FRUGAL" list | awk '/^Scenarios:/ { exit } /^  / && !/\(bad/ && !/not in the default suite/ { print $1 }')
if [ "${#workloads[@]}" -eq 0 ]; then
    echo "check-regressions: no good workload found in 'frugal list'" >&2
    exit 3
fi
echo "check-regressions: ${#workloads[@]} arguments: ${workloads[*]}, $REPEAT repetitions, $JOBS jobs" >&2

if [ "${1:-}" = "--update" ]; then
    "$FRUGAL" run "${workloads[@]}" --repeat "$REPEAT" --jobs "$JOBS" --no-history --quiet --out "$OUT"
    mkdir -p "$(dirname "$BASELINE")"
    cp "$OUT/report.json" "$BASELINE"
    echo "check-regressions: wrote $BASELINE; commit it" >&2
    exit 0
fi

if [ ! -f "$BASELINE" ]; then
    echo "check-regressions: no $BASELINE; make one with scripts/check-regressions.sh --update" >&2
    exit 1
fi
# Exit 2 (a regression) or 3 (the harness failed) ends CI; the comparison is in $OUT/summary.md.
"$FRUGAL" run "${workloads[@]}" --repeat "$REPEAT" --jobs "$JOBS" --no-history --quiet --out "$OUT" \
    --baseline "$BASELINE" ${GITHUB_ACTIONS:+--github-annotations}
echo "check-regressions: no significant regression against $BASELINE" >&2
