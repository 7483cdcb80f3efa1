"""Widgets and views the rule systems' app parts share, and the New game dialog that hosts their
pages."""
