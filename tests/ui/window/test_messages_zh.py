"""Messages in the Chinese window: numbers as people write them (2 000 000, 1×10⁻⁷, one minus sign), never
programmer notation (2e+06), whatever file or lecture script brings the number; dates in the Chinese form."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QDateTime, QLocale

from attention_explorer.core.files.presets import resources_dir

PROGRAMMER = re.compile(r"\de[+-]?\d|inf\b")
T = "\u2009"  # the thin space between thousands


@pytest.fixture(scope="module")
def window(make_module_window):
    return make_module_window(language="zh_CN", record_errors=True, discard_changes=True)


def _library(**changes) -> str:
    document = json.loads((resources_dir() / "presets" / "library.json").read_text(encoding="utf-8"))
    document.update(changes)
    return json.dumps(document)


@pytest.mark.parametrize(("text", "said"), [
    ('{"kind": "lecture", "scenes": [{"preset": "library", "scale": 2e6}]}',
     f"scenes[0].scale：2{T}000{T}000 超出范围（0 到 1{T}000{T}000）"),
    ('{"kind": "lecture", "scenes": [{"preset": "library", "scale": 1000000.5}]}',
     f"scenes[0].scale：1000000.5 超出范围（0 到 1{T}000{T}000）"),
    ('{"kind": "lecture", "scenes": [{"preset": "library", "scale": -1e-7}]}',
     f"scenes[0].scale：−1×10⁻⁷ 超出范围（0 到 1{T}000{T}000）"),
    (_library(query=[1, 0, 2e6, 0]), f"query[2]：2{T}000{T}000 超出范围（|x| 不能大于 1{T}000{T}000）"),
    (_library(query=[1, 0, -3.5e9, 0]), f"query[2]：−3{T}500{T}000{T}000 超出范围（|x| 不能大于 1{T}000{T}000）"),
    (_library(claims=[{"after": "factor", "factor": 2.5e7, "weights": [0.5, 0.3, 0.2]}]),
     f"claims[0].factor：应为 0 到 1{T}000{T}000 之间的数字，却是 25{T}000{T}000"),
    (_library(claims=[{"weights": [0.5, 0.3, 0.2], "tolerance": 1.5e-400}]),
     "claims[0].tolerance：应为大于 0 且不超过 1 的数字，却是 0"),
])
def test_a_number_out_of_range_is_written_as_people_write_it(window, tmp_path, text, said):
    path = tmp_path / "mine.json"
    path.write_text(text, encoding="utf-8")
    window.errors.clear()
    assert not window.open_file(str(path))
    [(_title, message)] = window.errors
    assert message == f"mine.json: {said}", message
    assert not PROGRAMMER.search(message)
    assert "-" not in message.replace("mine.json", "")  # one minus sign: the typographic one


def test_the_recovery_question_writes_the_date_the_chinese_way(window, _no_modal_dialogs):
    """Seen: "7 Dec 2026" in the Chinese window (the system's C locale)."""
    saved_at = 1796630400  # 7 December 2026, 08:00 UTC
    _no_modal_dialogs.clear()
    window.ask_restore_recovery(SimpleNamespace(saved_at=saved_at))
    [(title, text)] = _no_modal_dialogs  # what the question box was given (conftest answers it)
    when = QLocale("zh_CN").toString(QDateTime.fromSecsSinceEpoch(saved_at), QLocale.FormatType.ShortFormat)
    assert when.startswith("2026/12/7") and when in text
    assert "Dec" not in text and "AM" not in text and "PM" not in text
    assert text.startswith("Attention Explorer 没有正常关闭") and title == "恢复未保存的工作？"
