"""The lab pages of the middle, each built by a function that imports its module only when the page is first shown.

A start-up that never opens a lab imports none of them (about 50 ms of imports, `python -X importtime`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from attention_explorer.state.explorer import ExplorerModel


def saturation_lab_page(model: ExplorerModel) -> QWidget:
    """The saturation lab, its module imported now (on first use)."""
    from attention_explorer.ui.labs.saturation.lab import SaturationLab
    return SaturationLab(model)


def variance_lab_page(model: ExplorerModel) -> QWidget:
    """The variance lab, its module imported now (on first use)."""
    from attention_explorer.ui.labs.variance.lab import VarianceLab
    return VarianceLab(model)


def self_attention_lab_page(model: ExplorerModel) -> QWidget:
    """The self-attention lab, its module imported now (on first use)."""
    from attention_explorer.ui.labs.self_attention.lab import SelfAttentionLab
    return SelfAttentionLab(model)


def transformer_page(model: ExplorerModel) -> QWidget:
    """The real-transformer page, its module imported now (on first use)."""
    from attention_explorer.ui.labs.transformer.lab import TransformerPanel
    return TransformerPanel(model)


def multihead_lab_page(model: ExplorerModel) -> QWidget:
    """The multi-head lab, its module imported now (on first use)."""
    from attention_explorer.ui.labs.multihead.lab import MultiHeadLab
    return MultiHeadLab(model)


def cross_attention_lab_page(model: ExplorerModel) -> QWidget:
    """The cross-attention lab, its module imported now (on first use)."""
    from attention_explorer.ui.labs.cross.lab import CrossAttentionLab
    return CrossAttentionLab(model)


def positional_lab_page() -> QWidget:
    """The positions lab (no explorer model: its q and k are its own), its module imported now (on first use)."""
    from attention_explorer.ui.labs.positions.lab import PositionalLab
    return PositionalLab()
