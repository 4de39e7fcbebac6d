#!/usr/bin/env bash
# The corpus's bundled resources, generated (not committed): a 32 MiB map tile file for the map
# apps, eight 1 MiB tab resources for the tab apps, and the journal apps' 4 MiB journal (Documents). Deterministic bytes, so runs compare.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p map tabs documents
# The journal app's user has 4,096 records of 1 KiB already.
[ -s documents/journal.db ] || head -c $((4 << 20)) /dev/zero | tr '\0' ' ' > documents/journal.db
[ -s map/tiles.bin ] || head -c $((32 << 20)) /dev/zero | tr '\0' 'T' > map/tiles.bin
for tab in 0 1 2 3 4 5 6 7; do
  [ -s "tabs/tab-$tab.bin" ] || head -c $((1 << 20)) /dev/zero | tr '\0' "$tab" > "tabs/tab-$tab.bin"
done
