"""The single-query scenario file: a JSON document to a Scenario and back.

Parsing by the JSON rules (core/files/jsonrules.py), checking every field with its place named; a file of another
kind is refused here with the lab to open it in (core/files/anykind.py reads, writes and saves every kind). Pure
Python and numpy, no Qt.
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID, scale_from_document
from attention_explorer.core.files.fields import number_list as _number_list
from attention_explorer.core.files.fields import number_rows as _number_rows
from attention_explorer.core.files.jsonrules import parse_document, read_file
from attention_explorer.core.limits import AUTO_SCALE, MAX_KEYS, ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.kinds import CROSS_KIND, POSITIONS_KIND, TRAINING_KIND, check_kind
from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.core.scenes.query.scene import Scenario, default_labels

__all__ = ["FORMAT_ID", "scale_from_document"]  # kept importable from here (they moved to core/files/fields.py)
SCENARIO_FIELDS = ("format", "title", "description", "query", "keys", "values", "labels", "scale", "claims",
                   "pins")


@functools.cache
def all_fields() -> tuple[str, ...]:
    """Every top-level field of any kind, to name an unknown one in a file too large to parse."""
    # Start-up: the other kinds' file modules load only for such a file, not for every file read.
    from attention_explorer.core.scenes.cross.file import CROSS_FIELDS
    from attention_explorer.core.scenes.multihead.file import MULTIHEAD_FIELDS
    from attention_explorer.core.scenes.positions.file import POSITIONS_FIELDS
    from attention_explorer.core.scenes.sequence.file import SEQUENCE_FIELDS
    from attention_explorer.core.scenes.training.file import TRAINING_FIELDS

    return tuple(dict.fromkeys((*SCENARIO_FIELDS, *SEQUENCE_FIELDS, *MULTIHEAD_FIELDS, *CROSS_FIELDS,
                                *POSITIONS_FIELDS, *TRAINING_FIELDS)))


def scenario_from_dict(document: Any) -> Scenario:
    """Validate a parsed JSON document and build the Scenario (first problem raises ScenarioError)."""
    if not isinstance(document, dict):
        raise ScenarioError("expected a JSON object at the top level, got {0}", value_kind(document))
    if "kind" in document:
        check_kind(document["kind"])  # an unknown kind is refused as such
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
        if document["kind"] == TRAINING_KIND:
            raise ScenarioError('kind "{0}": the training lab\'s settings (d_k, steps, lr and seed), not a '
                                "single-query scenario; open it in the training lab", TRAINING_KIND)
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


def loads(data: bytes | str) -> Scenario:
    """Parse and validate single-query scenario JSON text; any problem (or a self-attention file) raises."""
    return scenario_from_dict(parse_document(data, all_fields))


def load(path: str | os.PathLike[str]) -> Scenario:
    """Read, parse and validate a single-query scenario file; problems raise ScenarioError (never a traceback)."""
    return loads(read_file(path))


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = SCENARIO_FIELDS
ROW_FIELDS = ("keys", "values")  # written one matrix row per line
read = scenario_from_dict


def write(scenario: Scenario) -> dict[str, Any]:
    """The document the file holds (matrices kept as arrays)."""
    return scenario_to_dict(scenario, as_lists=False)
