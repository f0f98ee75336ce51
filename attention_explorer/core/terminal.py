"""Text written to a terminal: what a file or a command line says, printed so that it can never act on the terminal.

Every command that prints text from outside the program (a file's title, labels or tokens, a file name, a model's
name, a field name quoted in an error) passes it through `terminal_text`, or writes JSON with `terminal_json` /
`json_without_controls`. Pure Python (re and json only), cheap to import from any command.

Escaped, as Python writes them (\\x1b, \\u202e), so that the reader still sees which character was there:

* C0 controls, DEL and C1 controls: a terminal acts on them (ESC starts a command that can clear the screen or set
  the window's title, BEL rings, NUL, backspace and carriage return move or hide text);
* Unicode's bidirectional controls (Bidi_Control: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): a
  terminal that lays out right-to-left text reorders what follows them, so "txt.exe" can show as "exe.txt" and a
  file name or a number can seem to say something else (the "Trojan Source" trick);
* the line and paragraph separators U+2028, U+2029: line breaks to some programs reading the output (Python's
  splitlines), so one line of `presets` or one error line would no longer be one line.

Other invisible characters (zero-width joiners, which emoji and Persian need) are kept as they are.
"""

from __future__ import annotations

import json
import re
from typing import Any

# What a terminal must never receive raw from text that came from outside the program.
_TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# JSON already writes C0 as \u escapes; the rest are legal raw in a JSON string, so they are escaped here.
_JSON_RAW_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """`text` safe to write to a terminal: control and bidirectional-control characters as escapes (\\x1b, \\u202e).

    Everything else (北京, θ, an emoji) is left as it is. The one helper every text-printing command uses.
    """
    return _TERMINAL_UNSAFE.sub(_escape, text)


def json_without_controls(text: str) -> str:
    """JSON text with its raw DEL, C1, bidirectional controls and line separators written as \\u escapes.

    The escapes are JSON's own, so the document reads back the same; only what a terminal shows changes.
    """
    return _JSON_RAW_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def terminal_json(document: Any) -> str:
    """`document` as indented JSON, non-ASCII as itself but with nothing left raw that a terminal would act on."""
    return json_without_controls(json.dumps(document, ensure_ascii=False, indent=2))
