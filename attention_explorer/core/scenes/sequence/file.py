"""The self-attention file (`"kind": "sequence"`, or the older "self"): its document to a SequenceScenario and back.

Read by the same rules as core/scenes/query/file.py; core/files/anykind.py dispatches to it by kind. Pure Python
and numpy, no Qt.
"""

from __future__ import annotations

import json
from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID, causal_flag, check_format, scale_from_document, text_fields
from attention_explorer.core.files.fields import matrix_rows as _rows
from attention_explorer.core.limits import AUTO_SCALE, MAX_TOKENS, ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.kinds import SEQUENCE_KIND, SEQUENCE_KINDS
from attention_explorer.core.scenes.sequence.scene import MATRICES, SequenceScenario, check_tokens
from attention_explorer.core.teaching.claims import claims_from_list

SEQUENCE_FIELDS = ("format", "kind", "title", "description", "tokens", *MATRICES, "causal", "padding", "scale",
                   "claims")


def sequence_from_dict(document: dict[str, Any]) -> SequenceScenario:
    """Validate a parsed `"kind": "sequence"` (or "self") document and build the scenario (first problem raises)."""
    for name in document:
        if name not in SEQUENCE_FIELDS:
            raise ScenarioError(
                '"{0}": unknown field (allowed in a self-attention file: {1})',
                field_name_text(name), ", ".join(SEQUENCE_FIELDS),
            )
    check_format(document)
    if not isinstance(document.get("kind"), str) or document.get("kind") not in SEQUENCE_KINDS:
        raise ScenarioError('kind: expected "{0}", got {1}', SEQUENCE_KIND, json.dumps(document.get("kind"))[:40])
    for required in ("tokens", *MATRICES):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    tokens = document["tokens"]
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_TOKENS:
        got = len(tokens) if isinstance(tokens, list) else value_kind(tokens)
        raise ScenarioError("tokens: expected a list of 1 to {0} strings, got {1}", MAX_TOKENS, got)
    check_tokens(tuple(tokens))
    n = len(tokens)
    embeddings = _rows(document, "embeddings", n, "one per token", None, "d_model")
    d_model = len(embeddings[0])
    w_q = _rows(document, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    d_k = len(w_q[0])
    w_k = _rows(document, "w_k", d_model, f"d_model = {d_model}", d_k, "d_k from w_q")
    w_v = _rows(document, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    causal = causal_flag(document)
    title, description = text_fields(document)
    sequence = SequenceScenario(
        tokens=tuple(tokens), embeddings=embeddings, w_q=w_q, w_k=w_k, w_v=w_v, causal=causal,
        scale=scale_from_document(document), title=title, description=description,
        padding=document.get("padding", ()),
    )
    claims_from_list(document.get("claims"), sequence)
    return sequence


def sequence_to_dict(sequence: SequenceScenario, as_lists: bool = True) -> dict[str, Any]:
    """The JSON document of a self-attention scenario (floats keep every bit through json's repr)."""
    document: dict[str, Any] = {"format": FORMAT_ID, "kind": SEQUENCE_KIND}
    if sequence.title:
        document["title"] = sequence.title
    if sequence.description:
        document["description"] = sequence.description
    document["tokens"] = list(sequence.tokens)
    document["causal"] = sequence.causal
    if sequence.padding:
        document["padding"] = list(sequence.padding)
    document["scale"] = AUTO_SCALE if sequence.scale is None else sequence.scale
    for name in MATRICES:
        document[name] = getattr(sequence, name).tolist() if as_lists else getattr(sequence, name)
    return document


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = SEQUENCE_FIELDS
ROW_FIELDS = MATRICES  # written one matrix row per line
read = sequence_from_dict


def write(scene: SequenceScenario) -> dict[str, Any]:
    """The document the file holds (matrices kept as arrays)."""
    return sequence_to_dict(scene, as_lists=False)
