"""Every plot of every page exports as PNG (at a chosen width), SVG and PDF: right-click ▸ Export… on the plot, and
File ▸ Export ▸ Current page. The files are read back; the text is the theme's and the language's."""

from __future__ import annotations

import errno
import os
import re
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QContextMenuEvent, QImage
from PySide6.QtWidgets import QApplication, QDialog, QLabel

from attention_explorer.core.files.figure_size import export_height, max_export_width
from attention_explorer.core.limits import MAX_EXPORT_SIDE, MIN_EXPORT_WIDTH
from attention_explorer.ui.labs.registry import PAGES, SATURATION, TRANSFORMER, VECTORS, page_index
from attention_explorer.ui.widgets.figures import FORMATS, ExportOptions, figure_title, is_figure
from tests.helpers.tiny_gpt2 import tiny_gpt2_dir

assert tiny_gpt2_dir  # a fixture: pytest finds it through this import

SVG = "{http://www.w3.org/2000/svg}"
# The figures each page shows at least (the transformer page's over all of its tabs, on the tiny GPT-2; the
# multi-head lab's two heads as one tile each, "Head n" above its two maps).
LEAST_FIGURES = {VECTORS: 3, SATURATION: 3, "variance": 5, "self-attention": 2, TRANSFORMER: 7, "multi-head": 2,
                 "cross-attention": 2, "positions": 3, "bugs": 2, "training": 7}


@pytest.fixture(scope="module")
def window(make_module_window, tiny_gpt2_dir):
    window = make_module_window(size=(1280, 720), record_errors=True, discard_changes=True)
    lab = window.transformer_lab
    assert lab.open_model(tiny_gpt2_dir) and lab.set_sentence("the cat sat on the mat")
    assert lab.next_token()
    window.show_page(0)
    return window


def show(window, page_id: str) -> None:
    window.show_page(page_index(page_id))
    QApplication.processEvents()


def shown_figures(window, page_id: str) -> list:
    """Every figure of the page, the transformer page's tab by tab (each shown in turn)."""
    show(window, page_id)
    if page_id != TRANSFORMER:
        return window.page_figures()
    tabs, views, found = window.transformer_lab.tabs, window.transformer_lab.attention_views, []
    for index in range(tabs.count()):
        tabs.setCurrentIndex(index)
        for button in (views.head_button, views.model_button) if tabs.currentWidget() is views else (None,):
            if button is not None:
                button.click()
            QApplication.processEvents()
            found += [figure for figure in window.page_figures() if figure not in found]
    return found


def read_back(path, fmt: str, size: QSize, width: int) -> None:
    """The file is a whole picture of its format: PNG `width` wide in the figure's proportions with something drawn,
    an SVG that parses, a PDF with a page."""
    data = path.read_bytes()
    if fmt == "png":
        image = QImage(str(path))
        assert (image.width(), image.height()) == (width, export_height(width, size.width(), size.height())), path
        colours = {image.pixel(x, y) for x in range(0, width, 7) for y in range(0, image.height(), 7)}
        assert len(colours) > 2, f"{path.name}: nothing drawn"
    elif fmt == "svg":
        root = ET.fromstring(data)
        assert root.tag == f"{SVG}svg"
        assert root.get("viewBox") == f"0 0 {size.width()} {size.height()}"
        assert len(list(root.iter())) > 10, f"{path.name}: nothing drawn"
    else:
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
        assert len(re.findall(rb"/Type\s*/Page\b(?!s)", data)) == 1, "one page"


def context_menu(widget, pos: QPoint) -> None:
    """A right-click's context-menu event on `widget` (the innermost one under the mouse, as Qt sends it)."""
    target = widget.childAt(pos) or widget
    local = target.mapFrom(widget, pos)
    QApplication.sendEvent(target, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, local, target.mapToGlobal(local)))


@pytest.mark.parametrize("page_id", [spec.id for spec in PAGES])
def test_every_plot_of_every_page_exports_in_each_format(window, page_id, tmp_path, monkeypatch):
    figures = shown_figures(window, page_id)
    assert len(figures) >= LEAST_FIGURES[page_id], [figure.objectName() for figure in figures]
    for number, figure in enumerate(figures):
        width = MIN_EXPORT_WIDTH + 37 * number
        for fmt in FORMATS:
            path = tmp_path / f"{number}.{fmt}"
            window.export_figure(figure, str(path), fmt, width)
            read_back(path, fmt, figure.size(), width)

    # Right-click ▸ Export… on the plot itself (a pyqtgraph view's viewport, the head view, the cache diagram).
    figure = figures[-1]
    asked: list[tuple[QSize, str]] = []
    monkeypatch.setattr(window, "ask_export_options", lambda *args: asked.append(args) or ("png", 640))
    monkeypatch.setattr(window, "ask_save_path", lambda _title, suggestion, _filter: str(tmp_path / "plot"))
    plot = figure
    if figure.property("figureTitled"):
        plot = next(child for child in figure.children() if child.isWidgetType() and is_figure(child))
    context_menu(window, plot.mapTo(window, plot.rect().center()))
    menu = window.figure_menu.last_menu
    assert [action.text() for action in menu.actions()] == ["Export…", "Copy picture"]
    menu.actions()[0].trigger()
    menu.close()
    assert asked == [(figure.size(), figure_title(figure))], "the dialog is about the figure under the mouse"
    read_back(tmp_path / "plot.png", "png", figure.size(), 640)
    assert window._hint_label.text() == "Exported plot.png"

    # File ▸ Export ▸ Current page, in each format.
    page_figure, region = window.current_page_figure()
    size = region.boundingRect().size() if region is not None else page_figure.size()
    if page_id == VECTORS:  # the canvas and the panels beside it, not the menus
        assert size.height() < window.height() - window.menuBar().height()
        assert size.width() > window.canvas.width() + window.docks["weightsChart"].width() - 1
    else:
        assert page_figure is window.current_page()
    for fmt in FORMATS:
        monkeypatch.setattr(window, "ask_export_options", lambda size, _title, fmt=fmt: (fmt, 500))
        monkeypatch.setattr(window, "ask_save_path", lambda *_args, fmt=fmt: str(tmp_path / f"page.{fmt}"))
        window.actions_by_name["export_page"].trigger()
        read_back(tmp_path / f"page.{fmt}", fmt, size, 500)


def test_copy_picture_puts_the_plot_on_the_clipboard(window):
    show(window, SATURATION)
    plot = window.saturation_lab.entropy_plot
    context_menu(window, plot.mapTo(window, plot.rect().center()))
    menu = window.figure_menu.last_menu
    menu.actions()[1].trigger()
    menu.close()
    figure = plot.parentWidget()  # the plot with its title
    image = QApplication.clipboard().image()
    assert (image.width(), image.height()) == (2 * figure.width(), export_height(2 * figure.width(), figure.width(),
                                                                                 figure.height()))
    assert window._hint_label.text() == "Copied to the clipboard."


def test_right_click_outside_any_plot_is_left_alone(window):
    show(window, SATURATION)
    before = window.figure_menu.last_menu
    lab = window.saturation_lab
    context_menu(window, lab.multiply_button.mapTo(window, QPoint(3, 3)))
    assert window.figure_menu.last_menu is before


def test_the_width_at_its_limits(window, tmp_path):
    show(window, SATURATION)
    figure = window.page_figures()[-1]
    window.export_figure(figure, str(tmp_path / "least.png"), "png", MIN_EXPORT_WIDTH)
    assert QImage(str(tmp_path / "least.png")).width() == MIN_EXPORT_WIDTH
    window.errors.clear()
    assert not window._export(str(tmp_path / "less.png"), lambda: window.export_figure(
        figure, str(tmp_path / "less.png"), "png", MIN_EXPORT_WIDTH - 1))
    assert window.errors == [("Cannot export",
                              "less.png was not exported: the picture must be 200 to 8\u2009000 pixels wide, not 199")]
    assert not (tmp_path / "less.png").exists()
    # The widest: a wide, low figure, so that its 8000 pixels stay quick to write.
    strip = QLabel("a wide, low figure")
    strip.setProperty("figure", True)
    strip.resize(800, 20)
    window.export_figure(strip, str(tmp_path / "widest.png"), "png", MAX_EXPORT_SIDE)
    assert QImage(str(tmp_path / "widest.png")).size() == QSize(MAX_EXPORT_SIDE, 200)
    assert not window._export(str(tmp_path / "wider.png"), lambda: window.export_figure(
        strip, str(tmp_path / "wider.png"), "png", MAX_EXPORT_SIDE + 1))
    assert window.errors[-1][1].endswith("not 8001") and not (tmp_path / "wider.png").exists()


def test_the_options_dialog_offers_widths_within_the_limits():
    dialog = ExportOptions(QSize(300, 600), "svg", title="<b>K1</b> weights")
    assert not dialog.width_box.isEnabled() and dialog.fmt == "svg"
    assert dialog.title_label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.title_label.text() == "<b>K1</b> weights"
    dialog.format_box.setCurrentIndex(0)
    assert dialog.width_box.isEnabled() and dialog.width_box.value() == 600
    assert (dialog.width_box.minimum(), dialog.width_box.maximum()) == (MIN_EXPORT_WIDTH, max_export_width(300, 600))
    assert dialog.width_box.maximum() == MAX_EXPORT_SIDE // 2
    dialog.width_box.setValue(dialog.width_box.maximum() + 1)
    assert dialog.width_box.value() == MAX_EXPORT_SIDE // 2
    assert dialog.size_label.text() == "4000 × 8000 pixels"


def test_the_options_dialog_answers_and_remembers_the_format(window, monkeypatch):
    """The real dialog, answered by its own widgets: PDF chosen, then offered first the next time."""
    shown: list[ExportOptions] = []

    def answer(dialog):
        shown.append(dialog)
        if len(shown) == 1:
            dialog.format_box.setCurrentIndex(FORMATS.index("pdf"))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportOptions, "exec", answer)
    assert window.ask_export_options(QSize(400, 300), "a title") == ("pdf", 800)
    assert shown[0].title_label.text() == "a title"
    assert window.ask_export_options(QSize(400, 300)) == ("pdf", 800)
    assert not shown[1].title_label.isVisibleTo(shown[1])
    monkeypatch.setattr(ExportOptions, "exec", lambda dialog: QDialog.DialogCode.Rejected)
    assert window.ask_export_options(QSize(400, 300)) is None


def read_only(monkeypatch, folder) -> None:
    """open(2) fails with EROFS under `folder` (the tests run as root, whom a read-only folder does not stop)."""
    real_open = os.open

    def open_(path, flags, *args, **kwargs):
        if os.fspath(path).startswith(str(folder)) and flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_read_only_folder_gives_a_clear_message_and_no_file(window, tmp_path, monkeypatch, fmt):
    show(window, SATURATION)
    folder = tmp_path / "figures"
    folder.mkdir()
    monkeypatch.setattr(window, "ask_export_options", lambda *_args: (fmt, 500))
    monkeypatch.setattr(window, "ask_save_path", lambda *_args: str(folder / "page"))
    window.errors.clear()
    with monkeypatch.context() as patch:
        read_only(patch, folder)
        window.actions_by_name["export_page"].trigger()
    assert window.errors == [("Cannot export", f"page.{fmt} was not exported: the disk is read-only")]
    assert list(folder.iterdir()) == [], "nothing, not even a temporary file, is left"


def test_the_head_and_model_views_offer_our_export_with_pdf(window, tmp_path, monkeypatch):
    show(window, TRANSFORMER)
    views = window.transformer_lab.attention_views
    window.transformer_lab.tabs.setCurrentWidget(views)
    monkeypatch.setattr(window, "ask_export_options", lambda *_args: ("pdf", 0))
    for button, view in ((views.head_button, views.head_view), (views.model_button, views.model_view)):
        button.click()
        QApplication.processEvents()
        path = tmp_path / view.objectName()
        monkeypatch.setattr(window, "ask_save_path", lambda *_args, path=path: str(path))
        context_menu(window, view.mapTo(window, view.rect().center()))
        window.figure_menu.last_menu.actions()[0].trigger()
        window.figure_menu.last_menu.close()
        read_back(tmp_path / f"{view.objectName()}.pdf", "pdf", view.size(), 0)


def test_file_export_offers_the_canvas_weights_and_output_as_pdf_too(window, tmp_path, monkeypatch):
    show(window, VECTORS)
    menu = window.action_table.menus["export"]
    texts = [action.text() for action in menu.actions()]
    for name, plot in (("Canvas", "canvas"), ("Weights chart", "weights"), ("Output view", "output")):
        assert [text for text in texts if text.startswith(f"{name} as ")] == [
            f"{name} as PNG…", f"{name} as SVG…", f"{name} as PDF…"]
        asked: list[tuple[str, str]] = []
        monkeypatch.setattr(window, "ask_save_path", lambda _title, suggestion, file_filter, plot=plot, asked=asked:
                            asked.append((suggestion, file_filter)) or str(tmp_path / plot))  # typed no suffix
        window.actions_by_name[f"export_{plot}_pdf"].trigger()
        assert asked[0][0].endswith(f"{plot}.pdf") and asked[0][1] == "PDF (*.pdf)"
        figure = window.plot_widget(plot)
        read_back(tmp_path / f"{plot}.pdf", "pdf", figure.size(), 0)
        assert window._hint_label.text() == f"Exported {plot}.pdf"


def test_a_heads_map_exports_with_its_head_title(window, tmp_path, monkeypatch):
    """Right-click ▸ Export… on one head's weight map in the multi-head lab: the head's tile, "Head 2 · …" above its
    two maps, as a lab plot exports with its title."""
    show(window, "multi-head")
    lab = window.page(page_index("multi-head"))
    tile = lab.heads_grid.tiles[1]
    title = tile.title.text()
    assert title.startswith("Head 2")
    asked: list[tuple[QSize, str]] = []
    for fmt in ("svg", "png"):
        monkeypatch.setattr(window, "ask_export_options", lambda *args, fmt=fmt: asked.append(args) or (fmt, 600))
        monkeypatch.setattr(window, "ask_save_path", lambda *_args, fmt=fmt: str(tmp_path / f"head.{fmt}"))
        heatmap = tile.weight_map
        context_menu(window, heatmap.mapTo(window, heatmap.rect().center()))
        window.figure_menu.last_menu.actions()[0].trigger()
        window.figure_menu.last_menu.close()
        read_back(tmp_path / f"head.{fmt}", fmt, tile.size(), 600)
    assert asked[0] == (tile.size(), title)
    svg = ET.fromstring((tmp_path / "head.svg").read_bytes())
    assert svg.find(f"{SVG}title").text == title
    drawn = "".join("".join(element.itertext()) for element in svg.iter(f"{SVG}text"))
    assert title.replace(" ", "") in drawn.replace(" ", ""), "the title is drawn above the maps"
