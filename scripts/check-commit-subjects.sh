#!/usr/bin/env bash
# Commit subjects of at most 72 characters, the why in the body (CONTRIBUTING.md). Checks the
# commits after BASE (default: the commit from which the project holds to it, below), so history
# from before the rule is not rewritten. Exits 1 naming each commit over the limit.
#
#   scripts/check-commit-subjects.sh            # every commit since the rule began
#   scripts/check-commit-subjects.sh origin/main # the commits a branch adds
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=72
# The last commit before subjects were kept short; every later one holds to the limit.
RULE_BEGAN=3c67fb5
base="${1:-$RULE_BEGAN}"
if ! git rev-parse --verify --quiet "$base^{commit}" > /dev/null; then
    # A shallow clone may not have it: check what there is, and say so.
    echo "check-commit-subjects: $base is not in this clone; checking the commits it has" >&2
    range=(HEAD)
else
    range=("$base..HEAD")
fi
# `git revert` writes `Revert "SUBJECT"` itself; the subject it quotes held to the limit when it
# was written, so a revert is measured by what it quotes (nesting reverts adds nothing either).
long=$(git log --no-merges --format='%h %s' "${range[@]}" | awk -v limit="$LIMIT" '
    { subject = substr($0, index($0, " ") + 1); measured = subject
      while (measured ~ /^Revert ".*"$/) measured = substr(measured, 9, length(measured) - 9) }
    length(measured) > limit { printf "  %s (%d characters)\n", $0, length(subject) }')
count=$(git rev-list --no-merges --count "${range[@]}")
if [ -n "$long" ]; then
    echo "check-commit-subjects: subjects over $LIMIT characters (put the why in the body):" >&2
    echo "$long" >&2
    exit 1
fi
echo "check-commit-subjects: $count commits, every subject within $LIMIT characters" >&2
