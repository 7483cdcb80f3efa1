"""Where the packaged app keeps its compiled line-of-sight kernels.

numba caches a compiled kernel beside its source when it can write there; in an installed
package that is the install folder, which may be read-only, shared between users, or replaced
by the next version. The launcher therefore points ``NUMBA_CACHE_DIR`` at the user's cache
folder (``$XDG_CACHE_HOME/warplan/kernels``, ``~/.cache`` when unset) before anything imports
numba, which reads the variable once, on import.

The folder's last part is a digest of the kernels' bundled source. In a frozen app numba stamps
its cache with the executable instead of the source, and the kernels' module is collected as a
plain file next to the executable, not inside it: an update that changed only the kernels
would keep the stamp, and numba would load the old machine code for the new source. A new
digest is a new folder, so that cannot happen.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path

NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"
NUMBA_LOCATOR_ENV = "NUMBA_CACHE_LOCATOR_CLASSES"
# numba imports it by this name (packaging/kernel_locator.py, bundled by warplan.spec).
FOLDER_LOCATOR = "kernel_locator.FolderCacheLocator"
DIGEST_CHARACTERS = 16


def kernel_sources(bundle: Path) -> list[Path]:
    """The engine modules bundled as source files (``module_collection_mode`` "py" in
    ``warplan.spec``): the numba kernels. Every other module is inside the executable."""
    return sorted((bundle / "engine").rglob("*.py"))


def sources_digest(sources: Sequence[Path]) -> str:
    """A digest of the files' names and contents, the same wherever the bundle is unpacked."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:DIGEST_CHARACTERS]


def user_cache_home(environ: Mapping[str, str]) -> Path:
    """``$XDG_CACHE_HOME`` when it is an absolute path (the XDG rule), else ``~/.cache``."""
    configured = environ.get("XDG_CACHE_HOME", "")
    if configured and Path(configured).is_absolute():
        return Path(configured)
    return Path(environ.get("HOME") or Path.home()) / ".cache"


def writable_folder(folder: Path) -> bool:
    """Creates ``folder`` if needed; tells whether this user can write into it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def kernel_cache_dir(environ: Mapping[str, str], sources: Sequence[Path]) -> Path:
    """The folder for numba's cache of these kernel sources: under the user's cache folder, or,
    when that cannot be written (a read-only home), under the system's temporary folder."""
    digest = sources_digest(sources)
    preferred = user_cache_home(environ) / "warplan" / "kernels" / digest
    if writable_folder(preferred):
        return preferred
    return Path(tempfile.gettempdir()) / f"warplan-kernels-{os.getuid()}" / digest


def configure(environ: MutableMapping[str, str], bundle: Path) -> Path:
    """Points numba's cache at :func:`kernel_cache_dir` for the kernels in ``bundle`` (the
    package's ``sys._MEIPASS``), through the locator that keeps no per-path sub-folder;
    returns the folder."""
    folder = kernel_cache_dir(environ, kernel_sources(bundle))
    environ[NUMBA_CACHE_ENV] = str(folder)
    environ[NUMBA_LOCATOR_ENV] = FOLDER_LOCATOR
    return folder
