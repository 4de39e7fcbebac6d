#!/usr/bin/env bash
# Set up, build, and run every test. Tests that need what this machine lacks (perf events,
# a PAPI that initialises) skip and say why.
#   scripts/test.sh                 # every test
#   scripts/test.sh --filter NAME   # as swift test
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# One build of everything: --build-tests builds the executables the harness and CLI tests run as
# real processes (frugal, frugal-workload-host) with the tests, in one graph, so SwiftPM overlaps
# what three builds one after another (host, frugal, tests) ran in sequence.
swift build --build-tests
[ $# -gt 0 ] && exec swift test --skip-build "$@"

# Two lanes, as `frugal run` schedules workloads: the test classes below sleep through real runs
# judged on counts (wakeups, bytes, files, exit codes), never on how long something took, and
# use little CPU; they run in a second test process beside the others instead of after them.
# The network pairs sleep through scenarios of up to 46 s (about 100 s in all); the rest are
# black-box commands, `idle`, CLI exit codes and renderers. Everything judged on timing (launch,
# main-thread waiting, resume, watchdogs, shaping throughput), everything under memory pressure,
# the disk-writing workloads (their fsyncs stretch a neighbour's launch) and the CPU-heavy pure
# tests stay in the main lane, one after another. A class not listed runs in the main lane:
# slower, never wrong. The test binary is run directly, since a second `swift test` would wait
# for the first one's lock on .build.
beside=(
    FrugalHarnessTests.NetworkWorkloadPairTests
    FrugalCLITests.CICommandTests
    FrugalCLITests.CLIFaultTests
    FrugalCLITests.ProjectCLITests
    FrugalReportTests.CIOutputTests
    FrugalHarnessTests.SandboxTests
    FrugalHarnessTests.UserAppTests
    FrugalHarnessTests.SuiteRunnerTests
    FrugalHarnessTests.PeakResidentTests
)
skips=()
for class in "${beside[@]}"; do skips+=(--skip "^$class/"); done
bundle="$(swift build --show-bin-path)/FrugalPackageTests.xctest"
log="$(mktemp "${TMPDIR:-/tmp}/frugal-beside-tests.XXXXXX")"
trap 'rm -f "$log"' EXIT
"$bundle" "$(IFS=,; echo "${beside[*]}")" > "$log" 2>&1 &
beside_pid=$!
status=0
swift test --skip-build "${skips[@]}" || status=$?
beside_status=0
wait "$beside_pid" || beside_status=$?
echo "test: the lane beside the others (${#beside[@]} classes):"
grep -E "error:|Test Case .* (passed|failed|skipped)|Executed" "$log" || cat "$log"
[ "$status" -eq 0 ] && [ "$beside_status" -eq 0 ] || { echo "test: failed (main lane $status, beside $beside_status)" >&2; exit 1; }
