"""The `"kind": "positions"` file: a parsed JSON document to the positions lab's scene and back.

core/files/anykind.py dispatches to it by kind and writes it atomically. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID, check_format, number_list, text_fields
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.positional import ROPE_BASE
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.kinds import POSITIONS_KIND
from attention_explorer.core.scenes.positions.scene import PositionalScene, _whole

POSITIONS_FIELDS = ("format", "kind", "title", "description", "d", "pair", "m", "n", "seed", "base", "q", "k")


def positions_from_dict(document: dict[str, Any]) -> PositionalScene:
    """Validate a parsed `"kind": "positions"` document and build the scene (the first problem raises)."""
    for name in document:
        if name not in POSITIONS_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed in a positions file: {1})',
                                field_name_text(name), ", ".join(POSITIONS_FIELDS))
    check_format(document)
    if document.get("kind") != POSITIONS_KIND:
        raise ScenarioError('kind: expected "{0}"', POSITIONS_KIND)
    for required in ("d", "m", "n"):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    for name in ("d", "pair", "m", "n", "seed"):
        if name in document and not _whole(document[name]):
            raise ScenarioError("{0}: expected a whole number, got {1}", name, value_kind(document[name]))
    title, description = text_fields(document)
    base = document.get("base", ROPE_BASE)
    if isinstance(base, bool) or not isinstance(base, (int, float)):
        raise ScenarioError("base: expected a number, got {0}", value_kind(base))
    if ("q" in document) != ("k" in document):
        raise ScenarioError('"{0}": missing (q and k come together)', "k" if "q" in document else "q")
    d = document["d"]
    q = number_list(document["q"], "q", d, "d") if "q" in document else ()
    k = number_list(document["k"], "k", d, "d") if "k" in document else ()
    return PositionalScene(d=d, pair=document.get("pair", 0), m=document["m"], n=document["n"],
                           seed=document.get("seed", 0), title=title, description=description,
                           q=tuple(q), k=tuple(k), base=base)


def positions_to_dict(scene: PositionalScene) -> dict[str, Any]:
    """The JSON document of a positions scene."""
    document: dict[str, Any] = {"format": FORMAT_ID, "kind": POSITIONS_KIND}
    if scene.title:
        document["title"] = scene.title
    if scene.description:
        document["description"] = scene.description
    document.update(d=scene.d, pair=scene.pair, m=scene.m, n=scene.n, seed=scene.seed)
    if scene.base != ROPE_BASE:
        document["base"] = scene.base
    if scene.given:
        document.update(q=list(scene.q), k=list(scene.k))
    return document


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = POSITIONS_FIELDS
ROW_FIELDS: tuple[str, ...] = ()  # no matrices
read = positions_from_dict


def write(scene: PositionalScene) -> dict[str, Any]:
    """The document the file holds."""
    return positions_to_dict(scene)
