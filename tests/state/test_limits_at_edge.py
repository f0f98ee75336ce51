"""The labs' models and the document at their limits: the limit itself accepted, one past it refused.

One row per limit (tests/helpers/limit_edges.py), through the models' own setters as the controls call them; the undo
history's caps, which drop old steps rather than refuse, are tested at the cap and one step or byte past it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from attention_explorer.core.files.jsonrules import MAX_FILE_BYTES
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.teaching import lecture
from attention_explorer.state import document
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.labs.multihead.state import MultiHeadModel
from attention_explorer.ui.labs.positions.state import PositionalModel
from attention_explorer.ui.labs.self_attention.state import SequenceModel
from tests.helpers.limit_edges import Edge, assert_accepted, assert_refused, rows


def read_sized(size: int) -> int:
    """A recovery file of `size` bytes (sparse) read by the document: answers the bytes read."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "recovery.json"
        with path.open("wb") as file:
            file.write(b"{}")
            file.truncate(size)
        return len(document._read_regular_file(path)[0])


def sequence_size(name: str, size: int) -> int:
    model = SequenceModel()
    getattr(model, f"set_{name}")(size)
    return getattr(model.sequence, name)


def heads(count: int) -> int:
    model = MultiHeadModel()
    model.set_d_model(272)  # 16 · 17: only the limit refuses 17
    model.set_heads(count)
    return model.scenario.heads


def positional(setter: str, value: int, d: int = 1024) -> int:
    """The lab's value after setting it; a refused value leaves every setting as it was."""
    model = PositionalModel()
    model.set_d(d)
    before = (model.d, model.pair, model.m, model.n, model.seed)
    try:
        getattr(model, f"set_{setter}")(value)
    except ScenarioError:
        assert (model.d, model.pair, model.m, model.n, model.seed) == before
        raise
    return getattr(model, setter)


LIMITS = rows(
    Edge("recovery file 64 MiB", "document._read_regular_file", MAX_FILE_BYTES, MAX_FILE_BYTES + 1, read_sized,
         "recovery.json is too large", OSError),
    Edge("self-attention d_model 4096", "sequence._check_size", 4096, 4097, lambda d: sequence_size("d_model", d),
         "d_model: expected a whole number from 1 to 4096, got 4097"),
    Edge("self-attention d_k 4096", "sequence._check_size", 4096, 4097, lambda d: sequence_size("d_k", d),
         "d_k: expected a whole number from 1 to 4096, got 4097"),
    Edge("self-attention d_v 4096", "sequence._check_size", 4096, 4097, lambda d: sequence_size("d_v", d),
         "d_v: expected a whole number from 1 to 4096, got 4097"),
    Edge("self-attention sizes at least 1", "sequence._check_size", 1, 0, lambda d: sequence_size("d_v", d),
         "d_v: expected a whole number from 1 to 4096, got 0"),
    Edge("self-attention seed at least 0", "SequenceModel.randomize", 0, -1,
         lambda seed: SequenceModel().randomize(seed) or seed, "seed: expected a whole number ≥ 0, got -1"),
    Edge("multi-head h 16", "MultiHeadModel.set_heads", 16, 17, heads, "heads: expected 1 to 16 heads, got 17"),
    Edge("multi-head h at least 1", "MultiHeadModel.set_heads", 1, 0, heads, "heads: expected 1 to 16 heads, got 0"),
    Edge("multi-head seed at least 0", "MultiHeadModel.randomize", 0, -1,
         lambda seed: MultiHeadModel().randomize(seed) or seed, "seed: expected a whole number ≥ 0, got -1"),
    Edge("positions lab d 1024", "PositionalModel.set_d", 1024, 1026, lambda d: positional("d", d),
         r"d: expected an even whole number from 2 to 1024 \(pairs of sin and cos\), got 1026"),
    Edge("positions lab m 4096", "PositionalModel.set_m", 4096, 4097, lambda m: positional("m", m),
         "m: expected a whole number from 0 to 4096, got 4097"),
    Edge("positions lab n 4096", "PositionalModel.set_n", 4096, 4097, lambda n: positional("n", n),
         "n: expected a whole number from 0 to 4096, got 4097"),
    Edge("positions lab n at least 0", "PositionalModel.set_n", 0, -1, lambda n: positional("n", n),
         "n: expected a whole number from 0 to 4096, got -1"),
    Edge("positions lab pair d/2 − 1", "PositionalModel.set_pair", 511, 512, lambda pair: positional("pair", pair),
         "pair: expected 0 to 511, got 512"),
    Edge("positions lab seed at least 0", "PositionalModel.set_seed", 0, -1, lambda seed: positional("seed", seed),
         "seed: expected a whole number ≥ 0, got -1"),
    Edge("explorer key index n − 1", "ExplorerModel.select_key", 2, 3,
         lambda index: ExplorerModel(load_preset("library")).select_key(index) or index,
         r"key index 3 is out of range \(there are 3 keys\)"),
)


@pytest.mark.parametrize("edge", LIMITS)
def test_the_limit_itself_is_accepted(edge, qapp):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", LIMITS)
def test_one_past_the_limit_is_refused_with_its_message(edge, qapp):
    assert_refused(edge)


def edited(model: ExplorerModel, count: int) -> ExplorerModel:
    """`count` undo steps, each a new keys array (a different cell each time: no merging)."""
    for number in range(count):
        model.set_component("key", number % model.scenario.n, number % model.scenario.d_k, 0.25 + number)
    return model


def test_a_history_of_exactly_its_byte_cap_keeps_every_step_and_one_byte_less_drops(qapp):
    start = load_preset("library")
    five, six = (edited(ExplorerModel(start), count).history_bytes for count in (5, 6))
    assert six - five == start.keys.nbytes  # each step holds one new keys array
    model = ExplorerModel(start, history_limit_bytes=five)
    dropped = []
    model.history_dropped.connect(lambda: dropped.append(model.dropped_steps))
    edited(model, 5)  # exactly at the cap: kept, and History not told of any drop
    assert (model.history_bytes, model.dropped_steps, model.undo_stack.count(), dropped) == (five, 0, 5, [])
    model.set_component("key", 2, 2, 77.5)  # one keys array over: the oldest step goes, back to exactly the cap
    assert (model.history_bytes, model.dropped_steps, model.undo_stack.count(), dropped) == (five, 1, 5, [1])
    below = edited(ExplorerModel(start, history_limit_bytes=five - 1), 5)
    assert below.dropped_steps == 1 and below.history_bytes == five - start.keys.nbytes


def test_a_history_of_a_quarter_more_steps_than_its_limit_stays_and_one_more_is_cut_back(qapp):
    model = ExplorerModel(load_preset("library"), history_limit_steps=8)
    edited(model, 10)  # 8 · 5 // 4 = 10: the batch is not due yet
    assert (model.undo_stack.count(), model.dropped_steps) == (10, 0)
    model.set_component("key", 1, 1, 99.5)
    assert (model.undo_stack.count(), model.dropped_steps) == (8, 3)


def test_step_through_reveals_up_to_the_lectures_step_count_and_no_further(qapp):
    model = ExplorerModel()
    assert ExplorerModel.STEP_COUNT == lecture.STEP_COUNT == 4  # a scene's "steps": 4 shows every step
    model.set_step_through(True)
    for expected in (2, 3, 4, 4):
        model.reveal_next_step()
        assert model.revealed_steps == expected
    assert model.step_shown(4) and not model.step_shown(5)
