"""Chinese labels must render as glyphs, not as empty boxes (CI installs a CJK font in .ci/run)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QImage, QPainter


def _render(text: str, font: QFont) -> QImage:
    image = QImage(120, 60, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(Qt.GlobalColor.black)
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return image


def test_chinese_tokens_have_glyphs_in_the_application_font(qapp):
    font = QFont(qapp.font())
    font.setPointSize(24)
    metrics = QFontMetrics(font)
    for char in "我爱北京":
        # Qt falls back to another family for missing glyphs; inFontUcs4 sees only the primary one,
        # so compare with a code point no font has: a missing glyph would draw the same box.
        assert metrics.horizontalAdvance(char) > 0
        assert _render(char, font) != _render("\U000f0000", font), f"{char!r} renders as a missing-glyph box"
    assert _render("我", font) != _render("爱", font)
