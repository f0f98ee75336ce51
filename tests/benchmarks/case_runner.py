"""Extra benchmark cases from every `tests/benchmarks/cases_*.py` module that defines `CASES`.

A case is `(name, measure, target)`: `measure()` returns a ratio to a floor or baseline it measures itself in the
same run, `target` is a text such as "≤ 2.0×". A module may define `check(ratio) -> bool`; otherwise the first
number of the target is the bound (≤ or ≥ as written). `measure()` may also return `(ratio, details)` where
`details` is a short text with the absolute figures. In a quick run the environment variable
AE_BENCH_QUICK is "1": a case should then measure something small, in well under a second.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
_BOUND = re.compile(r"([≤≥<>]=?)\s*([0-9]+(?:\.[0-9]+)?)")


@dataclass
class CaseResult:
    """One case's outcome: its ratio (None if it failed to run), its target, whether it is met, and notes."""

    module: str
    name: str
    ratio: float | None
    target: str
    met: bool
    details: str
    seconds: float


def meets(ratio: float, target: str) -> bool:
    """Whether `ratio` meets a target text such as "≤ 1.5×" or "≥ 0.9×"."""
    match = _BOUND.search(target)
    if match is None:
        raise ValueError(f"target {target!r} names no bound")
    bound = float(match.group(2))
    return ratio >= bound if match.group(1).startswith(("≥", ">")) else ratio <= bound


def case_modules(folder: Path = HERE) -> list[Path]:
    """Every cases_*.py module of the folder, by name."""
    return sorted(folder.glob("cases_*.py"))


def _load(path: Path):
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _run_one(module_name: str, name: str, measure: Callable, target: str, check) -> CaseResult:
    start = time.perf_counter()
    details = ""
    try:
        outcome = measure()
        if isinstance(outcome, tuple):
            outcome, details = outcome
        ratio = float(outcome)
        met = bool(check(ratio)) if check is not None else meets(ratio, target)
    except Exception as error:  # a broken case is reported, it does not stop the benchmark
        ratio, met = None, False
        details = f"failed: {type(error).__name__}: {error} " + traceback.format_exc(limit=-2).replace("\n", " ")
    return CaseResult(module_name, name, ratio, target, met, details, time.perf_counter() - start)


def run_cases(folder: Path = HERE) -> list[CaseResult]:
    """Run every case of every cases_*.py module; a module that fails to import is one failed case."""
    results = []
    for path in case_modules(folder):
        try:
            module = _load(path)
        except Exception as error:
            results.append(CaseResult(path.stem, "(import)", None, "", False, f"failed: {error}", 0.0))
            continue
        check = getattr(module, "check", None)
        for name, measure, target in getattr(module, "CASES", ()):
            results.append(_run_one(path.stem, name, measure, target, check))
        cleanup = getattr(module, "cleanup", None)
        if cleanup is not None:  # files the cases wrote: a test worker may end without running atexit
            cleanup()
    return results
