"""The names outside scripts import from here: `create_window` and `main` (the command line lives in cli/)."""

from attention_explorer.cli import main
from attention_explorer.cli.gui import create_window, ensure_qt_platform, load_source, source_file
from attention_explorer.cli.parser import EXIT_USAGE

__all__ = ["EXIT_USAGE", "create_window", "ensure_qt_platform", "load_source", "main", "source_file"]
