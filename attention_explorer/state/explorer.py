"""The one ExplorerModel every panel shares: the current scenario, its result, the selection, undo."""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import AttentionResult
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.core.scenes.query.scene import Scenario

# lupdate reads calls through this alias (tools/update_translations.py passes -tr-function-alias).
_translate = QCoreApplication.translate

_merge_keys = itertools.count(1)

# The undo history keeps at most this many bytes of scenario arrays: a scenario at the file format's
# limit (512 keys × 4096) is ~32 MB, so a lecture's ~1000 steps of those could not fit in memory; 128 MiB keeps a
# window with such a file open under 400 MB (issue 15) and is still over 10,000 steps of a 3-key example.
HISTORY_LIMIT_BYTES = 128 * 1024 * 1024
# And at most this many steps: each also costs ~2 KB besides its arrays (the command, its scenarios, Qt's side),
# so the 7,000 steps of 10,000 small edits held ~11 MB though their arrays were under 1 MB. A lecture makes a few
# hundred steps (a drag is one). Past the limit the oldest go in batches of a quarter of it, not one per edit:
# dropping rebuilds the stack.
HISTORY_LIMIT_STEPS = 1000


@dataclass(frozen=True)
class UndoText:
    """An undo step's name kept as its source text and arguments, so History can show it in any language."""

    source: str  # marked with QT_TRANSLATE_NOOP("ExplorerModel", ...)
    args: tuple[object, ...] = ()
    translated_args: str | None = None  # a context the arguments are translated in (a preset's title)

    def __str__(self) -> str:
        args = tuple(_translate(self.translated_args, arg) if self.translated_args and isinstance(arg, str)
                     else str(arg) if isinstance(arg, UndoText) else arg for arg in self.args)
        return _translate("ExplorerModel", self.source).format(*args)


def new_merge_key() -> int:
    """A fresh token for one gesture (a drag, a slider move): its edits fold into one undo step."""
    return next(_merge_keys)


class HistoryStep(QUndoCommand):
    """One step of the window's undo history: the explorer's edits and the labs' (state/workspace.py) alike.

    Each step knows the arrays it keeps alive (the history's memory bound counts them), how to be pushed again
    when the oldest steps are dropped (rebuilt), its name as source text (retranslate), and where it was made
    (`page`, the model's edit_place then): undone or redone later, the model's `replayed` says so.
    """

    def __init__(self, model: ExplorerModel, text: UndoText | str) -> None:
        super().__init__(str(text))
        self._text = text
        # A weak reference: a strong one would put the model and its own undo stack's commands in a
        # reference cycle, and the garbage collector may then free a command before the stack deletes it
        # (a crash in QUndoStack::clear() when the model is finally destroyed).
        self._model = weakref.ref(model)
        self.page: object = model.edit_place
        self._done = False  # the first redo() is the push: the edit itself, not a replay

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays this step keeps alive (often shared with its neighbours)."""
        return ()

    def rebuilt(self) -> HistoryStep:
        """The same step, new, to be pushed again while the history is rebuilt (its redo then applies nothing)."""
        raise NotImplementedError

    def set_undo_text(self, text: UndoText | str) -> None:
        """Rename the step (the latest value of a gesture)."""
        self._text = text
        self.setText(str(text))

    def retranslate(self) -> None:
        """The step's name in the current language."""
        self.setText(str(self._text))

    def _quiet(self) -> bool:
        """True while the history is rebuilt: the steps are pushed back and must not apply anything."""
        model = self._model()
        return model is None or model._rebuilding_history

    def _replayed(self) -> None:
        """Tell the window that this step was undone or redone (not when it was first pushed)."""
        model = self._model()
        if self._done and model is not None and not model._rebuilding_history:
            model.replayed.emit(self)
        self._done = True


class _ScenarioCommand(HistoryStep):
    """Swap the model's scenario; edits sharing a merge key fold into one step."""

    _ID = 0x4145  # any constant: Qt only merges commands whose id() matches

    def __init__(self, model: ExplorerModel, before: Scenario, after: Scenario, text: UndoText | str,
                 merge_key: int | None) -> None:
        super().__init__(model, text)
        self._before = before
        self._after = after
        self._merge_key = merge_key

    def id(self) -> int:
        model = self._model()
        # While the history is rebuilt, its steps are pushed back one by one and must not merge.
        if self._merge_key is None or (model is not None and model._rebuilding_history):
            return -1
        return self._ID

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The scenario arrays this step keeps alive (before and after; often shared with its neighbours)."""
        scenarios = (self._before, self._after)
        scenarios += tuple(pin.scenario for scenario in scenarios for pin in scenario.pins)
        return tuple(array for scenario in scenarios for array in (scenario.query, scenario.keys, scenario.values))

    def rebuilt(self) -> _ScenarioCommand:
        model = self._model()
        step = _ScenarioCommand(model, self._before, self._after, self._text, self._merge_key)
        step.page, step._done = self.page, True
        return step

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _ScenarioCommand) or other._merge_key != self._merge_key:
            return False
        self._after = other._after
        self.set_undo_text(other._text)  # a drag is named by where it ended, not where it began
        # A drag that ends where it started leaves no undo step behind (Qt drops obsolete commands).
        self.setObsolete(self._after == self._before)
        return True

    def redo(self) -> None:
        if not self._quiet():
            self._model()._apply(self._after)
            self._replayed()

    def undo(self) -> None:
        if not self._quiet():
            self._model()._apply(self._before)
            self._replayed()


class ExplorerModel(QObject):
    """Holds the scenario and its result; every edit is an undoable command; emits `changed` after each."""

    changed = Signal()  # the scenario (and so the result) changed
    selection_changed = Signal(int)  # the selected key's index
    steps_changed = Signal()  # step-through mode or the number of revealed steps changed
    opened = Signal()  # a whole new scenario was loaded (a preset, a file): views start again from the top
    history_dropped = Signal()  # the oldest undo steps were dropped to keep the history under its limits
    replayed = Signal(object)  # a HistoryStep was undone or redone (its `page` says where it was made)

    STEP_COUNT = 4  # dot product, scale, softmax, weighted sum

    def __init__(self, scenario: Scenario | None = None, parent: QObject | None = None,
                 history_limit_bytes: int = HISTORY_LIMIT_BYTES,
                 history_limit_steps: int = HISTORY_LIMIT_STEPS) -> None:
        super().__init__(parent)
        self.history_limit_bytes = history_limit_bytes
        self.history_limit_steps = history_limit_steps
        self.dropped_steps = 0  # undo steps dropped from the bottom of the history so far
        self._rebuilding_history = False
        # The commands on the stack, bottom first, and every distinct array they hold (by id) with the number
        # of holders: consecutive steps share scenarios and unchanged arrays, so each array counts once.
        # Each counted step with the arrays it was counted with: a merge gives the top step a new `after`, so
        # its arrays at un-count time are not those that were counted (the count went stale, then a KeyError).
        self._held: list[tuple[_ScenarioCommand, tuple[np.ndarray, ...]]] = []
        self._array_holders: dict[int, list] = {}
        self._history_bytes = 0
        self._scenario = scenario if scenario is not None else load_preset(DEFAULT_PRESET)
        self._result = self._scenario.compute()
        self._selected = 0
        self._step_through = False
        self._revealed_steps = self.STEP_COUNT
        # Random by default: zeros leave every q·k as it was, so a growing d_k would only flatten the weights.
        self.d_k_fill = "random"
        self.d_k_seed = 0
        # Where edits are being made (the window sets its current page): each undo step keeps it as its `page`.
        self.edit_place: object = None
        # The window's one undo history: the labs' edits go on it too (state/workspace.py).
        self.undo_stack = QUndoStack(self)

    # ------------------------------------------------------------ reading

    @property
    def scenario(self) -> Scenario:
        """The current (immutable) scenario."""
        return self._scenario

    @property
    def result(self) -> AttentionResult:
        """The attention result of the current scenario."""
        return self._result

    @property
    def pins(self) -> tuple[Pin, ...]:
        """The pinned scenes (at most three), oldest first; they belong to the scenario, so undo and files keep them."""
        return self._scenario.pins

    @property
    def selected_key(self) -> int:
        """Index of the key every panel highlights."""
        return self._selected

    @property
    def step_through(self) -> bool:
        """True while the four steps are revealed one at a time (presenter mode)."""
        return self._step_through

    @property
    def revealed_steps(self) -> int:
        """How many of the four steps are shown (always 4 outside step-through mode)."""
        return self._revealed_steps if self._step_through else self.STEP_COUNT

    def step_shown(self, step: int) -> bool:
        """True when step `step` (1 dot products, 2 scaling, 3 softmax, 4 weighted sum) is revealed."""
        return step <= self.revealed_steps

    # ------------------------------------------------------------ presentation state (not edits: no undo)

    def set_step_through(self, enabled: bool) -> None:
        """Turn step-through on (starting from step 1) or off (all steps shown)."""
        if enabled != self._step_through:
            self._step_through = enabled
            self._revealed_steps = 1 if enabled else self.STEP_COUNT
            self.steps_changed.emit()

    def reveal_next_step(self) -> None:
        """Show one more step (step-through mode only; stays at 4)."""
        if self._step_through and self._revealed_steps < self.STEP_COUNT:
            self._revealed_steps += 1
            self.steps_changed.emit()

    def reveal_previous_step(self) -> None:
        """Hide the last shown step (step-through mode only; stays at 1)."""
        if self._step_through and self._revealed_steps > 1:
            self._revealed_steps -= 1
            self.steps_changed.emit()

    def select_key(self, index: int) -> None:
        """Make key `index` the highlighted one (out-of-range indices are refused)."""
        if not 0 <= index < self._scenario.n:
            raise ScenarioError("key index {0} is out of range (there are {1} keys)", index, self._scenario.n)
        if index != self._selected:
            self._selected = index
            self.selection_changed.emit(index)

    # ------------------------------------------------------------ edits

    def _apply(self, scenario: Scenario) -> None:
        self._scenario = scenario
        self._result = scenario.compute()
        clamped = self._selected >= scenario.n
        if clamped:
            self._selected = scenario.n - 1
        # `changed` first: a view redrawing the selection must already see the scenario it belongs to.
        self.changed.emit()
        if clamped:
            self.selection_changed.emit(self._selected)

    def retranslate_history(self) -> None:
        """Every undo step's name in the current language (after a language switch)."""
        for index in range(self.undo_stack.count()):
            command = self.undo_stack.command(index)
            if isinstance(command, HistoryStep):
                command.retranslate()

    def _edit(self, build: Callable[[Scenario], Scenario], text: UndoText | str,
              merge_key: int | None = None) -> None:
        after = build(self._scenario)  # raises ScenarioError before anything changes
        if after == self._scenario:
            return
        gesture = self._gesture_command(merge_key)
        if gesture is not None:
            # The next step of the gesture on top of the stack: what push() + mergeWith() would do, without
            # the stack's index/text signals (the history view would rebuild its list on every drag move).
            # Back where the gesture began, the step stays (doing nothing) until finish_gesture() drops it:
            # Qt would drop it now and push a new step on the next move, two history rebuilds mid-drag.
            gesture._after = after
            gesture.set_undo_text(text)  # no signal either: History repaints on `changed`
            self._apply(after)
            self._bound_history()
            return
        self._drop_idle_gesture(None)  # a gesture that came back to its start and was not finished
        self.push_step(_ScenarioCommand(self, self._scenario, after, text, merge_key))

    def push_step(self, step: HistoryStep) -> None:
        """Put an edit's step (the explorer's, or a lab's) on the window's undo history, within its bounds."""
        self._keep_saved_scenario_through_push()
        self.undo_stack.push(step)
        self._bound_history()

    def scenario_saved(self) -> bool:
        """True when the scenario is the one the stack was saved at (its clean index): no scenario step lies between
        that state and this one, whatever steps of the labs do (they share the history but not the scenario)."""
        stack = self.undo_stack
        clean, index = stack.cleanIndex(), stack.index()
        if clean < 0:
            return False
        return not any(isinstance(stack.command(step), _ScenarioCommand)
                       for step in range(min(clean, index), max(clean, index)))

    def _keep_saved_scenario_through_push(self) -> None:
        """Before a push cuts off the steps above the index: if the saved state is among them and only steps of the
        labs lead there, this state holds the saved scenario too, so it becomes the clean index (Qt would forget it)."""
        stack = self.undo_stack
        if stack.cleanIndex() > stack.index() and self.scenario_saved():
            stack.setClean()

    def finish_gesture(self, merge_key: int | None) -> None:
        """End the gesture `merge_key` (a release): if it came back to where it began, it leaves no undo step."""
        if merge_key is not None:
            self._drop_idle_gesture(merge_key)

    def _drop_idle_gesture(self, merge_key: int | None) -> None:
        """Drop the top undo step if it is a gesture (`merge_key`, or any) that changes nothing."""
        stack = self.undo_stack
        index = stack.index()
        if index == 0 or index != stack.count() or index == stack.cleanIndex():
            return
        command = stack.command(index - 1)
        if (isinstance(command, _ScenarioCommand) and command._merge_key is not None
                and merge_key in (None, command._merge_key) and command._after == command._before):
            command.setObsolete(True)  # undo() then deletes it without applying anything (nothing to apply)
            stack.undo()

    # ------------------------------------------------------------ the history's memory

    @property
    def history_bytes(self) -> int:
        """Bytes of scenario arrays the undo history holds, each distinct array counted once."""
        self._count_history()
        return self._history_bytes

    def _hold(self, arrays: tuple[np.ndarray, ...], step: int) -> None:
        for array in arrays:
            entry = self._array_holders.get(id(array))
            if entry is None:
                self._array_holders[id(array)] = [array, step]
                self._history_bytes += array.nbytes
            else:
                entry[1] += step
                if entry[1] == 0:
                    del self._array_holders[id(array)]
                    self._history_bytes -= array.nbytes

    def _count_history(self) -> None:
        """Bring the byte count up to date with the stack (Qt adds and deletes commands only at its top)."""
        stack, held = self.undo_stack, self._held
        if held:  # the top step may have merged a newer edit (a new `after`): count it afresh
            self._hold(held.pop()[1], -1)
        while held and (len(held) > stack.count() or held[-1][0] is not stack.command(len(held) - 1)):
            self._hold(held.pop()[1], -1)
        for index in range(len(held), stack.count()):
            command = stack.command(index)
            arrays = command.arrays() if isinstance(command, HistoryStep) else ()
            held.append((command, arrays))
            self._hold(arrays, 1)

    def _bound_history(self) -> None:
        """Drop the oldest steps while the history holds more than history_limit_bytes (the newest stays), and
        down to history_limit_steps once it has a quarter more steps than that."""
        self._count_history()
        held, drop, total = self._held, 0, self._history_bytes
        too_many = len(held) - self.history_limit_steps if len(held) > self.history_limit_steps * 5 // 4 else 0
        if (total <= self.history_limit_bytes and not too_many) or len(held) < 2:
            return
        counts = {key: entry[1] for key, entry in self._array_holders.items()}
        while ((total > self.history_limit_bytes or drop < too_many)
               and drop < min(len(held) - 1, self.undo_stack.index())):
            for array in held[drop][1]:
                counts[id(array)] -= 1
                if counts[id(array)] == 0:
                    total -= array.nbytes
            drop += 1
        self._rebuild_history(drop)

    def _rebuild_history(self, drop: int) -> None:
        """The stack again without its `drop` oldest steps: same states, index and saved (clean) state.

        QUndoStack can neither remove its bottom command nor change its step limit once it holds any, so the
        kept steps are pushed anew (with redo/undo not applying anything) onto the cleared stack.
        """
        stack = self.undo_stack
        index, clean = stack.index() - drop, stack.cleanIndex() - drop
        self._rebuilding_history = True  # from here no step applies anything: neither the copies nor the cleared
        stack.blockSignals(True)  # the document and the window see one change of index, not a clear and pushes
        try:
            kept = [command.rebuilt() for command, _arrays in self._held[drop:]]
            stack.clear()
            for step in kept:
                stack.push(step)
            if clean >= 0:
                stack.setIndex(clean)
                stack.setClean()
            else:  # the saved state fell off the history: no step leads back to it, so the document stays modified
                stack.resetClean()
            stack.setIndex(index)
        finally:
            stack.blockSignals(False)
            self._rebuilding_history = False
        self._held, self._array_holders, self._history_bytes = [], {}, 0
        self._count_history()
        self.dropped_steps += drop
        stack.indexChanged.emit(index)  # History rebuilds its list from this
        self.history_dropped.emit()

    def _gesture_command(self, merge_key: int | None) -> _ScenarioCommand | None:
        """The command on top of the undo stack if the stack would merge an edit with `merge_key` into it."""
        stack = self.undo_stack
        index = stack.index()
        # Qt merges only into the top command, never into the one the stack was saved at (the clean index).
        if merge_key is None or index == 0 or index != stack.count() or index == stack.cleanIndex():
            return None
        command = stack.command(index - 1)
        if isinstance(command, _ScenarioCommand) and command._merge_key == merge_key and command.childCount() == 0:
            return command
        return None

    def set_component(self, role: str, index: int, component: int, value: float,
                      merge_key: int | None = None) -> None:
        """Set one number of Q (role "query"), of K_index ("key") or of V_index ("value")."""
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Edit {0}"), (self._vector_name(role, index),))
        self._edit(lambda s: sc.with_component(s, role, index, component, value), text, merge_key)

    def set_vector(self, role: str, index: int, values: Sequence[float], merge_key: int | None = None) -> None:
        """Replace Q, K_index or V_index as a whole."""
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Edit {0}"), (self._vector_name(role, index),))
        self._edit(lambda s: sc.with_vector(s, role, index, values), text, merge_key)

    def set_arrays(self, query: object = None, keys: object = None, values: object = None,
                   labels: Sequence[str] | None = None) -> None:
        """Replace Q, K, V and the labels as wholes (None: kept) in one undo step: a script's edit (the Python API).

        Anything numpy reads as numbers will do; a new number of keys without labels names them K1, K2, …
        """
        given = [name for name, part in (("Q", query), ("K", keys), ("V", values)) if part is not None]
        if given:
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Edit {0}"), (", ".join(given),))
        else:
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Rename the keys"))
        self._edit(lambda s: sc.with_arrays(s, query, keys, values, labels), text)

    def set_plane_position(self, role: str, index: int, x: float, y: float,
                           merge_key: int | None = None) -> None:
        """Move Q or K_index in the plane of components 0 and 1 (a drag); other components stay."""
        def build(scenario: Scenario) -> Scenario:
            current = list(sc.vector(scenario, role, index))
            current[0] = x
            if len(current) > 1:
                current[1] = y
            return sc.with_vector(scenario, role, index, current)
        self._edit(build, UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Move {0}"),
                                      (self._vector_name(role, index),)), merge_key)

    def add_pair(self, key: Sequence[float] | None = None, value: Sequence[float] | None = None,
                 label: str | None = None) -> None:
        """Append a key–value pair (zeros unless given) and select it."""
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Add key–value pair"))
        self._edit(lambda s: sc.with_pair_added(s, key, value, label), text)
        self.select_key(self._scenario.n - 1)

    def remove_pair(self, index: int) -> None:
        """Remove key–value pair `index` (one must remain); the selected pair stays selected if it remains."""
        selected = self._selected
        self._edit(lambda s: sc.with_pair_removed(s, index),
                   UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Remove {0}"), (self._label(index),)))
        if index < selected and self._selected == selected:  # the selected pair moved up one row
            self.select_key(selected - 1)

    def set_d_k(self, d_k: int, fill: str | None = None, seed: int | None = None,
                merge_key: int | None = None) -> None:
        """Change d_k of Q and every K; new components are zeros or seeded N(0, 1) samples (default: d_k_fill).

        Within a gesture (a slider drag) each step starts from the scenario before the gesture, so shrinking
        d_k and growing it back in one drag gives the original components back.
        """
        gesture = self._gesture_command(merge_key)
        base = gesture._before if gesture is not None else self._scenario
        fill = self.d_k_fill if fill is None else fill
        seed = self.d_k_seed if seed is None else seed
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Set d_k = {0}"), (d_k,))
        self._edit(lambda _current: sc.with_d_k(base, d_k, fill, seed), text, merge_key)

    def set_d_v(self, d_v: int, fill: str = "zeros", seed: int = 0) -> None:
        """Change d_v of every V."""
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Set d_v = {0}"), (d_v,))
        self._edit(lambda s: sc.with_d_v(s, d_v, fill, seed), text)

    def set_scale(self, scale: float | None, merge_key: int | None = None) -> None:
        """None: the automatic 1/√d_k; a number ≥ 0: a manual factor on the raw scores."""
        if scale is None:
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Scale 1/√d_k"))
        else:  # formatted only once with_scale has accepted `scale` (a text like "x" raises a ScenarioError first)
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Scale × {0:.3g}"), (scale,))
        self._edit(lambda s: sc.with_scale(s, scale), text, merge_key)

    def set_label(self, index: int, label: str) -> None:
        """Rename key–value pair `index`."""
        text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Rename {0}"), (self._label(index),))
        self._edit(lambda s: sc.with_label(s, index, label), text)

    def set_title(self, title: str) -> None:
        """Set the scenario's title."""
        self._edit(lambda s: sc.with_title(s, title), UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Set title")))

    def add_pin(self, name: str | None = None) -> None:
        """Pin the current scene (named `name`, else "Pin 1", "Pin 2", …); a fourth pin raises ScenarioError."""
        after = sc.with_pin_added(self._scenario, name)  # raises before anything changes
        pin = after.pins[-1]
        # Named by its name, or by its number: "Pin 1" in History reads the same as the pin's default name.
        self._edit(lambda _s: after, UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Pin {0}"), (pin.name or pin.number,)))

    def remove_pin(self, index: int) -> None:
        """Remove pin `index` (0 is the oldest); the others keep their numbers."""
        pins = self._scenario.pins
        shown = (pins[index].name or pins[index].number) if 0 <= index < len(pins) else index
        self._edit(lambda s: sc.with_pin_removed(s, index),
                   UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Remove pin {0}"), (shown,)))

    def clear_pins(self) -> None:
        """Remove every pin (one undo step; nothing happens when there is none)."""
        self._edit(sc.with_pins_cleared, UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Remove all pins")))

    def load_scenario(self, scenario: Scenario, text: str | None = None) -> None:
        """Replace the whole scenario (open a file, a preset); undoable like any edit."""
        if not isinstance(scenario, Scenario):  # another kind opens in its lab: here it would break every panel
            raise TypeError(f"the explorer holds a single-query Scenario, not a {type(scenario).__name__}")
        if text is None and scenario.title:
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"), (scenario.title,), "presets")
        elif text is None:
            text = UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "Open {0}"),
                            (QT_TRANSLATE_NOOP("ExplorerModel", "scenario"),), "ExplorerModel")
        self._edit(lambda s: scenario, text)
        if self._selected != 0:
            self._selected = 0
            self.selection_changed.emit(0)
        self.opened.emit()

    # ------------------------------------------------------------ names for undo texts

    def _label(self, index: int) -> str:
        labels = self._scenario.labels
        return labels[index] if 0 <= index < len(labels) else str(index)

    def _vector_name(self, role: str, index: int) -> UndoText | str:
        # A key is called what its row and the canvas call it (K1, or its own label); a value after its key.
        if role == "query":
            return "Q"
        if role == "key":
            return self._label(index)
        return UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "V of {0}"), (self._label(index),))
