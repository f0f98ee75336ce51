"""The recovery file of a whole workspace: one page's work in that scene's own file (as every older recovery file
is), several pages' in one document; each read back exactly, a damaged one refused by its first problem."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attention_explorer.core.files import anykind as fileformat
from attention_explorer.core.files import workspace as workspace_file
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.files.workspace import RECOVERY_FORMAT, WorkspaceTooLarge, WorkspaceWork
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.positions.scene import PositionalScene


def test_one_pages_work_is_its_own_file_byte_for_byte(tmp_path):
    scenario = load_preset("library")
    path = tmp_path / "recovery.json"
    workspace_file.save(WorkspaceWork({"scenario": scenario}), path)
    assert path.read_text(encoding="utf-8") == fileformat.dumps(scenario)  # what older versions wrote and read
    assert workspace_file.loads(path.read_bytes()) == WorkspaceWork({"scenario": scenario}, "scenario")
    sentence = load_preset("self-attention")
    workspace_file.save(WorkspaceWork({"sequence": sentence}, "sequence"), path)
    assert workspace_file.loads(path.read_bytes()).scenes == {"sequence": sentence}


def test_several_pages_share_one_document_and_come_back_exactly(tmp_path):
    scenes = {"scenario": load_preset("drag-2d"), "sequence": load_preset("self-attention"),
              "multihead": load_preset("multi-head"), "cross": load_preset("translation"),
              "positions": PositionalScene(d=16, pair=2, m=40, n=3, seed=9)}
    path = tmp_path / "recovery.json"
    workspace_file.save(WorkspaceWork(scenes, "cross"), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == RECOVERY_FORMAT and document["page"] == "cross"
    assert list(document["pages"]) == list(scenes)
    assert document["pages"]["sequence"] == json.loads(fileformat.dumps(scenes["sequence"]))  # each in its own kind
    back = workspace_file.loads(path.read_bytes())
    assert back.page == "cross" and back.scenes == scenes


BAD = {
    "unknown page": ({"format": RECOVERY_FORMAT, "pages": {"canvas": {}}}, 'pages: "canvas" is not a page'),
    "no pages": ({"format": RECOVERY_FORMAT, "pages": {}}, "pages: expected an object with one scene per page"),
    "wrong kind": ({"format": RECOVERY_FORMAT, "pages": {"sequence": {"query": [1], "keys": [[1]], "values": [[1]]}}},
                   'pages: the scene under "sequence" is of another kind'),
    "unknown field": ({"format": RECOVERY_FORMAT, "pages": {}, "when": 1}, '"when": unknown field (allowed in a '
                                                                           "recovery file"),
    "bad page": ({"format": RECOVERY_FORMAT, "page": 3,
                  "pages": {"positions": {"kind": "positions", "d": 2, "m": 0, "n": 0}}}, "page: expected one of"),
    "bad scene": ({"format": RECOVERY_FORMAT, "pages": {"positions": {"kind": "positions", "d": 3, "m": 0, "n": 0}}},
                  "d: expected an even whole number"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_damaged_recovery_document_is_refused(case):
    document, message = BAD[case]
    with pytest.raises(ScenarioError) as refused:
        workspace_file.loads(json.dumps(document))
    assert str(refused.value).startswith(message), str(refused.value)


def test_too_large_names_the_pages_too_large_on_their_own_and_keeps_the_last_copy(tmp_path, monkeypatch):
    path = tmp_path / "recovery.json"
    small = PositionalScene()
    workspace_file.save(WorkspaceWork({"positions": small}, "positions"), path)
    kept = path.read_bytes()
    monkeypatch.setattr(fileformat, "MAX_FILE_BYTES", 2**16)
    rows = np.full((16, 256), 1 / 3)
    from attention_explorer.core.scenes.query.scene import Scenario

    large = Scenario(query=np.zeros(256), keys=rows, values=rows)
    with pytest.raises(WorkspaceTooLarge) as refused:
        workspace_file.save(WorkspaceWork({"scenario": large, "positions": small}, "positions"), path)
    assert refused.value.kinds == ("scenario",) and "MiB" in str(refused.value)
    assert path.read_bytes() == kept and list(tmp_path.iterdir()) == [path]
