#!/usr/bin/env bash
# `frugal ab` on Examples/NotesApp with its regression switch: the same release build on both
# sides, the head with NOTES_REGRESSION=poll, N times; counts how often it says "regressed" and
# prints the shift and interval it names. Needs the example built in release first:
#   (cd Examples/NotesApp && swift build -c release --product NotesProfile)
#   scripts/ab-notes.sh [N] [DIR]          # default 10 in Reports/ab-notes
set -uo pipefail
cd "$(dirname "$0")/.."
count="${1:-10}"
dir="${2:-Reports/ab-notes}"
case "$dir" in /*) ;; *) dir="$(pwd)/$dir" ;; esac
FRUGAL="$(pwd)/${FRUGAL:-.build/debug/frugal}"
mkdir -p "$dir"
cd Examples/NotesApp
regressed=0
for i in $(seq 1 "$count"); do
  "$FRUGAL" ab --workload notes --scenario day --head-env NOTES_REGRESSION=poll \
    --base-products-dir .build/release --head-products-dir .build/release --quiet --out "$dir/$i" > "$dir/$i.txt" 2> "$dir/$i.err"
  status=$?
  [ "$status" -eq 2 ] && regressed=$((regressed + 1))
  echo "ab-notes: $i/$count: exit $status; $(grep -m1 '^frugal: ' "$dir/$i.err" | cut -c1-240)" >&2
done
echo "ab-notes: regressed in $regressed of $count A/B runs"
