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

# Three lanes, as `frugal run` schedules workloads. The main lane holds everything judged on timing
# (launch, main-thread waiting, resume, watchdogs, shaping throughput), everything under memory
# pressure and the disk-writing workloads (their fsyncs stretch a neighbour's launch), one class
# after another. The lane beside it, a second test process at a lower priority (nice 10, so it
# yields the CPU whenever the main lane's runs want it), holds classes whose real runs sleep and
# are judged on counts (wakeups, bytes, files, exit codes), never on how long something took:
# black-box commands, `idle`,
# CLI exit codes; and CPU-bound classes that measure nothing (the report's screenshots in
# Chromium, the statistics' noise simulation, reports at scale, fuzz replays), which fill the core the main lane leaves idle
# (it uses about a third of one). A class not listed runs in the main lane: slower, never wrong.
# The test binary is run directly, since a second `swift test` would wait for the first one's
# lock on .build.
# The network pairs sleep through nearly all of their ~100 s of scenarios, but some of their
# audits read when the app issued its requests (network.enqueue-together, bursts): at nice 10
# beside two CPU hogs their apps (niced with the lane) waited tens of ms for a CPU between
# requests, and sync.burst read 0.89. They run in a third process at normal priority: asleep,
# they take next to nothing from the main lane. The black-box A/B and bisect checks (exact write
# counts of shell scripts) and the output-path refusals (exit codes and files) join them: about
# 30 s of the main lane, asleep or judged on counts.
network=(
    FrugalHarnessTests.NetworkWorkloadPairTests
    FrugalCLITests.ABCommandTests
    FrugalCLITests.CLIOutputPathTests
)
beside=(
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
    FrugalReportTests.ReportAtScaleTests
    FrugalFuzzTargetsTests.FuzzReplayTests
)
skips=()
for class in "${beside[@]}" "${network[@]}"; do skips+=(--skip "^$class/"); done
bundle="$(swift build --show-bin-path)/FrugalPackageTests.xctest"
log="$(mktemp "${TMPDIR:-/tmp}/frugal-beside-tests.XXXXXX")"
network_log="$(mktemp "${TMPDIR:-/tmp}/frugal-network-tests.XXXXXX")"
trap 'rm -f "$log" "$network_log"' EXIT
nice -n 10 "$bundle" "$(IFS=,; echo "${beside[*]}")" > "$log" 2>&1 &
beside_pid=$!
"$bundle" "$(IFS=,; echo "${network[*]}")" > "$network_log" 2>&1 &
network_pid=$!
status=0
swift test --skip-build "${skips[@]}" || status=$?
beside_status=0
wait "$beside_pid" || beside_status=$?
network_status=0
wait "$network_pid" || network_status=$?
# Everything but the start lines: a failure's message runs over several lines (a verdict table).
echo "test: the lane beside the others (${#beside[@]} classes):"
grep -v "Test Case .* started at" "$log" || true
echo "test: the network pairs' lane (${#network[@]} classes):"
grep -v "Test Case .* started at" "$network_log" || true
[ "$status" -eq 0 ] && [ "$beside_status" -eq 0 ] && [ "$network_status" -eq 0 ] || {
    echo "test: failed (main lane $status, beside $beside_status, network pairs $network_status)" >&2
    exit 1
}
