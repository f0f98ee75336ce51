"""Big matrices are not copied for nothing: an edit of one vector shares the scenario's unchanged arrays (16 MB each
at the limits) and still copies whatever a caller could change; the output is summed without the N × d_v product."""

from __future__ import annotations

import numpy as np
import pytest

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import attend
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.core.scenes.query.scene import Scenario


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


@pytest.mark.parametrize(("n", "d_v"), [(512, 256), (300, 300), (17, 4096), (40, 2)])
def test_the_output_is_the_weighted_values_summed_bit_for_bit_and_they_are_made_only_when_asked(n, d_v):
    rng = np.random.default_rng(n)
    query, keys = rng.standard_normal(8), rng.standard_normal((n, 8)) * 2
    values = rng.standard_normal((n, d_v)) * 10 ** rng.uniform(-3, 3, (n, 1))
    result = attend(query, keys, values, 0.5)
    assert "weighted_values" not in vars(result)  # not built by a drag move that never shows them
    assert np.array_equal(result.weighted_value(n - 1), result.weights[n - 1] * values[n - 1])
    weighted = result.weights[:, None] * values
    assert np.array_equal(result.weighted_values, weighted)
    assert np.array_equal(result.output, weighted.sum(axis=0))
    values[0, 0] += 1.0  # the caller's array changes afterwards: the result's numbers do not
    assert np.array_equal(result.weighted_values, weighted)


def test_big_scenarios_differing_in_one_number_of_any_row_are_unequal():
    rng = np.random.default_rng(5)
    keys = rng.standard_normal((512, 300))
    big = Scenario(query=rng.standard_normal(300), keys=keys, values=rng.standard_normal((512, 2)))
    assert big == Scenario(query=big.query.copy(), keys=keys.copy(), values=big.values.copy())
    for row in (0, 217, 511):
        changed = keys.copy()
        changed[row, 299] += 1e-12
        assert not big == sc.with_vector(big, "key", row, changed[row])
