"""The command line on self-attention files: `compute` prints the documented JSON, bad files give one line.

Run in this process through the same `python -m attention_explorer` entry (tests/cli/conftest.py): what is
checked here is what it prints; tests/cli/test_cli.py checks the real process (no Qt, pipes, encodings).
"""

import json
import math

import numpy as np
import pytest

SEQUENCE_FILE = {
    "kind": "self",  # the older spelling of "sequence": still read
    "title": "我 爱 北京",
    "tokens": ["我", "爱", "北京"],
    "embeddings": [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]],
    "w_q": [[0, 1], [1.5, 0], [0, 0.5], [0.5, 0]],
    "w_k": [[1, 0], [0, 1.5], [0.5, 0], [0, 0]],
    "w_v": [[0, 0], [0, 1], [1, 0], [0.5, 0.5]],
}


def text_with(**changes) -> str:
    document = dict(SEQUENCE_FILE)
    document.update(changes)
    return json.dumps(document, ensure_ascii=False)


# Each bad file, and what its one error line must say after "attention-explorer: FILE: ".
BAD = {
    "ragged": (text_with(embeddings=[[1, 0, 1, 0], [0, 1], [1, 0, 0, 1]]),
               "embeddings[1]: expected 4 numbers (d_model = 4), got 2"),
    "w_q-rows": (text_with(w_q=[[0, 1], [1.5, 0]]),
                 "w_q: expected 4 rows (d_model = 4, the width of the embeddings), got 2"),
    "d_k": (text_with(w_k=[[1], [0], [0.5], [0]]), "w_k[0]: expected 2 numbers (d_k from w_q = 2), got 1"),
    "unknown": (text_with(query=[1, 0]), '"query": unknown field'),
    "count": (text_with(tokens=["我", "爱", "北京", "。"]), "embeddings: expected 4 rows (one per token), got 3"),
    "nan": (text_with().replace("[1, 0, 0, 1]", "[1, NaN, 0, 1]"), "embeddings[2][1]: NaN is not allowed"),
    "boolean": (text_with(causal="true", w_v=[[0, 0], [0, True], [1, 0], [0.5, 0.5]]),
                "w_v[1][1]: expected a number, got true/false"),
    "kind": (text_with(kind="Self"), 'kind: expected "sequence"'),
    "padding": (text_with(padding=[0, 5]), "padding[1]: position 5 is out of range (there are 3 tokens, from 0 to 2)"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, cli_in_process):
    """Every command of this file, each run once."""
    folder = tmp_path_factory.mktemp("self-files")
    for case, (content, _) in BAD.items():
        (folder / f"{case}.json").write_text(content, encoding="utf-8")
    (folder / "good.json").write_text(text_with(causal=True), encoding="utf-8")
    (folder / "padded.json").write_text(text_with(causal=True, padding=[1]), encoding="utf-8")
    commands = {case: ("compute", f"{case}.json") for case in BAD}
    commands.update({
        "preset-json": ("compute", "--preset", "self-attention"),
        "preset-text": ("compute", "--preset", "self-attention", "--format", "text"),
        "good": ("compute", "good.json"),
        "padded": ("compute", "padded.json"),
        "presets": ("presets",),
    })
    return {name: cli_in_process(*arguments, cwd=folder) for name, arguments in commands.items()}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_self_file_is_one_line_with_status_2(runs, case):
    process = runs[case]
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2, stderr
    assert process.stdout == b"" and "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"attention-explorer: {case}.json: {BAD[case][1]}"), lines[0]


def test_compute_on_the_preset_prints_the_documented_json(runs):
    process = runs["preset-json"]
    assert process.returncode == 0 and process.stderr == b""
    data = json.loads(process.stdout)
    assert data["kind"] == "sequence" and data["tokens"] == ["我", "爱", "北京"]
    assert (data["n"], data["d_model"], data["d_k"], data["d_v"], data["causal"]) == (3, 4, 2, 2, False)
    assert data["queries"] == [[0, 1.5], [1.5, 0], [0.5, 1.0]]
    assert data["keys"] == [[1.5, 0], [0, 1.5], [1.0, 0]]
    assert data["values"] == [[1, 0], [0, 1], [0.5, 0.5]]
    assert data["scores"] == [[0, 2.25, 0], [2.25, 0, 1.5], [0.75, 1.5, 0.5]]
    assert data["scale"] == pytest.approx(1 / math.sqrt(2))
    assert np.allclose(data["scaled_scores"], np.array(data["scores"]) / math.sqrt(2))
    weights = np.array(data["weights"])
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert [round(w, 3) for w in weights[1]] == [0.558, 0.114, 0.328]
    assert np.allclose(data["output"], weights @ np.array(data["values"]))


def test_compute_on_a_causal_file_gives_null_and_exact_zeros(runs):
    process = runs["good"]
    assert process.returncode == 0, process.stderr
    assert b"Infinity" not in process.stdout  # JSON has no infinity: masked scaled scores are null
    data = json.loads(process.stdout)
    assert data["causal"] is True
    assert data["scaled_scores"][0][1:] == [None, None] and data["scaled_scores"][1][2] is None
    assert data["weights"][0] == [1.0, 0.0, 0.0] and data["weights"][1][2] == 0.0
    assert all(math.isclose(sum(row), 1.0) for row in data["weights"])


def test_compute_text_is_readable(runs):
    process = runs["preset-text"]
    assert process.returncode == 0
    text = process.stdout.decode("utf-8")
    assert "Q = X.W_Q  (3 x 2)" in text and "(3 x 2) . (2 x 3) = 3 x 3" in text
    assert "each row sums to 1" in text
    assert "2 爱    0.558  0.114  0.328" in text  # columns line up, Chinese counted as two columns


def test_presets_lists_the_self_attention_preset(runs):
    process = runs["presets"]
    assert process.returncode == 0
    assert "self-attention\tSelf-attention: 我 爱 北京" in process.stdout.decode("utf-8").splitlines()


def test_compute_on_a_padded_causal_file_reports_padding_and_m(runs):
    """Padding 爱 under the causal mask: M is −∞ (null) above the diagonal and in column 1; those weights are 0."""
    process = runs["padded"]
    assert process.returncode == 0, process.stderr
    data = json.loads(process.stdout)
    assert data["padding"] == [1]
    assert data["mask"] == [[0.0, None, None], [0.0, None, None], [0.0, None, 0.0]]
    weights = np.array(data["weights"])
    assert (weights[:, 1] == 0.0).all() and weights[1].tolist() == [1.0, 0.0, 0.0]
    scores = np.array(data["scores"])[2] / math.sqrt(2)
    exps = [math.exp(scores[0]), math.exp(scores[2])]
    assert weights[2].tolist() == pytest.approx([exps[0] / sum(exps), 0.0, exps[1] / sum(exps)], abs=1e-12)
