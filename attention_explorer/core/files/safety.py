"""What keeps a user's files safe: checked atomic writes, stamps of what was read or written, stale temporaries.

Atomic writes have their size checked; the temporary files that a killed save left behind are cleaned up.

A stamp is the size, modification time and SHA-256 of the bytes a window read or wrote: before it writes the
file again, it can tell whether someone else has written it meanwhile (another window, another program).

A temporary file is `.<name>.<pid>-<8 hex>.tmp` beside its target: the writer's process id in the name tells a
later save or open whether the writer is gone (its file is then removed) or may still be writing (left alone).
Older versions named it `.<name>.<8 random characters>.tmp`: such a file goes once it is a day old.
Pure Python, no Qt.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from attention_explorer.core.limits import ScenarioError

# Bytes gathered before each os.write: a scenario is written a matrix row at a time, and a row may be a few bytes.
_WRITE_CHUNK = 1 << 20
# A dead writer's temporary file is left alone until it has not been written for this long: a writer in another
# process-id space (a container, another computer on a shared folder) may look dead from here while it writes.
STALE_AFTER_S = 30.0
# A temporary file in the old naming (`.<name>.<8 random characters>.tmp`, written by versions before the process id
# was in the name) tells nothing of its writer: it goes when it has not been written for a day. No save takes that
# long, and a save in progress writes its file all the time (each write moves its modification time).
OLD_NAMING_STALE_AFTER_S = 24 * 3600.0
# The stamps of the latest files read (jsonrules.read_file records them), by absolute path; a few are enough.
_MAX_REMEMBERED = 16


@dataclass(frozen=True)
class FileStamp:
    """What was read from or written to a file: its size, its modification time and the SHA-256 of its bytes.

    A read's stamp has no SHA-256 at first (sha256 None): reading does not hash, so that start-up loads no OpenSSL
    and a 31 MB file costs no extra 20 ms. The first check that finds the file's stat unchanged fills it in.
    """

    size: int
    mtime_ns: int
    sha256: str | None = None

    def same_status(self, status: os.stat_result) -> bool:
        """True when a stat of the file shows the size and modification time recorded here."""
        return status.st_size == self.size and status.st_mtime_ns == self.mtime_ns


_last_reads: dict[str, FileStamp] = {}


def remember_read(path: str | os.PathLike[str], data: bytes, status: os.stat_result) -> None:
    """Record that `data` was just read from `path`, whose stat (taken before reading) was `status`."""
    key = os.path.abspath(path)
    _last_reads.pop(key, None)
    _last_reads[key] = FileStamp(len(data), status.st_mtime_ns)
    while len(_last_reads) > _MAX_REMEMBERED:
        del _last_reads[next(iter(_last_reads))]


def last_read(path: str | os.PathLike[str]) -> FileStamp | None:
    """The stamp of the bytes last read from `path` in this process (None: not read through read_file)."""
    return _last_reads.get(os.path.abspath(path))


def stamp_file(path: str | os.PathLike[str]) -> FileStamp | None:
    """The full stamp of the file at `path` now (None: no regular file there, or it cannot be read)."""
    import hashlib  # not at start-up: it loads OpenSSL

    # O_NONBLOCK: a FIFO put in the file's place must not wait for a writer.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as stream:
            status = os.fstat(stream.fileno())  # before reading: a write during the read shows as a change later
            if not stat.S_ISREG(status.st_mode):
                return None
            digest = hashlib.sha256()
            size = 0
            while block := stream.read(_WRITE_CHUNK):
                digest.update(block)
                size += len(block)
    except OSError:
        return None
    return FileStamp(size, status.st_mtime_ns, digest.hexdigest())


@dataclass(frozen=True)
class DiskCheck:
    """How a file on disk compares with the stamp of what was last read from or written to it."""

    changed: bool  # its bytes are not those of the stamp (or it is gone)
    missing: bool  # there is no regular file at the path any more
    stamp: FileStamp | None  # the stamp of what is there now (the known one, completed, when unchanged)


def check_file(path: str | os.PathLike[str], known: FileStamp, thorough: bool = False) -> DiskCheck:
    """Whether the file at `path` still holds the bytes of `known`.

    Quick (a stat) when its size and time are those of a full stamp; `thorough` hashes it even then (before a
    save: a copy that kept the time, a coarse file system's clock). A new time with the same bytes (touched, or
    written again unchanged) is no change: the returned stamp then carries the new time. A read's stamp (no
    SHA-256 yet) is completed while the file's size and time are still those of the read; once they are not, the
    file counts as changed. A file that cannot be read now counts as unchanged: there is nothing to tell, and a
    save reports itself what stops it.
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return DiskCheck(True, True, None)
    except OSError:
        return DiskCheck(False, False, known)
    if not stat.S_ISREG(status.st_mode):
        return DiskCheck(True, True, None)
    if known.sha256 is not None and known.same_status(status) and not thorough:
        return DiskCheck(False, False, known)
    now = stamp_file(path)
    if now is None:  # gone or unreadable between the stat and the read
        return DiskCheck(False, False, known) if os.path.lexists(path) else DiskCheck(True, True, None)
    if known.sha256 is None:
        same = now.size == known.size and now.mtime_ns == known.mtime_ns
    else:
        same = now.size == known.size and now.sha256 == known.sha256
    return DiskCheck(not same, False, now)


# ------------------------------------------------------------ writing


def atomic_write(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> FileStamp:
    """Write `chunks` to `path` atomically and return the stamp of what was written.

    A temporary file beside the target is written, flushed to the disk and checked (its size must be what was
    written), then renamed over the target; a symlink stays a link and the file it points to is replaced. A
    replaced file keeps its permissions. Any failure (a full disk raises OSError ENOSPC) leaves the target as it
    was and no temporary file behind; an exception raised by `chunks` itself is passed on the same way.
    """
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        mode = target.stat().st_mode
    except OSError:
        keep_mode = None  # a new file: os.open's 0o666 minus the umask, like any ordinary file
    else:
        if stat.S_ISDIR(mode):
            raise ScenarioError("is a folder: choose another name")
        if not stat.S_ISREG(mode):  # a link to /dev/full is written to nothing, and never replaced by a file
            raise ScenarioError("is not a regular file (a device, pipe or socket): choose another name")
        keep_mode = stat.S_IMODE(mode)  # overwriting: keep the file's permissions
    remove_stale_temporaries(target)
    handle, temporary = _create_temporary(target)
    try:
        if keep_mode is not None and hasattr(os, "fchmod"):
            os.fchmod(handle, keep_mode)
        size, digest = _write_all(handle, chunks)
        os.fsync(handle)
        status = os.fstat(handle)
        if status.st_size != size:
            raise ScenarioError("only {0} of {1} bytes reached the disk", status.st_size, size)
        os.close(handle)
        handle = -1
        os.replace(temporary, target)
    except BaseException:
        if handle >= 0:
            os.close(handle)
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    check_written(target, size)
    return FileStamp(size, status.st_mtime_ns, digest)


def check_written(path: str | os.PathLike[str], size: int) -> None:
    """Raise unless `path` is a file of exactly `size` bytes (what a write just put there)."""
    try:
        found = os.stat(path).st_size
    except FileNotFoundError:
        raise ScenarioError("the file is not on the disk after writing it") from None
    if found != size:
        raise ScenarioError("only {0} of {1} bytes reached the disk", found, size)


def _write_all(handle: int, chunks: Iterable[bytes]) -> tuple[int, str]:
    """os.write every chunk (gathered to about a MiB per call); returns the size and the SHA-256 written."""
    import hashlib  # not at start-up: it loads OpenSSL

    digest = hashlib.sha256()
    size = 0
    pending: list[bytes] = []
    pending_size = 0
    for chunk in chunks:
        pending.append(chunk)
        pending_size += len(chunk)
        if pending_size >= _WRITE_CHUNK:
            size += _write_block(handle, b"".join(pending), digest)
            pending, pending_size = [], 0
    if pending:
        size += _write_block(handle, b"".join(pending), digest)
    return size, digest.hexdigest()


def _write_block(handle: int, block: bytes, digest) -> int:
    view = memoryview(block)
    while view:
        written = os.write(handle, view)
        if written <= 0:  # a disk that takes nothing and says nothing: the same as full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]
    digest.update(block)
    return len(block)


def _create_temporary(path: Path) -> tuple[int, Path]:
    # Not tempfile.mkstemp: its files are mode 0600, and after the rename the user's file would be too.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = path.parent / temporary_name(path.name)
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file next to {path}")


def temporary_name(name: str, pid: int | None = None) -> str:
    """The name of a temporary file written for the file `name` by the process `pid` (this one by default)."""
    return f".{name}.{os.getpid() if pid is None else pid}-{os.urandom(4).hex()}.tmp"


def _temporary_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.([1-9][0-9]{{0,9}})-[0-9a-f]{{8}}\.tmp")


def _old_temporary_pattern(name: str) -> re.Pattern[str]:
    """The old naming: secrets.token_hex(4), or before it tempfile.mkstemp's 8 characters."""
    return re.compile(rf"\.{re.escape(name)}\.[0-9a-z_]{{8}}\.tmp")


# ------------------------------------------------------------ stale temporary files


def remove_stale_temporaries(path: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """Remove the temporary files that dead processes left while writing `path`; returns those removed.

    Only regular files of this user named exactly as atomic_write names them for this very file name go, and only
    when the process in the name is gone and the file has not been written for STALE_AFTER_S; one in the old
    naming (no process in its name) goes when it has not been written for OLD_NAMING_STALE_AFTER_S. Nothing raises.
    """
    target = Path(path)
    try:
        if target.is_symlink():
            target = Path(os.path.realpath(target))
        names = os.listdir(target.parent)
    except OSError:
        return []
    pattern, old_pattern = _temporary_pattern(target.name), _old_temporary_pattern(target.name)
    removed = []
    for name in names:
        match = pattern.fullmatch(name)
        if match is not None:
            if process_alive(int(match.group(1))):
                continue
            safe_age = STALE_AFTER_S
        elif old_pattern.fullmatch(name):
            safe_age = OLD_NAMING_STALE_AFTER_S
        else:
            continue
        candidate = target.parent / name
        try:
            status = os.lstat(candidate)
            if not stat.S_ISREG(status.st_mode) or not _ours(status):
                continue
            if (time.time() if now is None else now) - status.st_mtime < safe_age:
                continue
            os.unlink(candidate)
        except OSError:
            continue
        removed.append(candidate)
    return removed


def _ours(status: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is None or status.st_uid == getuid()


def process_alive(pid: int) -> bool:
    """False only when no process `pid` exists here; when that cannot be told, True (its files are kept)."""
    if pid <= 0:
        return True
    if pid == os.getpid():
        return True
    if sys.platform == "win32":
        return _windows_process_alive(pid)
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process exists; anything else is not a proof that it is gone
    return True


def _windows_process_alive(pid: int) -> bool:  # pragma: no cover - Windows only
    # Never os.kill there: signal 0 is CTRL_C_EVENT, which would interrupt the other process.
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        query_limited_information, still_active, invalid_parameter = 0x1000, 259, 87
        handle = kernel32.OpenProcess(query_limited_information, False, pid)
        if not handle:
            return kernel32.GetLastError() != invalid_parameter  # access denied: it exists
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == still_active
        finally:
            kernel32.CloseHandle(handle)
    except Exception:
        return True
