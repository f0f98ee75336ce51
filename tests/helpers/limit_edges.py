"""Tables of limits, each tested at its edge: the limit itself is accepted and the first value past it refused.

A row names what is limited, where the check lives, the last value accepted and the first refused, a function that
runs the check at a value (through the lowest function that enforces it) and the refusal's whole message. A test
that only tried one past the limit would pass with `>` turned into `>=`; the accepted row fails then.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from attention_explorer.core.limits import ScenarioError


class Fallback(Exception):
    """A reader that answers None (use the exact loader, or cannot say) instead of raising: its refusal."""


def none_refused(result: Any, what: str) -> Any:
    """`result`, or Fallback when a function that refuses by answering None did so."""
    if result is None:
        raise Fallback(f"{what}: None")
    return result


@dataclass(frozen=True)
class Edge:
    """One limit at its edge."""

    name: str  # what is limited (the test id)
    where: str  # the module and function whose comparison is tested
    limit: Any  # the last value accepted: the limit itself
    past: Any  # the first value refused: one past it
    check: Callable[[Any], Any]  # runs the check at a value; returns the value as the result shows it
    error: str  # a regular expression the whole refusal message must match
    error_type: type[BaseException] = ScenarioError
    shown: Callable[[Any], Any] = lambda value: value  # what check returns for an accepted value


def rows(*edges: Edge) -> list[Any]:
    """pytest parameters, one per row, named by the row."""
    names = [edge.name for edge in edges]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    assert not duplicates, f"two rows share a name: {duplicates}"
    return [pytest.param(edge, id=edge.name) for edge in edges]


def assert_accepted(edge: Edge) -> None:
    """The limit itself goes through, and what was built holds it."""
    assert edge.check(edge.limit) == edge.shown(edge.limit), f"{edge.name} ({edge.where})"


def assert_refused(edge: Edge) -> None:
    """One past the limit is refused with the row's message (its type and every word)."""
    with pytest.raises(edge.error_type) as caught:
        edge.check(edge.past)
    message = str(caught.value)
    assert re.fullmatch(edge.error, message), f"{edge.name} ({edge.where}): {message!r}"
