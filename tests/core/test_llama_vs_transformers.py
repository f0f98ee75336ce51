"""The numpy Llama and Qwen2 against transformers' LlamaForCausalLM and Qwen2ForCausalLM on the same tiny models:
attention, q and k after RoPE (k per K/V head, before grouped-query attention repeats it), hidden states, logits,
and the tokens of greedy generation.

Needs torch and transformers; .ci/run installs them. Elsewhere this module is skipped with the reason shown.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.core.pretrained.generation import next_token_id
from tests.helpers.tiny_llama import tiny_llama_dir, tiny_llama_variants, tiny_qwen2_dir

assert tiny_llama_dir and tiny_qwen2_dir and tiny_llama_variants  # fixtures: pytest finds them through this import

torch = transformers = None  # set when the module's first test runs (tests/core/conftest.py)
TOLERANCE = 1e-5  # transformers computes in float32, we in float64
KINDS = ["llama", "qwen2", "llama-bf16", "llama-tied", "llama-sharded", "llama-v5-config", "qwen2-bf16-sharded",
         "qwen2-untied"]


@pytest.fixture(scope="module", autouse=True)
def _reference_libraries(torch_and_transformers):
    global torch, transformers
    torch, transformers = torch_and_transformers


@pytest.fixture(scope="module")
def folders(tiny_llama_dir, tiny_qwen2_dir, tiny_llama_variants):
    return {"llama": tiny_llama_dir, "qwen2": tiny_qwen2_dir, **tiny_llama_variants}


def _theirs(folder):
    """transformers' model read from the folder, eager attention, float32 (bf16 weights widened exactly)."""
    model = transformers.AutoModelForCausalLM.from_pretrained(str(folder), attn_implementation="eager",
                                                              dtype=torch.float32, local_files_only=True)
    return model.eval()


@pytest.fixture
def recorded(monkeypatch):
    """Every call of transformers' eager attention: its query (after RoPE) and key (after RoPE, per K/V head)."""
    from transformers.models.llama import modeling_llama
    from transformers.models.qwen2 import modeling_qwen2

    calls = []
    for module in (modeling_llama, modeling_qwen2):
        original = module.eager_attention_forward

        def recording(layer, query, key, *args, original=original, **kwargs):
            calls.append((query[0].numpy().copy(), key[0].numpy().copy()))
            return original(layer, query, key, *args, **kwargs)

        monkeypatch.setattr(module, "eager_attention_forward", recording)
    return calls


@pytest.mark.parametrize("kind", KINDS)
def test_attention_rotated_q_and_k_and_hidden_states_match_transformers(folders, recorded, kind):
    ours = load_checkpoint(folders[kind])
    try:
        analysis = ours.analyse("我 爱 北京 the cat sat")
    finally:
        ours.tokenizer.close()
    theirs = _theirs(folders[kind])
    with torch.no_grad():
        out = theirs(input_ids=torch.tensor([list(analysis.ids)]), output_attentions=True, output_hidden_states=True)
    attentions = np.stack([layer[0].numpy() for layer in out.attentions]).astype(np.float64)
    assert attentions.shape == analysis.output.attentions.shape == (2, 4, analysis.n, analysis.n)
    assert np.abs(analysis.output.attentions - attentions).max() <= TOLERANCE
    assert len(recorded) == 2
    for layer, (query, key) in zip(analysis.output.layers, recorded):
        assert query.shape == layer.queries.shape == (4, analysis.n, 16)
        assert key.shape == layer.cached_keys.shape == (2, analysis.n, 16)  # two K/V heads for four query heads
        assert np.abs(layer.queries - query).max() <= TOLERANCE
        assert np.abs(layer.cached_keys - key).max() <= TOLERANCE
    # transformers lists the embeddings, each block's output but the last, then the final RMSNorm of the last
    states = [state[0].numpy() for state in out.hidden_states]
    assert len(states) == len(analysis.output.hidden_states) == 3
    for mine, their in zip(analysis.output.hidden_states[:-1], states[:-1]):
        assert np.abs(mine - their).max() <= TOLERANCE
    assert np.abs(analysis.output.last_hidden_state - states[-1]).max() <= TOLERANCE
    # |logit| up to ~11: float32's 1e-5 relative
    assert np.abs(analysis.output.next_logits - out.logits[0, -1].numpy()).max() <= 1e-4


@pytest.mark.parametrize("kind", ["llama", "qwen2", "qwen2-bf16-sharded"])
def test_greedy_generation_with_the_cache_gives_transformers_tokens(folders, kind):
    ours = load_checkpoint(folders[kind])
    try:
        analysis = ours.analyse("the cat")
        prompt = list(analysis.ids)
        for _ in range(10):
            analysis = ours.next_token(analysis, next_token_id(analysis.output.next_logits))
    finally:
        ours.tokenizer.close()
    theirs = _theirs(folders[kind])
    with torch.no_grad():
        generated = theirs.generate(torch.tensor([prompt]), max_new_tokens=10, do_sample=False, pad_token_id=1,
                                    eos_token_id=None, attention_mask=torch.ones(1, len(prompt), dtype=torch.long))
    assert list(analysis.ids) == generated[0].tolist()
    assert len(set(analysis.ids[len(prompt):])) > 3  # not one token repeated: the comparison says something
