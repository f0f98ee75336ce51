"""The scenario file: what loads, what is refused (with its place), atomic exact saving, and the pure edits."""

import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attention_explorer.core import limits, messages
from attention_explorer.core.files import anykind
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.scene import Scenario
from tests.helpers import budget

LIBRARY = {
    "format": "attention-explorer/1",
    "title": "Library lookup",
    "query": [1, 0, 1, 0],
    "keys": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]],
    "values": [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]],
    "labels": ["K1", "K2", "K3"],
    "scale": "inv_sqrt_dk",
}


def document(**changes):
    """The issue's example file with some fields replaced (None removes a field)."""
    doc = dict(LIBRARY)
    for name, value in changes.items():
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value
    return doc


def refused(text_or_doc) -> str:
    """The ScenarioError message for a document (or raw text)."""
    text = text_or_doc if isinstance(text_or_doc, (str, bytes)) else json.dumps(text_or_doc, ensure_ascii=False)
    with pytest.raises(ScenarioError) as caught:
        fileformat.loads(text)
    return str(caught.value)


# ---------------------------------------------------------------- what loads


def test_the_issue_example_loads():
    """Every field of the example arrives as given; d_v may differ from d_k."""
    scenario = fileformat.loads(json.dumps(LIBRARY))
    assert scenario.query.tolist() == [1, 0, 1, 0]
    assert scenario.keys.tolist() == LIBRARY["keys"]
    assert scenario.values.tolist() == LIBRARY["values"]
    assert (scenario.d_k, scenario.d_v, scenario.n) == (4, 2, 3)
    assert scenario.labels == ("K1", "K2", "K3")
    assert scenario.title == "Library lookup"
    assert scenario.scale is None and scenario.effective_scale == 0.5


def test_only_query_keys_values_are_required():
    """Labels default to K1…KN, the scale to 1/√d_k, title and description to empty."""
    scenario = fileformat.loads('{"query": [3], "keys": [[1], [2]], "values": [[5, 6, 7], [8, 9, 10]]}')
    assert scenario.labels == ("K1", "K2")
    assert scenario.title == "" and scenario.description == ""
    assert scenario.scale is None and scenario.effective_scale == 1.0
    assert scenario.d_v == 3


def test_numeric_scale_and_description():
    """A number ≥ 0 is a manual factor (0 allowed: uniform weights); the description is kept."""
    scenario = fileformat.loads(json.dumps(document(scale=0, description="Why this example matters.")))
    assert scenario.scale == 0.0 and scenario.effective_scale == 0.0
    assert scenario.compute().weights.tolist() == pytest.approx([1 / 3] * 3)
    assert scenario.description == "Why this example matters."
    assert fileformat.loads(json.dumps(document(scale=2.5))).effective_scale == 2.5


def test_the_automatic_factor_is_known_whatever_the_scale():
    """d_k = 4: the automatic factor 1/√4 = 0.5 for a manual scale too (the scale controls show it)."""
    assert fileformat.loads(json.dumps(document(scale=2.5))).auto_scale == 0.5
    assert fileformat.loads(json.dumps(document())).auto_scale == 0.5


def test_utf8_bom_and_chinese_labels_load():
    """Editors on Windows write a byte-order mark; Chinese labels are ordinary text."""
    text = json.dumps(document(labels=["我", "爱", "北京"]), ensure_ascii=False)
    scenario = fileformat.loads(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert scenario.labels == ("我", "爱", "北京")


def test_limits_are_inclusive():
    """512 keys, 64-character labels and |x| = 1e6 are all allowed."""
    n = limits.MAX_KEYS
    doc = document(
        query=[1e6, -1e6], keys=[[1, 0]] * n, values=[[0.5]] * n, labels=["x" * limits.MAX_LABEL] * n,
    )
    scenario = fileformat.loads(json.dumps(doc))
    assert scenario.n == n
    assert float(scenario.compute().weights.sum()) == pytest.approx(1.0)


# ---------------------------------------------------------------- what is refused, and where


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (document(keys=[[1, 0, 1, 0], [0, 1, 0], [1, 0, 0, 0]]), "keys[1]: expected 4 numbers (d_k = 4), got 3"),
        (document(query=[1, 0, float("nan"), 0]), "query[2]: NaN is not allowed"),
        (document(values=[[0.8, 0.2], [0.3, float("inf")], [0.1, 0.9]]), "values[1][1]: infinity is not allowed"),
        (document(values=[[0.8, 0.2], [0.3, float("-inf")], [0.1, 0.9]]), "values[1][1]: infinity is not allowed"),
        (document(query=[1, 0, True, 0]), "query[2]: expected a number, got true/false"),
        (document(keys=[[1, 0, 1, 0], [0, "1", 0, 1], [1, 0, 0, 0]]), "keys[1][1]: expected a number, got a string"),
        (document(keys=[[1, 0, 1, 0], [0, None, 0, 1], [1, 0, 0, 0]]), "keys[1][1]: expected a number, got null"),
        (document(values=[[0.8, 0.2], [0.3], [0.1, 0.9]]), "values[1]: expected 2 numbers (d_v = 2), got 1"),
        (document(values=[[0.8, 0.2], [0.3, 0.7]]), "values: expected 3 rows (one per key), got 2"),
        (document(values=[[], [], []]), "values[0]: expected 1 to 4096 numbers, got 0"),
        (document(query=[]), "query: expected 1 to 4096 numbers, got 0"),
        (document(query=[0] * 4097), "query: expected 1 to 4096 numbers, got 4097"),
        (document(keys=[]), "keys: expected a list of 1 to 512 rows, got 0"),
        (document(keys={"a": 1}), "keys: expected a list of 1 to 512 rows, got an object"),
        (document(keys=[[1, 0, 1, 0]] * 513, values=[[1]] * 513), "keys: expected a list of 1 to 512 rows, got 513"),
        (document(keys=[1, 0, 1, 0]), "keys[0]: expected a list of numbers, got int"),
        (document(query=[1, 0, 1e7, 0]), "query[2]: 10 000 000 is out of range (|x| must be at most 1 000 000)"),
        (document(labels=["K1", "K2"]), "labels: expected 3 strings (one per key), got 2"),
        (document(labels=["K1", 2, "K3"]), "labels[1]: expected a string, got int"),
        (document(labels=["K1", "K2", "x" * 65]), "labels[2]: 65 characters, at most 64 are allowed"),
        (document(scale=-1), "scale: -1 is out of range"),
        (document(scale="auto"), 'scale: expected "inv_sqrt_dk" or a number ≥ 0, got a string'),
        (document(scale=True), 'scale: expected "inv_sqrt_dk" or a number ≥ 0, got true/false'),
        (document(format="attention-explorer/2"), 'format: expected "attention-explorer/1", got "attention-'),
        (document(title=7), "title: expected a string, got int"),
        (document(title="t" * 201), "title: expected a string of at most 200 characters"),
        (document(description=["a"]), "description: expected a string, got a list"),
        (document(querry=[1, 0, 1, 0]), '"querry": unknown field'),
        (document(label=["K1", "K2", "K3"]), '"label": unknown field'),
        (document(values=None), '"values": missing'),
        ([1, 2, 3], "expected a JSON object at the top level, got a list"),
    ],
)
def test_first_problem_is_named_with_its_place(doc, expected):
    """Each bad document is refused with a message that starts at the faulty place."""
    message = refused(doc)
    assert message.startswith(expected), message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"", "file is empty"),
        (b"  \n\t ", "file is empty"),
        (b"{\"query\": [1, 0,", "not valid JSON"),
        (b"query = [1, 0]", "not valid JSON: Expecting value (line 1, column 1)"),
        (b"\xff\xfe{}", "not UTF-8 text (byte 0)"),
        (b"[" * 100_000, "100000 lists or objects, nested too deeply"),
        (b"{\"query\": " + b"[" * 5000 + b"]" * 5000 + b"}", "JSON is nested too deeply"),
        (b'{"query": [1' + b"0" * 400 + b'], "keys": [[1]], "values": [[1]]}', "query[0]: 100… (401 digits) is out"),
        (b'{"query": [1], "keys": [[1]], "values": [[1]], "scale": 1' + b"0" * 400 + b"}", "scale: 100… (401"),
        (b'{"query": [1' + b"0" * 5000 + b'], "keys": [[1]], "values": [[1]]}', "not a usable number"),
        (b'{"query": [1], "keys": [[1]], "values": [[1]], "labels": ["\\ud800"]}', "labels[0]: character 1 is not"),
        (b'{"query": [NaN], "keys": [[1]], "values": [[1]]}', "query[0]: NaN is not allowed"),
        (b'{"query": [-Infinity], "keys": [[1]], "values": [[1]]}', "query[0]: infinity is not allowed"),
    ],
)
def test_broken_text_is_refused(text, expected):
    """Empty, non-JSON, non-UTF-8, hostile nesting, giant integers, lone surrogates: one clear message."""
    message = refused(text)
    assert message.startswith(expected), message


def test_brackets_inside_strings_are_not_counted_as_lists():
    """512 legal labels of 64 "[" (and "{" in the title) load: only the JSON's own brackets are counted."""
    text = json.dumps(document(query=[1], keys=[[1]] * 512, values=[[1]] * 512, labels=["[" * 64] * 512,
                               title="{" * 200))
    loaded = fileformat.loads(text)
    assert loaded.n == 512 and loaded.labels[0] == "[" * 64 and loaded.title == "{" * 200
    # an escaped quote does not end a string: its brackets stay inside it
    assert fileformat.loads(json.dumps(document(query=[1], keys=[[1]] * 512, values=[[1]] * 512,
                                        labels=['\\"' + "[" * 61] * 512))).labels[0] == '\\"' + "[" * 61
    # real structure over the limit is still refused before parsing, strings or not
    message = refused('{"title": "[[[", "query": ' + "[" * 30_000 + "]" * 30_000 + "}")
    assert message.startswith("30001 lists or objects, nested too deeply"), message  # the 3 in "[[[" are not


@pytest.mark.parametrize(("text", "expected"), [
    ('{"query": [1], "keys": [[1]], "values": [[1]], "query": [2]}', '"query": duplicate key'),
    ('{"query": [1], "keys": [[1]], "values": [[1]], "labels": ["a"], "labels": ["b"]}', '"labels": duplicate key'),
    ('{"kind": "other", "kind": "self", "tokens": ["a"]}', '"kind": duplicate key'),
    ('{"query": [1], "keys": [[1]], "values": [[1]], "x\\u001b": 1, "x\\u001b": 2}', '"x\\u001b": duplicate key'),
    ('{"' + "k" * 500 + '": 1, "' + "k" * 500 + '": 2}', '"' + "k" * 63 + '…": duplicate key'),
])
def test_a_field_given_twice_is_refused_by_name(text, expected):
    """Last-wins would silently load something else than the file shows first; the key is named, escaped."""
    with pytest.raises(ScenarioError) as caught:
        anykind.loads_any(text)
    assert str(caught.value).startswith(expected), str(caught.value)
    assert caught.value.template == "{0}: duplicate key (each field may appear only once)"


def test_out_of_range_numbers_show_enough_digits_to_see_why():
    """1000000.1 is over the limit 1e+06: the message must not round it to 1e+06 itself."""
    assert refused(document(query=[1, 0, 1000000.1, 0])) == (
        "query[2]: 1000000.1 is out of range (|x| must be at most 1 000 000)")
    assert refused(document(query=[1, 0, -1000000.5, 0])).startswith("query[2]: -1000000.5 is out of range")
    assert refused(document(scale=1000000.1)) == "scale: 1000000.1 is out of range (0 to 1 000 000)"
    assert messages.number_text(2e6) == "2 000 000" and messages.number_text(0.1) == "0.1"
    assert messages.number_text(1.5e-7) == "1.5×10⁻⁷" and messages.number_text(-1e20) == "-1×10²⁰"
    assert messages.number_text(1 / 3) == repr(1 / 3)
    with pytest.raises(ScenarioError, match=r"^keys\[1\]\[0\]: 1000000\.1 is out of range"):
        sc.with_component(fileformat.loads(json.dumps(LIBRARY)), "key", 1, 0, 1000000.1)


def test_a_giant_integer_is_named_by_its_length_without_python_s_hint():
    message = refused(b'{"query": [1' + b"0" * 5000 + b'], "keys": [[1]], "values": [[1]]}')
    assert message == "not a usable number: an integer with 5001 digits"
    assert "int_max_str_digits" not in refused(b'{"query": [1], "keys": [[1]], "values": [[1]], "scale": -'
                                               + b"7" * 9000 + b"}")


def test_text_with_a_lone_surrogate_is_refused():
    """Text handed over as a Python string (e.g. pasted) may hold a lone surrogate: an error, not a crash."""
    with pytest.raises(ScenarioError, match="not UTF-8 text"):
        fileformat.loads('{"title": "\ud800", "query": [1], "keys": [[1]], "values": [[1]]}')


def test_a_file_over_64_mib_is_refused_before_reading(tmp_path):
    """A sparse 65 MiB file: refused from its size, without reading 65 MiB."""
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(65 * 1024 * 1024)
    with pytest.raises(ScenarioError, match="larger than 64 MiB"):
        fileformat.load(huge)
    with pytest.raises(ScenarioError, match="larger than 64 MiB"):
        fileformat.loads(b" " * (anykind.MAX_FILE_BYTES + 1))


def test_missing_file_and_folder(tmp_path):
    """Neither is a traceback."""
    with pytest.raises(ScenarioError, match="no such file"):
        fileformat.load(tmp_path / "nope.json")
    with pytest.raises(ScenarioError, match="is a folder"):
        fileformat.load(tmp_path)
    with pytest.raises(ScenarioError, match=r"^the file name is empty$"):
        anykind.load_any("")  # Path("") would be ".", the folder the program runs in


# ---------------------------------------------------------------- saving


def test_save_round_trips_bit_for_bit(tmp_path):
    """Floats that print with 17 digits, −0.0, 1e-300, Chinese labels, a description: all come back exactly."""
    original = Scenario(
        query=[0.1 + 0.2, -0.0, 1e-300],
        keys=[[1 / 3, 2 / 3, 5e-324], [-1e6, 1e6, np.nextafter(1.0, 2.0)], [7.0, 8.0, 9.0]],
        values=[[0.8, 0.2], [0.1, 0.9], [0.3, 0.7]],
        labels=("我", "爱", "北京"),
        title="我爱北京",
        description="Line one\nline two, with \"quotes\" and a tab\t.",
        scale=0.123456789012345678,
    )
    path = tmp_path / "scenario.json"
    anykind.save(original, path)
    loaded = fileformat.load(path)
    assert loaded == original
    for field in ("query", "keys", "values"):
        assert getattr(loaded, field).tobytes() == getattr(original, field).tobytes()
    assert loaded.scale == original.scale
    assert "北京" in path.read_text(encoding="utf-8")  # readable, not \\u escapes
    assert anykind.dumps(loaded) == path.read_text(encoding="utf-8")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            hnp.arrays(np.float64, 3, elements=st.floats(-1e6, 1e6, allow_nan=False)),
            hnp.arrays(np.float64, (n, 3), elements=st.floats(-1e6, 1e6, allow_nan=False)),
            hnp.arrays(np.float64, (n, 2), elements=st.floats(-1e6, 1e6, allow_nan=False)),
            st.lists(st.text(max_size=64).filter(lambda t: not any(0xD800 <= ord(c) <= 0xDFFF for c in t)),
                     min_size=n, max_size=n),
        )
    ),
    st.one_of(st.none(), st.floats(0, 1e6, allow_nan=False)),
)
def test_dumps_loads_round_trip_any_valid_scenario(parts, scale):
    """Any valid scenario survives dumps → loads unchanged, bit for bit."""
    query, keys, values, labels = parts
    original = Scenario(query=query, keys=keys, values=values, labels=tuple(labels), scale=scale)
    loaded = fileformat.loads(anykind.dumps(original))
    assert loaded == original
    assert loaded.keys.tobytes() == original.keys.tobytes()
    assert loaded.values.tobytes() == original.values.tobytes()


def test_save_is_atomic_when_the_rename_fails(tmp_path, monkeypatch):
    """If the final rename fails, the old file is untouched and no temporary file is left behind."""
    path = tmp_path / "keep.json"
    old = fileformat.loads(json.dumps(LIBRARY))
    anykind.save(old, path)
    before = path.read_bytes()

    def broken_replace(source, target):
        raise OSError("disk unplugged")

    monkeypatch.setattr(fileformat.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk unplugged"):
        anykind.save(sc.with_title(old, "new"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]


def test_save_leaves_no_temporary_and_ordinary_permissions(tmp_path):
    """A new file gets 0666 minus the umask (not mkstemp's 0600); an existing file keeps its mode."""
    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "new.json"
        anykind.save(fileformat.loads(json.dumps(LIBRARY)), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        path.chmod(0o640)
        anykind.save(fileformat.loads(json.dumps(LIBRARY)), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    finally:
        os.umask(old_umask)
    assert [p.name for p in tmp_path.iterdir()] == ["new.json"]


def test_save_into_a_missing_folder_raises_oserror(tmp_path):
    """The caller (the window) shows OSError; nothing is created."""
    with pytest.raises(OSError):
        anykind.save(fileformat.loads(json.dumps(LIBRARY)), tmp_path / "no" / "such" / "folder.json")
    assert list(tmp_path.iterdir()) == []


def test_save_onto_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path, monkeypatch):
    """What editors do: the link stays a link, the file it points to gets the new scenario, atomically."""
    real_folder, link_folder = tmp_path / "real", tmp_path / "links"
    real_folder.mkdir()
    link_folder.mkdir()
    target = real_folder / "lecture.json"
    old = fileformat.loads(json.dumps(LIBRARY))
    anykind.save(old, target)
    target.chmod(0o640)
    link = link_folder / "lecture.json"
    link.symlink_to(target)
    chain = link_folder / "chain.json"  # a link to the link
    chain.symlink_to(link)
    renames = []
    real_replace = os.replace
    monkeypatch.setattr(fileformat.os, "replace", lambda source, dest: renames.append((source, dest)) or
                        real_replace(source, dest))
    anykind.save(sc.with_title(old, "new"), chain)
    assert chain.is_symlink() and link.is_symlink() and os.readlink(link) == str(target)
    assert fileformat.load(target).title == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    # The temporary file was made beside the target, so the rename never crosses a file system.
    assert [(Path(source).parent, Path(dest)) for source, dest in renames] == [(real_folder, target)]
    assert sorted(p.name for p in real_folder.iterdir()) == ["lecture.json"]
    assert sorted(p.name for p in link_folder.iterdir()) == ["chain.json", "lecture.json"]


def test_save_onto_a_dangling_symlink_creates_its_target(tmp_path):
    target = tmp_path / "later.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    anykind.save(fileformat.loads(json.dumps(LIBRARY)), link)
    assert link.is_symlink() and fileformat.load(target).title == "Library lookup"


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "link to a folder", "link to a fifo"])
def test_save_refuses_a_target_that_is_not_a_regular_file(tmp_path, kind):
    """A folder, a FIFO or a device is never replaced by a file, nor written to: one message, nothing changed."""
    path = tmp_path / "out.json"
    other = tmp_path / "other"
    if kind in ("folder", "link to a folder"):
        (path if kind == "folder" else other).mkdir()
    elif kind in ("fifo", "link to a fifo"):
        os.mkfifo(path if kind == "fifo" else other)
    if kind == "device":
        path.symlink_to("/dev/null")
    elif kind.startswith("link"):
        path.symlink_to(other)
    before = sorted((p.name, os.lstat(p).st_mode) for p in tmp_path.iterdir())
    with pytest.raises(ScenarioError, match=r"folder|not a regular file"):
        anykind.save(fileformat.loads(json.dumps(LIBRARY)), path)
    assert sorted((p.name, os.lstat(p).st_mode) for p in tmp_path.iterdir()) == before


def test_saved_file_is_one_row_per_line():
    """Readable by a person: each key and value row on its own line."""
    text = anykind.dumps(fileformat.loads(json.dumps(LIBRARY)))
    assert "    [1.0, 0.0, 1.0, 0.0],\n" in text
    assert json.loads(text)["format"] == "attention-explorer/1"


# ---------------------------------------------------------------- the pure edits


@pytest.fixture
def library():
    """The issue's example as a Scenario."""
    return fileformat.loads(json.dumps(LIBRARY))


def test_edits_return_new_scenarios_and_leave_the_old_one(library):
    """Immutable: every edit gives a new Scenario."""
    moved = sc.with_component(library, "key", 1, 0, 2.5)
    assert moved.keys[1].tolist() == [2.5, 1, 0, 1]
    assert library.keys[1].tolist() == [0, 1, 0, 1]
    assert sc.with_vector(library, "query", 0, [0, 0, 0, 1]).query.tolist() == [0, 0, 0, 1]
    added = sc.with_pair_added(library)
    assert (added.n, added.labels[-1], added.keys[-1].tolist()) == (4, "K4", [0, 0, 0, 0])
    removed = sc.with_pair_removed(library, 0)
    assert removed.labels == ("K2", "K3") and removed.values.tolist() == [[0.3, 0.7], [0.1, 0.9]]
    wider = sc.with_d_k(library, 6)
    assert wider.query.tolist() == [1, 0, 1, 0, 0, 0] and wider.keys.shape == (3, 6)
    assert sc.with_d_k(library, 6, fill="random", seed=3) == sc.with_d_k(library, 6, fill="random", seed=3)
    assert sc.with_d_v(library, 1).values.tolist() == [[0.8], [0.3], [0.1]]
    assert sc.with_scale(library, 1).effective_scale == 1.0
    assert sc.with_label(library, 2, "北京").labels == ("K1", "K2", "北京")
    with pytest.raises(ValueError):
        library.keys[0, 0] = 9.0


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda s: sc.with_vector(s, "key", 1, [1, 2, 3]), "keys[1]: expected 4 numbers, got 3"),
        (lambda s: sc.with_vector(s, "key", 5, [1, 2, 3, 4]), "key index 5 is out of range"),
        (lambda s: sc.with_vector(s, "vector", 0, [1, 2, 3, 4]), "unknown vector role"),
        (lambda s: sc.with_vector(s, "value", 0, ["a", 1]), "values[0]: expected numbers"),
        (lambda s: sc.with_vector(s, "value", 0, "ab"), "values[0]: expected numbers, got a string"),
        (lambda s: sc.with_vector(s, "query", 0, [1, 0, float("nan"), 0]), "query[2]: NaN is not allowed"),
        (lambda s: sc.with_component(s, "query", 0, 4, 1.0), "component 4 is out of range"),
        (lambda s: sc.with_component(s, "query", 0, 1.5, 1.0), "component: expected a whole number"),
        (lambda s: sc.with_component(s, "query", 0, 0, "x"), "component value: expected a number, got a string"),
        (lambda s: sc.with_component(s, "query", 0, 0, None), "component value: expected a number, got null"),
        (lambda s: sc.with_component(s, "key", 0, 0, 2e6), "keys[0][0]: 2 000 000 is out of range"),
        (lambda s: sc.with_pair_removed(sc.with_pair_removed(sc.with_pair_removed(s, 0), 0), 0), "at least one"),
        (lambda s: sc.with_pair_added(s, key=[1, 2]), "new pair: expected a key of 4"),
        (lambda s: sc.with_d_k(s, 0), "dimension 0 is out of range"),
        (lambda s: sc.with_d_k(s, 4097), "dimension 4097 is out of range"),
        (lambda s: sc.with_d_v(s, 2, fill="ones"), "unknown fill"),
        (lambda s: sc.with_scale(s, -0.5), "scale: -0.5 is out of range"),
        (lambda s: sc.with_scale(s, float("nan")), "scale: expected"),
        (lambda s: sc.with_scale(s, "big"), "scale: expected a number, got a string"),
        (lambda s: sc.with_label(s, 0, "x" * 65), "labels[0]: 65 characters"),
        (lambda s: sc.with_title(s, "t" * 201), "title: expected a string of at most 200"),
    ],
)
def test_invalid_edits_raise_scenario_error(library, edit, expected):
    """A bad edit raises ScenarioError naming the problem; the scenario it started from is unchanged."""
    before = anykind.dumps(library)
    with pytest.raises(ScenarioError) as caught:
        edit(library)
    assert str(caught.value).startswith(expected), str(caught.value)
    assert anykind.dumps(library) == before


def test_direct_construction_is_validated():
    """Scenario(...) itself refuses ragged rows and mismatched shapes with ScenarioError."""
    with pytest.raises(ScenarioError, match="keys: expected numbers in equal-length rows"):
        Scenario(query=[1, 2], keys=[[1, 2], [1]], values=[[1], [2]])
    with pytest.raises(ScenarioError, match=r"keys: expected rows of 2 numbers \(d_k = 2\), got 3"):
        Scenario(query=[1, 2], keys=[[1, 2, 3]], values=[[1]])
    with pytest.raises(ScenarioError, match="values: expected 1 rows, one per key"):
        Scenario(query=[1, 2], keys=[[1, 2]], values=[[1], [2]])
    with pytest.raises(ScenarioError, match="labels"):
        Scenario(query=[1], keys=[[1]], values=[[1]], labels=("a", "b"))


def test_an_unknown_field_with_a_quote_in_its_name_is_named_escaped():
    # hypothesis found a field called '"': the message read '""": unknown field', naming nothing a reader can see
    from attention_explorer.core.files.anykind import loads_any
    from attention_explorer.core.limits import ScenarioError
    with pytest.raises(ScenarioError) as caught:
        loads_any('{"kind": "sequence", "\\"": 1}')
    assert str(caught.value).startswith('"\\"": unknown field')
    with pytest.raises(ScenarioError) as caught:
        loads_any('{"query": [1], "keys": [[1]], "values": [[1]], "a\\"b": 1}')
    assert str(caught.value).startswith('"a\\"b": unknown field')


def test_a_pipe_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path):
    # File ▸ Open on a FIFO used to block in the reader until something wrote to it (forever, with nobody there)
    import os
    import time

    from attention_explorer.core.files.anykind import load_any
    from attention_explorer.core.limits import ScenarioError
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(ScenarioError, match="is not a regular file"):
        load_any(fifo)
    assert time.monotonic() - started < budget.seconds(1.0)
