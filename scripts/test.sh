#!/usr/bin/env bash
# Set up, build, and run every test. Tests that need what this machine lacks (perf events,
# a PAPI that initialises) skip and say why.
#   scripts/test.sh                 # every test
#   scripts/test.sh --filter NAME   # as swift test
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's length, printed at the end as `scripts/run.sh` does: on a clean clone the build is
# about a third of the whole (issue 28).
started=$SECONDS
scripts/setup.sh
setup_seconds=$((SECONDS - started))
# One build of everything: --build-tests builds the executables the harness and CLI tests run as
# real processes (frugal, frugal-workload-host) with the tests, in one graph, so SwiftPM overlaps
# what three builds one after another (host, frugal, tests) ran in sequence.
# .ci/run has built it as a stage of its own (FRUGAL_BUILT=1).
build_started=$SECONDS
# Then its objects are written back to disk (`sync`), not in the tests' first half minute: the
# default suite's pairs start there, and beside the writeback a clean clone's run judged
# `background.rests` (1.91 CPU s/min in the background) and `perf stat`'s start (1.9 s) wrong.
# .ci/run syncs after the examples' builds, which come after this one.
sync_seconds=0
if [ -z "${FRUGAL_BUILT:-}" ]; then
    swift build --build-tests
    sync_started=$SECONDS
    sync
    sync_seconds=$((SECONDS - sync_started))
fi
build_seconds=$((SECONDS - build_started))
[ $# -gt 0 ] && exec swift test --skip-build "$@"

# Four lanes (the fourth, sharing the main one's machine gate, is described below) and a last
# check alone after them, as `frugal run`
# schedules workloads. The main lane holds everything judged on timing
# (launch, main-thread waiting, resume, watchdogs, shaping throughput), everything under memory
# pressure and the disk-writing workloads (their fsyncs stretch a neighbour's launch), one class
# after another. The lane beside it, a second test process at a lower priority (nice 10, so it
# yields the CPU whenever the main lane's runs want it), holds classes whose real runs sleep and
# are judged on counts (wakeups, bytes, files, exit codes), never on how long something took:
# black-box commands, `idle`,
# CLI exit codes; and CPU-bound classes that measure nothing (the report's screenshots in
# Chromium, the statistics' noise simulation, reports at scale, fuzz replays), which fill the core the main lane leaves idle
# (it uses about a third of one). A class not listed runs in the main lane: slower, never wrong.
# Issue 28 moved three CPU-bound ones here, about 26 s off the main lane: the report writers' golden
# digests and the Perfetto encoder's checks (records built by hand), and CLITraceTests, whose real
# runs are checked against their own traces and reports (a hang is judged "exceeded", which load
# only lengthens; the disk-write projection's bounds are wide), never against a time.
# The test binary is run directly, since a second `swift test` would wait for the first one's
# lock on .build.
# The network pairs (all ten at once, as `frugal run` runs them: 46 s) sleep through nearly all of
# their scenarios, but some of their
# audits read when the app issued its requests (network.enqueue-together, bursts): at nice 10
# beside two CPU hogs their apps (niced with the lane) waited tens of ms for a CPU between
# requests, and sync.burst read 0.89. They run in a third process at normal priority: asleep,
# they take next to nothing from the main lane. The black-box A/B and bisect checks (exact write
# counts of shell scripts) and the output-path refusals (exit codes and files) join them: about
# 30 s of the main lane, asleep or judged on counts.
# Three more classes join them (issue 28: CI's main lane was 352 s of a 356 s tests stage, this lane
# 142 s): apps and programs that sleep through their runs and are judged on counts, never on how
# long something took: AnyAppEvidenceRunTests (wakeups of a 25 Hz timer scored with a stray one a
# second to spare, refused and reset connections), VerdictsConfigCLITests (a quiet program and a
# 20 Hz poller), WakeupTraceTests (the shares of traced wakeups by cause, in the run's own cgroup,
# held to bounds measured beside two CPU hogs). About 33 s off the main lane. Two stay there:
# ThreadAttributionTests allows one stray wakeup, seen once beside its own runs alone (its light
# runs now sleep inside the main lane's batch of the default suite's pairs, as in `frugal run`); and
# ResourceWatchRunTests, whose `cat` of 24 MiB read 3980 bytes by rchar at load 20 in this lane and
# in one of two runs alone at load 8 (a race of the watch's own: it read the shell before the cat
# the shell then reaped; fixed, children are read first), and whose built-in checks read the main
# lane's batch of the default suite's pairs.
# ResourceSchedulerTests joins them (about 8 s of the main lane): its real runs are the idle app,
# asleep, and it judges the order of their starts and ends (two light runs overlap, nothing starts
# beside an exclusive run or a launch, the next run starts inside the first one's 3 s closing
# idle), each with a second or more to spare, never how long anything took. Its neighbour
# ResourceSchedulerGateTests is in the lane sharing the gate (below): one of its checks is a bound
# of 50 ms (an exclusive run starts that soon after a gated run's closing idle), and it holds the
# gate for that one.
# The CLI classes whose `frugal` runs are black-box programs judged on exit codes, files, strings
# and counts join them too (CLITests but for its two tests that need the machine, which are
# CLIHTTPSMachineTests; CLIRoundTwoTests, whose one bound is 15 s on a refusal; CLIStreamTests),
# and the gate's own checks, which make gates of their own and read order, or a lower bound
# (MachineGateTests, MachineGateCLITests): about 20 s of the main lane in which a sampler of
# /proc/locks saw the lanes' gate free.
network=(
    FrugalHarnessTests.NetworkWorkloadPairTests
    FrugalCLITests.ABCommandTests
    FrugalCLITests.CLIOutputPathTests
    FrugalHarnessTests.AnyAppEvidenceRunTests
    FrugalCLITests.VerdictsConfigCLITests
    FrugalHarnessTests.WakeupTraceTests
    FrugalHarnessTests.ResourceSchedulerTests
    FrugalCLITests.CLITests
    FrugalCLITests.CLIRoundTwoTests
    FrugalCLITests.CLIStreamTests
    FrugalHarnessTests.MachineGateTests
    FrugalCLITests.MachineGateCLITests
    # What Foundation kept, read or wrote in three light runs (UserDefaults, Bundle.main, the
    # cookie store), never a time.
    FrugalHarnessTests.FoundationOnLinuxRunTests
    # The sandbox watcher's bursts of a file held open, counted with gaps of 0.6 s, no run.
    FrugalHarnessTests.SandboxFileWatcherBurstTests
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
    FrugalReportTests.ReportOutputGoldenTests
    FrugalReportTests.PerfettoTraceTests
    # A sample app's worker computing for 0.7 s in the test process, judged on its CPU after a
    # pause (which nice 10 only makes smaller), never on a time.
    FrugalHarnessTests.IndexingAppPauseTests
    # Logic with no run and nothing timed (reports decoded and compared, SQLite, certificates
    # made, git's head read): about 6 s of the main lane in which its gate was free.
    FrugalReportTests.ReportJSONWithoutTimelinesTests
    FrugalHistoryTests.HistoryStoreTests
    FrugalReportTests.JSONNumberTests
    FrugalHarnessTests.RunCertificateTests
    FrugalReportTests.HostileReportTests
    FrugalCLITests.GitHeadTests
)
# The beside lane's scratch files (its runs' sandboxes, reports, Chromium's profile) go to a RAM
# file system when the machine has one: they dirtied 138 MiB of pages in its 112 s, against the
# disk the main lane's runs write to, and a good app's small save on its main thread waited
# 177 ms off the CPU beside a writer (`dd ... conv=fsync`) and failed main.no-waiting-on-main.
# On tmpfs the lane dirtied 23 MiB and its checks passed but one: CLITraceTests projects the
# disk bytes its app writes (write_bytes, which tmpfs never counts), so it runs after the others,
# on the disk, in a process of its own.
beside_on_disk=(
    FrugalCLITests.CLITraceTests
)
# A fourth lane shares the machine with the main one through a machine gate (FRUGAL_MACHINE_GATE,
# one file for both): each run holds the gate as its plan declares (MachineStepGate): a plan
# that declares nothing, for its whole run; a light one (asleep, judged on counts), for its
# launch; a gated one (judged on the timing of its launch, inputs, terminate or resume only),
# for those steps. Its classes' runs say which they are and why, beside each run; a test that
# times something without a run holds the gate itself (holdTheMachine). Their runs sleep beside
# the main lane's exclusive chain as `frugal run`'s light runs do (issue 28).
shared=(
    FrugalHarnessTests.BlackBoxRunTests
    FrugalHarnessTests.MainThreadIdiomTests
    FrugalHarnessTests.AllocatorReliefTests
    FrugalHarnessTests.ProgramMainThreadTests
    FrugalHarnessTests.StepKindRunTests
    FrugalHarnessTests.ScenarioRunnerTests
    FrugalHarnessTests.ProgramMemoryWarningTests
    FrugalHarnessTests.UnseenTrafficTests
    FrugalHarnessTests.MeasuredEnergyTests
    # ResourceSchedulerGateTests' one check that holds the gate (holdTheMachine) and
    # ProgramStartupTests' light runs take turns with the main lane's here, instead of adding to
    # its length.
    FrugalHarnessTests.ResourceSchedulerGateTests
    FrugalHarnessTests.ProgramStartupTests
)
# The lane's first process: tests that time something without a run and hold the gate for the
# whole test (holdTheMachine), about 12 s of holds. First, because the main lane's first 25 s
# (the default suite's pairs, whose exclusive runs wait for its gated runs' scenarios to end)
# left the gate free 18 s of 30 (a sampler of /proc/locks), and 11 s with these there.
shared_first=(
    FrugalHarnessTests.ShapingProxyTests
    FrugalHarnessTests.SandboxFileWatcherTests
    FrugalHarnessTests.SocketWatchGateTests
)
# Last, once every lane has ended, alone: a check whose bound is a couple of milliseconds on a
# wall time that no gate covers whole. ProgramWallTimeCLITests (frugal's fastest of 5 runs of a
# 3 ms program no more than 2 ms over posix_spawn's) read 6.6 ms against 4.3 ms at the main
# lane's end beside the other lanes' report building, in one run of four; alone it has passed in
# every run. About 2.5 s.
alone=(
    FrugalCLITests.ProgramWallTimeCLITests
)
bundle="$(swift build --show-bin-path)/FrugalPackageTests.xctest"
# The main lane: every class no other lane lists, from the bundle's own list (`--list-tests`, a
# tenth of a second), run by the bundle directly as the other lanes are (`swift test --skip-build
# --skip ...` took 3.7–6 s to load the package before its first test, on the stage's longest
# lane). A class a lane lists that the bundle does not have (renamed, removed) is an error here,
# not a class silently never run.
all_classes="$("$bundle" --list-tests | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u)"
[ -n "$all_classes" ] || { echo "test: $bundle listed no tests" >&2; exit 1; }
listed="$(printf '%s\n' "${beside[@]}" "${beside_on_disk[@]}" "${network[@]}" "${shared_first[@]}" "${shared[@]}" "${alone[@]}" | sort)"
duplicated="$(echo "$listed" | uniq -d)"
[ -z "$duplicated" ] || { echo "test: scripts/test.sh lists these classes in two lanes: $(echo $duplicated)" >&2; exit 1; }
missing="$(comm -13 <(echo "$all_classes") <(echo "$listed"))"
[ -z "$missing" ] || { echo "test: scripts/test.sh lists classes the test bundle does not have: $(echo $missing)" >&2; exit 1; }
main_classes="$(comm -23 <(echo "$all_classes") <(echo "$listed") | paste -sd, -)"
log="$(mktemp "${TMPDIR:-/tmp}/frugal-beside-tests.XXXXXX")"
network_log="$(mktemp "${TMPDIR:-/tmp}/frugal-network-tests.XXXXXX")"
shared_log="$(mktemp "${TMPDIR:-/tmp}/frugal-shared-tests.XXXXXX")"
alone_log="$(mktemp "${TMPDIR:-/tmp}/frugal-alone-tests.XXXXXX")"
times="$(mktemp -d "${TMPDIR:-/tmp}/frugal-lane-times.XXXXXX")"
# A RAM file system with room to spare for the beside lane's scratch (above), or the usual one:
# its checks run scripts they write there, so one mounted noexec will not do (a container's
# /dev/shm is often 64 MiB, a hardened one noexec).
beside_tmp="${TMPDIR:-/tmp}"
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt $((2 << 20)) ] \
    && ram_tmp="$(mktemp -d /dev/shm/frugal-beside-tests.XXXXXX 2>/dev/null)"; then
    printf '#!/bin/sh\nexit 0\n' > "$ram_tmp/probe" && chmod +x "$ram_tmp/probe"
    if "$ram_tmp/probe" 2>/dev/null; then rm -f "$ram_tmp/probe"; beside_tmp="$ram_tmp"; else rm -rf "$ram_tmp"; fi
fi
trap 'rm -rf "$log" "$network_log" "$shared_log" "$alone_log" "$times"; [ "$beside_tmp" = "${TMPDIR:-/tmp}" ] || rm -rf "$beside_tmp"' EXIT
gate="$times/machine-gate"
# Each lane's wall time and the CPU time of everything it ran (the test process and the apps and
# programs it waited for), printed at the end: which lane is the stage's length, and how much of
# the 2 cores the lanes used (issue 28).
timed() {
    local name="$1" TIMEFORMAT="%R %U %S" status=0; shift
    { time "$@" 2>&3 || status=$?; } 3>&2 2> "$times/$name"
    return "$status"
}
tests_started=$SECONDS
# One test process after another, each on one comma-joined list of classes; fails if any did.
in_turn() {
    local status=0 classes
    for classes in "$@"; do "$bundle" "$classes" || status=$?; done
    return "$status"
}
# The lane beside the others, at nice 10 (its children inherit it): its classes on the RAM file
# system, then those that need the disk.
beside_lane() {
    local status=0
    renice -n 10 -p "$BASHPID" > /dev/null
    TMPDIR="$beside_tmp" "$bundle" "$(IFS=,; echo "${beside[*]}")" || status=$?
    "$bundle" "$(IFS=,; echo "${beside_on_disk[*]}")" || status=$?
    return "$status"
}
timed beside beside_lane > "$log" 2>&1 &
beside_pid=$!
timed network "$bundle" "$(IFS=,; echo "${network[*]}")" > "$network_log" 2>&1 &
network_pid=$!
FRUGAL_MACHINE_GATE="$gate" timed shared in_turn "$(IFS=,; echo "${shared_first[*]}")" "$(IFS=,; echo "${shared[*]}")" \
    > "$shared_log" 2>&1 &
shared_pid=$!
status=0
# In a subshell of its own: the CPU time the shell counts for its children includes the lanes it
# reaps meanwhile.
(FRUGAL_MACHINE_GATE="$gate" timed main "$bundle" "$main_classes") || status=$?
beside_status=0
wait "$beside_pid" || beside_status=$?
network_status=0
wait "$network_pid" || network_status=$?
shared_status=0
wait "$shared_pid" || shared_status=$?
alone_status=0
timed alone "$bundle" "$(IFS=,; echo "${alone[*]}")" > "$alone_log" 2>&1 || alone_status=$?
# Everything but the start lines: a failure's message runs over several lines (a verdict table).
echo "test: the lane beside the others ($((${#beside[@]} + ${#beside_on_disk[@]})) classes$([ "$beside_tmp" = "${TMPDIR:-/tmp}" ] || echo ", scratch in $beside_tmp")):"
grep -v "Test Case .* started at" "$log" || true
echo "test: the network pairs' lane (${#network[@]} classes):"
grep -v "Test Case .* started at" "$network_log" || true
echo "test: the lane sharing the machine gate with the main one ($((${#shared_first[@]} + ${#shared[@]})) classes):"
grep -v "Test Case .* started at" "$shared_log" || true
echo "test: alone, after the lanes (${#alone[@]} classes):"
grep -v "Test Case .* started at" "$alone_log" || true
# .ci/run puts these lines in its table of stages (FRUGAL_LANE_TIMES names the file).
for lane in main beside network shared alone; do
    read -r wall user system < "$times/$lane" 2>/dev/null || { echo "test: $lane lane: no times"; continue; }
    line="$(printf '%-7s lane %4d s wall, %4d s of CPU' "$lane" "${wall%.*}" "$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.0f", u + s }')")"
    echo "test: $line"
    [ -z "${FRUGAL_LANE_TIMES:-}" ] || echo "$line" >> "$FRUGAL_LANE_TIMES"
done
echo "test: $((SECONDS - started)) s in all: set-up ${setup_seconds} s, build ${build_seconds} s$([ -z "${FRUGAL_BUILT:-}" ] && echo " (${sync_seconds} s of it writing it to disk)" || echo " (built before: FRUGAL_BUILT)"), tests $((SECONDS - tests_started)) s"
[ "$status" -eq 0 ] && [ "$beside_status" -eq 0 ] && [ "$network_status" -eq 0 ] && [ "$shared_status" -eq 0 ] \
    && [ "$alone_status" -eq 0 ] || {
    echo "test: failed (main lane $status, beside $beside_status, network pairs $network_status, sharing the gate $shared_status, alone $alone_status)" >&2
    exit 1
}
