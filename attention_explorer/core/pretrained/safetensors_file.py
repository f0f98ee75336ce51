"""model.safetensors read by hand: the header checked whole first, then only the tensors a model uses.

The format: 8 bytes (little-endian) giving the header's length, the header (a JSON object naming each tensor's
dtype, shape and byte range in the data that follows), then the data. Every entry is checked before any tensor
is read: a known dtype, a shape of whole numbers whose size matches its byte range, a range inside the file and
overlapping no other. The caller then checks the tensors it needs against config.json and reads just those, each
straight into its own array; a tensor the model does not use (a pooler, a language-model head, or a declared
1.6 GB of anything) is never read. Pure Python and numpy: no safetensors package, no memory map.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attention_explorer.core.messages import big_integer_text
from attention_explorer.core.pretrained.config_fields import CheckpointError

# A header lists names, dtypes, shapes and offsets: about 100 bytes a tensor. GPT-2 XL's is 70 KB; the format
# allows 100 MB, which parsed into Python objects would take gigabytes. 16 MiB is room for 150 000 tensors.
HEADER_LIMIT = 16 * 1024 * 1024
# Bits per number of every dtype the format defines (F4 and F6 pack several numbers a byte).
DTYPE_BITS = {"BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "F4": 4, "F6_E2M3": 6,
              "F6_E3M2": 6, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
              "C64": 64, "F64": 64, "I64": 64, "U64": 64}
# The dtypes read into numpy arrays, as stored (little-endian): the floating-point ones numpy has.
READABLE = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2")}
# bfloat16, which numpy lacks: its 16 bits are the top half of a float32, so they are read as uint16 and widened
# exactly (bf16_to_float32). Only callers that allow it ask for BF16 tensors (the Llama family).
BFLOAT16 = "BF16"
_NAME_SHOWN = 120


def shown_name(name: str) -> str:
    """A tensor's name as a message shows it: as it is when short and printable, else quoted, escaped and cut."""
    if name and len(name) <= _NAME_SHOWN and name.isprintable():
        return name
    return json.dumps(name[:_NAME_SHOWN], ensure_ascii=False) + ("…" if len(name) > _NAME_SHOWN else "")


@dataclass(frozen=True)
class TensorEntry:
    """One tensor as the header declares it; `start` and `end` are byte offsets in the file."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    start: int
    end: int

    @property
    def count(self) -> int:
        """How many numbers it holds."""
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        """Its bytes in the file."""
        return self.end - self.start


@dataclass(frozen=True)
class SafetensorsHeader:
    """A checked header: every tensor's entry, by name."""

    path: Path
    entries: dict[str, TensorEntry]


def no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object hook that refuses a key given twice (raises Duplicate naming it)."""
    document: dict = {}
    for key, value in pairs:
        if key in document:
            raise Duplicate(key)
        document[key] = value
    return document


class Duplicate(ValueError):
    """A key given twice in a JSON object."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _whole_numbers(value: object, count: int | None = None) -> tuple[int, ...] | None:
    """A list of whole numbers ≥ 0 (of `count` of them when given) as a tuple, or None."""
    if not isinstance(value, list) or (count is not None and len(value) != count):
        return None
    if not all(isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value):
        return None
    return tuple(value)


def _read_prefix(path: Path) -> tuple[int, bytes]:
    """(the file's size, its header bytes), refusing a file too short or a header too long for it."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size < 8:
                raise CheckpointError("{0}: not a safetensors file ({1} bytes)", path, size)
            length = int.from_bytes(file.read(8), "little")
            if length > HEADER_LIMIT:
                raise CheckpointError("{0}: the header claims {1} bytes; at most {2} are accepted", path, length,
                                      HEADER_LIMIT)
            if 8 + length > size:
                raise CheckpointError("{0}: the header claims {1} bytes, but the file has only {2}", path, length,
                                      size)
            data = file.read(length)
    except FileNotFoundError:
        raise CheckpointError("{0}: no such file", path) from None
    except OSError as error:
        raise CheckpointError("{0}: cannot read it ({1})", path, error.strerror or error) from None
    if len(data) != length:
        raise CheckpointError("{0}: the header claims {1} bytes, but the file has only {2}", path, length, size)
    return size, data


def read_header(path: str | os.PathLike[str]) -> SafetensorsHeader:
    """Read and check a model.safetensors header; nothing of the tensors' data is read.

    Every entry is checked, used or not: a problem is one CheckpointError naming the tensor.
    """
    path = Path(path)
    size, data = _read_prefix(path)
    try:
        document = json.loads(data.decode("utf-8"), object_pairs_hook=no_duplicates)
    except UnicodeDecodeError:
        raise CheckpointError("{0}: the header is not UTF-8 text", path) from None
    except Duplicate as duplicate:
        raise CheckpointError("{0}: tensor {1} is declared twice", path, shown_name(duplicate.key)) from None
    except (ValueError, RecursionError) as error:
        raise CheckpointError("{0}: the header is not valid JSON ({1})", path,
                              str(error)[:200] or type(error).__name__) from None
    if not isinstance(document, dict):
        raise CheckpointError("{0}: the header is not a JSON object", path)
    data_start = 8 + len(data)
    entries: dict[str, TensorEntry] = {}
    for name, entry in document.items():
        if name == "__metadata__":
            continue
        entries[name] = _entry(path, name, entry, data_start, size)
    _check_no_overlap(path, entries.values())
    return SafetensorsHeader(path, entries)


def _entry(path: Path, name: str, entry: object, data_start: int, size: int) -> TensorEntry:
    """One header entry, checked: dtype, shape, and a byte range of the right length inside the file."""
    shown = shown_name(name)
    if not isinstance(entry, dict) or not {"dtype", "shape", "data_offsets"} <= entry.keys():
        raise CheckpointError("{0}: tensor {1}: expected an object with dtype, shape and data_offsets", path, shown)
    dtype = entry["dtype"]
    if not isinstance(dtype, str) or dtype not in DTYPE_BITS:
        raise CheckpointError("{0}: tensor {1} has an unknown dtype ({2})", path, shown,
                              json.dumps(dtype, ensure_ascii=False)[:40])
    shape = _whole_numbers(entry["shape"])
    if shape is None:
        raise CheckpointError("{0}: tensor {1}: shape must be a list of whole numbers ≥ 0", path, shown)
    offsets = _whole_numbers(entry["data_offsets"], 2)
    if offsets is None or offsets[0] > offsets[1]:
        raise CheckpointError("{0}: tensor {1}: data_offsets must be two whole numbers, the first not above the "
                              "second", path, shown)
    begin, end = offsets
    bits = math.prod(shape) * DTYPE_BITS[dtype]
    if bits != 8 * (end - begin):
        raise CheckpointError("{0}: tensor {1}: {2} numbers of {3} take {4} bytes, but data_offsets give {5}", path,
                              shown, big_integer_text(math.prod(shape)), dtype, big_integer_text(-(-bits // 8)),
                              big_integer_text(end - begin))
    if data_start + end > size:
        raise CheckpointError("{0}: tensor {1} ends at byte {2}, past the end of the file ({3} bytes)", path, shown,
                              big_integer_text(data_start + end), size)
    return TensorEntry(name, dtype, shape, data_start + begin, data_start + end)


def _check_no_overlap(path: Path, entries: Iterable[TensorEntry]) -> None:
    """Refuse two tensors sharing a byte (empty tensors share none)."""
    reach: TensorEntry | None = None  # of the tensors so far, the one that ends last
    for entry in sorted((e for e in entries if e.nbytes), key=lambda e: (e.start, e.end)):
        if reach is not None and entry.start < reach.end:
            raise CheckpointError("{0}: tensors {1} and {2} overlap in the file", path, shown_name(reach.name),
                                  shown_name(entry.name))
        if reach is None or entry.end > reach.end:
            reach = entry


def bf16_to_float32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 numbers given as their raw 16 bits (uint16) → float32, exactly: the bits shifted into the top half."""
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)


def read_tensors(header: SafetensorsHeader, names: Iterable[str],
                 at_least_float32: bool = False) -> dict[str, np.ndarray]:
    """The named tensors (each of a READABLE dtype or BF16, checked by the caller), read one by one from their byte
    ranges. BF16 always arrives as float32; with `at_least_float32`, so does F16 (each tensor widened as soon as it
    is read, so that no more than one 16-bit copy is ever held)."""
    tensors: dict[str, np.ndarray] = {}
    path = header.path
    try:
        with path.open("rb") as file:
            for name in names:
                entry = header.entries[name]
                stored = np.dtype("<u2") if entry.dtype == BFLOAT16 else READABLE[entry.dtype]
                array = np.empty(entry.count, dtype=stored)
                file.seek(entry.start)
                read = file.readinto(memoryview(array).cast("B")) if entry.nbytes else 0
                if read != entry.nbytes:  # the file shrank since its header was read
                    raise CheckpointError("{0}: the file ends inside tensor {1}", path, shown_name(name))
                if entry.dtype == BFLOAT16:
                    array = bf16_to_float32(array)
                elif at_least_float32 and array.dtype.itemsize < 4:
                    array = array.astype(np.float32)
                tensors[name] = array.reshape(entry.shape)
    except FileNotFoundError:
        raise CheckpointError("{0}: no such file", path) from None
    except OSError as error:
        raise CheckpointError("{0}: cannot read the weights ({1})", path, error.strerror or error) from None
    return tensors
