#!/usr/bin/env bash
# The libFuzzer targets (Fuzz/) briefly: 15 s each, 45 s of fuzzing after their build
# (docs/robustness.md). A crash or a hang over 2 s on one input fails CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/ci-fuzz.sh
