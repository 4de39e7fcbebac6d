#!/usr/bin/env bash
# A generated suite of N short program runs (issue 28's scale check): N black-box programs
# (`sleep 30`, terminated after a 0.2 s wait) in a generated frugal.yml, run by `frugal run`
# as scheduled by demand, with its progress lines (to a file, as in a CI log). Prints, per suite: runs per minute, seconds and harness CPU seconds
# per run, the harness's peak memory (GNU time's maximum resident set: frugal's own; the
# programs are its children and GNU time reports the largest single process), and the
# schedule's efficiency from report.json (`schedule`: Σ run time ÷ (wall × cores), wall ÷
# the longest run). The cost per run should stay flat as N grows.
#   swift build -c release --product frugal
#   scripts/scale-bench.sh 10 100 1000                 # one line per N
#   REPEAT=3 scripts/scale-bench.sh 10 100             # each N three times (a shared machine: take the best)
#   FRUGAL=.build/debug/frugal scripts/scale-bench.sh 100
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FRUGAL:-}" ]; then
    FRUGAL=.build/release/frugal
    [ -x "$FRUGAL" ] || FRUGAL=.build/debug/frugal
fi
REPEAT="${REPEAT:-1}"
[ -x "$FRUGAL" ] || { echo "scale-bench: $FRUGAL is not built (swift build -c release --product frugal)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale-bench: needs GNU time (/usr/bin/time, apt-get install time)" >&2; exit 1; }
command -v jq >/dev/null || { echo "scale-bench: needs jq" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/frugal-scale.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "# $FRUGAL, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%6s %9s %10s %9s %11s %9s %14s %12s  %s\n' runs wall_s runs_per_min s_per_run cpu_s_per_run peak_MiB utilization wall/longest load
for count in ${*:-10 100}; do
    config="$work/frugal-$count.yml"
    {
        echo "apps:"
        for i in $(seq 1 "$count"); do
            printf '  - {name: p%04d, kind: program, executable: /bin/sleep, arguments: ["30"], scenarios: [short]}\n' "$i"
        done
        echo "scenarios:"
        echo "  short: {steps: [launch, {wait: 0.2}, terminate]}"
    } > "$config"
    for _ in $(seq 1 "$REPEAT"); do
        rm -rf "$work/out-$count"
        load="$(cut -d' ' -f1 /proc/loadavg)"
        started=$(date +%s.%N)
        # %M: peak resident KiB; %U %S: CPU seconds, frugal's and its reaped children's (the
        # `sleep`s, which use next to nothing).
        /usr/bin/time -f '%M %U %S' -o "$work/time" "$FRUGAL" run --config "$config" --no-history --out "$work/out-$count" >/dev/null 2>"$work/err" \
            || { status=$?; [ "$status" -eq 2 ] || { cat "$work/err" >&2; exit "$status"; }; }
        wall=$(echo "$(date +%s.%N) - $started" | bc)
        read -r rss user system < "$work/time"
        jq -r --arg wall "$wall" --arg rss "$rss" --arg cpu "$(echo "$user + $system" | bc)" --arg load "$load" \
            '.schedule as $s | ($wall|tonumber) as $w
             | "\($s.runs) \($w) \($s.runs / $w * 60) \($w / $s.runs) \(($cpu|tonumber) / $s.runs) \(($rss|tonumber) / 1024) \($s.utilization) \($s.wallOverLongest) \($load)"' \
            "$work/out-$count/report.json" \
            | awk '{ printf "%6d %9.1f %10.1f %9.3f %11.4f %9.1f %14.3f %12.2f  %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
    done
done
