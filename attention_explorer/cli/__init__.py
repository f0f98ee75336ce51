"""The command line: `attention-explorer` and `python -m attention_explorer`, the window and every command.

The commands: the window (no command), compute, presets, model, download, models, record and train.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from attention_explorer.cli.parser import UsageError, fail, run_printing


def run_compute(argv: Sequence[str]) -> int:
    """`attention-explorer compute`: its module (every kind's maths and reports) imported only when it is used."""
    from attention_explorer.cli.compute import run_compute as run

    return run(argv)


def run_presets(argv: Sequence[str]) -> int:
    """`attention-explorer presets`: imported only when it is used, like compute (they share a module)."""
    from attention_explorer.cli.compute import run_presets as run

    return run(argv)


def run_model_command(argv: Sequence[str]) -> int:
    """`attention-explorer model`: its module (and the checkpoint readers) imported only when it is used."""
    from attention_explorer.cli.model import run_model_command as run

    return run(argv)


def run_download(argv: Sequence[str]) -> int:
    """`attention-explorer download`: its module (and the downloader) imported only when it is used."""
    from attention_explorer.cli.hub import run_download as run

    return run(argv)


def run_models(argv: Sequence[str]) -> int:
    """`attention-explorer models`: imported only when it is used, like download (they share a module)."""
    from attention_explorer.cli.hub import run_models as run

    return run(argv)


def run_record(argv: Sequence[str]) -> int:
    """`attention-explorer record`: its module imported only when it is used."""
    from attention_explorer.cli.record import run_record as run

    return run(argv)


def run_train(argv: Sequence[str]) -> int:
    """`attention-explorer train`: its module (and the training core) imported only when it is used."""
    from attention_explorer.cli.train import run_train as run

    return run(argv)


def run_gui(argv: Sequence[str]) -> int:
    """The window: cli/gui.py imported only for it, so the printing commands skip its imports."""
    from attention_explorer.cli.gui import run_gui as run

    return run(argv)


_PRINTING = {"compute": run_compute, "presets": run_presets, "model": run_model_command, "download": run_download,
             "models": run_models, "record": run_record, "train": run_train}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `attention-explorer` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in _PRINTING:
            return run_printing(_PRINTING[argv[0]], argv[1:])
        return run_gui(argv)
    except UsageError as error:
        return fail(str(error))
