#!/usr/bin/env bash
# CI: the example app (Examples/NotesApp) as a user runs it, through the SwiftPM plugin
# (`swift package frugal run`), then its deliberate regression (NOTES_REGRESSION=poll) caught by
# `frugal compare` against the example's committed baseline: exit 2, naming the audit.
#
# Cost: the example's release build compiles FrugalKit, FrugalProbe and FrugalCore again (its own
# .build): .ci/run has it built first (scripts/ci-example-build.sh), so here the plugin finds it
# done; run alone, this script builds it. frugal itself is not rebuilt: the plugin uses this
# checkout's (FRUGAL_TOOL). Then about 12 s of runs for both scenarios and 5 × 6 s of the day
# scenario with the regression on, mostly asleep: .ci/run runs all of it beside the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# .ci/run runs this beside the tests, whose `swift test` holds this checkout's .build: it passes
# the frugal the tests' build made (FRUGAL_TOOL), and nothing here builds in this checkout.
if [ -z "${FRUGAL_TOOL:-}" ]; then
  swift build --product frugal >/dev/null
  export FRUGAL_TOOL="$root/.build/debug/frugal"
fi
[ -x "$FRUGAL_TOOL" ] || { echo "ci-example: FRUGAL_TOOL=$FRUGAL_TOOL is not an executable" >&2; exit 1; }
cd Examples/NotesApp
rm -rf Reports/ci
plugin=(swift package --allow-writing-to-package-directory frugal)
started=$(date +%s)

# 1. Both scenarios once. SwiftPM turns any plugin exit but 0 into 1 and prints the plugin's own
# code; a harness failure (3) or bad input (1) fails CI, the app's own findings (2) are shown.
set +e
"${plugin[@]}" run --no-history --out Reports/ci/run 2>&1 | tee Reports/ci-run.log
status=${PIPESTATUS[0]}
set -e
mkdir -p Reports/ci && mv Reports/ci-run.log Reports/ci/run.log
if [ "$status" -ne 0 ] && ! grep -q "Plugin ended with exit code 2" Reports/ci/run.log; then
  echo "ci-example: swift package frugal run failed (exit $status)" >&2
  exit 1
fi
completed=$(grep -c '"outcome" : "completed"' Reports/ci/run/report.json || true)
if ! grep -q '"scenario" : "day"' Reports/ci/run/report.json || ! grep -q '"scenario" : "background"' Reports/ci/run/report.json \
   || grep -q '"outcome" : "\(crashed\|killed-watchdog\|killed-memory\|timed-out\)"' Reports/ci/run/report.json; then
  echo "ci-example: the example's runs did not all complete (see Examples/NotesApp/Reports/ci/run/report.json)" >&2
  exit 1
fi
echo "ci-example: the example ran through the plugin ($completed completed outcomes in the report)"

# 2. The deliberate regression: polling the server every second. frugal compare must exit 2 and
# name the polling audit.
NOTES_REGRESSION=poll "${plugin[@]}" run --no-history --quiet --scenario day --repeat 5 \
  --out Reports/ci/regression >/dev/null 2>&1 || true
set +e
"$FRUGAL_TOOL" compare Reports/baseline.json Reports/ci/regression/report.json > Reports/ci/compare.txt 2>&1
status=$?
set -e
# The poll is caught by what it costs: its idle wakeups (power.avoid-polling) or its wakeups in
# all (cpu.wakeups, +135% measured). Its requests are in flight for much of the day scenario's
# short idle (about 1 s of it is judged), so in some runs the idle rate has nothing left to count
# and the rank test need not call power.avoid-polling significant; the wakeup count always moves.
caught='REGRESSED (audit power.avoid-polling|metric cpu.wakeups )'
if [ "$status" -ne 2 ] || ! grep -Eq "$caught" Reports/ci/compare.txt; then
  cat Reports/ci/compare.txt >&2
  echo "ci-example: NOTES_REGRESSION=poll was not caught (frugal compare exited $status, expected 2 naming power.avoid-polling or cpu.wakeups)" >&2
  exit 1
fi
echo "ci-example: the regression was caught: $(grep -Em1 "$caught" Reports/ci/compare.txt | cut -c1-100)"
echo "ci-example: $(( $(date +%s) - started )) s"
