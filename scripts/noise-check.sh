#!/usr/bin/env bash
# How often does `frugal compare` cry wolf? Makes N reports of the same build (5 repetitions of
# each named workload) and compares every pair: each should exit 0. Reports the exit codes.
#   scripts/noise-check.sh N DIR [frugal run options, e.g. --workload news.coalesced]
# With DIR already holding same-*/report.json it only compares.
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:?N}"; dir="${2:?DIR}"; shift 2
FRUGAL="${FRUGAL:-.build/debug/frugal}"
mkdir -p "$dir"
for i in $(seq 1 "$count"); do
    [ -f "$dir/same-$i/report.json" ] && continue
    "$FRUGAL" run --repeat 5 --jobs 2 --no-history --quiet --out "$dir/same-$i" "$@" > /dev/null || echo "run $i: exit $?" >&2
done
pairs=0; zero=0
for i in $(seq 1 "$count"); do
    for j in $(seq $((i + 1)) "$count"); do
        out=$("$FRUGAL" compare "$dir/same-$i/report.json" "$dir/same-$j/report.json" 2>&1); status=$?
        pairs=$((pairs + 1)); [ "$status" -eq 0 ] && zero=$((zero + 1))
        [ "$status" -ne 0 ] && echo "same-$i vs same-$j: exit $status: $(echo "$out" | grep REGRESSED | head -3)"
    done
done
echo "noise-check: $zero of $pairs comparisons of the same build exited 0"
