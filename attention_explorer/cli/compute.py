"""`attention-explorer compute` (every number of a scenario, as JSON or text) and `presets`, without Qt."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from attention_explorer.cli.parser import Parser, UsageError, fail
from attention_explorer.core.files.anykind import load_any
from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.registry import kind_of_scene, report
from attention_explorer.core.terminal import terminal_text


def run_compute(argv: Sequence[str]) -> int:
    """Entry point of the `compute` subcommand."""
    parser = Parser(prog="attention-explorer compute",
                    description="Print every number of softmax(QK^T/sqrt(d_k))V for a scenario "
                                '(a single query, a whole sequence in a "kind": "sequence" file, every head of a '
                                '"kind": "multihead" file, or a target attending to a source in a "kind": "cross" '
                                'file, q·k at positions m and n in a "kind": "positions" file, or both training runs\' '
                                'summaries for a "kind": "training" file).')
    parser.add_argument("file", nargs="?", help="scenario file (.json)")
    parser.add_argument("--preset", help="a built-in example instead of a file")
    parser.add_argument("--format", choices=("json", "text"), default="json")
    args = parser.parse_args(argv)
    if (args.file is None) == (args.preset is None):
        raise UsageError("attention-explorer compute: give exactly one of FILE or --preset NAME")
    if args.file is not None and not args.file:
        raise UsageError("attention-explorer compute: FILE is empty: give the path of a scenario file")
    name = args.file if args.file is not None else f"preset {args.preset}"
    try:
        scenario = load_any(args.file) if args.file is not None else load_preset(args.preset)
    except ScenarioError as error:
        return fail(f"attention-explorer: {name}: {error}")
    printing = report(kind_of_scene(scenario))
    result = scenario.compute()
    if args.format == "json" and printing.json_chunks is not None:
        # Written in pieces: at N = 512, d = 4096 a self-attention report is 200 MB of text, never held whole.
        write = sys.stdout.write
        for chunk in printing.json_chunks(scenario, result):
            write(chunk)
        write("\n")
    elif args.format == "json":
        print(printing.to_json(scenario, result))
    else:
        print(printing.to_text(scenario, result), end="")
    return 0


def run_presets(argv: Sequence[str]) -> int:
    """Entry point of the `presets` subcommand: every built-in example's name and title."""
    parser = Parser(prog="attention-explorer presets", description="List the built-in examples.")
    parser.parse_args(argv)
    for name in preset_names():
        print(f"{terminal_text(name)}\t{terminal_text(load_preset(name).title)}")
    return 0
