#!/usr/bin/env bash
# FrugalKit, which every app links, reaches neither FrugalCore nor FrugalProbe
# (scripts/check-module-graph.sh says why and how).
exec scripts/check-module-graph.sh
