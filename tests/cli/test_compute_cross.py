"""The command line on cross-attention files: `compute` prints the documented JSON and tables, bad files one line."""

import json
import math

import numpy as np
import pytest

CROSS_FILE = {
    "kind": "cross",
    "target_tokens": ["我", "爱"],
    "source_tokens": ["I", "love", "Beijing"],
    "target_embeddings": [[1, 0], [0, 1]],
    "source_embeddings": [[2, 0], [0, 2], [1, 1]],
    "w_q": [[1, 0], [0, 1]],
    "w_k": [[1, 0], [0, 1]],
    "w_v": [[1], [0]],
}


def text_with(**changes) -> str:
    document = dict(CROSS_FILE)
    document.update(changes)
    return json.dumps(document, ensure_ascii=False)


BAD = {
    "target": (text_with(target_embeddings=[[1, 0], [0, 1, 2]]),
               "target_embeddings[1]: expected 2 numbers (d_model from source_embeddings = 2), got 3"),
    "count": (text_with(source_tokens=["I", "love"]), "source_embeddings: expected 2 rows (one per source token)"),
    "unknown": (text_with(causal=True), '"causal": unknown field'),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, cli_in_process):
    folder = tmp_path_factory.mktemp("cross-files")
    for case, (content, _) in BAD.items():
        (folder / f"{case}.json").write_text(content, encoding="utf-8")
    (folder / "good.json").write_text(text_with(), encoding="utf-8")
    commands = {case: ("compute", f"{case}.json") for case in BAD}
    commands.update({"good": ("compute", "good.json"),
                     "preset-text": ("compute", "--preset", "translation", "--format", "text")})
    return {name: cli_in_process(*arguments, cwd=folder) for name, arguments in commands.items()}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_cross_file_is_one_line_with_status_2(runs, case):
    process = runs[case]
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2 and process.stdout == b"", stderr
    assert stderr.splitlines() == [stderr.strip()]
    assert stderr.startswith(f"attention-explorer: {case}.json: {BAD[case][1]}"), stderr


def test_compute_prints_the_n_q_by_n_k_weights(runs):
    process = runs["good"]
    assert process.returncode == 0, process.stderr
    data = json.loads(process.stdout)
    assert data["kind"] == "cross" and (data["n_q"], data["n_k"], data["d_k"], data["d_v"]) == (2, 3, 2, 1)
    assert data["queries"] == [[1, 0], [0, 1]] and data["keys"] == [[2, 0], [0, 2], [1, 1]]
    assert data["scores"] == [[2, 0, 1], [0, 2, 1]]
    e = [math.exp(s / math.sqrt(2)) for s in (2, 0, 1)]
    assert data["weights"][0] == pytest.approx([x / sum(e) for x in e], abs=1e-15)
    assert np.allclose(data["output"], np.array(data["weights"]) @ np.array(data["values"]))


def test_compute_text_writes_the_shapes_out(runs):
    text = runs["preset-text"].stdout.decode("utf-8")
    assert "(3 x 2) . (2 x 3) = 3 x 3  (row = target token, column = source token)" in text
    assert "K = X.W_K  (3 x 2, from the source)" in text
    assert "1 我    0.888  0.070    0.042" in text
