"""The report never hands a terminal a control character from a file: ESC, BEL, NUL, DEL, C1, bidi controls escaped."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from attention_explorer.core.scenes.query import report
from attention_explorer.core.terminal import json_without_controls, terminal_json, terminal_text

# Unicode's Bidi_Control characters: the embeddings, overrides and isolates, and the three marks.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
SEPARATORS = "\u2028\u2029"


def is_unsafe(char: str) -> bool:
    return unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS or char in SEPARATORS


@given(st.text())
def test_no_control_or_bidi_character_survives(text):
    assert not any(is_unsafe(char) for char in terminal_text(text))


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc",),
                                      blacklist_characters=BIDI_CONTROLS + SEPARATORS)))
def test_text_without_them_is_unchanged(text):
    assert terminal_text(text) == text


@given(st.text())
def test_json_keeps_the_value_and_drops_every_raw_control(text):
    written = terminal_json({"title": text})
    assert not any(is_unsafe(char) for char in written.replace("\n", ""))
    assert json.loads(written) == {"title": text}


def test_escapes_read_as_python_would_write_them():
    assert terminal_text("a\x1b]0;owned\x07b\x00\x7f\x9b\n") == "a\\x1b]0;owned\\x07b\\x00\\x7f\\x9b\\x0a"
    assert terminal_text("北京 <b> θ 👩\u200d💻 \u200c") == "北京 <b> θ 👩\u200d💻 \u200c"  # joiners are text
    assert json_without_controls('"\x7f\x85"') == '"\\u007f\\u0085"'


def test_a_right_to_left_override_is_escaped_not_obeyed():
    # Shown raw, "\u202e" makes a terminal draw "report_\u202etxt.exe" as "report_exe.txt".
    assert terminal_text("report_\u202etxt.exe") == "report_\\u202etxt.exe"
    assert terminal_text("\u2066a\u2069 \u200f \u061c \u2028") == "\\u2066a\\u2069 \\u200f \\u061c \\u2028"
    assert json_without_controls('"\u202e\u2029"') == '"\\u202e\\u2029"'
    assert json.loads(terminal_json(["x\u202ey"])) == ["x\u202ey"]


def test_the_report_module_still_offers_the_helpers():
    assert report.terminal_text is terminal_text and report.json_without_controls is json_without_controls
