"""Lecture scripts: the built-in one, and a bad file refused with its first problem named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.teaching.lecture import (
    LANGUAGE_CODES,
    Lecture,
    load_built_in,
    loads_lecture,
    text_for,
)


def test_the_built_in_script_walks_the_articles_path_in_both_languages():
    lecture = load_built_in()
    presets = [scene.preset for scene in lecture.scenes if scene.preset]
    labs = [scene.lab for scene in lecture.scenes if scene.lab]
    assert presets[0] == "library" and "drag-2d" in presets and "self-attention" in presets
    # Library lookup → the four steps → the law of cosines → saturation → variance → self-attention.
    assert labs.index("saturation") < labs.index("variance") < labs.index("self-attention")
    assert {scene.question for scene in lecture.scenes} >= {"largest_weight", "output_place", "weight_half",
                                                            "flatter_sharper", "attend_most"}
    assert any(scene.pin for scene in lecture.scenes) and any(scene.steps for scene in lecture.scenes)
    for scene in lecture.scenes:
        assert {code for code, _text in scene.caption} == set(LANGUAGE_CODES)


def test_a_caption_falls_back_to_english_then_to_the_only_text():
    assert text_for((("en", "Hi"), ("zh_CN", "你好")), "zh_CN") == "你好"
    assert text_for((("en", "Hi"),), "zh_CN") == "Hi"
    assert text_for((("", "Same for all"),), "zh_CN") == "Same for all"
    assert text_for((), "en") == ""


def script(*scenes, **fields) -> str:
    return json.dumps({"kind": "lecture", "scenes": list(scenes), **fields})  # a lone surrogate as "\\ud800"


@pytest.mark.parametrize("text, message", [
    (script({"preset": "library"}, {"lab": "kitchen"}),
     'scenes[1].lab: expected one of vectors, saturation, variance, self-attention, transformer, multi-head, '
     'cross-attention, positions, bugs, training, got "kitchen"'),
    (script({"steps": 5}), "scenes[0].steps: expected a whole number from 1 to 4, got 5"),
    (script({"steps": True}), "scenes[0].steps: expected a whole number from 1 to 4, got true/false"),
    (script({"stpes": 2}), 'scenes[0]."stpes": unknown field (allowed: preset, lab, plane, steps, question, pin, '
                           'scale, caption, step_captions)'),
    (script({}), "scenes[0]: an empty scene (give at least one of preset, lab, plane, steps, question, pin, scale, "
                 "caption, step_captions)"),
    (script({"steps": 1, "step_captions": {"5": "After the last step"}}),
     'scenes[0].step_captions: "5" is not a step (expected "1" to "4")'),
    (script({"steps": 1, "step_captions": {"0": "Before the first"}}),
     'scenes[0].step_captions: "0" is not a step (expected "1" to "4")'),
    (script({"steps": 1, "step_captions": ["one", "two"]}),
     'scenes[0].step_captions: expected an object of step numbers ("1" to "4") and captions, got a list'),
    (script({"steps": 1, "step_captions": {}}),
     'scenes[0].step_captions: an empty object (give a caption for at least one step, "1" to "4")'),
    (script({"steps": 1, "step_captions": {"2": {"fr": "Deux"}}}),
     'scenes[0].step_captions.2: "fr" is not a language (expected en, zh_CN)'),
    (script({"question": "attend_most"}),
     'scenes[0].question: attend_most is asked in the self-attention lab (add "lab": "self-attention")'),
    (script({"question": "largest_weight", "lab": "variance"}),
     'scenes[0].question: largest_weight is asked on the vectors page, not in lab "variance"'),
    # A question is checked against the page the scene shows, however it got there: its example's lab, the last one.
    (script({"preset": "translation", "question": "largest_weight"}),
     'scenes[0].question: largest_weight is asked on the vectors page, but this scene shows lab "cross-attention" '
     '(add "lab": "vectors")'),
    (script({"lab": "multi-head"}, {"caption": "Heads"}, {"question": "flatter_sharper"}),
     'scenes[2].question: flatter_sharper is asked on the vectors page, but this scene shows lab "multi-head" '
     '(add "lab": "vectors")'),
    (script({"preset": "multi-head", "question": "attend_most"}),
     'scenes[0].question: attend_most is asked in the self-attention lab (add "lab": "self-attention")'),
    (script({"preset": "self-attention"}, {"preset": "library", "question": "attend_most"}),
     'scenes[1].question: attend_most is asked in the self-attention lab (add "lab": "self-attention")'),
    (script({"preset": "code-review", "question": "output_place"}),
     'scenes[0].question: output_place is asked where d_v = 2 (the output view is a plane); preset "code-review" '
     "has d_v = 3"),
    # A lab that does not show the scene's example.
    (script({"preset": "translation", "lab": "vectors"}),
     'scenes[0].lab: preset "translation" opens in lab "cross-attention", not in lab "vectors"'),
    (script({"preset": "self-attention", "lab": "multi-head"}),
     'scenes[0].lab: preset "self-attention" opens in lab "self-attention", not in lab "multi-head"'),
    (script({"preset": "library", "lab": "variance"}),
     'scenes[0].lab: preset "library" is shown on page "vectors" or "saturation", not in lab "variance"'),
    # A lone surrogate is no text, in a lecture as in every other file.
    (script({"caption": "a\ud800"}), "scenes[0].caption: character 2 is not valid Unicode (a lone surrogate)"),
    (script({"caption": {"en": "ok", "zh_CN": "\udfff"}}),
     "scenes[0].caption.zh_CN: character 1 is not valid Unicode (a lone surrogate)"),
    (script({"pin": "p\ud800"}), "scenes[0].pin: character 2 is not valid Unicode (a lone surrogate)"),
    (script({"steps": 1}, title="T\udc80"), "title: character 2 is not valid Unicode (a lone surrogate)"),
    (script({"caption": {"fr": "Bonjour"}}), 'scenes[0].caption: "fr" is not a language (expected en, zh_CN)'),
    (script({"caption": "x" * 1001}), "scenes[0].caption: 1001 characters, at most 1000 allowed"),
    (script({"scale": -1}), "scenes[0].scale: -1 is out of range (0 to 1 000 000)"),
    (script({"pin": ""}), "scenes[0].pin: expected a name of 1 to 64 characters, got 0 characters"),
    (script({"preset": "nope"}), "scenes[0].preset: expected one of"),
    (json.dumps({"kind": "lecture", "scenes": []}), "scenes: expected a list of 1 to 200 scenes, got 0"),
    (json.dumps({"kind": "lecture"}), '"scenes": missing'),
    (json.dumps({"kind": "lecture", "scenes": [1], "notes": ""}),
     '"notes": unknown field (allowed in a lecture script: format, kind, title, scenes)'),
    ('{"kind": "lecture", "kind": "lecture", "scenes": []}', '"kind": duplicate key'),
])
def test_a_bad_script_names_its_first_problem(text, message):
    with pytest.raises(ScenarioError) as caught:
        loads_lecture(text)
    assert str(caught.value).startswith(message)


# The page each built-in example opens in, by the names a script uses.
PRESET_PAGES = {"self-attention": "self-attention", "multi-head": "multi-head", "translation": "cross-attention"}


@pytest.mark.parametrize("name", preset_names())
def test_every_built_in_example_opens_in_its_page(name):
    lecture = loads_lecture(script({"lab": "positions"}, {"preset": name}, {"caption": "and on"}))
    page = PRESET_PAGES.get(name, "vectors")
    assert [scene.page for scene in lecture.scenes] == ["positions", page, page]
    if page == "vectors":  # a single-query example on a page that shows it stays there
        assert isinstance(load_preset(name), Scenario)
        assert loads_lecture(script({"lab": "saturation"}, {"preset": name})).scenes[1].page == "saturation"


def test_a_scene_without_a_page_shows_the_one_before():
    lecture = loads_lecture(script({"caption": "first"}, {"lab": "variance"}, {"steps": 2}, {"preset": "aligned"},
                                   {"lab": "saturation", "preset": "library"}, {"preset": "drag-2d"}))
    assert [scene.page for scene in lecture.scenes] == ["vectors", "variance", "variance", "vectors", "saturation",
                                                        "saturation"]


def test_the_window_loader_tells_a_script_from_a_scenario(tmp_path):
    talk, scenario = tmp_path / "talk.json", tmp_path / "one.json"
    talk.write_text(script({"preset": "library", "caption": "Hello"}), encoding="utf-8")
    scenario.write_text('{"query": [1, 0], "keys": [[1, 0]], "values": [[1]]}', encoding="utf-8")
    assert isinstance(load_file(talk), Lecture) and isinstance(load_file(scenario), Scenario)
    assert load_file(talk).scenes[0].caption == (("", "Hello"),)


def test_the_user_guides_example_script_is_a_valid_script():
    guide = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"
    if not guide.is_file():
        pytest.skip("runs from a source checkout only")
    section = guide.read_text(encoding="utf-8").split("### Lecture scripts", 1)[1].split("\n## ", 1)[0]
    example = section.split("```json\n", 1)[1].split("```", 1)[0]
    lecture = loads_lecture(example)
    assert lecture.scenes[0].preset == "library" and lecture.scenes[4].scale == 1.0


def test_a_step_may_have_its_own_caption_and_a_scene_without_keeps_one():
    lecture = loads_lecture(script({"steps": 1, "caption": "Scene", "step_captions": {"1": "One", "4": {"en": "Four"}}},
                                   {"caption": "Old style"}))
    first, second = lecture.scenes
    assert [text_for(first.caption_at(steps), "en") for steps in range(5)] == ["Scene", "One", "Scene", "Scene", "Four"]
    assert [text_for(second.caption_at(steps), "en") for steps in range(5)] == ["Old style"] * 5
