#!/usr/bin/env bash
# CI: the checks that run beside the tests (.ci/run starts this under setsid and waits for it
# before the regression check, so no measured run of the check shares the machine with it).
#   scripts/ci-example-beside.sh READY BUILT
#   # READY: a file .ci/run creates once the tests' build is done; BUILT: one this script
#   # creates once every check's build has ended (done or failed), which .ci/run waits for
#   # before the tests start
#
# Each check is one line of CHECKS below: a name, the build it needs ("-" for none) and the
# check itself. Once the tests' build is done (READY exists):
# - every check's build starts at once, each at the lowest priority in a session of its own
#   (a scheduler autogroup, whose nice is what yields: scripts/ci-example-build.sh). They are
#   done before the tests start: beside the tests, a build's writes (hundreds of MB of objects)
#   stretched the memory-pressure runs' inputs (`gallery.purges` read 84 and 114 ms on
#   `main.no-long-blocks` in two CI runs, 13–19 ms alone; 2 of 14 runs beside the two builds
#   here, 1 of 8 beside `dd` writing 300 MB at a time, none of 8 beside two CPU hogs at nice 19).
#   During the tests' build, which keeps both cores busy, they could only take from it.
# - each check runs as soon as its own build is done, at nice 10 (as the tests' lane of CPU-bound
#   classes), one check at a time (a lock): their runs sleep nearly all the time, and what they
#   are judged on (that runs complete, that a poll every second is caught, each bad app failing
#   its own audit, the good one passing in the median of 3) does not move with the tests beside
#   them, but two checks' runs judged side by side would each be beside one more. Now that they
#   start with the tests, at normal priority their CPU (SwiftPM's plugin, the reports) crowded
#   the tests' judged runs: one CI run failed eight checks of timing and thread states. At the
#   lowest priority a launch could wait behind the tests' CPU past the launch watchdog.
# The lane ends when every check has; it fails when any build or check failed, after all have
# ended. Each check's output is printed whole as it ends, with its build, wait and check times.
set -euo pipefail
cd "$(dirname "$0")/.."
ready="${1:?usage: scripts/ci-example-beside.sh READY-FILE BUILT-FILE}"
built_signal="${2:?usage: scripts/ci-example-beside.sh READY-FILE BUILT-FILE}"
# NAME | BUILD (at nice 19, from the start) | CHECK (at nice 0, one at a time). Commands run from
# the repository root with FRUGAL_TOOL set to the frugal the tests' build made: nothing here
# builds in this checkout, whose .build the tests' `swift test` holds.
CHECKS=(
    "notes   | scripts/ci-example-build.sh | scripts/ci-example.sh"
    "weather | scripts/ci-weather-build.sh | scripts/ci-weather.sh 3"
)
# Examples/Corpus (issue 30; scripts/ci-corpus.sh, built by scripts/ci-corpus-build.sh) is not a
# check here yet: its verdicts are clean at --repeat 3 (406 s on a quiet machine, its README's
# "Status"), but even one repetition would add about 4 minutes past the tests to a CI over its
# 10-minute budget (issue 28). Run it by hand: scripts/ci-corpus.sh 3.
export FRUGAL_TOOL="$(pwd)/.build/debug/frugal"
work="$(mktemp -d "${TMPDIR:-/tmp}/frugal-beside.XXXXXX")"
lanes=()
# A failing CI ends this script (SIGTERM to its process group); each build has a session of its
# own, so each lane ends its build, and this ends the lanes.
trap 'for lane in ${lanes[@]+"${lanes[@]}"}; do kill -TERM "$lane" 2>/dev/null || true; done; wait; rm -rf "$work"' EXIT
trap 'exit 143' TERM INT
trim() { local text="$1"; text="${text#"${text%%[![:space:]]*}"}"; echo "${text%"${text##*[![:space:]]}"}"; }

# One check: its build in a session of its own at the lowest priority, then the check under the
# lock. Writes NAME.log and NAME.times (build and check seconds, or "failed").
lane() {
    local name="$1" build="$2" check="$3" started=$SECONDS pid=""
    trap '[ -n "$pid" ] && kill -- "-$pid" 2>/dev/null; exit 143' TERM
    if [ "$build" != "-" ]; then
        # Side by side: the tests wait for them (BUILT).
        setsid nice -n 19 bash -c "$build" &
        pid=$!
        if ! wait "$pid"; then
            echo "build failed after $((SECONDS - started)) s" > "$work/$name.times"
            touch "$work/$name.built"
            return 1
        fi
        pid=""
    fi
    touch "$work/$name.built"
    local built=$SECONDS
    exec 9> "$work/lock"
    flock 9
    local checking=$SECONDS status=0
    nice -n 10 bash -c "$check" || status=$?
    flock -u 9
    echo "build $((built - started)) s, waited $((checking - built)) s, check $((SECONDS - checking)) s$([ "$status" -eq 0 ] || echo ", failed (exit $status)")" > "$work/$name.times"
    return "$status"
}

while [ ! -e "$ready" ]; do sleep 1; done
names=()
for entry in "${CHECKS[@]}"; do
    IFS='|' read -r name build check <<< "$entry"
    name="$(trim "$name")"; build="$(trim "$build")"; check="$(trim "$check")"
    names+=("$name")
    lane "$name" "$build" "$check" > "$work/$name.log" 2>&1 &
    lanes+=($!)
done
# BUILT once every lane's build has ended; a lane that ended without one (killed) counts too,
# so .ci/run never waits for a build that will not come.
(
    for i in "${!names[@]}"; do
        while [ ! -e "$work/${names[$i]}.built" ] && kill -0 "${lanes[$i]}" 2>/dev/null; do sleep 0.2; done
    done
    touch "$built_signal"
) &
# Each check's output as soon as it ends (wait -n), so a CI that fails before this lane has ended
# still shows what had finished.
failed=()
pending=("${lanes[@]}")
while [ "${#pending[@]}" -gt 0 ]; do
    status=0
    wait -n -p ended "${pending[@]}" || status=$?
    still=()
    for i in "${!lanes[@]}"; do
        if [ "${lanes[$i]}" != "$ended" ]; then
            for pid in "${pending[@]}"; do [ "$pid" != "${lanes[$i]}" ] || still+=("$pid"); done
            continue
        fi
        [ "$status" -eq 0 ] || failed+=("${names[$i]}")
        echo "beside: ── ${names[$i]}: $(cat "$work/${names[$i]}.times" 2>/dev/null || echo "no times") (at $SECONDS s)"
        sed 's/^/    /' "$work/${names[$i]}.log"
    done
    pending=(${still[@]+"${still[@]}"})
done
lanes=()
[ "${#failed[@]}" -eq 0 ] || { echo "beside: failed: ${failed[*]}" >&2; exit 1; }
