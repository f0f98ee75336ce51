"""Pure-numpy core of Attention Explorer: attention math, scenarios, presets. Imports no Qt."""

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import (
    AttentionResult,
    DotProductSample,
    SelfAttentionResult,
    attend,
    inv_sqrt_scale,
    sample_dot_products,
    self_attention,
    softmax,
)
from attention_explorer.core.scenes.query.scene import Scenario

__all__ = [
    "AttentionResult",
    "DotProductSample",
    "Scenario",
    "ScenarioError",
    "SelfAttentionResult",
    "attend",
    "inv_sqrt_scale",
    "sample_dot_products",
    "self_attention",
    "softmax",
]
