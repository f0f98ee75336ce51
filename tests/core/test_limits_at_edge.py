"""Every limit of the files, scenarios and lectures at its edge: the limit itself accepted, one past it refused.

One row per limit (tests/helpers/limit_edges.py). Each row goes through the lowest function enforcing the limit, with
the smallest input that reaches it (one key of d = 4096, 512 keys of d = 1, a 64 MiB text of spaces), so the whole
table runs in a few seconds. Numbers past a float limit are the next float (1e6 then 1000000.0000000001), so a
check that rounds or compares with >= fails here. Limits whose input would take hundreds of MB at their value are
checked at the bottom with the module's constant lowered: the comparison is the same code.
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from attention_explorer.core import limits
from attention_explorer.core.files import anykind, jsonrules
from attention_explorer.core.files.anykind import any_from_dict
from attention_explorer.core.files.bulknumbers import number_array
from attention_explorer.core.files.jsonrules import MAX_FILE_BYTES, parse_document, parse_json, read_file
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths import positional as pos
from attention_explorer.core.maths.attention import sample_dot_products
from attention_explorer.core.maths.variance import sample_dot_products_exact
from attention_explorer.core.scenes import checks
from attention_explorer.core.scenes.cross import scene as cr
from attention_explorer.core.scenes.cross.scene import CrossScenario
from attention_explorer.core.scenes.multihead import scene as mh
from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.file import scenario_from_dict
from attention_explorer.core.scenes.query.pins import Pin
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.scenes.sequence import scene as sq
from attention_explorer.core.scenes.sequence.scene import SequenceScenario
from attention_explorer.core.teaching.claims import claim_from_dict, claims_from_list
from attention_explorer.core.teaching.lecture import lecture_from_dict
from attention_explorer.core.teaching.questions import FLATTER_SHARPER, generate
from tests.helpers.limit_edges import Edge, Fallback, assert_accepted, assert_refused, none_refused, rows

MiB = 1024 * 1024
ABOVE_1E6 = math.nextafter(1e6, math.inf)  # 1000000.0000000001
BELOW_ZERO = -5e-324  # the float just below 0
ABOVE_ONE = math.nextafter(1.0, 2.0)
BELOW_ONE = math.nextafter(1.0, 0.0)
TINY = 5e-324  # the float just above 0
PYTHON_INT_DIGITS = getattr(sys, "get_int_max_str_digits", lambda: 0)()  # 4300; 0 (no limit) before 3.10.7

# ---------------------------------------------------------------- builders: the smallest input that reaches a limit


def single(**fields) -> dict:
    """A single-query document: one key of d_k = 1 unless `fields` say otherwise."""
    return {"query": [1.0], "keys": [[1.0]], "values": [[1.0]], **fields}


def read_single(**fields) -> Scenario:
    return scenario_from_dict(single(**fields))


def pin_document(**fields) -> dict:
    return {"query": [1.0], "keys": [[1.0]], "values": [[1.0]], **fields}


def scenario(n: int = 1, d_k: int = 1, d_v: int = 1, x: float = 1.0, **fields) -> Scenario:
    return Scenario(query=np.full(d_k, x), keys=np.full((n, d_k), x), values=np.full((n, d_v), x), **fields)


def tokens(n: int) -> tuple[str, ...]:
    return tuple(f"t{i}" for i in range(n))


def sequence(n: int = 1, d_model: int = 1, d_k: int = 1, d_v: int = 1, x: float = 1.0, **fields) -> SequenceScenario:
    return SequenceScenario(tokens=fields.pop("tokens", tokens(n)), embeddings=np.full((n, d_model), x),
                            w_q=np.ones((d_model, d_k)), w_k=np.ones((d_model, d_k)), w_v=np.ones((d_model, d_v)),
                            **fields)


def sequence_document(n: int = 1, d_model: int = 1, **fields) -> dict:
    return {"kind": "sequence", "tokens": list(tokens(n)), "embeddings": [[1.0] * d_model] * n,
            "w_q": [[1.0]] * d_model, "w_k": [[1.0]] * d_model, "w_v": [[1.0]] * d_model, **fields}


def multihead(heads: int = 1, d_model: int = 1, n: int = 1, x: float = 1.0, **fields) -> MultiHeadScenario:
    eye = np.eye(d_model)
    return MultiHeadScenario(tokens=fields.pop("tokens", tokens(n)), embeddings=np.full((n, d_model), x), w_q=eye,
                             w_k=eye, w_v=eye, w_o=eye, heads=heads, **fields)


def multihead_document(heads: int = 1, d_model: int = 1, n: int = 1) -> dict:
    eye = np.eye(d_model).tolist()
    return {"kind": "multihead", "tokens": list(tokens(n)), "heads": heads, "embeddings": [[1.0] * d_model] * n,
            "w_q": eye, "w_k": eye, "w_v": eye, "w_o": eye}


def cross(n_q: int = 1, n_k: int = 1, d_model: int = 1, d_k: int = 1, d_v: int = 1, x: float = 1.0,
          **fields) -> CrossScenario:
    return CrossScenario(
        target_tokens=fields.pop("target_tokens", tokens(n_q)), source_tokens=fields.pop("source_tokens", tokens(n_k)),
        target_embeddings=np.full((n_q, d_model), x), source_embeddings=np.ones((n_k, d_model)),
        w_q=np.ones((d_model, d_k)), w_k=np.ones((d_model, d_k)), w_v=np.ones((d_model, d_v)), **fields)


def cross_document(n_q: int = 1, n_k: int = 1) -> dict:
    return {"kind": "cross", "target_tokens": list(tokens(n_q)), "source_tokens": list(tokens(n_k)),
            "target_embeddings": [[1.0]] * n_q, "source_embeddings": [[1.0]] * n_k, "w_q": [[1.0]], "w_k": [[1.0]],
            "w_v": [[1.0]]}


def lecture(*scenes: dict, **fields):
    return lecture_from_dict({"kind": "lecture", "scenes": list(scenes) or [{"steps": 1}], **fields})


def first_scene(**fields):
    return lecture(fields).scenes[0]


def sized_file(size: int, check) -> int:
    """Run `check` on a sparse file of `size` bytes starting with "{}"; answer the length it read."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.json"
        with path.open("wb") as file:
            file.write(b"{}")
            file.truncate(size)
        return len(check(path))


def spaced_text(size: int) -> bytes:
    """A JSON document of exactly `size` bytes: {} and spaces (built in one allocation, parsed in C)."""
    return b"{}" + b" " * (size - 2)


def brackets_text(count: int) -> bytes:
    """A document whose structure holds exactly `count` brackets: an object, a list, count − 2 empty objects."""
    return b'{"a": [' + b",".join([b"{}"] * (count - 2)) + b"]}"


def colons_text(count: int) -> bytes:
    """A document with exactly `count` colons: one after the field name, the rest inside its string."""
    return b'{"a": "' + b":" * (count - 1) + b'"}'


def quotes_text(count: int) -> bytes:
    """`count` quote characters, and 20,001 brackets hidden in a string: legal only while the strings are told apart."""
    escaped = count % 2
    empties = (count - 6 - escaped) // 2
    data = (b'{"a": "' + b"[" * (jsonrules._MAX_BRACKETS + 1) + b'\\"' * escaped + b'", "b": ['
            + b",".join([b'""'] * empties) + b"]}")
    assert data.count(b'"') == count
    return data


def backslash_text(run: int) -> bytes:
    """A string holding a run of `run` backslashes before a quote (escaped when odd, and the string closed after it),
    then a large array that the bulk reader takes while it can: legal JSON either way."""
    return b'{"a": "x' + b"\\" * run + b'"' * (run % 2) + b'", "query": [' + b"0," * 20_000 + b"0]}"


def bulk_spans(run: int) -> int:
    none_refused(jsonrules._large_arrays(backslash_text(run)) or None, "no bulk array")
    return run


def bulk_number(value: float | int) -> float:
    data = f"[{value!r}, 0.5]".encode()
    return float(none_refused(number_array(data, 0, len(data), limits.MAX_ABS, jsonrules._MAX_BRACKETS), "bulk")[0])


def bulk_rows(count: int) -> int:
    data = b"[" + b",".join([b"[1]"] * count) + b"]"
    array = none_refused(number_array(data, 0, len(data), limits.MAX_ABS, jsonrules._MAX_BRACKETS), "bulk")
    return array.shape[0]


def pins(count: int) -> int:
    return len(read_single(pins=[pin_document(number=i + 1 if i < 3 else 1) for i in range(count)]).pins)


def pinned(count: int) -> int:
    kept = scenario()
    return len(scenario(pins=tuple(Pin(i + 1, kept) for i in range(count))).pins)


def added_pins(count: int) -> int:
    current = scenario()
    for _ in range(count):
        current = sc.with_pin_added(current)
    return len(current.pins)


def added_pairs(count: int) -> int:
    return sc.with_pair_added(scenario(n=count - 1)).n


def claims(count: int) -> int:
    return len(claims_from_list([{"weights": [1.0]}] * count, scenario()))


def claim(**fields):
    return claim_from_dict({"weights": [1.0], **fields}, 0, scenario())


def sequence_claim_row(row: int) -> int:
    return claim_from_dict({"weights": [1 / 3] * 3, "row": row}, 0, sequence(3)).row


def padding_count(count: int) -> int:
    return len(sequence(4, padding=tuple(range(count))).padding)


def offered_heads(heads: int) -> int:
    """The heads the multi-head lab offers for d_model = 272 (16 · 17): every divisor up to the limit."""
    if heads not in mh.head_counts(272):
        raise Fallback(f"h = {heads} not offered for d_model = 272")
    return heads


def removed_pin(index: int) -> int:
    """The index of the pin that went, found again from the numbers left (pins 1, 2, 3 at indices 0, 1, 2)."""
    kept = sc.with_pin_removed(scenario(pins=tuple(Pin(number, scenario()) for number in (1, 2, 3))), index).pins
    return ({1, 2, 3} - {pin.number for pin in kept}).pop() - 1


def causal_row(index: int) -> Scenario:
    causal = sequence(3, causal=True)
    return sq.query_scenario(causal, causal.compute(), index)


def cross_row(index: int) -> int:
    """The row of Q handed to the explorer, found again from its number (row i of Y is i + 1, W_Q = 1)."""
    three = cr.replace_cross(cross(3), target_embeddings=np.array([[1.0], [2.0], [3.0]]))
    return int(cr.cross_query_scenario(three, three.compute(), index).query[0]) - 1


def viewed_pair(pair: int) -> int:
    """The pair the positions lab draws, found again from its frequency θ (d = 1024)."""
    view = pos.pair_view(*pos.seeded_pair(1024, 0), 3, 1, pair)
    return int(np.flatnonzero(pos.frequencies(1024) == view.theta)[0])


def flatter_sharper(d_k: int) -> int:
    """d_k after "flatter or sharper?" grows it fourfold: grown to the limit itself, never past."""
    question = generate(FLATTER_SHARPER, scenario(n=2, d_k=d_k))
    if question.d_to < question.d_from:
        raise Fallback(f"shrinks from {question.d_from} to {question.d_to}")
    return question.d_to


# ---------------------------------------------------------------- the table

LIMITS = rows(
    # -- the file's bytes and the JSON rules (core/files/jsonrules.py)
    Edge("file text 64 MiB", "jsonrules.parse_document", MAX_FILE_BYTES, MAX_FILE_BYTES + 1,
         lambda size: parse_document(spaced_text(size), ()) == {} and size, "file is larger than 64 MiB"),
    Edge("file on disk 64 MiB", "jsonrules.read_file", MAX_FILE_BYTES, MAX_FILE_BYTES + 1,
         lambda size: sized_file(size, read_file), "file is larger than 64 MiB"),
    Edge("brackets 20000", "jsonrules.parse_document", 20_000, 20_001,
         lambda count: len(parse_document(brackets_text(count), ("a",))["a"]) + 2,
         r"20001 lists or objects, nested too deeply or far more than a scenario holds \(at most 512 keys and "
         r"values\)"),
    Edge("colons 100000", "jsonrules.parse_document", 100_000, 100_001,
         lambda count: parse_document(colons_text(count), ("a",))["a"].count(":") + 1,
         "100001 fields or colons, far more than a scenario holds"),
    Edge("quotes 100000 (brackets in strings told apart)", "jsonrules._count_brackets", 100_000, 100_001,
         lambda count: len(parse_document(quotes_text(count), ("a", "b"))["b"]) * 2 + 6,
         r"20003 lists or objects, nested too deeply .*"),
    *[Edge("integer digits 4300 (json)", "jsonrules.parse_json", 4300, 4301,
           lambda digits: len(str(parse_json("9" * digits))), "not a usable number: an integer with 4301 digits")
      ] * (PYTHON_INT_DIGITS == 4300),  # Python's own limit, which json meets first (none before 3.10.7)
    Edge("integer digits 4300 (the error path)", "jsonrules._whole_number", 4300, 4301,
         lambda digits: len(str(jsonrules._whole_number("-" + "9" * digits))) - 1,
         "not a usable number: an integer with 4301 digits"),
    Edge("backslash run 64 (bulk reader)", "jsonrules._large_arrays", 64, 65, bulk_spans,
         "no bulk array: None", Fallback),
    Edge("|x| 1e6 (bulk reader)", "bulknumbers.number_array", 1e6, ABOVE_1E6, bulk_number, "bulk: None", Fallback),
    Edge("-|x| -1e6 (bulk reader)", "bulknumbers.number_array", -1e6, -ABOVE_1E6, bulk_number, "bulk: None",
         Fallback),
    Edge("rows 20000 (bulk reader)", "bulknumbers.number_array", 20_000, 20_001, bulk_rows, "bulk: None", Fallback),
    # -- the single-query file (core/scenes/query/file.py, core/files/fields.py)
    Edge("keys 512 (file)", "fileformat.scenario_from_dict", 512, 513,
         lambda n: read_single(keys=[[1.0]] * n, values=[[1.0]] * n).n,
         "keys: expected a list of 1 to 512 rows, got 513"),
    Edge("keys at least 1 (file)", "fileformat.scenario_from_dict", 1, 0,
         lambda n: read_single(keys=[[1.0]] * n, values=[[1.0]] * n).n,
         "keys: expected a list of 1 to 512 rows, got 0"),
    Edge("d_k 4096 (file)", "fields.number_list", 4096, 4097,
         lambda d: read_single(query=[1.0] * d, keys=[[1.0] * d]).d_k, "query: expected 1 to 4096 numbers, got 4097"),
    Edge("d_k at least 1 (file)", "fields.number_list", 1, 0,
         lambda d: read_single(query=[1.0] * d, keys=[[1.0] * d]).d_k, "query: expected 1 to 4096 numbers, got 0"),
    Edge("d_v 4096 (file)", "fields.number_rows", 4096, 4097, lambda d: read_single(values=[[1.0] * d]).d_v,
         r"values\[0\]: expected 1 to 4096 numbers, got 4097"),
    Edge("d_v at least 1 (file)", "fields.number_rows", 1, 0, lambda d: read_single(values=[[1.0] * d]).d_v,
         r"values\[0\]: expected 1 to 4096 numbers, got 0"),
    Edge("|x| 1e6 float (file)", "fields.number_list", 1e6, ABOVE_1E6, lambda x: read_single(query=[x]).query[0],
         r"query\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("-|x| -1e6 float (file)", "fields.number_list", -1e6, -ABOVE_1E6, lambda x: read_single(query=[x]).query[0],
         r"query\[0\]: -1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("|x| 1000000 integer (file)", "fields.number_list", 1_000_000, 1_000_001,
         lambda x: read_single(query=[x]).query[0], r"query\[0\]: 1000001 is out of range \(\|x\| must be at most "
                                                    r"1 000 000\)"),
    Edge("|x| 1e6 in rows (file)", "fields._clean_rows", 1e6, ABOVE_1E6,
         lambda x: read_single(keys=[[x]]).keys[0, 0],
         r"keys\[0\]\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("-|x| -1e6 in rows (file)", "fields._clean_rows", -1e6, -ABOVE_1E6,
         lambda x: read_single(values=[[x]]).values[0, 0],
         r"values\[0\]\[0\]: -1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("scale 1e6 float (file)", "fields.scale_from_document", 1e6, ABOVE_1E6, lambda s: read_single(scale=s).scale,
         r"scale: 1000000.0000000001 is out of range \(0 to 1 000 000\)"),
    Edge("scale 1000000 integer (file)", "fields.scale_from_document", 1_000_000, 1_000_001,
         lambda s: read_single(scale=s).scale, r"scale: 1000001 is out of range \(0 to 1 000 000\)"),
    Edge("scale at least 0 (file)", "fields.scale_from_document", 0.0, BELOW_ZERO,
         lambda s: read_single(scale=s).scale, r"scale: -5×10⁻³²⁴ is out of range \(0 to 1 000 000\)"),
    Edge("label 64 characters (file)", "scenario.validate", 64, 65,
         lambda length: len(read_single(labels=["x" * length]).labels[0]),
         r"labels\[0\]: 65 characters, at most 64 are allowed"),
    Edge("title 200 characters (file)", "scenario.validate", 200, 201, lambda length: len(read_single(
        title="x" * length).title), "title: expected a string of at most 200 characters"),
    Edge("description 4000 characters (file)", "scenario.validate", 4000, 4001, lambda length: len(read_single(
        description="x" * length).description), "description: expected a string of at most 4000 characters"),
    Edge("pins 3 (file)", "pinfile.pins_from_list", 3, 4, pins, "pins: expected a list of at most 3 pins, got 4"),
    Edge("pin number 3 (file)", "pinfile._pin_from_dict", 3, 4,
         lambda number: read_single(pins=[pin_document(number=number)]).pins[0].number,
         r"pins\[0\]\.number: expected a whole number from 1 to 3 that no other pin has, got 4"),
    Edge("pin number at least 1 (file)", "pinfile._pin_from_dict", 1, 0,
         lambda number: read_single(pins=[pin_document(number=number)]).pins[0].number,
         r"pins\[0\]\.number: expected a whole number from 1 to 3 that no other pin has, got 0"),
    Edge("pin name 64 characters (file)", "scenario._check_pins", 64, 65,
         lambda length: len(read_single(pins=[pin_document(name="x" * length)]).pins[0].name),
         r"pins\[0\]\.name: 65 characters, at most 64 are allowed"),
    Edge("claims 64 (file)", "claims.claims_from_list", 64, 65, claims,
         "claims: expected a list of at most 64 claims, got 65"),
    Edge("claim factor 1e6", "claims.claim_from_dict", 1e6, ABOVE_1E6,
         lambda f: claim(after="factor", factor=f).factor,
         r"claims\[0\]\.factor: expected a number from 0 to 1 000 000, got 1000000.0000000001"),
    Edge("claim factor at least 0", "claims.claim_from_dict", 0.0, BELOW_ZERO,
         lambda f: claim(after="factor", factor=f).factor,
         r"claims\[0\]\.factor: expected a number from 0 to 1 000 000, got -5×10⁻³²⁴"),
    Edge("claim tolerance 1", "claims.claim_from_dict", 1.0, ABOVE_ONE, lambda t: claim(tolerance=t).tolerance,
         r"claims\[0\]\.tolerance: expected a number above 0 and at most 1, got 1.0000000000000002"),
    Edge("claim tolerance above 0", "claims.claim_from_dict", TINY, 0.0, lambda t: claim(tolerance=t).tolerance,
         r"claims\[0\]\.tolerance: expected a number above 0 and at most 1, got 0"),
    Edge("claim row n − 1", "claims.claim_from_dict", 2, 3, sequence_claim_row,
         r"claims\[0\]\.row: expected a whole number from 0 to 2, got 3"),
    Edge("claim row at least 0", "claims.claim_from_dict", 0, -1, sequence_claim_row,
         r"claims\[0\]\.row: expected a whole number from 0 to 2, got -1"),
    # -- the scenario itself (core/scenes/query/scene.py: validate and the edits)
    Edge("keys 512", "scenario.validate", 512, 513, lambda n: scenario(n=n).n, "keys: expected 1 to 512 rows"),
    Edge("keys at least 1", "scenario.validate", 1, 0, lambda n: scenario(n=n).n, "keys: expected 1 to 512 rows"),
    Edge("d_k 4096", "scenario.validate", 4096, 4097, lambda d: scenario(d_k=d).d_k,
         "query: expected 1 to 4096 numbers"),
    Edge("d_v 4096", "scenario.validate", 4096, 4097, lambda d: scenario(d_v=d).d_v,
         "values: expected rows of 1 to 4096 numbers"),
    Edge("|x| 1e6", "scenario._check_numbers", 1e6, ABOVE_1E6, lambda x: scenario(x=x).keys[0, 0],
         r"query\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("-|x| -1e6", "scenario._check_numbers", -1e6, -ABOVE_1E6, lambda x: scenario(x=x).keys[0, 0],
         r"query\[0\]: -1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("label 64 characters", "scenario.validate", 64, 65, lambda length: len(scenario(labels=("x" * length,))
                                                                                .labels[0]),
         r"labels\[0\]: 65 characters, at most 64 are allowed"),
    Edge("title 200 characters", "scenario.validate", 200, 201, lambda length: len(scenario(title="x" * length).title),
         "title: expected a string of at most 200 characters"),
    Edge("description 4000 characters", "scenario.validate", 4000, 4001,
         lambda length: len(scenario(description="x" * length).description),
         "description: expected a string of at most 4000 characters"),
    Edge("scale 1e6", "scenario.validate", 1e6, ABOVE_1E6, lambda s: scenario(scale=s).scale,
         r"scale: 1000000.0000000001 is out of range \(0 to 1 000 000\)"),
    Edge("scale at least 0", "scenario.validate", 0.0, BELOW_ZERO, lambda s: scenario(scale=s).scale,
         r"scale: -5×10⁻³²⁴ is out of range \(0 to 1 000 000\)"),
    Edge("pins 3", "scenario._check_pins", 3, 4, pinned, "pins: at most 3 pins, got 4"),
    Edge("pin number 3", "scenario._check_pins", 3, 4, lambda number: scenario(pins=(Pin(number, scenario()),))
         .pins[0].number, r"pins\[0\]\.number: expected a whole number from 1 to 3 that no other pin has"),
    Edge("pin number at least 1", "scenario._check_pins", 1, 0, lambda number: scenario(
        pins=(Pin(number, scenario()),)).pins[0].number,
         r"pins\[0\]\.number: expected a whole number from 1 to 3 that no other pin has"),
    Edge("pin name 64 characters", "scenario._check_pins", 64, 65, lambda length: len(scenario(
        pins=(Pin(1, scenario(), "x" * length),)).pins[0].name), r"pins\[0\]\.name: 65 characters, at most 64 are "
                                                                 r"allowed"),
    Edge("pairs 512 (add a pair)", "scenario.with_pair_added", 512, 513, added_pairs,
         "at most 512 key–value pairs are allowed"),
    Edge("d_k 4096 (resize)", "scenario.with_d_k", 4096, 4097, lambda d: sc.with_d_k(scenario(), d).d_k,
         r"dimension 4097 is out of range \(1 to 4096\)"),
    Edge("d_k at least 1 (resize)", "scenario.with_d_k", 1, 0, lambda d: sc.with_d_k(scenario(d_k=2), d).d_k,
         r"dimension 0 is out of range \(1 to 4096\)"),
    Edge("d_v 4096 (resize)", "scenario.with_d_v", 4096, 4097, lambda d: sc.with_d_v(scenario(), d).d_v,
         r"dimension 4097 is out of range \(1 to 4096\)"),
    Edge("pins 3 (pin the scene)", "scenario.with_pin_added", 3, 4, added_pins,
         "at most 3 pins: remove one before pinning another"),
    Edge("|x| 1e6 (type a number)", "scenario.with_component", 1e6, ABOVE_1E6,
         lambda x: sc.with_component(scenario(), "key", 0, 0, x).keys[0, 0],
         r"keys\[0\]\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("question grows d_k to 4096", "questions.generate", 4 * 1024, 4 * 1025, lambda d: flatter_sharper(d // 4),
         "shrinks from 1025 to 256", Fallback),
    # -- indices: the last one accepted, one more refused (an edit, a pin, a row handed to the explorer)
    Edge("key index n − 1", "scenario._check_role", 2, 3, lambda i: sc.with_component(scenario(n=3), "key", i, 0, 5.0)
         .keys[:, 0].tolist().index(5.0), r"key index 3 is out of range \(there are 3 pairs\)"),
    Edge("component index d − 1", "scenario.with_component", 2, 3,
         lambda c: sc.with_component(scenario(d_k=3), "query", 0, c, 5.0).query.tolist().index(5.0),
         r"component 3 is out of range \(the vector has 3\)"),
    Edge("pin index", "scenario.with_pin_removed", 2, 3, removed_pin,
         r"pin index 3 is out of range \(there are 3 pins\)"),
    Edge("sequence token to the explorer", "sequence.query_scenario", 2, 3,
         lambda i: causal_row(i).n - 1,  # causal: row i looks at i + 1 keys
         r"token index 3 is out of range \(there are 3 tokens\)"),
    Edge("sequence cell row", "sequence.with_block", 2, 3,
         lambda row: sq.with_cell(sequence(3), "embeddings", row, 0, 5.0).embeddings[:, 0].tolist().index(5.0),
         r"embeddings: a 1 × 1 block at row 4, column 1 does not fit in 3 × 1"),
    Edge("sequence cell column", "sequence.with_block", 2, 3,
         lambda column: sq.with_cell(sequence(d_k=3), "w_q", 0, column, 5.0).w_q[0].tolist().index(5.0),
         r"w_q: a 1 × 1 block at row 1, column 4 does not fit in 1 × 3"),
    Edge("cross target token to the explorer", "cross.cross_query_scenario", 2, 3, cross_row,
         r"target token index 3 is out of range \(there are 3 target tokens\)"),
    Edge("cross cell row", "cross.with_cross_cell", 2, 3, lambda row: cr.with_cross_cell(
        cross(3), "target_embeddings", row, 0, 5.0).target_embeddings[:, 0].tolist().index(5.0),
         r"target_embeddings: there is no cell \(4, 1\) in 3 × 1"),
    Edge("multi-head head h − 1", "multihead.check_head_and_row", 3, 4,
         lambda head: mh.check_head_and_row(multihead(4, 4), head, 0) or head,
         r"head 4 is out of range \(there are 4 heads\)"),
    Edge("multi-head row n − 1", "multihead.check_head_and_row", 2, 3,
         lambda row: mh.check_head_and_row(multihead(n=3), 0, row) or row,
         r"token index 3 is out of range \(there are 3 tokens\)"),
    Edge("dot-product samples d_k at least 1", "attention.sample_dot_products", 1, 0,
         lambda d: sample_dot_products(d, 1, 0).d_k, "d_k and samples must be at least 1", ValueError),
    Edge("dot-product samples at least 1", "attention.sample_dot_products", 1, 0,
         lambda n: sample_dot_products(1, n, 0).raw.size, "d_k and samples must be at least 1", ValueError),
    Edge("exact samples d_k at least 1", "variance.sample_dot_products_exact", 1, 0,
         lambda d: sample_dot_products_exact(d, 1, 0).d_k, "d_k and samples must be at least 1", ValueError),
    Edge("exact samples at least 1", "variance.sample_dot_products_exact", 1, 0,
         lambda n: sample_dot_products_exact(1, n, 0).raw.size, "d_k and samples must be at least 1", ValueError),
    # -- self-attention (core/scenes/sequence/scene.py, core/maths/masks.py, core/scenes/sequence/file.py)
    Edge("tokens 512", "sequence.check_tokens", 512, 513, lambda n: sequence(n).n,
         "tokens: expected 1 to 512 tokens, got 513"),
    Edge("tokens at least 1", "sequence.check_tokens", 1, 0, lambda n: sequence(n).n,
         "tokens: expected 1 to 512 tokens, got 0"),
    Edge("token 64 characters", "sequence.check_tokens", 64, 65,
         lambda length: len(sequence(tokens=("x" * length,)).tokens[0]),
         r"tokens\[0\]: 65 characters, at most 64 are allowed"),
    Edge("token at least 1 character", "sequence.check_tokens", 1, 0,
         lambda length: len(sequence(tokens=("x" * length,)).tokens[0]),
         r"tokens\[0\]: empty; every token needs at least one character"),
    Edge("tokens 512 (file)", "sequence_file.sequence_from_dict", 512, 513,
         lambda n: any_from_dict(sequence_document(n)).n, "tokens: expected a list of 1 to 512 strings, got 513"),
    Edge("d_model 4096 (file)", "fields.number_rows", 4096, 4097,
         lambda d: any_from_dict(sequence_document(d_model=d)).d_model,
         r"embeddings\[0\]: expected 1 to 4096 numbers, got 4097"),
    Edge("sequence d_model 4096", "sequence._check_shape", 4096, 4097, lambda d: sequence(d_model=d).d_model,
         r"embeddings: expected rows of 1 to 4096 numbers \(d_model\), got 4097"),
    Edge("sequence d_k 4096", "sequence._check_shape", 4096, 4097, lambda d: sequence(d_k=d).d_k,
         r"w_q: expected rows of 1 to 4096 numbers \(d_k\), got 4097"),
    Edge("sequence d_v 4096", "sequence._check_shape", 4096, 4097, lambda d: sequence(d_v=d).d_v,
         r"w_v: expected rows of 1 to 4096 numbers \(d_v\), got 4097"),
    Edge("sequence |x| 1e6", "scenario._check_numbers", 1e6, ABOVE_1E6, lambda x: sequence(x=x).embeddings[0, 0],
         r"embeddings\[0\]\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("sequence scale 1e6", "sequence.validate_sequence", 1e6, ABOVE_1E6, lambda s: sequence(scale=s).scale,
         r"scale: 1000000.0000000001 is out of range \(0 to 1 000 000\)"),
    Edge("sequence title 200 characters", "sequence.validate_sequence", 200, 201,
         lambda length: len(sequence(title="x" * length).title), "title: expected a string of at most 200 characters"),
    Edge("sequence description 4000 characters", "sequence.validate_sequence", 4000, 4001,
         lambda length: len(sequence(description="x" * length).description),
         "description: expected a string of at most 4000 characters"),
    Edge("build d_model 4096", "sequence.build_sequence", 4096, 4097,
         lambda d: sq.build_sequence(["a"], d, 1, 1).d_model,
         "d_model: expected a whole number from 1 to 4096, got 4097"),
    Edge("build d_k 4096", "sequence.build_sequence", 4096, 4097, lambda d: sq.build_sequence(["a"], 1, d, 1).d_k,
         "d_k: expected a whole number from 1 to 4096, got 4097"),
    Edge("build d_v 4096", "sequence.build_sequence", 4096, 4097, lambda d: sq.build_sequence(["a"], 1, 1, d).d_v,
         "d_v: expected a whole number from 1 to 4096, got 4097"),
    Edge("build sizes at least 1", "sequence.build_sequence", 1, 0, lambda d: sq.build_sequence(["a"], d, 1, 1).d_model,
         "d_model: expected a whole number from 1 to 4096, got 0"),
    Edge("padding n − 1 of n tokens", "masks.check_padding", 3, 4, padding_count,
         "padding: every token is padded; at least one must stay for the queries to look at"),
    Edge("padding position n − 1", "masks.check_padding", 3, 4, lambda p: sequence(4, padding=(p,)).padding[0],
         r"padding\[0\]: position 4 is out of range \(there are 4 tokens, from 0 to 3\)"),
    Edge("padding position at least 0", "masks.check_padding", 0, -1, lambda p: sequence(4, padding=(p,)).padding[0],
         r"padding\[0\]: position -1 is out of range \(there are 4 tokens, from 0 to 3\)"),
    # -- multi-head (core/scenes/multihead/scene.py, file.py); d_model 272 = 16 · 17 so only the limit refuses 17
    Edge("heads 16", "multihead.check_heads", 16, 17, lambda h: multihead(h, 272).heads,
         "heads: expected 1 to 16 heads, got 17"),
    Edge("heads at least 1", "multihead.check_heads", 1, 0, lambda h: multihead(h, 272).heads,
         "heads: expected 1 to 16 heads, got 0"),
    Edge("heads 16 (file)", "multihead_format.multihead_from_dict", 16, 17,
         lambda h: any_from_dict(multihead_document(h, 272)).heads, "heads: expected 1 to 16 heads, got 17"),
    Edge("heads offered 16", "multihead.head_counts", 16, 17,
         offered_heads, "h = 17 not offered for d_model = 272", Fallback),
    Edge("multi-head d_model 4096", "multihead.check_d_model", 4096, 4097, lambda d: mh.check_d_model(d, 1) or d,
         r"d_model: expected a whole number from 1 to 4096, got 4097"),
    Edge("multi-head d_model at least 1", "multihead.check_d_model", 1, 0, lambda d: mh.check_d_model(d, 1) or d,
         r"d_model: expected a whole number from 1 to 4096, got 0"),
    Edge("multi-head tokens 512", "sequence.check_tokens", 512, 513, lambda n: multihead(n=n).n,
         "tokens: expected 1 to 512 tokens, got 513"),
    Edge("multi-head tokens 512 (file)", "multihead_format.multihead_from_dict", 512, 513,
         lambda n: any_from_dict(multihead_document(n=n)).n, "tokens: expected a list of 1 to 512 strings, got 513"),
    Edge("multi-head scale 1e6", "multihead.validate_settings", 1e6, ABOVE_1E6, lambda s: multihead(scale=s).scale,
         r"scale: 1000000.0000000001 is out of range \(0 to 1 000 000\)"),
    Edge("multi-head title 200 characters", "multihead.validate_settings", 200, 201,
         lambda length: len(multihead(title="x" * length).title), "title: expected a string of at most 200 characters"),
    Edge("multi-head description 4000 characters", "multihead.validate_settings", 4000, 4001,
         lambda length: len(multihead(description="x" * length).description),
         "description: expected a string of at most 4000 characters"),
    # -- cross-attention (core/scenes/cross/scene.py, core/scenes/cross/file.py)
    Edge("target tokens 512", "cross.check_token_list", 512, 513, lambda n: cross(n_q=n).n_q,
         "target_tokens: expected 1 to 512 tokens, got 513"),
    Edge("source tokens 512", "cross.check_token_list", 512, 513, lambda n: cross(n_k=n).n_k,
         "source_tokens: expected 1 to 512 tokens, got 513"),
    Edge("source tokens at least 1", "cross.check_token_list", 1, 0, lambda n: cross(n_k=n).n_k,
         "source_tokens: expected 1 to 512 tokens, got 0"),
    Edge("target tokens 512 (file)", "cross_file._tokens", 512, 513, lambda n: any_from_dict(cross_document(n_q=n)).n_q,
         "target_tokens: expected a list of 1 to 512 strings, got 513"),
    Edge("source tokens 512 (file)", "cross_file._tokens", 512, 513, lambda n: any_from_dict(cross_document(n_k=n)).n_k,
         "source_tokens: expected a list of 1 to 512 strings, got 513"),
    Edge("cross token 64 characters", "cross.check_token_list", 64, 65,
         lambda length: len(cross(target_tokens=("x" * length,)).target_tokens[0]),
         r"target_tokens\[0\]: 65 characters, a token has 1 to 64"),
    Edge("cross token at least 1 character", "cross.check_token_list", 1, 0,
         lambda length: len(cross(source_tokens=("x" * length,)).source_tokens[0]),
         r"source_tokens\[0\]: 0 characters, a token has 1 to 64"),
    Edge("cross d_model 4096", "sequence._check_shape", 4096, 4097, lambda d: cross(d_model=d).d_model,
         r"source_embeddings: expected rows of 1 to 4096 numbers \(d_model\), got 4097"),
    Edge("cross d_k 4096", "sequence._check_shape", 4096, 4097, lambda d: cross(d_k=d).d_k,
         r"w_q: expected rows of 1 to 4096 numbers \(d_k\), got 4097"),
    Edge("cross d_v 4096", "sequence._check_shape", 4096, 4097, lambda d: cross(d_v=d).d_v,
         r"w_v: expected rows of 1 to 4096 numbers \(d_v\), got 4097"),
    Edge("cross |x| 1e6", "scenario._check_numbers", 1e6, ABOVE_1E6, lambda x: cross(x=x).target_embeddings[0, 0],
         r"target_embeddings\[0\]\[0\]: 1000000.0000000001 is out of range \(\|x\| must be at most 1 000 000\)"),
    Edge("cross scale 1e6", "cross.validate_cross", 1e6, ABOVE_1E6, lambda s: cross(scale=s).scale,
         r"scale: 1000000.0000000001 is out of range \(0 to 1 000 000\)"),
    Edge("cross title 200 characters", "cross.validate_cross", 200, 201,
         lambda length: len(cross(title="x" * length).title), "title: expected a string of at most 200 characters"),
    Edge("cross description 4000 characters", "cross.validate_cross", 4000, 4001,
         lambda length: len(cross(description="x" * length).description),
         "description: expected a string of at most 4000 characters"),
    # -- lecture scripts (core/teaching/lecture.py)
    Edge("lecture scenes 200", "lecture.lecture_from_dict", 200, 201, lambda n: len(lecture(*[{"steps": 1}] * n)
                                                                                      .scenes),
         "scenes: expected a list of 1 to 200 scenes, got 201"),
    Edge("lecture scenes at least 1", "lecture.lecture_from_dict", 1, 0,
         lambda n: len(lecture_from_dict({"kind": "lecture", "scenes": [{"steps": 1}] * n}).scenes),
         "scenes: expected a list of 1 to 200 scenes, got 0"),
    Edge("lecture steps 4", "lecture.scene_from_dict", 4, 5, lambda steps: first_scene(steps=steps).steps,
         r"scenes\[0\]\.steps: expected a whole number from 1 to 4, got 5"),
    Edge("lecture steps at least 1", "lecture.scene_from_dict", 1, 0, lambda steps: first_scene(steps=steps).steps,
         r"scenes\[0\]\.steps: expected a whole number from 1 to 4, got 0"),
    Edge("lecture title 200 characters", "lecture._texts", 200, 201,
         lambda length: len(lecture(title="x" * length).title[0][1]), "title: 201 characters, at most 200 allowed"),
    Edge("lecture title 200 characters per language", "lecture._texts", 200, 201,
         lambda length: len(lecture(title={"zh_CN": "标" * length}).title[0][1]),
         r"title\.zh_CN: 201 characters, at most 200 allowed"),
    Edge("lecture caption 1000 characters", "lecture._texts", 1000, 1001,
         lambda length: len(first_scene(caption="x" * length).caption[0][1]),
         r"scenes\[0\]\.caption: 1001 characters, at most 1000 allowed"),
    Edge("lecture caption 1000 characters per language", "lecture._texts", 1000, 1001,
         lambda length: len(first_scene(caption={"en": "x" * length}).caption[0][1]),
         r"scenes\[0\]\.caption\.en: 1001 characters, at most 1000 allowed"),
    Edge("lecture pin name 64 characters", "lecture.scene_from_dict", 64, 65,
         lambda length: len(first_scene(pin="x" * length).pin),
         r"scenes\[0\]\.pin: expected a name of 1 to 64 characters, got 65 characters"),
    Edge("lecture pin name at least 1 character", "lecture.scene_from_dict", 1, 0,
         lambda length: len(first_scene(pin="x" * length).pin),
         r"scenes\[0\]\.pin: expected a name of 1 to 64 characters, got 0 characters"),
    Edge("lecture scale 1e6 float", "lecture._scale", 1e6, ABOVE_1E6, lambda s: first_scene(scale=s).scale,
         # The message rounds the value with {:g} (the other readers show 1000000.0000000001): either reads here.
         r"scenes\[0\]\.scale: 1(e\+06|000000\.0000000001) is out of range \(0 to 1 000 000\)"),
    Edge("lecture scale 1000000 integer", "lecture._scale", 1_000_000, 1_000_001,
         lambda s: first_scene(scale=s).scale, r"scenes\[0\]\.scale: 1000001 is out of range \(0 to 1 000 000\)"),
    Edge("lecture scale at least 0", "lecture._scale", 0.0, BELOW_ZERO, lambda s: first_scene(scale=s).scale,
         r"scenes\[0\]\.scale: -5×10⁻³²⁴ is out of range \(0 to 1 000 000\)"),
    # -- positions and q·k (core/maths/positional.py)
    Edge("positional d 1024", "positional.check_d", 1024, 1026, lambda d: pos.frequencies(d).size * 2,
         r"d: expected an even whole number from 2 to 1024 \(pairs of sin and cos\), got 1026"),
    Edge("positional d at least 2", "positional.check_d", 2, 0, lambda d: pos.frequencies(d).size * 2,
         r"d: expected an even whole number from 2 to 1024 \(pairs of sin and cos\), got 0"),
    Edge("positional pair d/2 − 1", "positional.pair_view", 511, 512, viewed_pair, "pair: expected 0 to 511, got 512"),
    Edge("positional pair at least 0", "positional.pair_view", 0, -1, viewed_pair, "pair: expected 0 to 511, got -1"),
    Edge("position 4096", "positional.check_position", 4096, 4097, lambda p: pos.check_position(p, "m") or p,
         "m: expected a whole number from 0 to 4096, got 4097"),
    Edge("position at least 0", "positional.check_position", 0, -1, lambda p: pos.check_position(p, "m") or p,
         "m: expected a whole number from 0 to 4096, got -1"),
)


@pytest.mark.parametrize("edge", LIMITS)
def test_the_limit_itself_is_accepted(edge):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", LIMITS)
def test_one_past_the_limit_is_refused_with_its_message(edge):
    assert_refused(edge)


def test_the_table_names_the_limits_the_code_declares():
    """A limit's value changed in the code fails here first, with both numbers named."""
    declared = {
        "MAX_FILE_BYTES": (jsonrules.MAX_FILE_BYTES, 64 * MiB), "_MAX_BRACKETS": (jsonrules._MAX_BRACKETS, 20_000),
        "_MAX_COLONS": (jsonrules._MAX_COLONS, 100_000), "_MAX_QUOTES": (jsonrules._MAX_QUOTES, 100_000),
        "_INT_DIGITS_LIMIT": (jsonrules._INT_DIGITS_LIMIT, 4300),
        "_MAX_BACKSLASH_RUN": (jsonrules._MAX_BACKSLASH_RUN, 64),
        "MAX_KEYS": (limits.MAX_KEYS, 512), "MAX_DIM": (limits.MAX_DIM, 4096), "MAX_ABS": (limits.MAX_ABS, 1e6),
        "MAX_SCALE": (limits.MAX_SCALE, 1e6), "MAX_LABEL": (limits.MAX_LABEL, 64), "MAX_TITLE": (limits.MAX_TITLE, 200),
        "MAX_DESCRIPTION": (limits.MAX_DESCRIPTION, 4000), "MAX_PINS": (limits.MAX_PINS, 3),
        "MAX_TOKENS": (limits.MAX_TOKENS, 512), "MAX_TOKEN": (limits.MAX_TOKEN, 64), "MAX_HEADS": (mh.MAX_HEADS, 16),
        "MAX_POSITION": (pos.MAX_POSITION, 4096), "MAX_D": (pos.MAX_D, 1024),
    }
    from attention_explorer.core.teaching import claims as cl
    from attention_explorer.core.teaching import lecture as lc
    declared |= {"MAX_CLAIMS": (cl.MAX_CLAIMS, 64), "MAX_SCENES": (lc.MAX_SCENES, 200),
                 "MAX_CAPTION": (lc.MAX_CAPTION, 1000), "lecture MAX_TITLE": (lc.MAX_TITLE, 200),
                 "MAX_PIN_NAME": (lc.MAX_PIN_NAME, 64), "STEP_COUNT": (lc.STEP_COUNT, 4)}
    changed = {name: values for name, values in declared.items() if values[0] != values[1]}
    assert not changed, f"(code, table): {changed}"
    assert PYTHON_INT_DIGITS in (0, jsonrules._INT_DIGITS_LIMIT)  # Python's own limit, as json meets it


def test_numbers_at_the_limits_take_the_fast_paths(monkeypatch):
    """±1e6 everywhere, rows of 4096: read in bulk and checked once, never walked number by number (a walk would
    accept them too, five times slower at the format's limits, so only this test sees a fast path lose its edge)."""
    from attention_explorer.core.files import fields
    walked = []
    original = fields.number_list
    monkeypatch.setattr(fields, "number_list", lambda raw, place, *rest: walked.append(place) or original(
        raw, place, *rest))
    read = fields.number_rows([[1e6, -1e6], [-1_000_000, 1_000_000]], "keys", 2, "d_k")
    wide = fields.number_rows([[1e6] * 4096, [-1e6] * 4096], "values", None, "d_v")  # d_v = 4096: no walk either
    assert walked == [] and np.array_equal(read, [[1e6, -1e6], [-1e6, 1e6]]) and wide.shape == (2, 4096)
    cleaned = []
    clean_rows = fields._clean_rows
    monkeypatch.setattr(fields, "_clean_rows", lambda raw, width: cleaned.append(len(raw)) or clean_rows(raw, width))
    row = ", ".join(["1000000", "-1000000"] * 2048)  # d = 4096, every number at the limit
    text = f'{{"query": [{row}], "keys": [[{row}], [{row}]], "values": [[{row}], [{row}]]}}'
    loaded = fileformat.loads(text)  # the matrices in bulk (core/files/bulknumbers.py), no row walked
    assert walked == [] and cleaned == [] and (loaded.d_k, loaded.d_v, loaded.n) == (4096, 4096, 2)
    assert loaded.keys.max() == 1e6 and loaded.values.min() == -1e6
    assert sc._ours(loaded.keys, sc._CHECKED) and sc._ours(loaded.values, sc._CHECKED)  # in range in one pass
    data = ("[" + ", ".join(["1000000, -1000000"] * 20_000) + "]").encode()
    bulk = number_array(data, 0, len(data), limits.MAX_ABS, jsonrules._MAX_BRACKETS)
    assert bulk is not None and bulk.max() == 1e6 and bulk.min() == -1e6


def test_a_number_at_the_limit_before_a_bad_one_is_not_the_one_named():
    """Past the one-pass check each number is compared again to find the first bad one: 1e6 is not it."""
    with pytest.raises(ScenarioError, match=r"^query\[1\]: NaN is not allowed \(every number must be finite\)$"):
        Scenario(query=[1e6, math.nan], keys=[[1.0, 1.0]], values=[[1.0]])
    with pytest.raises(ScenarioError, match=r"^keys\[0\]\[2\]: -1000000.0000000001 is out of range"):
        Scenario(query=[1.0, 1.0, 1.0], keys=[[-1e6, 1e6, -ABOVE_1E6]], values=[[1.0]])


# ---------------------------------------------------------------- limits lowered to a size that can be built


def score_edge(kind: str, above: bool = False):
    """A scenario of that kind whose score bound is exactly 4 (d = 1, weights 1, scale 1), or a little more."""
    if kind == "cross":  # q·k = y · x with only the target's y changed: 4 · 1
        return cross(x=math.nextafter(4.0, 5.0) if above else 4.0)
    x = math.nextafter(2.0, 3.0) if above else 2.0  # the same x in the query and the key: x · x
    return sequence(x=x) if kind == "sequence" else multihead(x=x)


@pytest.mark.parametrize("kind", ["sequence", "multihead", "cross"])
def test_the_score_bound_accepts_scores_that_reach_it_exactly(kind, monkeypatch):
    """MAX_SCORE (1e300) is out of reach of legal numbers (7e40 at most), so the comparison is tested at 4."""
    assert limits.MAX_SCORE == 1e300
    monkeypatch.setattr(checks, "MAX_SCORE", 4.0)  # the one check every kind's scene makes
    assert score_edge(kind).compute().scores.max() == 4.0  # at the bound
    with pytest.raises(ScenarioError, match=r"^the scores could reach 4, too large to compute safely; use smaller "
                                            r"numbers$"):
        score_edge(kind, above=True)


def test_multi_head_d_model_at_its_limit_is_accepted_and_one_more_refused(monkeypatch):
    """At d_model = 4096 the four d_model × d_model weights take 512 MB: the same check is tested at 8."""
    monkeypatch.setattr(mh, "MAX_DIM", 8)
    assert multihead(heads=8, d_model=8).d_model == 8
    with pytest.raises(ScenarioError, match=r"^embeddings: expected rows of 1 to 8 numbers \(d_model\), got 9$"):
        multihead(heads=1, d_model=9)


def test_saving_a_file_of_exactly_the_limit_writes_it_whole_and_one_byte_more_is_refused(tmp_path, monkeypatch):
    """A 64 MiB save takes seconds: the limit is lowered to the size of a small scenario's text."""
    kept = scenario(n=3, d_k=2, title="edge")
    text = anykind.dumps(kept).encode("utf-8")
    path = tmp_path / "edge.json"
    monkeypatch.setattr(anykind, "MAX_FILE_BYTES", len(text))
    anykind.save(kept, path)
    assert path.read_bytes() == text and fileformat.load(path) == kept
    monkeypatch.setattr(anykind, "MAX_FILE_BYTES", len(text) - 1)
    other = tmp_path / "other.json"
    with pytest.raises(ScenarioError, match=r"^the file would take 0 MiB, more than the 0 MiB a scenario file may "
                                            r"have; use fewer keys or smaller dimensions$"):
        anykind.save(kept, other)
    assert not other.exists() and list(tmp_path.iterdir()) == [path]  # no temporary file left either
