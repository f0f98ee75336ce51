"""The report never hands a terminal a control character from a file: ESC, BEL, NUL, DEL, C1 come out escaped."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from attention_explorer.core.report import json_without_controls, terminal_json, terminal_text


def is_control(char: str) -> bool:
    return unicodedata.category(char) == "Cc"  # exactly C0, DEL and C1


@given(st.text())
def test_no_control_character_survives(text):
    assert not any(is_control(char) for char in terminal_text(text))


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc",))))
def test_text_without_controls_is_unchanged(text):
    assert terminal_text(text) == text


@given(st.text())
def test_json_keeps_the_value_and_drops_every_raw_control(text):
    written = terminal_json({"title": text})
    assert not any(is_control(char) for char in written.replace("\n", ""))
    assert json.loads(written) == {"title": text}


def test_escapes_read_as_python_would_write_them():
    assert terminal_text("a\x1b]0;owned\x07b\x00\x7f\x9b\n") == "a\\x1b]0;owned\\x07b\\x00\\x7f\\x9b\\x0a"
    assert terminal_text("北京 \u200f <b>") == "北京 \u200f <b>"
    assert json_without_controls('"\x7f\x85"') == '"\\u007f\\u0085"'
