"""The format's limits stay fast: rows checked in bulk, the sequence report written in pieces, no d_k × d_k matrix.

Each test watches for the slow path itself (an item-by-item walk, a whole-text json.dumps, np.eye(d_k)), not for
a time, so it holds on any machine; the numbers and texts are compared with the plain way of getting them.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_explorer.core.files.jsonwrite import iter_json
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths import attention, projection
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.query.report import terminal_json
from attention_explorer.core.scenes.sequence import report as sequence_report
from attention_explorer.core.scenes.sequence import scene as sq


def _document(n: int, d: int) -> dict:
    rng = np.random.default_rng(7)
    return {"query": rng.standard_normal(d).round(3).tolist(), "keys": rng.standard_normal((n, d)).round(3).tolist(),
            "values": [[int(v) for v in row] for row in rng.integers(-5, 5, (n, 3))]}


def test_clean_rows_are_checked_in_bulk_and_never_walked_item_by_item(monkeypatch):
    document = _document(40, 64)
    walked = []
    original = fileformat._number_list
    monkeypatch.setattr(fileformat, "_number_list",
                        lambda raw, place, *rest: walked.append(place) or original(raw, place, *rest))
    scenario = fileformat.scenario_from_dict(document)
    assert walked == ["query"]  # 40 key rows and 40 value rows: no walk
    assert np.array_equal(scenario.keys, np.array(document["keys"], dtype=float))
    assert np.array_equal(scenario.values, np.array(document["values"], dtype=float))


@pytest.mark.parametrize(("where", "bad", "message"), [
    (("keys", 3, 5), True, "keys[3][5]: expected a number, got true"),
    (("keys", 7, 0), 10**400, "keys[7][0]: 100… (401 digits) is out of range"),
    (("keys", 2, 1), 2e6, "keys[2][1]: 2 000 000 is out of range"),
    (("values", 1, 2), float("nan"), "values[1][2]: NaN is not allowed"),
    (("values", 4, 0), "1", "values[4][0]: expected a number, got a string"),
])
def test_a_bad_number_among_clean_rows_is_still_named_with_its_place(where, bad, message):
    document = _document(10, 8)
    field, row, column = where
    document[field][row][column] = bad
    with pytest.raises(ScenarioError) as error:
        fileformat.scenario_from_dict(document)
    assert str(error.value).startswith(message)


def test_ragged_rows_are_named_as_before():
    document = _document(6, 8)
    document["keys"][4] = document["keys"][4][:5]
    with pytest.raises(ScenarioError, match=r"^keys\[4\]: expected 8 numbers \(d_k = 8\), got 5$"):
        fileformat.scenario_from_dict(document)


def test_the_sequence_report_is_written_in_pieces_with_the_same_text(monkeypatch):
    sequence = sq.build_sequence(["我", "爱", "北\x85京"], 4, 3, 2, seed=3, causal=True, title="t\x7f")
    result = sequence.compute()
    expected = terminal_json(sequence_report.sequence_report(sequence, result))
    monkeypatch.setattr(json, "dumps", _refusing_whole_documents(json.dumps))
    pieces = list(sequence_report.sequence_report_chunks(sequence, result))
    assert len(pieces) > 10 and "".join(pieces) == expected
    assert "null" in expected and "\\u0085" in expected and "\\u007f" in expected  # masked scores, controls


def _refusing_whole_documents(dumps):
    def dumps_one_value(value, **options):
        if isinstance(value, (dict, list)) and options.get("indent"):
            raise AssertionError("the whole report went through json.dumps")
        return dumps(value, **options)
    return dumps_one_value


def test_iter_json_writes_what_json_dumps_writes():
    document = {"a": [], "b": {}, "c": [1, True, None, "x", [1.5, float("nan"), -0.0]], "d": np.zeros((0, 3)),
                "e": np.array([[1e300, -2.5], [3.0, 4.0]]), "f": 1.0, "g": "中文"}
    reference = {**document, "d": [], "e": [[1e300, -2.5], [3.0, 4.0]]}
    assert "".join(iter_json(document)) == json.dumps(reference, indent=2, ensure_ascii=False)


def test_the_plane_of_q_and_k_at_4096_dimensions_builds_no_identity_matrix(monkeypatch):
    rng = np.random.default_rng(3)
    query, key = rng.standard_normal(4096), rng.standard_normal(4096)

    def no_eye(*args, **kwargs):
        raise AssertionError("np.eye(d_k): 128 MB at d_k = 4096")

    monkeypatch.setattr(np, "eye", no_eye)
    basis = projection.query_key_plane(query, key)
    assert np.allclose(basis @ basis.T, [[1, 0], [0, 1]], atol=1e-12)
    assert basis[0] @ query == pytest.approx(np.linalg.norm(query))
    # A degenerate pair (K along Q) still falls back to a coordinate axis.
    fallback = projection.query_key_plane(query, 2 * query)
    assert np.allclose(fallback @ fallback.T, [[1, 0], [0, 1]], atol=1e-12)


def test_norms_and_cosines_at_the_limit_are_the_plain_formulas_bits():
    rng = np.random.default_rng(11)
    keys = rng.standard_normal((64, 4096)) * 10.0 ** rng.integers(-170, 3, 64)[:, None]  # 4 blocks
    keys[5] = 0.0
    query = rng.standard_normal(4096)
    result = attention.attend(query, keys, keys, 0.1)
    peaks = np.max(np.abs(keys), axis=1, keepdims=True)
    peaks = np.where(peaks > 0, peaks, 1.0)
    plain = np.sqrt(np.sum(np.square(keys / peaks), axis=1)) * peaks[:, 0]
    assert np.array_equal(result.key_norms, plain)
    assert result.cosines[5] is None and result.cosines == attention.cosines_and_angles(query, keys)[0]


def test_hidden_pairs_are_found_among_the_pairs_drawn_on_one_point_only():
    rng = np.random.default_rng(5)
    keys = rng.standard_normal((12, 64))
    query = rng.standard_normal(64)
    assert projection.first_hidden_pair(query, keys) is None
    keys[10, :2] = keys[4, :2]  # drawn on one point, different in the other 62 components
    assert projection.first_hidden_pair(query, keys) == (5, 11)
    same = np.zeros((300, 64))
    same[:, 2:] = rng.standard_normal((300, 62))  # all 300 on the origin: more pairs than one block
    assert projection.first_hidden_pair(np.zeros(64), same) == (0, 1)
    twins = np.tile(keys[:1], (12, 1))  # one point and the same vectors: nothing is hidden
    assert projection.first_hidden_pair(keys[0], twins) is None
