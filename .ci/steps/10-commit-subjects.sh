#!/usr/bin/env bash
# Commit subjects within 72 characters (scripts/check-commit-subjects.sh says why and how).
exec scripts/check-commit-subjects.sh
