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
# .ci/run has built it as a stage of its own (FRUGAL_BUILT=1).
[ -n "${FRUGAL_BUILT:-}" ] || swift build --build-tests
[ $# -gt 0 ] && exec swift test --skip-build "$@"

# Two lanes, as `frugal run` schedules workloads. The main lane holds everything judged on timing
# (launch, main-thread waiting, resume, watchdogs, shaping throughput), everything under memory
# pressure and the disk-writing workloads (their fsyncs stretch a neighbour's launch), one class
# after another. The lane beside it, a second test process at a lower priority (nice 10, so it
# yields the CPU whenever the main lane's runs want it), holds classes whose real runs sleep and
# are judged on counts (wakeups, bytes, files, exit codes), never on how long something took:
# the network pairs (scenarios of up to 46 s, about 100 s in all), black-box commands, `idle`,
# CLI exit codes; and two CPU-bound classes that measure nothing (the report's screenshots in
# Chromium, the statistics' noise simulation), which fill the core the main lane leaves idle
# (it uses about a third of one). A class not listed runs in the main lane: slower, never wrong.
# The test binary is run directly, since a second `swift test` would wait for the first one's
# lock on .build.
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
    FrugalReportTests.HTMLScreenshotTests
    FrugalCoreTests.StatisticsNoiseSimulationTests
)
skips=()
for class in "${beside[@]}"; do skips+=(--skip "^$class/"); done
bundle="$(swift build --show-bin-path)/FrugalPackageTests.xctest"
log="$(mktemp "${TMPDIR:-/tmp}/frugal-beside-tests.XXXXXX")"
trap 'rm -f "$log"' EXIT
nice -n 10 "$bundle" "$(IFS=,; echo "${beside[*]}")" > "$log" 2>&1 &
beside_pid=$!
status=0
swift test --skip-build "${skips[@]}" || status=$?
beside_status=0
wait "$beside_pid" || beside_status=$?
echo "test: the lane beside the others (${#beside[@]} classes):"
grep -E "error:|Test Case .* (passed|failed|skipped)|Executed" "$log" || cat "$log"
[ "$status" -eq 0 ] && [ "$beside_status" -eq 0 ] || { echo "test: failed (main lane $status, beside $beside_status)" >&2; exit 1; }
