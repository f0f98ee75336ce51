"""The scenario file's optional "pins" field: up to three kept scenes, each read with the scenario's own rules.

fileformat.py calls in here (the hook) and hands over its reader of a single-query document, so a pin's query,
keys, values, labels and scale are checked exactly as the file's own are, with "pins[i]." before the place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from attention_explorer.core.limits import AUTO_SCALE, ScenarioError
from attention_explorer.core.messages import field_name_text, value_kind
from attention_explorer.core.scenes.query.pins import MAX_PINS, Pin, free_pin_number
from attention_explorer.core.scenes.query.scene import Scenario

PIN_FIELDS = ("name", "number", "query", "keys", "values", "labels", "scale")
_SCENE_FIELDS = ("query", "keys", "values", "labels", "scale")
_ROW_FIELDS = ("keys", "values")


def pins_from_list(raw: Any, read_scene: Callable[[dict[str, Any]], Scenario]) -> tuple[Pin, ...]:
    """Validate a file's "pins" (None: the file has none); `read_scene` builds a Scenario from a document."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > MAX_PINS:
        got = len(raw) if isinstance(raw, list) else value_kind(raw)
        raise ScenarioError("pins: expected a list of at most {0} pins, got {1}", MAX_PINS, got)
    pins: list[Pin] = []
    for index, item in enumerate(raw):
        pins.append(_pin_from_dict(item, f"pins[{index}]", tuple(pins), read_scene))
    return tuple(pins)


def _pin_from_dict(raw: Any, place: str, earlier: tuple[Pin, ...],
                   read_scene: Callable[[dict[str, Any]], Scenario]) -> Pin:
    """One pin object (first problem raises ScenarioError naming `place`)."""
    if not isinstance(raw, dict):
        raise ScenarioError("{0}: expected an object, got {1}", place, value_kind(raw))
    for name in raw:
        if name not in PIN_FIELDS:
            raise ScenarioError('{0}: "{1}": unknown field (allowed: {2})',
                                place, field_name_text(name), ", ".join(PIN_FIELDS))
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise ScenarioError("{0}.name: expected a string, got {1}", place, value_kind(name))
    taken = {pin.number for pin in earlier}
    number = raw.get("number", free_pin_number(earlier))
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_PINS or number in taken:
        shown = json.dumps(number, ensure_ascii=False)[:40]
        raise ScenarioError("{0}.number: expected a whole number from 1 to {1} that no other pin has, got {2}",
                            place, MAX_PINS, shown)
    for required in ("query", "keys", "values"):
        if required not in raw:
            raise ScenarioError('{0}: "{1}": missing', place, required)
    try:
        scene = read_scene({field: raw[field] for field in _SCENE_FIELDS if field in raw})
    except ScenarioError as error:
        raise ScenarioError("{0}.{1}", place, error) from None
    return Pin(number, scene, name)


def pins_to_list(pins: tuple[Pin, ...]) -> list[dict[str, Any]]:
    """The "pins" field of a document: one object per pin (floats keep every bit through json's repr)."""
    documents = []
    for pin in pins:
        scene = pin.scenario
        document: dict[str, Any] = {"name": pin.name} if pin.name else {}
        document.update(number=pin.number, query=scene.query.tolist(), keys=scene.keys.tolist(),
                        values=scene.values.tolist(), labels=list(scene.labels),
                        scale=AUTO_SCALE if scene.scale is None else scene.scale)
        documents.append(document)
    return documents


def pins_text(documents: list[dict[str, Any]]) -> str:
    """The "pins" list as JSON text, one field per line and one matrix row per line (as the file's own rows)."""
    objects = []
    for document in documents:
        fields = []
        for name, value in document.items():
            if name in _ROW_FIELDS:
                text = "[\n        " + ",\n        ".join(json.dumps(row) for row in value) + "\n      ]"
            else:
                text = json.dumps(value, ensure_ascii=False)
            fields.append(f"      {json.dumps(name)}: {text}")
        objects.append("    {\n" + ",\n".join(fields) + "\n    }")
    return "[\n" + ",\n".join(objects) + "\n  ]"
