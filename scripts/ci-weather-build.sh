#!/usr/bin/env bash
# CI: Examples/WeatherApp's debug build (WeatherProfile, with FrugalKit, FrugalProbe and
# FrugalCore again in its own .build) and its generated fixture, ahead of scripts/ci-weather.sh,
# whose own build then finds it done. scripts/ci-example-beside.sh starts this at the lowest
# priority, beside the NotesApp example's release build, as soon as the tests' build is done.
set -euo pipefail
# Started under setsid: a scheduler autogroup of its own, whose nice is what yields (see
# scripts/ci-example-build.sh).
if [ -w /proc/self/autogroup ]; then echo 19 > /proc/self/autogroup 2>/dev/null || true; fi
cd "$(dirname "$0")/../Examples/WeatherApp"
[ -f Fixtures/Documents/history.json ] || python3 Fixtures/make-history.py >/dev/null
swift build --product WeatherProfile
