"""Every plot of every page as a figure: PNG at a chosen width, SVG and PDF, and a right-click "Export…" on each.

A figure is what a person points at: any pyqtgraph view (plot, heatmap), a widget that draws itself for export
(`render_to(painter, size, fast)`: the head and model views) or one marked `setProperty("figure", True)` (the KV
cache diagram). A plot with a title label above it (lab_plots.titled), or a box marked like one (a multi-head
tile: its "Head n" button above its two maps), is exported whole, with its title. Nothing is
registered plot by plot: FigureMenu, installed once on the window (and on each dock, which floats as a window of
its own), finds the figure under a right-click, so a plot a page makes later (a new head's heatmaps) has it too.

The picture is the widget as it is drawn now: the theme's colours, the current language's text. It is made in
memory and written by export_file.write_export (atomic, checked on the disk); PNG is rendered at the chosen width
(the widget drawn scaled, not a screenshot enlarged), SVG and PDF as vectors with their text as text.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pyqtgraph as pg
from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QEvent,
    QIODevice,
    QMarginsF,
    QObject,
    QPoint,
    QRectF,
    QSize,
    QSizeF,
    Qt,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QRegion,
    QTextDocumentFragment,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGraphicsItem,
    QGraphicsView,
    QLabel,
    QMenu,
    QSpinBox,
    QWidget,
)

from attention_explorer.core.files.figure_size import check_export_width, export_height, max_export_width
from attention_explorer.core.limits import MIN_EXPORT_WIDTH
from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.widgets.export_file import NothingToWrite, png_bytes, write_export

FORMATS = ("png", "svg", "pdf")
FIGURE = "figure"  # the property that makes a widget a figure
TITLED = "figureTitled"  # the property of a plot-and-title box (lab_plots.titled): exported whole
SCREEN_DPI = 96  # SVG and PDF keep the widget's size: one pixel is 1/96 inch, as on a desk screen
DEFAULT_SCALE = 2  # the width a PNG starts at: twice the figure's pixels, sharp on a slide


def is_figure(widget: QWidget) -> bool:
    """True for a widget that exports as a figure on its own."""
    return (isinstance(widget, pg.GraphicsView) or bool(widget.property(FIGURE))
            or callable(getattr(widget, "render_to", None)))


def figure_at(root: QWidget, pos: QPoint) -> QWidget | None:
    """The figure under `pos` (root's coordinates): the innermost figure there, with its title box if it has one."""
    widget = root.childAt(pos)
    while widget is not None and widget is not root and not is_figure(widget):
        widget = widget.parentWidget()
    if widget is None or (widget is root and not is_figure(root)):
        return None
    return titled_box(widget)


def titled_box(figure: QWidget) -> QWidget:
    """The figure with its title label when it sits in a titled box, else the figure itself."""
    parent = figure.parentWidget()
    return parent if parent is not None and parent.property(TITLED) else figure


def page_figures(page: QWidget) -> list[QWidget]:
    """The figures a page shows now (visible ones, each once, a titled plot as its box), in the order made."""
    found: list[QWidget] = []
    for widget in page.findChildren(QWidget):
        if is_figure(widget) and widget.isVisible() and widget.width() > 0 and widget.height() > 0:
            box = titled_box(widget)
            if box not in found and not any(box is not other and other.isAncestorOf(box) for other in found):
                found.append(box)
    return found


def figure_name(figure: QWidget) -> str:
    """A file name for the figure: its object name, or its plot's (a titled box has none of its own)."""
    if figure.objectName():
        return figure.objectName()
    named = [child.objectName() for child in figure.findChildren(QWidget) if is_figure(child) and child.objectName()]
    return named[0] if named else ""


def figure_title(figure: QWidget) -> str:
    """The figure's title as plain text: its title label's, its own export_title(), its accessible name, or ""."""
    if figure.property(TITLED):
        # A title button (a multi-head tile's "Head 1 · …", which a click chooses) is plain text as it is.
        buttons = [child for child in figure.children() if isinstance(child, QAbstractButton) and child.text()]
        for label in figure.findChildren(QLabel):
            text = label.text()
            if text and label.textFormat() == Qt.TextFormat.PlainText:
                return text.strip()
            if text:
                return QTextDocumentFragment.fromHtml(text).toPlainText().strip()
        if buttons:
            return buttons[0].text().replace("&&", "&").strip()
    title = getattr(figure, "export_title", None)
    if callable(title):
        return str(title())
    return figure.accessibleName() or ""


# ------------------------------------------------------------ drawing


@contextmanager
def _for_export(figure: QWidget) -> Iterator[None]:
    """pyqtgraph's views drawn for export, as its own exporters do, and restored after: no cached bitmaps (blurred
    when scaled, an image in an SVG), every item in export mode (scatter symbols drawn as shapes, not copied from
    a screen-resolution atlas; antialiased curves)."""
    views = [figure] if isinstance(figure, QGraphicsView) else []
    views += figure.findChildren(QGraphicsView)
    saved_views = [(view, view.cacheMode()) for view in views]
    saved_items: list[tuple[QGraphicsItem, QGraphicsItem.CacheMode]] = []
    exporting: list[QGraphicsItem] = []
    for view in views:
        view.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        if view.scene() is not None:
            for item in view.scene().items():
                if item.cacheMode() != QGraphicsItem.CacheMode.NoCache:
                    saved_items.append((item, item.cacheMode()))
                    item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                if hasattr(item, "setExportMode"):
                    item.setExportMode(True, {"antialias": True})
                    exporting.append(item)
    try:
        yield
    finally:
        for item in exporting:
            item.setExportMode(False)
        for item, mode in saved_items:
            item.setCacheMode(mode)
        for view, mode in saved_views:
            view.setCacheMode(mode)
            view.resetCachedContent()


def _draw(figure: QWidget, painter: QPainter, source: QRegion | None) -> None:
    """Draw the figure (or `source`, a part of it, its bounding rectangle at the painter's origin) in the figure's
    own pixels."""
    render_to = getattr(figure, "render_to", None)
    if callable(render_to) and source is None:
        render_to(painter, figure.size(), fast=False)
        return
    with _for_export(figure):
        if isinstance(figure, QGraphicsView) and source is None:
            # Only what the view shows: its floating controls (the canvas's Fit button, its plane menu) stay out.
            viewport = figure.viewport()
            painter.save()
            painter.translate(viewport.pos())
            QWidget.render(viewport, painter, QPoint(0, 0), QRegion(viewport.rect()),
                           QWidget.RenderFlag.DrawWindowBackground)
            painter.restore()
            return
        area = source if source is not None else QRegion(figure.rect())
        # QWidget's render, also for a QGraphicsView (whose own render draws only its scene); a region's bounding
        # rectangle goes to the origin, what lies outside the region stays the background.
        QWidget.render(figure, painter, QPoint(0, 0), area,
                       QWidget.RenderFlag.DrawWindowBackground | QWidget.RenderFlag.DrawChildren)


def _background(figure: QWidget) -> QColor:
    return figure.palette().color(figure.backgroundRole())


def figure_image(figure: QWidget, width: int | None = None, source: QRegion | None = None) -> QImage:
    """The figure drawn `width` pixels wide (default: twice its width on screen), its height in proportion.

    Raises ScenarioError for a width out of the limits (core/files/figure_size.py).
    """
    size = (source.boundingRect() if source is not None else figure.rect()).size()
    width = width or DEFAULT_SCALE * size.width()
    height = check_export_width(width, size.width(), size.height())
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(_background(figure))
    # Drawn as on a screen of that many pixels per point (not a scaled painter): 1-pixel lines, which pyqtgraph
    # draws with cosmetic pens, keep their look instead of thinning to hairlines in a wide picture.
    image.setDevicePixelRatio(width / size.width())
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                           | QPainter.RenderHint.SmoothPixmapTransform)
    try:
        _draw(figure, painter, source)
    finally:
        painter.end()
    image.setDevicePixelRatio(1.0)
    return image


def figure_bytes(figure: QWidget, fmt: str, width: int | None = None, title: str = "",
                 source: QRegion | None = None) -> bytes:
    """The figure (or its `source` rectangle) as PNG `width` pixels wide, SVG or PDF; b"" when it could not be drawn.

    Raises ScenarioError for a PNG width out of the limits (core/files/figure_size.py).
    """
    size = (source.boundingRect() if source is not None else figure.rect()).size()
    if size.isEmpty():
        return b""
    if fmt == "png":
        return png_bytes(figure_image(figure, width, source))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if fmt == "svg":
        from PySide6.QtSvg import QSvgGenerator  # not at start-up: only an export needs it

        device = QSvgGenerator(QSvgGenerator.SvgVersion.Svg11)  # SVG 1.1: clip paths (a table's cells stay in it)
        device.setOutputDevice(buffer)
        device.setSize(size)
        device.setViewBox(QRectF(0, 0, size.width(), size.height()))
        device.setResolution(SCREEN_DPI)
        device.setTitle(title)
        device.setDescription(QCoreApplication.translate("Export", "Made with Attention Explorer"))
    elif fmt == "pdf":
        device = QPdfWriter(buffer)
        device.setResolution(SCREEN_DPI)
        points = QSizeF(size.width() * 72 / SCREEN_DPI, size.height() * 72 / SCREEN_DPI)
        page = QPageSize(points, QPageSize.Unit.Point, "", QPageSize.SizeMatchPolicy.ExactMatch)
        device.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        device.setTitle(title)
        device.setCreator("Attention Explorer")
    else:
        raise ValueError(f"unknown figure format {fmt!r}")
    painter = QPainter(device)
    drawn = painter.isActive()
    if drawn:
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), _background(figure))
        try:
            _draw(figure, painter, source)
        finally:
            drawn = painter.end()
    buffer.close()
    return bytes(data.data()) if drawn else b""


def write_figure(figure: QWidget, path: str | os.PathLike[str], fmt: str, width: int | None = None,
                 title: str = "", source: QRegion | None = None) -> None:
    """Write the figure to `path` in `fmt`; raises ScenarioError (a width out of the limits, a file not whole),
    OSError (a full or read-only disk) or NothingToWrite. Nothing is left behind when it fails."""
    data = figure_bytes(figure, fmt, width, title or figure_title(figure), source)
    if not data:
        raise NothingToWrite(QCoreApplication.translate("Export", "the picture could not be made"))
    write_export(path, data)


# ------------------------------------------------------------ asking how


class ExportOptions(QDialog):
    """Format and, for PNG, the width in pixels (the height follows the figure's proportions)."""

    def __init__(self, figure_size: QSize, fmt: str = "png", width: int = 0, parent: QWidget | None = None,
                 title: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("exportOptions")
        self.setWindowTitle(self.tr("Export figure"))
        self.setMinimumWidth(360)
        self.figure_size = figure_size
        self.title_label = plain_label(QLabel(title, self))  # a title may quote a token: text, never markup
        self.title_label.setObjectName("exportTitle")
        self.title_label.setWordWrap(True)
        self.title_label.setVisible(bool(title))
        self.format_box = QComboBox(self)
        self.format_box.setObjectName("exportFormat")
        for name, text in zip(FORMATS, (self.tr("PNG picture"), self.tr("SVG drawing (vectors)"),
                                        self.tr("PDF document (vectors)"))):
            self.format_box.addItem(text, name)
        self.width_box = QSpinBox(self)
        self.width_box.setObjectName("exportWidth")
        self.width_box.setRange(MIN_EXPORT_WIDTH, max_export_width(figure_size.width(), figure_size.height()))
        self.width_box.setSuffix(self.tr(" px"))
        self.width_box.setSingleStep(100)
        self.width_box.setValue(width or DEFAULT_SCALE * figure_size.width())
        self.size_label = QLabel(self)
        self.size_label.setObjectName("exportSize")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Export…"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QFormLayout(self)
        layout.addRow(self.title_label)
        layout.addRow(self.tr("Format:"), self.format_box)
        layout.addRow(self.tr("Width:"), self.width_box)
        layout.addRow("", self.size_label)
        layout.addRow(buttons)
        self.format_box.currentIndexChanged.connect(self._update)
        self.width_box.valueChanged.connect(self._update)
        self.format_box.setCurrentIndex(max(FORMATS.index(fmt) if fmt in FORMATS else 0, 0))
        self._update()

    @property
    def fmt(self) -> str:
        return self.format_box.currentData()

    def _update(self, *_args) -> None:
        png = self.fmt == "png"
        self.width_box.setEnabled(png)
        if png:
            height = export_height(self.width_box.value(), self.figure_size.width(), self.figure_size.height())
            self.size_label.setText(self.tr("{0} × {1} pixels").format(self.width_box.value(), height))
        else:
            self.size_label.setText(self.tr("Vectors: sharp at any size; text stays text."))


class FigureMenu(QObject):
    """A right-click on any figure inside the watched widgets offers "Export…" and "Copy picture", which call
    `export(figure)` and `copy(figure)`."""

    def __init__(self, export: Callable[[QWidget], None], copy: Callable[[QWidget], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.export = export
        self.copy = copy
        self.last_menu: QMenu | None = None  # the latest menu (tests trigger its action)

    def watch(self, widget: QWidget) -> None:
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ContextMenu and isinstance(watched, QWidget):
            figure = figure_at(watched, event.pos())
            if figure is not None:
                self.last_menu = self.menu_for(figure, watched)
                self.last_menu.popup(event.globalPos())
                event.accept()
                return True
        return super().eventFilter(watched, event)

    def menu_for(self, figure: QWidget, parent: QWidget) -> QMenu:
        """The figure's menu: Export…, Copy picture."""
        if self.last_menu is not None:  # one menu at a time: the previous one goes
            self.last_menu.deleteLater()
        menu = QMenu(parent)
        menu.setObjectName("figureMenu")
        menu.setToolTipsVisible(True)
        action = QAction(QCoreApplication.translate("Export", "Export…"), menu)
        action.setObjectName("exportFigure")
        action.triggered.connect(lambda: self.export(figure))
        menu.addAction(action)
        action = QAction(QCoreApplication.translate("Export", "Copy picture"), menu)
        action.setObjectName("copyFigure")
        action.setToolTip(QCoreApplication.translate("Export", "Copy the plot as a picture, to paste into slides"))
        action.triggered.connect(lambda: self.copy(figure))
        menu.addAction(action)
        return menu
