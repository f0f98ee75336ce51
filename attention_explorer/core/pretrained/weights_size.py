"""How much memory a model's tensors need, from the safetensors header alone, and whether this machine has it free."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable

from attention_explorer.core.pretrained.config_fields import CheckpointError
from attention_explorer.core.pretrained.safetensors_file import TensorEntry, read_header

# Reading holds the stored tensors; then GPT-2 keeps every number in float64 (a generation step must not widen the
# whole model again), and BERT widens one matrix at a time, at most about twice its largest tensor. The Llama family
# counts its own way (llama_checkpoint.llama_needed_bytes): float32 kept, one matrix at a time widened.
WIDENED_COPIES = 2


def is_complete_safetensors(path: str | os.PathLike[str]) -> bool:
    """True when the file is as long as its checked header says: the last tensor ends where the file ends.

    Reads only the header; a cut-off download, or another file in its place (a config.json), is False.
    """
    try:
        header = read_header(path)
        size = os.stat(path).st_size
    except (CheckpointError, OSError):
        return False
    return bool(header.entries) and max(entry.end for entry in header.entries.values()) == size


def needed_bytes(entries: Iterable[TensorEntry]) -> int:
    """Memory to read these tensors and run them: the tensors as stored, and float64 copies of them all or of the
    largest twice, whichever is more."""
    stored, numbers, largest = 0, 0, 0
    for entry in entries:
        stored += entry.nbytes
        numbers += entry.count
        largest = max(largest, entry.count)
    return stored + 8 * max(numbers, WIDENED_COPIES * largest)


def available_memory_bytes() -> int | None:
    """Memory the system can give without swapping (Linux's MemAvailable), or None where it cannot say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as file:
            for line in file:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_fits_in_memory(path: str | os.PathLike[str], entries: Iterable[TensorEntry],
                         needed: int | None = None) -> None:
    """Refuse, before anything is read, weights (the tensors the model uses) that need more memory than is free
    (`needed` bytes when the caller counts them its own way, else needed_bytes)."""
    needed = needed_bytes(entries) if needed is None else needed
    available = available_memory_bytes()
    if available is not None and needed > available:
        raise CheckpointError("{0}: this model needs about {1} MB of memory to load, and only {2} MB are free",
                              path, math.ceil(needed / 1e6), available // 1_000_000)
