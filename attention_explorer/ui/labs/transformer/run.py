"""The transformer page's model runs: loading and forward passes off the UI thread, and generation token by token.

A mixin of TransformerLab (its texts keep the panel's translation context); it changes the panel's state only
on the UI thread, when a job has ended.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt

from attention_explorer.core.limits import MAX_TITLE
from attention_explorer.core.pretrained import checkpoint
from attention_explorer.core.pretrained.checkpoint import Analysis, CheckpointError
from attention_explorer.core.pretrained.download import chinese_model, reads_chinese
from attention_explorer.core.pretrained.generation import next_token_id, token_probability
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.scenes.sequence.tokens import CJK_CHARACTER
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.transformer.jobs import ModelJob, Work, failure_text, run_now, show_progress
from attention_explorer.ui.labs.transformer.page import GENERATION_TAB
from attention_explorer.ui.style.numbers import formatted_number
from attention_explorer.ui.style.theme import key_color
from attention_explorer.ui.widgets.heatmap import short_token

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

def _sentence_memory_text() -> str:
    return _translate("TransformerLab", "Not enough memory for this sentence")


class ModelRunner:
    """Open a model, analyse a sentence, append a token: each waits (scripts, tests) or runs as a ModelJob."""

    def open_model(self, folder: str | Path) -> bool:
        """Load a model folder and analyse the current sentence, waiting for both (scripts and tests; the buttons
        load off the UI thread); on failure show why and keep the old model."""
        if not self._can_start():
            return False
        return self._loaded(folder, *run_now(self._load_work(folder)))

    def start_open(self, folder: str | Path) -> bool:
        """The same off the UI thread with a progress bar; the window stays responsive. True: the load started."""
        if not self._can_start():
            return False
        self._start(self._load_work(folder), lambda ok, result: self._loaded(folder, ok, result))
        return True

    def show_loaded(self, loaded: checkpoint.Checkpoint, analysis: Analysis) -> bool:
        """Show a model its caller has loaded and run already (the Python API, which reports its errors itself)."""
        if not self._can_start():
            return False
        return self._loaded(loaded.folder, True, (loaded, analysis))

    @property
    def busy(self) -> bool:
        """True while a model loads or runs on its thread."""
        return self._job is not None

    def _can_start(self) -> bool:
        if not self.available:
            self.hint.emit(self._missing_text())
            return False
        return not self.busy

    def _load_work(self, folder: str | Path) -> Work:
        text = self.sentence_edit.text()

        def work(progress):
            loaded = checkpoint.load_checkpoint(folder, progress)
            try:
                return loaded, loaded.analyse(text, progress)
            except CheckpointError as error:  # the model is fine; the sentence is refused as when typed
                return loaded, error
        return work

    def _start(self, work: Work, done, quiet: bool = False) -> None:
        """Run `work` on a ModelJob; `done(succeeded, result)` runs on the UI thread when it ends.

        `quiet`: a short job that leaves the page as it is (no progress bar, the views enabled).
        """
        job = ModelJob(work, self)
        self._job = job
        self._job_quiet = quiet
        job.progressed.connect(lambda stage, count, total: show_progress(self.progress_bar, stage, count, total))
        job.succeeded.connect(lambda result: self._finish(job, done, True, result))
        job.failed.connect(lambda error: self._finish(job, done, False, error))
        if not quiet:
            self.progress_bar.setFormat(_translate("TransformerLab", "Starting…"))
            self.progress_bar.setValue(0)
            self.progress_bar.setVisible(True)
        self._update_enabled()
        job.start()

    def _finish(self, job: ModelJob, done, succeeded: bool, result) -> None:
        job.wait()  # its signal came from the last line of run(): the thread is ending
        job.deleteLater()
        self._job = None
        self._job_quiet = False
        self.progress_bar.setVisible(False)
        done(succeeded, result)
        self._update_enabled()
        self.idle.emit()

    def _loaded(self, folder: str | Path, succeeded: bool, result) -> bool:
        """A load ended: show the model and its analysis, or say why it failed and keep the old one."""
        if not succeeded:
            self._show_error(failure_text(result, _translate("TransformerLab",
                                                             "{0}: not enough memory for this model").format(folder)))
            self._select_loaded_item()
            return False
        loaded, analysis = result
        self.loaded = loaded
        self.analysis = None
        with QSignalBlocker(self.models_combo):
            self._select_folder_item(loaded.folder, loaded.name)
        config = loaded.config
        with QSignalBlocker(self.layer_spin), QSignalBlocker(self.head_spin):
            self.layer_spin.setRange(0, config.num_layers - 1)
            self.head_spin.setRange(0, config.num_heads - 1)
            self.layer_spin.setValue(0)
            self.head_spin.setValue(0)
        self.grid.build(config.num_layers, config.num_heads)
        self.tabs.setTabVisible(GENERATION_TAB, loaded.generates)
        self.generation.set_appended("")
        self._error = ""
        self.model_loaded.emit(loaded.name)
        self._apply_analysis(analysis)
        self._update_enabled()
        return True

    def show_sentence(self, text: str) -> bool:
        """A sentence from another page (the self-attention page's 我 爱 北京) through a real model, in one click: the
        model shown when it can read the sentence, else one from the cache (for Chinese text one that reads Chinese:
        bert-base-chinese, then Qwen2.5-0.5B); loaded and run off the UI thread. False, with what to get, when there
        is none."""
        if not self._can_start():
            return False
        self.sentence_edit.setText(text)
        chinese = bool(CJK_CHARACTER.search(text))
        if self.loaded is not None and (not chinese or reads_chinese(self.loaded.name)):
            return self.start_analyse()
        self.refresh_cached_models()
        names = [cached.name for cached in self.cached_models]
        index = chinese_model(names) if chinese else (0 if names else -1)
        if index < 0:
            self._show_error(_translate(
                "TransformerLab", "No model that reads Chinese is on this computer. File ▸ Get a model… offers "
                "bert-base-chinese (412 MB) and Qwen2.5-0.5B (995 MB); then one click shows “{0}” in it.").format(text)
                if chinese else _translate("TransformerLab", "No model is on this computer yet: File ▸ Get a "
                                                             "model… downloads one."))
            return False
        return self.start_open(self.cached_models[index].path)

    def set_sentence(self, text: str) -> bool:
        """Type a sentence and analyse it, waiting for the result."""
        self.sentence_edit.setText(text)
        return self.analyse_sentence()

    def analyse_sentence(self) -> bool:
        """Run the loaded model on the sentence in the line edit and wait; an error is shown, the old result kept."""
        if self.loaded is None:
            self._show_error(_translate("TransformerLab", "Open a model first (“Open model…”)."))
            return False
        if self.busy:
            return False
        loaded, text = self.loaded, self.sentence_edit.text()
        _succeeded, result = run_now(lambda progress: loaded.analyse(text, progress))
        return self._apply_analysis(result)

    def start_analyse(self) -> bool:
        """Enter and Show: the same off the UI thread (True: the forward pass started)."""
        if self.loaded is None:
            self._show_error(_translate("TransformerLab", "Open a model first (“Open model…”)."))
            return False
        if self.busy:
            return False
        loaded, text = self.loaded, self.sentence_edit.text()
        self._start(lambda progress: loaded.analyse(text, progress),
                    lambda _succeeded, result: self._apply_analysis(result))
        return True

    def _apply_analysis(self, analysis: Analysis | Exception, query: int | None = None) -> bool:
        """Show a new analysis (the query token kept, or `query`); an error is shown and the old one stays."""
        if not isinstance(analysis, Analysis):
            self._show_error(failure_text(analysis, _sentence_memory_text()))
            return False
        if query is None:
            query = self.query_combo.currentIndex()
        if analysis.generated == 0:
            self.generation.set_appended("")
        self.analysis = analysis
        self._error = ""
        with QSignalBlocker(self.query_combo):
            self.query_combo.clear()
            for index, token in enumerate(analysis.tokens):
                self.query_combo.addItem(f"{index}: {token}", index)
                self.query_combo.setItemData(index, key_color(index), Qt.ItemDataRole.DecorationRole)
            self.query_combo.setCurrentIndex(query if 0 <= query < analysis.n else min(1, analysis.n - 1))
        self.grid.show_attentions(analysis.output.attentions)
        self.attention_views.show_analysis(analysis.tokens, analysis.output.attentions, analysis.kv_heads)
        self._refresh()
        self._update_enabled()
        return True

    def next_token(self) -> bool:
        """"Next token", waiting for it (scripts, tests): append the model's next token from the KV cache."""
        chosen = self._choose_next_token()
        if chosen is None:
            return False
        analysis, loaded, token_id = chosen
        return self._appended(analysis, token_id, *run_now(lambda _progress: loaded.next_token(analysis, token_id)))

    def start_next_token(self) -> bool:
        """The button: the same off the UI thread, the page usable meanwhile (True: the step started)."""
        chosen = self._choose_next_token()
        if chosen is None:
            return False
        analysis, loaded, token_id = chosen
        # One step reads every weight once, a fraction of a second: no progress bar, and the page stays enabled.
        self._start(lambda _progress: loaded.next_token(analysis, token_id),
                    lambda succeeded, result: self._appended(analysis, token_id, succeeded, result), quiet=True)
        return True

    def _choose_next_token(self):
        """(analysis, model, token id) of the next step, or None (nothing to extend, busy, or refused: shown)."""
        analysis, loaded = self.analysis, self.loaded
        if analysis is None or loaded is None or not loaded.generates or self.busy:
            return None
        try:
            token_id = next_token_id(analysis.output.next_logits, self.generation.top_k, self.generation.seed,
                                     analysis.n)
        except CheckpointError as error:
            self._show_error(error_text(error))
            return None
        return analysis, loaded, token_id

    def _appended(self, before: Analysis, token_id: int, succeeded: bool, result) -> bool:
        """A step ended: show the grown analysis with its new row as the query, or say why it failed."""
        if not succeeded:
            self._show_error(failure_text(result, _sentence_memory_text()))
            return False
        grown = result
        logits = before.output.next_logits
        probability = formatted_number("{:.3f}", token_probability(logits, token_id))
        top_k = self.generation.top_k
        if top_k == 1:
            how = _translate("TransformerLab", "the likeliest")
        else:
            how = _translate("TransformerLab", "drawn among the {0} likeliest").format(top_k)
        self.generation.set_appended(_translate(
            "TransformerLab", "Appended “{0}” (token {1}, {2}, p = {3}). Its query row over all {4} cached "
            "keys, in the layer and head chosen above:").format(grown.tokens[-1], token_id, how, probability,
                                                                grown.n))
        return self._apply_analysis(grown, grown.n - 1)

    def explore_newest(self) -> bool:
        """The newest token's row into the explorer: its q as Q, the cached k's and v's as the keys and values."""
        if self.analysis is None:
            return False
        self.set_query_token(self.analysis.n - 1)
        return self.send_query_to_explorer()

    def _causal_scenario(self, head, index: int, labels: tuple[str, ...], title: str) -> Scenario:
        sentence = short_token("".join(self.analysis.tokens), 300)
        if head.rotary is not None:  # the Llama family: q and k as the scores use them, after RoPE
            title = _translate("TransformerLab", "“{0}” as the query (layer {1}, head {2}, after RoPE)").format(
                short_token(self.analysis.tokens[index], 40), self.layer, self.head)[:MAX_TITLE]
            description = _translate("TransformerLab",
                "Real numbers from {0}, layer {1}, head {2} (K/V head {3}), for “{4}”, after RoPE. Q is q{5} of "
                "“{6}”, rotated to its position m = {7}; the keys are k{8}…k{5} of the {9} tokens up to it, each "
                "rotated to its own position n, and the values their v: the numbers the model scores, so q·k "
                "depends on the positions only through m − n. d_k = {10}; the model scales the scores by 1/√{10}, "
                "as the explorer does.").format(
                self.loaded.name, self.layer, self.head, head.kv_head, sentence, subscript(index),
                self.analysis.tokens[index], index, subscript(0), index + 1, head.head_size)
        else:
            description = _translate("TransformerLab",
                "Real numbers from {0}, layer {1}, head {2}, for “{3}”. Q is the query vector of “{4}”; the keys "
                "and values are the k and v of the {5} tokens up to it, the ones held in the KV cache (GPT-2 never "
                "looks ahead), d_k = {6}. GPT-2 scales the scores by 1/√{6}, as the explorer does.").format(
                self.loaded.name, self.layer, self.head, sentence, self.analysis.tokens[index], index + 1,
                head.head_size)
        return Scenario(query=head.queries[index], keys=head.keys[: index + 1], values=head.values[: index + 1],
                        labels=labels, title=title, description=description, scale=None)


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def subscript(number: int) -> str:
    """12 → ₁₂: a position written under q or k."""
    return str(number).translate(_SUBSCRIPTS)
