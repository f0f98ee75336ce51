"""The recovery file of a window's whole workspace: every page with unsaved work, each in its own file format.

A window's pages each hold a scene of their own kind: the explorer's single-query scenario, the self-attention
lab's sequence, the multi-head and cross-attention labs' scenarios and the positions lab's settings. Their unsaved
work is autosaved together:

* one page with unsaved work: the recovery file is that scene's own file (for the explorer's scenario, exactly
  the file every earlier version wrote and read back);
* several: one JSON document, ``{"format": "attention-explorer-recovery/1", "page": KIND, "pages": {KIND:
  DOCUMENT, ...}}``, each DOCUMENT the scene's own file document and `page` the kind shown when it was written.

Reading takes either (an old recovery file included). Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from attention_explorer.core.files import anykind
from attention_explorer.core.files.jsonrules import parse_document
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.registry import KINDS, kind_of_scene

RECOVERY_FORMAT = "attention-explorer-recovery/1"
RECOVERY_FIELDS = ("format", "page", "pages")
EXPLORER_KIND = "scenario"  # the explorer's single-query scenario (its files name no kind)
PAGE_KINDS = (EXPLORER_KIND, *(kind.name for kind in KINDS if kind.name))  # sequence, multihead, cross, positions


def scene_kind(scene: object) -> str:
    """The page kind of a scene: "scenario" for the explorer's, else its file's `kind`."""
    try:
        return kind_of_scene(scene).name or EXPLORER_KIND
    except TypeError:
        raise TypeError(f"not a scene of any page: {type(scene).__name__}") from None


@dataclass(frozen=True)
class WorkspaceWork:
    """The scenes to recover, by page kind (in PAGE_KINDS order), and the kind of the page that was shown."""

    scenes: dict[str, Any]
    page: str = EXPLORER_KIND


def dump_pieces(work: WorkspaceWork) -> Iterator[tuple[str, str]]:
    """(kind, text) pieces of the recovery file: a single scene's own file, or the workspace document ("" for the
    pieces of its frame)."""
    if len(work.scenes) == 1:
        (kind, scene), = work.scenes.items()
        for piece in anykind.dump_pieces(scene):
            yield kind, piece
        return
    yield "", "{\n" + f'  "format": {json.dumps(RECOVERY_FORMAT)},\n  "page": {json.dumps(work.page)},\n  "pages": {{\n'
    for number, (kind, scene) in enumerate(work.scenes.items()):
        yield "", ("" if number == 0 else ",\n") + f"  {json.dumps(kind)}: "
        pieces = anykind.dump_pieces(scene)
        last = next(pieces)
        for piece in pieces:
            yield kind, last
            last = piece
        yield kind, last.removesuffix("\n")  # the document's closing brace, the entry's comma after it
    yield "", "\n  }\n}\n"


def save(work: WorkspaceWork, path: str | os.PathLike[str]) -> None:
    """Write the recovery file atomically; a scene whose own file would be too large raises WorkspaceTooLarge."""
    sizes: dict[str, int] = {}

    def pieces() -> Iterator[str]:
        for kind, piece in dump_pieces(work):
            if kind:
                sizes[kind] = sizes.get(kind, 0) + len(piece.encode("utf-8"))
            yield piece

    try:
        anykind.save_pieces(pieces(), path)
    except ScenarioError as error:
        if not sizes:
            raise
        too_large = [kind for kind, size in sizes.items() if size > anykind.MAX_FILE_BYTES]
        raise WorkspaceTooLarge(error, tuple(too_large)) from None


class WorkspaceTooLarge(ScenarioError):
    """The recovery file would be too large to load again; `kinds`: the pages whose own file alone would be."""

    def __init__(self, error: ScenarioError, kinds: tuple[str, ...]) -> None:
        super().__init__(error.template, *error.values)
        self.kinds = kinds


def loads(data: bytes | str) -> WorkspaceWork:
    """Read a recovery file: a workspace document, or any single scene's file (an old recovery file is one)."""
    document = parse_document(data, lambda: (*RECOVERY_FIELDS, *anykind.all_fields()))
    if isinstance(document, dict) and document.get("format") == RECOVERY_FORMAT:
        return _workspace_from_dict(document)
    scene = anykind.any_from_dict(document)
    kind = scene_kind(scene)
    return WorkspaceWork({kind: scene}, kind)


def _workspace_from_dict(document: dict[str, Any]) -> WorkspaceWork:
    for name in document:
        if name not in RECOVERY_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed in a recovery file: {1})', field_name_text(name),
                                ", ".join(RECOVERY_FIELDS))
    pages = document.get("pages")
    if not isinstance(pages, dict) or not pages:
        raise ScenarioError("pages: expected an object with one scene per page, got {0}", value_kind(pages))
    scenes = {}
    for kind, entry in pages.items():
        if kind not in PAGE_KINDS:
            raise ScenarioError('pages: "{0}" is not a page (expected one of {1})', field_name_text(kind),
                                ", ".join(PAGE_KINDS))
        scene = anykind.any_from_dict(entry)
        if scene_kind(scene) != kind:
            raise ScenarioError('pages: the scene under "{0}" is of another kind', kind)
        scenes[kind] = scene
    page = document.get("page", EXPLORER_KIND)
    if page not in PAGE_KINDS:
        raise ScenarioError("page: expected one of {0}, got {1}", ", ".join(PAGE_KINDS), value_kind(page))
    return WorkspaceWork({kind: scenes[kind] for kind in PAGE_KINDS if kind in scenes}, page)
