"""The command line run inside the test process, for the tests about what it prints rather than the process."""

from __future__ import annotations

import io
import os
import runpy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest


def run_in_process(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m attention_explorer ARGS` run by this interpreter: the same __main__, its own stdout and stderr.

    An interpreter start costs about 0.15 s on two cores; dozens of bad files cost seconds. An exception that
    would print a traceback in a real process escapes from here instead, so it still fails the test.
    """
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.argv, sys.stdout, sys.stderr, os.getcwd()
    sys.argv = ["attention-explorer", *args]
    stdout = sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    os.chdir(cwd)
    try:
        runpy.run_module("attention_explorer", run_name="__main__")
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        sys.argv, sys.stdout, sys.stderr = saved[:3]
        os.chdir(saved[3])
        for stream in (stdout, stderr):
            stream.flush()
            stream.detach()  # a wrapper closes its buffer when it goes away; the bytes are still wanted
    return subprocess.CompletedProcess(["attention-explorer", *args], status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def cli_in_process() -> Callable[..., subprocess.CompletedProcess]:
    """The in-process runner of the command line (compute and presets only: they never open a window)."""
    return run_in_process
