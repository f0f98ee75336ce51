"""The multi-head lab's own model: the scenario, its result, the seed, and the chosen head and query row.

Like SequenceModel it is the only writer: the lab's views call its edit methods and redraw on `changed` (numbers)
or `selection_changed` (head and row). Edits are not undoable, as in the self-attention lab: the lab is a
playground beside the explorer, whose undo history stays its own. An invalid edit raises ScenarioError and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from attention_explorer.core import multihead as mh
from attention_explorer.core.multihead import MultiHeadResult, MultiHeadScenario
from attention_explorer.core.scenario import MAX_TITLE, ScenarioError
from attention_explorer.core.sequence import check_tokens, token_embeddings

DEFAULT_TOKENS = ("我", "爱", "北京", "天安门")
DEFAULT_D_MODEL = 8
DEFAULT_HEADS = 2
MAX_LAB_D_MODEL = 1024  # the spin box's range; a file may bring up to MAX_DIM


def default_multihead(seed: int = 0) -> MultiHeadScenario:
    """Four tokens, d_model = 8 and two heads of 4, seeded random weights."""
    return mh.build_multihead(DEFAULT_TOKENS, DEFAULT_D_MODEL, DEFAULT_HEADS, seed,
                              title="Multi-head attention: " + " ".join(DEFAULT_TOKENS))


class MultiHeadModel(QObject):
    """Holds the MultiHeadScenario and its MultiHeadResult; emits `changed` after every edit."""

    changed = Signal()  # the scenario (and so the result) changed
    selection_changed = Signal()  # the chosen head or query row changed

    def __init__(self, scenario: MultiHeadScenario | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._scenario = scenario if scenario is not None else default_multihead()
        self._result = self._scenario.compute()
        self._seed = 0
        self._head = 0
        self._row = 0

    # ------------------------------------------------------------ reading

    @property
    def scenario(self) -> MultiHeadScenario:
        """The current (immutable) multi-head scenario."""
        return self._scenario

    @property
    def result(self) -> MultiHeadResult:
        """Every head's numbers, the concatenation and the output."""
        return self._result

    @property
    def seed(self) -> int:
        """Seed of the random embeddings and weights."""
        return self._seed

    @property
    def head(self) -> int:
        """The chosen head (counted from 0)."""
        return self._head

    @property
    def row(self) -> int:
        """The chosen query row (token index)."""
        return self._row

    # ------------------------------------------------------------ selection

    def select(self, head: int, row: int | None = None) -> None:
        """Choose a head and, optionally, a query row (out-of-range values raise ScenarioError)."""
        row = self._row if row is None else row
        mh.check_head_and_row(self._scenario, head, row)
        if (head, row) != (self._head, self._row):
            self._head, self._row = head, row
            self.selection_changed.emit()

    # ------------------------------------------------------------ edits

    def _apply(self, scenario: MultiHeadScenario) -> None:
        if scenario == self._scenario:
            return
        before, self._scenario = self._scenario, scenario
        self._result = mh.compute_multihead(scenario, before, self._result)
        clamped = (min(self._head, scenario.heads - 1), min(self._row, scenario.n - 1))
        if clamped != (self._head, self._row):
            self._head, self._row = clamped
            self.selection_changed.emit()
        self.changed.emit()

    def load_scenario(self, scenario: MultiHeadScenario) -> None:
        """Replace the whole scenario (a file or a preset)."""
        if not isinstance(scenario, MultiHeadScenario):
            raise ScenarioError("expected a multi-head scenario")
        self._apply(scenario)

    def set_tokens_text(self, text: str) -> None:
        """New words (split at spaces): a word keeps its row of X, a new word gets its seeded embedding."""
        tokens = tuple(text.split())
        current = self._scenario
        if tokens == current.tokens:
            return
        check_tokens(tokens)
        rows = token_embeddings(tokens, current.d_model, self._seed)
        for i, token in enumerate(tokens):
            if token in current.tokens:
                rows[i] = current.embeddings[current.tokens.index(token)]
        title = ("Multi-head attention: " + " ".join(tokens))[:MAX_TITLE]
        self._apply(mh.replace_multihead(current, tokens=tokens, embeddings=rows, title=title, description=""))

    def set_d_model(self, d_model: int) -> None:
        """A new width: fresh seeded X and W's (h must divide it; the message lists the h that would)."""
        current = self._scenario
        if d_model == current.d_model:
            return
        mh.check_d_model(d_model, current.heads)
        self._apply(self._built(current.tokens, d_model, current.heads))

    def set_heads(self, heads: int) -> None:
        """Split the same W_Q, W_K, W_V, W_O into another number of heads (it must divide d_model)."""
        current = self._scenario
        if heads == current.heads:
            return
        mh.check_heads(heads, current.d_model)
        self._apply(mh.replace_multihead(current, heads=heads))

    def randomize(self, seed: int | None = None) -> None:
        """New seeded embeddings and weights (same tokens, sizes, mask and scale)."""
        if seed is not None:
            mh.check_seed(seed)
            self._seed = seed
        current = self._scenario
        self._apply(self._built(current.tokens, current.d_model, current.heads))

    def _built(self, tokens: Sequence[str], d_model: int, heads: int) -> MultiHeadScenario:
        current = self._scenario
        return mh.build_multihead(tokens, d_model, heads, self._seed, causal=current.causal, scale=current.scale,
                                  title=current.title)

    def set_causal(self, causal: bool) -> None:
        """Turn the causal mask (−∞ above the diagonal in every head) on or off."""
        self._apply(mh.replace_multihead(self._scenario, causal=bool(causal)))

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k (d_k = d_model / h); a number ≥ 0: a manual factor."""
        self._apply(mh.replace_multihead(self._scenario, scale=scale))
