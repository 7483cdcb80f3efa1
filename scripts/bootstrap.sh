# Sourced by scripts/run.sh and scripts/test.sh: makes the machine ready, then returns.
# 1. installs the Debian packages Qt needs (when root; otherwise prints the exact command),
# 2. creates .venv from requirements.lock (again only when the lock file changed),
# 3. puts the project's source tree on the environment's path,
# 4. compiles the line-of-sight kernels into numba's cache (when the venv was built, or the
#    kernels changed since the last warm-up), so the app never compiles them.
set -euo pipefail

WARPLAN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WARPLAN_VENV="${WARPLAN_VENV:-$WARPLAN_ROOT/.venv}"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

# Libraries Qt loads even offscreen; the xcb ones are for a real window; xvfb for screenshots.
WARPLAN_APT_OFFSCREEN="libglib2.0-0 libegl1 libgl1 libfontconfig1 fonts-dejavu-core libxkbcommon0 libdbus-1-3"
WARPLAN_APT_WINDOW="libxkbcommon-x11-0 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1 xvfb xauth"

warplan_apt_install() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "warplan: please install these system libraries: ${missing[*]}" >&2
        return 0
    fi
    if [ "$(id -u)" -eq 0 ]; then
        echo "warplan: installing system packages: ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "warplan: missing system packages; run:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
        return 1
    fi
}

warplan_python_ok() {
    "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null
}

# Debian 12's own python3 is 3.11; a bare container has none, and no CA bundle for pip either.
WARPLAN_APT_PYTHON="python3 python3-venv ca-certificates"

warplan_make_venv() {
    if ! warplan_python_ok; then
        warplan_apt_install $WARPLAN_APT_PYTHON || true
        command -v python3.11 >/dev/null 2>&1 && PYTHON=python3.11
    fi
    if ! warplan_python_ok; then
        echo "warplan: needs Python 3.11 (found: $("$PYTHON" --version 2>&1))" >&2
        return 1
    fi
    if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
        warplan_apt_install python3-venv
    fi
    local stamp="$WARPLAN_VENV/.warplan-lock"
    local want
    want="$(cat "$WARPLAN_ROOT/requirements.lock" "$WARPLAN_ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$WARPLAN_VENV/bin/python" ]; then
        warplan_kernel_cache_fresh || warplan_warm_up
        return 0
    fi
    echo "warplan: creating $WARPLAN_VENV from requirements.lock"
    "$PYTHON" -m venv "$WARPLAN_VENV"
    "$WARPLAN_VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
    "$WARPLAN_VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$WARPLAN_ROOT/requirements.lock"
    # The project runs from its source tree: a .pth file puts it on the venv's path.
    "$WARPLAN_VENV/bin/python" -c 'import sys, sysconfig, pathlib; pathlib.Path(sysconfig.get_paths()["purelib"], "warplan-source.pth").write_text(sys.argv[1] + "\n")' "$WARPLAN_ROOT"
    echo "$want" > "$stamp"
    warplan_warm_up
}

# numba caches compiled kernels next to their source (engine/__pycache__) when it can write
# there. A stamp beside them records the kernels' source and the venv the last warm-up ran
# with; a test that compiled only some kernels since an edit does not make the cache fresh.
WARPLAN_WARM_UP_STAMP="$WARPLAN_ROOT/engine/__pycache__/warplan-warm-up.stamp"

warplan_kernel_stamp() {
    cat "$WARPLAN_ROOT/engine/sight_kernel.py" "$WARPLAN_ROOT/engine/hidden_kernel.py" \
        "$WARPLAN_VENV/.warplan-lock" | sha256sum | cut -d' ' -f1
}

warplan_kernel_cache_fresh() {
    [ -f "$WARPLAN_WARM_UP_STAMP" ] && [ "$(cat "$WARPLAN_WARM_UP_STAMP")" = "$(warplan_kernel_stamp)" ]
}

# The first compile of the kernels takes minutes; done here, the app (and the first test that
# needs line of sight) loads them from numba's cache instead, in under a second. A read-only
# tree keeps no stamp, so warm-up runs each time and loads from the user's cache folder.
warplan_warm_up() {
    (cd "$WARPLAN_ROOT" && "$WARPLAN_VENV/bin/python" -m engine warm-up)
    { warplan_kernel_stamp > "$WARPLAN_WARM_UP_STAMP"; } 2>/dev/null || true
}
