"""`attention-explorer model DIR --text … --layer L --head H` on the tiny test BERT: the JSON, and every refusal."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys

import numpy as np
import pytest

from attention_explorer.app import main
from attention_explorer.core.pretrained.checkpoint import CheckpointError, load_checkpoint
from tests.helpers.safetensors_layout import write_tensors
from tests.helpers.tiny_bert import (
    BACKTRACKING_TEXT,
    CONFIG,
    ISSUE_CONFIGS,
    MALFORMED_CONFIGS,
    random_tensors,
    tiny_bert_dir,
    with_backtracking_tokenizer,
)

assert tiny_bert_dir  # a fixture: pytest finds it through this import


def run(capsys, *args):
    status = main(["model", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def test_prints_tokens_attention_and_the_heads_q_k_v(capsys, tiny_bert_dir):
    status, out, err = run(capsys, tiny_bert_dir, "--text", "I love Beijing", "--layer", 1, "--head", 2)
    assert status == 0 and err == ""
    document = json.loads(out)
    assert document["tokens"] == ["[CLS]", "i", "love", "beijing", "[SEP]"]
    assert (document["layer"], document["head"], document["head_size"]) == (1, 2, 8)
    attention = np.array(document["attention"])
    q, k, v = (np.array(document[name]) for name in ("q", "k", "v"))
    assert attention.shape == (5, 5) and q.shape == k.shape == v.shape == (5, 8)
    np.testing.assert_allclose(attention.sum(axis=1), 1.0, atol=1e-12)
    # the attention is softmax(q·kᵀ/√8), recomputed here from the printed q and k alone
    scores = q @ k.T / math.sqrt(8)
    expected = np.exp(scores - scores.max(axis=1, keepdims=True))
    np.testing.assert_allclose(attention, expected / expected.sum(axis=1, keepdims=True), atol=1e-12)
    np.testing.assert_allclose(np.array(document["scaled_scores"]), scores, atol=1e-12)
    assert document["scale"] == pytest.approx(1 / math.sqrt(8))
    # rows of a matrix are one line each, so the output reads as a table
    assert '  "attention": [\n    [' in out


def test_chinese_tokens_print_as_themselves(capsys, tiny_bert_dir):
    status, out, _ = run(capsys, tiny_bert_dir, "--text", "我爱北京")
    assert status == 0
    assert '"tokens": ["[CLS]", "我", "爱", "北", "京", "[SEP]"]' in out
    assert json.loads(out)["layer"] == 0 and json.loads(out)["head"] == 0  # the defaults


def _copy_with_config(source, target, **changes):
    shutil.copytree(source, target)
    (target / "config.json").write_text(json.dumps({**CONFIG, **changes}), encoding="utf-8")
    return target


@pytest.mark.parametrize(("make_args", "message"), [
    (lambda d, t: [t / "nowhere", "--text", "x"], "nowhere: no such folder"),
    (lambda d, t: [d / "config.json", "--text", "x"], "config.json: not a folder"),
    (lambda d, t: [d, "--text", "x", "--layer", 2], "layer 2 is out of range: the model has 2 layers (0–1)"),
    (lambda d, t: [d, "--text", "x", "--head", -1], "head -1 is out of range: each layer has 4 heads (0–3)"),
    (lambda d, t: [d, "--text", "x", "--head", "two"], "argument --head: invalid int value: 'two'"),
    (lambda d, t: [d], "the following arguments are required: --text"),
    (lambda d, t: [_copy_with_config(d, t / "rob", model_type="roberta", architectures=["RobertaModel"]),
                   "--text", "x"], 'model_type "roberta" (RobertaModel) is not supported; supported: "bert"'),
])
def test_problems_are_one_line_and_status_2(capsys, tiny_bert_dir, tmp_path, make_args, message):
    status, out, err = run(capsys, *make_args(tiny_bert_dir, tmp_path))
    assert status == 2 and out == ""
    assert err.startswith("attention-explorer model: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def _copy_with_config_text(source, target, text):
    shutil.copytree(source, target)
    (target / "config.json").write_text(text, encoding="utf-8")
    return target


@pytest.mark.parametrize("case", MALFORMED_CONFIGS)
def test_a_malformed_config_is_one_line_and_status_2(capsys, tiny_bert_dir, tmp_path, case):
    text, expected = MALFORMED_CONFIGS[case]
    folder = _copy_with_config_text(tiny_bert_dir, tmp_path / "broken", text)
    status, out, err = run(capsys, folder, "--text", "I love Beijing")
    assert (status, out) == (2, "")
    assert err.startswith(f"attention-explorer model: {folder / 'config.json'}: {expected}"), err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_issue_s_malformed_configs_give_no_traceback_in_a_real_process(tiny_bert_dir, tmp_path):
    """As the user ran it: `attention-explorer model DIR` in its own interpreter, status 2, one stderr line."""
    for number, case in enumerate(ISSUE_CONFIGS):
        folder = _copy_with_config_text(tiny_bert_dir, tmp_path / f"m{number}", MALFORMED_CONFIGS[case][0])
        done = subprocess.run([sys.executable, "-m", "attention_explorer", "model", str(folder), "--text", "a dog"],
                              capture_output=True, text=True, encoding="utf-8", timeout=60)
        assert (done.returncode, done.stdout) == (2, ""), (case, done.stderr[-500:])
        assert done.stderr.count("\n") == 1 and MALFORMED_CONFIGS[case][1] in done.stderr, (case, done.stderr)


def test_text_that_is_not_utf8_is_named_as_such(capsys, tiny_bert_dir):
    """Bytes that are not UTF-8 arrive in argv as lone surrogates; the tokenizer's own message said nothing useful."""
    status, out, err = run(capsys, tiny_bert_dir, "--text", b"caf\xe9".decode("utf-8", "surrogateescape"))
    assert (status, out, err) == (2, "", "attention-explorer model: --text is not valid UTF-8\n")
    model = load_checkpoint(tiny_bert_dir)
    with pytest.raises(CheckpointError, match=r"^the text is not valid Unicode \(character 4 is a lone surrogate\)$"):
        model.analyse("caf\udce9")


def test_a_missing_file_is_named(capsys, tiny_bert_dir, tmp_path):
    folder = tmp_path / "no-tokenizer"
    shutil.copytree(tiny_bert_dir, folder)
    (folder / "tokenizer.json").unlink()
    status, _, err = run(capsys, folder, "--text", "x")
    assert status == 2 and "tokenizer.json is missing" in err and err.count("\n") == 1


def test_missing_optional_packages_name_the_install_command(capsys, tiny_bert_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    status, _, err = run(capsys, tiny_bert_dir, "--text", "x")
    assert status == 2
    assert err == ('attention-explorer model: real transformer mode needs the package tokenizers: '
                   'pip install "attention-explorer[model]"\n')


def test_the_weights_are_read_without_the_safetensors_package(capsys, tiny_bert_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "safetensors", None)
    status, out, err = run(capsys, tiny_bert_dir, "--text", "a dog")
    assert (status, err) == (0, "") and json.loads(out)["tokens"] == ["[CLS]", "a", "dog", "[SEP]"]


def test_the_installed_command_never_imports_qt(tiny_bert_dir):
    """A display-less server can run it: the subcommand loads no Qt at all."""
    code = ("import sys; from attention_explorer.app import main; status = main(sys.argv[1:]); "
            "assert not [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))], 'Qt imported'; "
            "sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", code, "model", str(tiny_bert_dir), "--text", "a dog"],
                          capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tokens"] == ["[CLS]", "a", "dog", "[SEP]"]


def test_a_tokenizer_whose_pattern_panics_is_one_line_and_status_2(tiny_bert_dir, tmp_path):
    """Issue 34: a Split pattern that backtracks until the regex library panics printed pyo3's PanicException
    traceback (a BaseException); now one line, status 2, and nothing of the panic on the terminal."""
    folder = with_backtracking_tokenizer(tiny_bert_dir, tmp_path / "backtracking")
    done = subprocess.run([sys.executable, "-m", "attention_explorer", "model", str(folder), "--text",
                           BACKTRACKING_TEXT], capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr[-2000:]
    assert done.stderr.startswith(f"attention-explorer model: {folder / 'tokenizer.json'}: the tokenizer failed on "
                                  "this text (Onig: Regex search error: retry-limit-in-match over)"), done.stderr
    assert done.stderr.count("\n") == 1 and "panicked" not in done.stderr and "Traceback" not in done.stderr


def test_a_tensor_that_does_not_match_the_config_is_named(capsys, tiny_bert_dir, tmp_path):
    folder = tmp_path / "transposed"
    shutil.copytree(tiny_bert_dir, folder)
    tensors = random_tensors()
    tensors["encoder.layer.0.output.dense.weight"] = tensors["encoder.layer.0.output.dense.weight"].T.copy()
    write_tensors(folder / "model.safetensors", tensors)
    status, out, err = run(capsys, folder, "--text", "a dog")
    assert (status, out) == (2, "")
    assert err == (f"attention-explorer model: {folder / 'model.safetensors'}: tensor encoder.layer.0.output.dense."
                   "weight: expected shape (32, 64), got (64, 32) (does config.json belong to these weights?)\n")
