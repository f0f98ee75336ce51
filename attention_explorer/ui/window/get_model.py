"""File ▸ Get a model…: choose one of a few models, download it into the Hugging Face cache off the UI thread.

A progress bar with the size and the time left, Cancel, and a one-line message when the Hub cannot be reached.
Nothing is fetched until the user presses Download; the real-transformer page then lists (and opens) the model.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, QThread, Signal
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.pretrained import download
from attention_explorer.core.pretrained.download import DownloadCancelled, DownloadError, Progress
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.safe_text import literal, plain_label

PROGRESS_STEPS = 1000
# What each offered model is, in a few words (marked for translation under this dialog's context).
DESCRIPTIONS = {
    "sentence-transformers/all-MiniLM-L6-v2": QT_TRANSLATE_NOOP(
        "GetModelDialog", "a small sentence encoder built like BERT: 6 layers × 12 heads"),
    "google-bert/bert-base-uncased": QT_TRANSLATE_NOOP(
        "GetModelDialog", "the original BERT (base, lower case): 12 layers × 12 heads"),
    "openai-community/gpt2": QT_TRANSLATE_NOOP(
        "GetModelDialog", "OpenAI's GPT-2 (small), a decoder that reads left to right: 12 layers × 12 heads"),
    "distilbert/distilgpt2": QT_TRANSLATE_NOOP(
        "GetModelDialog", "a distilled GPT-2: 6 layers × 12 heads"),
    "HuggingFaceTB/SmolLM2-135M": QT_TRANSLATE_NOOP(
        "GetModelDialog", "a small Llama-family decoder (RoPE, grouped-query attention): 30 layers × 9 heads"),
    "Qwen/Qwen2.5-0.5B": QT_TRANSLATE_NOOP(
        "GetModelDialog", "a Qwen2 decoder that reads Chinese (RoPE, grouped-query attention): 24 layers × 14 heads"),
    "google-bert/bert-base-chinese": QT_TRANSLATE_NOOP(
        "GetModelDialog", "BERT for Chinese, one token per character: 12 layers × 12 heads"),
}
_running: set[DownloadThread] = set()  # threads outlive a closed dialog until their cancel takes effect


class DownloadThread(QThread):
    """Runs core.download off the UI thread; its signals arrive in the UI thread (queued)."""

    progressed = Signal(object)  # Progress
    succeeded = Signal(str)  # the snapshot folder
    failed = Signal(object)  # the DownloadError (translated where it is shown), or an unexpected error
    cancelled = Signal()

    def __init__(self, repo_id: str) -> None:
        super().__init__()
        self.repo_id = repo_id
        self._stop = threading.Event()
        _running.add(self)
        self.finished.connect(lambda: _running.discard(self))

    def cancel(self) -> None:
        """Stop within a tenth of a second; what was fetched is removed."""
        self._stop.set()

    def run(self) -> None:
        try:
            folder = download.download_model(self.repo_id, self.progressed.emit, self._stop.is_set)
        except DownloadCancelled:
            self.cancelled.emit()
        except DownloadError as error:
            self.failed.emit(error)
        except Exception as error:  # a thread must not die silently: say what happened, as the error says it
            self.failed.emit(error)
        else:
            self.succeeded.emit(str(folder))


def stop_downloads(wait_ms: int = 10_000) -> None:
    """Cancel every running download and wait for it to end (the application is quitting).

    A cancel takes effect within download.POLL_SECONDS whatever the server does, so the wait is short; a thread
    still running when its QThread is destroyed at exit would abort the program.
    """
    threads = list(_running)
    for thread in threads:
        thread.cancel()
    for thread in threads:
        thread.wait(wait_ms)


class GetModelDialog(QDialog):
    """The list of models, Download / Cancel / Close, and the progress of the one being fetched."""

    downloaded = Signal(str, str)  # repo id, snapshot folder

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("getModelDialog")
        self.worker: DownloadThread | None = None
        self.intro = plain_label(QLabel(self))
        self.intro.setWordWrap(True)
        self.models = QListWidget(self)
        self.models.setObjectName("getModelList")
        self.models.setWordWrap(True)
        self.models.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.models.setSpacing(2)
        for choice in download.MODEL_CHOICES:
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, choice.repo_id)
            item.setToolTip(literal(choice.repo_id))
            self.models.addItem(item)
        self.models.setCurrentRow(0)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("getModelProgress")
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setTextVisible(False)
        self.progress_label = plain_label(QLabel(self))
        self.progress_label.setObjectName("getModelProgressText")
        self.message = plain_label(QLabel(self))
        self.message.setObjectName("getModelMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.download_button = QPushButton(self)
        self.download_button.setObjectName("getModelDownload")
        self.download_button.setDefault(True)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("getModelCancel")
        self.close_button = QPushButton(self)
        self.close_button.setObjectName("getModelClose")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.download_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        for widget in (self.intro, self.models, self.progress, self.progress_label, self.message):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        self.download_button.clicked.connect(self.start_download)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.close_button.clicked.connect(self.reject)
        self.models.itemDoubleClicked.connect(lambda _item: self.start_download())
        self.resize(660, 480)
        self.retranslate()
        self._set_running(False)

    @property
    def chosen(self) -> str:
        """The repo id of the chosen model."""
        item = self.models.currentItem() or self.models.item(0)
        return item.data(Qt.ItemDataRole.UserRole)

    @property
    def running(self) -> bool:
        """True while a download is under way."""
        return self.worker is not None

    def start_download(self) -> bool:
        """Download the chosen model (off the UI thread); False when one is running or the hub package is missing."""
        if self.running:
            return False
        if not download.hub_available():
            self.message.setText(self._missing_text())
            return False
        self.worker = DownloadThread(self.chosen)
        self.worker.progressed.connect(self._on_progress)
        self.worker.succeeded.connect(self._on_succeeded)
        self.worker.failed.connect(self._on_failed)
        self.worker.cancelled.connect(self._on_cancelled)
        self.progress.setValue(0)
        self.progress_label.setText(self.tr("Connecting to {0}…").format(download.hub_endpoint()))
        self.message.clear()
        self._set_running(True)
        self.worker.start()
        return True

    def cancel_download(self) -> None:
        """Stop the running download; the files fetched so far are removed."""
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.progress_label.setText(self.tr("Cancelling…"))

    # ------------------------------------------------------------ the worker's reports

    def _on_progress(self, progress: Progress) -> None:
        if progress.total > 0:
            self.progress.setValue(round(PROGRESS_STEPS * progress.done / progress.total))
        self.progress_label.setText(self.progress_text(progress))

    def progress_text(self, progress: Progress) -> str:
        """"12.3 MB of 90.9 MB · about 40 s left"."""
        sizes = self.tr("{0} of {1}").format(download.size_text(progress.done), download.size_text(progress.total))
        if progress.seconds_left is None or progress.done >= progress.total:
            return sizes
        if progress.seconds_left >= 90:
            left = self.tr("about {0} min left").format(round(progress.seconds_left / 60))
        else:
            left = self.tr("about {0} s left").format(max(1, round(progress.seconds_left)))
        return f"{sizes} · {left}"

    def _on_succeeded(self, folder: str) -> None:
        repo_id = self.worker.repo_id
        self._finish()
        self.progress.setValue(PROGRESS_STEPS)
        self.message.setText(self.tr("Downloaded {0} into {1}").format(repo_id, folder))
        self._mark_cached()
        self.downloaded.emit(repo_id, folder)

    def _on_failed(self, error: Exception) -> None:
        self._finish()
        self.progress.setValue(0)
        self.progress_label.clear()
        self.message.setText(self.tr("Cannot download: {0}").format(" ".join(error_text(error).split())))

    def _on_cancelled(self) -> None:
        self._finish()
        self.progress.setValue(0)
        self.progress_label.clear()
        self.message.setText(self.tr("Cancelled; nothing of it was kept."))

    def _finish(self) -> None:
        self.worker = None
        self._set_running(False)

    def _set_running(self, running: bool) -> None:
        self.download_button.setEnabled(not running and download.hub_available())
        self.models.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running or self.progress.value() > 0)

    def closeEvent(self, event) -> None:
        """Closing while a download runs cancels it, and the dialog goes at once (the cancel takes effect within a
        tenth of a second). Never refused: QApplication.quit() closes every window first and gives up on the quit
        when one refuses, which left the program running."""
        if self.running:
            self.cancel_download()
        super().closeEvent(event)

    def reject(self) -> None:
        """Close and Esc: as closing the window does."""
        if self.running:
            self.cancel_download()
        super().reject()

    # ------------------------------------------------------------ texts

    def _missing_text(self) -> str:
        return self.tr("Downloading needs the optional package huggingface_hub. Install it with: {0}").format(
            download.HUB_INSTALL_HINT)

    def _mark_cached(self) -> None:
        for row, choice in enumerate(download.MODEL_CHOICES):
            description = QCoreApplication.translate("GetModelDialog", DESCRIPTIONS[choice.repo_id])
            text = self.tr("{0} · about {1}").format(choice.short_name,
                                                    download.size_text(choice.approximate_bytes, digits=0))
            if download.cached_snapshot(choice.repo_id) is not None:
                text += " · " + self.tr("already on this computer")
            self.models.item(row).setText(f"{text}\n{description}")

    def retranslate(self) -> None:
        """Every text in the current language."""
        self.setWindowTitle(self.tr("Get a model"))
        self.intro.setText(self.tr(
            "Download one of these models from the Hugging Face Hub ({0}) into the Hugging Face cache on this "
            "computer ({1}); the real-transformer page then lists it. Only config.json, tokenizer.json and "
            "model.safetensors are fetched, each checked against the Hub's list of files (its size and its hash) "
            "before the model is listed, and nothing is fetched until you press Download.").format(
            download.hub_endpoint(), download.hub_cache_dir()))
        self.download_button.setText(self.tr("Download"))
        self.cancel_button.setText(self.tr("Cancel download"))
        self.close_button.setText(self.tr("Close"))
        self._mark_cached()
        if not download.hub_available():
            self.message.setText(self._missing_text())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def open_get_model(window) -> GetModelDialog:
    """Show the window's Get a model… dialog (made once); a finished download opens on the transformer page."""
    dialog = window.findChild(GetModelDialog)
    if dialog is None:
        dialog = GetModelDialog(window)
        dialog.downloaded.connect(lambda repo_id, folder: _open_downloaded(window, repo_id, folder))
        QApplication.instance().aboutToQuit.connect(stop_downloads)
    dialog.retranslate()  # the cache marks may have changed since it was last shown
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def _open_downloaded(window, repo_id: str, folder: str) -> None:
    """The page lists the new model and, where it can read it, opens it."""
    from attention_explorer.ui.labs.registry import page_index

    window.show_page(page_index("transformer"))
    panel = window.transformer_lab
    panel.refresh_cached_models()
    if any(model.path == Path(folder) for model in panel.cached_models):
        panel.open_model(folder)
    window._show_hint(QCoreApplication.translate("GetModelDialog", "Downloaded {0}").format(repo_id))
