"""Lecture scripts (`"kind": "lecture"`): the scenes of an hour in order, read and checked like a scenario file.

A scene names an example, a lab tab, a plane, how many of the four steps start shown, a question, a pin, a
scale and a caption (one text, or one per language), and may give a caption of its own for each step shown
("step_captions": {"2": …, "3": …}; a step without one keeps the scene's caption). Pure Python, no Qt.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from dataclasses import dataclass
from typing import Any

from attention_explorer.core.files.fields import FORMAT_ID
from attention_explorer.core.files.jsonrules import parse_document, read_file
from attention_explorer.core.files.presets import load_preset, preset_kind, preset_names, presets_dir
from attention_explorer.core.limits import AUTO_SCALE, MAX_SCALE, ScenarioError
from attention_explorer.core.messages import big_integer_text, field_name_text, number_text, value_kind
from attention_explorer.core.scenes.checks import check_text
from attention_explorer.core.scenes.kinds import CROSS_KIND, LECTURE_KIND, MULTIHEAD_KIND, SEQUENCE_KINDS
from attention_explorer.core.teaching.questions import ATTEND_MOST, KINDS, OUTPUT_PLACE, applies

LECTURE_FIELDS = ("format", "kind", "title", "scenes")
SCENE_FIELDS = ("preset", "lab", "plane", "steps", "question", "pin", "scale", "caption", "step_captions")
# The middle's pages a scene may show, by the names a script uses, in the order of the window's tabs.
LABS = ("vectors", "saturation", "variance", "self-attention", "transformer", "multi-head", "cross-attention",
        "positions", "bugs", "training")
VECTORS = "vectors"  # the page a script starts on, and where the explorer's questions are asked
SELF_ATTENTION = "self-attention"
# The pages that show the explorer's scenario: a single-query example opened on another page brings the vectors.
EXPLORER_PAGES = (VECTORS, "saturation")
# The lab each other kind of example opens in (a single-query example has no lab of its own: "").
KIND_PAGES = {**{kind: SELF_ATTENTION for kind in SEQUENCE_KINDS}, MULTIHEAD_KIND: "multi-head",
              CROSS_KIND: "cross-attention"}
PLANES = ("components", "query-key", "pca")
LANGUAGE_CODES = ("en", "zh_CN")
MAX_SCENES = 200
MAX_CAPTION = 1000
MAX_TITLE = 200
MAX_PIN_NAME = 64
STEP_COUNT = 4
BUILT_IN = "article"  # resources/lectures/article.json: the article's whole path


@dataclass(frozen=True)
class Scene:
    """One scene: every field optional; what is not given stays as the previous scene left it."""

    preset: str = ""
    lab: str = ""
    plane: str = ""
    steps: int = 0  # 0: step-through off (all shown); 1–4: step-through with that many steps shown at first
    question: str = ""
    pin: str = ""
    scale: float | None = math.nan  # nan: not given; None: 1/√d_k; a number: that factor
    caption: tuple[tuple[str, str], ...] = ()  # (language code, text); "" code: the one text for every language
    # (step, caption) for the steps that have their own: shown while that many steps are revealed.
    step_captions: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()
    page: str = ""  # the page the scene shows (one of LABS), worked out when the script is read; never in a file

    @property
    def sets_scale(self) -> bool:
        """True when the scene sets the scale (automatic or a factor)."""
        return self.scale is None or not math.isnan(self.scale)

    def caption_at(self, steps_shown: int) -> tuple[tuple[str, str], ...]:
        """The caption while `steps_shown` steps are revealed (0: step-through off): the step's own, else the
        scene's."""
        return dict(self.step_captions).get(steps_shown, self.caption)


@dataclass(frozen=True)
class Lecture:
    """A lecture script: a title and at least one scene."""

    title: tuple[tuple[str, str], ...]
    scenes: tuple[Scene, ...]


def text_for(texts: tuple[tuple[str, str], ...], language: str) -> str:
    """The text in `language`, else the English one, else the first given ("" when there is none)."""
    found = dict(texts)
    for code in (language, "", "en"):
        if code in found:
            return found[code]
    return texts[0][1] if texts else ""


def _texts(raw: Any, place: str, limit: int) -> tuple[tuple[str, str], ...]:
    """A caption or title: one string, or an object of language code → string."""
    if isinstance(raw, str):
        pairs = [("", raw)]
    elif isinstance(raw, dict) and raw:
        pairs = []
        for code, text in raw.items():
            if code not in LANGUAGE_CODES:
                raise ScenarioError('{0}: "{1}" is not a language (expected {2})', place, code[:20],
                                    ", ".join(LANGUAGE_CODES))
            if not isinstance(text, str):
                raise ScenarioError("{0}.{1}: expected a string, got {2}", place, code, value_kind(text))
            pairs.append((code, text))
    else:
        raise ScenarioError("{0}: expected a string or an object of languages, got {1}", place, value_kind(raw))
    for code, text in pairs:
        where = place + (f".{code}" if code else "")
        if len(text) > limit:
            raise ScenarioError("{0}: {1} characters, at most {2} allowed", where, len(text), limit)
        check_text(text, where)  # a lone surrogate ("\\ud800" in the JSON) is no text: refused as in every file
    return tuple(pairs)


def _choice(raw: Any, place: str, allowed: tuple[str, ...] | list[str]) -> str:
    if not isinstance(raw, str) or raw not in allowed:
        shown = json.dumps(raw, ensure_ascii=False)[:40] if isinstance(raw, str) else value_kind(raw)
        raise ScenarioError("{0}: expected one of {1}, got {2}", place, ", ".join(allowed), shown)
    return raw


def _scale(raw: Any, place: str) -> float | None:
    if raw == AUTO_SCALE:
        return None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise ScenarioError('{0}: expected "{1}" or a number ≥ 0, got {2}', place, AUTO_SCALE, value_kind(raw))
    if isinstance(raw, int) and abs(raw) > MAX_SCALE:
        raise ScenarioError("{0}: {1} is out of range (0 to {2:g})", place, big_integer_text(raw), MAX_SCALE)
    value = float(raw)
    if not 0.0 <= value <= MAX_SCALE:  # NaN fails this too
        raise ScenarioError("{0}: {1} is out of range (0 to {2:g})", place, number_text(value), MAX_SCALE)
    return value


def scene_from_dict(raw: Any, place: str) -> Scene:
    """One scene of a script, every field checked (the first problem raises ScenarioError naming its place)."""
    if not isinstance(raw, dict):
        raise ScenarioError("{0}: expected an object, got {1}", place, value_kind(raw))
    if not raw:
        raise ScenarioError("{0}: an empty scene (give at least one of {1})", place, ", ".join(SCENE_FIELDS))
    for name in raw:
        if name not in SCENE_FIELDS:
            raise ScenarioError('{0}."{1}": unknown field (allowed: {2})',
                                place, field_name_text(name), ", ".join(SCENE_FIELDS))
    fields: dict[str, Any] = {}
    if "preset" in raw:
        fields["preset"] = _choice(raw["preset"], f"{place}.preset", preset_names())
    for name, allowed in (("lab", LABS), ("plane", PLANES), ("question", KINDS)):
        if name in raw:
            fields[name] = _choice(raw[name], f"{place}.{name}", allowed)
    if "steps" in raw:
        steps = raw["steps"]
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= STEP_COUNT:
            shown = big_integer_text(steps) if isinstance(steps, int) and not isinstance(steps, bool) else (
                value_kind(steps))
            raise ScenarioError("{0}.steps: expected a whole number from 1 to {1}, got {2}", place, STEP_COUNT, shown)
        fields["steps"] = steps
    if "pin" in raw:
        pin = raw["pin"]
        if not isinstance(pin, str) or not 1 <= len(pin) <= MAX_PIN_NAME:
            got = f"{len(pin)} characters" if isinstance(pin, str) else value_kind(pin)
            raise ScenarioError("{0}.pin: expected a name of 1 to {1} characters, got {2}", place, MAX_PIN_NAME, got)
        check_text(pin, f"{place}.pin")
        fields["pin"] = pin
    if "scale" in raw:
        fields["scale"] = _scale(raw["scale"], f"{place}.scale")
    if "caption" in raw:
        fields["caption"] = _texts(raw["caption"], f"{place}.caption", MAX_CAPTION)
    if "step_captions" in raw:
        fields["step_captions"] = _step_captions(raw["step_captions"], f"{place}.step_captions")
    return Scene(**fields)


def _step_captions(raw: Any, place: str) -> tuple[tuple[int, tuple[tuple[str, str], ...]], ...]:
    """An object of step number ("1" to "4") → caption (a string or an object of languages)."""
    if not isinstance(raw, dict):
        raise ScenarioError('{0}: expected an object of step numbers ("1" to "{1}") and captions, got {2}', place,
                            STEP_COUNT, value_kind(raw))
    if not raw:
        raise ScenarioError('{0}: an empty object (give a caption for at least one step, "1" to "{1}")', place,
                            STEP_COUNT)
    captions = []
    for step, caption in raw.items():
        if step not in tuple(str(number) for number in range(1, STEP_COUNT + 1)):
            raise ScenarioError('{0}: "{1}" is not a step (expected "1" to "{2}")', place, field_name_text(step),
                                STEP_COUNT)
        captions.append((int(step), _texts(caption, f"{place}.{step}", MAX_CAPTION)))
    return tuple(sorted(captions))


def preset_page(name: str) -> str:
    """The lab a preset opens in ("" for a single-query example, shown on the vectors or the saturation page)."""
    return KIND_PAGES.get(preset_kind(name), "")


def _place_scene(scene: Scene, place: str, previous_page: str) -> Scene:
    """`scene` with the page it shows: its lab, else its example's lab, else the page the scene before showed.

    A lab that cannot show the scene's example, or a question its page cannot ask, raises ScenarioError.
    """
    own = preset_page(scene.preset) if scene.preset else ""
    if scene.lab:
        page = scene.lab
        if own and page != own:
            raise ScenarioError('{0}.lab: preset "{1}" opens in lab "{2}", not in lab "{3}"', place, scene.preset,
                                own, page)
        if scene.preset and not own and page not in EXPLORER_PAGES:
            raise ScenarioError('{0}.lab: preset "{1}" is shown on page "{2}" or "{3}", not in lab "{4}"', place,
                                scene.preset, *EXPLORER_PAGES, page)
    elif own:
        page = own
    elif scene.preset and previous_page not in EXPLORER_PAGES:
        page = VECTORS  # a single-query example, after a lab that does not show it
    else:
        page = previous_page
    if scene.question == ATTEND_MOST and page != SELF_ATTENTION:
        raise ScenarioError('{0}.question: {1} is asked in the self-attention lab (add "lab": "self-attention")',
                            place, ATTEND_MOST)
    if scene.question and scene.question != ATTEND_MOST and page != VECTORS:
        if scene.lab:
            raise ScenarioError('{0}.question: {1} is asked on the vectors page, not in lab "{2}"', place,
                                scene.question, page)
        raise ScenarioError('{0}.question: {1} is asked on the vectors page, but this scene shows lab "{2}" '
                            '(add "lab": "vectors")', place, scene.question, page)
    return dataclasses.replace(scene, page=page)


def lecture_from_dict(document: Any) -> Lecture:
    """Validate a parsed `"kind": "lecture"` document and build the Lecture (the first problem raises)."""
    if not isinstance(document, dict):
        raise ScenarioError("expected a JSON object at the top level, got {0}", value_kind(document))
    for name in document:
        if name not in LECTURE_FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed in a lecture script: {1})', field_name_text(name),
                                ", ".join(LECTURE_FIELDS))
    if "format" in document and document["format"] != FORMAT_ID:
        raise ScenarioError('format: expected "{0}", got {1}', FORMAT_ID, json.dumps(document["format"])[:40])
    if document.get("kind") != LECTURE_KIND:
        raise ScenarioError('kind: expected "{0}", got {1}', LECTURE_KIND,
                            json.dumps(document.get("kind"), ensure_ascii=False)[:40])
    if "scenes" not in document:
        raise ScenarioError('"{0}": missing', "scenes")
    raw_scenes = document["scenes"]
    if not isinstance(raw_scenes, list) or not 1 <= len(raw_scenes) <= MAX_SCENES:
        got = len(raw_scenes) if isinstance(raw_scenes, list) else value_kind(raw_scenes)
        raise ScenarioError("scenes: expected a list of 1 to {0} scenes, got {1}", MAX_SCENES, got)
    title = _texts(document["title"], "title", MAX_TITLE) if "title" in document else ()
    scenes, page = [], VECTORS  # a lecture starts on the vectors page unless its first scene says otherwise
    examples: dict[str, str] = {}  # the example each page shows, when the script has opened one: page → preset
    for i, raw in enumerate(raw_scenes):
        place = f"scenes[{i}]"
        scene = _place_scene(scene_from_dict(raw, place), place, page)
        if scene.preset:
            examples[preset_page(scene.preset) or VECTORS] = scene.preset
        if scene.question:
            _check_question(scene, place, examples.get(scene.page))
        scenes.append(scene)
        page = scene.page
    return Lecture(title=title, scenes=tuple(scenes))


def _check_question(scene: Scene, place: str, preset: str | None) -> None:
    """Refuse a question that the example the script has opened on its page would not let the window ask."""
    if preset is None:
        return  # the window's own example until the script opens one: what it will be is not known here
    example = load_preset(preset)
    if applies(scene.question, example):
        return
    if scene.question == OUTPUT_PLACE:
        raise ScenarioError('{0}.question: {1} is asked where d_v = 2 (the output view is a plane); preset "{2}" '
                            "has d_v = {3}", place, OUTPUT_PLACE, preset, example.d_v)
    raise ScenarioError('{0}.question: {1} cannot be asked about preset "{2}"', place, scene.question, preset)


def is_lecture(document: Any) -> bool:
    """True for a parsed document that says `"kind": "lecture"`."""
    return isinstance(document, dict) and document.get("kind") == LECTURE_KIND


def loads_lecture(data: bytes | str) -> Lecture:
    """Parse and validate lecture-script JSON text; any problem raises ScenarioError."""
    return lecture_from_dict(parse_document(data, LECTURE_FIELDS))


def load_lecture(path: str | os.PathLike[str]) -> Lecture:
    """Read, parse and validate a lecture-script file."""
    return loads_lecture(read_file(path))


def built_in_path() -> os.PathLike[str]:
    """The built-in script: the article's path from the library lookup to self-attention."""
    return presets_dir().parent / "lectures" / f"{BUILT_IN}.json"


def load_built_in() -> Lecture:
    """The built-in lecture script, read through the same checks as any file."""
    return load_lecture(built_in_path())
