"""The bulk number reader (core/files/bulknumbers.py) against the exact loader: the same arrays bit for bit, errors.

Small documents are read both ways: with the bulk path switched on for every array (its size threshold and its
pieces made tiny, so that a few numbers already cross pieces) and with it switched off (json.loads alone).
"""

from __future__ import annotations

import contextlib
import json
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_explorer.core.files import anykind, bulknumbers, fields, jsonrules, openfile
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.query.scene import adopt_frozen

PROPERTY = settings(max_examples=50, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
WHITESPACE = st.text(alphabet=" \t\n\r", max_size=2)


@contextlib.contextmanager
def bulk(enabled: bool, pieces: int = 16):
    """The loader with the bulk path on for arrays of any size (in pieces of `pieces` characters), or off."""
    with contextlib.ExitStack() as stack:
        if enabled:
            stack.enter_context(mock.patch.object(jsonrules, "_BULK_MIN_BYTES", 1))
            stack.enter_context(mock.patch.object(bulknumbers, "_CHUNK_CHARS", pieces))
        else:
            stack.enter_context(mock.patch.object(jsonrules, "_bulk_document", lambda data: None))
        yield


def outcome(data: bytes, enabled: bool) -> tuple:
    """("ok", scenario) or ("error", message) of loads_any with the bulk path on or off."""
    with bulk(enabled):
        try:
            return "ok", anykind.loads_any(data)
        except ScenarioError as error:
            return "error", str(error)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(a.view(np.int64), b.view(np.int64))


def assert_same(data: bytes) -> tuple:
    """Both ways give the same scenario (every array bit for bit) or the same message; returns the bulk outcome."""
    fast, exact = outcome(data, True), outcome(data, False)
    assert fast[0] == exact[0], (fast, exact)
    if fast[0] == "error":
        assert fast[1] == exact[1]
    else:
        assert fast[1] == exact[1]
        for name in ("query", "keys", "values"):
            assert same_bits(getattr(fast[1], name), getattr(exact[1], name)), name
    return fast


def used_bulk(data: bytes) -> bool:
    """Whether the bulk path read this document itself (rather than leaving it to json.loads)."""
    with bulk(True):
        return jsonrules._bulk_document(data) is not None


# Numbers a person or a program writes: short ones (the bulk words) and every other legal JSON spelling.
SHORT_NUMBERS = st.one_of(
    st.integers(-1_000_000, 1_000_000).map(str),
    st.floats(-999, 999).map(lambda x: f"{x:.3f}"),
    st.floats(-9, 9).map(lambda x: f"{x:.6f}"),
    st.sampled_from(["0", "-0", "0.0", "-0.0", "1", "-1", "0.5", "-0.001", "1000000", "-999999.9", "10"]),
)
ANY_NUMBERS = st.one_of(
    SHORT_NUMBERS,
    st.floats(-1e6, 1e6).map(repr),
    st.floats(-1e6, 1e6).map(lambda x: f"{x:.17e}"),
    st.floats(-1e6, 1e6).map(lambda x: f"{x:E}"),
    st.floats(-1e6, 1e6).map(lambda x: f"{x:.25g}"),
    st.sampled_from(["1.5e-3", "1E+2", "1e2", "-1e-2", "0e0", "0E-0", "1e-400", "-0e5", "1.0E+06",
                     "0.1000000000000000055511151231257827", "123456789", "-1000000", "999999.99999999999999",
                     "2.2250738585072011e-308", "4.9e-324", "0.30000000000000004", "1000000.0000000001"]),
)


@st.composite
def number_matrix(draw, numbers=SHORT_NUMBERS, rows=(1, 4), width=(1, 5)) -> list[list[str]]:
    n, d = draw(st.integers(*rows)), draw(st.integers(*width))
    return [[draw(numbers) for _ in range(d)] for _ in range(n)]


@st.composite
def array_text(draw, rows: list[list[str]]) -> str:
    """A JSON array of rows, with whitespace wherever JSON allows it (never before a comma: that is json's case)."""
    def row_text(row):
        return "[" + draw(WHITESPACE) + ("," + draw(WHITESPACE)).join(row) + draw(WHITESPACE) + "]"
    return "[" + draw(WHITESPACE) + ("," + draw(WHITESPACE)).join(row_text(r) for r in rows) + draw(WHITESPACE) + "]"


@st.composite
def scenario_text(draw, numbers=SHORT_NUMBERS) -> str:
    keys = draw(number_matrix(numbers))
    d_k, n = len(keys[0]), len(keys)
    query = [draw(numbers) for _ in range(d_k)]
    values = draw(number_matrix(numbers, rows=(n, n)))
    space = draw(WHITESPACE)
    fields = [f'"query":{space}[{", ".join(query)}]', f'"keys": {draw(array_text(keys))}',
              f'"values":{draw(array_text(values))}{space}', '"title": "[1, 2], [3]"']
    return "{" + draw(WHITESPACE) + ("," + draw(WHITESPACE)).join(draw(st.permutations(fields))) + "}" + space


@PROPERTY
@given(scenario_text())
def test_short_numbers_are_read_in_bulk_bit_for_bit(text):
    data = text.encode()
    assert assert_same(data)[0] == "ok"
    assert used_bulk(data)


@PROPERTY
@given(scenario_text(ANY_NUMBERS))
def test_every_legal_spelling_reads_the_same(text):
    data = text.encode()
    assert_same(data)
    with mock.patch.object(bulknumbers, "_MAX_LONG_SHARE", 1.0):  # long numbers go through float() one by one
        if outcome(data, False)[0] == "ok":
            assert used_bulk(data)


# Changes that may make a legal file illegal (or keep it legal): the bulk path must never accept more than json.
MUTATIONS = ["+", ".", "-", "e", "E", "0", "00", " ", ",", "[", "]", "NaN", "Infinity", "-Infinity", "1e999", "0x1",
             "01", "1.", ".5", "--1", "1..2", "1.2.3", "1e5e3", "1e+", '"', "{}", "true", "\x00", "٣", "1_0", "\\"]


@PROPERTY
@given(scenario_text(), st.data())
def test_mutated_files_give_the_same_errors(text, data):
    position = data.draw(st.integers(0, len(text)))
    if data.draw(st.booleans()):
        mutated = text[:position] + data.draw(st.sampled_from(MUTATIONS)) + text[position:]
    else:
        mutated = text[:position] + text[position + 1:]
    assert_same(mutated.encode("utf-8", "surrogatepass"))


BAD_NUMBERS = ["01", "-01", "00", "-00.5", "01.5", "0123456789", "1.", ".5", "-.5", "+1", "1.e5", "1.2.3", "1..2",
               "123456.78.9", "1e5e3", "1e5.3", "1e", "1e+", "1E-", "e5", "--1", "1-2", "-", "0x1", "1_0", "NaN",
               "Infinity", "-Infinity", "1 2", "1.5.", "٣", "1e999", "-1e999", "1000000.5", "1" + "0" * 30]


@pytest.mark.parametrize("bad", BAD_NUMBERS)
def test_numbers_json_refuses_are_refused_with_its_message(bad):
    for keys in (f"[[{bad}, 2], [3, 4]]", f"[[1, 2], [3, {bad}]]", f"[[1,{bad}],[3,4]]"):
        fast = assert_same(scenario_bytes(keys))
        assert fast[0] == "error", keys
    assert assert_same(scenario_bytes("[[1, 2], [3, 4]]", query=f"[1, {bad}]"))[0] == "error"


def scenario_bytes(keys: str, extra: str = "", query: str = "[1, 2]", values: str = "[[1], [2]]") -> bytes:
    return f'{{"query": {query}, "keys": {keys}, "values": {values}{extra}}}'.encode()


@pytest.mark.parametrize("data", [
    scenario_bytes("[[1, 2], [3]]"),  # ragged rows
    scenario_bytes("[[1, 2], [3, 4, 5]]"),
    scenario_bytes("[[[1, 2]], [[3, 4]]]"),  # nested one level too deep
    scenario_bytes("[1, 2]"),  # a flat list where rows belong
    scenario_bytes("[[1, 2], [3, 4]]", query="[[1, 2]]"),  # rows where a flat list belongs
    scenario_bytes("[[1, 2], [3, 4]]", ', "keys": [[5, 6], [7, 8]]'),  # a duplicate key
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "NaN"'),  # NaN in a string
    scenario_bytes("[[1, 2], [NaN, 4]]"), scenario_bytes("[[1, 2], [1e999, 4]]"),
    scenario_bytes("[[1, 2], [-1e999, 4]]"),
    scenario_bytes("[[1, 2], [1000000.1, 4]]"), scenario_bytes("[[1, 2], [10000001, 4]]"),
    scenario_bytes("[[1, 2], [" + "9" * 5000 + ", 4]]"),  # an integer Python will not convert
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "[[1, 2], [3, 4]]"'),  # brackets and digits in a string
    scenario_bytes("[[1, 2] , [3, 4]]"), scenario_bytes("[[1 , 2], [3, 4]]"),  # whitespace before a comma
    scenario_bytes("[[1, 2], [3, 4]] 5"), scenario_bytes("[[1, 2], [3, 4]],"), scenario_bytes("[[1, 2],, [3, 4]]"),
    scenario_bytes("[[1, 2], [3, 4],]"), scenario_bytes("[[1, 2,], [3, 4]]"), scenario_bytes("[[, 1, 2], [3, 4]]"),
    scenario_bytes("[[1 2], [3, 4]]"), scenario_bytes("[[1 2, 3,, 4]]", query="[1, 2, 3, 4]"),
    scenario_bytes("[[1, 2][3, 4]]"), scenario_bytes("[[1, 2], [3, 4]"),
    scenario_bytes("[[-0, 0], [-0.0, 0.0]]"),  # json reads -0 as the integer 0
    scenario_bytes("[[1, 2], [3, 4]]", ', "pins": [{"query": [1, 2], "keys": [[1, 2]], "values": [[1]]}]'),
    b"\xef\xbb\xbf" + scenario_bytes("[[1, 2], [3, 4]]"),  # a byte order mark
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "北京"'),
    scenario_bytes("[[1, 2], [3, 4]]")[:-1] + b', "title": "\xff"}',  # not UTF-8
    b'{"query":[1,2],"values":[[1],[2]],"keys":[[1,2],[3,4]]}',  # the last number a few bytes from the end
    b'[[1, 2], [3, 4]]', b'{"keys": [[1, 2]]', b'{"keys": [[1, 2]]}}',
    scenario_bytes("[" + ", ".join(["[1, 2]"] * 20_001) + "]"),  # more lists than parse_document allows
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "' + ":" * 100_001 + '"'),  # more colons than it allows
    # Escaped quotes and backslash runs: a string ends only at a quote no backslash escapes.
    scenario_bytes("[[1, 2], [3, 4]]", r', "title": "a \"[1, 2]\" b", "description": "c:\\"'),
    scenario_bytes("[[1, 2], [3, 4]]", r', "title": "\\\\\\"[[1]]"'),
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "' + "\\\\" * 40 + '"'),  # a run past the bulk path's
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "' + "\\\\" * 40 + '\\"x"'),
    scenario_bytes("[[1, 2], [3, 4]]", ', "title": "[[1, 2]'),  # a string never closed
])
def test_hostile_and_odd_files_get_the_exact_loaders_answer(data):
    assert_same(data)


def test_sequence_files_are_read_in_bulk_too():
    document = {"kind": "sequence", "tokens": ["a", "b"], "embeddings": [[1.5, -2.25], [0.125, 3.0]],
                "w_q": [[1.0, 0.0], [0.0, 1.0]], "w_k": [[0.5, 0.25], [1.0, -1.0]], "w_v": [[1.0], [2.0]]}
    data = json.dumps(document).encode()
    for enabled in (True, False):
        with bulk(enabled):
            loaded = anykind.loads_any(data)
        assert same_bits(loaded.embeddings, np.array(document["embeddings"]))
        assert same_bits(loaded.w_k, np.array(document["w_k"]))
    assert used_bulk(data)


def test_a_large_file_is_not_parsed_by_json_whole(tmp_path):
    """A 64 × 1024 file (0.5 MB): both loaders (compute's and the window's) hand json.loads only a few hundred bytes."""
    rng = np.random.default_rng(1)
    keys, values = np.round(rng.standard_normal((64, 1024)), 3), np.round(rng.standard_normal((64, 1024)), 3)
    path = tmp_path / "large.json"
    anykind.save(fileformat.Scenario(query=np.round(rng.standard_normal(1024), 3), keys=keys, values=values), path)
    parsed = []
    real_loads = json.loads

    def recording_loads(text, **options):
        parsed.append(len(text))
        return real_loads(text, **options)

    with mock.patch.object(jsonrules.json, "loads", recording_loads):
        for load in (anykind.load_any, openfile.load_file):
            loaded = load(path)
            assert same_bits(loaded.keys, keys) and same_bits(loaded.values, values)
    assert parsed and max(parsed) < 10_000, parsed


def test_a_loaded_matrix_is_kept_and_a_callers_array_copied_even_if_read_only():
    """A matrix the reader made is not copied again by the scenario; a caller's array is, even one flagged
    read-only (its owner can make it writable again and change the scenario behind its back)."""
    flagged, writable = np.ones((2, 2)), np.ones((2, 2))
    flagged.setflags(write=False)
    scenario = fileformat.Scenario(query=np.ones(2), keys=flagged, values=writable)
    assert scenario.keys is not flagged and not np.shares_memory(scenario.keys, flagged)
    assert scenario.values is not writable and not np.shares_memory(scenario.values, writable)
    flagged.setflags(write=True)
    flagged[0, 0] = 5.0
    assert scenario.keys[0, 0] == 1.0
    adopted = []

    def recording_adopt(array):
        adopted.append(array)
        return adopt_frozen(array)

    with bulk(True), mock.patch.object(fields, "adopt_frozen", recording_adopt):
        loaded = fileformat.loads(scenario_bytes("[[1.5, 2], [3, 4]]", values="[[1, 0], [0, 1]]"))
    assert not loaded.keys.flags.writeable
    assert any(array is loaded.keys for array in adopted)  # the reader's own array, not a copy of it
    again = fileformat.Scenario(query=loaded.query, keys=loaded.keys, values=loaded.values)
    assert again.keys is loaded.keys  # shared, not copied: an edit of the query keeps the 16 MB matrices


TRICKY_TEXT = st.text(alphabet='[]{}"\\:, ab北', max_size=12)


@PROPERTY
@given(st.recursive(TRICKY_TEXT | st.integers(0, 9),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY_TEXT, inner, max_size=4),
                    max_leaves=20))
def test_brackets_are_counted_outside_strings_only(document):
    """The count that refuses a hostile file sees each list and object once, never a "[" or "{" in a string."""
    def containers(value) -> int:
        if isinstance(value, list):
            return 1 + sum(containers(item) for item in value)
        if isinstance(value, dict):
            return 1 + sum(containers(item) for item in value.values())
        return 0

    data = json.dumps(document, ensure_ascii=False).encode()
    skeleton = data.translate(None, jsonrules._NOT_STRUCTURE)
    with mock.patch.object(jsonrules, "_MAX_BRACKETS", -1):  # always the exact count, not the early answer
        assert jsonrules._count_brackets(data, skeleton) == containers(document)
