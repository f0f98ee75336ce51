"""The shipped presets: each file loads through the ordinary loader and shows the numbers its text promises."""

import json
import math

import numpy as np
import pytest

from attention_explorer.core import limits
from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import (
    DEFAULT_PRESET,
    load_preset,
    preset_names,
    preset_path,
    preset_title,
    presets_dir,
)
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.cross.scene import CrossScenario
from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.sequence.scene import SequenceScenario

REQUIRED = ("drag-2d", "library", "article-step3", "saturation-small", "saturation-large", "code-review",
            "aligned", "orthogonal", "opposite")


def test_every_required_preset_exists_in_teaching_order():
    """The default comes first; the issue's presets are all there."""
    names = preset_names()
    assert names[: len(REQUIRED)] == list(REQUIRED)
    assert names[0] == DEFAULT_PRESET == "drag-2d"
    assert sorted(names) == sorted(path.stem for path in presets_dir().glob("*.json"))


@pytest.mark.parametrize("name", preset_names())
def test_each_preset_file_is_a_valid_scenario_file(name):
    """Loaded by the same loader as a user's file; declares the format; explains itself."""
    path = preset_path(name)
    assert path.parent == presets_dir()
    loaded = anykind.load_any(path)
    assert loaded == load_preset(name)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == fileformat.FORMAT_ID
    assert loaded.title and loaded.description
    assert preset_title(name) == loaded.title  # what the Examples menu shows, read without validating
    assert len(loaded.description) <= limits.MAX_DESCRIPTION
    result = loaded.compute()
    if isinstance(loaded, (SequenceScenario, CrossScenario)):  # one softmax per query token
        assert all(math.fsum(row) == pytest.approx(1.0) for row in result.weights)
    elif isinstance(loaded, MultiHeadScenario):  # one softmax per token in every head
        assert all(math.fsum(row) == pytest.approx(1.0) for head in result.weights for row in head)
    else:
        assert math.fsum(result.weights) == pytest.approx(1.0)


def test_library_preset_is_the_article_example_with_its_vectors_in_its_order():
    """Q = [1, 0, 1, 0] and the article's keys: scores 2, 0, 1; its V₁, V₂, V₃ in its order: [0.492, 0.508]."""
    scenario = load_preset("library")
    result = scenario.compute()
    assert scenario.query.tolist() == [1, 0, 1, 0]
    assert scenario.keys.tolist() == [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]]
    assert scenario.values.tolist() == [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]
    assert scenario.scale is None and result.scale == 0.5
    assert result.scores.tolist() == [2.0, 0.0, 1.0]
    assert result.scaled_scores.tolist() == [1.0, 0.0, 0.5]
    total = math.e + 1 + math.sqrt(math.e)
    assert result.weights == pytest.approx([math.e / total, 1 / total, math.sqrt(math.e) / total])
    assert [round(x, 3) for x in result.output.tolist()] == [0.492, 0.508]
    assert [round(100 * w) for w in result.weights] == [51, 19, 31]
    # the story says why the article's step 4 reads otherwise, with both sets of numbers
    for said in ("51%, 19% and 31%", "[0.492, 0.508]", "[0.516, 0.483]", "1.0, 0.5, 0.0", "1.0, 0.0, 0.5"):
        assert said in scenario.description


def test_the_articles_step_3_has_keys_that_give_its_assumed_scores_exactly():
    """Scaled scores exactly [1.0, 0.5, 0.0], the article's V's: weights 0.506/0.307/0.186, output [0.516, 0.484]."""
    scenario = load_preset("article-step3")
    result = scenario.compute()
    assert scenario.query.tolist() == [1, 0, 1, 0]
    assert scenario.values.tolist() == [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]
    assert result.scaled_scores.tolist() == [1.0, 0.5, 0.0]  # exactly, not within a tolerance
    assert np.round(result.weights, 3).tolist() == [0.506, 0.307, 0.186]
    assert np.round(result.output, 3).tolist() == [0.516, 0.484]
    assert scenario.title == "The article's step 3: scores 1.0, 0.5, 0.0"
    assert "[0.516, 0.484]" in scenario.description and "[0.516, 0.483]" in scenario.description


def test_saturation_small_is_softmax_of_2_1_0():
    """Scale 1, scores [2, 1, 0], weights ≈ 0.665, 0.245, 0.090."""
    scenario = load_preset("saturation-small")
    result = scenario.compute()
    assert scenario.scale == 1.0
    assert result.scores.tolist() == [2.0, 1.0, 0.0]
    assert result.weights == pytest.approx([0.665, 0.245, 0.090], abs=5e-4)


def test_saturation_large_is_softmax_of_20_10_0():
    """Scale 1, scores [20, 10, 0], weights ≈ 0.99995, 4.54e-5, 2.06e-9; same keys as the small one."""
    scenario = load_preset("saturation-large")
    result = scenario.compute()
    assert scenario.scale == 1.0
    assert result.scores.tolist() == [20.0, 10.0, 0.0]
    assert result.weights[0] == pytest.approx(0.99995, abs=5e-6)
    assert result.weights[1:] == pytest.approx([4.54e-5, 2.06e-9], rel=1e-3)
    small = load_preset("saturation-small")
    assert scenario.keys.tolist() == small.keys.tolist()
    assert scenario.query.tolist() == (10 * small.query).tolist()


def test_code_review_shares_attention_60_30_10():
    """The call chain ≈ 60%, shared state ≈ 30%, config ≈ 10%, the unrelated tests almost nothing."""
    scenario = load_preset("code-review")
    weights = scenario.compute().weights
    assert scenario.labels[0] == "call chain"
    assert weights[:3] == pytest.approx([0.60, 0.30, 0.10], abs=0.01)
    assert weights[3] < 0.02


@pytest.mark.parametrize(("name", "cosine", "angle"), [("aligned", 1.0, 0.0), ("orthogonal", 0.0, 90.0),
                                                       ("opposite", -1.0, 180.0)])
def test_geometry_presets_have_the_named_angle(name, cosine, angle):
    """K1's cos θ is 1, 0 or −1, and its score is |Q||K1| cos θ."""
    result = load_preset(name).compute()
    assert result.cosines[0] == pytest.approx(cosine, abs=1e-12)
    assert result.angles_deg[0] == pytest.approx(angle, abs=1e-5)
    assert result.scores[0] == pytest.approx(result.query_norm * result.key_norms[0] * cosine, abs=1e-12)


def test_drag_2d_is_a_two_dimensional_default():
    """Two dimensions (the plane the canvas drags in), a query and three key–value pairs."""
    scenario = load_preset(DEFAULT_PRESET)
    assert (scenario.d_k, scenario.n) == (2, 3)
    assert scenario.d_v == 2


def test_unknown_preset_lists_the_known_ones():
    """A typo gets the list of names."""
    with pytest.raises(ScenarioError, match=r"unknown preset 'libary'.*library"):
        load_preset("libary")
