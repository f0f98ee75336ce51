"""The `"kind": "cross"` file: round trip, first-problem messages with their place, atomic save, hostile files."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import preset_path
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.cross.scene import CrossScenario
from attention_explorer.core.scenes.query import file as fileformat
from tests.helpers import budget

GOOD = {
    "kind": "cross",
    "title": "two → three",
    "target_tokens": ["a", "b", "c"],
    "source_tokens": ["x", "y"],
    "target_embeddings": [[1, 0], [0, 1], [1, 1]],
    "source_embeddings": [[1, 0], [0, 2]],
    "w_q": [[1, 0, 0], [0, 1, 0]],
    "w_k": [[1, 0, 0], [0, 1, 0]],
    "w_v": [[1], [2]],
}


def document(**changes) -> str:
    data = dict(GOOD)
    for name, value in changes.items():
        if value is None:
            del data[name]
        else:
            data[name] = value
    return json.dumps(data, ensure_ascii=False)


def test_a_cross_file_loads_and_saves_back_bit_for_bit(tmp_path):
    loaded = anykind.loads_any(document(scale=0.1 + 0.2))
    assert isinstance(loaded, CrossScenario)
    assert (loaded.n_q, loaded.n_k, loaded.d_model, loaded.d_k, loaded.d_v) == (3, 2, 2, 3, 1)
    path = tmp_path / "cross.json"
    anykind.save(loaded, path)
    again = anykind.load_any(path)
    assert again == loaded and again.scale == 0.1 + 0.2
    assert json.loads(path.read_text(encoding="utf-8"))["kind"] == "cross"
    preset = anykind.load_any(preset_path("translation"))
    assert anykind.loads_any(anykind.dumps(preset)) == preset


def test_saving_is_atomic_and_leaves_no_temporary_behind(tmp_path, monkeypatch):
    path = tmp_path / "cross.json"
    path.write_text("old", encoding="utf-8")
    loaded = anykind.loads_any(document())

    def broken_fsync(_fd):
        raise OSError("disk full")

    monkeypatch.setattr(fileformat.os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        anykind.save(loaded, path)
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["cross.json"]


BAD = {
    "unknown field": (document(tokens=["a"]), '"tokens": unknown field (allowed in a cross-attention file:'),
    "missing": (document(w_v=None), '"w_v": missing'),
    "source rows": (document(source_embeddings=[[1, 0]]),
                    "source_embeddings: expected 2 rows (one per source token), got 1"),
    "target width": (document(target_embeddings=[[1, 0], [0, 1], [1]]),
                     "target_embeddings[2]: expected 2 numbers (d_model from source_embeddings = 2), got 1"),
    "w_k width": (document(w_k=[[1, 0], [0, 1]]), "w_k[0]: expected 3 numbers (d_k from w_q = 3), got 2"),
    "w_q rows": (document(w_q=[[1, 0, 0]]), "w_q: expected 2 rows (d_model = 2, the width of the embeddings), got 1"),
    "nan": (document().replace("[0, 2]", "[0, NaN]"), "source_embeddings[1][1]: NaN is not allowed"),
    "huge": (document(w_v=[[1], [1e7]]), "w_v[1][0]: 10 000 000 is out of range"),
    "token type": (document(source_tokens=["x", 3]), "source_tokens[1]: expected a string, got int"),
    "tokens type": (document(target_tokens="abc"), "target_tokens: expected a list of 1 to 512 strings, got a string"),
    "format": (document(format="attention-explorer/2"), 'format: expected "attention-explorer/1"'),
    "scale": (document(scale="auto"), 'scale: expected "inv_sqrt_dk" or a number'),
    "bad kind": (document(kind="crosss"),
                 'kind: expected "sequence" (a self-attention file), "multihead" (a multi-head file), "cross"'),
}


@pytest.mark.parametrize("case", BAD)
def test_the_first_problem_is_named_with_its_place(case):
    text, message = BAD[case]
    with pytest.raises(ScenarioError) as caught:
        anykind.loads_any(text)
    assert str(caught.value).startswith(message), str(caught.value)


def test_the_single_query_loader_refuses_a_cross_file_saying_what_it_is():
    with pytest.raises(ScenarioError, match='kind "cross": a cross-attention file'):
        fileformat.loads(document())


@pytest.mark.parametrize("kind", ["million-source-rows", "million-number-row", "million-tokens"])
def test_hostile_cross_files_are_refused_in_under_two_seconds(kind):
    if kind == "million-source-rows":
        text = document(source_embeddings="ROWS").replace('"ROWS"', "[" + "[0, 1], " * 999_999 + "[0, 1]]")
    elif kind == "million-number-row":
        text = document(w_v="ROW").replace('"ROW"', "[[" + "0.5, " * 999_999 + "0.5], [1]]")
    else:
        text = document(source_tokens="TOKENS").replace('"TOKENS"', "[" + '"x", ' * 999_999 + '"x"]')
    start = time.perf_counter()
    with pytest.raises(ScenarioError):
        anykind.loads_any(text)
    assert time.perf_counter() - start < budget.seconds(2.0)


def test_numbers_read_back_exactly():
    loaded = anykind.loads_any(document(w_v=[[0.1], [1 / 3]]))
    assert loaded.w_v[1, 0] == 1 / 3
    assert np.array_equal(anykind.loads_any(anykind.dumps(loaded)).w_v, loaded.w_v)
