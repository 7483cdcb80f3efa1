#!/usr/bin/env bash
# Sets everything up and opens Warplan on the built-in demo scenario. This is the README's run command.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
warplan_apt_install $WARPLAN_APT_OFFSCREEN $WARPLAN_APT_WINDOW
warplan_make_venv
cd "$WARPLAN_ROOT"
exec "$WARPLAN_VENV/bin/python" -m gui "$@"
