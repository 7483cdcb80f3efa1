"""The main window. It only composes: the battlefield view, the docks (each with a stable
``objectName``), the actions, menus and toolbars; the document, scene, live rules and overlays
do the work.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QPointF, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QColor,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QPainter,
    QPalette,
    QPixmap,
    QShowEvent,
)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QToolBar,
    QWidget,
)

from engine.annotations import add_annotation, remove_annotations
from engine.edits import Selection, remove_selection
from engine.errors import WarplanError
from engine.evaluate import Evaluation
from engine.model import EMPTY, Battlefield, Player, Scenario, thaw
from engine.rulesets.wh40k_ca2026.generator import game_in_progress
from engine.ruling import text_section
from gui import theme
from gui.app import ICON_DIR
from gui.docks.deploy import DeployPanel
from gui.docks.inspector import InspectorPanel
from gui.docks.lessons import LessonsPanel
from gui.docks.palette import PalettePanel
from gui.docks.planning import install_planning
from gui.docks.reserves import ReservesPanel
from gui.docks.ruling import BoardHighlight, RulingPanel, ruling_for, ruling_sections_for
from gui.docks.timeline import TimelinePanel
from gui.document import Change, ScenarioDocument
from gui.export import EXPORT_FILTER, export_battlefield
from gui.files import AutosaveStore, FileController, error_text
from gui.live import AnalysisResult, LiveRules
from gui.overlays.controller import OVERLAY_NAMES, OverlayController
from gui.panels.about import AboutDialog
from gui.panels.army_import import ArmyImportDialog
from gui.panels.arrival_controls import ArrivalControls
from gui.panels.compare import ComparisonWindow, comparison_window
from gui.panels.new_game import NewGameDialog
from gui.plugin_api import DockPlace, NewGamePageSpec, RulesetUI, RulingContributor
from gui.presentation import Presentation
from gui.rulesets import RULESET_UIS, ruleset_ui
from gui.scene import BattlefieldScene
from gui.shapes import battlefield_point
from gui.sight_overlay import install_sight
from gui.theme import PALETTES
from gui.threats import PENDING as THREAT_PENDING
from gui.threats import ThreatController
from gui.view import AnnotationDraft, BattlefieldView

SNAP_STEP = 0.5
TOOLS_WIDTH = 250
EXPLANATIONS_WIDTH = 380
"""The first-start widths of the left (editing tools) and right (explanations, game) columns
(pixels): what their docks' rows need side by side; the battlefield takes the rest."""

TOOLBAR_ICONS = {
    "overlay-objectives": "target",
    "overlay-engagement": "swords",
    "overlay-quarters": "grid-2x2",
    "overlay-deployment": "map",
    "overlay-visibility": "eye",
    "overlay-coherency": "link-2",
    "overlay-rings": "radar",
    "overlay-movement": "movement-bands",
    "overlay-who-sees-whom": "scan-eye",
    "overlay-scrollhammer": "scroll",
    "overlay-shared-modules": "puzzle",
    "tool-select": "mouse-pointer-2",
    "tool-measure": "ruler",
    "tool-polygon": "pen-tool",
    "tool-arrow": "move-up-right",
    "tool-callout": "message-square-text",
    "tool-ruler": "ruler-dimension-line",
    "action-fit": "scan",
    "action-undo": "undo-2",
    "action-redo": "redo-2",
}
"""Each toolbar action's icon (by the action's object name): a file of the bundled Lucide set in
``assets/icons/`` (ISC licence beside it)."""


def scrolling(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that gives it at least its minimum size: a dock
    shorter or narrower than its rows scrolls instead of squashing them until their text is
    cut, and no dock's minimum pushes the window beyond a small screen."""
    area = QScrollArea()
    area.setObjectName(f"{widget.objectName() or type(widget).__name__}Scroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area


def toolbar_icon(name: str, colour: QColor) -> QIcon:
    """The bundled icon ``name`` drawn in ``colour`` (the set strokes in ``currentColor``, so
    the icons follow the palette's text colour, dark theme included)."""
    svg = (ICON_DIR / f"{name}.svg").read_text(encoding="utf-8")
    renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", colour.name()).encode()))
    icon = QIcon()
    for size in (16, 20, 24, 32, 48):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        renderer.render(painter)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


RunDialog = Callable[[QDialog], bool]
Confirm = Callable[[QWidget, str, str], bool]
Inform = Callable[[QWidget, str, str], None]
AskText = Callable[[QWidget, str, str], str | None]


def run_dialog(dialog: QDialog) -> bool:
    return dialog.exec() == QDialog.DialogCode.Accepted


def ask_yes_no(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(
        parent, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
    )
    return answer == QMessageBox.StandardButton.Yes


def tell(parent: QWidget, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


ANNOTATION_NAMES = {"arrow": "arrow", "text": "callout", "measure": "ruler"}


def ask_text(parent: QWidget, title: str, label: str) -> str | None:
    text, ok = QInputDialog.getText(parent, title, label)
    return text if ok else None


def blank_scenario(title: str = "New battlefield") -> Scenario:
    """An empty 60" x 44" table for two players (what New starts from)."""
    return Scenario(
        "wh40k-ca2026",
        (Player("red", "Red", "attacker"), Player("blue", "Blue", "defender")),
        Battlefield(60.0, 44.0),
        title=title,
    )


FIRST_FRAME_MS = 100
"""Line of sight starts this long after the window is shown (after its first frame)."""


class MainWindow(QMainWindow):
    """Warplan's window over one :class:`ScenarioDocument`.

    It is the :class:`gui.plugin_api.AppHost` of the rule systems' app parts: they add docks
    (with their place in the first-start layout), extend the ruling and add New game pages
    through :meth:`add_dock`, :meth:`extend_ruling` and :meth:`add_new_game_page`; the window
    never names them.
    """

    def __init__(
        self,
        scenario: Scenario | None = None,
        path: Path | None = None,
        *,
        settings: QSettings | None = None,
        autosave: AutosaveStore | None = None,
        restore_layout: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("WarplanMainWindow")
        self.settings = settings or QSettings()
        self.document = ScenarioDocument(scenario or blank_scenario(), path, parent=self)
        self.threats = ThreatController(self.document, parent=self)
        self.scene = BattlefieldScene(self.document)
        self.view = BattlefieldView(self.scene)
        self.live = LiveRules(self.document, parent=self)
        self.overlays = OverlayController(self.scene, self.live)
        self.setCentralWidget(self.view)
        self.files = FileController(
            self.document, self.settings, autosave or AutosaveStore(), window=self
        )
        self.docks: dict[str, QDockWidget] = {}
        self.docks_menu: QMenu | None = None
        self._dock_places: dict[str, DockPlace] = {}
        self._docks_in_front: list[str] = []
        self._ruleset_docks: dict[str, list[QDockWidget]] = {}
        self._ruleset_actions: dict[str, list[QAction]] = {}
        self._docks_shown_for: str | None = None
        self._ruling_contributors: dict[str | None, list[RulingContributor]] = {}
        self.new_game_pages: list[NewGamePageSpec] = []
        self.run_dialog: RunDialog = run_dialog
        self.confirm: Confirm = ask_yes_no
        self.inform: Inform = tell
        self.ask_text: AskText = ask_text
        self.overlay_actions: dict[str, QAction] = {}

        self.palette_panel = PalettePanel(self.document, self.placement_point)
        self.inspector = InspectorPanel(self.document)
        self.ruling = RulingPanel()
        self.ruling_highlight = BoardHighlight(self.scene)
        self.add_dock(self.palette_panel, "Palette", "PaletteDock", DockPlace.TOOLS, in_front=True)
        self.add_dock(self.inspector, "Inspector", "InspectorDock", DockPlace.TOOLS)
        self.reserves = ReservesPanel(self.document, self.placement_point)
        self.add_dock(self.reserves, "Reserves", "ReservesDock", DockPlace.TOOLS)
        self.deploy = DeployPanel(self.document, self.view)
        self.add_dock(self.deploy, "Deploy", "DeployDock", DockPlace.TOOLS)
        self.add_dock(self.ruling, "Ruling", "RulingDock", DockPlace.EXPLANATIONS, in_front=True)

        self._status_rules = QLabel("")
        self._status_zoom = QLabel("")
        self.statusBar().addPermanentWidget(self._status_rules)
        self.statusBar().addPermanentWidget(self._status_zoom)

        self.presentation = Presentation(
            self, self.view, self.overlays, self.settings, self.ruling.ruling_text
        )
        self._build_actions()
        self.lessons = LessonsPanel(
            self.document,
            select_ids=self.scene.select_ids,
            selected_ids=self._selected_ids,
            overlay_actions=self.overlay_actions,
            confirm_discard=lambda: self.files.confirm_discard(),
            confirm=lambda title, text: self.confirm(self, title, text),
            show_error=self.show_error,
        )
        self.add_dock(self.lessons, "Lessons", "LessonsDock", DockPlace.EXPLANATIONS)
        self.timeline = TimelinePanel(self.document, lambda t, label: self.ask_text(self, t, label))
        self.add_dock(self.timeline, "Timeline", "TimelineDock", DockPlace.EXPLANATIONS)
        self.timeline.compare_requested.connect(self.open_comparison)
        self.comparison: ComparisonWindow | None = None
        self._connect()
        self.plugins: dict[str, object] = {
            ui.ruleset: ui.install(self) for ui in RULESET_UIS.values()
        }
        """What each rule system's app part installed, by ruleset id (for tests and tools)."""
        self.sight = install_sight(self, restore_ruling=self._update_ruling)
        self.planning = install_planning(self)
        self.threats.ready.connect(self._update_ruling)
        self.planning.add_section("Where reserves can arrive", self.arrival_controls)
        self._decorate_toolbars()
        self._ruling_timer = QTimer(self)
        self._ruling_timer.setSingleShot(True)
        self._ruling_timer.setInterval(150)
        self._ruling_timer.timeout.connect(self._update_ruling)

        self.resize(1600, 1000)
        self._layout_restored = False
        self.keep_layout = True
        self.maximise_first_start = QGuiApplication.platformName() != "offscreen"
        if restore_layout:
            self.restore_layout()
        self._show_ruleset_docks()
        self.overlays.refresh_all()
        self._on_evaluated(self.live.evaluation)
        self._update_title()
        QTimer.singleShot(0, self.view.fit_battlefield)

    # ------------------------------------------------------------------ composition

    def add_dock(
        self,
        widget: QWidget,
        title: str,
        object_name: str,
        place: DockPlace,
        *,
        ruleset: str | None = None,
        in_front: bool = False,
    ) -> QDockWidget:
        """Add ``widget`` as a dock with a stable ``object_name`` (its layout is restored).

        ``place`` is the dock's place in the first-start layout (docks of one place are tabbed
        together; ``in_front`` makes it the visible tab). With ``ruleset`` the dock, and its
        entry in the View menu's Docks submenu, show only while the scenario uses that ruleset.
        """
        dock = QDockWidget(title, self)
        dock.setObjectName(object_name)
        dock.setWidget(scrolling(widget))
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(place.area, dock)
        self.docks[object_name] = dock
        self._dock_places[object_name] = place
        if in_front:
            self._docks_in_front.append(object_name)
        if ruleset is not None:
            self._ruleset_docks.setdefault(ruleset, []).append(dock)
        if self.docks_menu is not None:
            self.docks_menu.addAction(dock.toggleViewAction())
        same_place = [self.docks[name] for name, p in self._dock_places.items() if p is place]
        if len(same_place) > 1:
            self.tabifyDockWidget(same_place[0], dock)
        return dock

    def open_comparison(self, chosen: tuple[str, str | None]) -> None:
        """Two snapshots (or one and the board now) side by side, in a window of their own."""
        if self.comparison is not None:
            self.comparison.close()
        self.comparison = comparison_window(self.document.scenario, *chosen, parent=self)
        self.comparison.show()

    def add_overlay(
        self,
        name: str,
        label: str,
        tip: str,
        toggled: Callable[[bool], object],
        *,
        ruleset: str | None = None,
    ) -> QAction:
        """A View menu and toolbar toggle for a plug-in's board marks (on at first); with
        ``ruleset``, offered only while the scenario uses that ruleset."""
        action = self._action(label, toggled=toggled, checked=True, tip=tip, name=f"overlay-{name}")
        self._view_menu.insertAction(self._rule_system_overlays, action)
        self._overlay_bar.addAction(action)
        self.overlay_actions[name] = action
        if ruleset is not None:
            self._ruleset_actions.setdefault(ruleset, []).append(action)
            shown = self._ruleset_actions.get(self.document.scenario.ruleset, [])
            action.setVisible(action in shown)
        return action

    def extend_ruling(self, contributor: RulingContributor, *, ruleset: str | None = None) -> None:
        """Append ``contributor(scenario, selection)`` to the Ruling dock's text; with
        ``ruleset``, asked only while the scenario uses that ruleset."""
        self._ruling_contributors.setdefault(ruleset, []).append(contributor)
        self._schedule_ruling()

    def add_new_game_page(self, page: NewGamePageSpec) -> None:
        """Offer ``page`` in the New game dialog (File > New and the docks' New game...)."""
        self.new_game_pages.append(page)

    def ruleset_ui(self, ruleset: str) -> RulesetUI | None:
        return ruleset_ui(ruleset)

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 8_000)

    def _show_ruleset_docks(self) -> None:
        """Show the docks and overlay toggles of the scenario's ruleset, hide every other
        ruleset's (a restored window layout may show a dock whose ruleset is not the
        scenario's)."""
        scenario = self.document.scenario
        switched = self._docks_shown_for != scenario.ruleset
        self._docks_shown_for = scenario.ruleset
        active = self._ruleset_docks.get(scenario.ruleset, [])
        for docks in self._ruleset_docks.values():
            for dock in docks:
                on = dock in active
                dock.toggleViewAction().setVisible(on)
                if not on:
                    dock.hide()
                elif switched:
                    dock.show()
                    dock.raise_()
        shown = self._ruleset_actions.get(scenario.ruleset, [])
        for actions in self._ruleset_actions.values():
            for action in actions:
                action.setVisible(action in shown)

    def _action(
        self,
        text: str,
        slot: Callable[[], object] | None = None,
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        *,
        toggled: Callable[[bool], object] | None = None,
        checked: bool = False,
        tip: str = "",
        name: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if name:
            action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        if toggled is not None:
            action.setCheckable(True)
            action.setChecked(checked)
            action.toggled.connect(toggled)
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.action_new = self._action(
            "&New from mission generator...", self.new_document, QKeySequence.StandardKey.New
        )
        self.action_open = self._action(
            "&Open...", self.files.open_dialog, QKeySequence.StandardKey.Open
        )
        self.action_save = self._action("&Save", self.files.save, QKeySequence.StandardKey.Save)
        self.action_save_as = self._action(
            "Save &As...", self.files.save_as, QKeySequence.StandardKey.SaveAs
        )
        self.action_export = self._action(
            "&Export picture...",
            self.export_dialog,
            "Ctrl+E",
            tip="Save the battlefield as PNG, SVG or PDF with the ruling",
        )
        self.action_demo = self._action("Open the &demo", self.files.open_demo)
        self.action_import_army = self._action(
            "&Import army list...",
            self.import_army_dialog,
            "Ctrl+I",
            tip="Read a list from the GW app, ListForge or NewRecruit",
            name="action-import-army",
        )
        file_menu.addAction(self.action_new)
        file_menu.addAction(self.action_open)
        file_menu.addMenu(self.files.recent_menu)
        file_menu.addAction(self.action_demo)
        file_menu.addAction(
            self._action(
                "Open &lesson...",
                self._open_lesson,
                tip="Play a lesson step by step (the Lessons dock lists the shipped ones)",
                name="action-open-lesson",
            )
        )
        file_menu.addSeparator()
        file_menu.addAction(self.action_import_army)
        file_menu.addSeparator()
        file_menu.addAction(self.action_save)
        file_menu.addAction(self.action_save_as)
        file_menu.addAction(self.action_export)
        file_menu.addSeparator()
        file_menu.addAction(self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))

        edit_menu = menu.addMenu("&Edit")
        self.action_undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        self.action_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.action_redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        self.action_redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit_menu.addAction(self.action_undo)
        edit_menu.addAction(self.action_redo)
        edit_menu.addSeparator()
        self.action_delete = self._action(
            "&Delete selected", self.delete_selected, QKeySequence.StandardKey.Delete
        )
        edit_menu.addAction(self.action_delete)
        edit_menu.addAction(
            self._action("Rotate selected +15°", lambda: self.scene.rotate_selected(15), "R")
        )
        edit_menu.addAction(
            self._action("Rotate selected -15°", lambda: self.scene.rotate_selected(-15), "Shift+R")
        )
        edit_menu.addAction(
            self._action("Select &all", self._select_all, QKeySequence.StandardKey.SelectAll)
        )
        for action in edit_menu.actions():
            if action.text().startswith("Rotate"):
                action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)

        view_menu = menu.addMenu("&View")
        overlay_bar = self.addToolBar("Overlays")
        overlay_bar.setObjectName("OverlaysToolbar")
        self._view_menu, self._overlay_bar = view_menu, overlay_bar
        overlay_tips = {
            "objectives": "Objective ranges coloured by who controls each one, with OC levels",
            "engagement": "Engagement range round the selected unit; lines between engaged models",
            "quarters": "Table quarters, the 1 mm centre lines, the centre's 6\" circle",
            "deployment": "Deployment zones, territories and No Man's Land",
            "visibility": "Line of sight from the selected unit to every enemy unit",
            "coherency": "Models out of Unit Coherency, with the distance to their nearest "
            "unit-mate (when the file's coherency option is on)",
            "rings": "Each unit's range rings, measured from its bases' edges",
            "movement": "Where the selected unit can reach: Normal Move, Advance, charge",
        }
        for name, label in OVERLAY_NAMES.items():
            action = self._action(
                label,
                toggled=partial(self.set_overlay, name),
                checked=True,
                tip=overlay_tips[name],
                name=f"overlay-{name}",
            )
            self.overlay_actions[name] = action
            view_menu.addAction(action)
            overlay_bar.addAction(action)
        self.arrival_controls = ArrivalControls(self.overlays.arrival)
        arrival_action = self._action(
            "Reserves arrival",
            toggled=self.arrival_controls.set_shown,
            tip="Where a player's reserves can be set up (the first player's unless chosen): "
            "more than the rule system's distance from every enemy model, off closed terrain",
            name="overlay-arrival",
        )
        self.arrival_controls.show_box.toggled.connect(arrival_action.setChecked)
        view_menu.addAction(arrival_action)
        self._rule_system_overlays = view_menu.addSeparator()
        view_menu.addSeparator()
        self.action_engagement_all = self._action(
            "Engagement lines for all units",
            toggled=self._set_engagement_all,
            tip="Show every engaged pair, not only the selected unit's",
        )
        view_menu.addAction(self.action_engagement_all)
        self.action_snap = self._action(f'Snap to {SNAP_STEP:g}" grid', toggled=self._set_snap)
        view_menu.addAction(self.action_snap)
        view_menu.addSeparator()
        self.action_fit = self._action("&Fit to window", self.view.fit_battlefield, "Ctrl+0")
        view_menu.addAction(self.action_fit)
        view_menu.addAction(
            self._action(
                "Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn
            )
        )
        view_menu.addAction(
            self._action(
                "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut
            )
        )
        view_menu.addSeparator()
        self._build_presentation_actions(view_menu)
        view_menu.addSeparator()
        self.docks_menu = view_menu.addMenu("&Docks")
        for dock in self.docks.values():
            self.docks_menu.addAction(dock.toggleViewAction())

        tools_bar = self.addToolBar("Tools")
        tools_bar.setObjectName("ToolsToolbar")
        group = QActionGroup(self)
        group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        tools_menu = menu.addMenu("&Tools")
        for tool, label, key, tip in (
            (
                "select",
                "Select / move",
                "S",
                "Drag models, units (Shift or the label), terrain, objectives",
            ),
            (
                "measure",
                "Measure",
                "M",
                "Drag a ruler; from a base it measures between closest points",
            ),
            ("polygon", "Draw terrain", "P", "Click corners; double-click or Enter to finish"),
            ("arrow", "Draw an arrow", "A", "Drag from the arrow's tail to its head"),
            (
                "callout",
                "Write a callout",
                "T",
                "Click the point to explain, or drag from it to where the text goes",
            ),
            (
                "ruler",
                "Keep a ruler",
                "K",
                "Drag a ruler that stays on the board; ends on bases follow the models",
            ),
        ):
            action = self._action(
                label,
                shortcut=key,
                toggled=partial(self._on_tool_toggled, tool),
                checked=tool == "select",
                tip=tip,
                name=f"tool-{tool}",
            )
            group.addAction(action)
            tools_bar.addAction(action)
            tools_menu.addAction(action)
            self.tool_actions[tool] = action
        tools_bar.addSeparator()
        self.action_fit.setObjectName("action-fit")
        self.action_undo.setObjectName("action-undo")
        self.action_redo.setObjectName("action-redo")
        tools_bar.addAction(self.action_fit)
        tools_bar.addAction(self.action_undo)
        tools_bar.addAction(self.action_redo)

        help_menu = menu.addMenu("&Help")
        help_menu.addAction(
            self._action(
                "&How to use Warplan", self.show_help, QKeySequence.StandardKey.HelpContents
            )
        )
        help_menu.addAction(self._action("&About Warplan", self.show_about, name="action-about"))

    def _build_presentation_actions(self, view_menu: QMenu) -> None:
        self.action_presentation = self._action(
            "&Presentation mode",
            shortcut="F11",
            toggled=self.set_presentation,
            tip="Full-screen board, large labels, the ruling over a corner (Esc leaves)",
            name="action-presentation",
        )
        self.action_leave_presentation = self._action(
            "Leave presentation mode", lambda: self.set_presentation(False), "Esc"
        )
        self.action_leave_presentation.setEnabled(False)
        # Window-wide, so they work with the menu bar hidden.
        self.addAction(self.action_presentation)
        self.addAction(self.action_leave_presentation)
        view_menu.addAction(self.action_presentation)
        palette_menu = view_menu.addMenu("Pa&lette")
        palettes = QActionGroup(self)
        palettes.setExclusive(True)
        self.palette_actions: dict[str, QAction] = {}
        for palette in PALETTES.values():
            action = self._action(
                palette.name,
                toggled=partial(self._on_palette_toggled, palette.id),
                checked=palette.id == theme.current().id,
                name=f"palette-{palette.id}",
            )
            palettes.addAction(action)
            palette_menu.addAction(action)
            self.palette_actions[palette.id] = action

    def set_presentation(self, active: bool) -> None:
        """Enter or leave presentation mode (View > Presentation mode, F11; Esc leaves)."""
        self.presentation.set_active(active)
        self.action_leave_presentation.setEnabled(active)
        if self.action_presentation.isChecked() != active:
            self.action_presentation.setChecked(active)

    def _on_palette_toggled(self, palette_id: str, on: bool) -> None:
        if on and palette_id != theme.current().id:
            self.presentation.use_palette(palette_id)
            self._decorate_toolbars()  # the icons are drawn in the window's text colour

    def _decorate_toolbars(self) -> None:
        """Give every toolbar action its icon. The overlay toggles keep their words beside the
        icon (a teacher reads them aloud); the tools are icons with their names as tooltips
        (Qt's default), so both bars fit side by side on a 1280-pixel-wide screen."""
        colour = self.palette().color(QPalette.ColorRole.ButtonText)
        for bar in self.findChildren(QToolBar):
            beside = bar.objectName() == "OverlaysToolbar"
            bar.setToolButtonStyle(
                Qt.ToolButtonStyle.ToolButtonTextBesideIcon
                if beside
                else Qt.ToolButtonStyle.ToolButtonIconOnly
            )
            bar.setIconSize(QSize(18, 18))
            for action in bar.actions():
                name = TOOLBAR_ICONS.get(action.objectName())
                if name is not None:
                    action.setIcon(toolbar_icon(name, colour))

    def _connect(self) -> None:
        self.ruling.text.textChanged.connect(self.presentation.refresh_ruling)
        self.scene.selection_changed_ids.connect(self._on_selection)
        self.live.evaluated.connect(self._on_evaluated)
        self.live.overlaps_changed.connect(self.scene.set_overlapping)
        self.live.visibility_ready.connect(self._schedule_ruling)
        # A rule system's analysis may add to the ruling (its own rules about the selection).
        self.live.analysed.connect(self._on_analysed)
        self.document.changed.connect(self._on_document_changed)
        # Bound methods, not lambdas: Qt drops these connections when the window goes, while
        # the document may outlive it.
        self.document.replaced.connect(self._on_replaced)
        self.document.modified_changed.connect(self._update_title)
        self.document.path_changed.connect(self._update_title)
        self.view.measured.connect(
            lambda d: self.statusBar().showMessage(f'Measured {d:.3f}"', 10_000)
        )
        self.view.zoom_changed.connect(
            lambda ppi: self._status_zoom.setText(f"{ppi:.1f} px per inch")
        )
        self.view.polygon_finished.connect(self._on_polygon)
        self.view.annotation_drawn.connect(self.add_drawn_annotation)
        self.view.drawing_refused.connect(self._show_status)
        self.files.message.connect(self._show_status)
        self.scene.drag_started.connect(self._on_drag_started)
        self.scene.drag_finished.connect(self.view.end_static_cache)
        self.palette_panel.selection_requested.connect(self.scene.select_ids)
        self.ruling.line_activated.connect(self._highlight_ruling_line)
        self.reserves.selection_requested.connect(self.scene.select_ids)
        self.deploy.selection_requested.connect(self.scene.select_ids)
        self.palette_panel.draw_polygon_requested.connect(
            lambda: self.tool_actions["polygon"].setChecked(True)
        )

    # ------------------------------------------------------------------ reactions

    def _on_selection(self, selection: Selection) -> None:
        self.inspector.set_selection(selection)
        self.reserves.set_selection(selection)
        unit_ids = (
            selection.moved_unit_ids(self.document.scenario)
            if not selection.is_empty()
            else frozenset()
        )
        self.overlays.set_focus(frozenset(unit_ids))
        self.live.set_observer(self.scene.selected_unit_id())
        self._update_ruling()

    def _on_evaluated(self, evaluation: Evaluation | None) -> None:
        if evaluation is None:
            self._status_rules.setText(f"Rules cannot judge this: {self.live.last_error}")
        else:
            self._status_rules.setText(f"rules {self.live.seconds * 1000:.1f} ms")
        self._schedule_ruling()

    def _on_analysed(self, _result: AnalysisResult) -> None:
        self._schedule_ruling()

    def _on_document_changed(self, change: Change) -> None:
        if change.structure:
            self.overlays.refresh_deployment()
            self._show_ruleset_docks()

    def _on_drag_started(self) -> None:
        static = self.scene.static_items_during_drag()
        static += self.overlays.layers["deployment"].graphics_items()
        self.view.begin_static_cache(static)

    def _show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def _on_replaced(self, _scenario: object = None) -> None:
        self._show_ruleset_docks()
        self.overlays.refresh_deployment()
        self.view.fit_battlefield()
        self._update_title()
        self._update_ruling()

    def _schedule_ruling(self, _result: object = None) -> None:
        """Update the ruling now, or at most every 150 ms while a drag is in progress."""
        if self.document.is_dragging:
            if not self._ruling_timer.isActive():
                self._ruling_timer.start()
        else:
            self._update_ruling()

    def _update_ruling(self, _result: object = None) -> None:
        if self.live.evaluation is None and self.live.last_error:
            self.ruling.show_ruling(
                "Ruling", f"The rules cannot judge this battlefield: {self.live.last_error}"
            )
            return
        scenario = self.document.scenario
        selection = self.scene.selection()
        evaluation, visibility = self.live.evaluation, self.live.visibility
        sight_on = self.live.visibility_enabled
        heading, text = ruling_for(scenario, evaluation, selection, visibility, sight_on)
        threats = self.threats.sections(sorted(selection.unit_ids(scenario)))
        sections = ruling_sections_for(
            scenario, evaluation, selection, visibility, threats, THREAT_PENDING, sight_on
        )
        contributors = (
            *self._ruling_contributors.get(None, ()),
            *self._ruling_contributors.get(scenario.ruleset, ()),
        )
        extra = [e for e in (add(scenario, selection) for add in contributors) if e]
        self.ruling.show_ruling(
            heading,
            "\n\n".join([text, *extra]),
            (*sections, *(text_section(e, scenario) for e in extra)),
        )

    def _highlight_ruling_line(self, ids: tuple[str, ...]) -> None:
        if ids:
            self.ruling_highlight.show(ids)
        else:
            self.ruling_highlight.clear()

    def _update_title(self, _changed: object = None) -> None:
        path = self.document.path
        name = path.name if path is not None else (self.document.scenario.title or "Untitled")
        self.setWindowTitle(f"{name}[*] - Warplan")
        self.setWindowModified(self.document.is_modified)

    def set_overlay(self, name: str, enabled: bool) -> None:
        self.overlays.set_enabled(name, enabled)
        if name == "visibility":
            self.live.set_visibility_enabled(enabled)
            self.sight.set_line_of_sight(enabled)
            self._update_ruling()

    def _set_engagement_all(self, enabled: bool) -> None:
        self.overlays.engagement_for_all = enabled
        self.overlays.refresh_engagement()

    def _set_snap(self, enabled: bool) -> None:
        self.scene.snap_step = SNAP_STEP if enabled else None

    def _on_tool_toggled(self, tool: str, on: bool) -> None:
        if on:
            self.set_tool(tool)

    def set_tool(self, tool: str) -> None:
        self.view.set_tool(tool)
        if self.tool_actions[tool].isChecked() is False:
            self.tool_actions[tool].setChecked(True)

    def _on_polygon(self, polygon: tuple[tuple[float, float], ...]) -> None:
        self.palette_panel.add_drawn_terrain(polygon)
        self.tool_actions["select"].setChecked(True)

    def _open_lesson(self) -> None:
        dock = self.docks["LessonsDock"]
        dock.show()
        dock.raise_()
        self.lessons.open_dialog()

    def _selected_ids(self) -> set[str]:
        selection = self.scene.selection()
        return {*selection.units, *selection.models, *selection.terrain, *selection.objectives}

    def _select_all(self) -> None:
        scenario = self.document.scenario
        self.scene.select_ids({u.id for u in scenario.units})

    def placement_point(self) -> tuple[float, float]:
        """Where new things go: the view's centre, kept on the table."""
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        x, y = battlefield_point(QPointF(centre))
        bf = self.document.scenario.battlefield
        return min(max(x, 2.0), bf.width - 2.0), min(max(y, 2.0), bf.depth - 2.0)

    def delete_selected(self) -> None:
        selection = self.scene.selection()
        annotations = self.scene.selected_annotation_ids()
        if not selection.is_empty() or annotations:
            scenario = remove_annotations(self.document.scenario, annotations)
            if not selection.is_empty():
                scenario = remove_selection(scenario, selection)
            self.document.apply(scenario, "Delete")

    def add_drawn_annotation(self, draft: AnnotationDraft) -> bool:
        """Add what an annotation tool drew (asking a callout's text) as one undo step."""
        text = ""
        if draft.kind == "text":
            answer = self.ask_text(self, "Callout", "Text of the callout:")
            if answer is None or not answer.strip():
                return False
            text = answer.strip()
        try:
            scenario = add_annotation(
                self.document.scenario,
                draft.kind,
                draft.start,
                draft.end,
                text=text,
                from_model=draft.from_model,
                to_model=draft.to_model,
            )
        except WarplanError as error:
            self.show_message(error_text(error))
            return False
        self.document.apply(scenario, f"Add {ANNOTATION_NAMES[draft.kind]}")
        return True

    # ------------------------------------------------------------------ documents

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    def new_document(self) -> bool:
        """File > New: the New game dialog on an empty table, as a new document."""
        if not self.files.confirm_discard():
            return False
        blank = blank_scenario()
        dialog = NewGameDialog(blank, self.new_game_pages, self)
        if not self.run_dialog(dialog):
            return False
        table = dialog.chosen_spec().new_table
        if table is not None:
            blank = replace(blank, battlefield=table)
        try:
            scenario = dialog.build(blank)
        except WarplanError as error:
            self.show_error("Cannot set up this game", str(error))
            return False
        self.document.load(scenario, None)
        return True

    def new_game_here(self) -> bool:
        """New game on the open battlefield (units and terrain kept): one undoable edit, asked
        first when a game is in progress."""
        scenario = self.document.scenario
        dialog = NewGameDialog(scenario, self.new_game_pages, self)
        if not self.run_dialog(dialog):
            return False
        if game_in_progress(thaw(scenario.game or EMPTY)) and not self.confirm(
            self,
            "Discard the game in progress?",
            "A new game resets the decks, the turn and the ledger. You can undo it.",
        ):
            return False
        text = f"New game ({dialog.chosen_ruleset()})"
        try:
            after = dialog.build(self.document.scenario)
        except WarplanError as error:
            self.show_message(f"{text}: {error}")
            return False
        self.document.apply(after, text)
        self.show_message(text)
        return True

    def import_army_dialog(self) -> bool:
        """File > Import army list...: the army placed as chosen, one undo step; what could not
        be placed as asked is listed afterwards."""
        dialog = ArmyImportDialog(self.document.scenario, self)
        if not self.run_dialog(dialog):
            return False
        try:
            placed = dialog.placement(self.document.scenario)
        except WarplanError as error:
            self.show_error("Cannot place this army", str(error))
            return False
        if placed is None:
            return False
        count = len(placed.deployed) + len(placed.reserves)
        self.document.apply(placed.scenario, f"Import army list ({count} units)")
        summary = (
            f"{len(placed.deployed)} units set up in the deployment zone, "
            f"{len(placed.reserves)} in reserves"
        )
        self.show_message(f"Army imported: {summary}")
        if placed.messages:
            self.inform(self, "Army imported", summary + ".\n\n" + "\n".join(placed.messages))
        if placed.deployed:
            self.scene.select_ids(set(placed.deployed))
        return True

    def export_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Export battlefield", "battlefield.png", EXPORT_FILTER
        )
        if not name:
            return
        caption, ok = QInputDialog.getText(
            self, "Caption", "Caption (optional):", text=self.document.scenario.title
        )
        if not ok:
            return
        self.export_to(Path(name), caption=caption, include_ruling=True)

    def export_to(
        self, path: Path, *, caption: str = "", include_ruling: bool = True
    ) -> Path | None:
        try:
            return export_battlefield(
                self.scene,
                self.scene.board_rect().adjusted(-1.5, -1.5, 1.5, 1.5),
                path,
                caption=caption,
                ruling=self.ruling.ruling_text() if include_ruling else "",
            )
        except WarplanError as error:
            self.show_error("Cannot export", error_text(error))
            return None

    # ------------------------------------------------------------------ layout, closing

    def restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        if isinstance(state, QByteArray | bytes):
            self._layout_restored = self.restoreState(QByteArray(state))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._layout_restored:
            self._layout_restored = True
            self.arrange_default_layout()
            QTimer.singleShot(0, self.view.fit_battlefield)
        # Line of sight loads its compiled kernels on first use (about a second, holding the
        # interpreter's lock now and then): it starts once the first frame is painted.
        QTimer.singleShot(FIRST_FRAME_MS, self._start_line_of_sight)

    def _start_line_of_sight(self) -> None:
        self.live.release_visibility()

    def arrange_default_layout(self) -> None:
        """The first-start layout: the battlefield gets the whole height of the window.

        Each dock goes to the place it was added with: editing tools share the left column;
        the right column holds, above, the explanations (the ruling and the rule systems'
        panels) and, below, the game docks (decks, turn tracker, score chart), each place
        tabbed with its ``in_front`` dock raised.
        """
        maximised = self._fit_to_screen()
        # Moving docks stacks them for a moment and grows the window; it returns to this size.
        intended = self.size()
        right_area = Qt.DockWidgetArea.RightDockWidgetArea
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, right_area)
        by_place = {
            place: [self.docks[n] for n, p in self._dock_places.items() if p is place]
            for place in DockPlace
        }
        for dock in by_place[DockPlace.GAME]:
            # A new row under the explanations (Qt cannot split a tabbed dock).
            self.addDockWidget(right_area, dock, Qt.Orientation.Vertical)
        for docks in by_place.values():
            for first, second in itertools.pairwise(docks):
                self.tabifyDockWidget(first, second)
        if not maximised:
            self.resize(intended)
            QTimer.singleShot(0, lambda: self.resize(intended))
        tools, explanations, game = (
            by_place[DockPlace.TOOLS],
            by_place[DockPlace.EXPLANATIONS],
            by_place[DockPlace.GAME],
        )
        if tools and explanations:
            # On a screen narrower than 1280 pixels the columns give up room in proportion.
            width = self.width()
            self.resizeDocks(
                [tools[0], explanations[0]],
                [min(TOOLS_WIDTH, width // 5), min(EXPLANATIONS_WIDTH, width * 3 // 10)],
                Qt.Orientation.Horizontal,
            )
        if explanations and game:
            self.resizeDocks(
                [explanations[0], game[0]], [self.height() // 2] * 2, Qt.Orientation.Vertical
            )
        self._show_ruleset_docks()
        for name in self._docks_in_front:
            self.docks[name].raise_()

    def _fit_to_screen(self) -> bool:
        """Maximise the first-start window on its screen's available area (whether it did):
        the battlefield takes what the docks leave. Skipped where :attr:`maximise_first_start`
        is off (the offscreen platform of tests and screenshots, which size the window)."""
        screen = self.screen()
        if not self.maximise_first_start or screen is None:
            return False
        # The maximised size at once, so the docks' widths below are shares of it.
        self.resize(screen.availableSize())
        self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
        return True

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if not self.files.confirm_discard():
            event.ignore()
            return
        if self.keep_layout:
            self.save_layout()
        self.files.end_session()
        self.live.wait_for_visibility(5_000)
        event.accept()

    def show_about(self) -> None:
        self.run_dialog(AboutDialog(self))

    def show_help(self) -> None:
        QMessageBox.information(
            self,
            "How to use Warplan",
            "Drag a model to move it; Shift+drag (or drag its label) moves the whole unit; drag on "
            'empty table to select several. Arrow keys nudge by 0.1" (Shift: 1"); R rotates ovals '
            "and hulls. Wheel zooms, middle button or Space+drag pans.\n\n"
            "The View menu and the toolbar toggle the rule overlays. Select a unit to see its "
            "engagement range and line of sight; select an objective or a unit to read the ruling.",
        )
