"""Pins in the core: kept scenes, their limit, what changed since each, and the file's optional "pins" field."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from attention_explorer.core.files.anykind import dumps
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.file import loads
from attention_explorer.core.scenes.query.pins import MAX_PINS, compare_pins
from attention_explorer.core.scenes.query.scene import Scenario

BASE = {"query": [1.0, 0.0], "keys": [[1.0, 0.0], [0.0, 1.0]], "values": [[1.0, 0.0], [0.0, 1.0]], "scale": 1.0}


def two_keys(scale: float | None = 1.0) -> Scenario:
    return Scenario(query=[1.0, 0.0], keys=[[1.0, 0.0], [0.0, 1.0]], values=[[1.0, 0.0], [0.0, 1.0]],
                    scale=scale, title="T", description="D")


def test_a_pin_keeps_the_numbers_not_the_title_and_later_edits_leave_it_alone():
    pinned = sc.with_pin_added(two_keys(), "before")
    edited = sc.with_scale(sc.with_vector(pinned, "query", 0, [0.0, 1.0]), 0.0)
    assert [(pin.number, pin.name) for pin in edited.pins] == [(1, "before")]
    kept = edited.pins[0].scenario
    assert kept.query.tolist() == [1.0, 0.0] and kept.scale == 1.0 and kept.title == "" and kept.pins == ()
    assert edited.query.tolist() == [0.0, 1.0]


def test_numbers_are_the_smallest_free_and_a_fourth_pin_is_refused():
    scenario = two_keys()
    for _ in range(MAX_PINS):
        scenario = sc.with_pin_added(scenario)
    assert [pin.number for pin in scenario.pins] == [1, 2, 3]
    with pytest.raises(ScenarioError, match="at most 3 pins"):
        sc.with_pin_added(scenario)
    scenario = sc.with_pin_added(sc.with_pin_removed(scenario, 0))
    assert [pin.number for pin in scenario.pins] == [2, 3, 1]
    assert sc.with_pins_cleared(scenario).pins == ()
    with pytest.raises(ScenarioError, match="pin index 5 is out of range"):
        sc.with_pin_removed(scenario, 5)


def test_a_long_name_is_refused_with_its_place():
    with pytest.raises(ScenarioError, match=r"pins\[0\]\.name: 65 characters"):
        sc.with_pin_added(two_keys(), "x" * 65)


def test_the_comparison_has_signed_differences_computed_by_hand():
    pinned = sc.with_pin_added(two_keys(scale=1.0))  # weights e/(e+1), 1/(e+1)
    now = sc.with_scale(pinned, 0.0)  # factor 0: both weights 1/2
    comparison = compare_pins(now, now.compute(), now.pins)
    rows = dict(zip(comparison.rows, comparison.deltas[0]))
    high = math.e / (math.e + 1.0)
    assert rows[("weights", 0)] == pytest.approx(0.5 - high)
    assert rows[("weights", 1)] == pytest.approx(high - 0.5)
    assert rows[("scale", 0)] == pytest.approx(-1.0)
    assert rows[("scores", 0)] == 0.0
    entropy_before = -(high * math.log2(high) + (1 - high) * math.log2(1 - high))
    assert rows[("entropy", 0)] == pytest.approx(1.0 - entropy_before)
    assert rows[("output", 0)] == pytest.approx(0.5 - high)
    assert rows[("angles", 1)] == 0.0


def test_keys_only_one_side_has_are_nan_there():
    pinned = sc.with_pin_added(two_keys())
    now = sc.with_pair_removed(pinned, 1)
    comparison = compare_pins(now, now.compute(), now.pins)
    index = comparison.rows.index(("weights", 1))
    assert comparison.labels == ("K1", "K2")
    assert math.isnan(comparison.now[index]) and comparison.pinned[0, index] == pytest.approx(1 / (math.e + 1))


def test_pins_go_through_the_file_bit_for_bit():
    scenario = sc.with_pin_added(sc.with_pin_added(two_keys(scale=None)), "北京 <b>")
    scenario = sc.with_pin_removed(scenario, 0)
    scenario = sc.with_vector(scenario, "key", 0, [0.1, 1 / 3])
    text = dumps(scenario)
    again = loads(text)
    assert again == scenario
    assert [(pin.number, pin.name) for pin in again.pins] == [(2, "北京 <b>")]
    assert json.loads(text)["pins"][0]["scale"] == "inv_sqrt_dk"
    assert "pins" not in json.loads(dumps(two_keys()))  # no pins, no field: older readers see the same file


def pin_document(**changes):
    pin = {"name": "p", "query": [1, 0], "keys": [[1, 0]], "values": [[2]]}
    pin.update(changes)
    return pin


@pytest.mark.parametrize(("pins", "message"), [
    ("x", "pins: expected a list of at most 3 pins, got a string"),
    ([pin_document()] * 4, "pins: expected a list of at most 3 pins, got 4"),
    ([7], "pins[0]: expected an object, got int"),
    ([pin_document(colour=1)], 'pins[0]: "colour": unknown field (allowed: name, number, query, keys, values, '
                               'labels, scale)'),
    ([pin_document(pins=[])], 'pins[0]: "pins": unknown field'),
    ([pin_document(name=5)], "pins[0].name: expected a string, got int"),
    ([pin_document(name="n" * 65)], r"pins[0].name: 65 characters, at most 64 are allowed"),
    ([pin_document(), pin_document(number=1)], "pins[1].number: expected a whole number from 1 to 3 that no other "
                                               "pin has, got 1"),
    ([pin_document(number=True)], "pins[0].number: expected a whole number from 1 to 3 that no other pin has, "
                                  "got true"),
    ([{"query": [1, 0], "keys": [[1, 0]]}], 'pins[0]: "values": missing'),
    ([pin_document(keys=[[1, 0, 0]])], "pins[0].keys[0]: expected 2 numbers (d_k = 2), got 3"),
    ([pin_document(values=[[1e300]])], "pins[0].values[0][0]: 1×10³⁰⁰ is out of range"),
    ([pin_document(), pin_document(query=[1, "x"])], "pins[1].query[1]: expected a number, got a string"),
    ([pin_document(scale=-1)], "pins[0].scale: -1 is out of range"),
    ([pin_document(labels=["a", "b"])], "pins[0].labels: expected 1 strings (one per key), got 2"),
])
def test_a_hostile_pins_field_is_refused_with_its_place(pins, message):
    document = dict(BASE, pins=pins)
    with pytest.raises(ScenarioError) as caught:
        loads(json.dumps(document))
    assert str(caught.value).startswith(message)


def test_a_pin_may_differ_in_size_from_the_scene():
    document = dict(BASE, pins=[{"query": [1, 0, 0], "keys": [[1, 0, 0]] * 3, "values": [[1]] * 3}])
    scenario = loads(json.dumps(document))
    pin = scenario.pins[0]
    assert (pin.number, pin.name, pin.scenario.n, pin.scenario.d_k) == (1, "", 3, 3)
    assert np.allclose(pin.result.weights, 1 / 3)
