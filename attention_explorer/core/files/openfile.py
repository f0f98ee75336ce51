"""A file of any kind the window opens: a scenario of any kind or a lecture script, each read by its kind's reader.

Only the plain scenario's reader is imported up front: the window starts on one, and the other kinds' modules
load when a file of their kind is read. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from attention_explorer.core.files.anykind import all_fields, any_from_dict
from attention_explorer.core.files.jsonrules import parse_document, read_file
from attention_explorer.core.scenes.kinds import LECTURE_KIND

if TYPE_CHECKING:
    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario
    from attention_explorer.core.teaching.lecture import Lecture


def load_file(
    path: str | os.PathLike[str],
) -> Scenario | SequenceScenario | MultiHeadScenario | CrossScenario | Lecture:
    """A file of any kind the window opens: a single query, a sequence, a multi-head or cross file, or a lecture."""
    document = parse_document(read_file(path), _known_fields)
    if isinstance(document, dict) and document.get("kind") == LECTURE_KIND:
        from attention_explorer.core.teaching.lecture import (
            lecture_from_dict,  # start-up: loaded only for a lecture script
        )

        return lecture_from_dict(document)
    return any_from_dict(document)


def _known_fields() -> tuple[str, ...]:
    """Every field a file of any kind may have (a lecture's scenes too), to name one in a file too large to parse."""
    from attention_explorer.core.teaching.lecture import LECTURE_FIELDS, SCENE_FIELDS  # start-up: only for such a file

    return (*LECTURE_FIELDS, *SCENE_FIELDS, *all_fields())
