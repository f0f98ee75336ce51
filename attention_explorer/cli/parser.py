"""The commands' shared parser: bad arguments are one line on standard error and exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

EXIT_USAGE = 2


class UsageError(Exception):
    """A command line that cannot run: its message is the one line the user sees."""


class Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line with status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def fail(message: str) -> int:
    """Print a one-line problem on standard error; the usage exit status."""
    from attention_explorer.core.terminal import terminal_text  # start-up: loaded only when there is a problem

    print(terminal_text(message), file=sys.stderr)  # it may quote a file name or a field from the file
    return EXIT_USAGE


def run_printing(command: Callable[[Sequence[str]], int], argv: Sequence[str]) -> int:
    """Run a printing subcommand; a closed pipe (`| head`) or a narrow terminal encoding is no traceback."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")  # e.g. a Latin-1 terminal and a label "北京"
    try:
        status = command(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away; point stdout at nothing so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def add_look_arguments(parser: Parser) -> None:
    """--lang and --theme, as the window and `record` take them."""
    parser.add_argument("--lang", choices=("en", "zh_CN"), help="user interface language")
    parser.add_argument("--theme", choices=("light", "dark", "contrast"), help="colour theme (contrast: projectors)")


def split_size(text: str, prog: str) -> tuple[int, int]:
    """"WIDTHxHEIGHT" as two integers (their range is the caller's to check); a usage error names `prog`."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"{prog}: --size: expected WIDTHxHEIGHT, got {text!r}") from None
    return width, height
