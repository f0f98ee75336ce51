"""The `"kind": "multihead"` scenario file: a parsed JSON document to a MultiHeadScenario and back.

core/files/anykind.py dispatches to it by kind and writes its text (one matrix row per line, atomically); the checks
here name the first problem's place, with the shared readers of core/files/fields.py. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from typing import Any

from attention_explorer.core.files.fields import (
    FORMAT_ID,
    causal_flag,
    check_format,
    matrix_rows,
    scale_from_document,
    text_fields,
)
from attention_explorer.core.limits import AUTO_SCALE, MAX_TOKENS, ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.multihead.scene import MATRICES, MULTIHEAD_KIND, MultiHeadScenario, check_heads
from attention_explorer.core.scenes.sequence.scene import check_tokens

MULTIHEAD_FIELDS = ("format", "kind", "title", "description", "tokens", "heads", *MATRICES, "causal", "scale")
ROW_FIELDS = MATRICES  # written one row per line


def multihead_from_dict(document: dict[str, Any]) -> MultiHeadScenario:
    """Validate a parsed `"kind": "multihead"` document and build the scenario (the first problem raises)."""
    for name in document:
        if name not in MULTIHEAD_FIELDS:
            raise ScenarioError(
                '"{0}": unknown field (allowed in a multi-head file: {1})',
                field_name_text(name), ", ".join(MULTIHEAD_FIELDS),
            )
    check_format(document)
    if document.get("kind") != MULTIHEAD_KIND:
        raise ScenarioError('kind: expected "{0}"', MULTIHEAD_KIND)
    for required in ("tokens", "heads", *MATRICES):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    tokens = document["tokens"]
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_TOKENS:
        got = len(tokens) if isinstance(tokens, list) else value_kind(tokens)
        raise ScenarioError("tokens: expected a list of 1 to {0} strings, got {1}", MAX_TOKENS, got)
    check_tokens(tuple(tokens))
    embeddings = matrix_rows(document, "embeddings", len(tokens), "one per token", None, "d_model")
    d_model = len(embeddings[0])
    check_heads(document["heads"], d_model)  # before the weights: "heads" is the usual mistake, and cheap
    size = f"d_model = {d_model}, the width of the embeddings"
    weights = {name: matrix_rows(document, name, d_model, size, d_model, "d_model") for name in MATRICES[1:]}
    causal = causal_flag(document)
    title, description = text_fields(document)
    return MultiHeadScenario(
        tokens=tuple(tokens), embeddings=embeddings, heads=document["heads"], causal=causal,
        scale=scale_from_document(document), title=title, description=description, **weights,
    )


def multihead_to_dict(scenario: MultiHeadScenario) -> dict[str, Any]:
    """The JSON document of a multi-head scenario (floats keep every bit through json's repr)."""
    document: dict[str, Any] = {"format": FORMAT_ID, "kind": MULTIHEAD_KIND}
    if scenario.title:
        document["title"] = scenario.title
    if scenario.description:
        document["description"] = scenario.description
    document["tokens"] = list(scenario.tokens)
    document["heads"] = scenario.heads
    document["causal"] = scenario.causal
    document["scale"] = AUTO_SCALE if scenario.scale is None else scenario.scale
    for name in MATRICES:
        document[name] = getattr(scenario, name).tolist()
    return document


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = MULTIHEAD_FIELDS
read = multihead_from_dict


def write(scene: MultiHeadScenario) -> dict[str, Any]:
    """The document the file holds."""
    return multihead_to_dict(scene)
