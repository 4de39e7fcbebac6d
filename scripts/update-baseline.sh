#!/usr/bin/env bash
# Regenerates Reports/baseline.json, which CI's regression check compares against: run it after
# adding or changing a built-in workload, then commit the file.
set -euo pipefail
exec "$(dirname "$0")/check-regressions.sh" --update
