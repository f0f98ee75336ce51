"""The window's pages as one document: each page's kind of scene, Undo's page, the title.

The labs' models join the document when their page is built; an undone step shows the page it was made on. The
explorer's scenario is shown by the Vectors page and the pages that work on it (saturation, variance, the real
transformer); each lab with a scene of its own (self-attention, multi-head, cross-attention, positions) is a page of
its own kind. Save writes the page shown, in its kind (state/workspace.py keeps the pages, their files and which
are modified).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QLineEdit, QWidget

from attention_explorer.state.explorer import HistoryStep
from attention_explorer.state.workspace import EXPLORER, LabStep
from attention_explorer.ui.labs.registry import KIND_PAGES, PAGES, VECTORS, page_index, page_kind
from attention_explorer.ui.panels.scenario_info import translated_scenario_text

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

class DocumentPages:
    """Mixed into MainWindow: the pages' part in the one document (state/workspace.py)."""

    def _join_document(self) -> None:
        """Connect the window to its workspace (called once the document and the tabs exist)."""
        workspace = self.document.workspace
        workspace.build_lab = self._build_lab_of_kind
        workspace.scene_changed.connect(self._update_title)
        self.model.edit_place = self.central_tabs.currentIndex()
        self.model.replayed.connect(self._step_replayed)

    def _attach_page(self, index: int, lab: QWidget) -> None:
        """A lab just built: its model's scene joins the document, its edits the window's history."""
        spec = PAGES[index]
        if not spec.model_attribute:
            return
        self.document.workspace.add_lab(spec.kind, getattr(lab, spec.model_attribute), page=index)
        # A sentence or a number typed and entered is the lab's edit, an undo step of the window: Ctrl+Z in that
        # field then undoes it (keys.py), not the field's own typing.
        for field in lab.findChildren(QLineEdit):
            if not _in_item_view(field):
                field.editingFinished.connect(lambda f=field: f.setModified(False))
        for spin in lab.findChildren(QAbstractSpinBox):  # Enter in a spin box never reaches its line edit
            field = spin.findChild(QLineEdit)
            if field is not None:
                spin.editingFinished.connect(lambda f=field: f.setModified(False))

    def _build_lab_of_kind(self, kind: str) -> QObject | None:
        """Build the lab page of `kind` (a recovery brings its scene back) and give its model."""
        if kind == EXPLORER or kind not in KIND_PAGES:
            return None
        self.page(page_index(KIND_PAGES[kind]))
        return self.document.workspace.lab_model(kind)

    def _show_restored_page(self, kind: str) -> None:
        """After a restore: the page that was shown when the work was autosaved, if it is a lab's."""
        if kind != EXPLORER and kind in KIND_PAGES and kind in self.document.workspace.kinds():
            self.show_page(page_index(KIND_PAGES[kind]))

    def current_kind(self) -> str:
        """The kind of scene the page shown holds (what Save writes)."""
        return page_kind(self.central_tabs.currentIndex())

    def _page_kind_changed(self, index: int) -> None:
        """The page shown changed: edits are now made there, and the title names its scene."""
        self.model.edit_place = index
        self.document.workspace.current_kind = page_kind(index)
        self._update_title()

    def _step_replayed(self, step: HistoryStep) -> None:
        """A step was undone or redone: show the page it was made on, unless that page's scene is shown already (a
        step of the explorer's scenario stays on any page that shows it: Vectors, saturation, variance)."""
        current = self.central_tabs.currentIndex()
        page = step.page if isinstance(step.page, int) else None
        if isinstance(step, LabStep):
            if page is not None and page != current:
                self.show_page(page)
        elif page_kind(current) != EXPLORER and page != current:
            self.show_page(page if page is not None else 0)

    def page_title(self, kind: str) -> str:
        """The page of `kind` as the tabs name it."""
        return _translate("MainWindow", PAGES[page_index(KIND_PAGES.get(kind, VECTORS))].title)

    def _document_title(self) -> tuple[str, str]:
        """The file name (or "") and the scene's title of the page shown, for the window's title."""
        kind = self.current_kind()
        workspace = self.document.workspace
        if kind not in workspace.kinds():
            kind = EXPLORER  # a lab page not built yet
        title = translated_scenario_text(getattr(workspace.scene(kind), "title", ""))
        if not title:
            title = _translate("MainWindow", "Untitled scenario") if kind == EXPLORER else self.page_title(kind)
        path = self.document.page_path(kind)
        return (path.name if path is not None else ""), title


def _in_item_view(widget: QWidget) -> bool:
    """True for a table's cell editor (its own Enter commits the cell; its Ctrl+Z stays its own)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractItemView):
            return True
        parent = parent.parentWidget()
    return False


def history_key_goes_to_window(focus: QWidget | None) -> bool:
    """True when Ctrl+Z / Ctrl+Y pressed in `focus` should undo the window's last step rather than the field's own
    typing: a text field or spin box (outside a table) with nothing typed since its last edit was entered."""
    if isinstance(focus, QAbstractSpinBox):
        focus = focus.findChild(QLineEdit)
    if not isinstance(focus, QLineEdit) or focus.isReadOnly() or _in_item_view(focus):
        return False
    return not focus.isModified()
