"""The positions lab's file, "kind": "positions": d, the pair shown, m, n and the seed, read back exactly; bad files
named by their first problem."""

from __future__ import annotations

import json
import math

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
    "unknown field": (dict(GOOD, vectors=[1]), '"vectors": unknown field (allowed in a positions file: format, kind'),
    "missing m": ({key: value for key, value in GOOD.items() if key != "m"}, '"m": missing'),
    "later format": (dict(GOOD, format="attention-explorer/2"), 'format: expected "attention-explorer/1"'),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_file_is_refused_with_its_first_problem_named(case):
    document, message = BAD[case]
    with pytest.raises(ScenarioError) as refused:
        anykind.loads_any(json.dumps(document))
    assert str(refused.value).startswith(message), str(refused.value)


# ---------------------------------------------------------------- a real head's q and k, with its RoPE base

REAL = dict(GOOD, d=4, pair=1, q=[0.5, -1.0, 2.0, 0.25], k=[1.5, 0.0, -0.75, 1.0], base=1000000.0)


def test_given_q_k_and_base_survive_a_file_and_give_the_scores_computed_by_hand(tmp_path):
    path = tmp_path / "real.json"
    scene = anykind.loads_any(json.dumps(REAL))
    anykind.save(scene, path)
    assert json.loads(path.read_text(encoding="utf-8")) == REAL and load_file(path) == scene
    result = scene.compute()
    # RoPE by hand: pair i = (x[2i], x[2i+1]) turned by pos·base^(−2i/d); q at m = 9, k at n = 2
    rotated = []
    for vector, position in ((REAL["q"], 9), (REAL["k"], 2)):
        out = []
        for i in range(2):
            angle = position * 1000000.0 ** (-2 * i / 4)
            a, b = vector[2 * i], vector[2 * i + 1]
            out += [a * math.cos(angle) - b * math.sin(angle), a * math.sin(angle) + b * math.cos(angle)]
        rotated.append(out)
    assert result.scores["rope"] == pytest.approx(sum(x * y for x, y in zip(*rotated)), abs=1e-12)
    assert list(result.q) == REAL["q"] and list(result.k) == REAL["k"]


REAL_BAD = {
    "q without k": ({key: value for key, value in REAL.items() if key != "k"}, '"k": missing (q and k come together)'),
    "q too short": (dict(REAL, q=[1.0, 2.0]), "q: expected 4 numbers (d = 4), got 2"),
    "k too large": (dict(REAL, k=[1.0, 2.0, 3.0, 1e6 * (1 + 1e-15)]), "k[3]: 1000000.0000000012 is out of range"),
    "base a string": (dict(REAL, base="1e6"), "base: expected a number, got a string"),
    "base 1": (dict(REAL, base=1), "base: expected a number above 1 and at most 1e+09, got 1"),
    "base past the limit": (dict(REAL, base=1e9 * (1 + 1e-15)), "base: expected a number above 1 and at most 1e+09"),
    "base a huge integer": (dict(REAL, base=10**400), "base: expected a number above 1 and at most 1e+09"),
}


@pytest.mark.parametrize("case", REAL_BAD)
def test_bad_given_vectors_or_base_are_refused_by_name(case):
    document, message = REAL_BAD[case]
    with pytest.raises(ScenarioError) as refused:
        anykind.loads_any(json.dumps(document))
    assert str(refused.value).startswith(message), str(refused.value)


def test_the_base_and_the_numbers_at_their_limits_are_accepted():
    scene = anykind.loads_any(json.dumps(dict(REAL, base=1e9, k=[1e6, -1e6, 0, 0])))
    assert (scene.base, scene.k[:2]) == (1e9, (1e6, -1e6))
    assert anykind.loads_any(json.dumps(dict(REAL, base=math.nextafter(1.0, 2.0)))).base > 1
