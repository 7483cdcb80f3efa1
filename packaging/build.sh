#!/usr/bin/env bash
# Builds Warplan's one-folder package from a fresh machine with one command:
#     bash packaging/build.sh [--dist DIR] [--work DIR]
# 1. installs the Debian packages the build needs (Qt's libraries, binutils for PyInstaller),
# 2. creates a build venv from packaging/requirements-build.lock and the runtime pins of
#    requirements.lock (again only when a lock file changed; PyPI and Debian only),
# 3. renders the icons, freezes the app with PyInstaller (packaging/warplan.spec),
# 4. adds the desktop integration (install.sh, .desktop, MIME type, icons) and the docs,
# 5. runs the built app's --selftest-kernels (twice: compile, then load from the cache) and
#    --selftest offscreen, then packs DIST/warplan-VERSION-linux-ARCH.tar.gz.
# Output: DIST/warplan/ (default DIST: packaging/dist) and the .tar.gz next to it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/bootstrap.sh"

PACKAGING="$WARPLAN_ROOT/packaging"
DIST="$PACKAGING/dist"
WORK="$PACKAGING/build/pyinstaller"
BUILD_VENV="${WARPLAN_BUILD_VENV:-$PACKAGING/build/venv}"
while [ $# -gt 0 ]; do
    case "$1" in
        --dist) DIST="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
        --work) WORK="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "build.sh: unknown argument: $1" >&2; exit 1 ;;
    esac
done

# The xcb libraries are collected into the package with Qt's xcb platform plugin, so the
# built app opens a real window on a desktop that lacks them.
warplan_apt_install $WARPLAN_APT_OFFSCREEN $WARPLAN_APT_WINDOW binutils
# A bare Debian 12 has no Python at all; its python3 is the 3.11 the app needs.
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    warplan_apt_install python3 python3-venv ca-certificates
    PYTHON=python3
fi
if ! warplan_python_ok; then
    echo "build.sh: needs Python 3.11 (found: $("$PYTHON" --version 2>&1))" >&2
    exit 1
fi
"$PYTHON" -c 'import venv, ensurepip' 2>/dev/null || warplan_apt_install python3-venv
# PyInstaller bundles libpython; Debian's own python3 is linked statically and ships the
# shared library in a package of its own.
if ! "$PYTHON" -c 'import ctypes, sysconfig; ctypes.CDLL(sysconfig.get_config_var("INSTSONAME"))' 2>/dev/null; then
    warplan_apt_install "libpython$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
fi

started=$(date +%s)

# The runtime dependencies named in pyproject.toml, at the versions of requirements.lock.
runtime_requirements() {
    "$PYTHON" - "$WARPLAN_ROOT/pyproject.toml" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["dependencies"]))
PY
}

make_build_venv() {
    local stamp="$BUILD_VENV/.warplan-build-lock"
    local want
    want="$(cat "$PACKAGING/requirements-build.lock" "$WARPLAN_ROOT/requirements.lock" "$WARPLAN_ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$BUILD_VENV/bin/python" ]; then
        return 0
    fi
    echo "build.sh: creating the build venv $BUILD_VENV"
    rm -rf "$BUILD_VENV"
    "$PYTHON" -m venv "$BUILD_VENV"
    local requirements="$BUILD_VENV/runtime-requirements.txt"
    runtime_requirements > "$requirements"
    # The filter drops pip's notes about local package folders that this machine's pip
    # configuration names but that do not hold the package; real errors still show.
    "$BUILD_VENV/bin/python" -m pip install -q --disable-pip-version-check \
        -c "$WARPLAN_ROOT/requirements.lock" -r "$requirements" \
        -r "$PACKAGING/requirements-build.lock" \
        2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    "$BUILD_VENV/bin/python" -m pip check
    echo "$want" > "$stamp"
}
make_build_venv
BPY="$BUILD_VENV/bin/python"

version="$("$PYTHON" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$WARPLAN_ROOT/pyproject.toml")"
arch="$(uname -m)"

echo "build.sh: rendering icons"
icons="$WORK/icons"
rm -rf "$icons"
QT_QPA_PLATFORM=offscreen "$BPY" "$PACKAGING/render_icons.py" "$icons"

echo "build.sh: freezing the app with PyInstaller"
mkdir -p "$DIST" "$WORK"
"$BPY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$DIST" --workpath "$WORK" "$PACKAGING/warplan.spec"

app="$DIST/warplan"
echo "build.sh: adding desktop integration and documentation"
mkdir -p "$app/share/applications" "$app/share/mime/packages" "$app/share/doc/warplan"
cp "$PACKAGING/warplan.desktop" "$app/share/applications/warplan.desktop"
cp "$PACKAGING/warplan-mime.xml" "$app/share/mime/packages/warplan.xml"
cp -r "$icons" "$app/share/icons"
install -m 755 "$PACKAGING/install.sh" "$app/install.sh"
for doc in docs/user-guide.md docs/scenario-format.md; do
    if [ -f "$WARPLAN_ROOT/$doc" ]; then cp "$WARPLAN_ROOT/$doc" "$app/share/doc/warplan/"; fi
done
if [ -d "$WARPLAN_ROOT/docs/images" ]; then
    cp -r "$WARPLAN_ROOT/docs/images" "$app/share/doc/warplan/images"
fi
echo "$version" > "$app/VERSION"

echo "build.sh: self-test of the built app (offscreen)"
selftest_home="$(mktemp -d)"
# The kernels first, twice: the first run compiles them (minutes), the second loads them from
# the cache. The app's own --selftest then finds them there too. The cache stays in
# WORK/kernel-cache: the package's tests start from it instead of compiling again.
kernel_cache="$WORK/kernel-cache"
rm -rf "$kernel_cache"
selftest() {
    HOME="$selftest_home" XDG_CONFIG_HOME="$selftest_home/.config" \
        XDG_DATA_HOME="$selftest_home/.local/share" XDG_STATE_HOME="$selftest_home/.local/state" \
        XDG_CACHE_HOME="$kernel_cache" QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 \
        "$app/warplan" "$@"
}
for check in --selftest-kernels --selftest-kernels --selftest; do
    if ! selftest "$check"; then
        rm -rf "$selftest_home"
        echo "build.sh: the built app's $check failed" >&2
        exit 1
    fi
done
rm -rf "$selftest_home"

tarball="$DIST/warplan-$version-linux-$arch.tar.gz"
echo "build.sh: packing $tarball"
tar -C "$DIST" -czf "$tarball.partial" warplan
mv "$tarball.partial" "$tarball"

folder_size="$(du -sm "$app" | cut -f1)"
tar_size="$(( $(stat -c %s "$tarball") / 1048576 ))"
echo "build.sh: done in $(( $(date +%s) - started )) s: $app (${folder_size} MiB), $tarball (${tar_size} MiB)"
