"""`compute` on a positions file: the seeded q and k and both encodings' q·k at m and n, as JSON or text."""

from __future__ import annotations

import json

import pytest

from attention_explorer.core.maths import positional as pos

GOOD = {"format": "attention-explorer/1", "kind": "positions", "title": "RoPE", "d": 16, "pair": 3, "m": 9, "n": 2,
        "seed": 7}


def test_compute_prints_both_encodings_q_dot_k(tmp_path, cli_in_process):
    (tmp_path / "positions.json").write_text(json.dumps(GOOD), encoding="utf-8")
    as_json = cli_in_process("compute", "positions.json", cwd=tmp_path)
    assert as_json.returncode == 0 and as_json.stderr == b""
    report = json.loads(as_json.stdout)
    q, k = pos.seeded_pair(16, 7)
    assert report["q"] == q.tolist() and report["k"] == k.tolist() and report["offset"] == 7
    assert report["scores"]["rope"] == pytest.approx(float(pos.scores("rope", q, k, 9, 2)), abs=1e-12)
    assert report["scores"]["sinusoidal"] == pytest.approx(float(pos.scores("sinusoidal", q, k, 9, 2)), abs=1e-12)
    as_text = cli_in_process("compute", "positions.json", "--format", "text", cwd=tmp_path)
    assert as_text.returncode == 0 and b"m = 9, k at n = 2 (m - n = 7)" in as_text.stdout
