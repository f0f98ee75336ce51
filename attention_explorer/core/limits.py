"""The error every scene's check raises and the limits those checks hold: one small module, imported by all.

Pure Python, no numpy, no Qt.
"""

from __future__ import annotations

from attention_explorer.core.messages import Limit, TemplateError

MAX_KEYS = 512  # keys of a single query, tokens of a sequence (MAX_TOKENS)
MAX_DIM = 4096  # every width: d_k, d_v, d_model
MAX_ABS = Limit(1e6)  # the largest |number| in any vector or matrix
MAX_SCALE = Limit(1e6)  # the largest manual scale factor
MAX_LABEL = 64  # characters of a key's label or a token (MAX_TOKEN)
MAX_TITLE = 200
MAX_DESCRIPTION = 4000
MAX_PINS = 3  # kept scenes beside the live one
# An exported PNG figure: its width is chosen within these pixels, and its height (by the figure's proportions)
# stays within the largest too: 8000 × 8000 is 256 MB in memory while it is encoded.
MIN_EXPORT_WIDTH = 200
MAX_EXPORT_SIDE = 8000
MAX_TOKENS = MAX_KEYS
MAX_TOKEN = MAX_LABEL
# Under the limits (|x| ≤ 1e6, dimensions ≤ 4096, scale ≤ 1e6) a scaled score is at most about 7e40, far below
# float64's 1.8e308; the scenes' checks keep that promise explicit should a limit ever be raised.
MAX_SCORE = 1e300
AUTO_SCALE = "inv_sqrt_dk"  # a file's "scale" for the automatic 1/√d_k


class ScenarioError(TemplateError):
    """A scenario (file or edit) is invalid; the message names the place and the problem."""
