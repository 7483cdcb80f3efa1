"""Help > About Warplan: what the app is and the credits its bundled data asks for."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from engine.credits import credits


def about_html() -> str:
    """The dialog's text: the app, then one paragraph per credit with its link."""
    parts = [
        "<h3>Warplan</h3>",
        "<p>A battlefield planner and rules visualiser for tabletop wargames.</p>",
    ]
    for credit in credits():
        parts.append(
            f"<p><b>{escape(credit.notice)}</b> &mdash; "
            f'<a href="{escape(credit.link)}">{escape(credit.link)}</a><br>'
            f"{escape(credit.detail)} Licence: {escape(credit.licence)}.</p>"
        )
    return "".join(parts)


class AboutDialog(QDialog):
    """The About box; its links open in the browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("AboutDialog")
        self.setWindowTitle("About Warplan")
        layout = QVBoxLayout(self)
        self.text = QLabel(about_html())
        self.text.setWordWrap(True)
        self.text.setOpenExternalLinks(True)
        self.text.setMinimumWidth(420)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
