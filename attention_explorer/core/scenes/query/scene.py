"""The scenario: one query, N keys and N values, its validation and its edits (its limits: core/limits.py).

A Scenario is immutable and always valid: every constructor path goes through `validate`, and
every edit below returns a new Scenario (or raises ScenarioError and changes nothing). Its file is
core/scenes/query/file.py's job.
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attention_explorer.core.limits import (
    MAX_ABS,
    MAX_DIM,
    MAX_KEYS,
    MAX_LABEL,
    MAX_PINS,
    ScenarioError,
)
from attention_explorer.core.maths.attention import AttentionResult, attend, inv_sqrt_scale
from attention_explorer.core.messages import number_text, value_kind
from attention_explorer.core.scenes.checks import check_scale, check_text, check_texts

ROLES = ("query", "key", "value")


# The arrays made read-only here, and those of them whose numbers passed the check, by id: a scenario built from
# another's arrays (an edit of one key keeps the values and the query) shares them instead of copying and checking
# them again (16 MB each at the file format's limits, on every drag move).
_FROZEN: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()
_CHECKED: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()


def _ours(array: Any, made: weakref.WeakValueDictionary) -> bool:
    """Whether `array` is one this module froze (and, for _CHECKED, checked), still read-only."""
    return isinstance(array, np.ndarray) and made.get(id(array)) is array and not array.flags.writeable


def adopt_frozen(array: np.ndarray) -> np.ndarray:
    """Let scenarios share a read-only float64 array that its maker (a file reader) holds no other use for."""
    # Only the maker may vouch for it: an array merely flagged read-only by a caller can be made writable again.
    if array.dtype != np.float64 or array.flags.writeable:
        raise ValueError("adopt_frozen: expected a read-only float64 array")
    _FROZEN[id(array)] = array
    return array


def _readonly(rows: Any, place: str) -> np.ndarray:
    if _ours(rows, _FROZEN):
        return rows  # immutable: sharing it is as good as a copy
    try:
        array = np.array(rows, dtype=np.float64, copy=True)
    except (TypeError, ValueError, OverflowError):
        # ragged rows, strings, None: numpy's own message would not name the place
        raise ScenarioError("{0}: expected numbers in equal-length rows", place) from None
    array.setflags(write=False)
    _FROZEN[id(array)] = array
    return array


def _same_numbers(a: np.ndarray, b: np.ndarray) -> bool:
    """np.array_equal, the same array at once, a matrix compared a block of rows at a time up to a difference (an
    edit of one key of a 16 MB matrix: usually found long before the end)."""
    if a is b:
        return True
    if a.shape != b.shape or a.ndim != 2 or a.size <= 1 << 16:
        return bool(np.array_equal(a, b))
    rows = max(1, (1 << 16) // a.shape[1])
    return all(np.array_equal(a[start:start + rows], b[start:start + rows]) for start in range(0, a.shape[0], rows))


def _with_row(rows: np.ndarray, index: int, row: np.ndarray) -> np.ndarray:
    """A frozen copy of `rows` with row `index` replaced by `row` (already checked); checked where `rows` was."""
    edited = np.array(rows, dtype=np.float64, copy=True)
    edited[index] = row
    edited.setflags(write=False)
    _FROZEN[id(edited)] = edited
    if _ours(rows, _CHECKED):
        _CHECKED[id(edited)] = edited
    return edited


def _as_numbers(values: Any, place: str) -> np.ndarray:
    """A float64 array of what an edit was given; anything that is not numbers raises ScenarioError."""
    if isinstance(values, (str, bytes)):
        raise ScenarioError("{0}: expected numbers, got a string", place)
    return _readonly(values, place)


def _as_float(value: Any, place: str) -> float:
    if isinstance(value, (str, bytes)) or value is None:
        raise ScenarioError("{0}: expected a number, got {1}", place, value_kind(value))
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        raise ScenarioError("{0}: expected a number, got {1}", place, value_kind(value)) from None


def _as_index(value: Any, place: str) -> int:
    if isinstance(value, bool):
        raise ScenarioError("{0}: expected a whole number, got true/false", place)
    try:
        return operator.index(value)
    except TypeError:
        raise ScenarioError("{0}: expected a whole number, got {1}", place, value_kind(value)) from None



@dataclass(frozen=True, eq=False)
class Pin:
    """A kept scene: `number` (1 to MAX_PINS) gives its default name and its colour; `name` "" means the default.

    It holds an immutable Scenario (without title, description or pins of its own) and its AttentionResult,
    computed once when the pin is made, so views draw pinned states without computing anything. It lives here,
    beside the Scenario that holds it; core.scenes.query.pins compares pinned scenes with the live one.
    """

    number: int
    scenario: Scenario
    name: str = ""
    result: AttentionResult = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", self.scenario.compute())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pin):
            return NotImplemented
        return self.number == other.number and self.name == other.name and self.scenario == other.scenario

    __hash__ = None  # type: ignore[assignment]


def free_pin_number(pins: tuple[Pin, ...]) -> int:
    """The smallest number from 1 that no pin has (a removed pin's number and colour come back first)."""
    taken = {pin.number for pin in pins}
    return next(number for number in range(1, len(pins) + 2) if number not in taken)


@dataclass(frozen=True, eq=False)
class Scenario:
    """One query against N key–value pairs; `scale` None means the automatic 1/√d_k; `pins`: kept scenes."""

    query: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    labels: tuple[str, ...] = ()
    title: str = ""
    description: str = ""
    scale: float | None = None
    pins: tuple[Pin, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "query", _readonly(self.query, "query"))
        object.__setattr__(self, "keys", _readonly(self.keys, "keys"))
        object.__setattr__(self, "values", _readonly(self.values, "values"))
        if not self.labels and self.keys.ndim == 2:
            object.__setattr__(self, "labels", default_labels(self.keys.shape[0]))
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "pins", tuple(self.pins))
        validate(self)

    @property
    def d_k(self) -> int:
        """Dimension shared by Q and every K."""
        return int(self.query.shape[0])

    @property
    def d_v(self) -> int:
        """Dimension of every V."""
        return int(self.values.shape[1])

    @property
    def n(self) -> int:
        """Number of key–value pairs."""
        return int(self.keys.shape[0])

    @property
    def auto_scale(self) -> float:
        """The automatic factor 1/√d_k, whatever the scale is set to."""
        return inv_sqrt_scale(self.d_k)

    @property
    def effective_scale(self) -> float:
        """The factor actually applied to the raw scores."""
        return self.auto_scale if self.scale is None else float(self.scale)

    def compute(self) -> AttentionResult:
        """Run attention on this scenario."""
        return attend(self.query, self.keys, self.values, self.effective_scale)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return (
            self.labels == other.labels
            and self.title == other.title
            and self.description == other.description
            and self.scale == other.scale
            and _same_numbers(self.query, other.query)
            and _same_numbers(self.keys, other.keys)
            and _same_numbers(self.values, other.values)
            and self.pins == other.pins
        )

    __hash__ = None  # type: ignore[assignment]


def default_labels(n: int) -> tuple[str, ...]:
    """K1, K2, … for n keys."""
    return tuple(f"K{i + 1}" for i in range(n))


def _check_numbers(array: np.ndarray, place: str) -> None:
    if _ours(array, _CHECKED):
        return
    # Two passes without temporaries settle the usual case (NaN makes both comparisons false): a 512 × 4096
    # matrix is checked in milliseconds; only a bad array pays for finding its first bad place.
    if array.size and array.max() <= MAX_ABS and array.min() >= -MAX_ABS:
        if _ours(array, _FROZEN):
            _CHECKED[id(array)] = array
        return
    bad = ~np.isfinite(array) | (np.abs(np.where(np.isfinite(array), array, 0)) > MAX_ABS)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        where = place + "".join(f"[{i}]" for i in index)
        value = float(array[index])
        if math.isnan(value):
            raise ScenarioError("{0}: NaN is not allowed (every number must be finite)", where)
        if math.isinf(value):
            raise ScenarioError("{0}: infinity is not allowed (every number must be finite)", where)
        raise ScenarioError("{0}: {1} is out of range (|x| must be at most {2:g})", where, number_text(value), MAX_ABS)


def validate(scenario: Scenario) -> None:
    """Raise ScenarioError naming the first problem of a scenario, or return None."""
    query, keys, values = scenario.query, scenario.keys, scenario.values
    if query.ndim != 1 or not 1 <= query.shape[0] <= MAX_DIM:
        raise ScenarioError("query: expected 1 to {0} numbers", MAX_DIM)
    d_k = query.shape[0]
    if keys.ndim != 2 or not 1 <= keys.shape[0] <= MAX_KEYS:
        raise ScenarioError("keys: expected 1 to {0} rows", MAX_KEYS)
    if keys.shape[1] != d_k:
        raise ScenarioError("keys: expected rows of {0} numbers (d_k = {1}), got {2}", d_k, d_k, keys.shape[1])
    if values.ndim != 2 or values.shape[0] != keys.shape[0]:
        raise ScenarioError("values: expected {0} rows, one per key", keys.shape[0])
    if not 1 <= values.shape[1] <= MAX_DIM:
        raise ScenarioError("values: expected rows of 1 to {0} numbers", MAX_DIM)
    _check_numbers(query, "query")
    _check_numbers(keys, "keys")
    _check_numbers(values, "values")
    if len(scenario.labels) != keys.shape[0]:
        raise ScenarioError("labels: expected {0} labels, one per key, got {1}", keys.shape[0], len(scenario.labels))
    for i, label in enumerate(scenario.labels):
        if not isinstance(label, str):
            raise ScenarioError("labels[{0}]: expected a string", i)
        if len(label) > MAX_LABEL:
            raise ScenarioError("labels[{0}]: {1} characters, at most {2} are allowed", i, len(label), MAX_LABEL)
        check_text(label, f"labels[{i}]")
    check_texts(scenario)
    check_scale(scenario.scale)
    _check_pins(scenario.pins)


def _check_pins(pins: tuple[Pin, ...]) -> None:
    """Raise ScenarioError naming the first problem of a scenario's pins."""
    if len(pins) > MAX_PINS:
        raise ScenarioError("pins: at most {0} pins, got {1}", MAX_PINS, len(pins))
    numbers = set()
    for i, pin in enumerate(pins):
        if not isinstance(pin, Pin) or not isinstance(pin.scenario, Scenario):
            raise ScenarioError("pins[{0}]: expected a pinned scenario", i)
        if pin.scenario.pins:
            raise ScenarioError("pins[{0}]: a pinned scene cannot hold pins of its own", i)
        if isinstance(pin.number, bool) or not isinstance(pin.number, int) or not 1 <= pin.number <= MAX_PINS \
                or pin.number in numbers:
            raise ScenarioError("pins[{0}].number: expected a whole number from 1 to {1} that no other pin has", i,
                                MAX_PINS)
        numbers.add(pin.number)
        if not isinstance(pin.name, str):
            raise ScenarioError("pins[{0}].name: expected a string", i)
        if len(pin.name) > MAX_LABEL:
            raise ScenarioError("pins[{0}].name: {1} characters, at most {2} are allowed", i, len(pin.name),
                                MAX_LABEL)
        check_text(pin.name, f"pins[{i}].name")


# ---------------------------------------------------------------- pure edits


def _replace(scenario: Scenario, **changes: Any) -> Scenario:
    fields = {
        "query": scenario.query, "keys": scenario.keys, "values": scenario.values,
        "labels": scenario.labels, "title": scenario.title, "description": scenario.description,
        "scale": scenario.scale, "pins": scenario.pins,
    }
    fields.update(changes)
    return Scenario(**fields)


def _check_role(role: str, index: int, scenario: Scenario) -> None:
    if role not in ROLES:
        raise ScenarioError("unknown vector role {0!r} (expected one of {1})", role, ', '.join(ROLES))
    if role != "query":
        index = _as_index(index, f"{role} index")
    if role != "query" and not 0 <= index < scenario.n:
        raise ScenarioError("{0} index {1} is out of range (there are {2} pairs)", role, index, scenario.n)


def vector(scenario: Scenario, role: str, index: int = 0) -> np.ndarray:
    """The query, the index-th key or the index-th value."""
    _check_role(role, index, scenario)
    if role == "query":
        return scenario.query
    return scenario.keys[index] if role == "key" else scenario.values[index]


def with_vector(scenario: Scenario, role: str, index: int, values: Sequence[float]) -> Scenario:
    """Replace the query (index ignored), one key or one value."""
    _check_role(role, index, scenario)
    place = "query" if role == "query" else f"{role}s[{index}]"
    new = _as_numbers(values, place)
    width = scenario.d_k if role != "value" else scenario.d_v
    if new.shape != (width,):
        raise ScenarioError("{0}: expected {1} numbers, got {2}", place, width, new.size)
    _check_numbers(new, place)
    if role == "query":
        return _replace(scenario, query=new)
    field_name = "keys" if role == "key" else "values"
    return _replace(scenario, **{field_name: _with_row(getattr(scenario, field_name), index, new)})


def with_component(scenario: Scenario, role: str, index: int, component: int, value: float) -> Scenario:
    """Replace one number of the query, a key or a value."""
    current = np.array(vector(scenario, role, index))
    component = _as_index(component, "component")
    if not 0 <= component < current.shape[0]:
        raise ScenarioError("component {0} is out of range (the vector has {1})", component, current.shape[0])
    current[component] = _as_float(value, "component value")
    return with_vector(scenario, role, index, current)


def with_pair_added(
    scenario: Scenario, key: Sequence[float] | None = None, value: Sequence[float] | None = None,
    label: str | None = None,
) -> Scenario:
    """Append a key–value pair (zeros by default) with a fresh label."""
    if scenario.n >= MAX_KEYS:
        raise ScenarioError("at most {0} key–value pairs are allowed", MAX_KEYS)
    key_row = np.zeros(scenario.d_k) if key is None else _as_numbers(key, "new key")
    value_row = np.zeros(scenario.d_v) if value is None else _as_numbers(value, "new value")
    if label is None:
        taken = set(scenario.labels)
        number = scenario.n + 1
        while f"K{number}" in taken:
            number += 1
        label = f"K{number}"
    if key_row.shape != (scenario.d_k,) or value_row.shape != (scenario.d_v,):
        raise ScenarioError("new pair: expected a key of {0} and a value of {1} numbers", scenario.d_k, scenario.d_v)
    return _replace(
        scenario, keys=np.vstack([scenario.keys, key_row]), values=np.vstack([scenario.values, value_row]),
        labels=(*scenario.labels, label),
    )


def with_pair_removed(scenario: Scenario, index: int) -> Scenario:
    """Remove one key–value pair (at least one must stay)."""
    _check_role("key", index, scenario)
    if scenario.n <= 1:
        raise ScenarioError("at least one key–value pair must remain")
    return _replace(
        scenario, keys=np.delete(scenario.keys, index, axis=0), values=np.delete(scenario.values, index, axis=0),
        labels=scenario.labels[:index] + scenario.labels[index + 1:],
    )


def _resize(rows: np.ndarray, width: int, fill: str, seed: int) -> np.ndarray:
    width = _as_index(width, "dimension")
    if not 1 <= width <= MAX_DIM:
        raise ScenarioError("dimension {0} is out of range (1 to {1})", width, MAX_DIM)
    if fill not in ("zeros", "random"):
        raise ScenarioError("unknown fill {0!r} (expected zeros or random)", fill)
    current = rows.shape[-1]
    if width <= current:
        return rows[..., :width]
    extra_shape = (*rows.shape[:-1], width - current)
    if fill == "zeros":
        extra = np.zeros(extra_shape)
    else:
        extra = np.random.default_rng(seed).standard_normal(extra_shape)
    return np.concatenate([rows, extra], axis=-1)


def with_arrays(scenario: Scenario, query: Any = None, keys: Any = None, values: Any = None,
                labels: Sequence[str] | None = None) -> Scenario:
    """Replace Q, K, V and the labels as wholes (None: kept), checked as a file's are.

    With a new number of keys and no labels given, the keys get the default names K1, K2, …
    """
    fields: dict[str, Any] = {}
    for name, given in (("query", query), ("keys", keys), ("values", values)):
        if given is not None:
            fields[name] = _as_numbers(given, name)
    if labels is not None:
        if isinstance(labels, (str, bytes)):
            raise ScenarioError("{0}: expected a list of strings, got a string", "labels")
        try:
            fields["labels"] = tuple(labels)
        except TypeError:
            raise ScenarioError("{0}: expected a list of strings, got {1}", "labels", value_kind(labels)) from None
    elif "keys" in fields and fields["keys"].ndim == 2 and fields["keys"].shape[0] != scenario.n:
        fields["labels"] = default_labels(fields["keys"].shape[0])
    return _replace(scenario, **fields)


def with_d_k(scenario: Scenario, d_k: int, fill: str = "zeros", seed: int = 0) -> Scenario:
    """Change d_k: truncate Q and every K, or extend them with zeros or seeded N(0, 1) samples."""
    both = _resize(np.vstack([scenario.query, scenario.keys]), d_k, fill, seed)
    return _replace(scenario, query=both[0], keys=both[1:])


def with_d_v(scenario: Scenario, d_v: int, fill: str = "zeros", seed: int = 0) -> Scenario:
    """Change d_v: truncate every V, or extend them with zeros or seeded N(0, 1) samples."""
    return _replace(scenario, values=_resize(scenario.values, d_v, fill, seed))


def with_scale(scenario: Scenario, scale: float | None) -> Scenario:
    """Set the scale: None for the automatic 1/√d_k, or a factor ≥ 0."""
    return _replace(scenario, scale=None if scale is None else _as_float(scale, "scale"))


def with_label(scenario: Scenario, index: int, label: str) -> Scenario:
    """Rename one key–value pair."""
    _check_role("key", index, scenario)
    return _replace(scenario, labels=scenario.labels[:index] + (label,) + scenario.labels[index + 1:])


def with_title(scenario: Scenario, title: str) -> Scenario:
    """Set the scenario's title."""
    return _replace(scenario, title=title)


def with_pin_added(scenario: Scenario, name: str | None = None) -> Scenario:
    """Keep the scene as it is now (its numbers and labels) as a new pin, named `name` or by its number."""
    if len(scenario.pins) >= MAX_PINS:
        raise ScenarioError("at most {0} pins: remove one before pinning another", MAX_PINS)
    kept = _replace(scenario, title="", description="", pins=())
    pin = Pin(free_pin_number(scenario.pins), kept, "" if name is None else name)
    return _replace(scenario, pins=(*scenario.pins, pin))


def with_pin_removed(scenario: Scenario, index: int) -> Scenario:
    """Remove pin `index` (the others keep their numbers and colours)."""
    index = _as_index(index, "pin index")
    if not 0 <= index < len(scenario.pins):
        raise ScenarioError("pin index {0} is out of range (there are {1} pins)", index, len(scenario.pins))
    return _replace(scenario, pins=scenario.pins[:index] + scenario.pins[index + 1:])


def with_pins_cleared(scenario: Scenario) -> Scenario:
    """Remove every pin."""
    return _replace(scenario, pins=())
