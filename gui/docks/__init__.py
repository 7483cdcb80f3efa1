"""The main window's docks (each a plain widget; the window wraps it in a QDockWidget)."""
