"""The loader at exactly its limits: d = 4096 and 512 keys open, one more is refused with its one-line message.

Through the `compute` command, as a user runs it; the expected numbers are worked out by hand.
"""

from __future__ import annotations

import json

import pytest

from attention_explorer.app import main

MAX_DIM, MAX_KEYS = 4096, 512  # the documented limits (docs/file-formats.md)


def write(tmp_path, query, keys, values):
    path = tmp_path / "limits.json"
    path.write_text(json.dumps({"format": "attention-explorer/1", "query": query, "keys": keys, "values": values}),
                    encoding="utf-8")
    return str(path)


def test_a_file_at_d_4096_opens_and_its_numbers_are_right(tmp_path, capsys):
    # Q = K1 = [1] × 4096, K2 = 0: scores 4096 and 0, ÷ √4096 = 64: scaled 64 and 0.
    path = write(tmp_path, [1] * MAX_DIM, [[1] * MAX_DIM, [0] * MAX_DIM], [[1.0], [0.0]])
    assert main(["compute", path]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["d_k"], result["n"]) == (4096, 2)
    assert result["scores"] == [4096.0, 0.0]
    assert result["scaled_scores"] == [64.0, 0.0]
    assert result["weights"][1] == pytest.approx(1.0 / (1.0 + 2.718281828459045**64), rel=1e-9)


@pytest.mark.parametrize("where", ["query", "values"])  # a key's length is d_k, checked against the query
def test_a_file_at_d_4097_is_refused_with_one_line_naming_the_problem(tmp_path, capsys, where):
    query = [1] * (MAX_DIM + 1 if where == "query" else 4)
    keys = [[1] * len(query)]
    values = [[1] * (MAX_DIM + 1 if where == "values" else 2)]
    path = write(tmp_path, query, keys, values)
    assert main(["compute", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    message = captured.err.strip()
    assert "\n" not in message
    assert "4096" in message and "4097" in message and where in message, message


def test_a_file_of_512_keys_opens_and_513_are_refused(tmp_path, capsys):
    # 512 equal keys: every weight is 1/512 = 0.001953125.
    path = write(tmp_path, [1, 0], [[1, 0]] * MAX_KEYS, [[1]] * MAX_KEYS)
    assert main(["compute", path]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n"] == 512 and result["weights"] == pytest.approx([1 / 512] * 512, rel=1e-12)
    path = write(tmp_path, [1, 0], [[1, 0]] * (MAX_KEYS + 1), [[1]] * (MAX_KEYS + 1))
    assert main(["compute", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().endswith("keys: expected a list of 1 to 512 rows, got 513")
