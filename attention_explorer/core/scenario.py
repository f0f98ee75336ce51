"""The scenario: one query, N keys and N values, and the versioned JSON file that stores it.

A Scenario is immutable and always valid: every constructor path goes through `validate`, and
every edit below returns a new Scenario (or raises ScenarioError and changes nothing).
"""

from __future__ import annotations

import json
import math
import operator
import os
import re
import secrets
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_explorer.core.attention import AttentionResult, attend, inv_sqrt_scale
from attention_explorer.core.messages import Phrase, TemplateError

if TYPE_CHECKING:
    from attention_explorer.core.sequence import SequenceScenario

FORMAT_ID = "attention-explorer/1"
MAX_KEYS = 512
MAX_DIM = 4096
MAX_ABS = 1e6
MAX_SCALE = 1e6
MAX_LABEL = 64
MAX_TITLE = 200
MAX_DESCRIPTION = 4000
MAX_FILE_BYTES = 64 * 1024 * 1024
# A valid scenario holds at most a few thousand JSON arrays; counting brackets before parsing refuses
# a hostile file (millions of rows) in milliseconds instead of building it in memory first.
_MAX_BRACKETS = 20_000
# Colons stand between field names and values, and inside strings: labels, tokens, title and description
# together hold well under this many characters.
_MAX_COLONS = 100_000
AUTO_SCALE = "inv_sqrt_dk"
ROLES = ("query", "key", "value")
_FIELDS = ("format", "title", "description", "query", "keys", "values", "labels", "scale", "claims")
# Every top-level field of either kind (the self-attention kind adds these).
_ALL_FIELDS = (*_FIELDS, "kind", "tokens", "embeddings", "w_q", "w_k", "w_v", "causal")


class ScenarioError(TemplateError):
    """A scenario (file or edit) is invalid; the message names the place and the problem."""


def _readonly(rows: Any, place: str) -> np.ndarray:
    try:
        array = np.array(rows, dtype=np.float64, copy=True)
    except (TypeError, ValueError, OverflowError):
        # ragged rows, strings, None: numpy's own message would not name the place
        raise ScenarioError("{0}: expected numbers in equal-length rows", place) from None
    array.setflags(write=False)
    return array


def _as_numbers(values: Any, place: str) -> np.ndarray:
    """A float64 array of what an edit was given; anything that is not numbers raises ScenarioError."""
    if isinstance(values, (str, bytes)):
        raise ScenarioError("{0}: expected numbers, got a string", place)
    return _readonly(values, place)


def _as_float(value: Any, place: str) -> float:
    if isinstance(value, (str, bytes)) or value is None:
        raise ScenarioError("{0}: expected a number, got {1}", place, _kind(value))
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        raise ScenarioError("{0}: expected a number, got {1}", place, _kind(value)) from None


def _as_index(value: Any, place: str) -> int:
    if isinstance(value, bool):
        raise ScenarioError("{0}: expected a whole number, got true/false", place)
    try:
        return operator.index(value)
    except TypeError:
        raise ScenarioError("{0}: expected a whole number, got {1}", place, _kind(value)) from None


@dataclass(frozen=True, eq=False)
class Scenario:
    """One query against N key–value pairs; `scale` None means the automatic 1/√d_k."""

    query: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    labels: tuple[str, ...] = ()
    title: str = ""
    description: str = ""
    scale: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "query", _readonly(self.query, "query"))
        object.__setattr__(self, "keys", _readonly(self.keys, "keys"))
        object.__setattr__(self, "values", _readonly(self.values, "values"))
        if not self.labels and self.keys.ndim == 2:
            object.__setattr__(self, "labels", default_labels(self.keys.shape[0]))
        object.__setattr__(self, "labels", tuple(self.labels))
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
    def effective_scale(self) -> float:
        """The factor actually applied to the raw scores."""
        return inv_sqrt_scale(self.d_k) if self.scale is None else float(self.scale)

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
            and np.array_equal(self.query, other.query)
            and np.array_equal(self.keys, other.keys)
            and np.array_equal(self.values, other.values)
        )

    __hash__ = None  # type: ignore[assignment]


def default_labels(n: int) -> tuple[str, ...]:
    """K1, K2, … for n keys."""
    return tuple(f"K{i + 1}" for i in range(n))


def _check_numbers(array: np.ndarray, place: str) -> None:
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


def _check_text(text: str, place: str) -> None:
    # JSON's "\ud800" escape yields a lone surrogate: Python accepts it, but it cannot be written
    # back as UTF-8 (saving or printing would fail later), so it is refused here.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ScenarioError(
            "{0}: character {1} is not valid Unicode (a lone surrogate)",
            place, error.start + 1,
        ) from None


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
        _check_text(label, f"labels[{i}]")
    if not isinstance(scenario.title, str) or len(scenario.title) > MAX_TITLE:
        raise ScenarioError("title: expected a string of at most {0} characters", MAX_TITLE)
    _check_text(scenario.title, "title")
    if not isinstance(scenario.description, str) or len(scenario.description) > MAX_DESCRIPTION:
        raise ScenarioError("description: expected a string of at most {0} characters", MAX_DESCRIPTION)
    _check_text(scenario.description, "description")
    scale = scenario.scale
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
            raise ScenarioError('scale: expected "{0}" or a finite number', AUTO_SCALE)
        if not 0 <= scale <= MAX_SCALE:
            raise ScenarioError("scale: {0} is out of range (0 to {1:g})", number_text(scale), MAX_SCALE)


# ---------------------------------------------------------------- the file format


def _reject_constant(name: str) -> float:
    # Python's json accepts NaN/Infinity; we keep them as floats so the validator names their place.
    return float(name.replace("Infinity", "inf"))


def _number_rows(raw: Any, place: str, width: int | None, width_name: str) -> list[list[float]]:
    if not isinstance(raw, list):
        raise ScenarioError("{0}: expected a list of rows", place)
    rows = []
    for i, row in enumerate(raw):
        rows.append(_number_list(row, f"{place}[{i}]", width, width_name))
        if width is None:
            width = len(rows[0])  # the first row sets the width (d_v) every later row must match
    return rows


def _number_list(raw: Any, place: str, width: int | None, width_name: str) -> list[float]:
    if not isinstance(raw, list):
        raise ScenarioError("{0}: expected a list of numbers, got {1}", place, _kind(raw))
    if width is not None and len(raw) != width:
        raise ScenarioError("{0}: expected {1} numbers ({2} = {3}), got {4}", place, width, width_name, width, len(raw))
    if not 1 <= len(raw) <= MAX_DIM:  # checked before the walk: a hostile file may hold millions
        raise ScenarioError("{0}: expected 1 to {1} numbers, got {2}", place, MAX_DIM, len(raw))
    out = []
    for j, item in enumerate(raw):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise ScenarioError("{0}[{1}]: expected a number, got {2}", place, j, _kind(item))
        if isinstance(item, int) and abs(item) > MAX_ABS:  # float() of a 400-digit integer would overflow
            raise ScenarioError(
                "{0}[{1}]: {2} is out of range (|x| must be at most {3:g})",
                place, j, _big(item), MAX_ABS,
            )
        value = float(item)
        if math.isnan(value):
            raise ScenarioError("{0}[{1}]: NaN is not allowed (every number must be finite)", place, j)
        if math.isinf(value):
            raise ScenarioError("{0}[{1}]: infinity is not allowed (every number must be finite)", place, j)
        if abs(value) > MAX_ABS:
            raise ScenarioError(
                "{0}[{1}]: {2} is out of range (|x| must be at most {3:g})",
                place, j, number_text(value), MAX_ABS,
            )
        out.append(value)
    return out


def number_text(value: float) -> str:
    """The shortest %g form that reads back as the same float: 2e+06, but 1000000.1 (not 1e+06) near a limit."""
    value = float(value)
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if float(text) == value:
            return text
    return repr(value)


def _big(number: int) -> str:
    """A huge integer, shortened for a one-line message."""
    digits = str(abs(number))
    sign = "-" if number < 0 else ""
    return f"{sign}{digits}" if len(digits) <= 15 else f"{sign}{digits[:3]}… ({len(digits)} digits)"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return Phrase("true/false")
    if value is None:
        return Phrase("null")
    if isinstance(value, str):
        return Phrase("a string")
    if isinstance(value, list):
        return Phrase("a list")
    if isinstance(value, dict):
        return Phrase("an object")
    return type(value).__name__


def scenario_from_dict(document: Any) -> Scenario:
    """Validate a parsed JSON document and build the Scenario (first problem raises ScenarioError)."""
    if not isinstance(document, dict):
        raise ScenarioError("expected a JSON object at the top level, got {0}", _kind(document))
    if "kind" in document:
        _check_kind(document["kind"])
        raise ScenarioError(
            'kind "self": a self-attention file (tokens and W_Q, W_K, W_V), not a single-query scenario; '
            "open it in the self-attention lab"
        )
    for name in document:
        if name not in _FIELDS:
            raise ScenarioError('"{0}": unknown field (allowed: {1})', name, ", ".join(_FIELDS))
    if "format" in document and document["format"] != FORMAT_ID:
        raise ScenarioError('format: expected "{0}", got {1}', FORMAT_ID, json.dumps(document["format"])[:40])
    for required in ("query", "keys", "values"):
        if required not in document:
            raise ScenarioError('"{0}": missing', required)
    query = _number_list(document["query"], "query", None, "d_k")
    d_k = len(query)
    if not isinstance(document["keys"], list) or not 1 <= len(document["keys"]) <= MAX_KEYS:
        got = len(document["keys"]) if isinstance(document["keys"], list) else _kind(document["keys"])
        raise ScenarioError("keys: expected a list of 1 to {0} rows, got {1}", MAX_KEYS, got)
    keys = _number_rows(document["keys"], "keys", d_k, "d_k")
    n = len(keys)
    raw_values = document["values"]
    if not isinstance(raw_values, list) or len(raw_values) != n:
        got = len(raw_values) if isinstance(raw_values, list) else _kind(raw_values)
        raise ScenarioError("values: expected {0} rows (one per key), got {1}", n, got)
    values = _number_rows(raw_values, "values", None, "d_v")
    labels = document.get("labels")
    if labels is None:
        labels = list(default_labels(n))
    if not isinstance(labels, list) or len(labels) != n:
        got = len(labels) if isinstance(labels, list) else _kind(labels)
        raise ScenarioError("labels: expected {0} strings (one per key), got {1}", n, got)
    for i, label in enumerate(labels):
        if not isinstance(label, str):
            raise ScenarioError("labels[{0}]: expected a string, got {1}", i, _kind(label))
    title = document.get("title", "")
    if not isinstance(title, str):
        raise ScenarioError("title: expected a string, got {0}", _kind(title))
    description = document.get("description", "")
    if not isinstance(description, str):
        raise ScenarioError("description: expected a string, got {0}", _kind(description))
    scenario = Scenario(
        query=query, keys=keys, values=values, labels=tuple(labels), title=title,
        description=description, scale=scale_from_document(document),
    )
    _check_claims(document.get("claims"), scenario)
    return scenario


def _check_claims(claims: Any, scenario: Scenario | SequenceScenario) -> None:
    """The optional "claims" of a story must fit the scenario they speak of (core/claims.py)."""
    from attention_explorer.core.claims import claims_from_list  # claims.py builds on this module

    claims_from_list(claims, scenario)


def scale_from_document(document: dict[str, Any]) -> float | None:
    """The `scale` field of a document (either kind): None for "inv_sqrt_dk" or absent, else the factor."""
    scale_raw = document.get("scale", AUTO_SCALE)
    if scale_raw == AUTO_SCALE:
        return None
    if isinstance(scale_raw, bool) or not isinstance(scale_raw, (int, float)):
        raise ScenarioError('scale: expected "{0}" or a number ≥ 0, got {1}', AUTO_SCALE, _kind(scale_raw))
    if isinstance(scale_raw, int) and abs(scale_raw) > MAX_SCALE:
        raise ScenarioError("scale: {0} is out of range (0 to {1:g})", _big(scale_raw), MAX_SCALE)
    return float(scale_raw)


def scenario_to_dict(scenario: Scenario) -> dict[str, Any]:
    """The JSON document of a scenario (floats keep every bit through json's repr)."""
    document: dict[str, Any] = {"format": FORMAT_ID}
    if scenario.title:
        document["title"] = scenario.title
    if scenario.description:
        document["description"] = scenario.description
    document["query"] = scenario.query.tolist()
    document["keys"] = scenario.keys.tolist()
    document["values"] = scenario.values.tolist()
    document["labels"] = list(scenario.labels)
    document["scale"] = AUTO_SCALE if scenario.scale is None else scenario.scale
    return document


SELF_KIND = "self"


def _check_kind(kind: Any) -> None:
    if kind != SELF_KIND:
        raise ScenarioError(
            'kind: expected "{0}" (a self-attention file) or no "kind" at all (a single query), got {1}',
            SELF_KIND, json.dumps(kind, ensure_ascii=False)[:40],
        )


def any_from_dict(document: Any) -> Scenario | SequenceScenario:
    """A single-query Scenario, or a SequenceScenario when the document says `"kind": "self"`."""
    if isinstance(document, dict) and "kind" in document:
        from attention_explorer.core.sequence import sequence_from_dict

        _check_kind(document["kind"])
        return sequence_from_dict(document)
    return scenario_from_dict(document)


def loads(data: bytes | str) -> Scenario:
    """Parse and validate single-query scenario JSON text; any problem (or a self-attention file) raises."""
    return scenario_from_dict(_parse(data))


def loads_any(data: bytes | str) -> Scenario | SequenceScenario:
    """Parse and validate JSON text of either kind; any problem raises ScenarioError."""
    return any_from_dict(_parse(data))


def _parse(data: bytes | str) -> Any:
    """The JSON document in scenario text, after the size, depth and encoding checks."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")  # a lone surrogate then fails below as "not UTF-8"
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError("file is larger than {0} MiB", MAX_FILE_BYTES // (1024 * 1024))
    if not data.strip():
        raise ScenarioError("file is empty")
    brackets = _count_brackets(data)
    if brackets > _MAX_BRACKETS:
        raise ScenarioError(
            "{0} lists or objects, nested too deeply or far more than a scenario holds (at most {1} keys "
            "and values)",
            brackets, MAX_KEYS,
        )
    colons = data.count(b":")
    if colons > _MAX_COLONS:
        # Millions of fields: name the first one rather than build the whole object in memory first.
        first = re.match(rb'\s*\{\s*"((?:[^"\\]|\\.){0,64})"\s*:', data.removeprefix(b"\xef\xbb\xbf"))
        name = first.group(1).decode("utf-8", "replace") if first else None
        if name is not None and name not in _ALL_FIELDS:
            raise ScenarioError('"{0}": unknown field', name)
        raise ScenarioError("{0} fields or colons, far more than a scenario holds", colons)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ScenarioError("not UTF-8 text (byte {0})", error.start) from None
    return parse_json(text)


# A JSON string, escapes included. The body sits in a lookahead, which `re` never backtracks into: an
# unterminated 60 MB string fails once instead of being retried at every one of its characters.
_JSON_STRING = re.compile(rb'"(?=([^"\\]*(?:\\.[^"\\]*)*))\1"')
# A legal file's strings (512 labels or tokens of 64 characters, a title, a description, the field names) hold
# well under this many quote characters; past it the file is no scenario and its raw count is answer enough.
_MAX_QUOTES = 100_000


def _count_brackets(data: bytes) -> int:
    """The [ and { of the JSON structure, not those inside strings (512 labels "[[[…" are legal)."""
    brackets = data.count(b"[") + data.count(b"{")
    if brackets <= _MAX_BRACKETS or data.count(b'"') > _MAX_QUOTES:
        return brackets  # the common case stays one pass in C: a legal 40 MB file loads as fast as before
    outside = _JSON_STRING.sub(b'""', data)
    return outside.count(b"[") + outside.count(b"{")


# Python refuses to convert an integer of more digits than this (sys.get_int_max_str_digits' default).
_INT_DIGITS_LIMIT = 4300


def _whole_number(digits: str) -> int:
    """json's parse_int on the error path: a giant integer named by its length, not by Python's limit."""
    length = len(digits.lstrip("-"))
    if length > _INT_DIGITS_LIMIT:
        raise ScenarioError("not a usable number: an integer with {0} digits", length)
    return int(digits)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: a field given twice is refused, not silently last-wins."""
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for name, _value in pairs:
            if name in seen:
                raise ScenarioError("{0}: duplicate key (each field may appear only once)", _quoted(name))
            seen.add(name)
    return document


def _quoted(name: str) -> str:
    """A field name for a one-line message: quoted, escaped, shortened."""
    text = json.dumps(name, ensure_ascii=False)
    return text if len(text) <= 66 else text[:64] + "…\""


def parse_json(text: str) -> Any:
    """JSON text as data, by the file format's rules: duplicate keys, giant integers and deep nesting refused."""
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except ScenarioError:
        raise
    except RecursionError:
        raise ScenarioError("JSON is nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ScenarioError(
            "not valid JSON: {0} (line {1}, column {2})",
            error.msg, error.lineno, error.colno,
        ) from None
    except ValueError:
        pass  # an integer with more digits than Python converts: parse again (errors only) to say how long
    try:
        json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys, parse_int=_whole_number)
    except ScenarioError:
        raise
    except ValueError:
        pass
    raise ScenarioError("not a usable number")


def load(path: str | os.PathLike[str]) -> Scenario:
    """Read, parse and validate a single-query scenario file; problems raise ScenarioError (never a traceback)."""
    return loads(_read(path))


def load_any(path: str | os.PathLike[str]) -> Scenario | SequenceScenario:
    """Read, parse and validate a scenario file of either kind (single query or `"kind": "self"`)."""
    return loads_any(_read(path))


def _read(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a scenario file; a missing, unreadable or oversized file raises ScenarioError."""
    if not os.fspath(path):
        raise ScenarioError("the file name is empty")  # Path("") is ".", the current folder
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ScenarioError("file is larger than {0} MiB", MAX_FILE_BYTES // (1024 * 1024))
        if path.is_dir():
            raise ScenarioError("is a folder, not a scenario file")
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError("no such file") from None
    except PermissionError:
        raise ScenarioError("permission denied") from None
    except OSError as error:
        raise ScenarioError("cannot read: {0}", error.strerror or error) from None
    return data


def dumps(scenario: Scenario | SequenceScenario) -> str:
    """Scenario JSON text (either kind): one field per line, one matrix row per line, non-ASCII kept readable."""
    from attention_explorer.core.sequence import MATRICES, SequenceScenario, sequence_to_dict

    if isinstance(scenario, SequenceScenario):
        document, row_fields = sequence_to_dict(scenario), MATRICES
    else:
        document, row_fields = scenario_to_dict(scenario), ("keys", "values")
    fields = []
    for name, value in document.items():
        if name in row_fields:
            text = "[\n    " + ",\n    ".join(json.dumps(row) for row in value) + "\n  ]"
        else:
            text = json.dumps(value, ensure_ascii=False)  # floats print as repr: they read back bit for bit
        fields.append(f"  {json.dumps(name)}: {text}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def save(scenario: Scenario | SequenceScenario, path: str | os.PathLike[str]) -> None:
    """Write either kind atomically: a temporary file in the same folder, flushed, then renamed over the target.

    A symlink stays a link: the file it points to is replaced (what editors do). Raises ScenarioError when the
    target is not a regular file or the file would be too large to load again, OSError when it cannot be written.
    """
    path = _save_target(Path(path))
    data = dumps(scenario).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(
            "the file would take {0:.0f} MiB, more than the {1} MiB a scenario file may have; use fewer "
            "keys or smaller dimensions",
            len(data) / 2**20, MAX_FILE_BYTES // 2**20,
        )
    try:
        keep_mode = stat.S_IMODE(path.stat().st_mode)  # overwriting: keep the file's permissions
    except OSError:
        keep_mode = None  # a new file: os.open's 0o666 minus the umask, like any ordinary file
    handle, temporary = _create_temporary(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            if keep_mode is not None and hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), keep_mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _save_target(path: Path) -> Path:
    """The file a save replaces: a link's target, followed to the end; a folder, FIFO or device raises ScenarioError."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = target.stat().st_mode
    except OSError:
        return target  # a new file (or one the write itself will report on)
    if stat.S_ISDIR(mode):
        raise ScenarioError("is a folder, not a scenario file")
    if not stat.S_ISREG(mode):
        raise ScenarioError("is not a regular file (a device, pipe or socket): choose another name")
    return target


def _create_temporary(path: Path) -> tuple[int, Path]:
    # Not tempfile.mkstemp: its files are mode 0600, and after the rename the user's file would be too.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file next to {path}")


# ---------------------------------------------------------------- pure edits


def _replace(scenario: Scenario, **changes: Any) -> Scenario:
    fields = {
        "query": scenario.query, "keys": scenario.keys, "values": scenario.values,
        "labels": scenario.labels, "title": scenario.title, "description": scenario.description,
        "scale": scenario.scale,
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
    rows = np.array(getattr(scenario, field_name))
    rows[index] = new
    return _replace(scenario, **{field_name: rows})


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
