"""Architecture checks of issue 12: docstrings, module sizes, the top level, shipped resources, no copied blocks.

The copy check here finds blocks that stand twice letter for letter (after folding white space). Blocks of
the same shape with other names, strings or numbers are left to the `duplicates` command, run by hand where a
developer has it (`duplicates --repo attention_explorer --min-lines 11`); CI does not.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from collections import defaultdict
from importlib import metadata
from pathlib import Path

import pytest

import attention_explorer

REPO = Path(attention_explorer.__file__).resolve().parents[1]
PACKAGE = REPO / "attention_explorer"
IN_SOURCE_CHECKOUT = (REPO / "pyproject.toml").is_file() and (REPO / "README.md").is_file()
needs_checkout = pytest.mark.skipif(not IN_SOURCE_CHECKOUT, reason="runs from a source checkout only")

TOP_LEVEL = {"attention_explorer", "resources", "docs", "tests", "tools", "pyproject.toml", "README.md", ".ci",
             ".gitignore"}
UI_MODULE_MAX_LINES = 600
COPY_MIN_LINES = 11  # "no block of more than 10 lines stands twice"
GENERATED = {PACKAGE / "ui" / "i18n" / "core_texts.py", PACKAGE / "ui" / "i18n" / "preset_texts.py"}


def python_files(*folders: Path) -> list[Path]:
    """Every .py file under the folders, caches left out."""
    return sorted(path for folder in folders for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def relative(path: Path) -> str:
    """A path as the repository names it."""
    return path.relative_to(REPO).as_posix()


# ---------------------------------------------------------------------------------------------------------
# (a) every file says its job in its first line


def docstring_problem(path: Path) -> str | None:
    """Why the file's opening is not a one-line summary of its job, or None when it is."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return "no module docstring"
    if first.lineno != 1 or not source.startswith('"""'):
        return "the docstring is not the first thing in the file"
    lines = first.value.value.splitlines()
    summary = lines[0].strip() if lines else ""
    if not summary:
        return "the docstring's first line is empty"
    if len(lines) > 1 and lines[1].strip():
        return "the summary runs over more than one line (a blank line must follow it)"
    return None


@needs_checkout
def test_every_file_starts_with_a_one_line_docstring_saying_its_job():
    """A newcomer opening any file reads what it is for in its first line (PEP 257 summary line)."""
    problems = {relative(path): problem for path in python_files(PACKAGE, REPO / "tools", REPO / "resources")
                if (problem := docstring_problem(path))}
    assert not problems, "\n".join(f"{path}: {problem}" for path, problem in problems.items())


def test_the_docstring_check_sees_a_missing_or_long_summary(tmp_path):
    """The check itself: a file without a docstring, or with a two-line summary, is reported."""
    cases = {"none.py": "import os\n", "late.py": "# a comment\n\"\"\"Job.\"\"\"\n",
             "long.py": '"""A summary that\ngoes on.\n"""\n', "good.py": '"""Draws the arrows.\n\nMore.\n"""\n'}
    found = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        found[name] = docstring_problem(tmp_path / name)
    assert found["none.py"] == "no module docstring"
    assert found["late.py"] == "the docstring is not the first thing in the file"
    assert found["long.py"].startswith("the summary runs over")
    assert found["good.py"] is None


# ---------------------------------------------------------------------------------------------------------
# (b) no ui module is over 600 lines


def test_no_ui_module_is_over_600_lines():
    """A module in ui/ that grows past 600 lines is doing more than one job: split it by role."""
    sizes = {relative(path): len(path.read_text(encoding="utf-8").splitlines())
             for path in python_files(PACKAGE / "ui")}
    too_long = {path: size for path, size in sizes.items() if size > UI_MODULE_MAX_LINES}
    assert sizes and not too_long, f"over {UI_MODULE_MAX_LINES} lines: {too_long}"


# ---------------------------------------------------------------------------------------------------------
# (c) the top level holds the usual folders and nothing more


def top_level_entries() -> set[str]:
    """The names at the top of the repository that git keeps or would add (ignored ones left out)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, timeout=30)
    if listed.returncode == 0 and listed.stdout.strip():
        return {line.split("/", 1)[0] for line in listed.stdout.splitlines() if line}
    # Not a git checkout (a source archive): the folder itself, minus what .gitignore names at the top.
    ignored = [line.strip().rstrip("/") for line in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith(("#", "!"))]
    from fnmatch import fnmatch

    return {entry.name for entry in REPO.iterdir()
            if entry.name != ".git" and not any(fnmatch(entry.name, pattern) for pattern in ignored)}


@needs_checkout
def test_the_top_level_holds_only_the_usual_folders():
    """The user's card: attention_explorer, resources, tests, pyproject.toml, README.md; plus docs, .ci and tools."""
    entries = top_level_entries()
    assert {"attention_explorer", "resources", "tests", "pyproject.toml", "README.md"} <= entries
    assert entries <= TOP_LEVEL, f"unexpected at the top level: {sorted(entries - TOP_LEVEL)}"


# ---------------------------------------------------------------------------------------------------------
# (d) every preset and translation is reachable where the code looks for it


def shipped() -> Path:
    """The resources as the code finds them (core.files.presets.resources_dir): the checkout's or the installed."""
    from attention_explorer.core.files.presets import resources_dir

    return resources_dir()


def editable_source() -> Path | None:
    """The folder an editable install points at, or None when the package is not installed editable."""
    # Not metadata.distribution(): an attention_explorer.egg-info left in the checkout (the current folder is on
    # sys.path) would shadow the installed one, and it has no direct_url.json.
    texts = [dist.read_text("direct_url.json") for dist in metadata.distributions()
             if (dist.metadata["Name"] or "").lower().replace("_", "-") == "attention-explorer"]
    info = next((json.loads(text) for text in texts if text), {})
    if not info.get("dir_info", {}).get("editable") or not info.get("url", "").startswith("file://"):
        return None
    return Path(info["url"].removeprefix("file://")).resolve()


def test_every_preset_is_reachable_where_the_code_looks():
    """pip install ., pip install -e . and a checkout run from its own folder all find the presets."""
    from attention_explorer.core.files.presets import load_preset, preset_names

    folder = shipped() / "presets"
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))
    assert names and sorted(f"{name}.json" for name in preset_names()) == names
    for name in names:
        assert json.loads((folder / name).read_text(encoding="utf-8"))["format"] == "attention-explorer/1", name
        assert load_preset(name.removesuffix(".json")).title


def test_every_translation_is_reachable_and_the_chinese_one_loads(qapp):
    """Every .ts has its compiled .qm beside it; zh_CN's loads into a QTranslator and translates."""
    from PySide6.QtCore import QTranslator

    folder = shipped() / "i18n"
    sources = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".ts"))
    compiled = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".qm"))
    assert "attention_explorer_zh_CN.qm" in compiled
    assert [name.removesuffix(".ts") for name in sources] == [name.removesuffix(".qm") for name in compiled]

    translator = QTranslator()
    assert translator.load(str(folder / "attention_explorer_zh_CN.qm"))
    assert translator.language() == "zh_CN"
    catalogue = ET.fromstring((folder / "attention_explorer_zh_CN.ts").read_bytes())
    checked = 0
    for context in catalogue.iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            if message.get("numerus") or translation is None or translation.get("type") or not translation.text:
                continue
            got = translator.translate(context.findtext("name"), message.findtext("source"))
            assert got == translation.text, (context.findtext("name"), message.findtext("source"))
            checked += 1
    assert checked > 100


@needs_checkout
def test_a_checkout_reads_its_own_resources_folder():
    """Run from a checkout, the code reads the resources/ beside its package, however the package is installed.

    A second git worktree run with PYTHONPATH, or a checkout beside a regular install, would otherwise read the
    installed resources (or none: `No module named 'attention_explorer.resources'`). tests/test_packaging.py runs
    the checkout beside a regular install in a child process.
    """
    from attention_explorer.core.files.presets import presets_dir, resources_dir

    assert resources_dir() == REPO / "resources"
    assert presets_dir() == REPO / "resources" / "presets"
    assert (resources_dir() / "__init__.py").is_file()


def test_an_editable_install_maps_attention_explorer_resources_onto_its_checkout():
    """`pip install -e .` maps the package attention_explorer.resources onto the top-level resources/ it came from."""
    source = editable_source()
    if source is None:
        pytest.skip("attention-explorer is not installed editable here")
    spec = importlib.util.find_spec("attention_explorer.resources")
    assert spec is not None and spec.submodule_search_locations
    assert Path(next(iter(spec.submodule_search_locations))).resolve() == source / "resources"


# ---------------------------------------------------------------------------------------------------------
# (e) no block of more than 10 lines stands twice in attention_explorer/

_IMPORT = re.compile(r"(from\s+\S+\s+)?import\s")
_PUNCTUATION_ONLY = re.compile(r"[\s()\[\]{},:]*")


def normalised_lines(source: str) -> list[tuple[int, str]]:
    """(line number, text) of the lines that count: stripped, white space folded; no blanks, comments, imports."""
    kept = []
    in_import = False
    for number, raw in enumerate(source.splitlines(), start=1):
        line = " ".join(raw.split())
        if in_import:
            in_import = ")" not in line
            continue
        if not line or line.startswith("#") or _PUNCTUATION_ONLY.fullmatch(line):
            continue
        if _IMPORT.match(line):
            in_import = line.endswith("(")
            continue
        kept.append((number, line))
    return kept


def repeated_blocks(files: dict[str, str], size: int = COPY_MIN_LINES) -> list[tuple[str, int, str, int]]:
    """(file, line, file, line) for each run of `size` normalised lines found again elsewhere, one per pair."""
    places: dict[tuple[str, ...], list[tuple[str, int, int]]] = defaultdict(list)
    for name, source in files.items():
        lines = normalised_lines(source)
        for start in range(len(lines) - size + 1):
            window = tuple(text for _, text in lines[start:start + size])
            places[window].append((name, start, lines[start][0]))
    pairs: dict[tuple[str, str], tuple[str, int, str, int]] = {}
    for found in places.values():
        for index, (name_a, start_a, line_a) in enumerate(found):
            for name_b, start_b, line_b in found[index + 1:]:
                if name_a == name_b and abs(start_a - start_b) < size:
                    continue  # a run repeating itself (x = 0 eleven times) overlaps; not a copy
                pairs.setdefault((name_a, name_b), (name_a, line_a, name_b, line_b))
    return sorted(pairs.values())


def test_no_block_of_more_than_10_lines_stands_twice():
    """One copy of each piece: a block of 11 lines that stands twice should be one function used twice."""
    files = {relative(path): path.read_text(encoding="utf-8")
             for path in python_files(PACKAGE) if path not in GENERATED}
    copies = repeated_blocks(files)
    assert not copies, "\n".join(f"{a}:{line_a} = {b}:{line_b}" for a, line_a, b, line_b in copies)


def test_the_copy_check_finds_a_copied_block_and_ignores_imports_and_comments():
    """The checker itself: eleven copied lines are found across files and within one; imports do not count."""
    block = "\n".join(f"    total += weights[{i}] * values[{i}]" for i in range(COPY_MIN_LINES))
    imports = "\n".join(f"from package.module{i} import (\n    name{i},\n)" for i in range(COPY_MIN_LINES))
    comments = "\n".join(f"# step {i}\n\n" for i in range(COPY_MIN_LINES))
    files = {"a.py": f"def f():\n{block}\n", "b.py": f"def g():\n    # the same sums\n\n{block}\n    return 1\n",
             "c.py": imports, "d.py": imports + "\n" + comments, "e.py": comments + "\nx = 1\n"}
    assert repeated_blocks(files) == [("a.py", 2, "b.py", 4)]
    shorter = {"a.py": block.rsplit("\n", 1)[0], "b.py": block.rsplit("\n", 1)[0]}
    assert repeated_blocks(shorter) == []
    twice = {"a.py": f"{block}\nreturn 0\n{block}\n"}
    assert repeated_blocks(twice) == [("a.py", 1, "a.py", 13)]
