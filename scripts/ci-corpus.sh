#!/usr/bin/env bash
# CI: Examples/Corpus (issue 30) — good and bad app cores in everyday Swift, one pair per audit
# the built-in suite pairs, and real Linux programs run as black boxes, each declared good or bad
# (with its audit and twin) by `verdict:` in its frugal.yml. Builds the corpus (debug, lowest
# priority), runs it with `frugal run --repeat REPEAT`, and judges it with
# `frugal verdicts --config frugal.yml`: any false alarm, miss or pair not separated fails.
#   scripts/ci-corpus.sh [REPEAT] [frugal run options...]   # REPEAT: default 3
# e.g. scripts/ci-corpus.sh 1 --workload inbox.polls-file --workload inbox.on-demand
# Measured on the shared 2-core VM (load 13-33 from other builds): 459 s at --repeat 3 (81 runs;
# the corpus's debug build incremental, 3 s; about 2 min from clean). The apps' launches and inputs
# have the machine to themselves, one after another; their closing waits (2 s or more) and the
# long network scenarios sleep side by side. --jobs 3 was no faster (494 s): it caps those too.
# Debug, not release, as scripts/ci-weather.sh: what is judged is the apps' waits, wakeups and
# bytes, not how fast their own code runs (the two CPU-bound bad apps block for longer in debug).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
repeat="${1:-3}"
shift || true
if [ -z "${FRUGAL_TOOL:-}" ]; then
  swift build --product frugal >/dev/null
  export FRUGAL_TOOL="$root/.build/debug/frugal"
fi
[ -x "$FRUGAL_TOOL" ] || { echo "ci-corpus: FRUGAL_TOOL=$FRUGAL_TOOL is not an executable" >&2; exit 1; }
cd Examples/Corpus
started=$SECONDS
Fixtures/make-resources.sh
nice -n 19 swift build --product CorpusApps
echo "ci-corpus: debug build done after $((SECONDS - started)) s"
products="$(swift build --show-bin-path)"
out=Reports/ci
mkdir -p Reports
rm -rf "$out"
set +e
"$FRUGAL_TOOL" run --config frugal.yml --products-dir "$products" --repeat "$repeat" --no-history --quiet --out "$out" "$@" \
  > Reports/ci-run.log 2>&1
status=$?
set -e
mv Reports/ci-run.log "$out/run.log" 2>/dev/null || true
ran=$((SECONDS - started))
# 2: the assertions (the bad apps fail theirs, as they should); anything else but 0 is the
# harness or the config failing.
if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
  cat "$out/run.log" >&2
  echo "ci-corpus: frugal run failed (exit $status)" >&2
  exit 1
fi
echo "ci-corpus: $repeat repetitions run after $ran s"
set +e
"$FRUGAL_TOOL" verdicts --config frugal.yml "$out/report.json" | tee "$out/verdicts.txt"
verdicts=${PIPESTATUS[0]}
set -e
echo "ci-corpus: $((SECONDS - started)) s in all"
if [ "$verdicts" -ne 0 ]; then
  echo "ci-corpus: the corpus's verdicts are not clean (frugal verdicts exit $verdicts): see $root/Examples/Corpus/$out/verdicts.txt" >&2
  exit 1
fi
