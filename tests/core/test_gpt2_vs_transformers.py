"""The numpy GPT-2 against transformers' GPT2Model and GPT2LMHeadModel on the same tiny model: attention, q, k, v,
hidden states, and the tokens of greedy generation.

Needs torch and transformers; .ci/run installs them. Elsewhere this module is skipped with the reason shown.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.core.pretrained.generation import next_token_id
from tests.helpers.tiny_gpt2 import tiny_gpt2_dir

assert tiny_gpt2_dir  # a fixture: pytest finds it through this import

torch = transformers = None  # set when the module's first test runs (tests/core/conftest.py)


@pytest.fixture(scope="module", autouse=True)
def _reference_libraries(torch_and_transformers):
    global torch, transformers
    torch, transformers = torch_and_transformers

TOLERANCE = 1e-5  # transformers computes in float32, we in float64


@pytest.fixture(scope="module")
def ours(tiny_gpt2_dir):
    return load_checkpoint(tiny_gpt2_dir)


@pytest.fixture(scope="module")
def theirs(tiny_gpt2_dir):
    """transformers' GPT2LMHeadModel read from the same folder (its .transformer is the GPT2Model), eager attention."""
    model = transformers.GPT2LMHeadModel.from_pretrained(str(tiny_gpt2_dir), attn_implementation="eager",
                                                         local_files_only=True)
    return model.eval()


@pytest.mark.parametrize("text", ["I love Beijing", "我爱北京天安门", "the cat sat on the mat."])
def test_attention_q_k_v_and_hidden_states_match_gpt2model(ours, theirs, text):
    analysis = ours.analyse(text)
    mixed = []
    hooks = [block.attn.c_attn.register_forward_hook(lambda _m, _i, out: mixed.append(out[0].numpy()))
             for block in theirs.transformer.h]
    try:
        with torch.no_grad():
            out = theirs.transformer(input_ids=torch.tensor([list(analysis.ids)]), output_attentions=True,
                                     output_hidden_states=True)
    finally:
        for hook in hooks:
            hook.remove()
    attentions = np.stack([layer[0].numpy() for layer in out.attentions]).astype(np.float64)
    assert attentions.shape == analysis.output.attentions.shape == (2, 4, analysis.n, analysis.n)
    assert np.abs(analysis.output.attentions - attentions).max() <= TOLERANCE
    for layer, qkv in zip(analysis.output.layers, mixed):
        n = qkv.shape[0]
        for ours_part, part in zip((layer.queries, layer.keys, layer.values), np.split(qkv, 3, axis=-1)):
            assert np.abs(ours_part - part.reshape(n, 4, 8).transpose(1, 0, 2)).max() <= TOLERANCE
    # transformers lists the embeddings, each block's output but the last, then ln_f of the last
    states = [state[0].numpy() for state in out.hidden_states]
    assert len(states) == len(analysis.output.hidden_states) == 3
    for mine, their in zip(analysis.output.hidden_states[:-1], states[:-1]):
        assert np.abs(mine - their).max() <= TOLERANCE
    assert np.abs(analysis.output.last_hidden_state - states[-1]).max() <= TOLERANCE


def test_greedy_generation_with_the_cache_gives_transformers_tokens(ours, theirs):
    analysis = ours.analyse("the cat")
    prompt = list(analysis.ids)
    for _ in range(8):
        analysis = ours.next_token(analysis, next_token_id(analysis.output.next_logits))
    with torch.no_grad():
        generated = theirs.generate(torch.tensor([prompt]), max_new_tokens=8, do_sample=False, pad_token_id=0,
                                    attention_mask=torch.ones(1, len(prompt), dtype=torch.long))
    assert list(analysis.ids) == generated[0].tolist()
    assert len(set(analysis.ids[len(prompt):])) > 1  # not one token repeated: the comparison says something
    with torch.no_grad():
        logits = theirs(input_ids=torch.tensor([list(analysis.ids)])).logits[0, -1].numpy()
    assert np.abs(analysis.output.next_logits - logits).max() <= 1e-4  # |logit| up to ~10: float32's 1e-5 relative
