#!/usr/bin/env bash
# Set up, build, and run every test. Tests that need what this machine lacks (perf events,
# a PAPI that initialises) skip and say why.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Build the executables first: the harness and CLI tests run them as real processes.
swift build --product frugal-workload-host
swift build --product frugal
swift build --build-tests
exec swift test --skip-build "$@"
