"""Files are data: nothing in a scenario file is ever evaluated, unpickled or interpreted as markup.

A scenario file can come from anywhere (an e-mail, a shared drive). The package never calls eval/exec or any
deserialiser that can run code (pickle, marshal, shelve, yaml.load, numpy.load with pickles, torch.load), which
an AST scan of every module checks; and files carrying such payloads load as plain text or are refused.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

import attention_explorer
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as scenario_file
from tests.helpers.sources import parsed

PACKAGE = Path(attention_explorer.__file__).resolve().parent
DANGEROUS_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle", "jsonpickle",
                     "yaml", "joblib"}
DANGEROUS_CALLS = {"eval", "exec", "compile", "__import__", "execfile"}
# module attribute calls that run code from data
DANGEROUS_ATTRIBUTES = {("torch", "load"), ("pickle", "loads"), ("pickle", "load"), ("marshal", "loads"),
                        ("yaml", "load"), ("yaml", "unsafe_load"), ("yaml", "full_load"),
                        ("importlib", "import_module")}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def scan(package: Path) -> list[str]:
    """Every import of a code-running deserialiser and every eval-like call in the package's modules."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = parsed(path)
        where = path.relative_to(package.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [f"{where}:{node.lineno} import {a.name}" for a in node.names
                          if a.name.split(".")[0] in DANGEROUS_MODULES]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in DANGEROUS_MODULES:
                found.append(f"{where}:{node.lineno} from {node.module} import …")
            elif isinstance(node, ast.Call):
                name = _dotted(node.func)
                parts = name.split(".")
                if name in DANGEROUS_CALLS or (len(parts) >= 2 and (parts[-2], parts[-1]) in DANGEROUS_ATTRIBUTES):
                    found.append(f"{where}:{node.lineno} {name}(…)")
                if parts[-1] == "load" and any(k.arg == "allow_pickle" for k in node.keywords):
                    found.append(f"{where}:{node.lineno} {name}(allow_pickle=…)")
    return found


def test_the_package_never_evaluates_or_unpickles():
    found = scan(PACKAGE)
    assert not found, "code that can run what a file contains:\n" + "\n".join(found)


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """Self-check of the scan on a module that does everything forbidden."""
    bad = tmp_path / "attention_explorer" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("import pickle\nfrom yaml import load\nx = eval('1')\nnp.load('f', allow_pickle=True)\n"
                   "torch.load('m')\n", encoding="utf-8")
    found = "\n".join(scan(bad.parent))
    for piece in ("import pickle", "from yaml", "eval(", "allow_pickle", "torch.load"):
        assert piece in found


PAYLOADS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "__import__('os').system('touch {marker}')",
    "{{{{ self.__init__.__globals__ }}}}",
    "<script>touch {marker}</script>",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_code_in_text_fields_stays_plain_text(tmp_path, payload):
    marker = tmp_path / "executed"
    text = payload.format(marker=marker)
    document = {"title": text[:200], "description": text, "query": [1, 0], "keys": [[1, 0], [0, 1]],
                "values": [[1], [0]], "labels": [text[:64], "K2"]}
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = scenario_file.load(path)
    assert loaded.title == text[:200] and loaded.description == text and loaded.labels[0] == text[:64]
    assert not marker.exists()


@pytest.mark.parametrize("document", [
    {"__class__": "os.system", "query": [1], "keys": [[1]], "values": [[1]]},
    {"query": {"py/object": "os.system", "py/reduce": [["touch", "x"]]}, "keys": [[1]], "values": [[1]]},
    {"query": [1], "keys": [[1]], "values": [[1]], "scale": {"__reduce__": ["os.system", ["id"]]}},
    {"!!python/object:os.system": None, "query": [1], "keys": [[1]], "values": [[1]]},
])
def test_objects_in_a_file_are_refused_not_built(document):
    with pytest.raises(ScenarioError) as refusal:
        scenario_file.loads(json.dumps(document))
    assert any(word in str(refusal.value) for word in ("unknown field", "expected"))


def test_markup_in_labels_is_shown_as_text_not_interpreted(window, tmp_path):
    """A label or title with HTML shows its characters; it makes no link, image or bold text in any panel."""
    label = '<a href="key:1"><b>K1</b></a><img src="x">'
    document = {"title": "<i>T</i>", "query": [1, 0], "keys": [[1, 0], [0, 1]], "values": [[1, 0], [0, 1]],
                "labels": [label, "K2"]}
    path = tmp_path / "markup.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert window.open_file(str(path), ask=False)
    QApplication.processEvents()
    assert label in window.steps_view.plain_text()
    stats = window.weights_chart.stats_label.text()
    assert "&lt;a href" in stats and "<a href" not in stats
    readout = window.canvas.readout.text()
    assert "<img" not in readout and "&lt;img" in readout
    assert window.canvas._keys[0].label.textItem.toPlainText() == label
    assert "<i>T</i>" in window.windowTitle()
