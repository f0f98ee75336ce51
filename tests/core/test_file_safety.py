"""core/files/safety.py: stamps of what was read or written, atomic writes that check their size, and the temporary
files of killed saves removed by a later save, only when their writer is gone."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attention_explorer.core.files import anykind
from attention_explorer.core.files import safety as filesafety
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.files.safety import (
    OLD_NAMING_STALE_AFTER_S,
    STALE_AFTER_S,
    check_file,
    remove_stale_temporaries,
)
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import file as fileformat

ROOT = Path(__file__).resolve().parents[2]
LONG_AGO = time.time() - 10 * STALE_AFTER_S


def _dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _fake_temporary(folder: Path, name: str, pid: int, when: float = LONG_AGO) -> Path:
    path = folder / filesafety.temporary_name(name, pid)
    path.write_bytes(b'{\n  "format": "attention-explorer/1",\n  "query": [1.0, 0.')  # cut off mid-write
    os.utime(path, (when, when))
    return path


def test_a_save_names_its_temporary_file_after_its_target_and_its_process(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda source, target: seen.append(Path(source).name) or
                        real_replace(source, target))
    anykind.save(load_preset("library"), tmp_path / "s.json")
    assert len(seen) == 1 and seen[0].startswith(f".s.json.{os.getpid()}-") and seen[0].endswith(".tmp")
    assert filesafety._temporary_pattern("s.json").fullmatch(seen[0])


def test_a_later_save_removes_the_temporary_files_of_dead_writers_only(tmp_path):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead = _fake_temporary(tmp_path, "s.json", _dead_pid())
        of_a_live_process = _fake_temporary(tmp_path, "s.json", live.pid)
        of_this_process = _fake_temporary(tmp_path, "s.json", os.getpid())
        just_written = _fake_temporary(tmp_path, "s.json", _dead_pid(), when=time.time())
        of_another_file = _fake_temporary(tmp_path, "other.json", _dead_pid())
        of_a_longer_name = _fake_temporary(tmp_path, "s.json.bak", _dead_pid())
        not_ours = [tmp_path / name for name in (
            ".s.json.123-xyz.tmp", "s.json.123-1a2b3c4d.tmp", ".s.json.123-1a2b3c4d.tmp.keep")]
        for path in not_ours:
            path.write_bytes(b"x")
            os.utime(path, (LONG_AGO, LONG_AGO))
        # An older version's name (no process in it): it goes only once no save could still be writing it.
        old_naming = {name: tmp_path / name for name in (".s.json.1a2b3c4d.tmp", ".s.json.k2_x9qzp.tmp",
                                                          ".s.json.1a2b3c4e.tmp", ".other.json.1a2b3c4d.tmp")}
        for path, age in zip(old_naming.values(), (OLD_NAMING_STALE_AFTER_S + 60, OLD_NAMING_STALE_AFTER_S + 60,
                                                   OLD_NAMING_STALE_AFTER_S - 60, 2 * OLD_NAMING_STALE_AFTER_S)):
            path.write_bytes(b"x")
            os.utime(path, (time.time() - age, time.time() - age))
        folder = tmp_path / f".s.json.{_dead_pid()}-1a2b3c4d.tmp"
        folder.mkdir()
        os.utime(folder, (LONG_AGO, LONG_AGO))

        anykind.save(load_preset("library"), tmp_path / "s.json")

        assert not dead.exists()
        assert not old_naming[".s.json.1a2b3c4d.tmp"].exists() and not old_naming[".s.json.k2_x9qzp.tmp"].exists()
        for kept in (of_a_live_process, of_this_process, just_written, of_another_file, of_a_longer_name,
                     *not_ours, folder, old_naming[".s.json.1a2b3c4e.tmp"], old_naming[".other.json.1a2b3c4d.tmp"]):
            assert kept.exists(), kept.name
        assert fileformat.load(tmp_path / "s.json") == load_preset("library")
    finally:
        live.kill()
        live.wait()


def test_a_link_to_a_stale_file_is_never_followed_nor_removed(tmp_path):
    precious = tmp_path / "precious.json"
    precious.write_text("mine")
    link = tmp_path / filesafety.temporary_name("s.json", _dead_pid())
    link.symlink_to(precious)
    os.utime(link, (LONG_AGO, LONG_AGO), follow_symlinks=False)
    assert remove_stale_temporaries(tmp_path / "s.json") == []
    assert link.is_symlink() and precious.read_text() == "mine"


KILLED_SAVE = """
import os, signal, sys
from pathlib import Path
from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
def killed(handle):
    print("written", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # kill -9 between the write and the rename
os.fsync = killed
anykind.save(load_preset("library"), Path(sys.argv[1]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_the_temporary_file_of_a_save_killed_with_sigkill_goes_at_the_next_save(tmp_path):
    target = tmp_path / "lecture.json"
    anykind.save(load_preset("drag-2d"), target)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.run([sys.executable, "-c", KILLED_SAVE, str(target)], capture_output=True, text=True,
                           env=env, timeout=120)
    assert child.returncode == -9 and "written" in child.stdout, child.stderr[-2000:]
    left = [path for path in tmp_path.iterdir() if path.name != "lecture.json"]
    assert len(left) == 1 and left[0].name.startswith(".lecture.json.") and left[0].stat().st_size > 100
    assert fileformat.load(target) == load_preset("drag-2d")  # the atomic save kept the old file whole
    assert remove_stale_temporaries(target, now=time.time()) == []  # too fresh: its writer may be elsewhere
    assert remove_stale_temporaries(target, now=time.time() + 2 * STALE_AFTER_S) == left
    assert sorted(path.name for path in tmp_path.iterdir()) == ["lecture.json"]


def test_process_alive():
    assert filesafety.process_alive(os.getpid())
    assert not filesafety.process_alive(_dead_pid())


# ------------------------------------------------------------ stamps


def test_check_file_tells_an_unchanged_a_touched_a_changed_and_a_removed_file(tmp_path):
    path = tmp_path / "s.json"
    written = anykind.save(load_preset("library"), path)
    assert written == filesafety.stamp_file(path)
    assert check_file(path, written) == filesafety.DiskCheck(False, False, written)
    later = time.time() + 5
    os.utime(path, (later, later))  # touched: a new time, the same bytes
    touched = check_file(path, written)
    assert not touched.changed and touched.stamp.mtime_ns != written.mtime_ns
    data = path.read_bytes()
    path.write_bytes(data.replace(b"1.0", b"2.0", 1))
    assert len(path.read_bytes()) == len(data)
    os.utime(path, ns=(touched.stamp.mtime_ns, touched.stamp.mtime_ns))  # the same size and time (cp -p)
    assert not check_file(path, touched.stamp).changed  # the quick check trusts the stat
    thorough = check_file(path, touched.stamp, thorough=True)  # before a save: the bytes are compared
    assert thorough.changed and not thorough.missing
    path.unlink()
    assert check_file(path, written) == filesafety.DiskCheck(True, True, None)


def test_a_read_is_stamped_without_hashing_and_completed_at_the_first_check(tmp_path):
    path = tmp_path / "s.json"
    anykind.save(load_preset("library"), path)
    fileformat.load(path)
    read = filesafety.last_read(path)
    assert read is not None and read.sha256 is None and read.size == path.stat().st_size
    check = check_file(path, read)
    assert not check.changed and check.stamp == filesafety.stamp_file(path)
    fileformat.load(path)
    os.utime(path, (time.time() + 5,) * 2)  # a read's stamp has no bytes to compare: a new time is a change
    assert check_file(path, filesafety.last_read(path)).changed


# ------------------------------------------------------------ writes that check themselves


def test_atomic_write_on_a_full_disk_keeps_the_old_file_and_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "figure.png"
    path.write_bytes(b"old picture")

    def full(handle, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as raised:
        filesafety.atomic_write(path, [b"new picture"])
    assert raised.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"old picture" and [p.name for p in tmp_path.iterdir()] == ["figure.png"]


def test_atomic_write_refuses_a_file_that_did_not_get_all_its_bytes(tmp_path, monkeypatch):
    path = tmp_path / "figure.png"
    path.write_bytes(b"old picture")
    real_write = os.write
    # A file system that says it wrote everything and kept half (a full network disk may).
    monkeypatch.setattr(os, "write", lambda handle, data: real_write(handle, bytes(data[: len(data) // 2])) * 0
                        + len(data))
    with pytest.raises(ScenarioError, match="only 5 of 11 bytes reached the disk"):
        filesafety.atomic_write(path, [b"new picture"])
    assert path.read_bytes() == b"old picture" and [p.name for p in tmp_path.iterdir()] == ["figure.png"]


def test_check_written_names_what_is_missing(tmp_path):
    path = tmp_path / "a.png"
    with pytest.raises(ScenarioError, match="not on the disk"):
        filesafety.check_written(path, 10)
    path.write_bytes(b"")
    with pytest.raises(ScenarioError, match="only 0 of 10 bytes"):
        filesafety.check_written(path, 10)
