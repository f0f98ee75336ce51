"""The built-in example scenarios, shipped as ordinary scenario files in the package's resources."""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path
from typing import TYPE_CHECKING

from attention_explorer.core.files.anykind import load_any
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario

if TYPE_CHECKING:
    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario

DEFAULT_PRESET = "drag-2d"
# The order a lecture walks through them; files not listed here follow alphabetically.
_ORDER = ("drag-2d", "library", "article-step3", "saturation-small", "saturation-large", "code-review",
          "aligned", "orthogonal", "opposite", "self-attention", "translation")


def resources_dir() -> Path:
    """The resources folder: the repository's top-level resources/, installed as attention_explorer.resources."""
    # A checkout run from its own folder (PYTHONPATH, a worktree, a non-editable install elsewhere) uses the
    # resources/ beside its own package, so the code and its presets, lectures and translations always match.
    checkout = Path(__file__).resolve().parents[3] / "resources"
    if (checkout / "__init__.py").is_file() and (checkout / "presets").is_dir():
        return checkout
    # Start-up: a package installed as a folder (a wheel, `pip install -e`) names it in its spec, without importing
    # the package, whose importlib.resources brings tempfile and zipfile (~12 ms) to say the same.
    spec = importlib.util.find_spec("attention_explorer.resources")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    from importlib import resources  # any other installation: ask the package, as before

    return Path(str(resources.files("attention_explorer.resources")))


def presets_dir() -> Path:
    """Folder holding the preset scenario files."""
    return resources_dir() / "presets"


def preset_names() -> list[str]:
    """Every preset's name, in teaching order."""
    found = {path.stem for path in presets_dir().glob("*.json")}
    ordered = [name for name in _ORDER if name in found]
    return ordered + sorted(found - set(ordered))


def preset_path(name: str) -> Path:
    """The file of a preset; unknown names raise ScenarioError listing the known ones."""
    if name not in preset_names():
        raise ScenarioError("unknown preset {0!r} (known: {1})", name, ', '.join(preset_names()))
    return presets_dir() / f"{name}.json"


def load_preset(name: str) -> Scenario | SequenceScenario | CrossScenario:
    """Load a preset through the same validating loader as any user file (`self-attention` is a sequence)."""
    return load_any(preset_path(name))


def preset_title(name: str) -> str:
    """A preset's title as its file says it ("" if none), read without building the scenario (for menus)."""
    return _preset_head(name)[0]


def preset_kind(name: str) -> str:
    """A preset's `kind` ("" for a single-query scenario), read without building the scenario (lecture scripts)."""
    return _preset_head(name)[1]


def _preset_head(name: str) -> tuple[str, str]:
    path = preset_path(name)
    status = path.stat()
    return _head_of(str(path), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=64)
def _head_of(path: str, _mtime_ns: int, _size: int) -> tuple[str, str]:
    # The examples menu names every preset at start-up; validating twelve scenarios for that took ~11 ms.
    document = json.loads(Path(path).read_bytes())
    title, kind = document.get("title", ""), document.get("kind", "")
    return (title if isinstance(title, str) else "", kind if isinstance(kind, str) else "")
