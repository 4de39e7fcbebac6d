#!/usr/bin/env bash
# A/A check of `frugal ab`: N comparisons of one build against itself, beside a CPU hog, counting
# the answers (0 unchanged, 2 regressed, 4 inconclusive). A false "regressed" is a gate that would
# have failed a good change. The workload is a short black-box program (five 20 ms sleeps, then a
# 64 KiB write and its fsync): wakeups, CPU time, memory and disk, a few seconds a comparison.
#   scripts/ab-aa.sh [N] [DIR]        # default 50 comparisons in Reports/ab-aa
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:-50}"
dir="${2:-Reports/ab-aa}"
FRUGAL="${FRUGAL:-.build/debug/frugal}"
mkdir -p "$dir"
program="$dir/aa-program.sh"
cat > "$program" <<'PROGRAM'
#!/bin/sh
i=0
while [ $i -lt 5 ]; do sleep 0.02; i=$((i + 1)); done
file="${TMPDIR:-/tmp}/aa.$$"
head -c 65536 /dev/zero > "$file" && sync "$file" && rm -f "$file"
PROGRAM
chmod +x "$program"
yes > /dev/null &
hog=$!
trap 'kill "$hog" 2>/dev/null' EXIT
unchanged=0 regressed=0 inconclusive=0 other=0
for i in $(seq 1 "$count"); do
  "$FRUGAL" ab --repeat 6 --max-repeat 10 --quiet --out "$dir/$i" -- "$program" > "$dir/$i.txt" 2> "$dir/$i.err"
  status=$?
  case $status in
    0) unchanged=$((unchanged + 1)) ;;
    2) regressed=$((regressed + 1)); echo "ab-aa: comparison $i regressed: $(grep -m1 REGRESSED "$dir/$i.txt")" >&2 ;;
    4) inconclusive=$((inconclusive + 1)) ;;
    *) other=$((other + 1)); echo "ab-aa: comparison $i exited $status: $(tail -1 "$dir/$i.err")" >&2 ;;
  esac
  echo "ab-aa: $i/$count: unchanged $unchanged, regressed $regressed, inconclusive $inconclusive, other $other" >&2
done
echo "ab-aa: $count A/A comparisons beside a CPU hog: $regressed regressed (false), $inconclusive inconclusive, $unchanged unchanged, $other failed"
