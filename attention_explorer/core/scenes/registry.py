"""The registry of the kinds of scene: each `kind` a file names, its scene, its file and what `compute` prints.

For each kind, the folder whose scene.py, file.py and report.py hold them (the kinds' names are core/scenes/kinds.py).
Every kind's modules play the same roles by the same names: file.py has FIELDS, ROW_FIELDS (written one matrix row
per line), read(document) and write(scene); report.py has to_json(scene, result), to_text(scene, result) and,
where a report can be too large to hold, json_chunks(scene, result). They are imported only when a file or scene
of their kind is met: telling a document's kind, or a scene's, imports none of them (start-up loads only the
single query's file). Pure Python, no Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from attention_explorer.core.scenes.kinds import (
    CROSS_KIND,
    MULTIHEAD_KIND,
    POSITIONS_KIND,
    SEQUENCE_KIND,
    SEQUENCE_KINDS,
    TRAINING_KIND,
    check_kind,
)


@dataclass(frozen=True)
class SceneKind:
    """One kind of scene: the `kind` its files name (None: none, the single query), its folder and scene class."""

    name: str | None
    folder: str  # under attention_explorer.core.scenes
    scene_class: str  # the scene's class in scene.py
    modules: Callable[[str], ModuleType]  # "file" or "report" -> that module, imported on first use
    aliases: tuple[str, ...] = ()  # older names files may still give

    def module(self, role: str) -> ModuleType:
        """The kind's "file" or "report" module, imported on first use."""
        return self.modules(role)

    def holds(self, scene: object) -> bool:
        """Whether `scene` is this kind's scene (its module need not be imported to tell)."""
        cls = type(scene)
        return (cls.__name__ == self.scene_class
                and cls.__module__ == f"attention_explorer.core.scenes.{self.folder}.scene")


# Each kind's modules by literal imports (never a module named by a computed string): loaded when first asked for.


def _query(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.query import report
        return report
    from attention_explorer.core.scenes.query import file
    return file


def _sequence(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.sequence import report
        return report
    from attention_explorer.core.scenes.sequence import file
    return file


def _multihead(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.multihead import report
        return report
    from attention_explorer.core.scenes.multihead import file
    return file


def _cross(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.cross import report
        return report
    from attention_explorer.core.scenes.cross import file
    return file


def _positions(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.positions import report
        return report
    from attention_explorer.core.scenes.positions import file
    return file


def _training(role: str) -> ModuleType:
    if role == "report":
        from attention_explorer.core.scenes.training import report
        return report
    from attention_explorer.core.scenes.training import file
    return file


QUERY = SceneKind(None, "query", "Scenario", _query)
KINDS = (
    QUERY,
    SceneKind(SEQUENCE_KIND, "sequence", "SequenceScenario", _sequence, aliases=SEQUENCE_KINDS[1:]),
    SceneKind(MULTIHEAD_KIND, "multihead", "MultiHeadScenario", _multihead),
    SceneKind(CROSS_KIND, "cross", "CrossScenario", _cross),
    SceneKind(POSITIONS_KIND, "positions", "PositionalScene", _positions),
    SceneKind(TRAINING_KIND, "training", "TrainingScene", _training),
)
_BY_NAME = {name: kind for kind in KINDS[1:] for name in (kind.name, *kind.aliases)}


def kind_named(name: Any) -> SceneKind:
    """The kind a file's `kind` names; anything else raises ScenarioError listing the kinds."""
    return _BY_NAME[check_kind(name)]


def kind_of(document: Any) -> SceneKind:
    """The kind of a parsed document: the one its `kind` names, or the single query when it names none."""
    if isinstance(document, dict) and "kind" in document:
        return kind_named(document["kind"])
    return QUERY


def kind_of_scene(scene: object) -> SceneKind:
    """The kind of a scene object; anything else raises TypeError."""
    for kind in KINDS:
        if kind.holds(scene):
            return kind
    raise TypeError(f"not a scene of any kind: {type(scene).__name__}")


def reader(kind: SceneKind) -> Callable[[Any], Any]:
    """The kind's reader: a parsed document to its scene (the first problem raises ScenarioError)."""
    return kind.module("file").read


def writer(kind: SceneKind) -> Callable[[Any], dict[str, Any]]:
    """The kind's writer: a scene to the document its file holds (matrices may be kept as arrays)."""
    return kind.module("file").write


def row_fields(kind: SceneKind) -> tuple[str, ...]:
    """The fields of the kind's file written one matrix row per line."""
    return kind.module("file").ROW_FIELDS


def fields(kind: SceneKind) -> tuple[str, ...]:
    """Every top-level field the kind's file may have."""
    return kind.module("file").FIELDS


@dataclass(frozen=True)
class Report:
    """What `compute` prints for a kind: as JSON, as text, and the JSON in pieces where it can be too large."""

    to_json: Callable[[Any, Any], str]
    to_text: Callable[[Any, Any], str]
    json_chunks: Callable[[Any, Any], Iterator[str]] | None = None


def report(kind: SceneKind) -> Report:
    """The kind's report functions (its report module is imported now)."""
    module = kind.module("report")
    return Report(module.to_json, module.to_text, getattr(module, "json_chunks", None))
