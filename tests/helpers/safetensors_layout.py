"""model.safetensors files written by hand: any header at all, and tensors declared without their bytes written.

A declared tensor whose data is not given is left as a hole: the file is extended to its full length without
writing it (a sparse file on Linux and macOS), so a 1.6 GB tensor costs no disk and no time to make.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

ITEM_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "U8": 1}


def layout(declared: dict[str, tuple[str, tuple[int, ...]]]) -> dict[str, dict]:
    """Header entries for (dtype, shape) by name, one after another in the given order."""
    entries, offset = {}, 0
    for name, (dtype, shape) in declared.items():
        size = math.prod(shape) * ITEM_BYTES[dtype]
        entries[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    return entries


def write(path: Path, header: dict, data: dict[str, np.ndarray] | None = None, length: int | None = None) -> Path:
    """A file with this header (JSON, written as given), the arrays of `data` at their offsets, and the rest a
    hole up to the end of the last tensor (or up to `length` bytes of data)."""
    raw = json.dumps(header).encode()
    if length is None:
        length = max((entry["data_offsets"][1] for name, entry in header.items() if name != "__metadata__"),
                     default=0)
    with path.open("wb") as file:
        file.write(len(raw).to_bytes(8, "little") + raw)
        start = file.tell()
        for name, array in (data or {}).items():
            file.seek(start + header[name]["data_offsets"][0])
            file.write(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes())
        file.truncate(start + length)
    return path


def write_tensors(path: Path, tensors: dict[str, np.ndarray],
                  declared: dict[str, tuple[str, tuple[int, ...]]] | None = None) -> Path:
    """The tensors (float32 as F32, float16 as F16, float64 as F64), then the `declared` ones as holes."""
    kinds = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16", np.dtype(np.float64): "F64"}
    header = layout({**{name: (kinds[array.dtype], array.shape) for name, array in tensors.items()},
                     **(declared or {})})
    return write(path, header, tensors)
