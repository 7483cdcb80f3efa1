"""Profile the compiled line-of-sight kernels with perf, every kernel function named.

numba's machine code carries no symbols perf can read: a profile of the engine shows its time
as bare addresses under ``[JIT]``. This runs a Python script, then writes the map perf reads
for such code (``/tmp/perf-PID.map``): each function of every kernel library loaded, at the
address numba loaded it to, named from the symbol table of the object code its cache holds.
A function another kernel calls appears under its own name (each library holds its own copy
of what it calls); numba's reference counting shows as unnamed addresses.

    perf record -F 2000 -o perf.data \
        .venv/bin/python scripts/perf_kernels.py -m engine bench --skip-naive-visibility
    perf report -i perf.data --no-children --sort sym

``SCRIPT [ARGS...]`` or ``-m MODULE [ARGS...]`` is run as ``__main__`` with its arguments; the
kernels must be in numba's cache (``python -m engine warm-up``), since only a library loaded
from the cache keeps its object code here.
"""

from __future__ import annotations

import atexit
import os
import re
import runpy
import struct
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_SYMBOL_TABLE = 2
_FUNCTION = 2


def _keep_object_code() -> None:
    """Makes every library numba loads from its cache keep its object code (numba drops it
    once the code is loaded)."""
    from numba.core import codegen

    original = codegen.CPUCodeLibrary._set_compiled_object

    def keeping(library: Any, value: bytes) -> None:
        library.kept_object_code = value
        original(library, value)

    codegen.CPUCodeLibrary._set_compiled_object = keeping


def elf_functions(data: bytes) -> list[tuple[str, int, int, int]]:
    """The functions in the symbol table of an ELF64 little-endian object: ``(name, section,
    offset, size)``."""
    section_offset = struct.unpack_from("<Q", data, 0x28)[0]
    entry_size, count = struct.unpack_from("<HH", data, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", data, section_offset + n * entry_size)
        for n in range(count)
    ]
    functions = []
    for section in sections:
        if section[1] != _SYMBOL_TABLE:
            continue
        names_at = sections[section[6]][4]
        for at in range(section[4], section[4] + section[5], 24):
            name, info, _, index, value, size = struct.unpack_from("<IBBHQQ", data, at)
            if info & 0xF != _FUNCTION or size == 0:
                continue
            start = names_at + name
            text = data[start : data.index(b"\0", start)].decode()
            functions.append((text, index, value, size))
    return functions


def short_name(mangled: str) -> str:
    """A kernel function's own name (``unit_pair_visible``) from numba's mangled one."""
    found = re.search(r"(?:sight_kernel|hidden_kernel)\d+([A-Za-z_]\w*?)B\d", mangled)
    return found.group(1) if found else mangled[:60]


def write_perf_map() -> int:
    """Writes ``/tmp/perf-PID.map`` for the kernels of :mod:`engine.sight_kernel` and
    :mod:`engine.hidden_kernel` loaded in this process; the number of functions named."""
    from numba.core.registry import CPUDispatcher

    from engine import hidden_kernel, sight_kernel

    named: dict[int, tuple[int, str]] = {}
    for module in (sight_kernel, hidden_kernel):
        for kernel in vars(module).values():
            if not isinstance(kernel, CPUDispatcher):
                continue
            for compiled in kernel.overloads.values():
                library = compiled.library
                code = getattr(library, "kept_object_code", None)
                if code is None:
                    continue
                functions = elf_functions(bytes(code))
                # A section's load address, from one function the library can look up.
                loaded: dict[int, int] = {}
                for name, section, offset, _ in functions:
                    if section not in loaded:
                        address = library.get_pointer_to_function(name)
                        if address:
                            loaded[section] = address - offset
                for name, section, offset, size in functions:
                    if section in loaded:
                        named[loaded[section] + offset] = (size, short_name(name))
    with open(f"/tmp/perf-{os.getpid()}.map", "w", encoding="utf-8") as out:
        for address in sorted(named):
            size, name = named[address]
            out.write(f"{address:x} {size:x} {name}\n")
    return len(named)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    _keep_object_code()
    atexit.register(lambda: print(f"perf map: {write_perf_map()} functions", file=sys.stderr))
    if argv[0] == "-m" and len(argv) > 1:
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
