"""Each example's story says only what the app then shows: its numbers are claims in the file, checked here."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from attention_explorer.core.files.anykind import loads_any
from attention_explorer.core.files.presets import load_preset, preset_names, preset_path
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.file import loads
from attention_explorer.core.teaching.claims import Claim, claims_from_list, mismatches

PRESETS = preset_names()


def document(name: str) -> dict:
    """A preset's file as JSON."""
    return json.loads(preset_path(name).read_text(encoding="utf-8"))


def claims(name: str) -> tuple[Claim, ...]:
    """A preset's claims, validated as the loader validates them."""
    return claims_from_list(document(name).get("claims"), load_preset(name))


@pytest.mark.parametrize("name", PRESETS)
def test_every_claim_of_a_story_is_what_the_core_computes(name):
    scenario = load_preset(name)
    wrong = [problem for claim in claims(name) for problem in mismatches(scenario, claim)]
    assert not wrong, f"{name}: {wrong}"


def _claimed_numbers(name: str) -> list[float]:
    found = []
    for claim in claims(name):
        for quantity in ("scores", "scaled_scores", "weights", "output", "cosines"):
            found.extend(getattr(claim, quantity) or ())
    return found


def _named_examples(name: str) -> list[str]:
    """The examples a story names by their quoted titles."""
    titles = {document(other)["title"]: other for other in PRESETS}
    quoted = re.findall(r"“([^”]+)”", document(name).get("description", ""))
    return [titles[title] for title in quoted if title in titles]


def _articles_hand_arithmetic() -> list[float]:
    """The article's step 4 done as the article does it: weights rounded to 3 decimals, each term rounded, then added.

    Its terms and sums (0.101 + 0.215 + 0.167 = 0.483) are numbers a story may quote to explain the article's slip.
    """
    scenario = load_preset("article-step3")
    rounded_weights = np.round(scenario.compute().weights, 3)
    terms = np.round(rounded_weights[:, None] * scenario.values, 3)
    return [*terms.ravel().tolist(), *np.round(terms.sum(axis=0), 3).tolist()]


def test_the_articles_hand_arithmetic_gives_its_printed_output():
    assert _articles_hand_arithmetic()[-2:] == [0.516, 0.483]
    assert [0.101, 0.215, 0.167] == _articles_hand_arithmetic()[1:6:2]


@pytest.mark.parametrize("name", PRESETS)
def test_every_share_and_decimal_a_story_states_is_a_claim(name):
    """No number in a story goes unchecked: percentages and decimals each match a claimed number as written (its own,
    an example's it names by title, or the article's own hand arithmetic that the library stories explain)."""
    story = document(name).get("description", "")
    numbers = _claimed_numbers(name)
    numbers += [value for other in _named_examples(name) for value in _claimed_numbers(other)]
    if name in ("library", "article-step3"):
        numbers += _articles_hand_arithmetic()
    for percent in re.findall(r"(\d+(?:\.\d+)?)\s?%", story):
        assert any(round(value * 100) == round(float(percent)) for value in numbers), f"{name}: {percent}%"
    for decimal in re.findall(r"(?<![\d.])(\d+\.\d{2,})(?![\d.])", story):
        places = len(decimal.split(".")[1])
        assert any(round(value, places) == float(decimal) for value in numbers), f"{name}: {decimal}"


def test_the_saturated_story_says_what_auto_scaling_really_gives():
    """Switching back to 1/√d_k keeps the weights at 0.999 / 0.001 / 0.000; only a small factor spreads them."""
    story = document("saturation-large")["description"]
    by_state = {claim.after: claim for claim in claims("saturation-large")}
    assert by_state["auto scale"].weights == (0.999, 0.001, 0.0)
    assert "0.999, 0.001 and 0.000" in story
    assert by_state["factor"].factor == 0.1 and "× 0.1" in story
    assert not mismatches(load_preset("saturation-large"), by_state["auto scale"])


@pytest.mark.parametrize("name", PRESETS)
def test_stories_name_examples_by_their_menu_titles_not_file_names(name):
    story = document(name).get("description", "")
    titles = {other: document(other)["title"] for other in PRESETS}
    for other in PRESETS:
        if other != name:
            assert not re.search(rf"(?<![\w-]){re.escape(other)}(?![\w-])", story), f"{name} names the file {other}"
    for quoted in re.findall(r"“([^”]+)”", story):
        if ":" in quoted:  # a quoted title, not a quoted word such as “爱”
            assert quoted in titles.values(), f"{name}: “{quoted}” is no example's title"


def test_a_story_that_states_a_wrong_number_is_caught():
    scenario = load_preset("saturation-large")
    said = Claim(after="auto scale", weights=(0.665, 0.245, 0.090))
    assert mismatches(scenario, said) and "auto scale: weights" in mismatches(scenario, said)[0]


_SCENARIO = {"query": [1, 0], "keys": [[1, 0], [0, 1]], "values": [[1, 0], [0, 1]]}
_SEQUENCE = {"kind": "sequence", "tokens": ["a", "b"], "embeddings": [[1, 0], [0, 1]], "w_q": [[1, 0], [0, 1]],
             "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]]}


@pytest.mark.parametrize(("claims_value", "message"), [
    ("many", "claims: expected a list of at most 64 claims, got a string"),
    ([3], "claims[0]: expected an object, got a number"),
    ([{"weights": [0.5, 0.5], "colour": 1}], 'claims[0]: "colour": unknown field (allowed: after, factor, scores, '
                                              "scaled_scores, weights, output, cosines, row, tolerance)"),
    ([{"after": "later", "weights": [0.5, 0.5]}],
     "claims[0].after: expected one of as shown, auto scale, no scaling, factor, got 'later'"),
    ([{"after": "causal mask", "weights": [0.5, 0.5]}],
     "claims[0].after: expected one of as shown, auto scale, no scaling, factor, got 'causal mask'"),
    ([{"after": "as shown"}], "claims[0]: states nothing (give scores, scaled_scores, weights, output or cosines)"),
    ([{"weights": [0.5]}], "claims[0].weights: expected a list of 2 numbers, got 1"),
    ([{"output": [0.5, "x"]}], "claims[0].output[1]: expected a finite number, got a string"),
    ([{"weights": [0.5, 0.5], "tolerance": 0}],
     "claims[0].tolerance: expected a number above 0 and at most 1, got 0"),
    ([{"weights": [0.5, 0.5], "row": 0}], "claims[0].row: only a self-attention file has rows"),
    ([{"after": "factor", "weights": [0.5, 0.5]}],
     "claims[0].factor: expected a number from 0 to 1 000 000, got null"),
    ([{"factor": 2, "weights": [0.5, 0.5]}], 'claims[0].factor: only with "after": "factor"'),
])
def test_the_loader_refuses_bad_claims_with_one_clear_line(claims_value, message):
    with pytest.raises(ScenarioError) as refused:
        loads(json.dumps({**_SCENARIO, "claims": claims_value}))
    assert str(refused.value) == message


@pytest.mark.parametrize(("claims_value", "message"), [
    ([{"weights": [0.5, 0.5]}], "claims[0].row: expected a whole number from 0 to 1, got null"),
    ([{"row": 2, "weights": [0.5, 0.5]}], "claims[0].row: expected a whole number from 0 to 1, got 2"),
    ([{"row": 0, "cosines": [1, 0]}], "claims[0].cosines: only a single-query file has them"),
])
def test_a_self_attention_file_names_the_row_of_each_claim(claims_value, message):
    with pytest.raises(ScenarioError) as refused:
        loads_any(json.dumps({**_SEQUENCE, "claims": claims_value}))
    assert str(refused.value) == message


def test_valid_claims_load_and_are_optional():
    assert loads(json.dumps(_SCENARIO)).n == 2
    loaded = loads(json.dumps({**_SCENARIO, "claims": [{"after": "no scaling", "weights": [0.731, 0.269]}]}))
    assert not mismatches(loaded, claims_from_list([{"after": "no scaling", "weights": [0.731, 0.269]}], loaded)[0])
    sequence = loads_any(json.dumps({**_SEQUENCE, "claims": [{"after": "causal mask", "row": 0,
                                                              "weights": [1, 0]}]}))
    assert sequence.n == 2
