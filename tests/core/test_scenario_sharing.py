"""An edit of one vector shares the scenario's unchanged arrays (16 MB each at the limits) instead of copying them,
and still copies whatever a caller could change."""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core import scenario as sc
from attention_explorer.core.scenario import Scenario, ScenarioError


def _scenario() -> Scenario:
    rng = np.random.default_rng(3)
    return Scenario(query=rng.standard_normal(6), keys=rng.standard_normal((5, 6)), values=rng.standard_normal((5, 4)))


def test_editing_a_key_shares_the_query_and_values_and_changes_only_a_copy_of_the_keys():
    before = _scenario()
    keys = before.keys.copy()
    row = np.arange(6.0)
    after = sc.with_vector(before, "key", 2, row)
    assert after.values is before.values and after.query is before.query
    assert after.keys is not before.keys and not after.keys.flags.writeable
    np.testing.assert_array_equal(before.keys, keys)  # the old scenario (the undo step) is as it was
    np.testing.assert_array_equal(after.keys[2], row)
    np.testing.assert_array_equal(np.delete(after.keys, 2, axis=0), np.delete(keys, 2, axis=0))
    assert after == sc.with_vector(before, "key", 2, row) and not after == before


def test_a_bad_number_in_an_edit_of_shared_arrays_is_still_refused():
    before = _scenario()
    with pytest.raises(ScenarioError, match=r"keys\[1\]\[3\]: NaN is not allowed"):
        sc.with_vector(before, "key", 1, [0, 0, 0, float("nan"), 0, 0])
    with pytest.raises(ScenarioError, match="out of range"):
        sc.with_component(sc.with_vector(before, "value", 0, [1, 2, 3, 4]), "key", 4, 0, 2e6)


def test_arrays_a_caller_can_still_write_are_copied():
    values = np.ones((5, 4))
    shared = _scenario()
    made = Scenario(query=shared.query, keys=shared.keys, values=values)
    assert made.keys is shared.keys
    values[0, 0] = 7.0  # the caller's own array: the scenario took a copy
    assert made.values[0, 0] == 1.0
    reopened = np.array(shared.values)  # a writable copy of a shared array is the caller's again
    assert Scenario(query=shared.query, keys=shared.keys, values=reopened).values is not reopened
