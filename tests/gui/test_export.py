"""Exporting the battlefield writes valid PNG, SVG and PDF files, with caption and ruling."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage


def test_png_svg_pdf_are_valid(make_window, tmp_path: Path) -> None:
    window = make_window()
    window.scene.select_ids({"obj-centre"})
    png = window.export_to(tmp_path / "ruling.png", caption="Who holds the centre?")
    svg = window.export_to(tmp_path / "ruling.svg", caption="Who holds the centre?")
    pdf = window.export_to(tmp_path / "ruling.pdf", caption="Who holds the centre?")
    assert png is not None
    assert svg is not None
    assert pdf is not None

    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = QImage(str(png))
    assert image.width() == 1800
    assert image.height() > 1800 * 44 / 60
    # The table colour fills the battlefield's middle.
    middle = image.pixelColor(image.width() // 2 + 200, int(image.height() * 0.45))
    assert middle.name() != "#ffffff"

    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert "Who holds the centre?" in svg.read_text()
    assert svg.stat().st_size > 5_000

    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-"
    assert b"%%EOF" in data[-64:]
    assert pdf.stat().st_size > 2_000
    # Export leaves the selection as it was.
    assert window.scene.selection().objectives == frozenset({"obj-centre"})


def test_unknown_format_is_refused_with_a_dialog(make_window, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: shown.append(a))
    window = make_window()
    assert window.export_to(tmp_path / "ruling.bmp") is None
    assert len(shown) == 1
    assert not (tmp_path / "ruling.bmp").exists()


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_ruling_text_goes_into_the_export(make_window, tmp_path: Path, suffix: str) -> None:
    window = make_window()
    ruling = window.ruling.ruling_text()
    assert ruling
    path = window.export_to(tmp_path / f"with-ruling{suffix}", caption="")
    without = window.export_to(tmp_path / f"without{suffix}", include_ruling=False)
    assert path is not None
    assert without is not None
    if suffix == ".png":
        assert QImage(str(path)).height() > QImage(str(without)).height()
    else:
        assert path.stat().st_size > without.stat().st_size
