"""A typed sentence into tokens: words between spaces, or one token per Chinese character when typed without any.

Pure Python, no Qt: the self-attention, multi-head and cross-attention labs all split what the user types this way.
"""

from __future__ import annotations

import re

_CJK = re.compile(
    "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u31a0-\u31bf\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0002fa1f]"
)


CJK_CHARACTER = _CJK  # a Chinese (Japanese, Korean) character, or a full-width form


def split_tokens(text: str) -> list[str]:
    """The tokens of a typed sentence: the words between spaces; a sentence typed without spaces ("我爱北京天安门")
    is split as Chinese BERT splits it, one token per Chinese character, a run of other letters staying one word."""
    words = text.split()
    if len(words) != 1 or not _CJK.search(words[0]):
        return words
    tokens: list[str] = []
    run = ""
    for character in words[0]:
        if _CJK.match(character):
            tokens.extend([run] if run else [])
            tokens.append(character)
            run = ""
        else:
            run += character
    return tokens + ([run] if run else [])


def joined_sentence(tokens: list[str] | tuple[str, ...]) -> str:
    """The tokens as one sentence for a real model's tokenizer: a space between two words, none next to a Chinese
    character (["我", "爱", "北京"] → "我爱北京", as Chinese is written; ["I", "love"] → "I love")."""
    text = ""
    for token in tokens:
        if text and not (_CJK.match(text[-1]) or (token and _CJK.match(token[0]))):
            text += " "
        text += token
    return text
