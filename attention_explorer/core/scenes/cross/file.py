"""The `"kind": "cross"` file: a JSON document to a CrossScenario and back, every field checked with its place named.

core/files/anykind.py dispatches to it by kind (load_any, dumps, save); the fields every kind shares (rows of
numbers, the scale) are read by core/files/fields.py. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import json
from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID, matrix_rows, scale_from_document, text_fields
from attention_explorer.core.limits import AUTO_SCALE, MAX_KEYS, ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.cross.scene import (
    CROSS_MATRICES,
    TOKEN_LISTS,
    CrossScenario,
    check_token_list,
)
from attention_explorer.core.scenes.kinds import CROSS_KIND

CROSS_FIELDS = ("format", "kind", "title", "description", *TOKEN_LISTS, *CROSS_MATRICES, "scale")


def _tokens(document: dict[str, Any], name: str) -> list[str]:
    tokens = document[name]
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_KEYS:
        got = len(tokens) if isinstance(tokens, list) else value_kind(tokens)
        raise ScenarioError("{0}: expected a list of 1 to {1} strings, got {2}", name, MAX_KEYS, got)
    check_token_list(tuple(tokens), name)
    return tokens


def cross_from_dict(document: dict[str, Any]) -> CrossScenario:
    """Validate a parsed `"kind": "cross"` document and build the scenario (the first problem raises)."""
    for name in document:
        if name not in CROSS_FIELDS:
            raise ScenarioError(
                '"{0}": unknown field (allowed in a cross-attention file: {1})',
                field_name_text(name), ", ".join(CROSS_FIELDS),
            )
    if "format" in document and document["format"] != FORMAT_ID:
        raise ScenarioError('format: expected "{0}", got {1}', FORMAT_ID, json.dumps(document["format"])[:40])
    if document.get("kind") != CROSS_KIND:
        raise ScenarioError('kind: expected "{0}", got {1}', CROSS_KIND, json.dumps(document.get("kind"))[:40])
    for required in (*TOKEN_LISTS, *CROSS_MATRICES):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    target_tokens = _tokens(document, "target_tokens")
    source_tokens = _tokens(document, "source_tokens")
    source = matrix_rows(document, "source_embeddings", len(source_tokens), "one per source token", None, "d_model")
    d_model = len(source[0])
    target = matrix_rows(document, "target_embeddings", len(target_tokens), "one per target token", d_model,
                         "d_model from source_embeddings")
    w_q = matrix_rows(document, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    w_k = matrix_rows(document, "w_k", d_model, f"d_model = {d_model}", len(w_q[0]), "d_k from w_q")
    w_v = matrix_rows(document, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    title, description = text_fields(document)
    return CrossScenario(
        target_tokens=tuple(target_tokens), source_tokens=tuple(source_tokens), target_embeddings=target,
        source_embeddings=source, w_q=w_q, w_k=w_k, w_v=w_v, scale=scale_from_document(document),
        title=title, description=description,
    )


def cross_to_dict(cross: CrossScenario, format_id: str = FORMAT_ID) -> dict[str, Any]:
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


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = CROSS_FIELDS
ROW_FIELDS = CROSS_MATRICES  # written one matrix row per line
read = cross_from_dict


def write(cross: CrossScenario) -> dict[str, Any]:
    """The document the file holds."""
    return cross_to_dict(cross)
