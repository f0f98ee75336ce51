"""What a scenario's story says the app will show, kept as data next to the story so a test can check it.

A scenario file may carry an optional "claims" list. Each claim names a state ("after") and the numbers the
story states for it: raw or scaled scores, attention weights, the output or the keys' cos θ, within a tolerance. A
self-attention file says which query row ("row") the numbers belong to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_explorer.core.limits import MAX_SCALE, ScenarioError
from attention_explorer.core.messages import Phrase, big_integer_text, field_name_text, number_text, value_kind
from attention_explorer.core.scenes.query.scene import with_scale
from attention_explorer.core.scenes.sequence.scene import replace_sequence

if TYPE_CHECKING:
    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario

# The states a story can speak of: the file as opened, then one change a user makes with one control.
AFTER = ("as shown", "auto scale", "no scaling", "factor", "causal mask")
QUANTITIES = ("scores", "scaled_scores", "weights", "output", "cosines")
FIELDS = ("after", "factor", *QUANTITIES, "row", "tolerance")
DEFAULT_TOLERANCE = 0.005  # stories round to two or three decimals
MAX_CLAIMS = 64


@dataclass(frozen=True)
class Claim:
    """Numbers a story states for the scenario in state `after` (None: the story says nothing of them)."""

    after: str = "as shown"
    factor: float | None = None  # the manual factor of after = "factor"
    scores: tuple[float, ...] | None = None
    scaled_scores: tuple[float, ...] | None = None
    weights: tuple[float, ...] | None = None
    output: tuple[float, ...] | None = None
    cosines: tuple[float, ...] | None = None
    row: int | None = None
    tolerance: float = DEFAULT_TOLERANCE


def _kind(value: Any) -> str:
    """What a JSON value is, for messages: any number is "a number" here (a claim wants one, whatever its type)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Phrase("a number")
    return value_kind(value)


def _shown(value: Any) -> str:
    """A value a claim gave where a number was wanted, as a message names it: 1.5×10⁻⁷, never 1.5e-07."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value_kind(value)
    return big_integer_text(value) if isinstance(value, int) else number_text(value)


def _numbers(raw: Any, place: str, count: int) -> tuple[float, ...]:
    """`count` finite numbers, or a ScenarioError naming `place`."""
    if not isinstance(raw, list) or len(raw) != count:
        got = len(raw) if isinstance(raw, list) else _kind(raw)
        raise ScenarioError("{0}: expected a list of {1} numbers, got {2}", place, count, got)
    for j, value in enumerate(raw):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ScenarioError("{0}[{1}]: expected a finite number, got {2}", place, j, _kind(value))
    return tuple(float(value) for value in raw)


def _sizes(scenario: Scenario | SequenceScenario) -> tuple[int, int, bool]:
    """(number of keys or tokens, d_v, whether it is a self-attention sequence)."""
    return scenario.n, scenario.d_v, hasattr(scenario, "tokens")


def claim_from_dict(raw: Any, index: int, scenario: Scenario | SequenceScenario) -> Claim:
    """Validate one claim against the scenario it speaks of (first problem raises ScenarioError)."""
    place = f"claims[{index}]"
    if not isinstance(raw, dict):
        raise ScenarioError("{0}: expected an object, got {1}", place, _kind(raw))
    for name in raw:
        if name not in FIELDS:
            raise ScenarioError('{0}: "{1}": unknown field (allowed: {2})',
                                place, field_name_text(name), ", ".join(FIELDS))
    n, d_v, sequence = _sizes(scenario)
    after = raw.get("after", "as shown")
    if after not in AFTER or (after == "causal mask" and not sequence):
        allowed = AFTER if sequence else AFTER[:-1]
        raise ScenarioError("{0}.after: expected one of {1}, got {2}", place, ", ".join(allowed), repr(after)[:40])
    factor = raw.get("factor")
    if after == "factor":
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0 <= factor <= 1e6:
            raise ScenarioError("{0}.factor: expected a number from 0 to {1:g}, got {2}", place, MAX_SCALE,
                                _shown(factor))
        factor = float(factor)
    elif factor is not None:
        raise ScenarioError('{0}.factor: only with "after": "factor"', place)
    if not any(name in raw for name in QUANTITIES):
        raise ScenarioError("{0}: states nothing (give scores, scaled_scores, weights, output or cosines)", place)
    if sequence and "cosines" in raw:
        raise ScenarioError("{0}.cosines: only a single-query file has them", place)
    row = raw.get("row")
    if sequence:
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < n:
            raise ScenarioError("{0}.row: expected a whole number from 0 to {1}, got {2}", place, n - 1, _shown(row))
    elif row is not None:
        raise ScenarioError("{0}.row: only a self-attention file has rows", place)
    tolerance = raw.get("tolerance", DEFAULT_TOLERANCE)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance <= 1:
        raise ScenarioError("{0}.tolerance: expected a number above 0 and at most 1, got {1}", place,
                            _shown(tolerance))
    counts = {"scores": n, "scaled_scores": n, "weights": n, "output": d_v, "cosines": n}
    found = {name: _numbers(raw[name], f"{place}.{name}", counts[name]) for name in QUANTITIES if name in raw}
    return Claim(after=after, factor=factor, row=row, tolerance=float(tolerance), **found)


def claims_from_list(raw: Any, scenario: Scenario | SequenceScenario) -> tuple[Claim, ...]:
    """Validate a file's "claims" (None: the file has none) against its scenario."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > MAX_CLAIMS:
        got = len(raw) if isinstance(raw, list) else _kind(raw)
        raise ScenarioError("claims: expected a list of at most {0} claims, got {1}", MAX_CLAIMS, got)
    return tuple(claim_from_dict(item, index, scenario) for index, item in enumerate(raw))


def state_after(scenario: Scenario | SequenceScenario, after: str,
                factor: float | None = None) -> Scenario | SequenceScenario:
    """The scenario once the user has made the change `after` names."""
    if after == "as shown":
        return scenario
    if hasattr(scenario, "tokens"):
        changes = {"auto scale": {"scale": None}, "no scaling": {"scale": 1.0}, "factor": {"scale": factor},
                   "causal mask": {"causal": True}}
        return replace_sequence(scenario, **changes[after])
    return with_scale(scenario, {"auto scale": None, "no scaling": 1.0, "factor": factor}[after])


def shown(scenario: Scenario | SequenceScenario, claim: Claim) -> dict[str, np.ndarray]:
    """The scores, weights and output the core computes in the claim's state (the claim's row of a sequence)."""
    result = state_after(scenario, claim.after, claim.factor).compute()
    if claim.row is not None:
        return {name: getattr(result, name)[claim.row] for name in QUANTITIES[:-1]}
    cosines = np.array([math.nan if cosine is None else cosine for cosine in result.cosines])
    found = {name: getattr(result, name) for name in QUANTITIES[:-1]}
    return {**found, "cosines": cosines}


def mismatches(scenario: Scenario | SequenceScenario, claim: Claim) -> list[str]:
    """Every number of the claim the core does not show (empty: the story is true)."""
    found = shown(scenario, claim)
    wrong = []
    for name in QUANTITIES:
        stated = getattr(claim, name)
        if stated is not None and not np.allclose(found[name], stated, rtol=0.0, atol=claim.tolerance):
            wrong.append(f"{claim.after}: {name} {list(stated)} stated, {np.round(found[name], 4).tolist()} shown")
    return wrong
