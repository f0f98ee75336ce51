"""The self-attention lab's own model: the current token sequence, its result, the seed and the hovered cell.

Like ExplorerModel it is the only writer: the lab's views call its edit methods and redraw on `changed`.
Every edit is reported as a LabEdit (`edited`): in a window it is a step of the window's one undo history and part
of its document (state/workspace.py). An invalid edit raises ScenarioError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject

from attention_explorer.core import limits
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import MAX_TITLE, ScenarioError
from attention_explorer.core.scenes.sequence import scene as sq
from attention_explorer.core.scenes.sequence.scene import SequenceResult, SequenceScenario
from attention_explorer.core.scenes.sequence.tokens import split_tokens
from attention_explorer.state.explorer import UndoText
from attention_explorer.state.labmodel import CellHoverModel
from attention_explorer.state.workspace import scale_text, shortened, step_text

DEFAULT_PRESET = "self-attention"
ENGLISH_EXAMPLE = "the cat sat on the mat"
CHINESE_EXAMPLE = "我 爱 北京"
WEIGHT_MATRICES = ("w_q", "w_k", "w_v")
LAB = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Self-attention"))
MATRIX_NAMES = {"embeddings": "X", "w_q": "W_Q", "w_k": "W_K", "w_v": "W_V"}


@dataclass(frozen=True, eq=False)
class SequenceState:
    """What an undo step of the lab puts back: the sequence, the seed, and which W's are the seed's own."""

    sequence: SequenceScenario
    seed: int
    generated: frozenset[str]


def default_sequence() -> SequenceScenario:
    """The 我 爱 北京 preset, or a seeded sequence of the same words should the preset not be a sequence."""
    preset = load_preset(DEFAULT_PRESET)
    if isinstance(preset, SequenceScenario):
        return preset
    return sq.build_sequence(CHINESE_EXAMPLE.split(), 4, 2, 2)


class SequenceModel(CellHoverModel):
    """Holds the SequenceScenario and its SequenceResult; emits `changed` after every edit."""


    def __init__(self, sequence: SequenceScenario | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sequence = sequence if sequence is not None else default_sequence()
        self._result = self._sequence.compute()
        self._seed = 0
        # W's that are exactly the seeded generator's output: a change of d_model regenerates them;
        # other W's (edited, identity, from a file) keep their numbers where the new shape overlaps.
        self._generated: set[str] = set()
        # Every token's last embedding row: "the cat sat…" and back restores the words' numbers.
        self._vocabulary: dict[str, np.ndarray] = {}
        self._remember_rows()
        self._output_row = -1
        self._padding_choice: tuple[int, ...] = ()  # what the padding switch brings back when turned on again
        self._state = SequenceState(self._sequence, self._seed, frozenset(self._generated))

    # ------------------------------------------------------------ reading

    @property
    def sequence(self) -> SequenceScenario:
        """The current (immutable) self-attention scenario."""
        return self._sequence

    @property
    def result(self) -> SequenceResult:
        """Q, K, V, the scores, the weights and the output of the current sequence."""
        return self._result

    @property
    def seed(self) -> int:
        """Seed of the random embeddings and projections."""
        return self._seed

    @property
    def scene(self) -> SequenceScenario:
        """What the lab's file holds."""
        return self._sequence

    @property
    def output_row(self) -> int:
        """Row i of the output A·V under the mouse (−1: none)."""
        return self._output_row

    # ------------------------------------------------------------ hover (presentation state)

    def set_output_hover(self, row: int) -> None:
        """Mark output row `row` under the mouse (−1: none)."""
        row = int(row) if 0 <= row < self._sequence.n else -1
        if row != self._output_row:
            self._output_row = row
            self.hover_changed.emit()

    def _cells(self) -> tuple[int, int]:
        """The score map: (query row, key column), N × N."""
        return self._sequence.n, self._sequence.n

    # ------------------------------------------------------------ edits

    def _apply(self, sequence: SequenceScenario, text: UndoText, seed: int | None = None,
               generated: set[str] | frozenset[str] | None = None, opened: bool = False) -> None:
        """Make `sequence` (and `seed`, `generated`) the lab's state: one edit named `text`, reported by `edited`."""
        seed = self._seed if seed is None else seed
        if generated is not None:
            self._generated = set(generated)
        self._record(sequence == self._sequence and seed == self._seed,
                     SequenceState(sequence, seed, frozenset(self._generated)), text, opened)

    def _show(self, state: SequenceState) -> None:
        self._state = state
        self._sequence, self._seed, self._generated = state.sequence, state.seed, set(state.generated)
        self._result = state.sequence.compute()
        self._remember_rows()
        self._keep_hover_inside()
        if self._output_row >= state.sequence.n:
            self._output_row = -1
            self.hover_changed.emit()
        self.changed.emit()

    def _remember_rows(self) -> None:
        for token, row in zip(reversed(self._sequence.tokens), reversed(self._sequence.embeddings)):
            self._vocabulary[token] = row  # reversed: the first occurrence wins

    def load_sequence(self, sequence: SequenceScenario) -> None:
        """Open a whole sequence (a file or a preset): the lab's saved state; its numbers kept through resizes."""
        self.load_scene(sequence)

    def load_scene(self, sequence: SequenceScenario, text: UndoText | str | None = None, opened: bool = True) -> None:
        """Replace the whole sequence: opened (a file, a preset; the lab's saved state), else an edit (the example
        button, a recovered sequence); named `text` (default: Open or Example and its title)."""
        if not isinstance(sequence, SequenceScenario):
            raise ScenarioError("expected a self-attention scenario")
        if text is None:
            source = (QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}") if opened
                      else QT_TRANSLATE_NOOP("ExplorerModel", "Example {0}"))
            text = step_text(LAB, source, sequence.title or " ".join(sequence.tokens), translated_args="presets")
        self._vocabulary = {}
        self._apply(sequence, text, generated=set(), opened=opened)
        self._remember_rows()

    def use_example(self, sequence: SequenceScenario) -> None:
        """The lab's example button: the example's sequence, as an edit (Ctrl+Z brings the sentence back)."""
        self.load_scene(sequence, opened=False)

    def set_tokens(self, tokens: Sequence[str]) -> None:
        """New words: rows of words seen before are kept, new words get their seeded embedding."""
        tokens = tuple(tokens)
        current = self._sequence
        if tokens == current.tokens:
            return
        embeddings = sq.embeddings_for_tokens(current, tokens, self._seed, known=self._vocabulary)
        title = ("Self-attention: " + " ".join(tokens))[:MAX_TITLE]
        self._apply(sq.replace_sequence(current, tokens=tokens, embeddings=embeddings, title=title, description=""),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Sentence “{0}”"), shortened(" ".join(tokens))))

    def set_tokens_text(self, text: str) -> None:
        """Tokens from a typed sentence (split at spaces)."""
        tokens = split_tokens(text)
        if not tokens:
            raise ScenarioError("the sentence is empty: type at least one word")
        self.set_tokens(tokens)

    def _fresh_weights(self, name: str, d_model: int, width: int) -> np.ndarray:
        return sq.random_projection(name, d_model, width, self._seed)

    def _resize_weights(self, name: str, d_model: int, width: int) -> np.ndarray:
        fresh = self._fresh_weights(name, d_model, width)
        if name in self._generated:
            return fresh
        return sq.resized(getattr(self._sequence, name), fresh)

    def set_d_model(self, d_model: int) -> None:
        """Change d_model: embeddings and the rows of every W are cut or extended with seeded numbers."""
        current = self._sequence
        if d_model == current.d_model:
            return
        _check_size("d_model", d_model)
        embeddings = sq.resized(current.embeddings, sq.token_embeddings(current.tokens, d_model, self._seed))
        weights = {name: self._resize_weights(name, d_model, getattr(current, name).shape[1])
                   for name in WEIGHT_MATRICES}
        self._vocabulary = {}
        self._apply(sq.replace_sequence(current, embeddings=embeddings, **weights),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Set d_model = {0}"), d_model))

    def set_d_k(self, d_k: int) -> None:
        """Change d_k: W_Q and W_K lose or gain columns (new ones seeded)."""
        current = self._sequence
        if d_k == current.d_k:
            return
        _check_size("d_k", d_k)
        self._apply(sq.replace_sequence(
            current, w_q=self._resize_weights("w_q", current.d_model, d_k),
            w_k=self._resize_weights("w_k", current.d_model, d_k)),
            step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Set d_k = {0}"), d_k))

    def set_d_v(self, d_v: int) -> None:
        """Change d_v: W_V loses or gains columns (new ones seeded)."""
        current = self._sequence
        if d_v == current.d_v:
            return
        _check_size("d_v", d_v)
        self._apply(sq.replace_sequence(current, w_v=self._resize_weights("w_v", current.d_model, d_v)),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Set d_v = {0}"), d_v))

    def randomize(self, seed: int | None = None) -> None:
        """New seeded N(0, 1) embeddings and N(0, 1/d_model) projections (same sizes, tokens, mask and scale)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)
        seed = self._seed if seed is None else seed
        current = self._sequence
        built = sq.build_sequence(current.tokens, current.d_model, current.d_k, current.d_v, seed,
                                  causal=current.causal, scale=current.scale, title=current.title,
                                  padding=current.padding)
        self._vocabulary = {}
        self._apply(built, step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Random X, W (seed {0})"), seed), seed,
                    generated=set(WEIGHT_MATRICES))

    def set_identity(self) -> None:
        """W_Q = W_K = W_V = I, so Q = K = V = X (only when d_k = d_v = d_model)."""
        current = self._sequence
        refusal = sq.identity_refusal(current.d_model, current.d_k, current.d_v)
        if refusal is not None:
            raise refusal
        identity = np.eye(current.d_model)
        self._apply(sq.replace_sequence(current, w_q=identity, w_k=identity, w_v=identity),
                    step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "W = I")), generated=set())

    def set_cell(self, matrix: str, row: int, column: int, value: float) -> None:
        """Edit one number of X ("embeddings"), W_Q, W_K or W_V."""
        self.paste_block(matrix, row, column, [[value]])

    def paste_block(self, matrix: str, row: int, column: int, rows: Sequence[Sequence[float]]) -> None:
        """Replace a block of numbers (e.g. pasted from a spreadsheet) starting at (row, column)."""
        edited = sq.with_block(self._sequence, matrix, row, column, rows)
        name = MATRIX_NAMES.get(matrix, matrix)
        if len(rows) == 1 and len(rows[0]) == 1:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Edit {0}[{1}, {2}]"), name, row + 1, column + 1)
        else:
            text = step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Paste into {0}"), name)
        self._apply(edited, text, generated=self._generated - {matrix})

    def set_causal(self, causal: bool) -> None:
        """Turn the causal mask (−∞ above the diagonal before softmax) on or off."""
        text = (QT_TRANSLATE_NOOP("ExplorerModel", "Causal mask on") if causal
                else QT_TRANSLATE_NOOP("ExplorerModel", "Causal mask off"))
        self._apply(sq.replace_sequence(self._sequence, causal=bool(causal)), step_text(LAB, text))

    def set_padding(self, positions: Sequence[int]) -> None:
        """Pad exactly these token positions (from 0): no query attends to them."""
        padding = tuple(sorted(set(positions)))
        names = ", ".join(self._sequence.tokens[p] if 0 <= p < self._sequence.n else str(p) for p in padding)
        text = (step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "Padding {0}"), shortened(names)) if padding
                else step_text(LAB, QT_TRANSLATE_NOOP("ExplorerModel", "No padding")))
        self._apply(sq.replace_sequence(self._sequence, padding=padding), text)

    def toggle_padded(self, position: int) -> None:
        """Pad token `position`, or unpad it when it already is."""
        self.set_padding(set(self._sequence.padding) ^ {int(position)})

    def set_padding_on(self, on: bool) -> None:
        """The padding switch: on brings back the last chosen positions (else the last token), off unpads all."""
        current = self._sequence.padding
        if not on:
            if current:
                self._padding_choice = current
            self.set_padding(())
            return
        if current:
            return
        choice = tuple(p for p in self._padding_choice if p < self._sequence.n) or (self._sequence.n - 1,)
        self.set_padding(choice)

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k; a number ≥ 0: a manual factor on Q·Kᵀ."""
        self._apply(sq.replace_sequence(self._sequence, scale=scale), scale_text(LAB, scale))


def _check_size(name: str, size: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= limits.MAX_DIM:
        raise ScenarioError("{0}: expected a whole number from 1 to {1}, got {2!r}", name, limits.MAX_DIM, size)
