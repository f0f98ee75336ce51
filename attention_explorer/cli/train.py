"""`attention-explorer train`: one run of the training lab's tiny attention model, one JSON object per step, no Qt.

The same numbers as the training lab's run of those settings (core/training): the loss, the attention entropy in
bits, the softmax Jacobian norm and the gradient norms reaching W_Q and W_K of every step, then a summary line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from attention_explorer.cli.parser import Parser, fail
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.training import run as training

PROG = "attention-explorer train"


def _parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="Train the training lab's single-head attention model (a query must find its key among 8 and "
                    "return its value; Adam on 64 examples) and print one JSON object per step (step, loss, entropy "
                    "in bits, jacobian_norm, grad_norm_q, grad_norm_k), then a summary line. Scaled by 1/sqrt(d_k) "
                    "unless --no-scale.")
    parser.add_argument("--d-k", dest="d_k", type=int, default=training.DEFAULT_D_K,
                        help=f"width of q and k, {training.MIN_D_K} to {training.MAX_D_K} "
                             f"(default {training.DEFAULT_D_K})")
    parser.add_argument("--steps", type=int, default=training.DEFAULT_STEPS,
                        help=f"{training.MIN_STEPS} to {training.MAX_STEPS} (default {training.DEFAULT_STEPS})")
    parser.add_argument("--seed", type=int, default=training.DEFAULT_SEED,
                        help=f"0 to {training.MAX_SEED} (default {training.DEFAULT_SEED})")
    parser.add_argument("--lr", type=float, default=training.DEFAULT_LR,
                        help=f"Adam's learning rate, 0.00001 to {training.MAX_LR} (default {training.DEFAULT_LR})")
    parser.add_argument("--no-scale", dest="scaled", action="store_false",
                        help="leave the scores unscaled (factor 1 instead of 1/sqrt(d_k))")
    return parser


def run_train(argv: Sequence[str]) -> int:
    """Entry point of the `train` subcommand."""
    args = _parser().parse_args(argv)
    try:
        steps = training.check_steps(args.steps)
        run = training.Run(args.d_k, args.lr, args.seed, args.scaled)
    except ScenarioError as error:
        return fail(f"{PROG}: {error}")
    write = sys.stdout.write
    for _ in range(steps):
        write(json.dumps(run.step().as_json()) + "\n")
    write(json.dumps(training.summarize(run).as_json()) + "\n")
    return 0
