"""The undo history's memory is bounded by bytes: the oldest steps go, History says so, undo stays exact."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.state.explorer import HISTORY_LIMIT_BYTES, ExplorerModel

DROPPED = "<older steps dropped to save memory>"


def wide_scenario(d_k: int = 256) -> sc.Scenario:
    """The default example with wide keys, so that each step holds a measurable number of bytes."""
    return sc.with_d_k(load_preset("library"), d_k, "random", 1)


def kept_bytes(states: list[sc.Scenario]) -> int:
    """Bytes of the distinct arrays a list of states holds, counted independently of the model."""
    arrays = {id(a): a for s in states for a in (s.query, s.keys, s.values)}
    return sum(a.nbytes for a in arrays.values())


def history_lines(view) -> list[str]:
    """The lines History shows, top to bottom."""
    model = view.model()
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_the_default_cap_is_128_mib(qapp):
    # 128 MiB, not 256: with a 512 × 4096 file open the window must stay under 400 MB (issue 15).
    assert ExplorerModel().history_limit_bytes == HISTORY_LIMIT_BYTES == 128 * 1024 * 1024


def test_many_edits_stay_under_the_cap_and_undo_goes_back_exactly_to_the_oldest_kept_state(qapp):
    start = wide_scenario()
    step = start.keys.nbytes  # each edit below makes one new keys array; Q and V stay shared
    cap = 10 * step + start.query.nbytes + start.values.nbytes
    model = ExplorerModel(start, history_limit_bytes=cap)
    states = [start]
    for number in range(40):
        model.set_component("key", number % start.n, 3, float(number) + 0.5)
        states.append(model.scenario)
        assert model.history_bytes <= cap
    stack = model.undo_stack
    kept = stack.count()
    assert 0 < kept < 40 and model.dropped_steps == 40 - kept
    assert model.history_bytes == kept_bytes(states[-kept - 1:]) > cap - step
    for expected in reversed(states[-kept - 1:-1]):
        stack.undo()
        assert model.scenario is expected
    assert not stack.canUndo() and model.scenario == states[40 - kept]
    for expected in states[41 - kept:]:
        stack.redo()
        assert model.scenario is expected
    assert model.result.weights.tolist() == states[-1].compute().weights.tolist()


def test_history_says_older_steps_were_dropped_and_the_saved_state_that_fell_off_stays_modified(
        make_window, tmp_path):
    window = make_window()
    model, document = window.model, window.document
    document.open_scenario(wide_scenario())
    document.save(tmp_path / "lecture.json")
    assert history_lines(window.history)[0] == "<opened>" and "*" not in window.windowTitle()
    model.history_limit_bytes = 6 * model.scenario.keys.nbytes
    for number in range(12):
        model.set_component("key", 0, 0, float(number) + 0.5)
    lines = history_lines(window.history)
    assert lines[0] == DROPPED and len(lines) == model.undo_stack.count() + 1 < 13
    while model.undo_stack.canUndo():
        model.undo_stack.undo()
    # The oldest kept state is not the saved one: the document (and the title's "*") stay modified.
    assert document.modified and "*" in window.windowTitle()
    window.history.retranslate()
    assert history_lines(window.history)[0] == DROPPED


def test_the_saved_state_survives_a_drop_when_it_is_kept(make_window, tmp_path):
    window = make_window()
    model, document = window.model, window.document
    document.open_scenario(wide_scenario())
    model.history_limit_bytes = 6 * model.scenario.keys.nbytes
    for number in range(8):
        model.set_component("key", 1, 0, float(number) + 0.5)
    document.save(tmp_path / "saved.json")
    saved = model.scenario
    model.set_component("key", 1, 0, 99.0)  # drops more old steps; the saved one is the last but one
    assert model.dropped_steps > 0 and document.modified
    model.undo_stack.undo()
    assert model.scenario is saved and not document.modified and "*" not in window.windowTitle()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.tuples(st.just("edit"), st.integers(0, 2), st.integers(0, 15)),
                          st.just(("undo",)), st.just(("redo",))), max_size=60),
       st.integers(2, 12))
def test_random_edits_and_undos_keep_the_bound_and_exact_states(qapp, actions, steps_allowed):
    start = wide_scenario(64)
    cap = steps_allowed * start.keys.nbytes
    model = ExplorerModel(start, history_limit_bytes=cap)
    stack = model.undo_stack
    timeline, position = [start], 0  # every state a user could have reached without any limit
    for action in actions:
        if action[0] == "edit":
            after = sc.with_component(model.scenario, "key", action[1], 5, float(action[2]))
            model.set_component("key", action[1], 5, float(action[2]))
            if after != timeline[position]:
                timeline, position = timeline[:position + 1] + [after], position + 1
        elif action[0] == "undo" and stack.canUndo():
            stack.undo()
            position -= 1
        elif action[0] == "redo" and stack.canRedo():
            stack.redo()
            position += 1
        assert model.scenario == timeline[position]
        assert model.history_bytes <= cap or stack.count() == 1
        assert stack.count() + model.dropped_steps == len(timeline) - 1
    # Every kept state, bottom to top, is exactly the one of the unlimited timeline.
    bottom = position - stack.index()
    kept = timeline[bottom:bottom + stack.count() + 1]
    assert model.history_bytes == (kept_bytes(kept) if stack.count() else 0)  # no step holds no state
    stack.setIndex(0)
    assert model.scenario == kept[0]
    for expected in kept[1:]:
        stack.redo()
        assert model.scenario == expected


def stack_states(model: ExplorerModel) -> list[sc.Scenario]:
    """Every state the undo stack keeps: each step's before and after (pins have none here)."""
    commands = [model.undo_stack.command(i) for i in range(model.undo_stack.count())]
    return [state for command in commands for state in (command._before, command._after)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["move", "back", "undo", "redo", "new gesture"]),
                          st.floats(-1, 1, allow_nan=False)), max_size=40))
def test_drags_that_come_back_to_their_start_keep_the_byte_count_exact(qapp, actions):
    """A drag merges each move into its step, and a move back to where it began makes the step vanish: the count
    of held bytes stays that of the arrays the stack really keeps, and trimming the history never fails (a merged
    step once left stale arrays in the count, and the trim then raised KeyError)."""
    start = wide_scenario(64)
    model = ExplorerModel(start, history_limit_bytes=4 * start.keys.nbytes)
    gesture, origin = 1, start.keys[1].copy()
    for action, amount in actions:
        if action == "move":
            model.set_vector("key", 1, origin + amount, gesture)
        elif action == "back":
            model.set_vector("key", 1, origin, gesture)
        elif action == "undo":
            model.undo_stack.undo()
        elif action == "redo":
            model.undo_stack.redo()
        else:
            gesture += 1
            origin = model.scenario.keys[1].copy()
        assert model.history_bytes == kept_bytes(stack_states(model))


def test_small_steps_are_bounded_by_count_in_batches_and_undo_walks_back_through_every_kept_one(make_window):
    window = make_window()
    model = window.model
    assert ExplorerModel().history_limit_steps == 1000  # a step costs ~2 KB besides its arrays
    model.history_limit_steps = 8
    states = [model.scenario]
    for number in range(30):
        model.set_component("key", number % 3, 1, float(number) / 10)
        states.append(model.scenario)
        assert model.undo_stack.count() <= 10  # dropped in batches: never more than a quarter over
    count = model.undo_stack.count()
    assert 8 <= count <= 10 and model.dropped_steps == 30 - count
    lines = history_lines(window.history)
    assert lines[0] == DROPPED and len(lines) == count + 1
    for expected in reversed(states[-count - 1:-1]):
        model.undo_stack.undo()
        assert model.scenario is expected
    assert not model.undo_stack.canUndo()
