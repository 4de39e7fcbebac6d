#!/usr/bin/env bash
# CI: the example app's release build (Examples/NotesApp: NotesProfile, with FrugalKit,
# FrugalProbe and FrugalCore again in its own .build), ahead of scripts/ci-example.sh, whose
# `swift package frugal run` then finds it built (the plugin builds the same product in the same
# configuration). .ci/run starts this at the lowest priority while the tests run, which mostly
# sleep through real scenarios, and waits for it before the regression check, so no measured
# run ever shares the machine with it.
set -euo pipefail
# .ci/run starts this under setsid, which (with the kernel's scheduler autogroups, on by default
# on Debian) puts it in a group of its own that gets an equal share of the CPU whatever its nice
# value: measured, it took half the cores from the tests' own build. The group's nice is what
# yields (sched(7), "The autogroup feature"); raising it needs no privilege.
if [ -w /proc/self/autogroup ]; then echo 19 > /proc/self/autogroup 2>/dev/null || true; fi
cd "$(dirname "$0")/../Examples/NotesApp"
swift build -c release --product NotesProfile
