"""The documentation: a README a newcomer reads in five minutes, docs/ pages whose links and examples hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import attention_explorer
from attention_explorer.core.files import anykind as fileformat
from attention_explorer.core.teaching.lecture import loads_lecture

REPO = Path(attention_explorer.__file__).resolve().parents[1]
DOCS = REPO / "docs"
IN_SOURCE_CHECKOUT = (REPO / "pyproject.toml").is_file() and (DOCS / "README.md").is_file()
pytestmark = pytest.mark.skipif(not IN_SOURCE_CHECKOUT, reason="runs from a source checkout only")

README_MAX_LINES = 200
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def pages() -> list[Path]:
    """The README and every page under docs/."""
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (code blocks left out)."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def links(page: Path) -> list[str]:
    """The targets of a page's Markdown links and images, outside code blocks."""
    return _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8")))


def test_the_readme_is_short():
    """What it is, a screenshot, the two commands, first steps, the layout and where to read more: ≤ 200 lines."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    for heading in ("## Install and run", "## Install and run the tests", "## First steps", "## Layout",
                    "## Reliability", "## Read more"):
        assert f"\n{heading}\n" in text, heading
    assert "](docs/images/" in text and "](docs/reliability.md)" in text


def test_every_page_is_in_the_index_and_the_readme():
    """A page nobody links to is a page nobody reads."""
    index, readme = (DOCS / "README.md").read_text(encoding="utf-8"), (REPO / "README.md").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name
            assert f"](docs/{page.name})" in readme, page.name


def test_every_relative_link_and_anchor_exists():
    """Links between the pages, to their sections and to the pictures all land somewhere."""
    broken = []
    for page in pages():
        for target in links(page):
            if re.match(r"[a-z]+:", target):
                continue  # an address on the web: not checked offline
            path, _, anchor = target.partition("#")
            destination = (page.parent / path).resolve() if path else page
            if not destination.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_link_check_sees_a_missing_file_and_a_missing_heading(tmp_path):
    """The checker itself: the slug of a heading with code and punctuation, and links with and without anchors."""
    assert slug(' Self-attention files (`"kind": "sequence"`; older files: `"self"`)') == (
        "self-attention-files-kind-sequence-older-files-self")
    page = tmp_path / "a.md"
    page.write_text("# A\n\n## Next token (GPT-2)\n\n[x](b.md) [y](#next-token-gpt-2) ![z](img.png)\n"
                    "```\n[not a link](nowhere.md)\n```\n", encoding="utf-8")
    assert links(page) == ["b.md", "#next-token-gpt-2", "img.png"]
    assert anchors(page) == {"a", "next-token-gpt-2"}


def json_examples(page: Path, heading: str) -> list[str]:
    """The JSON code blocks of one section of a page (up to the next heading of its level or higher)."""
    level = heading.split(" ", 1)[0]
    text = page.read_text(encoding="utf-8").split(f"\n{heading}", 1)[1]
    section = re.split(rf"\n#{{1,{len(level)}}} ", text, maxsplit=1)[0]
    return re.findall(r"```json\n(.*?)```", section, re.S)


@pytest.mark.parametrize(("heading", "kind"), [
    ("## Scenario files", "Scenario"),
    ('## Self-attention files (`"kind": "sequence"`; older files: `"self"`)', "SequenceScenario"),
    ('## Cross-attention files (`"kind": "cross"`)', "CrossScenario"),
    ('## Multi-head files (`"kind": "multihead"`)', "MultiHeadScenario"),
    ('## Training files (`"kind": "training"`)', "TrainingScene"),
])
def test_each_file_kinds_example_is_a_valid_file_of_that_kind(heading, kind):
    """The first example of each section of docs/file-formats.md loads, as the kind the section describes."""
    example = json_examples(DOCS / "file-formats.md", heading)[0]
    assert type(fileformat.loads_any(example)).__name__ == kind


def test_the_lecture_script_example_is_a_valid_script():
    """The user guide's lecture script loads as a lecture (its scenes are checked in tests/core/test_lecture.py)."""
    (example,) = json_examples(DOCS / "user-guide.md", "### Lecture scripts")
    assert loads_lecture(example).scenes
