#!/usr/bin/env bash
# The main job: set up, build, and run the default suite into Reports/latest/.
# Extra arguments go to `frugal run` (for example: --workload news.polling --repeat 3).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "run: building (release)" >&2
swift build -c release --product frugal-workload-host >&2
swift build -c release --product frugal >&2
exec .build/release/frugal run "$@"
