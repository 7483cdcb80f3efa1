"""Renders the SVG icon sources into the PNG sizes of the freedesktop hicolor icon theme.

Usage: ``python packaging/render_icons.py OUT_DIR``. Writes
``OUT_DIR/hicolor/<N>x<N>/apps/warplan.png`` and
``OUT_DIR/hicolor/<N>x<N>/mimetypes/application-x-warplan-scenario.png`` for every size in
``SIZES``, plus the scalable SVGs, the layout ``install.sh`` copies into ``share/icons``.
Qt renders them (QtSvg ships with PySide6-Essentials), so the build needs no other tool.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICON_SOURCES = Path(__file__).resolve().parent / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256)
# (source file, icon-theme context, icon name)
ICONS = (
    ("warplan.svg", "apps", "warplan"),
    ("warplan-scenario.svg", "mimetypes", "application-x-warplan-scenario"),
)


def render_svg(source: Path, size: int) -> QImage:
    """One square, transparent PNG-ready image of ``source`` at ``size`` pixels."""
    renderer = QSvgRenderer(str(source))
    if not renderer.isValid():
        raise ValueError(f"{source}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def render_all(out_dir: Path) -> list[Path]:
    """Writes every icon of ``ICONS`` at every size of ``SIZES``; returns the files written."""
    written: list[Path] = []
    for source_name, context, icon_name in ICONS:
        source = ICON_SOURCES / source_name
        for size in SIZES:
            target = out_dir / "hicolor" / f"{size}x{size}" / context / f"{icon_name}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            if not render_svg(source, size).save(str(target), "PNG"):
                raise OSError(f"could not write {target}")
            written.append(target)
        scalable = out_dir / "hicolor" / "scalable" / context / f"{icon_name}.svg"
        scalable.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, scalable)
        written.append(scalable)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: render_icons.py OUT_DIR", file=sys.stderr)
        return 1
    app = QGuiApplication.instance() or QGuiApplication([])
    written = render_all(Path(argv[0]))
    print(f"rendered {len(written)} icon files into {argv[0]}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
