"""escaped() turns any text into rich text that shows exactly that text."""

import html

from hypothesis import given
from hypothesis import strategies as st

from attention_explorer.ui.style.safe_text import escaped


@given(st.text())
def test_escaped_is_what_the_standard_library_escape_gives(text):
    assert escaped(text) == html.escape(text, quote=True)


def test_markup_and_quotes_come_out_as_entities():
    assert escaped("<img src=\"/dev/zero\"> & 'x'") == "&lt;img src=&quot;/dev/zero&quot;&gt; &amp; &#x27;x&#x27;"
