"""The training core: gradients by hand against finite differences and torch autograd, reproducibility, the limits
at their edge, the verdict's logic, and the article's claim measured at small settings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_explorer.core.files.anykind import dumps, loads_any
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import entropy_bits, softmax
from attention_explorer.core.scenes.query.file import scenario_from_dict
from attention_explorer.core.scenes.training.scene import TrainingScene
from attention_explorer.core.training import run as training
from attention_explorer.core.training.model import loss_and_gradients, make_task
from tests.helpers.limit_edges import Edge, assert_accepted, assert_refused, rows


def example(seed: int, examples: int, keys: int, d_in: int, d_k: int, d_v: int):
    rng = np.random.default_rng(seed)
    return dict(w_q=rng.standard_normal((d_in, d_k)), w_k=rng.standard_normal((d_in, d_k)),
                keys=rng.standard_normal((examples, keys, d_in)), values=rng.standard_normal((examples, keys, d_v)),
                targets=rng.integers(0, keys, examples), queries=rng.standard_normal((examples, d_in)))


def loss_by_loops(w_q, w_k, keys, values, targets, queries, scale) -> float:
    """The loss from its definition, one example and one key at a time (no shared code with the model)."""
    total = 0.0
    for e in range(len(targets)):
        q = queries[e] @ w_q
        scores = [scale * float(q @ (keys[e, i] @ w_k)) for i in range(keys.shape[1])]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        weights = [x / sum(exps) for x in exps]
        output = sum(w * values[e, i] for i, w in enumerate(weights))
        total += 0.5 * float(np.sum((output - values[e, targets[e]]) ** 2))
    return total / len(targets)


shapes = st.tuples(st.integers(0, 10**6), st.integers(1, 3), st.integers(2, 4), st.integers(1, 3),
                   st.integers(1, 4), st.integers(1, 3))


@settings(max_examples=12, deadline=None)
@given(shapes, st.sampled_from([0.5, 1.0]))
def test_the_hand_written_gradients_match_central_differences(shape, scale):
    case = example(*shape)
    case["w_q"] *= 0.5
    case["w_k"] *= 0.5
    back = loss_and_gradients(**case, scale=scale)
    assert back.loss == pytest.approx(loss_by_loops(**case, scale=scale), rel=1e-12)
    step = 1e-6
    for name, grad in (("w_q", back.grad_w_q), ("w_k", back.grad_w_k)):
        for index in np.ndindex(grad.shape):
            moved = {key: value.copy() if key == name else value for key, value in case.items()}
            moved[name][index] += step
            up = loss_and_gradients(**moved, scale=scale).loss
            moved[name][index] -= 2 * step
            down = loss_and_gradients(**moved, scale=scale).loss
            assert grad[index] == pytest.approx((up - down) / (2 * step), rel=1e-6, abs=1e-7)


@pytest.mark.parametrize("scale", [1.0, 1 / math.sqrt(16)])
def test_the_hand_written_gradients_match_torch_autograd_in_float64(scale):
    torch = pytest.importorskip("torch")
    case = example(7, 5, 8, 6, 16, 4)
    back = loss_and_gradients(**case, scale=scale)
    w_q = torch.tensor(case["w_q"], dtype=torch.float64, requires_grad=True)
    w_k = torch.tensor(case["w_k"], dtype=torch.float64, requires_grad=True)
    keys = torch.tensor(case["keys"], dtype=torch.float64)
    values = torch.tensor(case["values"], dtype=torch.float64)
    queries = torch.tensor(case["queries"], dtype=torch.float64)
    targets = torch.tensor(case["targets"])
    q = queries @ w_q
    k = keys @ w_k
    weights = torch.softmax(scale * torch.einsum("ed,end->en", q, k), dim=-1)
    output = torch.einsum("en,env->ev", weights, values)
    loss = 0.5 * ((output - values[torch.arange(len(targets)), targets]) ** 2).sum(-1).mean()
    loss.backward()
    assert back.loss == pytest.approx(loss.item(), rel=1e-12)
    np.testing.assert_allclose(back.weights, weights.detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(back.grad_w_q, w_q.grad.numpy(), rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(back.grad_w_k, w_k.grad.numpy(), rtol=1e-8, atol=1e-12)


def test_a_step_measures_what_the_core_maths_say():
    run = training.Run(16, 0.001, 3, True)
    record = run.step()
    task = run.task
    first_w_q, first_w_k = training.initial_weights(3, 16)
    scores = np.array([[(task.queries[e] @ first_w_q) @ (task.keys[e, i] @ first_w_k) for i in range(8)]
                       for e in range(len(task.targets))]) / 4.0
    weights = softmax(scores)
    assert record.entropy == pytest.approx(float(np.mean(entropy_bits(weights))), rel=1e-12)
    assert record.loss == pytest.approx(loss_by_loops(first_w_q, first_w_k, task.keys, task.values, task.targets,
                                                      task.queries, 0.25), rel=1e-12)
    assert sum(record.probe) == pytest.approx(1.0) and len(record.probe) == 8


def test_the_same_seed_gives_the_same_numbers_and_both_runs_start_alike():
    first = training.run_to_end(32, 5, 0.01, 11, False).records
    again = training.run_to_end(32, 5, 0.01, 11, False).records
    assert first == again
    scaled = training.run_to_end(32, 1, 0.01, 11, True)
    unscaled = training.run_to_end(32, 1, 0.01, 11, False)
    assert scaled.task is not unscaled.task and np.array_equal(scaled.task.keys, unscaled.task.keys)
    assert scaled.records[0].loss != unscaled.records[0].loss  # the same weights, only the factor differs
    assert training.run_to_end(32, 1, 0.01, 12, False).records[0] != first[0]


def test_at_a_large_d_k_the_unscaled_softmax_starts_saturated_and_learns_slower():
    """The article's claim, measured at a small setting the suite can afford (the lab's default is larger)."""
    task = make_task(0)
    limit = training.threshold(task)
    scaled = training.run_to_end(128, 60, 0.003, 0, True, task)
    unscaled = training.run_to_end(128, 60, 0.003, 0, False, task)
    assert unscaled.records[0].entropy < 1.0 < 2.0 < scaled.records[0].entropy  # of at most 3 bits
    assert unscaled.records[0].jacobian_norm < scaled.records[0].jacobian_norm / 2
    scaled_at = training.first_below([r.loss for r in scaled.records], limit)
    unscaled_at = training.first_below([r.loss for r in unscaled.records], limit)
    assert scaled_at is not None and (unscaled_at is None or unscaled_at > 2 * scaled_at)
    assert training.compare(scaled_at, unscaled_at) == training.SCALED_FASTER


@pytest.mark.parametrize(("scaled_at", "unscaled_at", "verdict"), [
    (10, None, training.SCALED_FASTER), (None, 10, training.UNSCALED_FASTER), (None, None, training.NEITHER),
    (20, 25, training.SCALED_FASTER), (20, 24, training.ABOUT_SAME), (4, 6, training.ABOUT_SAME),
    (4, 7, training.SCALED_FASTER), (25, 20, training.UNSCALED_FASTER), (10, 10, training.ABOUT_SAME)])
def test_which_run_learned_faster_needs_a_clear_margin(scaled_at, unscaled_at, verdict):
    assert training.compare(scaled_at, unscaled_at) == verdict


def test_the_sweep_says_from_which_d_k_on_the_difference_holds():
    row = training.SweepRow
    assert training.clear_from((row(16, 10, 11), row(32, 10, 30), row(64, 5, None))) == 32
    assert training.clear_from((row(16, 10, 30), row(32, 10, 30))) == 16
    assert training.clear_from((row(16, 10, 30), row(32, 10, 10))) is None
    found = training.sweep(2, 0.01, 0, d_ks=(16, 32), known={32: (1, None)})
    assert found[1] == row(32, 1, None) and found[0].d_k == 16


def test_a_training_file_round_trips_and_compute_reports_both_runs():
    scene = TrainingScene(d_k=16, steps=3, lr=0.02, seed=5, title="北京")
    assert loads_any(dumps(scene)) == scene
    result = scene.compute()
    assert result.scaled.steps == result.unscaled.steps == 3 and result.scaled.scaled and not result.unscaled.scaled
    with pytest.raises(ScenarioError, match="unknown field"):
        loads_any('{"kind": "training", "d_k": 16, "nope": 1}')
    with pytest.raises(ScenarioError, match="open it in the training lab"):
        scenario_from_dict({"kind": "training"})  # a single-query reader told it is the training lab's


ABOVE_TENTH = math.nextafter(0.1, 1.0)
BELOW_MIN_LR = math.nextafter(1e-5, 0.0)


def scene_edge(name: str, field: str, limit, past, message: str) -> Edge:
    return Edge(name, "core.training.run.check_" + field, limit, past,
                lambda value: getattr(TrainingScene(**{field: value}), field), message)


LIMITS = rows(
    scene_edge("d_k at most 512", "d_k", 512, 513, r"d_k: expected a whole number from 16 to 512, got 513"),
    scene_edge("d_k at least 16", "d_k", 16, 15, r"d_k: expected a whole number from 16 to 512, got 15"),
    scene_edge("steps at most 2000", "steps", 2000, 2001, r"steps: expected a whole number from 1 to 2000, got 2001"),
    scene_edge("steps at least 1", "steps", 1, 0, r"steps: expected a whole number from 1 to 2000, got 0"),
    scene_edge("lr at most 0.1", "lr", 0.1, ABOVE_TENTH,
               r"learning rate: expected a number from 0\.00001 to 0\.1, got 0\.10000000000000002"),
    scene_edge("lr at least 0.00001", "lr", 1e-5, BELOW_MIN_LR,
               r"learning rate: expected a number from 0\.00001 to 0\.1, got 9\.999999999999999e-06"),
    scene_edge("seed at most 2**31 - 1", "seed", 2**31 - 1, 2**31,
               r"seed: expected a whole number from 0 to 2147483647, got 2147483648"),
    scene_edge("seed at least 0", "seed", 0, -1, r"seed: expected a whole number from 0 to 2147483647, got -1"),
)


@pytest.mark.parametrize("edge", LIMITS)
def test_the_limit_itself_is_accepted(edge):
    assert_accepted(edge)


@pytest.mark.parametrize("edge", LIMITS)
def test_one_past_the_limit_is_refused_with_its_message(edge):
    assert_refused(edge)


@pytest.mark.parametrize("value", [True, 16.0, "16", None, math.nan])
def test_a_d_k_or_lr_of_another_kind_is_refused(value):
    with pytest.raises(ScenarioError):
        TrainingScene(d_k=value)
    if not isinstance(value, float) or math.isnan(value):
        with pytest.raises(ScenarioError):
            TrainingScene(lr=value)
