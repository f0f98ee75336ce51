"""Planes for drawing d_k-dimensional vectors on a 2-D canvas, and the way back for a drag.

A plane is an orthonormal basis (e1, e2) of two d_k-vectors. Drawing projects onto it; a drag to (x, y)
changes a vector only within the plane, so its other components (orthogonal to the plane) stay.
"""

from __future__ import annotations

import itertools

import numpy as np

PLANES = ("components", "query-key", "pca")


def components_plane(d_k: int) -> np.ndarray:
    """Components 0 and 1 (d_k = 1: component 0 and nothing), as a 2×d_k basis."""
    basis = np.zeros((2, d_k))
    basis[0, 0] = 1.0
    if d_k > 1:
        basis[1, 1] = 1.0
    return basis


def _axis(d_k: int, index: int) -> np.ndarray:
    """Coordinate axis `index` of a d_k-dimensional space."""
    axis = np.zeros(d_k)
    axis[index] = 1.0
    return axis


def _orthonormal(first: np.ndarray, second: np.ndarray, d_k: int) -> np.ndarray:
    """Gram–Schmidt on two directions, falling back to coordinate axes where they are degenerate."""
    # The coordinate axes one at a time: np.eye(4096) would be 128 MB for the one or two axes a fallback needs.
    candidates = itertools.chain((first, second), (_axis(d_k, index) for index in range(d_k)))
    basis: list[np.ndarray] = []
    for candidate in candidates:
        vector = np.asarray(candidate, dtype=np.float64).copy()
        # Twice: for a K nearly along Q one pass leaves a remainder whose rounding error is large beside it,
        # and the basis drifts from orthogonal (6e-9, found by hypothesis); the second pass removes it.
        for _ in range(2):
            for axis in basis:
                vector -= np.dot(vector, axis) * axis
        norm = float(np.linalg.norm(vector))
        if norm > 1e-12 * max(1.0, float(np.linalg.norm(candidate))):
            basis.append(vector / norm)
        if len(basis) == 2:
            break
    while len(basis) < 2:  # d_k = 1: the second axis draws nothing
        basis.append(np.zeros(d_k))
    return np.vstack(basis)


def query_key_plane(query: np.ndarray, key: np.ndarray) -> np.ndarray:
    """The plane of Q and K (e1 along Q): their lengths and the angle between them are drawn exactly."""
    return _orthonormal(query, key, query.shape[0])


def pca_plane(vectors: np.ndarray) -> np.ndarray:
    """The two directions that keep most of the vectors' squared length (uncentred: the origin stays put)."""
    vectors = np.asarray(vectors, dtype=np.float64)
    d_k = vectors.shape[1]
    if d_k == 1:
        return components_plane(1)
    _, _, right = np.linalg.svd(vectors, full_matrices=False)
    first = right[0]
    second = right[1] if right.shape[0] > 1 else np.zeros(d_k)
    # Fix the signs so the picture does not flip between two equivalent answers while dragging.
    for direction in (first, second):
        if direction.size and direction[np.argmax(np.abs(direction))] < 0:
            direction *= -1
    return _orthonormal(first, second, d_k)


def project(vectors: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """(x, y) of each vector (rows) in the plane."""
    return np.asarray(vectors, dtype=np.float64) @ basis.T


def move_in_plane(vector: np.ndarray, basis: np.ndarray, x: float, y: float) -> np.ndarray:
    """The vector whose projection is (x, y), changed only within the plane."""
    vector = np.asarray(vector, dtype=np.float64)
    current = basis @ vector
    return vector + (x - current[0]) * basis[0] + (y - current[1]) * basis[1]


def plane_basis(kind: str, query: np.ndarray, keys: np.ndarray, selected: int,
                previous: np.ndarray | None = None) -> np.ndarray:
    """The basis of plane `kind` ("query-key": of Q and key `selected`; "pca"), free axes turned as in `previous`."""
    if kind == "query-key":
        basis = query_key_plane(query, keys[selected])
        flippable: tuple[int, ...] = (1,)  # e1 is along Q by definition
    else:
        basis = pca_plane(np.vstack((query[np.newaxis, :], keys)))
        flippable = (0, 1)
    if previous is not None:
        # An axis's sign is arbitrary: kept pointing the way it did, an edit (or the end of a drag) never mirrors
        # the picture.
        for row in flippable:
            if np.dot(basis[row], previous[row]) < 0:
                basis[row] = -basis[row]
    return basis


def plane_tips(query: np.ndarray, keys: np.ndarray,
               basis: np.ndarray | None) -> tuple[float, float, np.ndarray, np.ndarray]:
    """(x, y) of the query's tip and the keys' in the plane (None: components 0 and 1; y is 0 when d_k = 1)."""
    if basis is None:
        if query.shape[0] == 1:
            return float(query[0]), 0.0, keys[:, 0], np.zeros(keys.shape[0])
        return float(query[0]), float(query[1]), keys[:, 0], keys[:, 1]
    drawn_query = basis @ query
    drawn_keys = keys @ basis.T
    return float(drawn_query[0]), float(drawn_query[1]), drawn_keys[:, 0], drawn_keys[:, 1]


def move_tip_in_plane(vector: np.ndarray, basis: np.ndarray, x: float, y: float) -> np.ndarray:
    """`move_in_plane`, but a tip put on the origin with nothing outside the plane is the zero vector exactly."""
    moved = move_in_plane(vector, basis, x, y)
    if x == 0.0 and y == 0.0 and np.linalg.norm(moved) <= 1e-12 * np.linalg.norm(vector):
        return np.zeros_like(moved)  # not rounding dust
    return moved


def first_hidden_pair(query: np.ndarray, keys: np.ndarray, tolerance: float = 0.01) -> tuple[int, int] | None:
    """Two different vectors that components 0 and 1 draw on one point (0: Q, i + 1: key i), or None.

    "One point" and "different" are within `tolerance` of the longest drawn (and the longest) vector.
    """
    query, keys = np.asarray(query, dtype=np.float64), np.asarray(keys, dtype=np.float64)
    if query.shape[0] <= 2:
        return None  # the components are the whole space: nothing is hidden
    # No stacked copy of Q and the keys, nor of the pairs' rows: at 512 keys × 4096 each new 16 MB array cost
    # more (its first touch of fresh memory) than everything else here.
    squares = np.concatenate(([float(query @ query)], np.einsum("ij,ij->i", keys, keys)))
    drawn = np.concatenate((query[np.newaxis, :2], keys[:, :2]))
    near = tolerance * max(float(np.max(np.linalg.norm(drawn, axis=1))), 1e-12)
    apart = tolerance * float(np.sqrt(np.max(squares)))
    drawn_apart = np.linalg.norm(drawn[:, np.newaxis, :] - drawn[np.newaxis, :, :], axis=2)
    candidates = np.argwhere(np.triu(drawn_apart <= near, k=1))  # rows sorted by the first of the pair
    # |a - b|² from dot products, only for the pairs drawn on one point (usually none or a few): one product of
    # the keys with the first vector of the pairs at a time, in order, up to the first pair that lies apart.
    for first in np.unique(candidates[:, 0]):
        seconds = candidates[candidates[:, 0] == first, 1]
        vector = query if first == 0 else keys[first - 1]
        dots = np.concatenate(([float(query @ vector)], keys @ vector))[seconds]
        hits = np.flatnonzero(np.sqrt(np.maximum(squares[first] + squares[seconds] - 2 * dots, 0)) > apart)
        if len(hits):
            return int(first), int(seconds[hits[0]])
    return None
