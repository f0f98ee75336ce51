"""An example's key names in the current language: "call chain" is 调用链 in Chinese, "K1" stays K1."""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from PySide6.QtCore import QCoreApplication

T = TypeVar("T")


def translated_labels(loaded: T) -> T:
    """A preset as opened from the Examples menu or a lecture: its key names translated (tools/update_translations.py
    marks them in context "presetLabels"); any other scene, or one without such names, is returned as it is."""
    labels = getattr(loaded, "labels", None)
    if not labels or not dataclasses.is_dataclass(loaded):
        return loaded
    translated = tuple(QCoreApplication.translate("presetLabels", label) for label in labels)
    if translated == tuple(labels) or len(set(translated)) != len(translated):
        return loaded
    return dataclasses.replace(loaded, labels=translated)
