#!/usr/bin/env bash
# Fuzzes what Frugal reads from others (Fuzz/Package.swift): the event stream, config files and
# report.json. Each target runs for SECONDS (default 60) under libFuzzer with a 2 s per-input
# timeout (a hang is a crash here) and a 2 GiB memory bound; a crash leaves its input in
# Fuzz/Artifacts/ and fails the script. Every crash found becomes a regression test
# (Tests/*/FuzzRegressionTests.swift).
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: FuzzEventStream FuzzConfig FuzzReport
# Corpora grow in Fuzz/.corpus/ (ignored by git), seeded from Fuzz/Corpus/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzEventStream FuzzConfig FuzzReport)
swift build -c release --sanitize=fuzzer >&2
bin="$(swift build -c release --sanitize=fuzzer --show-bin-path)"
mkdir -p Artifacts
status=0
for target in "${targets[@]}"; do
    case "$target" in
        FuzzEventStream) seed=event-stream ;;
        FuzzConfig) seed=config ;;
        FuzzReport) seed=report ;;
        *) echo "fuzz: unknown target $target" >&2; exit 1 ;;
    esac
    corpus=".corpus/$seed"
    mkdir -p "$corpus"
    echo "fuzz: $target for $seconds s" >&2
    if ! "$bin/$target" "$corpus" "Corpus/$seed" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 \
            -max_len=65536 -artifact_prefix="Artifacts/$target-" -print_final_stats=1 2>"Artifacts/$target.log"; then
        echo "fuzz: $target FAILED; its input and log are in Fuzz/Artifacts/" >&2
        tail -30 "Artifacts/$target.log" >&2
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "Artifacts/$target.log" | sed "s/^/fuzz: $target /" >&2 || true
done
exit $status
