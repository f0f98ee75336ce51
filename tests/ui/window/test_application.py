"""The application set-up: names for QSettings, the icon, the font and the language."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor

from attention_explorer.ui.application import application_icon, configure_application
from attention_explorer.ui.i18n.switcher import language_switcher
from attention_explorer.ui.style.theme import KEY_HEX, QUERY_HEX


def _colours(icon) -> set[str]:
    image = icon.pixmap(64, 64).toImage()
    return {QColor(image.pixel(x, y)).name().upper() for x in range(image.width()) for y in range(image.height())}


def test_the_icon_draws_the_query_and_two_keys_in_their_colours():
    icon = application_icon()
    assert not icon.isNull()
    colours = _colours(icon)
    assert {QUERY_HEX, KEY_HEX[0], KEY_HEX[1]} <= colours


def test_the_window_shows_the_application_icon(make_window):
    window = make_window(show=False)
    assert not window.windowIcon().isNull()
    assert {QUERY_HEX, KEY_HEX[0]} <= _colours(window.windowIcon())


def test_configure_application_sets_the_icon_and_language(qapp):
    names = qapp.applicationName(), qapp.organizationName(), qapp.organizationDomain()
    plots = {name: pg.getConfigOption(name) for name in ("antialias", "background", "foreground")}
    try:
        configure_application(qapp, "en")
        assert not qapp.windowIcon().isNull()
        assert language_switcher().language == "en"
    finally:  # the tests' own names keep settings out of the user's
        qapp.setApplicationName(names[0])
        qapp.setOrganizationName(names[1])
        qapp.setOrganizationDomain(names[2])
        pg.setConfigOptions(**plots)
