"""Core error messages are a template and values, so a window can translate them (see ui/i18n.error_text)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.messages import Phrase, TemplateError
from attention_explorer.core.scenes.query.file import loads
from tests.helpers.sources import parsed

CORE = Path(__file__).resolve().parents[2] / "attention_explorer" / "core"


def test_the_message_is_the_template_filled_with_its_values():
    error = ScenarioError("{0}[{1}]: {2:g} is out of range (|x| must be at most {3:g})", "keys[0]", 1, 2e9, 1e6)
    assert str(error) == "keys[0][1]: 2e+09 is out of range (|x| must be at most 1e+06)"
    assert error.template.startswith("{0}[{1}]") and error.values == ("keys[0]", 1, 2e9, 1e6)
    # Without values the template is the message as it stands, braces and all.
    assert str(ScenarioError('"{x}": missing')) == '"{x}": missing'


def test_a_loader_error_keeps_its_template_its_place_and_its_phrase():
    with pytest.raises(ScenarioError) as caught:
        loads('{"format": "attention-explorer/1", "query": [1, "x"], "keys": [[1, 0]], "values": [[1]]}')
    error = caught.value
    assert str(error) == "query[1]: expected a number, got a string"
    assert error.template == "{0}[{1}]: expected a number, got {2}"
    assert isinstance(error.values[2], Phrase)


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda path: str(path.relative_to(CORE)))
def test_every_template_error_in_the_core_is_raised_with_a_constant_template(path):
    # An f-string would bake the values into the text, and no translation could ever match it.
    names = {name for name, value in vars(__import__("attention_explorer.core", fromlist=["*"])).items()
             if isinstance(value, type) and issubclass(value, TemplateError)} | {"ScenarioError", "CheckpointError"}
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in names and node.args:
            template = node.args[0]
            assert isinstance(template, ast.Constant) and isinstance(template.value, str), (
                f"{path.name}:{node.lineno}: {ast.unparse(template)}")
