"""Every layer's attention from the numpy forward pass against transformers' BertModel on the same tiny model.

Needs torch and transformers; .ci/run installs them (the CPU build of torch 2.13.0). Elsewhere this module is
skipped with the reason shown in pytest's summary.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import

torch = transformers = None  # set when the module's first test runs (tests/core/conftest.py)


@pytest.fixture(scope="module", autouse=True)
def _reference_libraries(torch_and_transformers):
    global torch, transformers
    torch, transformers = torch_and_transformers

TOLERANCE = 1e-5  # transformers computes in float32, we in float64: they agree to ~5e-7 on this model


@pytest.fixture(scope="module")
def reference(tiny_bert_dir):
    """transformers' own BertModel read from the same folder, in the eager attention that can return weights."""
    model = transformers.BertModel.from_pretrained(str(tiny_bert_dir), attn_implementation="eager",
                                                   local_files_only=True)
    return model.eval()


def _their_attentions(reference, ids, mask=None) -> np.ndarray:
    with torch.no_grad():
        output = reference(input_ids=torch.tensor([ids]), output_attentions=True,
                           attention_mask=None if mask is None else torch.tensor([mask]))
    return np.stack([layer[0].numpy() for layer in output.attentions]).astype(np.float64)


@pytest.mark.parametrize("text", ["I love Beijing", "我爱北京天安门", "the cats sat on a mat, the dog sat."])
def test_every_layer_and_head_matches_transformers(tiny_bert_dir, reference, text):
    analysis = load_checkpoint(tiny_bert_dir).analyse(text)
    theirs = _their_attentions(reference, list(analysis.ids))
    ours = analysis.output.attentions
    assert ours.shape == theirs.shape == (2, 4, analysis.n, analysis.n)
    assert np.abs(ours - theirs).max() <= TOLERANCE
    assert theirs.max() < 0.999  # not a degenerate (one-hot) model, so agreement is informative


def test_padding_mask_matches_transformers(tiny_bert_dir, reference):
    """The attention mask: padded keys are ignored the same way."""
    from attention_explorer.core.pretrained.bert import encode

    model = load_checkpoint(tiny_bert_dir)
    ids, mask = [2, 5, 6, 7, 3, 0, 0], [1, 1, 1, 1, 1, 0, 0]
    ours = encode(model.weights, ids, attention_mask=mask).attentions
    theirs = _their_attentions(reference, ids, mask)
    assert np.abs(ours - theirs).max() <= TOLERANCE
    assert np.all(ours[..., 5:] == 0.0)
