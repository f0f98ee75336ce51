"""`attention-explorer download NAME` and `attention-explorer models`: get a model into the cache, list usable ones.

The cache is the Hugging Face cache; only models this program can use are listed. No Qt.

download: status 0 and the snapshot folder on standard output when a complete, verified model is in the cache
(fetched now, or already there); 2 and one line on standard error otherwise; 130 when interrupted (Ctrl+C), with
nothing of the download kept. A progress bar is drawn on standard error when it is a terminal.

Every text printed comes from the server or from folder names on disk, so it is printed with control characters,
bidirectional overrides and other invisible format characters escaped (\\x1b, \\u202e).
"""

from __future__ import annotations

import os
import shutil
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from attention_explorer.cli.parser import EXIT_USAGE, Parser, UsageError

DOWNLOAD = "attention-explorer download"
MODELS = "attention-explorer models"
EXIT_INTERRUPTED = 130
# Unicode categories a terminal must not receive raw: controls (ESC, BEL, NUL, tab…), format characters (the
# right-to-left override U+202E and its kin, zero-width joiners), line and paragraph separators, surrogates.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def shown(text: str) -> str:
    """`text` with every character a terminal would act on or hide written as an escape (\\x1b, \\u202e)."""
    out = []
    for char in str(text):
        if unicodedata.category(char) in _HIDDEN:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out)


def _say(message: str) -> None:
    print(shown(message), file=sys.stderr)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- download


def _parser_for_download() -> Parser:
    from attention_explorer.core.pretrained.checkpoint import SUPPORTED_MODEL_TYPES
    from attention_explorer.core.pretrained.download import MODEL_CHOICES

    names = ", ".join(choice.short_name for choice in MODEL_CHOICES)
    parser = Parser(
        prog=DOWNLOAD,
        description="Download a model from the Hugging Face Hub ($HF_ENDPOINT, else huggingface.co) into the Hugging "
                    "Face cache ($HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub), as File > Get a model... "
                    "does. Only config.json, tokenizer.json and model.safetensors are fetched; each is checked "
                    "against the Hub's list of files (its size, and its SHA-256 or git blob id) before the model "
                    "is put in the cache, and nothing is ever written outside it. Prints the model's folder; exit "
                    "status 0 when a verified model is in the cache, 2 otherwise.",
        epilog=f"NAME is one of {names}, or the Hub id (ORGANISATION/NAME) of a model of a supported family: "
               f"{', '.join(SUPPORTED_MODEL_TYPES)}.",
    )
    parser.add_argument("name", metavar="NAME", help="the model to download")
    return parser


def resolve_name(name: str) -> str:
    """The Hub id NAME stands for: a short name of Get a model…'s list (any case), that list's id, or a Hub id."""
    from attention_explorer.core.pretrained.download import MODEL_CHOICES, is_model_id

    for choice in MODEL_CHOICES:
        if name.lower() in (choice.short_name.lower(), choice.repo_id.lower()):
            return choice.repo_id
    if is_model_id(name):
        return name
    known = ", ".join(choice.short_name for choice in MODEL_CHOICES)
    raise UsageError(f"{DOWNLOAD}: {name!r} is neither a model of this program ({known}) nor a Hub id "
                     f"(ORGANISATION/NAME)")


class ProgressBar:
    """`all-MiniLM-L6-v2 [########----------]  45%  41.3 MB of 90.9 MB · about 12 s left`, redrawn in place on
    standard error (a terminal only)."""

    def __init__(self, label: str, stream) -> None:
        self.label = shown(label)
        self.stream = stream
        self.drawn = False

    def line(self, progress, width: int) -> str:
        """The bar for `progress` in `width` columns."""
        from attention_explorer.core.pretrained.download import size_text

        fraction = progress.done / progress.total if progress.total else 1.0
        text = f"{size_text(progress.done)} of {size_text(progress.total)}"
        if progress.seconds_left is not None and progress.done < progress.total:
            left = progress.seconds_left
            text += f" · about {round(left / 60)} min left" if left >= 90 else f" · about {max(1, round(left))} s left"
        tail = f" {fraction:4.0%}  {text}"
        room = max(10, min(40, width - len(self.label) - len(tail) - 4))
        filled = round(room * fraction)
        return f"{self.label} [{'#' * filled}{'-' * (room - filled)}]{tail}"[: max(20, width - 1)]

    def __call__(self, progress) -> None:
        width = shutil.get_terminal_size((80, 24)).columns
        self.stream.write("\r\x1b[K" + self.line(progress, width))
        self.stream.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def _model_summary(folder: Path) -> tuple[str, int]:
    """The family (config.json's model_type) and the bytes of its files (the weights' shards and index included)."""
    from attention_explorer.core.pretrained.checkpoint import read_config, weight_files

    size = 0
    for path in (folder / "config.json", folder / "tokenizer.json", *weight_files(folder)):
        try:
            size += path.stat().st_size
        except OSError:
            pass
    return read_config(folder / "config.json").model_type, size


def run_download(argv: Sequence[str]) -> int:
    """Entry point of the `download` subcommand."""
    from attention_explorer.core.pretrained.checkpoint import CheckpointError
    from attention_explorer.core.pretrained.download import (
        DownloadCancelled,
        DownloadError,
        cached_snapshot,
        download_model,
        size_text,
    )

    try:
        args = _parser_for_download().parse_args(list(argv))
        repo_id = resolve_name(args.name)
    except UsageError as error:
        _say(str(error))
        return EXIT_USAGE
    bar = ProgressBar(repo_id.rsplit("/", 1)[-1], sys.stderr) if _is_terminal(sys.stderr) else None
    try:
        folder = download_model(repo_id, bar or (lambda _progress: None))
    except KeyboardInterrupt:
        if bar is not None:
            bar.clear()
        _say(f"{DOWNLOAD}: {repo_id}: interrupted; nothing of this download was kept")
        return EXIT_INTERRUPTED
    except DownloadCancelled:  # never asked for here, but a download may say so
        _say(f"{DOWNLOAD}: {repo_id}: cancelled; nothing of this download was kept")
        return EXIT_INTERRUPTED
    except DownloadError as error:
        if bar is not None:
            bar.clear()
        folder = cached_snapshot(repo_id)
        if folder is None:
            _say(f"{DOWNLOAD}: {error}")
            return EXIT_USAGE
        _say(f"{DOWNLOAD}: {error}; the copy already on this computer is kept")
    if bar is not None:
        bar.clear()
    try:
        family, size = _model_summary(folder)
        if _is_terminal(sys.stderr):
            _say(f"{repo_id} ({family}, {size_text(size)}) is on this computer:")
    except CheckpointError:
        pass
    print(shown(str(folder)))
    return 0


# ---------------------------------------------------------------- models


def _models_parser() -> Parser:
    return Parser(
        prog=MODELS,
        description="List the models in the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub or "
                    "~/.cache/huggingface/hub) that this program can open, one line each: the Hub id, the family, "
                    "the size of its files (config.json, tokenizer.json and the weights, in one file or in shards) "
                    "and its folder, separated by tabs. Only complete models are listed. Nothing is downloaded.",
    )


def run_models(argv: Sequence[str]) -> int:
    """Entry point of the `models` subcommand: status 0 (an empty cache lists nothing)."""
    from attention_explorer.core.pretrained.checkpoint import CheckpointError, find_cached_checkpoints, hub_cache_dir
    from attention_explorer.core.pretrained.download import size_text

    _models_parser().parse_args(list(argv))
    cache = hub_cache_dir()
    unusable = 0
    listed = 0
    for model in find_cached_checkpoints(cache):
        try:
            family, size = _model_summary(model.path)
        except CheckpointError:
            unusable += 1
            continue
        print("\t".join(shown(part) for part in (model.name, family, size_text(size), os.fspath(model.path))))
        listed += 1
    if unusable:
        _say(f"{MODELS}: {unusable} more in the cache cannot be opened (attention-explorer model DIR says why)")
    if not listed:
        _say(f"{MODELS}: no model in {cache}; get one with: attention-explorer download NAME")
    return 0
