#!/usr/bin/env bash
# CI: Examples/Corpus's debug build (CorpusApps, with FrugalKit, FrugalProbe and FrugalCore
# again in its own .build) and its generated resources, ahead of scripts/ci-corpus.sh, whose own
# build then finds it done. scripts/ci-example-beside.sh starts this at the lowest priority once
# the tests' build is done, one example build at a time.
set -euo pipefail
# Started under setsid: a scheduler autogroup of its own, whose nice is what yields (see
# scripts/ci-example-build.sh).
if [ -w /proc/self/autogroup ]; then echo 19 > /proc/self/autogroup 2>/dev/null || true; fi
cd "$(dirname "$0")/../Examples/Corpus"
Fixtures/make-resources.sh
swift build --product CorpusApps
