"""Build-time converters that turn open datasets into Warplan's assets.

Nothing here runs inside the app: the converted JSON under ``assets/`` is what ships.
"""
