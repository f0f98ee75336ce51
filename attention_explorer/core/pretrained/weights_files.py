"""A model's weights in one model.safetensors or split over shards named by model.safetensors.index.json.

The index maps every tensor name to the file holding it ({"weight_map": {"model.norm.weight":
"model-00002-of-00002.safetensors", …}}). Each file it names must be a plain file name in the model's folder (no
folder part, no "..", not absolute: an index is data, and never leads the reader elsewhere), and every shard's
header is read and checked whole (safetensors_file.read_header) before any tensor is. A tensor is then read from
the shard the index names, which must declare it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from attention_explorer.core.pretrained.config_fields import CheckpointError
from attention_explorer.core.pretrained.safetensors_file import (
    Duplicate,
    SafetensorsHeader,
    TensorEntry,
    no_duplicates,
    read_header,
    shown_name,
)

SINGLE = "model.safetensors"
INDEX = "model.safetensors.index.json"
INDEX_LIMIT = 16 * 1024 * 1024  # bytes: a 70B model's index is about 100 KB
MAX_SHARDS = 1000
# A shard's name: a plain file name, as transformers writes them (model-00001-of-00002.safetensors); no separator,
# no leading dot (so neither "." nor ".."), no control character.
_SHARD_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,199}")


@dataclass(frozen=True)
class WeightFiles:
    """Every tensor the weights declare, by name, with the header of the file that holds it."""

    path: Path  # model.safetensors, or the index
    headers: dict[str, SafetensorsHeader]  # tensor name → its file's checked header

    @property
    def entries(self) -> dict[str, TensorEntry]:
        """Each tensor's header entry, by name."""
        return {name: header.entries[name] for name, header in self.headers.items()}

    def by_file(self, names: Iterable[str]) -> list[tuple[SafetensorsHeader, list[str]]]:
        """The names grouped by the file that holds them, each group with that file's header."""
        groups: dict[Path, tuple[SafetensorsHeader, list[str]]] = {}
        for name in names:
            header = self.headers[name]
            groups.setdefault(header.path, (header, []))[1].append(name)
        return list(groups.values())


def weights_path(folder: str | os.PathLike[str]) -> Path:
    """model.safetensors when the folder has it, else the index of a split model (which may not exist either)."""
    folder = Path(folder)
    single = folder / SINGLE
    return single if single.is_file() or not (folder / INDEX).is_file() else folder / INDEX


def is_plain_file_name(name: object) -> bool:
    """True for a name that can only mean a file directly inside a folder: no separator, "..", drive or control."""
    return isinstance(name, str) and bool(_SHARD_NAME.fullmatch(name)) and ".." not in name





def read_index(path: str | os.PathLike[str]) -> dict[str, str]:
    """model.safetensors.index.json's weight_map (tensor name → shard file name), every shard name checked."""
    path = Path(path)
    try:
        if path.stat().st_size > INDEX_LIMIT:
            raise CheckpointError("{0}: {1} bytes is far too large for an index", path, path.stat().st_size)
        data = path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError("{0}: no such file", path) from None
    except OSError as error:
        raise CheckpointError("{0}: cannot read it ({1})", path, error.strerror or error) from None
    try:
        document = json.loads(data.decode("utf-8-sig"), object_pairs_hook=no_duplicates)
    except UnicodeDecodeError:
        raise CheckpointError("{0}: not UTF-8 text", path) from None
    except Duplicate as duplicate:
        raise CheckpointError("{0}: {1} is given twice", path, shown_name(duplicate.key)) from None
    except (ValueError, RecursionError) as error:
        raise CheckpointError("{0}: not valid JSON ({1})", path, str(error)[:200] or type(error).__name__) from None
    weight_map = document.get("weight_map") if isinstance(document, dict) else None
    if not isinstance(weight_map, dict) or not weight_map:
        raise CheckpointError("{0}: expected an object with a weight_map naming the file of each tensor", path)
    for name, shard in weight_map.items():
        if not is_plain_file_name(shard):
            raise CheckpointError("{0}: tensor {1} is said to be in {2}, which is not a plain file name in the model's "
                                  "folder", path, shown_name(name), json.dumps(shard, ensure_ascii=False)[:80])
    if len(set(weight_map.values())) > MAX_SHARDS:
        raise CheckpointError("{0}: the weights are split over {1} files; at most {2} are accepted", path,
                              len(set(weight_map.values())), MAX_SHARDS)
    return weight_map


def open_weights(path: str | os.PathLike[str]) -> WeightFiles:
    """The checked header(s) of model.safetensors, or of every shard an index names; no tensor is read."""
    path = Path(path)
    if path.name != INDEX:
        header = read_header(path)
        return WeightFiles(path, dict.fromkeys(header.entries, header))
    weight_map = read_index(path)
    shards = {name: read_header(path.parent / name) for name in sorted(set(weight_map.values()))}
    headers = {}
    for name, shard in weight_map.items():
        if name not in shards[shard].entries:
            raise CheckpointError("{0}: tensor {1} is said to be in {2}, which does not declare it", path,
                                  shown_name(name), shard)
        headers[name] = shards[shard]
    return WeightFiles(path, headers)
