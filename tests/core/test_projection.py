"""Projection planes: exact angles in the Q–K plane, drags that move only within the plane."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_explorer.core.maths.projection import (
    components_plane,
    move_in_plane,
    move_tip_in_plane,
    pca_plane,
    plane_basis,
    plane_tips,
    project,
    query_key_plane,
)

finite = st.floats(-100, 100, allow_nan=False)


def test_components_plane_reads_components_0_and_1():
    vectors = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(project(vectors, components_plane(3)), [[1, 2], [4, 5]])


def test_query_key_plane_keeps_lengths_and_the_angle():
    query = np.array([1.0, 0.0, 1.0, 0.0])
    key = np.array([1.0, 0.0, 0.0, 0.0])  # 45° from the query in 4-D
    drawn_q, drawn_k = project(np.vstack([query, key]), query_key_plane(query, key))
    np.testing.assert_allclose(drawn_q, [math.sqrt(2), 0.0], atol=1e-12)  # e1 lies along Q
    assert math.isclose(math.degrees(math.atan2(drawn_k[1], drawn_k[0])), 45.0)
    assert math.isclose(np.linalg.norm(drawn_k), 1.0)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, 5, elements=finite), arrays(np.float64, 5, elements=finite), finite, finite)
def test_a_drag_moves_only_within_the_plane(query, key, x, y):
    basis = query_key_plane(query, key)
    np.testing.assert_allclose(basis @ basis.T, np.eye(2), atol=1e-9)
    moved = move_in_plane(key, basis, x, y)
    np.testing.assert_allclose(project(moved[None, :], basis)[0], [x, y], atol=1e-7)
    outside = np.eye(5) - basis.T @ basis
    np.testing.assert_allclose(outside @ moved, outside @ key, atol=1e-7)


def test_pca_plane_of_vectors_in_a_plane_draws_them_exactly():
    rng = np.random.default_rng(0)
    plane = np.linalg.qr(rng.standard_normal((6, 2)))[0].T
    coefficients = rng.standard_normal((5, 2))
    vectors = coefficients @ plane
    basis = pca_plane(vectors)
    drawn = project(vectors, basis)
    np.testing.assert_allclose(np.linalg.norm(drawn, axis=1), np.linalg.norm(vectors, axis=1), atol=1e-9)


def test_degenerate_planes_fall_back_to_axes():
    zero = np.zeros(3)
    basis = query_key_plane(zero, zero)
    np.testing.assert_allclose(basis @ basis.T, np.eye(2))
    assert pca_plane(np.array([[2.0]])).shape == (2, 1)


def test_a_key_nearly_along_the_query_still_gets_an_orthonormal_plane():
    # Found by hypothesis: one Gram–Schmidt pass left e1·e2 = −6.5e-9 here.
    query = np.array([0.0, 0.0, 1.0, 1.0, 1.0])
    key = np.array([5.96046448e-08, 0.0, 1.0, 1.0, 1.0])
    basis = query_key_plane(query, key)
    np.testing.assert_allclose(basis @ basis.T, np.eye(2), atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, (4, 3), elements=finite))
def test_plane_tips_are_the_projection_of_q_and_every_key(vectors):
    query, keys = vectors[0], vectors[1:]
    basis = plane_basis("pca", query, keys, 0)
    qx, qy, kx, ky = plane_tips(query, keys, basis)
    np.testing.assert_allclose([[qx, qy], *zip(kx, ky)], project(vectors, basis), atol=1e-9)


def test_plane_tips_without_a_basis_read_components_0_and_1_and_lie_on_the_axis_for_dk_1():
    keys = np.array([[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    qx, qy, kx, ky = plane_tips(np.array([1.0, 2.0, 9.0]), keys, None)
    assert (qx, qy) == (1.0, 2.0)
    np.testing.assert_array_equal(np.column_stack((kx, ky)), [[3, 4], [6, 7]])
    qx, qy, kx, ky = plane_tips(np.array([-2.0]), np.array([[1.5], [0.5]]), None)
    assert (qx, qy) == (-2.0, 0.0)
    np.testing.assert_array_equal(np.column_stack((kx, ky)), [[1.5, 0.0], [0.5, 0.0]])


def test_plane_basis_of_q_and_a_key_puts_e1_along_q_and_keeps_the_previous_orientation():
    query = np.array([1.0, 0.0, 1.0, 0.0])
    keys = np.array([[0.0, 1.0, 0.0, 0.0], [0.3, 1.0, -0.5, 0.8]])
    basis = plane_basis("query-key", query, keys, 1)
    np.testing.assert_allclose(basis[0], query / np.linalg.norm(query))
    mirrored = basis * np.array([[1.0], [-1.0]])
    again = plane_basis("query-key", query, keys, 1, previous=mirrored)
    np.testing.assert_allclose(again, mirrored)  # e2 follows the previous picture's side, e1 stays along Q
    flipped_e1 = basis * np.array([[-1.0], [1.0]])
    np.testing.assert_allclose(plane_basis("query-key", query, keys, 1, previous=flipped_e1), basis)


def test_plane_basis_pca_turns_both_axes_as_before():
    vectors = np.array([[1.0, 0.2, 0.1], [0.3, 1.0, 0.0], [0.5, 0.5, 0.4]])
    basis = plane_basis("pca", vectors[0], vectors[1:], 0)
    previous = -basis
    np.testing.assert_allclose(plane_basis("pca", vectors[0], vectors[1:], 0, previous=previous), previous)


def test_a_tip_moved_onto_the_origin_is_the_zero_vector_when_nothing_lies_outside_the_plane():
    basis = query_key_plane(np.array([1.0, 0.0, 1.0]), np.array([0.3, 1.0, -0.5]))
    inside = 0.7 * basis[0] - 0.2 * basis[1]
    assert move_tip_in_plane(inside, basis, 0.0, 0.0).tolist() == [0.0, 0.0, 0.0]
    outside = inside + np.cross(basis[0], basis[1])  # a component off the plane stays
    np.testing.assert_allclose(move_tip_in_plane(outside, basis, 0.0, 0.0), np.cross(basis[0], basis[1]), atol=1e-12)
    np.testing.assert_allclose(project(move_tip_in_plane(inside, basis, 0.5, 0.25)[None, :], basis)[0], [0.5, 0.25])
