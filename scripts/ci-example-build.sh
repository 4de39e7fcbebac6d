#!/usr/bin/env bash
# CI: the example app's release build (Examples/NotesApp: NotesProfile, with FrugalKit,
# FrugalProbe and FrugalCore again in its own .build), ahead of scripts/ci-example.sh, whose
# `swift package frugal run` then finds it built (the plugin builds the same product in the same
# configuration). .ci/run starts this at the lowest priority while the tests run, which mostly
# sleep through real scenarios, and waits for it before the regression check, so no measured
# run ever shares the machine with it.
set -euo pipefail
cd "$(dirname "$0")/../Examples/NotesApp"
swift build -c release --product NotesProfile
