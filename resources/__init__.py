"""The application's data: preset scenarios, translations and icons, installed as attention_explorer.resources."""

from importlib.resources import files as _files
from importlib.resources.abc import Traversable


def files() -> Traversable:
    """The folder holding presets/, i18n/ and icons/, wherever the package is installed (wheel or editable)."""
    return _files(__name__)
