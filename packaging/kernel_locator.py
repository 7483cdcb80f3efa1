"""numba's cache locator for the packaged app: the cache files go straight into
``NUMBA_CACHE_DIR``, whichever folder the package was unpacked or installed in.

numba's own locator for ``NUMBA_CACHE_DIR`` adds a sub-folder named after a digest of the
kernels' absolute path, so a package moved or installed elsewhere would compile everything
again (minutes on a small machine). The folder the launcher names is already specific to the
kernels' source (``kernel_cache.py``), and in a frozen app numba stamps each index with the
executable's contents, not its path: a copy of the package finds the same cache.

numba imports this module itself, on its first cached compile, when
``NUMBA_CACHE_LOCATOR_CLASSES`` names :class:`FolderCacheLocator`; ``kernel_cache`` sets
that variable without importing numba, which start-up must not pay for.
"""

from __future__ import annotations

from typing import Any

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator


class FolderCacheLocator(UserProvidedCacheLocator):
    """The cache is ``NUMBA_CACHE_DIR`` itself (no per-path sub-folder)."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._cache_path = str(config.CACHE_DIR)
