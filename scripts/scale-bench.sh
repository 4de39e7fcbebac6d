#!/usr/bin/env bash
# A generated suite of N short program runs (issue 28's scale check): N black-box programs
# (`sleep 30`, terminated after a 0.2 s wait) in a generated frugal.yml, run by `frugal run`
# as scheduled by demand. Prints runs per minute, the harness's peak memory (GNU time's
# maximum resident set, frugal alone: the programs are its children, not counted) and the
# schedule's efficiency from report.json.
#   scripts/scale-bench.sh 10 100 1000        # one line per N
#   FRUGAL=.build/release/frugal scripts/scale-bench.sh 100
set -euo pipefail
cd "$(dirname "$0")/.."
FRUGAL="${FRUGAL:-.build/debug/frugal}"
[ -x "$FRUGAL" ] || { echo "scale-bench: $FRUGAL is not built (swift build --product frugal)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale-bench: needs GNU time (/usr/bin/time, apt-get install time)" >&2; exit 1; }
command -v jq >/dev/null || { echo "scale-bench: needs jq" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/frugal-scale.XXXXXX")"
trap 'rm -rf "$work"' EXIT
printf '%6s %9s %10s %12s %9s %14s %12s  %s\n' runs wall_s runs_per_min s_per_run peak_MiB utilization wall/longest load
for n in "${@:-10 100}"; do
    for count in $n; do
        config="$work/frugal-$count.yml"
        {
            echo "apps:"
            for i in $(seq 1 "$count"); do
                printf '  - {name: p%04d, kind: program, executable: /bin/sleep, arguments: ["30"], scenarios: [short]}\n' "$i"
            done
            echo "scenarios:"
            echo "  short: {steps: [launch, {wait: 0.2}, terminate]}"
        } > "$config"
        load="$(cut -d' ' -f1 /proc/loadavg)"
        started=$(date +%s.%N)
        /usr/bin/time -f '%M' -o "$work/rss" "$FRUGAL" run --config "$config" --no-history --quiet --out "$work/out-$count" >/dev/null 2>"$work/err" \
            || { status=$?; [ "$status" -eq 2 ] || { cat "$work/err" >&2; exit "$status"; }; }
        wall=$(echo "$(date +%s.%N) - $started" | bc)
        jq -r --arg wall "$wall" --arg rss "$(cat "$work/rss")" --arg load "$load" \
            '.schedule as $s | [$s.runs, ($wall|tonumber), ($s.runs / ($wall|tonumber) * 60), (($wall|tonumber) / $s.runs),
               (($rss|tonumber) / 1024), $s.utilization, $s.wallOverLongest, $load]
             | "\(.[0]) \(.[1]) \(.[2]) \(.[3]) \(.[4]) \(.[5]) \(.[6]) \(.[7])"' "$work/out-$count/report.json" \
            | awk '{ printf "%6d %9.1f %10.1f %12.3f %9.1f %14.3f %12.2f  %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
    done
done
