"""Every page of the middle, in tab order: its id, its title, the kind of scene it saves, and how it is built.

The ids are the names a lecture script uses for a page (core/teaching/lecture.py LABS) and the names lessons use;
nothing refers to a page by its tab number. A lab's module is imported the first time its page is shown (a start-up
that never opens a lab imports none of them: about 50 ms, `python -X importtime`). A lab with a scene of its own
(`kind` other than the explorer's) has one `load(scene)` and a state model whose edits join the window's document.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP

from attention_explorer.core.scenes.kinds import (
    CROSS_KIND,
    MULTIHEAD_KIND,
    POSITIONS_KIND,
    SEQUENCE_KIND,
    TRAINING_KIND,
)
from attention_explorer.state.workspace import EXPLORER

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from attention_explorer.state.explorer import ExplorerModel


@dataclass(frozen=True)
class PageSpec:
    """One page of the middle."""

    id: str  # what lecture scripts and lessons call it
    title: str  # its tab's and its View ▸ Labs entry's title (translated in the "MainWindow" context)
    kind: str  # the kind of scene Save writes from it: a lab's own, or the explorer's scenario
    file_name: str  # what Save As suggests when the page has no file yet
    wide: bool  # a lab with state of its own gets the whole window: the explorer's docks step aside
    build: Callable[[ExplorerModel], QWidget] | None  # None: the canvas, which the window builds itself
    model_attribute: str = ""  # the lab's state model, whose scene is a page of the document
    hint: str = ""  # what the status bar says when nothing is hovered (a lab may say it itself: idle_hint())


def _saturation(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.saturation.lab import SaturationLab
    return SaturationLab(model)


def _variance(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.variance.lab import VarianceLab
    return VarianceLab(model)


def _self_attention(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.self_attention.lab import SelfAttentionLab
    return SelfAttentionLab(model)


def _transformer(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.transformer.lab import TransformerLab
    return TransformerLab(model)


def _multihead(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.multihead.lab import MultiHeadLab
    return MultiHeadLab(model)


def _cross(model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.cross.lab import CrossAttentionLab
    return CrossAttentionLab(model)


def _positions(_model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.positions.lab import PositionalLab
    return PositionalLab()  # its q and k are its own: no explorer model


def _bugs(_model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.bugs.lab import BugsLab
    return BugsLab()  # its scenes are its own, and fixed: no explorer model, nothing to save


def _training(_model: ExplorerModel) -> QWidget:
    from attention_explorer.ui.labs.training.lab import TrainingLab
    return TrainingLab()  # its settings are its own: no explorer model


VECTORS, SATURATION, VARIANCE, SELF_ATTENTION = "vectors", "saturation", "variance", "self-attention"
TRANSFORMER, MULTIHEAD, CROSS, POSITIONS = "transformer", "multi-head", "cross-attention", "positions"

PAGES: tuple[PageSpec, ...] = (
    PageSpec(VECTORS, QT_TRANSLATE_NOOP("MainWindow", "Vectors"), EXPLORER, "scenario.json", False, None),
    PageSpec(SATURATION, QT_TRANSLATE_NOOP("MainWindow", "Saturation: why scale?"), EXPLORER, "scenario.json",
             False, _saturation, hint=QT_TRANSLATE_NOOP(
                 "MainWindow", "Move the factor slider or press ÷ 10 and × 10; drag a key on the Vectors page and the "
                 "curves follow.")),
    PageSpec(VARIANCE, QT_TRANSLATE_NOOP("MainWindow", "Variance: why √dₖ?"), EXPLORER, "scenario.json", True,
             _variance, hint=QT_TRANSLATE_NOOP("MainWindow", "Drag d_k and N; New seed draws fresh random vectors.")),
    PageSpec(SELF_ATTENTION, QT_TRANSLATE_NOOP("MainWindow", "Self-attention"), SEQUENCE_KIND, "sentence.json", True,
             _self_attention, "sequence_model", QT_TRANSLATE_NOOP(
                 "MainWindow",
                 "Type a sentence or edit X and the W's; hover a cell for q·k, click a row to explore it.")),
    PageSpec(TRANSFORMER, QT_TRANSLATE_NOOP("MainWindow", "Real transformer"), EXPLORER, "scenario.json", True,
             _transformer, hint=QT_TRANSLATE_NOOP(
                 "MainWindow", "Open a model folder, type a sentence and press Show; nothing is downloaded.")),
    PageSpec(MULTIHEAD, QT_TRANSLATE_NOOP("MainWindow", "Multi-head attention"), MULTIHEAD_KIND, "multihead.json",
             True, _multihead, "multihead", QT_TRANSLATE_NOOP(
                 "MainWindow", "Change d_model and h; click a head or a row of its maps to explore that query.")),
    PageSpec(CROSS, QT_TRANSLATE_NOOP("MainWindow", "Cross-attention"), CROSS_KIND, "translation.json", True,
             _cross, "cross_model"),
    PageSpec(POSITIONS, QT_TRANSLATE_NOOP("MainWindow", "Positions and q·k"), POSITIONS_KIND, "positions.json", True,
             _positions, "positions"),
    PageSpec("bugs", QT_TRANSLATE_NOOP("MainWindow", "Spot the bug"), EXPLORER, "scenario.json", True, _bugs),
    PageSpec("training", QT_TRANSLATE_NOOP("MainWindow", "Training: scaled vs unscaled"), TRAINING_KIND,
             "training.json", True, _training, "training"),
)
_INDEX = {spec.id: index for index, spec in enumerate(PAGES)}
# The page each kind of scene opens in and is saved from; the explorer's scenario belongs to the Vectors page.
KIND_PAGES = {spec.kind: spec.id for spec in reversed(PAGES)}
SUGGESTED_NAMES = {spec.kind: spec.file_name for spec in PAGES}


def page_index(page_id: str) -> int:
    """The tab index of the page called `page_id` (KeyError for a name no page has)."""
    return _INDEX[page_id]


def page_kind(index: int) -> str:
    """The kind of scene page `index` shows: a lab's own, else the explorer's scenario."""
    return PAGES[index].kind if 0 <= index < len(PAGES) else EXPLORER
