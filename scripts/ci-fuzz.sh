#!/usr/bin/env bash
# CI: each libFuzzer target (Fuzz/) for 15 s, 45 s in all, after building them with the fuzzer
# (a build of its own: FrugalCore, FrugalReport, FrugalConfig and Yams again, a few minutes on a
# clean clone). Fails on any crash or hang (> 2 s on one input). See docs/robustness.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz.sh 15
