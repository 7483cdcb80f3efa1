#!/usr/bin/env bash
# Proves engine/ and its tests need no Qt: a separate environment with only the engine's
# dependencies (no PySide6, no pyqtgraph, no pytest-qt) runs tests/engine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
NOQT_VENV="$WARPLAN_ROOT/.venv-noqt"
want="$(grep -E '^(shapely|numpy|numba|llvmlite|pytest|pluggy|iniconfig|packaging|Pygments|hypothesis|sortedcontainers)==' "$WARPLAN_ROOT/requirements.lock")"
stamp="$NOQT_VENV/.warplan-lock"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$PYTHON" -m venv "$NOQT_VENV"
    echo "$want" > "$NOQT_VENV/requirements.txt"
    "$NOQT_VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$NOQT_VENV/requirements.txt"
    echo "$want" > "$stamp"
fi
cd "$WARPLAN_ROOT"
if "$NOQT_VENV/bin/python" -c 'import PySide6' 2>/dev/null; then
    echo "the Qt-free environment has PySide6" >&2
    exit 1
fi
# -p no:qt: pytest-qt is not installed here; the ini's qt_api key is then unknown, so relax strictness.
"$NOQT_VENV/bin/python" -m pytest -q -p no:cacheprovider -o addopts="-ra" -o qt_api=pyside6 --doctest-modules tests/engine engine -W ignore::pytest.PytestConfigWarning
