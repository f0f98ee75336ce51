"""ExplorerModel under random sequences of every edit, valid and invalid, with undo and redo in between.

An independent record of the undo history (the scenarios, built with the pure core edits, and Qt's merge rules)
is kept beside the model. After every step the model must hold that record's current scenario, its result must
equal the core's computation of it, a refused edit must have changed nothing; at the end, undo all the way
gives back the very first scenario and redo all the way the last.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.limits import MAX_ABS, ScenarioError
from attention_explorer.core.maths.attention import attend
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.explorer import ExplorerModel, new_merge_key

# Numbers an edit may be given: mostly ordinary ones (so that edits go through and gestures merge), and the
# format's limits and what must be refused.
GOOD_NUMBERS = st.floats(-10, 10, allow_nan=False)
NUMBERS = st.one_of(
    GOOD_NUMBERS, GOOD_NUMBERS, GOOD_NUMBERS, st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, MAX_ABS, -MAX_ABS, 1e-300, 2e6, -1e7, math.nan, math.inf, -math.inf]),
    st.sampled_from(["abc", "", None, True]),
)
ROLES = st.sampled_from(["query", "key", "value"] * 3 + ["values", ""])
INDICES = st.one_of(st.integers(0, 3), st.integers(0, 3), st.integers(-2, 6))
TEXTS = st.one_of(st.text(max_size=12), st.text(min_size=60, max_size=70), st.just("\ud800 lone"), st.just(""))
SCALES = st.one_of(st.none(), st.floats(0, 20, allow_nan=False),
                   st.sampled_from([0.0, 1.0, -1.0, math.nan, math.inf, 2e6, "x"]))


@st.composite
def scenarios(draw) -> Scenario:
    """A small valid scenario: 1–5 keys, d_k 1–4, d_v 1–3, auto or manual scale."""
    n, d_k, d_v = draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    numbers = st.floats(-5, 5, allow_nan=False, width=32)
    matrix = lambda rows, cols: draw(st.lists(st.lists(numbers, min_size=cols, max_size=cols),  # noqa: E731
                                              min_size=rows, max_size=rows))
    scale = draw(st.one_of(st.none(), st.floats(0, 5, allow_nan=False)))
    return Scenario(query=matrix(1, d_k)[0], keys=matrix(n, d_k), values=matrix(n, d_v), scale=scale,
                    title=draw(st.text(max_size=8)))


def results_equal(a, b) -> bool:
    """Every number of two AttentionResults is the same (bit for bit: the same function on the same input)."""
    arrays = ("scores", "scaled_scores", "exponentials", "weights", "unscaled_weights", "weighted_values", "output",
              "key_norms")
    scalars = ("scale", "exp_shifted", "exp_sum", "query_norm", "entropy", "max_weight", "jacobian_norm")
    return (all(np.array_equal(getattr(a, name), getattr(b, name)) for name in arrays)
            and all(getattr(a, name) == getattr(b, name) for name in scalars)
            and a.cosines == b.cosines and a.angles_deg == b.angles_deg)


# The explorer's presets (a self-attention preset belongs to its own lab and model).
EXPLORER_PRESETS = [name for name in preset_names() if isinstance(load_preset(name), Scenario)]


class ModelMachine(RuleBasedStateMachine):
    """Random edits on a real ExplorerModel against a plain record of what its undo history must be."""

    @initialize(name=st.sampled_from(EXPLORER_PRESETS))
    def start(self, name: str) -> None:
        self.model = ExplorerModel(load_preset(name))
        self.gestures = [None, new_merge_key(), new_merge_key()]
        self.states: list[Scenario] = [self.model.scenario]  # the scenario after each command, [0] = start
        self.keys: list[int | None] = []  # the merge key of each command
        self.index = 0
        self.clean = 0  # the index the stack was last "saved" at (setClean), -1 when that state is gone
        self.changes = 0
        self.model.changed.connect(self._count)

    def _count(self) -> None:
        self.changes += 1

    # ------------------------------------------------------------ the record (Qt's QUndoStack::push rules)

    def _idle_gesture_on_top(self, key: int | None) -> bool:
        """The newest step is a gesture (`key`, or any) that came back to where it began, and may be dropped."""
        index = self.index
        return (0 < index == len(self.states) - 1 and index != self.clean and self.keys[index - 1] is not None
                and key in (None, self.keys[index - 1]) and self.states[index] == self.states[index - 1])

    def _drop_top(self) -> None:
        self.states.pop()
        self.keys.pop()
        self.index -= 1

    def _pushed(self, after: Scenario, key: int | None) -> None:
        """What an edit from the current scenario to `after` with merge key `key` does to the history.

        The model continues a gesture on top of the stack itself, keeping its step even when it is back where
        it began (finish_gesture drops it); anything else drops such a step first, then goes through Qt's push.
        """
        current_key = self.keys[self.index - 1] if self.index > 0 else None
        if (key is not None and current_key == key and 0 < self.index == len(self.states) - 1
                and self.index != self.clean):
            self.states[self.index] = after
            return
        if self._idle_gesture_on_top(None):
            self._drop_top()
            current_key = self.keys[self.index - 1] if self.index > 0 else None
        del self.states[self.index + 1:]
        del self.keys[self.index:]
        if self.clean > self.index:
            self.clean = -1
        # Qt never merges into the command the stack was saved at.
        if self.index > 0 and key is not None and current_key == key and self.index != self.clean:
            if after == self.states[self.index - 1]:  # back where the gesture started: no step left
                self.states.pop()
                self.keys.pop()
                self.index -= 1
            else:
                self.states[self.index] = after
        else:
            self.states.append(after)
            self.keys.append(key)
            self.index += 1

    def _edit(self, call, expected, key: int | None = None) -> None:
        """Run `call` on the model; `expected` builds the same edit with the core (or raises ScenarioError)."""
        before, count, changes = self.model.scenario, self.model.undo_stack.count(), self.changes
        try:
            after = expected(before)
        except ScenarioError:
            after = None
        try:
            call()
        except ScenarioError as error:
            assert after is None, f"the model refused an edit the core accepts: {error}"
            assert str(error), "a refusal must say why"
            assert self.model.scenario is before and self.model.undo_stack.count() == count
            assert self.changes == changes, "a refused edit emitted changed"
            return
        assert after is not None, "the model accepted an edit the core refuses"
        if after == before:
            assert self.model.undo_stack.count() == count and self.changes == changes
            return
        assert self.changes == changes + 1, "one edit, one changed signal"
        self._pushed(after, key)

    # ------------------------------------------------------------ edits

    @rule(role=ROLES, index=INDICES, component=st.integers(-1, 5), value=NUMBERS, gesture=st.integers(0, 2))
    def set_component(self, role, index, component, value, gesture):
        key = self.gestures[gesture]
        self._edit(lambda: self.model.set_component(role, index, component, value, merge_key=key),
                   lambda s: sc.with_component(s, role, index, component, value), key)

    @rule(role=ROLES, index=INDICES, values=st.one_of(st.lists(NUMBERS, max_size=6), st.just("1 2")),
          gesture=st.integers(0, 2))
    def set_vector(self, role, index, values, gesture):
        key = self.gestures[gesture]
        self._edit(lambda: self.model.set_vector(role, index, values, merge_key=key),
                   lambda s: sc.with_vector(s, role, index, values), key)

    @rule(role=ROLES, index=INDICES, x=NUMBERS, y=NUMBERS, gesture=st.integers(0, 2))
    def set_plane_position(self, role, index, x, y, gesture):
        key = self.gestures[gesture]

        def expected(s):
            current = list(sc.vector(s, role, index))
            current[0] = x
            if len(current) > 1:
                current[1] = y
            return sc.with_vector(s, role, index, current)

        self._edit(lambda: self.model.set_plane_position(role, index, x, y, merge_key=key), expected, key)

    @rule(role=st.sampled_from(["query", "key"]), index=st.integers(0, 3), gesture=st.integers(1, 2),
          path=st.lists(st.tuples(GOOD_NUMBERS, GOOD_NUMBERS), min_size=1, max_size=6), back=st.booleans())
    def drag(self, role, index, gesture, path, back):
        """A drag: several moves with one merge key, sometimes ending where it started (no undo step left)."""
        if role == "key" and index >= self.model.scenario.n:
            return
        start = sc.vector(self.model.scenario, role, index)
        if back:
            path = [*path, (float(start[0]), float(start[1]) if start.shape[0] > 1 else 0.0)]
        for x, y in path:
            self.set_plane_position(role, index, x, y, gesture)
        self.finish_gesture(gesture)

    @rule(data=st.data())
    def add_pair(self, data):
        scenario = self.model.scenario
        key = data.draw(st.one_of(st.none(), st.lists(NUMBERS, min_size=scenario.d_k, max_size=scenario.d_k),
                                  st.lists(NUMBERS, max_size=3)))
        value = data.draw(st.one_of(st.none(), st.lists(NUMBERS, min_size=scenario.d_v, max_size=scenario.d_v)))
        label = data.draw(st.one_of(st.none(), TEXTS))
        self._edit(lambda: self.model.add_pair(key, value, label), lambda s: sc.with_pair_added(s, key, value, label))

    @rule(index=INDICES)
    def remove_pair(self, index):
        self._edit(lambda: self.model.remove_pair(index), lambda s: sc.with_pair_removed(s, index))

    @rule(d_k=st.one_of(st.integers(0, 6), st.just(5000), st.just(2.5)), fill=st.sampled_from(["zeros", "random", "x"]),
          seed=st.integers(0, 3))
    def set_d_k(self, d_k, fill, seed):
        self._edit(lambda: self.model.set_d_k(d_k, fill, seed), lambda s: sc.with_d_k(s, d_k, fill, seed))

    @rule(d_v=st.one_of(st.integers(0, 5), st.just(4097)), fill=st.sampled_from(["zeros", "random"]),
          seed=st.integers(0, 3))
    def set_d_v(self, d_v, fill, seed):
        self._edit(lambda: self.model.set_d_v(d_v, fill, seed), lambda s: sc.with_d_v(s, d_v, fill, seed))

    @rule(scale=SCALES, gesture=st.integers(0, 2))
    def set_scale(self, scale, gesture):
        key = self.gestures[gesture]
        self._edit(lambda: self.model.set_scale(scale, merge_key=key), lambda s: sc.with_scale(s, scale), key)

    @rule(index=INDICES, text=TEXTS)
    def set_label(self, index, text):
        self._edit(lambda: self.model.set_label(index, text), lambda s: sc.with_label(s, index, text))

    @rule(text=st.one_of(TEXTS, st.text(min_size=195, max_size=205)))
    def set_title(self, text):
        self._edit(lambda: self.model.set_title(text), lambda s: sc.with_title(s, text))

    @rule(scenario=scenarios())
    def load_scenario(self, scenario):
        self._edit(lambda: self.model.load_scenario(scenario), lambda s: scenario)
        assert self.model.selected_key == 0

    @rule(index=INDICES)
    def select_key(self, index):
        before, count = self.model.scenario, self.model.undo_stack.count()
        if 0 <= index < self.model.scenario.n:
            self.model.select_key(index)
            assert self.model.selected_key == index
        else:
            try:
                self.model.select_key(index)
            except ScenarioError as error:
                assert str(index) in str(error)
            else:
                raise AssertionError(f"select_key({index}) with {self.model.scenario.n} keys was accepted")
        assert self.model.scenario is before and self.model.undo_stack.count() == count  # not an edit

    @rule(gesture=st.integers(0, 2))
    def finish_gesture(self, gesture):
        """A release: a gesture back where it began leaves no step; an edit never happens, nor a `changed`."""
        key, changes, scenario = self.gestures[gesture], self.changes, self.model.scenario
        self.model.finish_gesture(key)
        if key is not None and self._idle_gesture_on_top(key):
            self._drop_top()
        assert self.changes == changes and self.model.scenario is scenario

    @rule()
    def save(self):
        """What saving the document does to the history: this state is the clean one."""
        self.model.undo_stack.setClean()
        self.clean = self.index

    @rule()
    def undo(self):
        self.model.undo_stack.undo()
        self.index = max(0, self.index - 1)

    @rule()
    def redo(self):
        self.model.undo_stack.redo()
        self.index = min(len(self.states) - 1, self.index + 1)

    # ------------------------------------------------------------ what must always hold

    @invariant()
    def model_matches_the_record_and_the_core(self):
        if not hasattr(self, "model"):
            return
        scenario = self.model.scenario
        assert scenario == self.states[self.index]
        assert self.model.undo_stack.index() == self.index
        assert self.model.undo_stack.count() == len(self.states) - 1
        assert self.model.undo_stack.cleanIndex() == self.clean
        assert results_equal(self.model.result, attend(scenario.query, scenario.keys, scenario.values,
                                                       scenario.effective_scale))
        assert 0 <= self.model.selected_key < scenario.n

    def teardown(self):
        if not hasattr(self, "model"):
            return
        stack = self.model.undo_stack
        while stack.canUndo():
            stack.undo()
        assert self.model.scenario == self.states[0], "undo to the start must restore the first scenario"
        assert results_equal(self.model.result, self.states[0].compute())
        while stack.canRedo():
            stack.redo()
        assert self.model.scenario == self.states[-1], "redo to the end must restore the last scenario"
        assert results_equal(self.model.result, self.states[-1].compute())
        self.model.changed.disconnect(self._count)
        stack.clear()


def test_random_edit_sequences_keep_the_model_exact(qapp):
    run_state_machine_as_test(ModelMachine, settings=settings(
        max_examples=60, stateful_step_count=40, deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ))
