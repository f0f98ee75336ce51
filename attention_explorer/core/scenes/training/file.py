"""The `"kind": "training"` file: a parsed JSON document to the training lab's scene and back.

core/files/anykind.py dispatches to it by kind and writes it atomically. Pure Python, no Qt.
"""

from __future__ import annotations

from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID, check_format, text_fields
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.messages import field_name_text
from attention_explorer.core.scenes.kinds import TRAINING_KIND
from attention_explorer.core.scenes.training.scene import TrainingScene

TRAINING_FIELDS = ("format", "kind", "title", "description", "d_k", "steps", "lr", "seed")


def training_from_dict(document: dict[str, Any]) -> TrainingScene:
    """Validate a parsed `"kind": "training"` document and build the scene (the first problem raises)."""
    for name in document:
        if name not in TRAINING_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed in a training file: {1})',
                                field_name_text(name), ", ".join(TRAINING_FIELDS))
    check_format(document)
    if document.get("kind") != TRAINING_KIND:
        raise ScenarioError('kind: expected "{0}"', TRAINING_KIND)
    title, description = text_fields(document)
    values = {name: document[name] for name in ("d_k", "steps", "lr", "seed") if name in document}
    return TrainingScene(**values, title=title, description=description)


def training_to_dict(scene: TrainingScene) -> dict[str, Any]:
    """The JSON document of a training scene."""
    document: dict[str, Any] = {"format": FORMAT_ID, "kind": TRAINING_KIND}
    if scene.title:
        document["title"] = scene.title
    if scene.description:
        document["description"] = scene.description
    document.update(d_k=scene.d_k, steps=scene.steps, lr=scene.lr, seed=scene.seed)
    return document


# The roles every kind's file module plays, by the same names (core/scenes/registry.py finds them here).
FIELDS = TRAINING_FIELDS
ROW_FIELDS: tuple[str, ...] = ()  # no matrices
read = training_from_dict


def write(scene: TrainingScene) -> dict[str, Any]:
    """The document the file holds."""
    return training_to_dict(scene)
