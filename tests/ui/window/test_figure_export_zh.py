"""An exported figure's text is the current language's, its colours the theme's; a failed export says so in Chinese.

A window of its own, started in Chinese, with only the saturation lab built: switching the language or the theme
of a window whose every page is built would cost seconds."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.labs.registry import SATURATION, page_index
from attention_explorer.ui.widgets.figures import figure_title
from tests.ui.window.test_figure_export import SVG, read_only


def test_exported_text_is_the_languages_and_the_colours_the_themes(make_window, tmp_path, monkeypatch):
    window = make_window(language="zh_CN", record_errors=True, discard_changes=True)
    window.show_page(page_index(SATURATION))
    QApplication.processEvents()
    figure = next(figure for figure in window.page_figures() if figure.property("figureTitled"))
    title = figure_title(figure)
    assert re.search("[\u4e00-\u9fff]", title), title
    window.export_figure(figure, str(tmp_path / "zh.svg"), "svg")
    root = ET.parse(tmp_path / "zh.svg").getroot()
    drawn = "".join("".join(text.itertext()) for text in root.iter(f"{SVG}text"))
    assert title.replace(" ", "") in drawn.replace(" ", ""), "the title is drawn as text, in Chinese"
    assert root.find(f"{SVG}title").text == title

    monkeypatch.setattr(window, "ask_export_options", lambda *_args: ("png", 500))
    monkeypatch.setattr(window, "ask_save_path", lambda *_args: str(tmp_path / "ro" / "页面"))
    (tmp_path / "ro").mkdir()
    with monkeypatch.context() as patch:
        read_only(patch, tmp_path / "ro")
        window.actions_by_name["export_page"].trigger()
    title, text = window.errors[-1]
    assert text.startswith("页面.png") and "只读" in text and "export" not in (title + text).lower()
    assert list((tmp_path / "ro").iterdir()) == []

    plot = window.saturation_lab.entropy_plot
    window.export_figure(plot, str(tmp_path / "light.png"), "png", 400)
    assert QColor(QImage(str(tmp_path / "light.png")).pixel(2, 2)) == QColor("#FFFFFF")
    window.actions_by_name["theme_contrast"].trigger()
    QApplication.processEvents()
    window.export_figure(plot, str(tmp_path / "contrast.png"), "png", 400)
    image = QImage(str(tmp_path / "contrast.png"))
    assert QColor(image.pixel(2, 2)) == QColor("#000000"), "the high-contrast theme's black background"
    assert QColor(image.pixel(image.width() - 3, image.height() - 3)) == QColor("#000000")
