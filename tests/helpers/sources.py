"""The package's source files parsed once per test process: several modules scan every file (layers, imports,
purity, messages, data safety), and parsing them all takes most of each scan's time.

The trees are shared: a test may walk them, never change them.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def _parse(path: Path, text: str) -> ast.Module:
    return ast.parse(text, filename=str(path))


def parsed(path: Path) -> ast.Module:
    """The file's syntax tree; read every time (cheap), parsed again only when the text differs."""
    path = Path(path)
    return _parse(path, path.read_text(encoding="utf-8"))
