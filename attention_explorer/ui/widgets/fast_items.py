"""pyqtgraph items made cheap to move and to bound, for what changes on every drag move.

Moving: every pyqtgraph item asks Qt for a Python call on each change of its position or transform, only to tell
an auto-ranging view that its bounds moved; none of our views auto-range (each frames itself), and the calls
cost 15 µs per `setPos` against 1 µs without (16 labels and markers move per drag move).

Bounding: BarGraphItem and ScatterPlotItem work theirs out again (data bounds, then the size of a pixel from the device
transform) every time Qt asks, which is several times per drag move for the bars and the output marker that
change on every move. PlotCurveItem already keeps its rectangle the same way: until `prepareGeometryChange`
(new data, pens or sizes) or `viewTransformChanged` (zoom, pan, resize).

Texts: pyqtgraph's TextItem holds a QGraphicsTextItem, a whole rich-text document, rebuilt and laid out again at
each new text; four texts change on every drag move (three weights, the angle), about a seventh of the move's
work. QuickText draws the same plain text with one QTextLayout per paragraph, pixel for pixel as the document does.
"""

from __future__ import annotations

import math
import re

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QTextLayout
from PySide6.QtWidgets import QGraphicsItem, QGraphicsTextItem, QStyleOptionGraphicsItem, QWidget

FEW_POINTS = 64  # up to this many, plain Python finds a curve's extent faster than numpy's nanmin/nanmax


def moves_quietly(item: pg.GraphicsObject) -> pg.GraphicsObject:
    """The item, no longer sending position and transform changes to Python (its view must not auto-range)."""
    item.setFlag(item.GraphicsItemFlag.ItemSendsGeometryChanges, False)
    return item


class KeptPixelVectorsMixin:
    """Keeps the size of a view pixel in item units until the view's transform changes (mix in before the pg item).

    pyqtgraph works it out from the device transform at each call, for every bounding rectangle it computes; only
    the view's scale changes it for an item that is only ever moved (no rotation or scaling of its own).
    """

    _pixel_vectors: tuple | None = None

    def pixelVectors(self, direction=None):
        if direction is not None:
            return super().pixelVectors(direction)
        if self._pixel_vectors is None:
            vectors = super().pixelVectors()
            if vectors[0] is None or vectors[1] is None:
                return vectors  # not shown yet: asked again once it is
            self._pixel_vectors = vectors
        return pg.Point(self._pixel_vectors[0]), pg.Point(self._pixel_vectors[1])  # copies, as pyqtgraph's

    def viewTransformChanged(self) -> None:
        self._pixel_vectors = None
        super().viewTransformChanged()


class CachedBoundsMixin(KeptPixelVectorsMixin):
    """Keeps `boundingRect()` until the geometry or the view's transform changes (mix in before the pg item)."""

    _bounds_cache: QRectF | None = None

    def prepareGeometryChange(self) -> None:
        self._bounds_cache = None
        super().prepareGeometryChange()

    def viewTransformChanged(self) -> None:
        # The padding of a few pixels around the data is in view units: another scale, another rectangle.
        self._bounds_cache = None
        self.prepareGeometryChange()
        super().viewTransformChanged()

    def boundingRect(self) -> QRectF:
        if self._bounds_cache is None:
            self._bounds_cache = super().boundingRect()
        return self._bounds_cache


class CachedBars(CachedBoundsMixin, pg.BarGraphItem):
    """A BarGraphItem that keeps its bounding rectangle between `setOpts` calls and view changes."""


class CachedScatter(CachedBoundsMixin, pg.ScatterPlotItem):
    """A ScatterPlotItem that keeps its bounding rectangle between data, size or pen changes and view changes."""

    def updateSpots(self, dataSet=None) -> None:
        # Spots restyled (pens, sizes, symbols) may be wider: the padding changes with them, and pyqtgraph asks
        # for no geometry change when the new style's picture was drawn before.
        super().updateSpots(dataSet)
        if self._bounds_cache is not None:
            self._bounds_cache = None
            super().prepareGeometryChange()

    def invalidate(self) -> None:
        self._bounds_cache = None
        super().invalidate()


class FewPointsCurve(KeptPixelVectorsMixin, pg.PlotCurveItem):
    """A curve of a few points (an arrow's shaft, the angle's arc) whose extent is found without numpy.

    PlotCurveItem.dataBounds calls nanmin and nanmax inside a warnings guard, which for two points costs more
    than the rest of a drag move's canvas update; the result is the same.
    """

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):
        data = self.xData if ax == 0 else self.yData if ax == 1 else None
        if (data is None or len(data) > FEW_POINTS or frac < 1.0 or orthoRange is not None
                or self.opts["fillLevel"] is not None or self.opts["shadowPen"] is not None):
            return super().dataBounds(ax, frac, orthoRange)
        cache = self._boundsCache[ax]
        if cache is not None and cache[0] == (frac, orthoRange):
            return cache[1]
        finite = [value for value in data.tolist() if math.isfinite(value)]
        if not finite:
            return (None, None)
        low, high = min(finite), max(finite)
        pen = self.opts["pen"]
        if pen is not None and not pen.isCosmetic() and pen.style() != Qt.PenStyle.NoPen:
            # As PlotCurveItem: a pen in view units widens the extent by half its diagonal.
            low, high = low - pen.widthF() * 0.7072, high + pen.widthF() * 0.7072
        bounds = (low, high)
        self._boundsCache[ax] = [(frac, orthoRange), bounds]
        return bounds


# QTextDocument's default margin around its text, which QGraphicsTextItem's bounding rectangle includes.
DOCUMENT_MARGIN = 4.0
# Where QTextDocument's setPlainText starts a new paragraph (a name from a file may hold any of them); a line
# separator (U+2028) breaks the line inside its paragraph, as QTextLayout does by itself.
PARAGRAPH_BREAK = re.compile("\r\n|[\n\r\u2029]")
UNWRAPPED = 1e7  # px: wider than any text the format allows, so no line wraps


class PlainTextLines(QGraphicsItem):
    """Plain text drawn and bounded as a QGraphicsTextItem draws it (same margin, lines, fonts, fallbacks, pixels).

    It offers the part of QGraphicsTextItem that pyqtgraph's TextItem and our views use; the text is never rich.
    """

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._font = QFont()
        self._color = QColor(Qt.GlobalColor.black)
        self._layouts: list[QTextLayout] = []
        self._rect = QRectF()
        self._lay_out()

    def _lay_out(self) -> None:
        """One layout per paragraph, stacked as the document stacks them; the rectangle around them."""
        self.prepareGeometryChange()
        self._layouts = []
        top = 0.0
        width = 0.0
        for paragraph in PARAGRAPH_BREAK.split(self._text):
            layout = QTextLayout(paragraph, self._font)
            layout.setCacheEnabled(True)
            layout.beginLayout()
            line = layout.createLine()
            while line.isValid():
                line.setLineWidth(UNWRAPPED)  # lays the line out now, up to its paragraph's end or a U+2028
                line.setPosition(QPointF(0.0, top))
                width = max(width, line.naturalTextWidth())
                top += line.height()
                line = layout.createLine()
            layout.endLayout()
            self._layouts.append(layout)
        # A line's height is whole pixels (the layout rounds the font's up), as in the document.
        self._rect = QRectF(0.0, 0.0, width + 2.0 * DOCUMENT_MARGIN, top + 2.0 * DOCUMENT_MARGIN)
        self.update()

    def setPlainText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self._lay_out()

    def toPlainText(self) -> str:
        return self._text

    def setFont(self, font: QFont) -> None:
        self._font = QFont(font)
        self._lay_out()

    def font(self) -> QFont:
        return QFont(self._font)

    def setDefaultTextColor(self, color: QColor) -> None:
        self._color = QColor(color)
        self.update()

    def defaultTextColor(self) -> QColor:
        return QColor(self._color)

    def boundingRect(self) -> QRectF:
        return self._rect  # replaced, never changed in place: Qt asks for it some 30 times per drag move

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(self._color)
        for layout in self._layouts:
            layout.draw(painter, QPointF(DOCUMENT_MARGIN, DOCUMENT_MARGIN))


class QuickText(pg.TextItem):
    """A pyqtgraph TextItem for plain text that changes often (a number on every drag move): see PlainTextLines."""

    def __init__(self, text: str = "", color=(200, 200, 200), anchor=(0, 0), **options) -> None:
        super().__init__(text="", color=color, anchor=anchor, **options)
        document_item = self.textItem
        document_item.setParentItem(None)  # not in a scene yet: dropped with its last reference
        self.textItem: QGraphicsTextItem | PlainTextLines = PlainTextLines(self)
        self.textItem.setFont(document_item.font())
        self.textItem.setDefaultTextColor(self.color)
        self.setPlainText(text)
        self.updateTextPos()

    def setHtml(self, html: str) -> None:
        raise TypeError("QuickText shows plain text only: use pg.TextItem for rich text")

    def toHtml(self) -> str:
        raise TypeError("QuickText shows plain text only")

    def setTextWidth(self, *args) -> None:
        raise TypeError("QuickText does not wrap: use pg.TextItem")
