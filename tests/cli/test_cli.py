"""The real command line, in a subprocess: `compute`, `presets`, and every bad input → one line, status 2."""

import contextlib
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from attention_explorer.core.files.presets import load_preset, preset_names

LIBRARY = {
    "format": "attention-explorer/1",
    "title": "Library lookup",
    "query": [1, 0, 1, 0],
    "keys": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 0]],
    "values": [[0.8, 0.2], [0.1, 0.9], [0.3, 0.7]],
    "labels": ["K1", "K2", "K3"],
    "scale": "inv_sqrt_dk",
}


def run_cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m attention_explorer ARGS` as a user would run it (no display, no stdin)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "attention_explorer", *args], cwd=cwd, env=environment, capture_output=True,
        stdin=subprocess.DEVNULL, timeout=timeout,
    )


def run_cli_in_process(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`attention-explorer ARGS` called in this process, its output and errors caught as the bytes a terminal gets.

    For tests of what a printing command writes, not of the process around it (start-up, exit, signals): no
    interpreter and no numpy to start, about 0.3 s less than run_cli each.
    """
    from attention_explorer.cli import main

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2))
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as stop:  # argparse's own exit
            status = stop.code if isinstance(stop.code, int) else 1
    return subprocess.CompletedProcess(["attention-explorer", *args], status, out.buffer.getvalue(),
                                       err.buffer.getvalue())


def text_with(**changes) -> str:
    """The library example as JSON text, with fields replaced."""
    document = dict(LIBRARY)
    document.update(changes)
    return json.dumps(document, ensure_ascii=False)


def assert_refused(process: subprocess.CompletedProcess, *expected: str) -> str:
    """Status 2, nothing on stdout, exactly one stderr line holding every expected piece, no traceback."""
    stderr = process.stderr.decode("utf-8", "replace")
    assert process.returncode == 2, (process.returncode, stderr)
    assert "Traceback" not in stderr
    assert process.stdout == b""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    for piece in expected:
        assert piece in lines[0], (piece, lines[0])
    return lines[0]


# Each case: the file's content, and what the one error line must say after "attention-explorer: FILE: ".
BAD_FILES = {
    "nan": ('{"query": [1, NaN, 1, 0], "keys": [[1]], "values": [[1]]}', "query[1]: NaN is not allowed"),
    "infinity": (text_with().replace("[1, 0, 0, 0]]", "[1, 0, -Infinity, 0]]"), "keys[2][2]: infinity is not allowed"),
    "boolean": (text_with(query=[1, 0, True, 0]), "query[2]: expected a number, got true/false"),
    "string": (text_with(values=[[0.8, "0.2"], [0.1, 0.9], [0.3, 0.7]]),
               "values[0][1]: expected a number, got a string"),
    "ragged": (text_with(keys=[[1, 0, 1, 0], [0, 1, 0], [1, 0, 0, 0]]), "keys[1]: expected 4 numbers (d_k = 4), got 3"),
    "ragged-values": (text_with(values=[[0.8, 0.2], [0.1, 0.9, 0.0], [0.3, 0.7]]),
                      "values[1]: expected 2 numbers (d_v = 2), got 3"),
    "too-few-values": (text_with(values=[[0.8, 0.2], [0.1, 0.9]]), "values: expected 3 rows (one per key), got 2"),
    "too-few-labels": (text_with(labels=["K1", "K2"]), "labels: expected 3 strings (one per key), got 2"),
    "typo": (text_with(valeus=[[1]]), '"valeus": unknown field'),
    "missing-field": ('{"query": [1], "keys": [[1]]}', '"values": missing'),
    "deep": ("[" * 100_000, "100000 lists or objects, nested too deeply"),
    "deep-objects": ('{"a":' * 3000 + "1" + "}" * 3000, "JSON is nested too deeply"),
    "not-json": ("query: [1, 0, 1, 0]\n", "not valid JSON"),
    "truncated": (text_with()[:-20], "not valid JSON"),
    "empty": ("", "file is empty"),
    "blank": ("\n\n   \n", "file is empty"),
    "too-many-keys": (text_with(keys=[[1, 0, 1, 0]] * 513, values=[[1]] * 513),
                      "keys: expected a list of 1 to 512 rows, got 513"),
    "label-too-long": (text_with(labels=["K1", "我" * 65, "K3"]), "labels[1]: 65 characters, at most 64"),
    "out-of-range": (text_with(query=[1, 0, 2e6, 0]), "query[2]: 2 000 000 is out of range"),
    "giant-integer": ('{"query": [' + "9" * 300 + '], "keys": [[1]], "values": [[1]]}', "query[0]: 999… (300 digits)"),
    "lone-surrogate": (json.dumps(dict(LIBRARY, labels=["K1", "K2", "\ud800"])),  # written as the escape \ud800
                       "labels[2]: character 1 is not valid Unicode"),
    "negative-scale": (text_with(scale=-2), "scale: -2 is out of range"),
    "wrong-format": (text_with(format="attention-explorer/9"), 'format: expected "attention-explorer/1"'),
    "top-level-list": ("[1, 2, 3]", "expected a JSON object at the top level, got a list"),
    "duplicate-key": (text_with()[:-1] + ', "query": [0, 0, 0, 1]}',
                      '"query": duplicate key (each field may appear only once)'),
    "kind-twice": ('{"kind": "other", "kind": "self", "tokens": ["a"]}', '"kind": duplicate key'),
    "just-over-the-limit": (text_with(query=[1, 0, 1000000.1, 0]),
                            "query[2]: 1000000.1 is out of range (|x| must be at most 1 000 000)"),
    "5000-digit-integer": ('{"query": [' + "9" * 5000 + '], "keys": [[1]], "values": [[1]]}',
                           "not a usable number: an integer with 5000 digits"),
}


@pytest.fixture(scope="module")
def bad_file_runs(tmp_path_factory, cli_in_process):
    """`compute CASE.json` for every bad file, in this process: the table is about the message, not the process.

    The tests below it (non-UTF-8, over 64 MiB, missing file, a giant integer) run a real process each.
    """
    folder = tmp_path_factory.mktemp("bad-files")
    for case, (content, _) in BAD_FILES.items():
        (folder / f"{case}.json").write_text(content, encoding="utf-8")
    return {case: cli_in_process("compute", f"{case}.json", cwd=folder) for case in BAD_FILES}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_gives_one_line_and_status_2(bad_file_runs, case):
    """Every bad scenario file: `attention-explorer: FILE: place: problem`, status 2, no traceback."""
    expected = BAD_FILES[case][1]
    line = assert_refused(bad_file_runs[case], expected)
    assert line.startswith(f"attention-explorer: {case}.json: {expected}"), line


def test_non_utf8_file(tmp_path):
    """Latin-1 bytes are named as not UTF-8."""
    (tmp_path / "latin.json").write_bytes(b'{"title": "caf\xe9"}')
    assert_refused(run_cli("compute", "latin.json", cwd=tmp_path), "latin.json: not UTF-8 text (byte 14)")


def test_file_over_64_mib(tmp_path):
    """A sparse 65 MiB file is refused from its size."""
    with (tmp_path / "huge.json").open("wb") as handle:
        handle.truncate(65 * 1024 * 1024)
    assert_refused(run_cli("compute", "huge.json", cwd=tmp_path), "huge.json: file is larger than 64 MiB")


def test_long_flat_list_is_refused_quickly(tmp_path):
    """Three million numbers in a query (a 6 MB file): refused by its length, without walking it."""
    numbers = ",".join(["0"] * 3_000_000)
    (tmp_path / "flat.json").write_text('{"query": [' + numbers + '], "keys": [[1]], "values": [[1]]}')
    assert_refused(run_cli("compute", "flat.json", cwd=tmp_path, timeout=20),
                   "flat.json: query: expected 1 to 4096 numbers, got 3000000")


def test_brackets_in_labels_load(tmp_path):
    """512 legal labels of 64 "[" each: counted as text, not as 33 000 lists."""
    document = dict(LIBRARY, query=[1], keys=[[1]] * 512, values=[[0.5]] * 512, labels=["[" * 64] * 512)
    (tmp_path / "brackets.json").write_text(json.dumps(document), encoding="utf-8")
    process = run_cli("compute", "brackets.json", cwd=tmp_path)
    assert (process.returncode, process.stderr) == (0, b"")
    assert json.loads(process.stdout)["labels"][0] == "[" * 64


def test_a_giant_integer_does_not_leak_python_s_hint(tmp_path):
    (tmp_path / "big.json").write_text('{"query": [' + "9" * 5000 + '], "keys": [[1]], "values": [[1]]}')
    line = assert_refused(run_cli("compute", "big.json", cwd=tmp_path), "an integer with 5000 digits")
    assert "int_max_str_digits" not in line and "4300" not in line


def test_screenshot_prints_nothing_on_success(tmp_path):
    """The offscreen plugin's propagateSizeHints() notice is not the user's problem: the terminal stays quiet."""
    process = run_cli("--preset", "library", "--screenshot", "shot.png", "--size", "800x600", cwd=tmp_path)
    assert (process.returncode, process.stdout, process.stderr) == (0, b"", b"")
    assert (tmp_path / "shot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.no_qt_log  # Qt's own handler underneath, as in a user's run (not pytest-qt's capture)
def test_screenshot_drops_only_the_known_notice(capsys, qapp):
    """Other Qt warnings during a screenshot still reach the terminal; afterwards the old handler is back."""
    from PySide6.QtCore import qWarning

    from attention_explorer.cli.gui import without_offscreen_notices

    with without_offscreen_notices():
        qWarning("This plugin does not support propagateSizeHints()")
        qWarning("QPainter::begin: Paint device returned engine == 0")
    assert capsys.readouterr().err == "QPainter::begin: Paint device returned engine == 0\n"
    qWarning("This plugin does not support propagateSizeHints()")  # Qt's default handler: straight to fd 2
    assert capsys.readouterr().err == ""


def test_missing_file_and_folder(tmp_path):
    """No such file; a folder instead of a file."""
    assert_refused(run_cli("compute", "nope.json", cwd=tmp_path), "attention-explorer: nope.json: no such file")
    (tmp_path / "folder.json").mkdir()
    assert_refused(run_cli("compute", "folder.json", cwd=tmp_path), "folder.json: is a folder")


BAD_ARGUMENTS = [
        (["compute"], "give exactly one of FILE or --preset NAME"),
        (["compute", "a.json", "--preset", "library"], "give exactly one of FILE or --preset NAME"),
        (["compute", "a.json", "b.json"], "unrecognized arguments: b.json"),
        (["compute", "--preset", "library", "--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["compute", "--preset", "libary"], "preset libary: unknown preset 'libary'"),
        (["compute", "--bogus"], "unrecognized arguments: --bogus"),
        (["presets", "extra"], "unrecognized arguments: extra"),
        (["nope.json"], "attention-explorer: nope.json: no such file"),
        (["--preset", "libary"], "libary: unknown preset 'libary'"),
        (["a.json", "--preset", "library"], "give a FILE or --preset NAME, not both"),
        (["--preset", "library", "--size", "10x10"], "--size: 10x10 is out of range"),
        (["--preset", "library", "--size", "big"], "--size: expected WIDTHxHEIGHT, got 'big'"),
        (["--preset", "library", "--lang", "fr"], "argument --lang: invalid choice: 'fr'"),
        (["--screenshot", ""], "attention-explorer: --screenshot: the file name is empty"),
        (["--preset", "library", "--screenshot", " "], "--screenshot: the file name is empty"),
        (["compute", ""], "attention-explorer compute: FILE is empty"),
]


@pytest.fixture(scope="module")
def bad_argument_runs(tmp_path_factory, cli_in_process):
    """Every bad command line: `compute` and `presets` in this process, the window's in real processes.

    The window's run as processes, a few at a time: one that wrongly got past its checks would open a window,
    which a process can do (and time out on) without taking the test session with it.
    """
    folder = tmp_path_factory.mktemp("bad-arguments")
    printing = [number for number, (arguments, _) in enumerate(BAD_ARGUMENTS) if arguments[0] in ("compute", "presets")]
    window = [number for number in range(len(BAD_ARGUMENTS)) if number not in printing]
    runs = {number: cli_in_process(*BAD_ARGUMENTS[number][0], cwd=folder) for number in printing}
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs.update(zip(window, pool.map(lambda number: run_cli(*BAD_ARGUMENTS[number][0], cwd=folder), window)))
    return [runs[number] for number in range(len(BAD_ARGUMENTS))]


@pytest.mark.parametrize("number", range(len(BAD_ARGUMENTS)), ids=[" ".join(a) for a, _ in BAD_ARGUMENTS])
def test_bad_arguments_give_one_line_and_status_2(bad_argument_runs, number):
    """Wrong arguments, for compute, presets and the window alike, fail before any window opens."""
    assert_refused(bad_argument_runs[number], BAD_ARGUMENTS[number][1])


# ---------------------------------------------------------------- what works


def test_presets_lists_every_preset_with_its_title(tmp_path):
    """One line per preset: name, a tab, title."""
    process = run_cli("presets", cwd=tmp_path)
    assert process.returncode == 0 and process.stderr == b""
    lines = process.stdout.decode("utf-8").splitlines()
    assert [line.split("\t") for line in lines] == [[name, load_preset(name).title] for name in preset_names()]
    assert {"drag-2d", "library", "saturation-small", "saturation-large"} <= {line.split("\t")[0] for line in lines}


def test_compute_json_has_every_documented_field(tmp_path):
    """One JSON object with the issue's fields, numbers as the hand calculation gives them."""
    (tmp_path / "library.json").write_text(text_with(), encoding="utf-8")
    process = run_cli("compute", "library.json", cwd=tmp_path)
    assert process.returncode == 0 and process.stderr == b""
    data = json.loads(process.stdout)
    for field in ("d_k", "d_v", "n", "scale", "scores", "scaled_scores", "weights", "output", "cosines",
                  "angles_deg", "query_norm", "key_norms", "entropy", "max_weight"):
        assert field in data, field
    assert (data["d_k"], data["d_v"], data["n"], data["scale"]) == (4, 2, 3, 0.5)
    assert data["scores"] == [2.0, 0.0, 1.0] and data["scaled_scores"] == [1.0, 0.0, 0.5]
    assert [round(w, 3) for w in data["weights"]] == [0.506, 0.186, 0.307]
    assert [round(x, 3) for x in data["output"]] == [0.516, 0.484]
    assert data["cosines"][1] == 0.0 and data["angles_deg"][1] == pytest.approx(90.0)
    assert data["query_norm"] == pytest.approx(2**0.5)
    assert data["max_weight"] == max(data["weights"])


def test_compute_json_reports_undefined_angles_as_null(tmp_path):
    """A zero key has no angle: null, never NaN (which would not be JSON)."""
    (tmp_path / "zero.json").write_text('{"query": [1, 0], "keys": [[0, 0], [1, 1]], "values": [[1], [2]]}')
    process = run_cli("compute", "zero.json", cwd=tmp_path)
    assert process.returncode == 0
    assert b"NaN" not in process.stdout
    data = json.loads(process.stdout)
    assert data["cosines"][0] is None and data["angles_deg"][0] is None


def test_compute_text_prints_the_four_steps(tmp_path):
    """The handout: four steps, a row per key, 3 decimals, the exact output [0.492, 0.508]."""
    process = run_cli("compute", "--preset", "library", "--format", "text", cwd=tmp_path)
    assert process.returncode == 0 and process.stderr == b""
    text = process.stdout.decode("utf-8")
    for step in ("Step 1", "Step 2", "Step 3", "Step 4"):
        assert step in text
    assert text.index("Step 1") < text.index("Step 2") < text.index("Step 3") < text.index("Step 4")
    assert "0.500" in text  # the scale 1/√4
    row = next(line for line in text.splitlines() if line.startswith("K1 "))
    assert row.split()[:5] == ["K1", "2.000", "1.000", "2.718", "0.506"]
    assert "output = [0.492, 0.508]" in text


def test_compute_keeps_chinese_labels_readable(tmp_path):
    """UTF-8 output: 我, 爱, 北京 as themselves, in JSON and in text."""
    (tmp_path / "zh.json").write_text(text_with(labels=["我", "爱", "北京"], title="我爱北京"), encoding="utf-8")
    data = json.loads(run_cli("compute", "zh.json", cwd=tmp_path).stdout.decode("utf-8"))
    assert data["labels"] == ["我", "爱", "北京"] and data["title"] == "我爱北京"
    text = run_cli("compute", "zh.json", "--format", "text", cwd=tmp_path).stdout.decode("utf-8")
    assert "北京" in text


def test_compute_survives_a_terminal_that_cannot_show_chinese(tmp_path):
    """With a Latin-1 stdout the labels come out as \\u escapes: still valid JSON, no traceback."""
    (tmp_path / "zh.json").write_text(text_with(labels=["我", "爱", "北京"]), encoding="utf-8")
    process = run_cli("compute", "zh.json", cwd=tmp_path, env={"PYTHONIOENCODING": "latin-1"})
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout.decode("latin-1"))["labels"] == ["我", "爱", "北京"]


def test_compute_into_a_closed_pipe_is_quiet(tmp_path):
    """`compute big.json | head -c 1`: the reader leaves early; no traceback on stderr."""
    keys = [[(i % 7) - 3.0, 1.0] for i in range(512)]
    (tmp_path / "big.json").write_text(json.dumps({"query": [1, 2], "keys": keys, "values": [[1.0]] * 512}))
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.Popen(
        [sys.executable, "-m", "attention_explorer", "compute", "big.json"], cwd=tmp_path, env=environment,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )
    assert process.stdout.read(1) == b"{"
    process.stdout.close()
    stderr = process.stderr.read()
    process.wait(timeout=30)
    assert b"Traceback" not in stderr and stderr == b""


def test_help_exits_zero(tmp_path):
    """--help is not an error."""
    process = run_cli("compute", "--help", cwd=tmp_path)
    assert process.returncode == 0 and b"--preset" in process.stdout
