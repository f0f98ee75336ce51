"""The self-attention lab's masks: the padding switch with its list of tokens, and softmax(QKᵀ/√d_k + M)·V written out.

M is the matrix the core adds before the softmax (0 where a query may look, −∞ where it may not): for a few
tokens it is written out cell by cell, for more it is summarised in words.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QSignalBlocker
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from attention_explorer.core.scenes.sequence.scene import SequenceResult, SequenceScenario
from attention_explorer.ui.labs.self_attention.state import SequenceModel
from attention_explorer.ui.style.numbers import MINUS
from attention_explorer.ui.style.safe_text import escaped, mnemonic_free

M_MATRIX_MAX_N = 4  # M written out cell by cell up to this N; beyond it in words
PADDING_MENU_MAX = 64  # tokens listed in the padding menu (a longer sentence lists its first 64)
PADDED_NAMES_SHOWN = 5  # padding tokens named in the summary of M


class PaddingButton(QToolButton):
    """"Padding mask": a switch, and beside it a menu with one check box per token to choose the padded ones."""

    def __init__(self, model: SequenceModel, guarded: Callable[..., bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paddingButton")
        self.model = model
        self._guarded = guarded
        self.setCheckable(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.token_menu = QMenu(self)
        self.token_menu.setObjectName("paddingMenu")
        self.token_menu.aboutToShow.connect(self.fill_menu)
        self.setMenu(self.token_menu)
        self.toggled.connect(lambda on: self._guarded(model.set_padding_on, on))

    def fill_menu(self) -> None:
        """One checkable entry per token (from the model: its positions count from 0, as in the file)."""
        self.token_menu.clear()
        sequence = self.model.sequence
        for position, token in enumerate(sequence.tokens[:PADDING_MENU_MAX]):
            action = QAction(mnemonic_free(f"{position}: {token}"), self.token_menu)
            action.setCheckable(True)
            action.setChecked(position in sequence.padding)
            action.triggered.connect(lambda _on=False, p=position: self._guarded(self.model.toggle_padded, p))
            self.token_menu.addAction(action)

    def sync(self) -> None:
        """Show the model's state (without feeding it back as an edit)."""
        with QSignalBlocker(self):
            self.setChecked(bool(self.model.sequence.padding))

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.setText(self.tr("Padding mask"))
        self.setToolTip(self.tr("−∞ in the columns of padding tokens before softmax: no query looks at them. "
                                "The arrow beside it chooses which tokens are padding."))


def mask_summary(sequence: SequenceScenario) -> str:
    """M in words: where it is −∞ (causal, padding columns), 0 elsewhere."""
    parts = []
    if sequence.causal:
        parts.append(QCoreApplication.translate("MaskFormula", "above the diagonal (causal)"))
    if sequence.padding:
        names = ", ".join(f"“{escaped(sequence.tokens[p])}”" for p in sequence.padding[:PADDED_NAMES_SHOWN])
        if len(sequence.padding) > PADDED_NAMES_SHOWN:
            names += QCoreApplication.translate("MaskFormula", " … ({0} in all)").format(len(sequence.padding))
        parts.append(QCoreApplication.translate("MaskFormula", "in the columns of the padding tokens {0}").format(
            names))
    if not parts:
        return QCoreApplication.translate("MaskFormula", "M = 0: no mask, every query looks at every key.")
    joined = QCoreApplication.translate("MaskFormula", " and ").join(parts)
    return QCoreApplication.translate("MaskFormula", "M is {0} {1}, 0 elsewhere.").format(MINUS + "∞", joined)


def mask_matrix_html(result: SequenceResult) -> str:
    """M cell by cell as a small bordered table of 0 and −∞."""
    rows = "".join("<tr>" + "".join(f"<td align='center'>{MINUS + '∞' if m else '0'}</td>" for m in row) + "</tr>"
                   for row in result.mask.tolist())
    return f"<table border='1' cellspacing='0' cellpadding='2'>{rows}</table>"


def formula_html(sequence: SequenceScenario, result: SequenceResult) -> str:
    """softmax(QKᵀ/√d_k + M)·V (or × the manual factor) with M written out or summarised."""
    if sequence.scale is None:
        scaled = "QK<sup>T</sup>/√d<sub>k</sub>"
    else:
        scaled = f"QK<sup>T</sup>·{result.scale:.3g}"
    formula = f"<b>softmax({scaled} + M)·V</b>"
    summary = mask_summary(sequence)
    if sequence.n > M_MATRIX_MAX_N:
        return f"{formula} &nbsp; {summary}"
    return (f"<table cellspacing='0' cellpadding='0'><tr><td valign='middle'>{formula}<br/>{summary}&nbsp;&nbsp;"
            f"</td><td valign='middle'>M =&nbsp;</td><td valign='middle'>{mask_matrix_html(result)}</td></tr></table>")
