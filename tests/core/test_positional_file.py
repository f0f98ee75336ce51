"""The positions lab's file, "kind": "positions": d, the pair shown, m, n and the seed, read back exactly; bad files
named by their first problem."""

from __future__ import annotations

import json

import pytest

from attention_explorer.core.files import anykind
from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.positions.scene import PositionalScene
from attention_explorer.core.scenes.query import file as fileformat

GOOD = {"format": "attention-explorer/1", "kind": "positions", "title": "RoPE", "d": 16, "pair": 3, "m": 9, "n": 2,
        "seed": 7}


def test_a_scene_survives_a_file_and_every_kind_reader_routes_it(tmp_path):
    scene = PositionalScene(d=16, pair=3, m=9, n=2, seed=7, title="RoPE")
    path = tmp_path / "positions.json"
    anykind.save(scene, path)
    assert json.loads(path.read_text(encoding="utf-8")) == GOOD
    assert anykind.load_any(path) == scene == load_file(path)
    with pytest.raises(ScenarioError, match="open it in the positions lab"):
        fileformat.load(path)  # the explorer's own reader refuses it by name


def test_pair_and_seed_may_be_left_out():
    scene = anykind.loads_any(json.dumps({"kind": "positions", "d": 4, "m": 0, "n": 3}))
    assert (scene.d, scene.pair, scene.m, scene.n, scene.seed) == (4, 0, 0, 3, 0)


BAD = {
    "odd d": (dict(GOOD, d=7), "d: expected an even whole number from 2 to"),
    "pair too large": (dict(GOOD, pair=8), "pair: expected 0 to 7, got 8"),
    "negative m": (dict(GOOD, m=-1), "m: expected a whole number from 0 to"),
    "n a string": (dict(GOOD, n="2"), "n: expected a whole number, got a string"),
    "bool seed": (dict(GOOD, seed=True), "seed: expected a whole number, got true/false"),
    "unknown field": (dict(GOOD, q=[1, 2]), '"q": unknown field (allowed in a positions file: format, kind'),
    "missing m": ({key: value for key, value in GOOD.items() if key != "m"}, '"m": missing'),
    "later format": (dict(GOOD, format="attention-explorer/2"), 'format: expected "attention-explorer/1"'),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_file_is_refused_with_its_first_problem_named(case):
    document, message = BAD[case]
    with pytest.raises(ScenarioError) as refused:
        anykind.loads_any(json.dumps(document))
    assert str(refused.value).startswith(message), str(refused.value)
