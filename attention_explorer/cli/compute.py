"""`attention-explorer compute` (every number of a scenario, as JSON or text) and `presets`, without Qt."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from attention_explorer.cli.parser import Parser, UsageError, fail
from attention_explorer.core.files.presets import load_preset, preset_names
from attention_explorer.core.scenes.cross import scene as cross
from attention_explorer.core.scenes.cross.scene import CrossScenario
from attention_explorer.core.scenes.multihead import report as multihead_report
from attention_explorer.core.scenes.multihead.scene import MultiHeadScenario
from attention_explorer.core.scenes.positions.file import PositionalScene, positions_report_json, positions_report_text
from attention_explorer.core.scenes.query import report
from attention_explorer.core.scenes.query.file import load_any
from attention_explorer.core.scenes.query.scene import ScenarioError
from attention_explorer.core.scenes.sequence import scene as sequence
from attention_explorer.core.scenes.sequence.scene import SequenceScenario


def run_compute(argv: Sequence[str]) -> int:
    """Entry point of the `compute` subcommand."""
    parser = Parser(prog="attention-explorer compute",
                    description="Print every number of softmax(QK^T/sqrt(d_k))V for a scenario "
                                '(a single query, a whole sequence in a "kind": "sequence" file, every head of a '
                                '"kind": "multihead" file, or a target attending to a source in a "kind": "cross" '
                                'file, or q·k at positions m and n in a "kind": "positions" file).')
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
    if isinstance(scenario, SequenceScenario):
        to_json, to_text = sequence.sequence_report_json, sequence.sequence_report_text
    elif isinstance(scenario, MultiHeadScenario):
        to_json, to_text = multihead_report.multihead_report_json, multihead_report.multihead_report_text
    elif isinstance(scenario, CrossScenario):
        to_json, to_text = cross.cross_report_json, cross.cross_report_text
    elif isinstance(scenario, PositionalScene):
        to_json, to_text = positions_report_json, positions_report_text
    else:
        to_json, to_text = report.to_json, report.to_text
    result = scenario.compute()
    if args.format == "json" and isinstance(scenario, SequenceScenario):
        # Written in pieces: at N = 512, d = 4096 the report is 200 MB of text, never held whole.
        write = sys.stdout.write
        for chunk in sequence.sequence_report_chunks(scenario, result):
            write(chunk)
        write("\n")
    elif args.format == "json":
        print(to_json(scenario, result))
    else:
        print(to_text(scenario, result), end="")
    return 0


def run_presets(argv: Sequence[str]) -> int:
    """Entry point of the `presets` subcommand: every built-in example's name and title."""
    parser = Parser(prog="attention-explorer presets", description="List the built-in examples.")
    parser.parse_args(argv)
    for name in preset_names():
        print(f"{report.terminal_text(name)}\t{report.terminal_text(load_preset(name).title)}")
    return 0
