"""docs/user-guide.md matches the app: its pictures exist, its links work, its shortcuts are
the app's own."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtGui import QAction, QKeySequence

from packaging_support import ROOT

GUIDE = ROOT / "docs" / "user-guide.md"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def guide_text() -> str:
    return GUIDE.read_text(encoding="utf-8")


def load_generator() -> ModuleType:
    path = ROOT / "packaging" / "user_guide_screenshots.py"
    spec = importlib.util.spec_from_file_location("user_guide_screenshots", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["user_guide_screenshots"] = module
    spec.loader.exec_module(module)
    return module


def guide_shortcuts() -> dict[str, str]:
    block = re.search(
        r"<!-- shortcuts:begin -->\n(.*?)<!-- shortcuts:end -->", guide_text(), re.DOTALL
    )
    assert block is not None, "the guide's shortcut table lost its markers"
    rows = re.findall(r"^\| (.+?) \| `(.+?)` \|$", block.group(1), re.MULTILINE)
    return dict(rows)


def test_every_picture_the_guide_shows_is_a_png_in_docs_images() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", guide_text())
    assert len(pictures) >= 4
    for picture in pictures:
        path = GUIDE.parent / picture
        assert path.parent == ROOT / "docs" / "images", picture
        assert path.read_bytes()[:8] == PNG_MAGIC, picture


def test_the_guide_shows_every_picture_the_generator_makes() -> None:
    generator = load_generator()
    names = [shot.file_name for shot in (*generator.SHOTS, generator.EXPORT_SHOT)]
    for name in names:
        assert f"(images/{name})" in guide_text(), name


def test_relative_links_resolve() -> None:
    links = re.findall(r"\]\((?!https?:|#)([^)#]+)\)", guide_text())
    assert "scenario-format.md" in links
    for link in links:
        assert (GUIDE.parent / link).exists(), link


def test_anchors_of_the_contents_exist() -> None:
    headings = re.findall(r"^## (.+)$", guide_text(), re.MULTILINE)
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in headings}
    for anchor in re.findall(r"\]\(#([^)]+)\)", guide_text()):
        assert anchor in anchors, anchor


def platform_standard_keys() -> set[str]:
    keys: set[str] = set()
    for standard in QKeySequence.StandardKey:
        for binding in QKeySequence.keyBindings(standard):
            keys.add(binding.toString(QKeySequence.SequenceFormat.PortableText))
    return keys


@pytest.fixture
def app_window(qapp: object, tmp_path: Path):  # type: ignore[no-untyped-def]
    generator = load_generator()
    window = generator.open_demo_window(tmp_path)
    yield generator, window
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()


def test_shortcut_table_is_the_apps(app_window) -> None:  # type: ignore[no-untyped-def]
    generator, window = app_window
    in_guide = guide_shortcuts()
    in_app = dict(generator.shortcut_rows(window))
    assert in_app, "the app defines no shortcut at all?"
    standard = platform_standard_keys()
    for action, keys in in_app.items():
        assert action in in_guide, f"{action} ({keys}) is missing from the guide"
        if keys not in standard:
            # Keys the app chose itself are the same on every desktop.
            assert in_guide[action] == keys, action
    action_names = {
        a.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        for a in window.findChildren(QAction)
    }
    for action in in_guide:
        assert action in action_names, f"the guide lists {action!r}, which the app lacks"
