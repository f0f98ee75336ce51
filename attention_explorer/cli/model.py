"""`attention-explorer model DIR --text TEXT --layer L --head H`: one head of a real transformer as JSON, no Qt.

Every problem (bad folder, missing file, another architecture, layer or head out of range, the optional
packages missing) is one line on standard error and exit status 2.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence

import numpy as np

from attention_explorer.cli.parser import EXIT_USAGE, Parser, UsageError
from attention_explorer.core.pretrained.checkpoint import CheckpointError, load_checkpoint, require_packages
from attention_explorer.core.scenes.query.report import json_without_controls, terminal_text

PROG = "attention-explorer model"


def _parser() -> Parser:
    parser = Parser(
        prog=PROG,
        description="Print one attention head of a local BERT-family, GPT-2, Llama-family or Qwen2 model (a "
                    "Hugging Face folder with config.json, model.safetensors or its shards, and tokenizer.json) as "
                    "JSON. Layers and heads count from 0; kv_head is the key/value head the query head reads "
                    "(grouped-query attention), and with RoPE q and k are after rotation, q_unrotated and "
                    "k_unrotated before it. Nothing is downloaded.",
    )
    parser.add_argument("folder", metavar="DIR", help="the model folder")
    parser.add_argument("--text", required=True, help='the sentence, e.g. "I love Beijing"')
    parser.add_argument("--layer", type=int, default=0, help="layer, from 0 (default 0)")
    parser.add_argument("--head", type=int, default=0, help="head, from 0 (default 0)")
    return parser


def _rows(matrix: np.ndarray) -> list[list[float]]:
    return [[float(x) for x in row] for row in matrix]


def head_report(folder: str, text: str, layer: int, head: int) -> dict:
    """The JSON document for one head (raises CheckpointError for any problem)."""
    require_packages()
    model = load_checkpoint(folder)
    analysis = model.analyse(text)
    attention = analysis.head(layer, head)
    rope = {}
    if attention.rotary is not None:
        rope = {"rope_theta": attention.rotary.theta, "q_unrotated": _rows(attention.queries_unrotated),
                "k_unrotated": _rows(attention.keys_unrotated)}
    return {
        "model": model.name,
        "model_type": model.model_type,
        "text": text,
        "tokens": list(analysis.tokens),
        "ids": list(analysis.ids),
        "causal": analysis.causal,
        "layer": layer,
        "head": head,
        "num_layers": model.config.num_layers,
        "num_heads": model.config.num_heads,
        "num_kv_heads": model.num_kv_heads,
        "kv_head": attention.kv_head,
        "head_size": attention.head_size,
        "scale": 1.0 / math.sqrt(attention.head_size),
        "attention": _rows(attention.weights),
        "scaled_scores": _rows(attention.scaled_scores),
        "q": _rows(attention.queries),
        "k": _rows(attention.keys),
        "v": _rows(attention.values),
        **rope,
    }


def to_json(document: dict) -> str:
    """Indented JSON with each matrix row on one line, non-ASCII tokens (北, 京) as themselves."""
    lines = []
    for index, (key, value) in enumerate(document.items()):
        comma = "," if index < len(document) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], list):
            rows = ",\n".join("    " + json.dumps(row) for row in value)
            lines.append(f"  {json.dumps(key)}: [\n{rows}\n  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    return json_without_controls("{\n" + "\n".join(lines) + "\n}")


def run_model_command(argv: Sequence[str]) -> int:
    """Entry point of the `model` subcommand: 0 and JSON on success, 2 and one line on standard error."""
    try:
        args = _parser().parse_args(list(argv))
    except UsageError as error:
        print(terminal_text(str(error)), file=sys.stderr)
        return EXIT_USAGE
    try:
        args.text.encode("utf-8")
    except UnicodeEncodeError:  # bytes that are not UTF-8 reach sys.argv as lone surrogates
        print(f"{PROG}: --text is not valid UTF-8", file=sys.stderr)
        return EXIT_USAGE
    try:
        document = head_report(args.folder, args.text, args.layer, args.head)
    except CheckpointError as error:
        print(terminal_text(f"{PROG}: {error}"), file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:
        print(terminal_text(f"{PROG}: {args.folder}: not enough memory for this model"), file=sys.stderr)
        return EXIT_USAGE
    print(to_json(document))
    return 0
