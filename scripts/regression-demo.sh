#!/usr/bin/env bash
# Shows `frugal compare` catching a deliberate regression: news.coalesced 5 times as built, then
# 5 times checking ten times as often (FRUGAL_NEWS_CHECKS_PER_INPUT=10), compared. Expect exit 2
# naming power.avoid-polling first (the extra checks wake the app when nothing is pending).
#   scripts/regression-demo.sh [DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
dir="${1:-Reports/demo}"
swift build --product frugal-workload-host >&2 && swift build --product frugal >&2 || exit 3
FRUGAL=.build/debug/frugal
"$FRUGAL" run --workload news.coalesced --repeat 5 --no-history --quiet --out "$dir/base" > /dev/null || exit 3
FRUGAL_NEWS_CHECKS_PER_INPUT=10 "$FRUGAL" run --workload news.coalesced --repeat 5 --no-history --quiet --out "$dir/regressed" > /dev/null || exit 3
"$FRUGAL" compare "$dir/base/report.json" "$dir/regressed/report.json"
status=$?
echo "regression-demo: frugal compare exited $status (2 means the regression was found)" >&2
exit "$status"
