"""The plane the canvas draws on: its kind, its basis and the tips projected on it, cached per scenario."""

from __future__ import annotations

import numpy as np

from attention_explorer.core.maths.projection import first_hidden_pair, plane_basis, plane_tips

# The planes the canvas can show when d_k > 2, in the order of its plane menu (components 0 and 1 first:
# the default, and the only plane for d_k <= 2).
PLANE_KINDS = ("components", "query-key", "pca")


class DrawingPlane:
    """Which plane is shown; its basis is recomputed from the scenario at a redraw and cached with the projected
    tips for as long as the scenario object is the same (zoom and pan reuse them)."""

    def __init__(self) -> None:
        self.kind = "components"  # the one chosen; see `shown`
        self.hidden_pair: tuple[int, int] | None = None  # why `open` chose the plane (None: it did not)
        self._basis_cache: tuple = (None, None, None)  # (scenario, signature, basis)
        self._projection_cache: tuple = (None, None, None)  # (scenario, basis, (qx, qy, kx, ky))
        self._drawn_cache: tuple = (None, None, None, None)  # (scenario, basis, indices, (qx, qy, kx, ky))

    def pair_among(self, vectors: int) -> tuple[int, int] | None:
        """The pair that made `open` choose the plane, while both are among `vectors` (Q and the keys); else None."""
        if self.hidden_pair is not None and max(self.hidden_pair) >= vectors:
            self.hidden_pair = None  # a vector of the pair was removed: the reason no longer holds
        return self.hidden_pair

    def shown(self, d_k: int) -> str:
        """The plane shown: the chosen one when d_k > 2, otherwise components 0 and 1 (all there is)."""
        return self.kind if d_k > 2 else "components"

    def open(self, scenario) -> bool:
        """Choose the plane for a newly opened `scenario`; whether the kind changed.

        Where components 0 and 1 draw two different vectors on one point (d_k > 2), the plane of Q and the selected
        key, where their angle is true; after such a choice the next example goes back to components 0 and 1; a
        plane the user chose is kept.
        """
        pair = first_hidden_pair(scenario.query, scenario.keys) if scenario.d_k > 2 else None
        if pair is None and self.hidden_pair is None:
            return False
        self.hidden_pair = pair
        kind = "components" if pair is None else "query-key"
        changed, self.kind = kind != self.kind, kind
        return changed

    def basis(self, scenario, selected_key: int) -> np.ndarray | None:
        """The shown plane's orthonormal basis (2×d_k); None for components 0 and 1, drawn and dragged directly."""
        kind = self.shown(scenario.d_k)
        if kind == "components":
            return None
        selected = min(selected_key, scenario.n - 1)
        signature = (kind, scenario.d_k, selected if kind == "query-key" else -1, scenario.title)
        cached_scenario, cached_signature, cached = self._basis_cache
        if cached_scenario is scenario and cached_signature == signature:
            return cached
        previous = cached if cached_signature == signature else None  # the same plane: keep its turn
        off_line = _off_line_direction(scenario, selected) if kind == "query-key" else None
        if off_line is None:
            basis = plane_basis(kind, scenario.query, scenario.keys, selected, previous)
        else:
            query = np.asarray(scenario.query, dtype=np.float64)
            basis = np.vstack((query / np.linalg.norm(query), off_line))
            if previous is not None and float(basis[1] @ previous[1]) < 0:
                basis[1] = -basis[1]  # kept pointing the way it did: an edit never mirrors the picture
        self._basis_cache = (scenario, signature, basis)
        return basis

    def tips(self, scenario, basis: np.ndarray | None) -> tuple[float, float, np.ndarray, np.ndarray]:
        """(x, y) of Q and of every K on `basis` (y is 0 when d_k = 1); one projection per scenario."""
        if basis is None:
            return plane_tips(scenario.query, scenario.keys, None)
        cached_scenario, cached_basis, projected = self._projection_cache
        if cached_scenario is scenario and cached_basis is basis:
            return projected
        projected = plane_tips(scenario.query, scenario.keys, basis)
        self._projection_cache = (scenario, basis, projected)
        return projected

    def drawn_tips(self, scenario, basis: np.ndarray | None,
                   indices: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray]:
        """`tips` of Q and of the keys `indices` only: a drag at 512 × 4096 projects 32 keys a move, not 512."""
        if indices.size == scenario.n:
            qx, qy, kx, ky = self.tips(scenario, basis)
            return qx, qy, kx[indices], ky[indices]
        cached_scenario, cached_basis, cached_indices, projected = self._drawn_cache
        if cached_scenario is scenario and cached_basis is basis and np.array_equal(cached_indices, indices):
            return projected
        projected = plane_tips(scenario.query, scenario.keys[indices], basis)
        self._drawn_cache = (scenario, basis, indices, projected)
        return projected


def _off_line_direction(scenario, selected: int) -> np.ndarray | None:
    """For "the plane of Q and key `selected`" where that key points along Q (the library's K1 = Q), any plane
    through Q holds both: the direction, perpendicular to Q, of the one drawn; None where the key does not point
    along Q. It bisects the keys' own directions away from Q's line (each made to lean the same way), so every key
    off that line is seen off it: the library's K2 (at 90°) drawn perpendicular, as the lecture says, and K3 (at
    45°) drawn apart from Q, not a dot at the origin or hidden under Q's shaft."""
    query = np.asarray(scenario.query, dtype=np.float64)
    keys = np.asarray(scenario.keys, dtype=np.float64)
    q_square = float(query @ query)
    key = keys[selected]
    if q_square == 0.0 or scenario.n < 2:
        return None
    off_line = key - (float(key @ query) / q_square) * query
    if float(np.linalg.norm(off_line)) > 1e-9 * max(float(np.linalg.norm(key)), 1e-300):
        return None
    residuals = keys - (keys @ query / q_square)[:, np.newaxis] * query[np.newaxis, :]
    norms = np.linalg.norm(residuals, axis=1)
    shown = norms > 1e-9 * np.sqrt(q_square)
    if not shown.any():
        return None  # every key on Q's line: any plane draws them alike
    units = residuals[shown] / norms[shown][:, np.newaxis]
    first = units[int(np.argmax(norms[shown]))]
    units *= np.where(units @ first < 0, -1.0, 1.0)[:, np.newaxis]
    direction = units.sum(axis=0)
    length = float(np.linalg.norm(direction))
    if length < 1e-9:
        direction, length = first, 1.0
    return direction / length
