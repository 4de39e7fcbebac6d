#!/usr/bin/env bash
# Presses Ctrl-C (SIGINT) at a random moment in each of RUNS runs of a suite and checks that
# nothing is left behind and every finished run is kept:
#   - frugal exits 130 (or 0 when the suite ended before the signal);
#   - when any run had finished, the report set is complete (report.json, report.html,
#     summary.md) and holds every run that stderr said finished, with its outcome;
#   - no sandbox, memory cgroup, report staging directory or workload process of that frugal is left.
#   scripts/interrupt-check.sh [RUNS] [MAX_SECONDS] [frugal run options...]
# Defaults: 20 runs of the default suite, the signal uniformly in [1, MAX_SECONDS] (default 170 s).
# Uses the debug build (.build/debug/frugal) unless FRUGAL is set. Exit 1 if any run fails a check.
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-20}"; shift || true
max="${1:-170}"; shift || true
frugal="${FRUGAL:-.build/debug/frugal}"
work="$(mktemp -d /tmp/frugal-interrupt-check.XXXXXX)"
tmp="${TMPDIR:-/tmp}"
failed=0
set -m  # a background job of a non-interactive shell ignores SIGINT without job control
for i in $(seq 1 "$runs"); do
    out="$work/run-$i"
    delay=$(( 1 + RANDOM % max ))
    # The mark reaches every process this frugal starts (they inherit its environment).
    FRUGAL_INTERRUPT_CHECK="$work/$i" "$frugal" run --no-history --out "$out" "$@" > "$work/stdout-$i" 2> "$work/stderr-$i" &
    pid=$!
    sleep "$delay"
    kill -INT "$pid" 2>/dev/null
    wait "$pid"; status=$?
    problems=()
    [ "$status" = 130 ] || [ "$status" = 0 ] || problems+=("exit $status")
    finished=$(grep -cE '^\[[0-9]+/[0-9]+\] .*: (completed|crashed|killed-watchdog|killed-memory|timed-out|harness-error)' "$work/stderr-$i")
    interrupted=$(grep -cE '^\[[0-9]+/[0-9]+\] .*: interrupted' "$work/stderr-$i")
    if [ $((finished + interrupted)) -gt 0 ]; then
        for file in report.json report.html summary.md; do [ -s "$out/$file" ] || problems+=("no $file"); done
        kept=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sum(1 for x in r["runs"] if x["outcome"]!="interrupted"))' "$out/report.json" 2>/dev/null || echo -1)
        [ "$kept" = "$finished" ] || problems+=("report keeps $kept finished runs, stderr said $finished")
    elif [ -e "$out" ]; then
        problems+=("a report was written though no run finished")
    fi
    ls -d "$tmp"/frugal-sandbox-*-"$pid"-* >/dev/null 2>&1 && problems+=("sandbox left")
    find /sys/fs/cgroup -maxdepth 6 -type d -name "frugal-*-$pid-*" 2>/dev/null | grep -q . && problems+=("cgroup left")
    ls -d "$work"/.run-"$i".frugal-staging-* >/dev/null 2>&1 && problems+=("staging directory left")
    sleep 0.5
    [ -n "$(grep -lsz "^FRUGAL_INTERRUPT_CHECK=$work/$i\$" /proc/[0-9]*/environ 2>/dev/null)" ] && problems+=("process left")
    if [ ${#problems[@]} -eq 0 ]; then
        echo "interrupt-check: run $i: SIGINT at ${delay}s, exit $status, $finished finished + $interrupted interrupted kept, nothing left"
    else
        echo "interrupt-check: run $i: SIGINT at ${delay}s: FAILED: ${problems[*]} (logs in $work)"
        failed=1
    fi
done
[ "$failed" = 0 ] && rm -rf "$work"
exit "$failed"
