"""Which keys a table of many keys shows a row for (the steps view and the saturation lab share it)."""

from __future__ import annotations

import numpy as np

# At most this many key rows per step: a table of 512 rows is neither readable nor cheap to lay out.
MAX_ROWS = 12


def shown_rows(weights: np.ndarray, selected: int, limit: int = MAX_ROWS) -> list[int]:
    """Which keys get a row: all when few; else the `limit` largest weights (the selected key always), in order."""
    n = int(weights.shape[0])
    if n <= limit:
        return list(range(n))
    top = np.argpartition(-weights, limit - 1)[:limit]
    rows = set(int(i) for i in top)
    if selected not in rows:
        rows.discard(min(rows, key=lambda i: weights[i]))
        rows.add(selected)
    return sorted(rows)
