#!/bin/bash
# The harness's own CPU beside an idle program (issue 31, "a lighter harness").
# Usage: scripts/harness-cost.sh [FRUGAL] [OUT]   (default: .build/release/frugal, a temporary directory)
# Prints two numbers: the whole invocation's CPU (/usr/bin/time's user + system, which includes
# the reaped program, less the program's own cpu.timeSeconds from the report) over its wall
# time, and the steady part: the harness's threads' on-CPU time (schedstat) from 2 s to 9 s.
# Run it several times on a shared machine and take the best: other jobs inflate it.
set -euo pipefail
FRUGAL=${1:-.build/release/frugal}
OUT=${2:-$(mktemp -d)}
/usr/bin/time -f "%U %S %e" -o "$OUT.time" "$FRUGAL" run --no-trace --quiet --out "$OUT" -- sleep 10 >/dev/null 2>&1 &
TIME_PID=$!
sleep 0.5
PID=$(pgrep -P "$TIME_PID" | head -1)
oncpu() { cat /proc/"$PID"/task/*/schedstat 2>/dev/null | awk '{s+=$1} END {print s}'; }
sleep 1.5
a=$(oncpu); ta=$(date +%s.%N)
sleep 7
b=$(oncpu); tb=$(date +%s.%N)
wait "$TIME_PID"
child=$(python3 -c "import json;print(json.load(open('$OUT/report.json'))['runs'][0]['metrics']['cpu.timeSeconds']['value'])")
read -r U S E < "$OUT.time"
python3 -c "
u, s, e, c = $U, $S, $E, $child
print(f'whole: harness CPU {u + s - c:.3f} s over {e:.2f} s = {100 * (u + s - c) / e:.2f}% of a core; steady 2-9 s: {100 * ($b - $a) / 1e9 / ($tb - $ta):.2f}%')"
