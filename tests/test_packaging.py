"""A real (non-editable) install finds its resources; the README's commands are the ones CI runs."""

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import attention_explorer

REPO = Path(attention_explorer.__file__).resolve().parents[1]
IN_SOURCE_CHECKOUT = (REPO / "pyproject.toml").is_file() and (REPO / "README.md").is_file()
TEST_COMMAND = 'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest'
needs_checkout = pytest.mark.skipif(not IN_SOURCE_CHECKOUT, reason="runs from a source checkout only")


def readme_commands() -> list[str]:
    """The one-line shell commands in the README's ```sh blocks."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()
            if line.strip()]


@needs_checkout
def test_ci_runs_exactly_the_readme_test_command():
    """The README promises a test command; .ci/run must run that very text, not a cousin of it."""
    test_commands = [c for c in readme_commands() if "pytest" in c]
    assert test_commands == [TEST_COMMAND]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert any(line.strip() == test_commands[0] for line in ci.splitlines()), "not in .ci/run verbatim"
    assert ci.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in ci
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/attention-explorer" in readme_commands()


def _copy_sources(target: Path) -> None:
    """What a source distribution holds: pyproject, README and the package (no caches, no egg-info)."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, target / name)
    for folder in ("attention_explorer", "resources"):
        shutil.copytree(REPO / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


@needs_checkout
def test_a_built_and_installed_wheel_finds_its_presets(tmp_path):
    """Build a wheel offline, install it (not editable) into a folder, and run the command from there."""
    source, wheels, target, elsewhere = (tmp_path / name for name in ("src", "wheels", "site", "elsewhere"))
    _copy_sources(source)  # building in a copy keeps build/ and egg-info out of the repository
    elsewhere.mkdir()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    built = subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels),
                            str(source)], capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = wheels.glob("attention_explorer-*.whl")

    names = set(zipfile.ZipFile(wheel).namelist())
    presets = sorted(path.name for path in (REPO / "resources" / "presets").glob("*.json"))
    assert presets and {f"attention_explorer/resources/presets/{name}" for name in presets} <= names
    assert "attention_explorer/core/attention.py" in names and "attention_explorer/__main__.py" in names
    assert not any("__pycache__" in name or name.startswith("tests/") for name in names)

    installed = subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                               capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr[-2000:]

    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH")}
    environment["PYTHONPATH"] = str(target)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], cwd=elsewhere, env=environment, capture_output=True,
                              text=True, timeout=60)

    where = run("-c", "import attention_explorer.core.presets as p; print(p.__file__); print(p.presets_dir())")
    assert where.returncode == 0, where.stderr
    module_file, presets_dir = where.stdout.splitlines()
    assert Path(module_file).is_relative_to(target) and Path(presets_dir).is_relative_to(target)

    listed = run("-m", "attention_explorer", "presets")
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()][:2] == ["drag-2d", "library"]
    assert len(listed.stdout.splitlines()) == len(presets)

    computed = run("-m", "attention_explorer", "compute", "--preset", "library", "--format", "text")
    assert computed.returncode == 0, computed.stderr
    assert "output = [0.516, 0.484]" in computed.stdout
