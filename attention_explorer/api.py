"""Attention Explorer from Python, as napari and matplotlib are: `import attention_explorer as ae`.

    r = ae.attend(query, keys, values)        # every number the window shows: r.scores, r.weights, r.output, …
    w = ae.show(query, keys, values)          # the window; in IPython with %gui qt it does not block
    w.set_keys(new_keys); w.screenshot("fig.png", size=(1280, 720))
    ae.run()                                  # a plain script: until the windows close

Arrays may be lists, numpy arrays or anything with `__array__` (a torch tensor, one that requires grad, on a GPU or
in bfloat16 included). Bad input raises ScenarioError, a ValueError, with the message the window gives.
The numbers come from the core (core/scenes/query/scene.py), the same as the window's and `attention-explorer
compute`'s; Qt is imported only by show, show_model and run.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.attention import AttentionResult
from attention_explorer.core.messages import value_kind
from attention_explorer.core.scenes.query.scene import Scenario

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.window.main_window import MainWindow

__all__ = ["Attention", "ScenarioError", "Window", "attend", "run", "show", "show_model"]

# The smallest and largest screenshot, as `attention-explorer --screenshot --size` takes them.
MIN_SIZE = (320, 240)
MAX_SIZE = (8000, 8000)


# ---------------------------------------------------------------- arrays from anywhere


def _is_tensor(data: Any) -> bool:
    """A torch tensor (or a look-alike): it has detach() and cpu(); numpy() refuses one that requires grad."""
    return callable(getattr(data, "detach", None)) and callable(getattr(data, "cpu", None))


def numbers(data: Any, place: str) -> np.ndarray | Any:
    """What numpy can read of `data`, checked to be real numbers; `place` names it in a message ("keys").

    A torch tensor is detached and brought to the CPU first (a tensor that requires grad refuses numpy(); numpy has
    no bfloat16, so that becomes float32). Lists go on as they are: the scenario reads them, and says where a row
    is ragged.
    """
    if data is None:
        raise ScenarioError("{0}: expected a number, got {1}", place, value_kind(None))
    if isinstance(data, (str, bytes)):
        raise ScenarioError("{0}: expected numbers, got a string", place)
    if _is_tensor(data):
        data = data.detach().cpu()
        if "bfloat16" in str(getattr(data, "dtype", "")):
            data = data.float()
    try:
        array = np.asarray(data)
    except RuntimeError:
        if not isinstance(data, (list, tuple)):
            raise
        # A list of tensors that require grad: each one detached on its own.
        return [numbers(item, place) for item in data]
    except (TypeError, ValueError, OverflowError):
        raise ScenarioError("{0}: expected numbers in equal-length rows", place) from None
    kind = array.dtype.kind
    if kind in "USa":
        raise ScenarioError("{0}: expected numbers, got a string", place)
    if kind == "b":
        raise ScenarioError("{0}: expected a number, got {1}", place, value_kind(True))
    if kind == "c":
        raise ScenarioError("{0}: expected a number, got {1}", place, "complex")
    if kind == "O":  # mixed: numpy would read None as NaN and True as 1; ragged rows are the scenario's to name
        for index, item in np.ndenumerate(array):
            if item is None or isinstance(item, (str, bytes, bool, np.bool_)):
                where = place + "".join(f"[{i}]" for i in index)
                raise ScenarioError("{0}: expected a number, got {1}", where, value_kind(item))
        return data
    return array


def _labels(labels: Any) -> tuple[str, ...] | None:
    """The labels as a tuple (None: the default K1, K2, …); the scenario checks each one."""
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)):
        raise ScenarioError("{0}: expected a list of strings, got a string", "labels")
    try:
        return tuple(labels)
    except TypeError:
        raise ScenarioError("{0}: expected a list of strings, got {1}", "labels", value_kind(labels)) from None


def _check_scale_type(scale: Any) -> None:
    """None or a real number (its range is the scenario's check)."""
    if scale is not None and (isinstance(scale, (bool, np.bool_)) or not isinstance(scale, (int, float, np.integer,
                                                                                             np.floating))):
        raise ScenarioError("{0}: expected a number, got {1}", "scale", value_kind(scale))


def scenario(query: Any, keys: Any, values: Any, labels: Sequence[str] | None = None, scale: float | None = None,
             title: str = "") -> Scenario:
    """The window's scenario of these arrays; ScenarioError (a ValueError) says what is wrong, as the window does."""
    _check_scale_type(scale)
    return Scenario(query=numbers(query, "query"), keys=numbers(keys, "keys"), values=numbers(values, "values"),
                    labels=_labels(labels) or (), scale=None if scale is None else float(scale), title=title)


# ---------------------------------------------------------------- the numbers


class Attention:
    """Every number the window shows for one query against N keys: the four steps and what the panels add.

    The arrays are read-only numpy float64 arrays. `scale` is the factor applied (1/√d_k unless one was given).
    """

    __slots__ = ("_result", "_scenario")

    def __init__(self, scene: Scenario, result: AttentionResult | None = None) -> None:
        self._scenario = scene
        self._result = result if result is not None else scene.compute()

    # The inputs, as the window holds them
    @property
    def query(self) -> np.ndarray:
        """Q, shape (d_k,)."""
        return self._scenario.query

    @property
    def keys(self) -> np.ndarray:
        """K, one key per row, shape (N, d_k)."""
        return self._scenario.keys

    @property
    def values(self) -> np.ndarray:
        """V, one value per row, shape (N, d_v)."""
        return self._scenario.values

    @property
    def labels(self) -> tuple[str, ...]:
        """The keys' names (K1, K2, … unless given)."""
        return self._scenario.labels

    @property
    def n(self) -> int:
        """Number of key–value pairs."""
        return self._scenario.n

    @property
    def d_k(self) -> int:
        """Dimension of Q and of every key."""
        return self._scenario.d_k

    @property
    def d_v(self) -> int:
        """Dimension of every value, and of the output."""
        return self._scenario.d_v

    @property
    def auto_scale(self) -> bool:
        """True when the scale is the automatic 1/√d_k."""
        return self._scenario.scale is None

    # Step 1 to step 4
    @property
    def scores(self) -> np.ndarray:
        """Step 1: the raw scores K·q, shape (N,)."""
        return self._result.scores

    @property
    def scale(self) -> float:
        """Step 2: the factor applied to the scores (1/√d_k, or the one given)."""
        return self._result.scale

    @property
    def temperature(self) -> float:
        """The softmax temperature 1/scale (inf for a scale of 0)."""
        return self._result.temperature

    @property
    def scaled_scores(self) -> np.ndarray:
        """Step 2: scale · scores."""
        return self._result.scaled_scores

    @property
    def exponentials(self) -> np.ndarray:
        """Step 3: e^x of the scaled scores, or e^(x − max) when `exp_shifted`."""
        return self._result.exponentials

    @property
    def exp_shifted(self) -> bool:
        """True when e^x would overflow or underflow, so the largest scaled score was subtracted first."""
        return self._result.exp_shifted

    @property
    def exp_sum(self) -> float:
        """Step 3: the sum of the exponentials."""
        return self._result.exp_sum

    @property
    def weights(self) -> np.ndarray:
        """Step 3: the attention weights, softmax of the scaled scores (they sum to 1)."""
        return self._result.weights

    @property
    def unscaled_weights(self) -> np.ndarray:
        """What the weights would be without scaling (softmax of the raw scores)."""
        return self._result.unscaled_weights

    @property
    def weighted_values(self) -> np.ndarray:
        """Step 4: w_i · V_i, shape (N, d_v): the terms of the output."""
        return self._result.weighted_values

    @property
    def output(self) -> np.ndarray:
        """Step 4: the output Σ w_i V_i, shape (d_v,)."""
        return self._result.output

    # What the panels show beside the steps
    @property
    def query_norm(self) -> float:
        """|Q|."""
        return self._result.query_norm

    @property
    def key_norms(self) -> np.ndarray:
        """|K_i|, shape (N,)."""
        return self._result.key_norms

    @property
    def cosines(self) -> tuple[float | None, ...]:
        """cos θ between Q and each key (None where either vector is zero)."""
        return self._result.cosines

    @property
    def angles_deg(self) -> tuple[float | None, ...]:
        """θ between Q and each key, in degrees (None where either vector is zero)."""
        return self._result.angles_deg

    @property
    def entropy(self) -> float:
        """Entropy of the weights, in bits (0 for one-hot, log2 N for uniform)."""
        return self._result.entropy

    @property
    def max_weight(self) -> float:
        """The largest weight."""
        return self._result.max_weight

    @property
    def jacobian_norm(self) -> float:
        """Frobenius norm of the softmax Jacobian: how much gradient reaches the scores (0 when saturated)."""
        return self._result.jacobian_norm

    def to_dict(self) -> dict[str, Any]:
        """Every number as plain Python values: what `attention-explorer compute` prints as JSON."""
        from attention_explorer.core.scenes.query.report import result_to_dict

        return result_to_dict(self._scenario, self._result)

    def __repr__(self) -> str:
        with np.printoptions(precision=4, suppress=True, threshold=20):
            return (f"Attention(n={self.n}, d_k={self.d_k}, d_v={self.d_v}, scale={self.scale:.4g}, "
                    f"weights={self.weights}, output={self.output})")


def attend(query: Any, keys: Any, values: Any, scale: float | None = None,
           labels: Sequence[str] | None = None) -> Attention:
    """softmax(scale · K·q) · V with every number the window shows; `scale` None is 1/√d_k.

    query: d_k numbers; keys: N rows of d_k; values: N rows of d_v (N ≤ 512, d ≤ 4096, |x| ≤ 1e6, all finite).
    Lists, numpy arrays and anything with __array__ (torch tensors) are read. Bad input raises ScenarioError, a
    ValueError, with the window's message ("keys: expected rows of 2 numbers (d_k = 2), got 3").
    """
    return Attention(scenario(query, keys, values, labels, scale))


# ---------------------------------------------------------------- the window


_windows: list[Window] = []  # every window show() opened and not yet closed: a handle dropped keeps it open


def _ipython_shell() -> Any:
    """The running IPython shell, or None (IPython is never imported here: only a session that runs it has it)."""
    module = sys.modules.get("IPython")
    get = getattr(module, "get_ipython", None)
    return get() if callable(get) else None


def _ipython_runs_qt(enable: bool) -> bool:
    """True when an IPython session pumps Qt's events itself (%gui qt); `enable`: switch that on where it is off,
    as napari does, so a window shown in IPython answers without blocking the prompt."""
    shell = _ipython_shell()
    if shell is None:
        return False
    loop = getattr(shell, "active_eventloop", None)
    if loop and str(loop).startswith("qt"):
        return True
    if enable and callable(getattr(shell, "enable_gui", None)):
        try:
            shell.enable_gui("qt")
        except Exception:
            return False
        return str(getattr(shell, "active_eventloop", "")).startswith("qt")
    return False


_process_wide = contextlib.ExitStack()  # what stays in force as long as the application made here


def application() -> QApplication:
    """The QApplication: the running one, or a new one set up as the program's own (names, font, language)."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from attention_explorer.cli.gui import ensure_qt_platform
    from attention_explorer.ui.application import configure_application

    app = QCoreApplication.instance()
    if app is None:
        ensure_qt_platform()  # no display: offscreen, where screenshots still work
        app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "attention-explorer"])
        configure_application(app)
        if app.platformName() == "offscreen":  # our own application: its windows' layouts make that notice at will
            _process_wide.enter_context(_quiet_offscreen())
    elif not isinstance(app, QApplication):
        raise RuntimeError("attention_explorer: this process runs a Qt application without widgets "
                           f"({type(app).__name__}); windows need a QApplication")
    elif not app.organizationName():  # IPython's %gui qt made it: nobody else has set it up
        configure_application(app)
    _ipython_runs_qt(enable=True)
    return app


def _quiet_offscreen() -> contextlib.AbstractContextManager[None]:
    """Offscreen, without the platform's notice on every window shown and resized (noise, as for --screenshot)."""
    from PySide6.QtGui import QGuiApplication

    from attention_explorer.cli.gui import without_offscreen_notices

    return without_offscreen_notices() if QGuiApplication.platformName() == "offscreen" else contextlib.nullcontext()


def _check_thread() -> None:
    from PySide6.QtCore import QCoreApplication, QThread

    app = QCoreApplication.instance()
    if app is not None and QThread.currentThread() is not app.thread():
        raise RuntimeError("attention_explorer: windows can be used only from the thread that runs Qt (the main "
                           "thread)")


def _checked_size(size: Any) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in size)
    except (TypeError, ValueError):
        raise ValueError(f"size: expected (width, height) in pixels, got {size!r}") from None
    if not (MIN_SIZE[0] <= width <= MAX_SIZE[0] and MIN_SIZE[1] <= height <= MAX_SIZE[1]):
        raise ValueError(f"size: {width}x{height} is out of range ({MIN_SIZE[0]}x{MIN_SIZE[1]} to "
                         f"{MAX_SIZE[0]}x{MAX_SIZE[1]})")
    return width, height


class Window:
    """An Attention Explorer window opened from Python: edit what it shows, take a screenshot, close it.

    Every edit goes through the window's model as a user's does: one undo step (Edit ▸ Undo takes it back), and
    the window counts as modified. What the window shows now, after the user's drags too, is `result`.
    """

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self._closed = False
        window.destroyed.connect(self._forget)

    def _forget(self, *_args) -> None:
        self._closed = True
        if self in _windows:
            _windows.remove(self)

    @property
    def closed(self) -> bool:
        """True once the window has been closed (by the user or by close())."""
        import shiboken6

        return self._closed or not shiboken6.isValid(self._window) or not self._window.isVisible()

    @property
    def main_window(self) -> MainWindow:
        """The Qt main window itself (a QMainWindow), for what this handle does not offer."""
        return self._alive()

    def _alive(self) -> MainWindow:
        _check_thread()
        if self.closed:
            raise RuntimeError("attention_explorer: this window has been closed")
        return self._window

    @property
    def _model(self) -> ExplorerModel:
        return self._alive().model

    # ------------------------------------------------------------ reading

    @property
    def result(self) -> Attention:
        """Every number the window shows now."""
        model = self._model
        return Attention(model.scenario, model.result)

    @property
    def query(self) -> np.ndarray:
        """Q as the window holds it now."""
        return self._model.scenario.query

    @property
    def keys(self) -> np.ndarray:
        """K as the window holds it now."""
        return self._model.scenario.keys

    @property
    def values(self) -> np.ndarray:
        """V as the window holds it now."""
        return self._model.scenario.values

    @property
    def labels(self) -> tuple[str, ...]:
        """The keys' names as the window shows them now."""
        return self._model.scenario.labels

    @property
    def scale(self) -> float | None:
        """The scale factor set, or None for the automatic 1/√d_k."""
        return self._model.scenario.scale

    # ------------------------------------------------------------ edits

    def update(self, query: Any = None, keys: Any = None, values: Any = None,
               labels: Sequence[str] | None = None) -> None:
        """Replace several at once, in one undo step (a new number of keys needs new values too; a new d_k a new
        query and keys). A new number of keys without labels names them K1, K2, …"""
        model = self._model
        model.set_arrays(None if query is None else numbers(query, "query"),
                         None if keys is None else numbers(keys, "keys"),
                         None if values is None else numbers(values, "values"), _labels(labels))
        self._repaint()

    def set_query(self, query: Any) -> None:
        """Replace Q (d_k numbers)."""
        self.update(query=query)

    def set_keys(self, keys: Any) -> None:
        """Replace every key (N rows of d_k numbers; the same N unless the values change too: see update)."""
        self.update(keys=keys)

    def set_values(self, values: Any) -> None:
        """Replace every value (N rows of d_v numbers; d_v may change)."""
        self.update(values=values)

    def set_labels(self, labels: Sequence[str]) -> None:
        """Rename the keys (one label per key)."""
        self.update(labels=labels)

    def set_scale(self, scale: float | None) -> None:
        """None: the automatic 1/√d_k; a number from 0: a manual factor on the raw scores."""
        _check_scale_type(scale)
        self._model.set_scale(None if scale is None else float(scale))
        self._repaint()

    def set_language(self, language: str) -> None:
        """The interface language, "en" or "zh_CN", as View ▸ Language sets it: every window, and remembered."""
        from attention_explorer.ui.i18n.switcher import LANGUAGES

        if language not in LANGUAGES:
            raise ValueError(f"language: expected one of {', '.join(LANGUAGES)}, got {language!r}")
        self._alive().set_language(language)
        self._repaint()

    def set_theme(self, mode: str) -> None:
        """The colours, "light", "dark" or "contrast" (for projectors), as View ▸ Theme sets them: every window."""
        from attention_explorer.ui.style.theme import theme

        if mode not in theme().MODES:
            raise ValueError(f"theme: expected one of {', '.join(theme().MODES)}, got {mode!r}")
        self._alive().set_theme(mode)
        self._repaint()

    def _repaint(self) -> None:
        from PySide6.QtWidgets import QApplication

        QApplication.processEvents()  # a script's edit shows at once, not only when the script waits

    # ------------------------------------------------------------ pictures and closing

    def screenshot(self, path: str | os.PathLike[str], size: tuple[int, int] | None = None) -> Path:
        """Write the window to a PNG, at `size` (width, height) pixels if given, and return its path.

        The window is laid out at that size for the picture and given its own size back afterwards.
        """
        target = Path(os.fspath(path))
        if target.suffix.lower() != ".png":
            raise ValueError(f"screenshot: {target.name!r}: only PNG is written (a name ending in .png)")
        wanted = None if size is None else _checked_size(size)
        window = self._alive()
        before = window.size()
        with _quiet_offscreen():
            return self._screenshot(window, target, wanted, before)

    @staticmethod
    def _screenshot(window: MainWindow, target: Path, wanted: tuple[int, int] | None, before) -> Path:
        from PySide6.QtCore import QSize, Qt
        from PySide6.QtWidgets import QApplication

        from attention_explorer.ui.widgets.export_file import png_bytes, write_export

        try:
            if wanted is not None:
                window.resize(*wanted)
            for _ in range(3):  # the layout settles, the plots frame their view and paint
                QApplication.processEvents()
            if wanted is not None and (window.width(), window.height()) != wanted:
                least = window.minimumSizeHint().expandedTo(window.minimumSize())
                raise ValueError(f"size: the window cannot be laid out at {wanted[0]}x{wanted[1]} (it needs at "
                                 f"least {least.width()}x{least.height()})")
            image = window.grab().toImage()
        finally:
            if wanted is not None:
                window.resize(before)
        if wanted is not None and (image.width(), image.height()) != wanted:  # a high-DPI screen: 2 pixels a point
            image = image.scaled(QSize(*wanted), Qt.AspectRatioMode.IgnoreAspectRatio,
                                 Qt.TransformationMode.SmoothTransformation)
        write_export(target, png_bytes(image))
        return target

    def close(self) -> None:
        """Close the window without asking about unsaved changes (the script decided); nothing if it is closed."""
        if self.closed:
            return
        from PySide6.QtWidgets import QMessageBox

        window = self._window
        window.ask_unsaved_changes = lambda: QMessageBox.StandardButton.Discard
        window.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<attention_explorer.Window (closed)>"
        scene = self._model.scenario
        return f"<attention_explorer.Window: {scene.n} keys, d_k = {scene.d_k}, d_v = {scene.d_v}>"


@functools.cache  # registered once, with the first window
def _end_sessions_at_exit() -> None:
    """A script that ends with windows open (offscreen, or without run()) leaves no recovery file behind: the
    next start of the program would offer its windows' edits as lost work. A crash still leaves them."""

    def end() -> None:
        import shiboken6

        for handle in list(_windows):
            if shiboken6.isValid(handle._window):
                handle._window.animator.stop()
                handle._window.document.end_session()

    atexit.register(end)


def _open(scene: Scenario) -> Window:
    """A new window on `scene`, shown, its first frame painted; kept open until it is closed."""
    from PySide6.QtCore import Qt

    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.window.main_window import MainWindow

    app = application()
    _check_thread()
    window = MainWindow(ExplorerModel(scene))
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # a closed window goes, with its model
    _end_sessions_at_exit()
    handle = Window(window)
    _windows.append(handle)
    with _quiet_offscreen():
        window.show()
        for _ in range(2):
            app.processEvents()
    return handle


def show(query: Any, keys: Any, values: Any, labels: Sequence[str] | None = None, scale: float | None = None,
         title: str = "") -> Window:
    """Open a window on these vectors and return at once (a script waits in run(); IPython keeps its prompt).

    Bad input raises ScenarioError (a ValueError) with the window's message before any window opens.
    """
    scene = scenario(query, keys, values, labels, scale, title)  # checked before Qt starts
    return _open(scene)


def _model_folder(path_or_id: str | os.PathLike[str]) -> Path:
    """The model folder a path names, or the cached snapshot of a Hub id or short name; nothing is downloaded."""
    from attention_explorer.core.pretrained.download import MODEL_CHOICES, cached_snapshot, is_model_id

    text = os.fspath(path_or_id)
    path = Path(text).expanduser()
    if path.exists():
        return path
    repo_id = next((choice.repo_id for choice in MODEL_CHOICES
                    if text.lower() in (choice.short_name.lower(), choice.repo_id.lower())), text)
    if not is_model_id(repo_id):
        raise FileNotFoundError(f"{text}: no such model folder")
    folder = cached_snapshot(repo_id)
    if folder is None:
        raise FileNotFoundError(f"{text}: neither a model folder nor a model in the Hugging Face cache; nothing is "
                                f"downloaded here: get it with `attention-explorer download {repo_id}` first")
    return folder


def show_model(path_or_id: str | os.PathLike[str], text: str, layer: int = 0, head: int = 0) -> Window:
    """Open a window on its real-transformer page with this model and sentence (layer and head from 0).

    `path_or_id`: a Hugging Face model folder, or the id of a model already in the Hugging Face cache
    ("sentence-transformers/all-MiniLM-L6-v2", or its short name). Nothing is downloaded. A model that cannot be
    used raises CheckpointError (a ValueError) with the page's message; FileNotFoundError when there is none.
    """
    from attention_explorer.core.pretrained.checkpoint import load_checkpoint

    if not isinstance(text, str):
        raise TypeError(f"text: expected a string, got {value_kind(text)}")
    folder = _model_folder(path_or_id)
    loaded = load_checkpoint(folder)  # CheckpointError: the page's own message, in English here
    try:
        analysis = loaded.analyse(text)
        config = loaded.config
        for name, value, count in (("layer", layer, config.num_layers), ("head", head, config.num_heads)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < count:
                raise ValueError(f"{name}: expected a whole number from 0 to {count - 1}, got {value!r}")
    except BaseException:
        loaded.tokenizer.close()
        raise
    from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset
    from attention_explorer.ui.labs.registry import TRANSFORMER, page_index

    handle = _open(load_preset(DEFAULT_PRESET))
    window = handle.main_window
    window.show_page(page_index(TRANSFORMER))
    panel = window.transformer_lab
    panel.sentence_edit.setText(text)
    panel.show_loaded(loaded, analysis)
    panel.set_head(int(layer), int(head))
    handle._repaint()
    return handle


def run() -> None:
    """Wait until every window is closed (a plain script's last line).

    It returns at once where nothing can close them: in IPython with %gui qt (the prompt runs Qt's events), with
    no window open, and offscreen (no display: a script that writes screenshots ends there).
    """
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    app = QCoreApplication.instance()
    if not isinstance(app, QApplication):
        return
    _check_thread()
    app.processEvents()
    if _ipython_runs_qt(enable=False) or app.platformName() == "offscreen":
        return
    if not any(widget.isVisible() for widget in app.topLevelWidgets()):
        return
    app.exec()
