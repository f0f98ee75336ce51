"""The window's workspace: every page's scene in one document, with one undo history and per-page saved state.

The explorer's scenario (ExplorerModel) and each lab's scene (the self-attention lab's sequence, the multi-head and
cross-attention labs' scenarios, the positions lab's settings) are pages of one document:

* every edit, in any page, is a step of the explorer model's one QUndoStack (the History panel lists them all);
  a lab's model reports an edit as a LabEdit and the workspace pushes it as a LabStep;
* each page has its own saved state and file: Save writes the page shown, in its own kind, and a page is modified
  when its scene is not the one it was opened or saved in (the window is modified when any page is);
* the autosave keeps every modified page (core/files/workspace.py), and a restore brings each back to its page.

A lab model takes part by duck typing: `edited` (Signal(object), a LabEdit after every edit), `changed`, `state`
(an immutable snapshot, a new object after every edit), `restore(state)` (puts a snapshot back without a LabEdit),
`scene` (what its file holds) and `load_scene(scene, text=None, opened=True)`. A lab outside a window (a test) works
the same with nobody listening.
"""

from __future__ import annotations

import dataclasses
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal
from PySide6.QtGui import QUndoCommand

from attention_explorer.core.files import anykind as fileformat
from attention_explorer.core.files import safety
from attention_explorer.core.files.safety import FileStamp
from attention_explorer.core.files.workspace import EXPLORER_KIND, PAGE_KINDS, WorkspaceWork
from attention_explorer.state.explorer import ExplorerModel, HistoryStep, UndoText

EXPLORER = EXPLORER_KIND


@dataclass(frozen=True)
class LabEdit:
    """One edit of a lab's model: its state before and after, the step's name, and how it joins the history."""

    before: object
    after: object
    text: UndoText | str
    merge: str | None = None  # consecutive edits with the same tag fold into one step (a slider's moves)
    opened: bool = False  # a whole scene was opened (a file, an example): the page's saved state, with no file


def step_text(lab: UndoText, source: str, *args: object, translated_args: str | None = None) -> UndoText:
    """"Self-attention: Set d_k = 4": a lab's step named with its page (`source` marked in context ExplorerModel)."""
    return UndoText(QT_TRANSLATE_NOOP("ExplorerModel", "{0}: {1}"), (lab, UndoText(source, args, translated_args)))


def scale_text(lab: UndoText, scale: float | None) -> UndoText:
    """A lab's step that sets the scale: "Scale 1/√d_k" or "Scale × 0.5"."""
    if scale is None:
        return step_text(lab, QT_TRANSLATE_NOOP("ExplorerModel", "Scale 1/√d_k"))
    return step_text(lab, QT_TRANSLATE_NOOP("ExplorerModel", "Scale × {0:.3g}"), scale)


def shortened(text: str, length: int = 40) -> str:
    """A sentence short enough for a line of the History panel."""
    return text if len(text) <= length else text[:length - 1] + "…"


def scene_arrays(scene: object) -> tuple[np.ndarray, ...]:
    """The numpy arrays a lab's state holds (the history's memory bound counts them)."""
    if dataclasses.is_dataclass(scene) and not isinstance(scene, type):
        found: list[np.ndarray] = []
        for field in dataclasses.fields(scene):
            value = getattr(scene, field.name)
            if isinstance(value, np.ndarray):
                found.append(value)
            elif dataclasses.is_dataclass(value) and not isinstance(value, type):
                found.extend(scene_arrays(value))
        return tuple(found)
    return ()


# The saved state of a page whose file changed on disk: no state of the page is this one.
_CHANGED_ON_DISK = object()


class _Lab:
    """A lab page of the workspace: its model, its page, the state it was saved in and its file."""

    def __init__(self, kind: str, model: QObject, page: object) -> None:
        self.kind = kind
        self.model = model
        self.page = page
        self.saved: object = model.state
        self.path: Path | None = None
        self.stamp: FileStamp | None = None  # what its file held when this window last read or wrote it

    @property
    def modified(self) -> bool:
        return self.model.state is not self.saved


class LabStep(HistoryStep):
    """A lab's edit on the window's undo history: undo and redo put the lab's state back (and show its page)."""

    _ID = 0x4146  # Qt tries to merge only steps whose id() match (the explorer's are 0x4145)

    def __init__(self, model: ExplorerModel, lab: _Lab, edit: LabEdit) -> None:
        super().__init__(model, edit.text)
        self._lab = weakref.ref(lab)
        self._before, self._after = edit.before, edit.after
        self._merge = edit.merge
        self.page = lab.page

    def id(self) -> int:
        return -1 if self._merge is None or self._quiet() else self._ID

    def arrays(self) -> tuple[np.ndarray, ...]:
        return scene_arrays(self._before) + scene_arrays(self._after)

    def rebuilt(self) -> LabStep:
        lab = self._lab()
        step = LabStep(self._model(), lab, LabEdit(self._before, self._after, self._text, self._merge))
        step.page, step._done = self.page, True
        return step

    def mergeWith(self, other: QUndoCommand) -> bool:
        lab = self._lab()
        if (not isinstance(other, LabStep) or lab is None or other._lab() is not lab or other._merge != self._merge
                or other._before is not self._after or lab.saved is self._after):
            return False  # another lab, another control, or a saved state in between: a step of its own
        self._after = other._after
        self.set_undo_text(other._text)  # named by where the slider ended
        if self._after == self._before:
            # Back where the slider started: the very state before (it may be the saved one), and no step.
            lab.model.restore(self._before)
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        if not self._done:  # pushed: the lab has made the edit already
            self._done = True
            return
        lab = self._lab()
        if lab is not None and not self._quiet():
            lab.model.restore(self._after)
            self._replayed()

    def undo(self) -> None:
        lab = self._lab()
        if lab is not None and not self._quiet():
            lab.model.restore(self._before)
            self._replayed()


class Workspace(QObject):
    """Every page's scene, which of them are modified, their files, and the work an autosave keeps."""

    modified_changed = Signal()  # a page became modified or saved
    scene_changed = Signal()  # a lab's scene changed (the explorer's says so through its model's `changed`)

    def __init__(self, model: ExplorerModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Weak: a workspace deleted first must not take the model with it (the model's stack would signal the
        # workspace while it is being deleted); the window and the document hold the model.
        self._model = weakref.ref(model)
        self._labs: dict[str, _Lab] = {}
        self._explorer_modified = not model.scenario_saved()
        self._modified_kinds = self._find_modified()
        # The kind of the page shown (the window keeps it current): the recovery file says which it was.
        self.current_kind = EXPLORER
        # Builds the lab page of a kind (and so adds its model here) when a recovery needs it; the window sets it.
        self.build_lab: Callable[[str], object] | None = None
        self._stack = model.undo_stack
        self._stack.indexChanged.connect(self._stack_moved)
        self._stack.cleanChanged.connect(self._stack_moved)

    @property
    def model(self) -> ExplorerModel:
        """The explorer's model: its scenario is the explorer page, its undo stack the window's history."""
        return self._model()

    def detach(self) -> None:
        """Stop following the model's history (the document ended: the model may be deleted before this)."""
        if self._stack is None:
            return
        try:
            self._stack.indexChanged.disconnect(self._stack_moved)
            self._stack.cleanChanged.disconnect(self._stack_moved)
        except (RuntimeError, TypeError):
            pass  # already gone
        self._stack = None

    # ------------------------------------------------------------ pages

    def add_lab(self, kind: str, lab_model: QObject, page: object = None) -> None:
        """Make a lab's model a page of the workspace: its edits become undo steps, its scene part of the document."""
        if kind not in PAGE_KINDS or kind == EXPLORER:
            raise ValueError(f"not a lab's kind: {kind!r}")
        lab = _Lab(kind, lab_model, page)
        self._labs[kind] = lab
        lab_model.edited.connect(self._record)
        lab_model.changed.connect(self._lab_changed)

    def lab_model(self, kind: str) -> QObject | None:
        """The model of the lab page of `kind`, if that page has been built."""
        lab = self._labs.get(kind)
        return lab.model if lab is not None else None

    def kinds(self) -> list[str]:
        """The pages of the workspace: the explorer's and each lab built so far, in PAGE_KINDS order."""
        return [kind for kind in PAGE_KINDS if kind == EXPLORER or kind in self._labs]

    def scene(self, kind: str) -> object:
        """What the page of `kind` would save: its scenario (or scene) now."""
        return self.model.scenario if kind == EXPLORER else self._labs[kind].model.scene

    # ------------------------------------------------------------ modified

    def modified(self, kind: str | None = None) -> bool:
        """True when the page of `kind` (None: any page) has edits since it was opened or saved."""
        if kind is None:
            return bool(self._modified_kinds)
        return kind in self._modified_kinds

    def modified_kinds(self) -> list[str]:
        """The pages with unsaved edits, in PAGE_KINDS order."""
        return [kind for kind in PAGE_KINDS if kind in self._modified_kinds]

    def _find_modified(self) -> frozenset[str]:
        kinds = {kind for kind, lab in self._labs.items() if lab.modified}
        if self._explorer_modified:
            kinds.add(EXPLORER)
        return frozenset(kinds)

    def _recheck(self) -> None:
        kinds = self._find_modified()
        if kinds != self._modified_kinds:
            self._modified_kinds = kinds
            self.modified_changed.emit()

    def _stack_moved(self, *_args: Any) -> None:
        model = self.model
        if self._stack is None or model is None:
            return
        try:
            # The explorer's scenario is saved when no step of its own lies between the saved index and this one.
            self._explorer_modified = not model.scenario_saved()
        except RuntimeError:  # the model's stack is being deleted (at exit)
            return
        self._recheck()

    def _lab_changed(self) -> None:
        self._recheck()
        self.scene_changed.emit()

    # ------------------------------------------------------------ the labs' edits

    def _record(self, edit: LabEdit) -> None:
        """A lab's edit: one step of the window's history (or the next move of a slider's step)."""
        lab = next((lab for lab in self._labs.values() if lab.model is self.sender()), None)
        if lab is None:
            return
        if edit.opened:
            lab.saved, lab.path = edit.after, None
        if edit.after is not edit.before:
            self.model.push_step(LabStep(self.model, lab, edit))
        self._recheck()
        if edit.opened:
            self.modified_changed.emit()  # the title no longer names a file

    # ------------------------------------------------------------ files

    def path(self, kind: str) -> Path | None:
        """The file the lab page of `kind` was opened from or saved to (None: never saved)."""
        lab = self._labs.get(kind)
        return lab.path if lab is not None else None

    def stamp(self, kind: str) -> FileStamp | None:
        """What the file of the lab page of `kind` held when this window last read or wrote it (None: no file)."""
        lab = self._labs.get(kind)
        return None if lab is None or lab.path is None else lab.stamp

    def set_stamp(self, kind: str, stamp: FileStamp) -> None:
        """The file of the lab page of `kind` holds the same bytes with a new stamp (touched, or its hash found)."""
        lab = self._labs.get(kind)
        if lab is not None and lab.path is not None:
            lab.stamp = stamp

    def mark_changed_on_disk(self, kind: str) -> None:
        """The file of the lab page of `kind` no longer holds what the page was read from or saved as: the page is
        modified (the title's "*", and closing asks about saving) until it is saved or reloaded."""
        lab = self._labs.get(kind)
        if lab is not None and not lab.modified:
            lab.saved = _CHANGED_ON_DISK
            self._recheck()

    def opened_file(self, kind: str, path: str | os.PathLike[str]) -> None:
        """The lab page of `kind` now shows the file at `path`, unmodified."""
        lab = self._labs[kind]
        lab.saved, lab.path = lab.model.state, Path(os.path.abspath(path))
        lab.stamp = safety.last_read(path) or safety.stamp_file(path)
        self._recheck()
        self.modified_changed.emit()  # the title names the file

    def save(self, kind: str, path: str | os.PathLike[str]) -> Path:
        """Write the lab page of `kind` to `path` in its own kind (atomically); raises OSError/ScenarioError."""
        lab = self._labs[kind]
        state = lab.model.state
        stamp = fileformat.save(lab.model.scene, path)
        lab.saved, lab.path, lab.stamp = state, Path(os.path.abspath(path)), stamp
        self._recheck()
        self.modified_changed.emit()  # the title names the file
        return lab.path

    # ------------------------------------------------------------ recovery

    def work(self) -> WorkspaceWork | None:
        """Every modified page's scene, for the recovery file (None: nothing to keep)."""
        kinds = self.modified_kinds()
        if not kinds:
            return None
        return WorkspaceWork({kind: self.scene(kind) for kind in kinds}, self.current_kind)

    def shows(self, work: WorkspaceWork) -> bool:
        """True when every scene of `work` is what its page shows now (nothing there to restore)."""
        for kind, scene in work.scenes.items():
            if kind != EXPLORER and kind not in self._labs:
                return False  # an unbuilt lab shows its default example, never a recovered scene
            if not scene == self.scene(kind):
                return False
        return True

    def restore(self, work: WorkspaceWork, text: UndoText | str) -> None:
        """Put each recovered scene back in its page as unsaved work with no file (each one undo step)."""
        for kind, scene in work.scenes.items():
            if kind == EXPLORER:
                self.model.load_scenario(scene, text)
                continue
            if kind not in self._labs and self.build_lab is not None:
                self.build_lab(kind)
            lab = self._labs.get(kind)
            if lab is not None:
                lab.model.load_scene(scene, text, opened=False)
                lab.path = None
        self._recheck()
        self.modified_changed.emit()
