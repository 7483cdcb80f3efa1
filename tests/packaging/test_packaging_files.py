"""The packaging sources are well-formed, without building anything (fast)."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
MIME_TYPE = "application/x-warplan-scenario"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def read_desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(PACKAGING / "warplan.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_opens_scenario_files_in_the_app() -> None:
    entry = read_desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Warplan"
    assert entry["Exec"] == "warplan %f"
    assert entry["Icon"] == "warplan"
    assert entry["Terminal"] == "false"
    assert MIME_TYPE in entry["MimeType"].rstrip(";").split(";")
    assert entry["Categories"].endswith(";")


def test_desktop_entry_passes_desktop_file_validate() -> None:
    validator = shutil.which("desktop-file-validate")
    if validator is None:
        pytest.skip("desktop-file-validate is not installed (apt-get install desktop-file-utils)")
    result = subprocess.run(
        [validator, str(PACKAGING / "warplan.desktop")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout


def test_mime_type_claims_warplan_json_files_and_their_content() -> None:
    root = ET.parse(PACKAGING / "warplan-mime.xml").getroot()
    assert root.tag == f"{MIME_NS}mime-info"
    (mime_type,) = root.findall(f"{MIME_NS}mime-type")
    assert mime_type.get("type") == MIME_TYPE
    globs = [g.get("pattern") for g in mime_type.findall(f"{MIME_NS}glob")]
    assert globs == ["*.warplan.json"]
    assert mime_type.find(f"{MIME_NS}sub-class-of").get("type") == "application/json"  # type: ignore[union-attr]
    icon = mime_type.find(f"{MIME_NS}icon")
    assert icon is not None
    assert icon.get("name") == MIME_TYPE.replace("/", "-")
    matches = [m.get("value") for m in mime_type.iter(f"{MIME_NS}match")]
    # Both spellings json.dumps produces, with and without the space after the colon.
    assert '"format": "warplan.scenario"' in matches
    assert '"format":"warplan.scenario"' in matches


def test_build_lock_pins_pyinstaller_6_22_and_each_of_its_dependencies() -> None:
    lines = [
        line.strip()
        for line in (PACKAGING / "requirements-build.lock").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    pins = dict(line.split("==") for line in lines)
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", line) for line in lines)
    assert re.fullmatch(r"6\.22\.\d+", pins["pyinstaller"])
    assert {"pyinstaller-hooks-contrib", "altgraph", "packaging", "setuptools"} <= pins.keys()


def test_build_lock_agrees_with_the_project_lock_on_shared_packages() -> None:
    def pins(path: Path) -> dict[str, str]:
        found = {}
        for line in path.read_text().splitlines():
            if "==" in line and not line.lstrip().startswith("#"):
                name, version = line.strip().split("==")
                found[name.lower()] = version
        return found

    build, project = pins(PACKAGING / "requirements-build.lock"), pins(ROOT / "requirements.lock")
    shared = build.keys() & project.keys()
    assert shared, "expected at least 'packaging' in both lock files"
    assert {name: build[name] for name in shared} == {name: project[name] for name in shared}


@pytest.mark.parametrize("name", ["warplan.svg", "warplan-scenario.svg"])
def test_icon_sources_are_valid_square_svgs(name: str, qapp: object) -> None:
    renderer = QSvgRenderer(str(PACKAGING / "icons" / name))
    assert renderer.isValid()
    size = renderer.defaultSize()
    assert size.width() == size.height() == 256


def test_icons_render_at_every_hicolor_size(tmp_path: Path, qapp: object) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("render_icons", PACKAGING / "render_icons.py")
    assert spec is not None
    assert spec.loader is not None
    render_icons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(render_icons)
    written = render_icons.render_all(tmp_path)
    assert len(written) == len(render_icons.ICONS) * (len(render_icons.SIZES) + 1)
    from PySide6.QtGui import QImage

    app_16 = QImage(str(tmp_path / "hicolor" / "16x16" / "apps" / "warplan.png"))
    assert (app_16.width(), app_16.height()) == (16, 16)
    # The corners are transparent (rounded tile), the middle is painted.
    assert app_16.pixelColor(0, 0).alpha() == 0
    assert app_16.pixelColor(8, 8).alpha() == 255
    mime_256 = tmp_path / "hicolor" / "256x256" / "mimetypes" / f"{MIME_TYPE.replace('/', '-')}.png"
    assert QImage(str(mime_256)).width() == 256


@pytest.mark.parametrize("script", ["build.sh", "install.sh"])
def test_shell_scripts_parse(script: str) -> None:
    subprocess.run(["bash", "-n", str(PACKAGING / script)], check=True)


def test_spec_is_valid_python_naming_the_launcher_and_the_assets() -> None:
    source = (PACKAGING / "warplan.spec").read_text()
    compile(source, "warplan.spec", "exec")
    assert "warplan_launcher.py" in source
    assert '"assets"' in source
    assert (PACKAGING / "warplan_launcher.py").exists()
