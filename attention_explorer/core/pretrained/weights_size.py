"""How much memory a model.safetensors needs, from its header alone, and whether this machine has that much free."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from attention_explorer.core.pretrained.config_fields import CheckpointError

_HEADER_LIMIT = 100 * 1024 * 1024  # safetensors itself refuses headers above 100 MB
_DTYPE_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1,
                "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1, "U16": 2, "U32": 4, "U64": 8}
# Reading holds the stored tensors; then GPT-2 keeps every number in float64 (a generation step must not widen the
# whole model again), and BERT widens one matrix at a time, at most about twice its largest tensor.
WIDENED_COPIES = 2


def tensor_bytes(path: str | os.PathLike[str]) -> tuple[int, int, int] | None:
    """(all tensors' bytes, their numbers, the largest tensor's numbers) as the file's header declares them; None
    when the header cannot be read (safetensors then says what is wrong with the file)."""
    try:
        with Path(path).open("rb") as file:
            length = int.from_bytes(file.read(8), "little")
            if not 0 < length <= _HEADER_LIMIT:
                return None
            document = json.loads(file.read(length).decode("utf-8"))
        total, numbers, largest = 0, 0, 0
        for name, entry in document.items():
            if name != "__metadata__":
                count = math.prod(int(size) for size in entry["shape"])
                total += count * _DTYPE_BYTES.get(str(entry["dtype"]), 8)
                numbers += count
                largest = max(largest, count)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return total, numbers, largest


def is_complete_safetensors(path: str | os.PathLike[str]) -> bool:
    """True when the file is as long as its header says: 8 bytes, the header, then exactly the tensors' bytes.

    Reads only the header; a cut-off download, or another file in its place (a config.json), is False.
    """
    try:
        with Path(path).open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            length = int.from_bytes(file.read(8), "little")
            if not 0 < length <= min(_HEADER_LIMIT, size - 8):
                return False
            document = json.loads(file.read(length).decode("utf-8"))
        if not isinstance(document, dict):
            return False
        end = 0
        for name, entry in document.items():
            if name != "__metadata__":
                start, stop = entry["data_offsets"]
                if not (type(start) is int and type(stop) is int and 0 <= start <= stop):
                    return False
                end = max(end, stop)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return False
    return size == 8 + length + end


def needed_bytes(path: str | os.PathLike[str]) -> int | None:
    """Memory to read the weights and run them: the tensors as stored, and float64 copies of them all or of the
    largest twice, whichever is more."""
    sizes = tensor_bytes(path)
    if sizes is None:
        return None
    stored, numbers, largest = sizes
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


def check_fits_in_memory(path: str | os.PathLike[str]) -> None:
    """Refuse, before anything is read, weights that need more memory than the machine has free."""
    needed = needed_bytes(path)
    available = available_memory_bytes()
    if needed is not None and available is not None and needed > available:
        raise CheckpointError("{0}: this model needs about {1} MB of memory to load, and only {2} MB are free",
                              path, math.ceil(needed / 1e6), available // 1_000_000)
