"""What a user takes home — the Markdown and LaTeX tables, the text handout — and the numpy BERT's constants,
each checked column by column against numbers worked out by hand (the library example of the article) or a
reference (PyTorch where installed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explorer.app import main
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.pretrained import bert
from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.core.scenes.query import export
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import

# The library example by hand: Q = [1, 0, 1, 0]; K1 = Q, K2 ⟂ Q, K3 = [1, 0, 0, 0]; ÷ √4 = 2.
# Scores 2, 0, 1; scaled 1, 0, 0.5; e^x = e, 1, √e (Σ = 5.367); weights e/Σ, 1/Σ, √e/Σ;
# cos θ = 1, 0, 1/√2 (θ = 0°, 90°, 45°); w·V with V = [0.8, 0.2], [0.1, 0.9], [0.3, 0.7].
LIBRARY_ROWS = {
    "K1": {"score": "2.000", "scaled": "1.000", "exp": "2.718", "weight": "0.506", "cos": "1.000", "angle": "0.000",
           "weighted": "[0.405, 0.101]"},
    "K2": {"score": "0.000", "scaled": "0.000", "exp": "1.000", "weight": "0.186", "cos": "0.000", "angle": "90.000",
           "weighted": "[0.056, 0.130]"},
    "K3": {"score": "1.000", "scaled": "0.500", "exp": "1.649", "weight": "0.307", "cos": "0.707", "angle": "45.000",
           "weighted": "[0.031, 0.276]"},
}


@pytest.fixture(scope="module")
def library():
    scenario = load_preset("library")
    return scenario, scenario.compute()


def test_the_hand_numbers_are_right():
    # The constants above, from the definitions (so a typo in them cannot pass unnoticed either).
    total = math.e + 1 + math.sqrt(math.e)
    assert f"{total:.3f}" == "5.367"
    weights = [math.e / total, 1 / total, math.sqrt(math.e) / total]
    assert [f"{w:.3f}" for w in weights] == [LIBRARY_ROWS[k]["weight"] for k in ("K1", "K2", "K3")]
    assert f"{math.degrees(math.acos(1 / math.sqrt(2))):.3f}" == LIBRARY_ROWS["K3"]["angle"]
    assert f"{weights[1] * 0.9:.3f}" == "0.168"


def table_rows(text: str, separator: str) -> dict[str, list[str]]:
    """The cells of each key's row, by key label, from a table whose cells are split by `separator`."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").removesuffix(r"\\").split(separator)]
        if cells and cells[0] in LIBRARY_ROWS:
            rows[cells[0]] = cells[1:]
    return rows


def test_markdown_has_each_number_in_its_column(library):
    text = export.to_markdown(*library)
    header = [cell.strip() for cell in text.splitlines()[0].strip("|").split("|")]
    assert header == ["key", "Q·K", "× 0.500", "e^x", "weight", "V", "weight × V"]
    rows = table_rows(text, "|")
    assert set(rows) == set(LIBRARY_ROWS)
    for label, expected in LIBRARY_ROWS.items():
        score, scaled, exp, weight, _values, weighted = rows[label]
        assert (score, scaled, exp, weight, weighted) == (
            expected["score"], expected["scaled"], expected["exp"], expected["weight"], expected["weighted"]), label
    total = [cell.strip() for cell in text.splitlines()[-1].strip("|").split("|")]
    assert total[0] == "**sum**" and total[3] == "5.367" and total[4] == "1.000" and total[6] == "**[0.492, 0.508]**"


def test_latex_has_each_number_in_its_column(library):
    text = export.to_latex(*library)
    body = text[text.index(r"\begin{tabular}"):text.index(r"\end{tabular}")]
    assert r"\begin{tabular}{lrrrr}" in body
    rows = table_rows(body, "&")
    assert set(rows) == set(LIBRARY_ROWS)
    for label, expected in LIBRARY_ROWS.items():
        assert rows[label] == [expected["score"], expected["scaled"], expected["exp"], expected["weight"]], label
    assert r"$\sum$ & & & 5.367 & 1.000 \\" in body
    assert r"$\times 0.500$" in body
    assert "[0.492, 0.508]" in text[text.index(r"\end{tabular}"):]


def test_the_text_handout_has_cos_and_degrees_in_their_columns(capsys):
    assert main(["compute", "--preset", "library", "--format", "text"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("key"))
    assert header.split() == ["key", "score", "scaled", "e^x", "weight", "cos", "angle"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[lines.index(header) + 2:] if line.split()
            and line.split()[0] in LIBRARY_ROWS}
    for label, expected in LIBRARY_ROWS.items():
        assert rows[label] == [expected[name] for name in ("score", "scaled", "exp", "weight", "cos", "angle")], label
    assert "sum of e^x = 5.367" in text
    assert "output = [0.492, 0.508]" in text


# ---------------------------------------------------------------- the numpy BERT


def test_tanh_gelu_uses_sqrt_2_over_pi_and_0_044715():
    # GELU_tanh(x) = ½x(1 + tanh(√(2/π)(x + 0.044715x³))), Hendrycks & Gimpel; √(2/π) = 0.7978845608028654.
    # Reference values worked out to 30 digits (mpmath), rounded to 16; PyTorch's float64 agrees to 1e-16.
    reference = {1.0: 0.8411919906082767, -1.0: -0.1588080093917233, 2.0: 1.954597694087775,
                 0.5: 0.3457140098251439, -3.0: -0.003637392081773019}
    xs = np.array(list(reference))
    np.testing.assert_allclose(bert.gelu_tanh(xs), list(reference.values()), rtol=0, atol=1e-15)
    # It is an approximation, not the exact erf form: they differ by ~3e-4 at x = 1.
    assert abs(bert.gelu_tanh(np.array([1.0]))[0] - bert.gelu(np.array([1.0]))[0]) > 1e-4


def test_tanh_gelu_matches_pytorch_where_installed():
    torch = pytest.importorskip("torch", reason="compare with PyTorch: needs torch")
    xs = np.linspace(-6.0, 6.0, 241)
    theirs = torch.nn.functional.gelu(torch.tensor(xs, dtype=torch.float64), approximate="tanh").numpy()
    np.testing.assert_allclose(bert.gelu_tanh(xs), theirs, rtol=0, atol=1e-14)


PAIR_IDS = [2, 5, 6, 7, 3, 8, 9, 3]  # [CLS] i love beijing [SEP] the cat [SEP]
PAIR_TYPES = [0, 0, 0, 0, 0, 1, 1, 1]  # the second sentence of the pair


def test_token_type_ids_of_a_sentence_pair_enter_the_embeddings(tiny_bert_dir):
    weights = load_checkpoint(tiny_bert_dir).weights
    ours = bert.encode(weights, PAIR_IDS, token_type_ids=PAIR_TYPES)
    # By hand, token by token: LayerNorm(word + position + token-type row of that token's sentence).
    gamma, beta = weights.embedding_norm_weight.astype(float), weights.embedding_norm_bias.astype(float)
    for position, (token, kind) in enumerate(zip(PAIR_IDS, PAIR_TYPES)):
        summed = [float(w) + float(p) + float(t) for w, p, t in zip(
            weights.word_embeddings[token], weights.position_embeddings[position], weights.token_type_embeddings[kind])]
        mean = sum(summed) / len(summed)
        variance = sum((s - mean) ** 2 for s in summed) / len(summed)
        expected = [(s - mean) / math.sqrt(variance + 1e-12) * g + b for s, g, b in zip(summed, gamma, beta)]
        np.testing.assert_allclose(ours.hidden_states[0][position], expected, rtol=0, atol=1e-12)
    # And the types matter: with every token in sentence A the second sentence's attention differs.
    single = bert.encode(weights, PAIR_IDS)
    assert np.abs(single.attentions - ours.attentions).max() > 1e-3


def test_token_type_ids_match_transformers_where_installed(tiny_bert_dir):
    torch = pytest.importorskip("torch", reason="compare with transformers: needs torch")
    transformers = pytest.importorskip("transformers", reason="compare with transformers: needs transformers")
    reference = transformers.BertModel.from_pretrained(str(tiny_bert_dir), attn_implementation="eager",
                                                       local_files_only=True).eval()
    with torch.no_grad():
        output = reference(input_ids=torch.tensor([PAIR_IDS]), token_type_ids=torch.tensor([PAIR_TYPES]),
                           output_attentions=True)
    theirs = np.stack([layer[0].numpy() for layer in output.attentions]).astype(np.float64)
    ours = bert.encode(load_checkpoint(tiny_bert_dir).weights, PAIR_IDS, token_type_ids=PAIR_TYPES).attentions
    assert np.abs(ours - theirs).max() <= 1e-5  # float32 there, float64 here
