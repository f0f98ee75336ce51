"""`attention-explorer train`: one JSON object per step, then a summary line; limits and bad input in one line."""

from __future__ import annotations

import json

import pytest

from attention_explorer.core.training import run as training


def lines(result) -> list[dict]:
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]


def test_each_step_is_one_json_object_then_a_summary(cli_in_process, tmp_path):
    printed = lines(cli_in_process("train", "--d-k", "16", "--steps", "4", "--seed", "2", "--lr", "0.01",
                                   cwd=tmp_path))
    steps, summary = printed[:-1], printed[-1]
    assert [step["step"] for step in steps] == [1, 2, 3, 4]
    assert all(set(step) == {"step", "loss", "entropy", "jacobian_norm", "grad_norm_q", "grad_norm_k"}
               for step in steps)
    run = training.run_to_end(16, 4, 0.01, 2, True)
    assert steps == [record.as_json() for record in run.records]  # every number, to the last bit
    assert summary["summary"] is True and summary["scaled"] is True and summary["steps"] == 4
    assert summary["final_loss"] == steps[-1]["loss"] and summary["threshold"] == training.threshold(run.task)


def test_no_scale_trains_the_unscaled_run(cli_in_process, tmp_path):
    printed = lines(cli_in_process("train", "--d-k", "16", "--steps", "2", "--no-scale", cwd=tmp_path))
    run = training.run_to_end(16, 2, training.DEFAULT_LR, 0, False)
    assert printed[:-1] == [record.as_json() for record in run.records]
    assert printed[-1]["scaled"] is False


@pytest.mark.parametrize(("args", "message"), [
    (["--d-k", "513"], "attention-explorer train: d_k: expected a whole number from 16 to 512, got 513"),
    (["--d-k", "15"], "attention-explorer train: d_k: expected a whole number from 16 to 512, got 15"),
    (["--steps", "2001"], "attention-explorer train: steps: expected a whole number from 1 to 2000, got 2001"),
    (["--steps", "0"], "attention-explorer train: steps: expected a whole number from 1 to 2000, got 0"),
    (["--lr", "0.10000000000000002"],
     "attention-explorer train: learning rate: expected a number from 0.00001 to 0.1, got 0.10000000000000002"),
    (["--lr", "nan"], "attention-explorer train: learning rate: expected a number from 0.00001 to 0.1, got nan"),
    (["--seed", "-1"], "attention-explorer train: seed: expected a whole number from 0 to 2147483647, got -1"),
    (["--d-k", "sixteen"], "attention-explorer train: argument --d-k: invalid int value: 'sixteen'"),
    (["--nope"], "attention-explorer train: unrecognized arguments: --nope"),
])
def test_bad_input_is_one_line_and_status_2(cli_in_process, tmp_path, args, message):
    result = cli_in_process("train", *args, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode("utf-8").splitlines() == [message]


def test_the_limits_themselves_are_accepted(cli_in_process, tmp_path):
    printed = lines(cli_in_process("train", "--d-k", "512", "--steps", "1", "--lr", "0.1", "--seed", "2147483647",
                                   cwd=tmp_path))
    assert printed[-1]["d_k"] == 512 and printed[-1]["lr"] == 0.1 and len(printed) == 2
    printed = lines(cli_in_process("train", "--d-k", "16", "--steps", "1", "--lr", "0.00001", "--seed", "0",
                                   cwd=tmp_path))
    assert printed[-1]["d_k"] == 16 and printed[-1]["lr"] == 1e-5


def test_compute_on_a_training_file_prints_both_runs_summaries(cli_in_process, tmp_path):
    (tmp_path / "run.json").write_text('{"kind": "training", "d_k": 16, "steps": 2, "lr": 0.01, "seed": 4}',
                                       encoding="utf-8")
    result = cli_in_process("compute", "run.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for name, extra in (("scaled", ()), ("unscaled", ("--no-scale",))):
        summary = lines(cli_in_process("train", "--d-k", "16", "--steps", "2", "--lr", "0.01", "--seed", "4", *extra,
                                       cwd=tmp_path))[-1]
        assert report[name] == summary
    assert report["verdict"] in (training.SCALED_FASTER, training.UNSCALED_FASTER, training.ABOUT_SAME,
                                 training.NEITHER)
