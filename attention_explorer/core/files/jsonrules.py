"""The JSON rules of scenario files: hostile input (huge, deep, duplicated or giant numbers) refused with one line.

Reading a file's bytes and turning its text into plain data; what the data must hold is core/scenes/query/file.py's job.
Pure Python, no Qt.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attention_explorer.core.files.bulknumbers import NumberRows, number_array
from attention_explorer.core.files.safety import remember_read
from attention_explorer.core.limits import MAX_ABS, MAX_KEYS, ScenarioError
from attention_explorer.core.messages import field_name_text

MAX_FILE_BYTES = 64 * 1024 * 1024
# A valid scenario holds at most a few thousand JSON arrays; counting brackets before parsing refuses
# a hostile file (millions of rows) in milliseconds instead of building it in memory first.
_MAX_BRACKETS = 20_000
# Colons stand between field names and values, and inside strings: labels, tokens, title and description
# together hold well under this many characters.
_MAX_COLONS = 100_000


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a scenario file; a missing, unreadable or oversized file raises ScenarioError."""
    if not os.fspath(path):
        raise ScenarioError("the file name is empty")  # Path("") is ".", the current folder
    path = Path(path)
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise ScenarioError("is a folder, not a scenario file")
        if not stat.S_ISREG(status.st_mode):  # reading a pipe or a device would wait for a writer, maybe forever
            raise ScenarioError("is not a regular file (a pipe, a device or a socket), so it was not read")
        if status.st_size > MAX_FILE_BYTES:
            raise ScenarioError("file is larger than {0} MiB", MAX_FILE_BYTES // (1024 * 1024))
        with path.open("rb") as handle:
            status = os.fstat(handle.fileno())  # before reading: a write during the read shows as a change later
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError("no such file") from None
    except PermissionError:
        raise ScenarioError("permission denied") from None
    except OSError as error:
        raise ScenarioError("cannot read: {0}", error.strerror or error) from None
    remember_read(path, data, status)  # what the window that shows it compares the disk with
    return data


def _reject_constant(name: str) -> float:
    # Python's json accepts NaN/Infinity; we keep them as floats so the validator names their place.
    return float(name.replace("Infinity", "inf"))


def parse_document(data: bytes | str, fields: tuple[str, ...] | Callable[[], tuple[str, ...]]) -> Any:
    """The JSON document in scenario text, after the size, depth and encoding checks (`fields`: the known names).

    `fields` may be a function giving them: it is called only for a file with too many fields to parse.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")  # a lone surrogate then fails below as "not UTF-8"
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError("file is larger than {0} MiB", MAX_FILE_BYTES // (1024 * 1024))
    if not data or data.isspace():  # not strip(): that would copy a 31 MB file
        raise ScenarioError("file is empty")
    document = _bulk_document(data.removeprefix(b"\xef\xbb\xbf"))  # only ever a file the checks below pass
    if document is not None:
        return document
    # The structure's characters alone, in one pass: their counts refuse a hostile file before any parsing.
    skeleton = data.translate(None, _NOT_STRUCTURE)
    brackets = _count_brackets(data, skeleton)
    if brackets > _MAX_BRACKETS:
        raise ScenarioError(
            "{0} lists or objects, nested too deeply or far more than a scenario holds (at most {1} keys "
            "and values)",
            brackets, MAX_KEYS,
        )
    colons = skeleton.count(b":")
    if colons > _MAX_COLONS:
        # Millions of fields: name the first one rather than build the whole object in memory first.
        first = re.match(rb'\s*\{\s*"((?:[^"\\]|\\.){0,64})"\s*:', data.removeprefix(b"\xef\xbb\xbf"))
        name = first.group(1).decode("utf-8", "replace") if first else None
        if name is not None and name not in (fields() if callable(fields) else fields):
            raise ScenarioError('"{0}": unknown field', field_name_text(name))
        raise ScenarioError("{0} fields or colons, far more than a scenario holds", colons)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ScenarioError("not UTF-8 text (byte {0})", error.start) from None
    return parse_json(text)


# Top-level fields whose large arrays are read in bulk (core/files/bulknumbers.py): matrices (the readers in
# core/files/fields.py take NumberRows) and the query (a list of floats). Any other large array goes to json.loads.
_BULK_ROWS = frozenset(("keys", "values", "embeddings", "w_q", "w_k", "w_v", "w_o", "target_embeddings",
                        "source_embeddings"))
_BULK_LISTS = frozenset(("query",))
_BULK_MIN_BYTES = 1 << 15  # smaller arrays cost json.loads little


class _Slot:
    """Where a bulk-read array stood: json.loads reads the NaN put there as this."""

    def __init__(self, index: int) -> None:
        self.index = index


def _bulk_document(data: bytes) -> Any | None:
    """The document with its large number arrays read in bulk; None whenever the exact parser must decide.

    Each large array outside the strings is replaced by NaN and the rest (a few kB) parsed by json.loads with
    the same rules. The result is used only when every NaN json saw was one of those, each stood as the value
    of a field listed above, and each array was plain JSON numbers in range: then the file is valid JSON and
    reads exactly as json.loads would read it. Anything else (an error too) falls back, so messages never change.
    It runs before parse_document's counts, so it gives up on a file those counts would refuse, and early.
    """
    spans = _large_arrays(data)
    if not spans:
        return None
    arrays = []
    for start, stop in spans:
        array = number_array(data, start, stop, MAX_ABS, _MAX_BRACKETS)
        if array is None:
            return None
        arrays.append(array)
    pieces, last = [], 0
    for start, stop in spans:
        pieces.append(data[last:start])
        last = stop
    pieces.append(data[last:])
    rest = b"NaN".join(pieces)
    slots: list[_Slot] = []
    if rest.count(b"NaN") != len(arrays):
        return None  # a NaN of the file's own (in a string, or a real one): let the exact parser read it
    brackets = rest.count(b"[") + rest.count(b"{") + sum(array.shape[0] + 1 if array.ndim == 2 else 1
                                                        for array in arrays)  # an array of rows: one '[' each
    if brackets > _MAX_BRACKETS or rest.count(b":") > _MAX_COLONS:
        return None  # the counts in parse_document refuse it (or count again outside the strings)

    def constant(name: str) -> Any:
        if name != "NaN":
            return _reject_constant(name)
        slots.append(_Slot(len(slots)))
        return slots[-1]

    try:
        document = json.loads(rest.decode("utf-8"), parse_constant=constant, object_pairs_hook=_unique_keys)
    except (ScenarioError, ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    if len(slots) != len(arrays) or not isinstance(document, dict):
        return None
    placed = 0
    for name, value in document.items():
        if isinstance(value, _Slot):
            array = arrays[value.index]
            if name in _BULK_ROWS and array.ndim == 2:
                document[name] = NumberRows(array)
            elif name in _BULK_LISTS and array.ndim == 1:
                document[name] = array.tolist()
            else:
                return None
            placed += 1
    return document if placed == len(arrays) else None


def _large_arrays(data: bytes) -> list[tuple[int, int]]:
    """(start, stop) of each stretch from a '[' to the last ']' before the next string, when it is long."""
    spans, position, quotes = [], 0, 0
    while quotes <= _MAX_QUOTES:  # past that count parse_document refuses the file
        quote = data.find(b'"', position)
        end = len(data) if quote < 0 else quote
        if end - position >= _BULK_MIN_BYTES:
            first, last = data.find(b"[", position, end), data.rfind(b"]", position, end)
            if 0 <= first < last and last + 1 - first >= _BULK_MIN_BYTES:
                spans.append((first, last + 1))
        if quote < 0:
            return spans
        closing = quote
        while True:  # the next quote that no backslash escapes
            closing = data.find(b'"', closing + 1)
            quotes += 1
            if closing < 0 or quotes > _MAX_QUOTES:
                return []  # an unterminated string: the exact parser says where
            backslashes = 0
            while data[closing - 1 - backslashes] == _BACKSLASH:
                backslashes += 1
                if backslashes > _MAX_BACKSLASH_RUN:
                    return []  # no scenario's text has such a run: the exact parser reads it
            if backslashes % 2 == 0:
                break
        position = closing + 1
    return []


_BACKSLASH = ord("\\")
_MAX_BACKSLASH_RUN = 64
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[{:"')))
# A legal file's strings (512 labels or tokens of 64 characters, a title, a description, the field names) hold
# well under this many quote characters; past it the file is no scenario and its raw count is answer enough.
_MAX_QUOTES = 100_000


def _count_brackets(data: bytes, skeleton: bytes) -> int:
    """The [ and { of the JSON structure, not those inside strings (512 labels "[[[…" are legal)."""
    brackets = skeleton.count(b"[") + skeleton.count(b"{")
    if brackets <= _MAX_BRACKETS or skeleton.count(b'"') > _MAX_QUOTES:
        return brackets  # the common case stays one pass in C, so a large legal file pays nothing extra
    # Escapes dropped, every remaining quote opens or closes a string: C passes and one find per quote, where
    # a regex substitution tried a match at each of 60 million positions of a hostile file (1 s).
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    inside, position = 0, 0
    while (opening := unescaped.find(b'"', position)) >= 0:
        closing = unescaped.find(b'"', opening + 1)
        if closing < 0:
            break  # a string never closed is no string: its brackets count
        inside += unescaped.count(b"[", opening, closing) + unescaped.count(b"{", opening, closing)
        position = closing + 1
    return brackets - inside


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
