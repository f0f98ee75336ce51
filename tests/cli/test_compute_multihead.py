"""`compute` on multi-head files: every head, the concatenation and the output as JSON or text; bad files one line."""

import json

import numpy as np
import pytest

from attention_explorer.core.files import anykind as fileformat
from attention_explorer.core.scenes.multihead import scene as mh

GOOD = {
    "kind": "multihead",
    "title": "两个头",
    "tokens": ["我", "爱", "北京"],
    "heads": 2,
    "embeddings": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]],
    "w_q": np.eye(4).tolist(), "w_k": np.eye(4).tolist(), "w_v": np.eye(4).tolist(),
    "w_o": (2 * np.eye(4)).tolist(),
    "causal": True,
}
BAD = {
    "heads": (dict(GOOD, heads=3), "heads: d_model = 4 is not divisible by h = 3"),
    "ragged": (dict(GOOD, w_o=[[2, 0, 0, 0], [0, 2]]), "w_o: expected 4 rows (d_model = 4"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, cli_in_process):
    folder = tmp_path_factory.mktemp("multihead-files")
    for name, document in {"good": GOOD, **{case: doc for case, (doc, _) in BAD.items()}}.items():
        (folder / f"{name}.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    commands = {"json": ("compute", "good.json"), "text": ("compute", "good.json", "--format", "text"),
                **{case: ("compute", f"{case}.json") for case in BAD}}
    return {name: cli_in_process(*arguments, cwd=folder) for name, arguments in commands.items()}


def test_json_has_every_head_the_concatenation_and_the_output(runs):
    process = runs["json"]
    assert process.returncode == 0 and process.stderr == b""
    data = json.loads(process.stdout)
    assert (data["kind"], data["n"], data["d_model"], data["heads"], data["d_k"], data["d_v"]) == (
        "multihead", 3, 4, 2, 2, 2)
    expected = fileformat.loads_any(json.dumps(GOOD)).compute()
    assert len(data["per_head"]) == 2
    for head, numbers in enumerate(data["per_head"]):
        assert numbers["head"] == head + 1 and numbers["columns"] == [2 * head, 2 * head + 2]
        assert numbers["scores"] == expected.scores[head].tolist()
        assert numbers["weights"] == expected.weights[head].tolist()
        assert numbers["output"] == expected.head_outputs[head].tolist()
        assert numbers["scaled_scores"][0][1:] == [None, None]  # causal: JSON has no −∞
    # Identity weights: the concatenation is the heads' outputs side by side, the output twice that (W_O = 2I).
    concat = np.hstack([np.array(head["output"]) for head in data["per_head"]])
    assert data["concat"] == concat.tolist()
    assert data["output"] == (2 * concat).tolist()


def test_text_shows_each_head_and_the_shapes(runs):
    text = runs["text"].stdout.decode("utf-8")
    assert "N = 3, d_model = 4, h = 2, d_k = d_v = d_model / h = 2" in text
    assert "head 2: columns 3..4 of W_Q, W_K, W_V" in text
    assert "head 1 weights (each row sums to 1)" in text
    assert "concat [head 1 | ... | head 2]  (3 x 4)" in text
    assert "output = concat . W_O  (3 x 4) . (4 x 4) = 3 x 4" in text
    assert "1 我    0.707   -inf   -inf" in text  # Chinese counted as two columns, the mask shown


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_one_line_with_status_2(runs, case):
    process = runs[case]
    lines = process.stderr.decode("utf-8").splitlines()
    assert process.returncode == 2 and process.stdout == b""
    assert len(lines) == 1 and lines[0].startswith(f"attention-explorer: {case}.json: {BAD[case][1]}"), lines


def test_the_report_names_no_head_more_than_there_are():
    scenario = mh.build_multihead(["a", "b"], 6, 3)
    from attention_explorer.core.scenes.multihead.report import multihead_report

    assert [head["head"] for head in multihead_report(scenario, scenario.compute())["per_head"]] == [1, 2, 3]
