"""Run-time language switching with Qt's own translators (ours and Qt's dialogs')."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from attention_explorer.core.files.presets import resources_dir
from attention_explorer.core.messages import Phrase, TemplateError

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}


def catalogue_path(language: str):
    """Our compiled catalogue (.qm) for a language."""
    return resources_dir() / "i18n" / f"attention_explorer_{language}.qm"


def system_language() -> str:
    """zh_CN for a Chinese system locale, otherwise English."""
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def ui_locale() -> QLocale:
    """The locale of the window's language, for dates and times: the system's own if it speaks that language
    (its regional format), else the language's usual one (Chinese dates in a Chinese window on an English system)."""
    language = QLocale.Language.Chinese if language_switcher().language == "zh_CN" else QLocale.Language.English
    system = QLocale.system()
    if system.language() == language:
        return system
    return QLocale("zh_CN" if language == QLocale.Language.Chinese else "en_US")


class LanguageSwitcher:
    """Installs one language's translators; switching sends LanguageChange to every widget."""

    def __init__(self) -> None:
        self._translators: list[QTranslator] = []
        self.language = "en"

    def set_language(self, language: str) -> bool:
        """Switch to `language` ("en" or "zh_CN"); False when its catalogue is missing."""
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
        app = QCoreApplication.instance()
        for translator in self._translators:
            app.removeTranslator(translator)
        self._translators = []
        self.language = language
        if language == "en":
            return True
        ours = QTranslator()
        if not ours.load(str(catalogue_path(language))):
            return False
        qt_dialogs = QTranslator()
        qt_path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        for name in (f"qtbase_{language}", f"qt_{language}"):
            if qt_dialogs.load(name, qt_path):
                break
        for translator in (qt_dialogs, ours):
            if not translator.isEmpty():
                app.installTranslator(translator)
                self._translators.append(translator)
        return True


_switcher: LanguageSwitcher | None = None


def language_switcher() -> LanguageSwitcher:
    """The application's one LanguageSwitcher."""
    global _switcher
    if _switcher is None:
        _switcher = LanguageSwitcher()
    return _switcher


MINUS = "\u2212"  # the one minus sign the window shows (a number in a core message has a hyphen)
_NEGATIVE_NUMBER = re.compile(r"-\d[\d.\u2009]*(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")

# The context under which tools/update_translations.py files the core's message templates (ui/core_texts.py).
CORE_MESSAGES = "CoreMessages"


def error_text(error: BaseException) -> str:
    """An error's message in the current language: the core's templates and phrases translated, values kept.

    An OSError gives its reason only (a full disk, no permission), translated: the message names the file.
    """
    if isinstance(error, OSError):
        from attention_explorer.ui.i18n.os_errors import os_error_text

        return os_error_text(error)
    if not isinstance(error, TemplateError):
        return str(error)
    # A value may itself be a core error (config.json's JSON problem inside a model error): translated too.
    values = [QCoreApplication.translate(CORE_MESSAGES, value) if isinstance(value, Phrase)
              else error_text(value) if isinstance(value, TemplateError)
              else MINUS + value[1:] if isinstance(value, str) and _NEGATIVE_NUMBER.fullmatch(value) else value
              for value in error.values]
    translated = QCoreApplication.translate(CORE_MESSAGES, error.template)
    try:
        return translated.format(*values) if values else translated
    except (IndexError, KeyError, ValueError):  # a translation that broke a placeholder must not hide the problem
        return str(error)
