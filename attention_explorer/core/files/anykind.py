"""A scene file of any kind: read by its kind's reader, written one matrix row per line, saved atomically.

The kind a document names (or the single query when it names none) is looked up in the registry of kinds
(core/scenes/registry.py); its reader and writer load only when a file or scene of that kind is met. Saving goes
through core/files/safety.py: a temporary file in the same folder, flushed, then renamed over the target. Pure
Python and numpy, no Qt.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_explorer.core.files.jsonrules import MAX_FILE_BYTES, parse_document, read_file
from attention_explorer.core.files.safety import FileStamp, atomic_write
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.file import all_fields
from attention_explorer.core.scenes.registry import kind_of, kind_of_scene, reader, row_fields, writer

if TYPE_CHECKING:
    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
    from attention_explorer.core.scenes.positions.scene import PositionalScene
    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario

    AnyScene = Scenario | SequenceScenario | MultiHeadScenario | CrossScenario | PositionalScene


def any_from_dict(document: Any) -> AnyScene:
    """The scene of a parsed document's kind: a single-query Scenario when it names none, else the scene of its
    `kind` ("sequence"/"self", "multihead", "cross", "positions"); the first problem raises ScenarioError."""
    # Start-up: each kind's reader (and its scene's module) loads only for a file of that kind.
    return reader(kind_of(document))(document)


def loads_any(data: bytes | str) -> AnyScene:
    """Parse and validate JSON text of either kind; any problem raises ScenarioError."""
    return any_from_dict(parse_document(data, all_fields))


def load_any(path: str | os.PathLike[str]) -> AnyScene:
    """Read, parse and validate a scenario file of either kind (single query or `"kind": "sequence"`)."""
    return loads_any(read_file(path))


def dumps(scenario: AnyScene) -> str:
    """Scenario JSON text (any kind): one field per line, one matrix row per line, non-ASCII kept readable."""
    return "".join(dump_pieces(scenario))


def dump_pieces(scenario: AnyScene) -> Iterator[str]:
    """The text of dumps() in pieces, a matrix row at a time: a file at the limits is never held whole."""
    kind = kind_of_scene(scenario)  # its modules are loaded already: a scene of theirs exists
    document, rows = writer(kind)(scenario), row_fields(kind)
    yield "{\n"
    for index, (name, value) in enumerate(document.items()):
        yield ("" if index == 0 else ",\n") + f"  {json.dumps(name)}: "
        if name in rows:
            yield "[\n    "
            for number, row in enumerate(np.asarray(value)):
                yield ("" if number == 0 else ",\n    ") + json.dumps(row.tolist())
            yield "\n  ]"
        elif name == "pins":
            from attention_explorer.core.scenes.query.pinfile import (
                pins_text,  # start-up: loaded only for a scenario with pins
            )

            yield pins_text(value)
        else:
            if isinstance(value, np.ndarray):
                value = value.tolist()
            yield json.dumps(value, ensure_ascii=False)  # floats print as repr: they read back bit for bit
    yield "\n}\n"


def save(scenario: AnyScene, path: str | os.PathLike[str]) -> FileStamp:
    """Write any kind atomically (core/files/safety.py): a temporary file in the same folder, flushed, then renamed
    over the target; returns the stamp of what was written.

    A symlink stays a link: the file it points to is replaced (what editors do). Raises ScenarioError when the
    target is not a regular file or the file would be too large to load again, OSError when it cannot be written.
    """
    return save_pieces(dump_pieces(scenario), path)


def save_pieces(pieces: Iterable[str], path: str | os.PathLike[str]) -> FileStamp:
    """Write the text `pieces` make atomically, as save() does (the same refusals: too large, not a regular file)."""
    return atomic_write(_save_target(Path(path)), _encoded_pieces(pieces))


def too_large_error(size: int) -> ScenarioError:
    """The refusal of a file of `size` bytes, more than a scenario file may have."""
    return ScenarioError(
        "the file would take {0:.0f} MiB, more than the {1} MiB a scenario file may have; use fewer "
        "keys or smaller dimensions",
        size / 2**20, MAX_FILE_BYTES // 2**20,
    )


def _encoded_pieces(pieces: Iterable[str]) -> Iterator[bytes]:
    """The file's bytes a row at a time; past MAX_FILE_BYTES only counted, then refused before the rename."""
    size = 0
    for piece in pieces:  # never the whole text (a 31 MB file at the limits) in memory
        data = piece.encode("utf-8")
        size += len(data)
        if size <= MAX_FILE_BYTES:
            yield data
    if size > MAX_FILE_BYTES:
        raise too_large_error(size)


def _save_target(path: Path) -> Path:
    """The file a save replaces: a link's target, followed to the end; a folder, FIFO or device raises ScenarioError."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = target.stat().st_mode
    except OSError:
        return target  # a new file (or one the write itself will report on)
    if stat.S_ISDIR(mode):
        raise ScenarioError("is a folder, not a scenario file")
    if not stat.S_ISREG(mode):
        raise ScenarioError("is not a regular file (a device, pipe or socket): choose another name")
    return target
