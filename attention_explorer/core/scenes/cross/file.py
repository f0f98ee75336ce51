"""The `"kind": "cross"` file: a JSON document to a CrossScenario and back, every field checked with its place named.

core/scenes/query/file.py dispatches to it (load_any, dumps, save) and hands it its readers of the fields every kind
shares (rows of numbers, the scale), so that this module need not import fileformat. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from attention_explorer.core.files.fields import text_fields
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.cross.scene import (
    CROSS_KIND,
    CROSS_MATRICES,
    TOKEN_LISTS,
    CrossScenario,
    check_token_list,
)
from attention_explorer.core.scenes.query.scene import AUTO_SCALE, MAX_KEYS, ScenarioError

CROSS_FIELDS = ("format", "kind", "title", "description", *TOKEN_LISTS, *CROSS_MATRICES, "scale")


@dataclass(frozen=True)
class FieldReaders:
    """fileformat's format id and its readers of a matrix field and of the scale, shared by every kind."""

    format_id: str
    rows: Callable[..., Any]  # (document, name, count, count_name, width, width_name) -> rows; raises ScenarioError
    scale: Callable[[dict[str, Any]], float | None]


def _tokens(document: dict[str, Any], name: str) -> list[str]:
    tokens = document[name]
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_KEYS:
        got = len(tokens) if isinstance(tokens, list) else value_kind(tokens)
        raise ScenarioError("{0}: expected a list of 1 to {1} strings, got {2}", name, MAX_KEYS, got)
    check_token_list(tuple(tokens), name)
    return tokens


def cross_from_dict(document: dict[str, Any], readers: FieldReaders) -> CrossScenario:
    """Validate a parsed `"kind": "cross"` document and build the scenario (the first problem raises)."""
    for name in document:
        if name not in CROSS_FIELDS:
            raise ScenarioError(
                '"{0}": unknown field (allowed in a cross-attention file: {1})',
                field_name_text(name), ", ".join(CROSS_FIELDS),
            )
    if "format" in document and document["format"] != readers.format_id:
        raise ScenarioError('format: expected "{0}", got {1}', readers.format_id, json.dumps(document["format"])[:40])
    if document.get("kind") != CROSS_KIND:
        raise ScenarioError('kind: expected "{0}", got {1}', CROSS_KIND, json.dumps(document.get("kind"))[:40])
    for required in (*TOKEN_LISTS, *CROSS_MATRICES):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    target_tokens = _tokens(document, "target_tokens")
    source_tokens = _tokens(document, "source_tokens")
    source = readers.rows(document, "source_embeddings", len(source_tokens), "one per source token", None, "d_model")
    d_model = len(source[0])
    target = readers.rows(document, "target_embeddings", len(target_tokens), "one per target token", d_model,
                   "d_model from source_embeddings")
    w_q = readers.rows(document, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    w_k = readers.rows(document, "w_k", d_model, f"d_model = {d_model}", len(w_q[0]), "d_k from w_q")
    w_v = readers.rows(document, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    title, description = text_fields(document)
    return CrossScenario(
        target_tokens=tuple(target_tokens), source_tokens=tuple(source_tokens), target_embeddings=target,
        source_embeddings=source, w_q=w_q, w_k=w_k, w_v=w_v, scale=readers.scale(document),
        title=title, description=description,
    )


def cross_to_dict(cross: CrossScenario, format_id: str) -> dict[str, Any]:
    """The JSON document of a cross-attention scenario (floats keep every bit through json's repr)."""
    document: dict[str, Any] = {"format": format_id, "kind": CROSS_KIND}
    if cross.title:
        document["title"] = cross.title
    if cross.description:
        document["description"] = cross.description
    for name in TOKEN_LISTS:
        document[name] = list(getattr(cross, name))
    document["scale"] = AUTO_SCALE if cross.scale is None else cross.scale
    for name in CROSS_MATRICES:
        document[name] = getattr(cross, name).tolist()
    return document
