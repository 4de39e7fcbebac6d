#!/usr/bin/env bash
# The main job: set up, build, and run the default suite into Reports/latest/.
# Extra arguments go to `frugal run` (for example: --workload news.polling --repeat 3).
# Says which stage it is in (packages, build, suite) and how long each took, on standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
# A debug build by default: the configuration CI judges the suite in (its verdicts, and its
# regression check against Reports/baseline.json, which was recorded in debug), and much
# quicker to build on a fresh machine than a release build of the same graph (swift-nio,
# swift-nio-ssl, swift-crypto's BoringSSL under whole-module optimisation), which was most of a
# new user's first run. FRUGAL_CONFIGURATION=release builds release: the harness's own cost is
# then lowest (docs/BLACK-BOX.md measures it there), but CI checks the verdicts of a debug build.
configuration="${FRUGAL_CONFIGURATION:-debug}"
case "$configuration" in
    debug|release) ;;
    *) echo "run: FRUGAL_CONFIGURATION must be debug or release, not '$configuration'" >&2; exit 64 ;;
esac
started=$SECONDS
times=()
stage() {
    local name="$1"; shift
    local began=$SECONDS
    echo "run: ── $name" >&2
    "$@"
    times+=("$name $((SECONDS - began)) s")
    echo "run: ── $name: $((SECONDS - began)) s" >&2
}
# Packages: what the system needs (scripts/setup.sh), then the Swift packages resolved.
packages() { scripts/setup.sh && swift package resolve >&2; }
stage "packages" packages
# A release build is the one whose own cost docs/BLACK-BOX.md measures ("What watching costs"):
# the Swift runtime and Foundation linked in (no loader work for their 14 shared libraries), and
# generic type metadata made through its accessors, not looked up by mangled name (each first
# use of a generic type over a protocol, `KeyedEncodingContainer<CodingKeys>` say, otherwise
# scans every protocol conformance of the process). Both flags only change how it is built.
flags=()
if [ "$configuration" = release ]; then
    flags=(--static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
fi
# Both products (SwiftPM takes one --product a build), with SwiftPM's progress ([n/N]) as it goes.
build() { swift build -c "$configuration" ${flags[@]+"${flags[@]}"} --product frugal-workload-host >&2 && swift build -c "$configuration" ${flags[@]+"${flags[@]}"} --product frugal >&2; }
stage "build ($configuration)" build
echo "run: ── suite (frugal run: its progress and time left below)" >&2
suite_started=$SECONDS
status=0
".build/$configuration/frugal" run "$@" || status=$?
times+=("suite $((SECONDS - suite_started)) s")
echo "run: $((SECONDS - started)) s in all: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')" >&2
exit "$status"
