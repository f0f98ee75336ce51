"""The multi-head lab's own model: the scenario, its result, the seed, and the chosen head and query row.

Like SequenceModel it is the only writer: the lab's views call its edit methods and redraw on `changed` (numbers)
or `selection_changed` (head and row). Every edit is reported as a LabEdit (`edited`): in a window it is a step of
the window's one undo history and part of its document (state/workspace.py); choosing a head or a row is not an
edit. An invalid edit raises ScenarioError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal

from attention_explorer.core.limits import MAX_TITLE, ScenarioError
from attention_explorer.core.scenes.multihead import scene as mh
from attention_explorer.core.scenes.multihead.scene import MultiHeadResult, MultiHeadScenario
from attention_explorer.core.scenes.sequence.scene import check_tokens, token_embeddings
from attention_explorer.core.scenes.sequence.tokens import split_tokens
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.labmodel import LabModel
from attention_explorer.state.workspace import scale_text, shortened, step_text

DEFAULT_TOKENS = ("我", "爱", "北京", "天安门")
DEFAULT_D_MODEL = 8
DEFAULT_HEADS = 2
MAX_LAB_D_MODEL = 1024  # the spin box's range; a file may bring up to MAX_DIM
LAB = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Multi-head"))


@dataclass(frozen=True, eq=False)
class MultiHeadState:
    """What an undo step of the lab puts back: the scenario and the seed."""

    scenario: MultiHeadScenario
    seed: int


def default_multihead(seed: int = 0) -> MultiHeadScenario:
    """Four tokens, d_model = 8 and two heads of 4, seeded random weights."""
    return mh.build_multihead(DEFAULT_TOKENS, DEFAULT_D_MODEL, DEFAULT_HEADS, seed,
                              title="Multi-head attention: " + " ".join(DEFAULT_TOKENS))


class MultiHeadModel(LabModel):
    """Holds the MultiHeadScenario and its MultiHeadResult; emits `changed` after every edit."""

    selection_changed = Signal()  # the chosen head or query row changed

    def __init__(self, scenario: MultiHeadScenario | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._scenario = scenario if scenario is not None else default_multihead()
        self._result = self._scenario.compute()
        self._seed = 0
        self._head = 0
        self._row = 0
        self._state = MultiHeadState(self._scenario, self._seed)

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

    @property
    def scene(self) -> MultiHeadScenario:
        """What the lab's file holds."""
        return self._scenario

    def _apply(self, scenario: MultiHeadScenario, text: UndoText, seed: int | None = None,
               opened: bool = False) -> None:
        """Make `scenario` (and `seed`) the lab's state: one edit named `text`, reported by `edited`."""
        seed = self._seed if seed is None else seed
        self._record(scenario == self._scenario and seed == self._seed, MultiHeadState(scenario, seed), text, opened)

    def _show(self, state: MultiHeadState) -> None:
        before, self._state = self._scenario, state
        self._scenario, self._seed = state.scenario, state.seed
        self._result = mh.compute_multihead(state.scenario, before, self._result)
        clamped = (min(self._head, state.scenario.heads - 1), min(self._row, state.scenario.n - 1))
        if clamped != (self._head, self._row):
            self._head, self._row = clamped
            self.selection_changed.emit()
        self.changed.emit()

    def load_scenario(self, scenario: MultiHeadScenario) -> None:
        """Open a whole scenario (a file or a preset): the lab's saved state."""
        self.load_scene(scenario)

    def load_scene(self, scenario: MultiHeadScenario, text: UndoText | str | None = None,
                   opened: bool = True) -> None:
        """Replace the whole scenario: opened (a file, a preset; the lab's saved state), else an edit (a recovered
        scenario); named `text` (default: Open and its title)."""
        if not isinstance(scenario, MultiHeadScenario):
            raise ScenarioError("expected a multi-head scenario")
        if text is None:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"),
                             scenario.title or " ".join(scenario.tokens), translated_args="presets")
        self._apply(scenario, text, opened=opened)

    def set_tokens_text(self, text: str) -> None:
        """New words (split at spaces, unspaced Chinese per character): a word keeps its row of X, a new word gets its
        seeded embedding."""
        tokens = tuple(split_tokens(text))
        current = self._scenario
        if tokens == current.tokens:
            return
        check_tokens(tokens)
        rows = token_embeddings(tokens, current.d_model, self._seed)
        for i, token in enumerate(tokens):
            if token in current.tokens:
                rows[i] = current.embeddings[current.tokens.index(token)]
        title = ("Multi-head attention: " + " ".join(tokens))[:MAX_TITLE]
        self._apply(mh.replace_multihead(current, tokens=tokens, embeddings=rows, title=title, description=""),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Sentence “{0}”"), shortened(" ".join(tokens))))

    def set_d_model(self, d_model: int) -> None:
        """A new width: fresh seeded X and W's (h must divide it; the message lists the h that would)."""
        current = self._scenario
        if d_model == current.d_model:
            return
        mh.check_d_model(d_model, current.heads)
        self._apply(self._built(current.tokens, d_model, current.heads, self._seed),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Set d_model = {0}"), d_model))

    def set_heads(self, heads: int) -> None:
        """Split the same W_Q, W_K, W_V, W_O into another number of heads (it must divide d_model)."""
        current = self._scenario
        if heads == current.heads:
            return
        mh.check_heads(heads, current.d_model)
        self._apply(mh.replace_multihead(current, heads=heads),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Set h = {0}"), heads))

    def randomize(self, seed: int | None = None) -> None:
        """New seeded embeddings and weights (same tokens, sizes, mask and scale)."""
        if seed is not None:
            mh.check_seed(seed)
        seed = self._seed if seed is None else seed
        current = self._scenario
        self._apply(self._built(current.tokens, current.d_model, current.heads, seed),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Random X, W (seed {0})"), seed), seed)

    def _built(self, tokens: Sequence[str], d_model: int, heads: int, seed: int) -> MultiHeadScenario:
        current = self._scenario
        return mh.build_multihead(tokens, d_model, heads, seed, causal=current.causal, scale=current.scale,
                                  title=current.title)

    def set_causal(self, causal: bool) -> None:
        """Turn the causal mask (−∞ above the diagonal in every head) on or off."""
        text = (QT_TRANSLATE_NOOP("ExplorerModel", "Causal mask on") if causal
                else QT_TRANSLATE_NOOP("ExplorerModel", "Causal mask off"))
        self._apply(mh.replace_multihead(self._scenario, causal=bool(causal)), step_text(LAB, text))

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k (d_k = d_model / h); a number ≥ 0: a manual factor."""
        self._apply(mh.replace_multihead(self._scenario, scale=scale), scale_text(LAB, scale))
