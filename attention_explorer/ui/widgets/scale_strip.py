"""A one-line strip of the d_k and scale-factor sliders for presentation: a view that edits only through the model."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSizePolicy, QSlider, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import factor_text
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.d_k_stops import (
    D_K_MAX_POSITION,
    D_K_STEPS_PER_OCTAVE,
    d_k_from_position,
    position_from_d_k,
)
from attention_explorer.ui.widgets.factor_scale import FACTOR_MAX_POSITION, factor_from_position, position_from_factor

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate


class _GestureSlider(QSlider):
    """A horizontal slider whose drag is one gesture: `merge_key` is the same for every move of one drag."""

    def __init__(self, name: str, maximum: int, on_move: Callable[[int, int | None], None],
                 on_release: Callable[[int | None], None]) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName(name)
        self.setRange(0, maximum)
        self.setMinimumWidth(120)
        # Never the keyboard's: after a drag the clicker's Page Down must still reveal the next step.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.merge_key: int | None = None
        self.sliderPressed.connect(self._pressed)
        self.sliderReleased.connect(self._released)
        self.valueChanged.connect(lambda position: on_move(position, self.merge_key))
        self._on_move = on_move
        self._on_release = on_release

    def _pressed(self) -> None:
        self.merge_key = new_merge_key()

    def _released(self) -> None:
        self._on_move(self.value(), self.merge_key)
        self._on_release(self.merge_key)
        self.merge_key = None

    def show_position(self, position: int) -> None:
        """Move the handle to the model's value, unless the user holds it."""
        if not self.isSliderDown():
            with QSignalBlocker(self):
                self.setValue(position)


class ScaleStrip(QWidget):
    """d_k and the scale factor on one line: sliders, their values, and Auto 1/√d_k; new components by `fill()`."""

    def __init__(self, model: ExplorerModel, fill: Callable[[], tuple[str, int]] = lambda: ("random", 0),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scaleStrip")
        self.model = model
        self._fill = fill  # (fill, seed) for the components d_k adds: the full panel's choice
        self.d_k_name = QLabel("d_k")
        self.d_k_slider = _GestureSlider("stripDKSlider", D_K_MAX_POSITION, self._d_k_moved,
                                      model.finish_gesture)
        self.d_k_slider.setPageStep(D_K_STEPS_PER_OCTAVE)
        self.d_k_value = QLabel()
        self.d_k_value.setObjectName("stripDKValue")
        self.auto_box = QCheckBox()
        self.auto_box.setObjectName("stripAutoScale")
        self.auto_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.auto_box.clicked.connect(self._auto_clicked)
        self.factor_slider = _GestureSlider("stripFactorSlider", FACTOR_MAX_POSITION, self._factor_moved,
                                           model.finish_gesture)
        self.factor_slider.setPageStep(30)
        self.factor_value = QLabel()
        self.factor_value.setObjectName("stripFactorValue")
        self.message = QLabel()
        self.message.setObjectName("stripMessage")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.setSpacing(8)
        for widget, stretch in ((self.d_k_name, 0), (self.d_k_slider, 2), (self.d_k_value, 0), (self.auto_box, 0),
                                (self.factor_slider, 3), (self.factor_value, 0), (self.message, 1)):
            layout.addWidget(widget, stretch)
        model.changed.connect(self._update)
        theme().changed.connect(self._apply_theme)
        self._apply_theme()
        self.retranslate()

    def retranslate(self) -> None:
        """Texts and tips in the current language."""
        self.auto_box.setText(_translate("ScaleStrip", "Auto 1/√d_k"))
        self.auto_box.setToolTip(_translate("ScaleStrip", "The standard factor 1/√d_k; untick to keep the factor "
                                                          "and set it with the slider"))
        self.d_k_slider.setToolTip(_translate("ScaleStrip", "Drag to change d_k (log scale); one drag is one undo "
                                                            "step"))
        self.factor_slider.setToolTip(_translate("ScaleStrip", "Drag to set a manual factor on the raw scores (log "
                                                               "scale, 0 at the left end)"))
        self._update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _apply_theme(self) -> None:
        number = QFont(self.font())
        number.setPointSizeF(theme().number_pt())
        number.setBold(True)
        metrics = QFontMetrics(number)
        # As wide as the widest value: the sliders keep their place while a drag changes the number.
        for label, widest in ((self.d_k_value, "4096"), (self.factor_value, "× 0.0000")):
            label.setFont(number)
            label.setMinimumWidth(metrics.horizontalAdvance(widest) + 4)
        text = QFont(self.font())
        text.setPointSizeF(theme().font_pt())
        for widget in (self.d_k_name, self.auto_box, self.message):
            widget.setFont(text)
        self._update()

    def _update(self) -> None:
        """Show the model's d_k and factor (never edits)."""
        scenario, result = self.model.scenario, self.model.result
        self.d_k_slider.show_position(position_from_d_k(scenario.d_k))
        self.factor_slider.show_position(position_from_factor(result.scale))
        with QSignalBlocker(self.auto_box):
            self.auto_box.setChecked(scenario.scale is None)
        self.d_k_value.setText(str(scenario.d_k))
        self.factor_value.setText(f"× {factor_text(result.scale)}")

    def _d_k_moved(self, position: int, merge_key: int | None) -> None:
        fill, seed = self._fill()
        self._edit(lambda: self.model.set_d_k(d_k_from_position(position), fill=fill, seed=seed,
                                              merge_key=merge_key))

    def _factor_moved(self, position: int, merge_key: int | None) -> None:
        self._edit(lambda: self.model.set_scale(factor_from_position(position), merge_key))

    def _auto_clicked(self, checked: bool) -> None:
        self._edit(lambda: self.model.set_scale(None if checked else self.model.result.scale))

    def _edit(self, change: Callable[[], None]) -> None:
        """Run one model edit; a refused one is said on the strip and the strip shows the model again."""
        try:
            change()
        except ScenarioError as error:
            self.message.setText(error_text(error))
            self.message.show()
        else:
            self.message.clear()
            self.message.hide()
        self._update()
