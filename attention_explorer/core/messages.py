"""Error messages as a template and its values, so that a window can show them in the user's language."""

from __future__ import annotations

from typing import Any


class Phrase(str):
    """A word or phrase inside an error message ("a string", "null") that is translated along with it."""

    __slots__ = ()


class TemplateError(ValueError):
    """An error whose message is `template.format(*values)`: the template is English, the values are data."""

    def __init__(self, template: str, *values: Any) -> None:
        super().__init__(template.format(*values) if values else template)
        self.template = template
        self.values = values
