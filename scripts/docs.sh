#!/usr/bin/env bash
# Builds FrugalKit's DocC documentation (Sources/FrugalKit/FrugalKit.docc and the /// comments)
# with the toolchain's docc, and fails on any documentation warning. Output: .build-docs/FrugalKit.doccarchive.
# Uses its own scratch path, so the main .build is not rebuilt with symbol-graph flags.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docs
graphs="$scratch/symbol-graphs"
rm -rf "$graphs" && mkdir -p "$graphs/FrugalKit"
# The graphs are written with FrugalKit's module: a second run with nothing changed emitted none.
# Without the module SwiftPM emits it again (only FrugalKit's; its dependencies stay built).
rm -f "$scratch"/debug/Modules/FrugalKit.swiftmodule
swift build --target FrugalKit --scratch-path "$scratch" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$(pwd)/$graphs"
cp "$graphs"/FrugalKit*.symbols.json "$graphs/FrugalKit/"
docc convert Sources/FrugalKit/FrugalKit.docc --additional-symbol-graph-dir "$graphs/FrugalKit" \
  --fallback-display-name FrugalKit --fallback-bundle-identifier org.frugal.FrugalKit \
  --output-dir "$scratch/FrugalKit.doccarchive" --analyze --warnings-as-errors
echo "docs: $scratch/FrugalKit.doccarchive"
