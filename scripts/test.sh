#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set-up, linters, type checks, import contract,
# the Qt-free engine run, then every test offscreen. This is the README's test command.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
warplan_apt_install $WARPLAN_APT_OFFSCREEN
warplan_make_venv
cd "$WARPLAN_ROOT"
PY="$WARPLAN_VENV/bin/python"
export QT_QPA_PLATFORM=offscreen

echo "== ruff"
"$PY" -m ruff check engine gui benchmarks dataimport tests scripts packaging
echo "== mypy (strict; gui/ under its ratchet in pyproject.toml)"
"$PY" -m mypy engine gui benchmarks dataimport
echo "== import contract: engine never imports Qt"
"$WARPLAN_VENV/bin/lint-imports" --no-cache

echo "== engine tests with no Qt installed"
bash "$WARPLAN_ROOT/scripts/test-engine-without-qt.sh"

echo "== all tests"
"$PY" -m pytest "$@"
