"""The scenario loader against generated, mutated and hostile files: only ScenarioError, naming where or what.

A file from a student's e-mail or a broken USB stick must never crash the lecture: whatever the bytes, loading
either gives a valid scenario or raises our own error with a message that says where the problem is (a field,
a row, a line) or what it is (not JSON, not UTF-8, too large…). Hostile files are refused quickly and without
building them in memory: each is loaded in a fresh process that reports its time and its peak memory growth.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import resources_dir
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as sc
from tests.helpers import budget

PRESET_FILES = sorted((resources_dir() / "presets").glob("*.json"))
SCENARIO_FIELDS = ("format", "title", "description", "query", "keys", "values", "labels", "scale")
SEQUENCE_ONLY_FIELDS = ("kind", "tokens", "embeddings", "w_q", "w_k", "w_v", "causal")
# A message starts with the place (a field, maybe with [row][column], or a quoted field name) or names the problem.
PLACE = (r"(?:format|title|description|query|keys|values|labels|scale|kind|tokens|embeddings|w_q|w_k|w_v|w_o|heads"
         r"|causal|claims|padding|pins|target_tokens|source_tokens|target_embeddings|source_embeddings)")
MESSAGE = re.compile(
    rf"^(?:{PLACE}(?:\[\d+\])*(?:\.\w+(?:\[\d+\])*)?(?: \"[^\"]*\")?: \S"
    r'|"(?:[^"\\]|\\.)*": (?:unknown field|missing)'
    r'|"(?:[^"\\]|\\.)*(?:…)?": duplicate key'
    r"|expected a JSON object at the top level"
    r"|not valid JSON: .+ \(line \d+, column \d+\)"
    r"|not UTF-8 text \(byte \d+\)"
    r"|file is empty|file is larger than \d+ MiB"
    r"|\d+ lists or objects, nested too deeply"
    r"|JSON is nested too deeply"
    r"|not a usable number(?:: \S|$)"
    r"|the scores could reach \S)"
)
FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_outcome(data: bytes | str) -> None:
    """Both loaders either return a valid scenario or raise ScenarioError with a message naming place/problem."""
    for load in (sc.loads, anykind.loads_any):
        try:
            loaded = load(data)
        except ScenarioError as error:
            message = str(error)
            assert MESSAGE.match(message), f"the message names no place or problem: {message!r}"
            assert "\n" not in message and len(message) < 400, message
            continue
        # Accepted: it must be a complete, valid scenario that saves and reads back the same.
        assert anykind.loads_any(anykind.dumps(loaded)) == loaded


# ---------------------------------------------------------------- generated documents

JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.sampled_from(["inv_sqrt_dk", "attention-explorer/1", "sequence", "self", "__class__"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(SCENARIO_FIELDS + SEQUENCE_ONLY_FIELDS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=25,
)
NUMBER_ROWS = st.lists(st.lists(st.one_of(st.floats(-3, 3), JSON_SCALARS), min_size=1, max_size=4),
                       min_size=1, max_size=4)


@st.composite
def scenario_like(draw) -> dict:
    """Documents shaped like scenario files, each field sometimes right and sometimes anything at all."""
    document = {}
    plausible = {
        "format": st.just("attention-explorer/1"), "title": st.text(max_size=10), "description": st.text(max_size=10),
        "query": st.lists(st.floats(-3, 3), min_size=1, max_size=4), "keys": NUMBER_ROWS, "values": NUMBER_ROWS,
        "labels": st.lists(st.text(max_size=6), max_size=4), "scale": st.one_of(st.just("inv_sqrt_dk"), st.floats()),
        "kind": st.sampled_from(["sequence", "self"]),
        "tokens": st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=4),
        "embeddings": NUMBER_ROWS, "w_q": NUMBER_ROWS, "w_k": NUMBER_ROWS, "w_v": NUMBER_ROWS,
        "causal": st.booleans(),
    }
    for name in draw(st.lists(st.sampled_from(SCENARIO_FIELDS + SEQUENCE_ONLY_FIELDS), unique=True, max_size=9)):
        document[name] = draw(st.one_of(plausible[name], plausible[name], JSON_VALUES))
    return document


@FUZZ
@given(st.one_of(JSON_VALUES, scenario_like()))
def test_generated_json_documents(document):
    check_outcome(json.dumps(document, allow_nan=True))


@FUZZ
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data):
    check_outcome(data)


@st.composite
def bert_config_like(draw) -> dict:
    """The tiny BERT's config.json with some fields replaced by anything JSON can hold."""
    from tests.helpers.tiny_bert import CONFIG

    document = dict(CONFIG)
    for name in draw(st.lists(st.sampled_from(sorted(CONFIG)), unique=True, max_size=4)):
        document[name] = draw(st.one_of(JSON_VALUES, st.integers(-2**70, 2**70)))
    return document


@FUZZ
@given(st.one_of(bert_config_like(), JSON_VALUES))
def test_generated_model_configs(document):
    """A config.json gives a BertConfig or one CheckpointError line naming the file, never another exception."""
    from attention_explorer.core.pretrained.checkpoint import CheckpointError, config_from_dict

    try:
        config_from_dict(document, "config.json")
    except CheckpointError as error:
        assert str(error).startswith("config.json: ") and "\n" not in str(error) and len(str(error)) < 400


# ---------------------------------------------------------------- mutations of the real files

def _retyped(value, kind: int):
    return [None, True, "text", 3, 1.5, [], {}, [[1, 2]], float("nan"), 1e308 * 10][kind] if kind < 10 else value


@st.composite
def mutated_files(draw) -> bytes:
    """A preset file with a field deleted, duplicated or retyped, or its bytes truncated, flipped or spliced."""
    path = draw(st.sampled_from(PRESET_FILES))
    data = path.read_bytes()
    document = json.loads(data)
    how = draw(st.sampled_from(["delete", "duplicate", "retype", "truncate", "flip", "splice", "row"]))
    name = draw(st.sampled_from(sorted(document)))
    if how == "delete":
        del document[name]
        return json.dumps(document, ensure_ascii=False).encode()
    if how == "duplicate":  # JSON allows a repeated key; the loader refuses it, naming the key
        other = draw(st.sampled_from(sorted(document)))
        text = json.dumps(document, ensure_ascii=False)
        return (text[:-1] + f', "{name}": {json.dumps(document[other], allow_nan=True)}' + "}").encode()
    if how == "retype":
        document[name] = _retyped(document[name], draw(st.integers(0, 9)))
        return json.dumps(document, allow_nan=True).encode()
    if how == "row" and isinstance(document[name], list) and document[name]:
        rows = document[name]  # one row or number made too long, too short or of the wrong type
        index = draw(st.integers(0, len(rows) - 1))
        rows[index] = draw(st.one_of(st.just(rows[index] * 2 if isinstance(rows[index], list) else "1"),
                                     st.just([]), st.just(None), st.just([math.inf])))
        return json.dumps(document, allow_nan=True).encode()
    position = draw(st.integers(0, len(data)))
    if how == "truncate":
        return data[:position]
    if how == "flip":
        position = min(position, len(data) - 1)
        return data[:position] + bytes([data[position] ^ draw(st.integers(1, 255))]) + data[position + 1:]
    return data[:position] + draw(st.binary(min_size=1, max_size=8)) + data[position:]


@FUZZ
@given(mutated_files())
def test_mutated_preset_files(data):
    check_outcome(data)


def test_every_preset_file_loads_unchanged():
    """The mutations start from files that are themselves valid."""
    for path in PRESET_FILES:
        check_outcome(path.read_bytes())
        anykind.load_any(path)


# ---------------------------------------------------------------- hostile files, each in a fresh process

_MEASURE = """\
import json, resource, sys, time
from attention_explorer.core.files.anykind import load_any
from attention_explorer.core.limits import ScenarioError
from tests.helpers import budget
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    load_any(sys.argv[1])
    outcome = None
except ScenarioError as error:
    outcome = str(error)
seconds = time.perf_counter() - start
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is bytes on macOS, KiB on Linux
print(json.dumps({"seconds": seconds, "grown_mb": grown * scale / 2**20, "message": outcome}))
"""
# Generous bounds: the requirement is "refused in under 2 s each (on the reference machine: tests/helpers/budget.py),
# without large memory".
MAX_SECONDS = 2.0
MAX_GROWTH_MB = 200.0


def _valid(**changes) -> dict:
    document = {"query": [1, 0], "keys": [[1, 0], [0, 1]], "values": [[1], [0]]}
    document.update(changes)
    return document


def _hostile(kind: str, folder: Path) -> Path:
    path = folder / f"{kind}.json"
    if kind == "deep-lists":
        path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    elif kind == "deep-objects":
        path.write_bytes(b'{"query":' * 100_000 + b"0" + b"}" * 100_000)
    elif kind == "three-million-key-rows":
        path.write_bytes(b'{"query": [0, 0], "keys": [' + b"[0, 1], " * 2_999_999 + b'[0, 1]], "values": [[0]]}')
    elif kind == "three-million-numbers":
        path.write_bytes(b'{"query": [' + b"0.5, " * 2_999_999 + b'0.5], "keys": [[0]], "values": [[0]]}')
    elif kind == "three-million-object-keys":
        path.write_bytes(b"{" + b"".join(b'"k%d": 0, ' % i for i in range(2_999_999)) + b'"k": 0}')
    elif kind == "over-64-mib":
        with path.open("wb") as handle:  # sparse: the loader must look at the size before reading
            handle.truncate(64 * 2**20 + 1)
    elif kind == "huge-string":
        path.write_bytes(json.dumps(_valid(title="x" * 60_000_000)).encode())
    elif kind == "huge-bracket-string":  # over the raw bracket limit, but all of them inside one string
        path.write_bytes(json.dumps(_valid(title="[" * 60_000_000)).encode())
    elif kind == "unterminated-bracket-string":
        path.write_bytes(b'{"title": "' + b"[" * 60_000_000)
    elif kind == "many-bracket-strings":  # every "[" a string of its own: the quotes alone say it is no scenario
        path.write_bytes(b'{"query": [' + b'"[", ' * 5_000_000 + b'"["], "keys": [[0]], "values": [[0]]}')
    elif kind == "nan":
        path.write_text('{"query": [1, NaN], "keys": [[1, 0]], "values": [[1]]}')
    elif kind == "infinity":
        path.write_text('{"query": [1, 0], "keys": [[1, 0], [-Infinity, 1]], "values": [[1], [2]]}')
    elif kind == "booleans":
        path.write_text(json.dumps(_valid(keys=[[1, 0], [True, False]])))
    elif kind == "wrong-types":
        path.write_text(json.dumps(_valid(values={"a": 1}, labels="K1 K2")))
    else:
        raise ValueError(kind)
    return path


HOSTILE = {  # the file, and what its message must say
    "deep-lists": r"nested too deeply", "deep-objects": r"nested too deeply",
    "three-million-key-rows": r"lists or objects", "three-million-numbers": r"^query: expected 1 to 4096 numbers",
    "over-64-mib": r"^file is larger than 64 MiB", "huge-string": r"^title: ",
    "nan": r"^query\[1\]: NaN is not allowed", "infinity": r"^keys\[1\]\[0\]: infinity is not allowed",
    "booleans": r"^keys\[1\]\[0\]: expected a number, got true/false", "wrong-types": r"^values: expected 2 rows",
    "three-million-object-keys": r'^"k\d*": unknown field',
    "huge-bracket-string": r"^title: expected a string of at most 200",
    "unterminated-bracket-string": r"lists or objects",  # a string never closed is no string: its "[" count
    "many-bracket-strings": r"lists or objects",
}
SLOW: dict[str, str] = {}  # kinds known to be slow (strict xfail); none left


@pytest.mark.parametrize("kind", [
    pytest.param(kind, marks=pytest.mark.xfail(reason=SLOW[kind], strict=True)) if kind in SLOW else kind
    for kind in HOSTILE
])
def test_hostile_files_are_refused_fast_and_small(kind, tmp_path):
    path = _hostile(kind, tmp_path)
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.run([sys.executable, "-c", textwrap.dedent(_MEASURE), str(path)], capture_output=True,
                             text=True, env=environment, timeout=120)
    assert process.returncode == 0, process.stderr[-2000:]
    report = json.loads(process.stdout.strip().splitlines()[-1])
    assert report["message"] is not None, f"{kind} was loaded"
    assert re.search(HOSTILE[kind], report["message"]), report["message"]
    assert MESSAGE.match(report["message"]), report["message"]
    allowed = budget.seconds(MAX_SECONDS)
    assert report["seconds"] < allowed, f"{kind}: refused after {report['seconds']:.2f} s (allowed {allowed:.2f})"
    assert report["grown_mb"] < MAX_GROWTH_MB, f"{kind}: memory grew by {report['grown_mb']:.0f} MB"
