"""The `"kind": "multihead"` file: loads, refuses with the first problem's place, saves atomically, round trips."""

import json
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.files import anykind
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.multihead import scene as mh
from attention_explorer.core.scenes.query import file as fileformat
from tests.helpers import budget

IDENTITY = np.eye(4).tolist()
MULTIHEAD_FILE = {
    "format": "attention-explorer/1",
    "kind": "multihead",
    "title": "two heads",
    "tokens": ["我", "爱", "北京"],
    "heads": 2,
    "embeddings": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]],
    "w_q": IDENTITY, "w_k": IDENTITY, "w_v": IDENTITY, "w_o": IDENTITY,
    "causal": False,
}


def text_with(**changes) -> str:
    """The small file's text with some fields replaced (None removes a field)."""
    document = json.loads(json.dumps(MULTIHEAD_FILE))
    for name, value in changes.items():
        if value is None:
            document.pop(name)
        else:
            document[name] = value
    return json.dumps(document, ensure_ascii=False)


def refusal(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        anykind.loads_any(text)
    return str(caught.value)


def test_the_small_file_loads_with_its_heads_and_numbers():
    scenario = anykind.loads_any(text_with())
    assert isinstance(scenario, mh.MultiHeadScenario)
    assert (scenario.n, scenario.d_model, scenario.heads, scenario.d_k) == (3, 4, 2, 2)
    result = scenario.compute()
    # W = I: head 1 sees columns 1–2 of X (我 [1, 0], 爱 [0, 1], 北京 [1, 1]), head 2 columns 3–4.
    assert result.scores[0].tolist() == [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
    assert result.scores[1].tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    np.testing.assert_array_equal(result.output, result.concat)


ROW = [0, 0, 0, 0]
BAD = [
    (text_with(heads=3), "heads: d_model = 4 is not divisible by h = 3 (each head gets d_model / h columns; "
                         "h could be 1, 2, 4)"),
    (text_with(heads=0), "heads: expected 1 to 16 heads, got 0"),
    (text_with(heads=10**100), "heads: expected 1 to 16 heads, got 1" + "0" * 100),
    (text_with(heads=2.0), "heads: expected a whole number, got float"),
    (text_with(heads=None), '"heads": missing'),
    (text_with(w_o=None), '"w_o": missing'),
    (text_with(embeddings=[[1, 0, 0, 1], [0, 1], [1, 1, 0, 0]]), "embeddings[1]: expected 4 numbers (d_model = 4), "
                                                                 "got 2"),
    (text_with(w_k=[ROW, ROW, ROW]), "w_k: expected 4 rows (d_model = 4, the width of the embeddings), got 3"),
    (text_with(w_v=[ROW, ROW, ROW, [0, 0, 0]]), "w_v[3]: expected 4 numbers (d_model = 4), got 3"),
    (text_with(w_q=[ROW, ROW, [0, True, 0, 0], ROW]), "w_q[2][1]: expected a number, got true/false"),
    (text_with(w_o=[ROW, ROW, [0, "1", 0, 0], ROW]), "w_o[2][1]: expected a number, got a string"),
    (text_with().replace('"w_o": [[1.0, 0.0', '"w_o": [[NaN, 0.0'), "w_o[0][0]: NaN is not allowed"),
    (text_with(w_q=[ROW, ROW, ROW, [0, 0, 0, 2e6]]), "w_q[3][3]: 2 000 000 is out of range"),
    (text_with(embeddings=[[0.0] * 5000] * 3), "embeddings[0]: expected 1 to 4096 numbers, got 5000"),
    (text_with(tokens=["a", "b"]), "embeddings: expected 2 rows (one per token), got 3"),
    (text_with(causal="yes"), "causal: expected true or false, got a string"),
    (text_with(scale=-1), "scale: -1 is out of range"),
    (text_with(query=[1, 0]), '"query": unknown field (allowed in a multi-head file: format, kind, title'),
    (text_with(kind="MultiHead"), 'kind: expected "sequence" (a self-attention file), "multihead" (a multi-head '
                                  'file), "cross" (a cross-attention file), "positions" (a positions file), '
                                  '"training" (a training file) or no "kind" at all (a single query), '
                                  'got "MultiHead"'),
    (text_with(title=7), "title: expected a string, got int"),
]


@pytest.mark.parametrize(("text", "expected"), BAD, ids=[expected[:40] for _, expected in BAD])
def test_the_first_problem_is_named_with_its_place(text, expected):
    assert refusal(text).startswith(expected)


def test_hostile_files_are_refused_in_under_two_seconds():
    """Millions of rows or numbers, huge dimensions: refused by their count, before anything large is built."""
    cases = {
        "three-million-rows": ('{"kind": "multihead", "heads": 1, "tokens": ["a"], "embeddings": ['
                               + "[0], " * 2_999_999 + "[0]]}", "lists or objects"),
        "three-million-numbers": (
            text_with(embeddings=[[0]] * 3).replace("[[0], ", "[[" + "0, " * 2_999_999 + "0], ", 1),
            "embeddings[0]: expected 1 to 4096 numbers"),
        "huge-heads": (text_with().replace('"heads": 2', '"heads": ' + "9" * 5000),
                       "not a usable number: an integer with 5000 digits"),
    }
    for name, (text, expected) in cases.items():
        start = time.perf_counter()
        message = refusal(text)
        assert time.perf_counter() - start < budget.seconds(2.0), name
        assert expected in message, (name, message)


def test_save_writes_one_row_per_line_and_reads_back_bit_for_bit(tmp_path):
    scenario = mh.build_multihead(["我", "爱", "北京"], 6, 3, seed=4, causal=True, scale=0.25, title="t",
                                  description="d")
    path = tmp_path / "heads.json"
    anykind.save(scenario, path)
    text = path.read_text(encoding="utf-8")
    assert '"kind": "multihead"' in text and '"heads": 3' in text and '"我"' in text
    assert text.count("\n") > 4 * 6  # every W row on a line of its own
    assert anykind.load_any(path) == scenario


def test_a_failed_save_leaves_the_old_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "heads.json"
    path.write_text(text_with(), encoding="utf-8")
    before = path.read_bytes()

    def broken_rename(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(fileformat.os, "replace", broken_rename)
    with pytest.raises(OSError):
        anykind.save(mh.build_multihead(["x"], 2, 2), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["heads.json"]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 5), width=st.integers(1, 3), heads=st.integers(1, 3), seed=st.integers(0, 999),
       causal=st.booleans(), scale=st.one_of(st.none(), st.floats(0, 1e6)))
def test_any_valid_scenario_round_trips_through_its_text(n, width, heads, seed, causal, scale):
    scenario = mh.build_multihead([f"w{i}" for i in range(n)], width * heads, heads, seed, causal, scale, "标题")
    assert anykind.loads_any(anykind.dumps(scenario)) == scenario


def test_the_documented_example_loads_and_is_the_shipped_example_without_its_story():
    from pathlib import Path

    from attention_explorer.core.files.presets import load_preset

    formats = Path(__file__).resolve().parents[2] / "docs" / "file-formats.md"
    if not formats.is_file():
        pytest.skip("not a source checkout: no docs/file-formats.md")
    section = formats.read_text(encoding="utf-8").split("## Multi-head files", 1)[1]
    example = anykind.loads_any(section.split("```json", 1)[1].split("```", 1)[0])
    shipped = load_preset("multi-head")
    assert isinstance(example, mh.MultiHeadScenario) and example.heads == 2 and example.d_k == 2
    assert mh.replace_multihead(example, title=shipped.title, description=shipped.description) == shipped
