"""The scenario file: JSON documents of both kinds (a single query, or a sequence) to scenarios and back.

Parsing by the JSON rules (core/files/jsonrules.py), checking every field with its place named, writing one
matrix row per line, and the atomic save. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import functools
import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_explorer.core.files.fields import FORMAT_ID, scale_from_document
from attention_explorer.core.files.fields import matrix_rows as _rows
from attention_explorer.core.files.fields import number_list as _number_list
from attention_explorer.core.files.fields import number_rows as _number_rows
from attention_explorer.core.files.jsonrules import MAX_FILE_BYTES, parse_document, read_file
from attention_explorer.core.files.safety import FileStamp, atomic_write
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.kinds import (
    CROSS_KIND,
    MULTIHEAD_KIND,
    POSITIONS_KIND,
    SEQUENCE_KIND,
    SEQUENCE_KINDS,
)
from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.core.scenes.query.scene import (
    AUTO_SCALE,
    MAX_KEYS,
    Scenario,
    ScenarioError,
    default_labels,
)

if TYPE_CHECKING:
    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
    from attention_explorer.core.scenes.positions.file import PositionalScene
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario

    AnyScene = Scenario | SequenceScenario | MultiHeadScenario | CrossScenario | PositionalScene

__all__ = ["FORMAT_ID", "scale_from_document"]  # kept importable from here (they moved to core/files/fields.py)
SCENARIO_FIELDS = ("format", "title", "description", "query", "keys", "values", "labels", "scale", "claims",
                   "pins")


@functools.cache
def all_fields() -> tuple[str, ...]:
    """Every top-level field of any kind, to name an unknown one in a file too large to parse."""
    # Start-up: the other kinds' modules load only for such a file, not for every file read.
    from attention_explorer.core.scenes.cross.file import CROSS_FIELDS
    from attention_explorer.core.scenes.multihead.file import MULTIHEAD_FIELDS
    from attention_explorer.core.scenes.positions.file import POSITIONS_FIELDS
    from attention_explorer.core.scenes.sequence.file import SEQUENCE_FIELDS

    return tuple(dict.fromkeys((*SCENARIO_FIELDS, *SEQUENCE_FIELDS, *MULTIHEAD_FIELDS, *CROSS_FIELDS,
                                *POSITIONS_FIELDS)))


def scenario_from_dict(document: Any) -> Scenario:
    """Validate a parsed JSON document and build the Scenario (first problem raises ScenarioError)."""
    if not isinstance(document, dict):
        raise ScenarioError("expected a JSON object at the top level, got {0}", value_kind(document))
    if "kind" in document:
        _check_kind(document["kind"])
        if document["kind"] == CROSS_KIND:
            raise ScenarioError(
                'kind "{0}": a cross-attention file (a source and a target sentence), not a single-query scenario; '
                "open it in the cross-attention lab",
                CROSS_KIND,
            )
        if document["kind"] == POSITIONS_KIND:
            raise ScenarioError(
                'kind "{0}": the positions lab\'s settings (d, m and n), not a single-query scenario; open it in the '
                "positions lab",
                POSITIONS_KIND,
            )
        raise ScenarioError(
            'kind "{0}": a self-attention file (tokens and W_Q, W_K, W_V), not a single-query scenario; '
            "open it in the self-attention lab",
            document["kind"],
        )
    for name in document:
        if name not in SCENARIO_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed: {1})',
                field_name_text(name), ", ".join(SCENARIO_FIELDS))
    if "format" in document and document["format"] != FORMAT_ID:
        raise ScenarioError('format: expected "{0}", got {1}', FORMAT_ID, json.dumps(document["format"])[:40])
    for required in ("query", "keys", "values"):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    query = _number_list(document["query"], "query", None, "d_k")
    d_k = len(query)
    if not isinstance(document["keys"], list) or not 1 <= len(document["keys"]) <= MAX_KEYS:
        got = len(document["keys"]) if isinstance(document["keys"], list) else value_kind(document["keys"])
        raise ScenarioError("keys: expected a list of 1 to {0} rows, got {1}", MAX_KEYS, got)
    keys = _number_rows(document["keys"], "keys", d_k, "d_k")
    n = len(keys)
    raw_values = document["values"]
    if not isinstance(raw_values, list) or len(raw_values) != n:
        got = len(raw_values) if isinstance(raw_values, list) else value_kind(raw_values)
        raise ScenarioError("values: expected {0} rows (one per key), got {1}", n, got)
    values = _number_rows(raw_values, "values", None, "d_v")
    labels = document.get("labels")
    if labels is None:
        labels = list(default_labels(n))
    if not isinstance(labels, list) or len(labels) != n:
        got = len(labels) if isinstance(labels, list) else value_kind(labels)
        raise ScenarioError("labels: expected {0} strings (one per key), got {1}", n, got)
    for i, label in enumerate(labels):
        if not isinstance(label, str):
            raise ScenarioError("labels[{0}]: expected a string, got {1}", i, value_kind(label))
    title = document.get("title", "")
    if not isinstance(title, str):
        raise ScenarioError("title: expected a string, got {0}", value_kind(title))
    description = document.get("description", "")
    if not isinstance(description, str):
        raise ScenarioError("description: expected a string, got {0}", value_kind(description))
    scenario = Scenario(
        query=query, keys=keys, values=values, labels=tuple(labels), title=title,
        description=description, scale=scale_from_document(document),
        pins=_pins_from_list(document.get("pins")),
    )
    if document.get("claims") is not None:  # a story's claims must fit the scenario they speak of
        # Start-up: the claims' checks (and the sequence module they use) load only for a file with claims.
        from attention_explorer.core.teaching.claims import claims_from_list

        claims_from_list(document["claims"], scenario)
    return scenario


def _pins_from_list(raw: Any) -> tuple[Pin, ...]:
    """A file's "pins" (None: none), each pin read by scenario_from_dict's own rules."""
    if raw is None:
        return ()
    from attention_explorer.core.scenes.query.pinfile import (
        pins_from_list,  # start-up: loaded only for a file with pins
    )

    return pins_from_list(raw, scenario_from_dict)


def scenario_to_dict(scenario: Scenario, as_lists: bool = True) -> dict[str, Any]:
    """The JSON document of a scenario (floats keep every bit through json's repr; as_lists=False: arrays kept)."""
    document: dict[str, Any] = {"format": FORMAT_ID}
    if scenario.title:
        document["title"] = scenario.title
    if scenario.description:
        document["description"] = scenario.description
    for name in ("query", "keys", "values"):
        document[name] = getattr(scenario, name).tolist() if as_lists else getattr(scenario, name)
    document["labels"] = list(scenario.labels)
    document["scale"] = AUTO_SCALE if scenario.scale is None else scenario.scale
    if scenario.pins:
        from attention_explorer.core.scenes.query.pinfile import (
            pins_to_list,  # start-up: loaded only for a scenario with pins
        )

        document["pins"] = pins_to_list(scenario.pins)
    return document


def _check_kind(kind: Any) -> None:
    """Refuse a `kind` that is none of "sequence" (or its older spelling "self"), "multihead", "cross", "positions"."""
    if not isinstance(kind, str) or kind not in (*SEQUENCE_KINDS, MULTIHEAD_KIND, CROSS_KIND, POSITIONS_KIND):
        raise ScenarioError(
            'kind: expected "{0}" (a self-attention file), "{1}" (a multi-head file), "{2}" (a cross-attention '
            'file), "{3}" (a positions file) or no "kind" at all (a single query), got {4}',
            SEQUENCE_KIND, MULTIHEAD_KIND, CROSS_KIND, POSITIONS_KIND, json.dumps(kind, ensure_ascii=False)[:40],
        )


def any_from_dict(document: Any) -> AnyScene:
    """A single-query Scenario, or the scene of the document's `kind` ("sequence"/"self", "multihead", "cross",
    "positions")."""
    if isinstance(document, dict) and "kind" in document:
        _check_kind(document["kind"])
        # Start-up: each kind's reader (and its scenario's module) loads only for a file of that kind.
        if document["kind"] == MULTIHEAD_KIND:
            from attention_explorer.core.scenes.multihead.file import multihead_from_dict

            return multihead_from_dict(document)
        if document["kind"] == CROSS_KIND:
            from attention_explorer.core.scenes.cross.file import FieldReaders, cross_from_dict

            return cross_from_dict(document, FieldReaders(FORMAT_ID, _rows, scale_from_document))
        if document["kind"] == POSITIONS_KIND:
            from attention_explorer.core.scenes.positions.file import positions_from_dict

            return positions_from_dict(document)
        from attention_explorer.core.scenes.sequence.file import sequence_from_dict

        return sequence_from_dict(document)
    return scenario_from_dict(document)


def loads(data: bytes | str) -> Scenario:
    """Parse and validate single-query scenario JSON text; any problem (or a self-attention file) raises."""
    return scenario_from_dict(parse_document(data, all_fields))


def loads_any(data: bytes | str) -> AnyScene:
    """Parse and validate JSON text of either kind; any problem raises ScenarioError."""
    return any_from_dict(parse_document(data, all_fields))


def load(path: str | os.PathLike[str]) -> Scenario:
    """Read, parse and validate a single-query scenario file; problems raise ScenarioError (never a traceback)."""
    return loads(read_file(path))


def load_any(path: str | os.PathLike[str]) -> AnyScene:
    """Read, parse and validate a scenario file of either kind (single query or `"kind": "sequence"`)."""
    return loads_any(read_file(path))


def dumps(scenario: AnyScene) -> str:
    """Scenario JSON text (any kind): one field per line, one matrix row per line, non-ASCII kept readable."""
    return "".join(dump_pieces(scenario))


def dump_pieces(scenario: AnyScene) -> Iterator[str]:
    """The text of dumps() in pieces, a matrix row at a time: a file at the limits is never held whole."""
    if isinstance(scenario, Scenario):
        document, row_fields = scenario_to_dict(scenario, as_lists=False), ("keys", "values")
    else:
        document, row_fields = _kind_document(scenario)
    yield "{\n"
    for index, (name, value) in enumerate(document.items()):
        yield ("" if index == 0 else ",\n") + f"  {json.dumps(name)}: "
        if name in row_fields:
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


def _kind_document(scenario: AnyScene) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The document of a scenario of another kind, and its fields written one matrix row per line."""
    # Start-up: the kinds' modules load only when such a scenario is written (it was read or built with them).
    from attention_explorer.core.scenes.cross.file import cross_to_dict
    from attention_explorer.core.scenes.cross.scene import CROSS_MATRICES, CrossScenario
    from attention_explorer.core.scenes.multihead.file import ROW_FIELDS, multihead_to_dict
    from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
    from attention_explorer.core.scenes.positions.file import PositionalScene, positions_to_dict
    from attention_explorer.core.scenes.sequence.file import sequence_to_dict
    from attention_explorer.core.scenes.sequence.scene import MATRICES, SequenceScenario

    if isinstance(scenario, SequenceScenario):
        return sequence_to_dict(scenario, as_lists=False), MATRICES
    if isinstance(scenario, MultiHeadScenario):
        return multihead_to_dict(scenario), ROW_FIELDS
    if isinstance(scenario, CrossScenario):
        return cross_to_dict(scenario, FORMAT_ID), CROSS_MATRICES
    if isinstance(scenario, PositionalScene):
        return positions_to_dict(scenario), ()
    return scenario_to_dict(scenario, as_lists=False), ("keys", "values")


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
