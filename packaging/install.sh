#!/usr/bin/env bash
# Installs the unpacked Warplan package for this user (or, as root, for everyone) and
# registers it with the desktop: menu entry, icon, and the scenario file type
# (*.warplan.json, application/x-warplan-scenario) opening in Warplan.
#     ./install.sh [--prefix DIR] [--uninstall]
# Default DIR: ~/.local (root: /usr/local). The app goes to DIR/lib/warplan, the command to
# DIR/bin/warplan, the desktop files to DIR/share. It also compiles the line-of-sight kernels
# into this user's cache ($XDG_CACHE_HOME/warplan/kernels), so the first start does not.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ "$(id -u)" -eq 0 ]; then PREFIX=/usr/local; else PREFIX="$HOME/.local"; fi
ACTION=install
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --uninstall) ACTION=uninstall; shift ;;
        -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "install.sh: unknown argument: $1" >&2; exit 1 ;;
    esac
done
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
APP_DIR="$PREFIX/lib/warplan"
BIN="$PREFIX/bin/warplan"
SHARE="$PREFIX/share"
ICON_FILES=()
while IFS= read -r -d '' icon; do
    ICON_FILES+=("${icon#"$HERE/share/icons/"}")
done < <(find "$HERE/share/icons" -type f -print0)

refresh_desktop_caches() {
    if command -v update-mime-database >/dev/null 2>&1; then
        update-mime-database "$SHARE/mime" >/dev/null 2>&1 || true
    fi
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database "$SHARE/applications" >/dev/null 2>&1 || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1; then
        gtk-update-icon-cache --quiet --force --ignore-theme-index "$SHARE/icons/hicolor" \
            >/dev/null 2>&1 || true
    fi
}

KERNEL_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/warplan/kernels"

if [ "$ACTION" = uninstall ]; then
    rm -rf "$APP_DIR" "$KERNEL_CACHE"
    rm -f "$BIN" "$SHARE/applications/warplan.desktop" "$SHARE/mime/packages/warplan.xml"
    for icon in "${ICON_FILES[@]}"; do rm -f "$SHARE/icons/$icon"; done
    refresh_desktop_caches
    echo "Warplan removed from $PREFIX"
    exit 0
fi

# Qt needs these from the system even in a self-contained package (platform notes).
missing=()
for pkg in libegl1 libgl1 fontconfig-config; do
    if command -v dpkg-query >/dev/null 2>&1 &&
        ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "install.sh: installing system libraries: ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    else
        echo "install.sh: Warplan needs these system libraries; run:" >&2
        echo "  sudo apt-get install -y ${missing[*]}" >&2
    fi
fi

if [ "$HERE" != "$APP_DIR" ]; then
    rm -rf "$APP_DIR"
    mkdir -p "$APP_DIR"
    cp -a "$HERE/." "$APP_DIR/"
fi
mkdir -p "$PREFIX/bin" "$SHARE/applications" "$SHARE/mime/packages"
ln -sfn "$APP_DIR/warplan" "$BIN"
# Desktops do not search ~/.local/bin: the entry names the command by its full path.
sed -e "s|^Exec=warplan |Exec=$BIN |" -e "s|^TryExec=warplan\$|TryExec=$BIN|" \
    "$HERE/share/applications/warplan.desktop" > "$SHARE/applications/warplan.desktop"
cp "$HERE/share/mime/packages/warplan.xml" "$SHARE/mime/packages/warplan.xml"
for icon in "${ICON_FILES[@]}"; do
    mkdir -p "$(dirname "$SHARE/icons/$icon")"
    cp "$HERE/share/icons/$icon" "$SHARE/icons/$icon"
done
refresh_desktop_caches
if command -v xdg-mime >/dev/null 2>&1; then
    xdg-mime default warplan.desktop application/x-warplan-scenario >/dev/null 2>&1 || true
fi

# The first compile of the kernels takes minutes; done now, the app loads them from the cache.
echo "install.sh: compiling the line-of-sight kernels for $(id -un) (minutes, this once)"
if ! "$APP_DIR/warplan" --selftest-kernels >/dev/null; then
    echo "install.sh: the line-of-sight kernels did not compile; Warplan will try again when" >&2
    echo "  it first needs them (details: $BIN --selftest-kernels)" >&2
fi

echo "Warplan installed in $APP_DIR"
echo "  start it from your desktop's menu, open a *.warplan.json file, or run: $BIN"
case ":$PATH:" in
    *":$PREFIX/bin:"*) ;;
    *) echo "  ($PREFIX/bin is not on your PATH; add it to run 'warplan' by name)" ;;
esac
