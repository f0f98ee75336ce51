"""d_k and the scale factor: a log slider for d_k, auto 1/√d_k or a manual factor, and the temperature it means.

Every widget shows the model's state (set under QSignalBlocker, so showing never edits); user input goes
through ExplorerModel.set_d_k / set_scale.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QSlider,
    QSpinBox,
    QWidget,
)

from attention_explorer.core.limits import MAX_DIM, MAX_SCALE, ScenarioError
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import factor_text
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.d_k_stops import (
    D_K_MAX_POSITION,
    D_K_STEPS_PER_OCTAVE,
    D_K_STOPS,  # noqa: F401 (imported from here by the panel's tests)
    d_k_from_position,
    position_from_d_k,
)
from attention_explorer.ui.widgets.factor_scale import (
    FACTOR_MAX_POSITION,
    FACTOR_STEPS_PER_DECADE,
    factor_from_position,
    position_from_factor,
)
from attention_explorer.ui.widgets.hover_hints import HoverHints
from attention_explorer.ui.widgets.slider_ticks import SliderTicks

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate

class ScaleControls(QWidget):
    """Set d_k (slider + spin box, zeros or random new components) and the scale factor (auto or manual)."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scaleControls")
        self.model = model
        self._factor_gesture: int | None = None  # merge key of the factor-slider drag in progress
        self._d_k_gesture: int | None = None  # merge key of the d_k-slider drag in progress
        self._hover = HoverHints(self.hint, self)
        self._shown: tuple | None = None  # _shown_state() when the panel was last redrawn

        # ---- d_k
        self.d_k_slider = QSlider(Qt.Orientation.Horizontal)
        self.d_k_slider.setObjectName("dKSlider")
        self.d_k_slider.setRange(0, D_K_MAX_POSITION)
        self.d_k_slider.setPageStep(D_K_STEPS_PER_OCTAVE)  # Page Up/Down doubles / halves d_k (from 16 up)
        self.d_k_spin = QSpinBox()
        self.d_k_spin.setObjectName("dKScaleSpin")
        self.d_k_spin.setRange(1, MAX_DIM)
        self.d_k_spin.setKeyboardTracking(False)
        self.d_k_spin.setAccelerated(True)
        self.fill_combo = QComboBox()
        self.fill_combo.setObjectName("fillCombo")
        self.fill_combo.addItem("", "random")  # item texts: retranslate()
        self.fill_combo.addItem("", "zeros")
        self.fill_combo.setCurrentIndex(max(self.fill_combo.findData(model.d_k_fill), 0))
        self.seed_spin = QSpinBox()
        self.seed_spin.setObjectName("seedSpin")
        self.seed_spin.setRange(0, 9999)
        self.seed_spin.setValue(model.d_k_seed)
        self.seed_spin.setEnabled(self._fill() == "random")
        self.fill_note = QLabel()  # what the chosen fill does to q·k: the lesson hangs on it
        self.fill_note.setObjectName("fillNote")
        self.fill_note.setWordWrap(True)
        self.d_k_ticks = SliderTicks(self.d_k_slider, [(position_from_d_k(d), str(d)) for d in (1, 16, 256, 4096)])

        # ---- scale factor
        self.auto_radio = QRadioButton()
        self.auto_radio.setObjectName("autoScaleRadio")
        self.manual_radio = QRadioButton()
        self.manual_radio.setObjectName("manualScaleRadio")
        self._mode_group = QButtonGroup(self)
        self._mode_group.addButton(self.auto_radio)
        self._mode_group.addButton(self.manual_radio)
        self.no_scaling_button = QPushButton()
        self.no_scaling_button.setObjectName("noScalingButton")
        self.factor_slider = QSlider(Qt.Orientation.Horizontal)
        self.factor_slider.setObjectName("factorSlider")
        self.factor_slider.setRange(0, FACTOR_MAX_POSITION)
        self.factor_slider.setSingleStep(3)  # arrow keys: ≈ 2.3 % per press
        self.factor_slider.setPageStep(FACTOR_STEPS_PER_DECADE // 10)  # Page Up/Down: ≈ 26 % per press
        self.factor_spin = QDoubleSpinBox()
        self.factor_spin.setObjectName("factorSpin")
        self.factor_spin.setDecimals(4)
        self.factor_spin.setRange(0.0, MAX_SCALE)
        self.factor_spin.setKeyboardTracking(False)
        self.factor_spin.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
        self.factor_spin.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        self.factor_ticks = SliderTicks(
            self.factor_slider,
            [
                (0, "0"),
                (FACTOR_STEPS_PER_DECADE, "0.1"),
                (2 * FACTOR_STEPS_PER_DECADE, "1"),
                (FACTOR_MAX_POSITION, "10"),
            ],
        )
        self.factor_label = QLabel()
        self.factor_label.setObjectName("factorLabel")
        self.temperature_label = QLabel()
        self.temperature_label.setObjectName("temperatureLabel")
        self.note_label = QLabel()
        self.note_label.setObjectName("scaleNote")
        self.note_label.setWordWrap(True)
        self.message_label = QLabel()
        self.message_label.setObjectName("scaleMessage")
        self.message_label.setWordWrap(True)
        self.message_label.hide()

        # One grid, no group-box frames: the panel shares a 720-pixel-high column with the vector table.
        grid = QGridLayout(self)
        grid.setContentsMargins(10, 8, 10, 8)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(4)
        d_k_label = QLabel("d_k")
        d_k_label.setBuddy(self.d_k_spin)
        grid.addWidget(d_k_label, 0, 0)
        grid.addWidget(self.d_k_slider, 0, 1)
        grid.addWidget(self.d_k_spin, 0, 2)
        grid.addWidget(self.d_k_ticks, 1, 1)
        self.fill_label = QLabel()
        self.fill_label.setBuddy(self.fill_combo)
        fill_row = QHBoxLayout()
        fill_row.addWidget(self.fill_combo)
        fill_row.addWidget(self.seed_spin)
        fill_row.addStretch(1)
        grid.addWidget(self.fill_label, 2, 0)
        grid.addLayout(fill_row, 2, 1, 1, 2)
        grid.addWidget(self.fill_note, 3, 0, 1, 3)
        separator = QFrame()
        separator.setFrameShape(QFrame.Shape.HLine)
        separator.setFrameShadow(QFrame.Shadow.Sunken)
        grid.addWidget(separator, 4, 0, 1, 3)
        modes = QHBoxLayout()
        modes.addWidget(self.auto_radio)
        modes.addWidget(self.manual_radio)
        modes.addStretch(1)
        modes.addWidget(self.no_scaling_button)
        grid.addLayout(modes, 5, 0, 1, 3)
        grid.addWidget(QLabel("×"), 6, 0)
        grid.addWidget(self.factor_slider, 6, 1)
        grid.addWidget(self.factor_spin, 6, 2)
        grid.addWidget(self.factor_ticks, 7, 1)
        grid.addWidget(self.factor_label, 8, 0, 1, 3)
        grid.addWidget(self.temperature_label, 9, 0, 1, 3)
        grid.addWidget(self.note_label, 10, 0, 1, 3)
        grid.addWidget(self.message_label, 11, 0, 1, 3)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(12, 1)

        self.d_k_slider.valueChanged.connect(self._d_k_slider_moved)
        self.d_k_slider.sliderReleased.connect(self._d_k_slider_released)
        self.d_k_spin.valueChanged.connect(self._set_d_k)
        self.fill_combo.currentIndexChanged.connect(self._fill_changed)
        self.seed_spin.valueChanged.connect(self._seed_changed)
        self.auto_radio.clicked.connect(lambda: self._set_scale(None))
        self.manual_radio.clicked.connect(lambda: self._set_scale(self.model.result.scale))
        self.no_scaling_button.clicked.connect(lambda: self._set_scale(1.0))
        self.factor_slider.sliderPressed.connect(self._factor_gesture_started)
        self.factor_slider.sliderReleased.connect(self._factor_gesture_ended)
        self.factor_slider.valueChanged.connect(self._factor_slider_moved)
        self.factor_spin.valueChanged.connect(lambda value: self._set_scale(float(value)))
        model.changed.connect(self._on_model_changed)
        theme().changed.connect(self._apply_theme)

        self._apply_theme()
        self.retranslate()  # also draws the model's state

    def retranslate(self) -> None:
        """Every static text in the current language, then the model's state in it (again on LanguageChange)."""
        self.fill_label.setText(_translate("ScaleControls", "fill"))
        self.fill_combo.setItemText(self.fill_combo.findData("random"), _translate("ScaleControls", "random N(0,1)"))
        self.fill_combo.setItemText(self.fill_combo.findData("zeros"), _translate("ScaleControls", "zeros"))
        self._show_fill_note()
        self.seed_spin.setPrefix(_translate("ScaleControls", "seed "))
        self.auto_radio.setText(_translate("ScaleControls", "Auto 1/√d_k"))
        self.manual_radio.setText(_translate("ScaleControls", "Manual"))
        self.no_scaling_button.setText(_translate("ScaleControls", "No scaling (× 1)"))
        self._describe(
            self.d_k_slider,
            _translate(
                "ScaleControls",
                "Drag to change d_k (log scale; Page Up/Down ≈ doubles or halves it); one drag is one undo step.",
            ),
        )
        self._describe(self.d_k_spin, _translate("ScaleControls", "Type d_k (1–4096) and press Enter"))
        self._describe(
            self.fill_combo, _translate("ScaleControls", "What the new components of Q and every K hold when d_k grows")
        )
        self._describe(
            self.seed_spin,
            _translate("ScaleControls", "Seed of the random N(0,1) components (same seed, same numbers)"),
        )
        self._describe(
            self.factor_slider,
            _translate(
                "ScaleControls",
                "Drag to set a manual factor on the raw scores (log scale, 0 at the left end, 1 in the middle marks)",
            ),
        )
        self._describe(self.factor_spin, _translate("ScaleControls", "Type a manual factor and press Enter"))
        self._describe(
            self.no_scaling_button, _translate("ScaleControls", "Use the raw scores Q·K (factor 1) to compare")
        )
        self._describe(
            self.auto_radio, _translate("ScaleControls", "The standard factor 1/√d_k keeps the scores' spread near 1")
        )
        self._describe(self.manual_radio, _translate("ScaleControls", "Keep the current factor and set it yourself"))
        self._update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _describe(self, widget: QWidget, text: str) -> None:
        self._hover.describe(widget, text)

    def _apply_theme(self) -> None:
        big = QFont(self.font())
        big.setPointSizeF(theme().number_pt())
        big.setBold(True)
        self.factor_label.setFont(big)
        self.temperature_label.setFont(big)
        number = QFont(self.font())
        number.setPointSizeF(theme().number_pt())
        for widget in (self.d_k_spin, self.factor_spin):
            widget.setFont(number)
        small = QFont(self.font())
        small.setPointSizeF(theme().font_pt() * 0.85)
        for widget in (self.d_k_ticks, self.factor_ticks, self.note_label, self.fill_note):
            widget.setFont(small)
        # Two lines kept free: a dock gives a wrapped label only the height of its first guess, which cut it.
        two_lines = QFontMetrics(small).boundingRect(0, 0, 1000, 1000, Qt.AlignmentFlag.AlignLeft, "Ag\nAg")
        self.fill_note.setMinimumHeight(two_lines.height())
        self.factor_spin.setFixedWidth(QFontMetrics(number).horizontalAdvance("0000.0000") + 16)
        self.d_k_spin.setFixedWidth(QFontMetrics(number).horizontalAdvance("00000") + 36)
        error_colour = theme().error_hex()
        self.message_label.setStyleSheet(f"color: {error_colour}; font-weight: bold;")

    # ------------------------------------------------------------ redraw from the model

    def _shown_state(self) -> tuple:
        """Everything this panel shows that a model change can alter."""
        scenario, result = self.model.scenario, self.model.result
        return scenario.d_k, scenario.scale, result.scale, result.temperature

    def _on_model_changed(self) -> None:
        # A drag of a vector changes neither d_k nor the factor: most model changes leave this panel as it is.
        if self._shown_state() != self._shown:
            self._update()

    def _update(self) -> None:
        self._shown = self._shown_state()
        scenario, result = self.model.scenario, self.model.result
        d_k = scenario.d_k
        if not self.d_k_slider.isSliderDown():  # while dragging, the handle stays under the mouse
            with QSignalBlocker(self.d_k_slider):
                self.d_k_slider.setValue(position_from_d_k(d_k))
        with QSignalBlocker(self.d_k_spin):
            self.d_k_spin.setValue(d_k)

        factor = result.scale
        automatic = scenario.scale is None
        with QSignalBlocker(self.auto_radio), QSignalBlocker(self.manual_radio):
            self.auto_radio.setChecked(automatic)
            self.manual_radio.setChecked(not automatic)
        if not self.factor_slider.isSliderDown():
            with QSignalBlocker(self.factor_slider):
                self.factor_slider.setValue(position_from_factor(factor))
        with QSignalBlocker(self.factor_spin):
            self.factor_spin.setValue(factor)
        self.no_scaling_button.setEnabled(not (scenario.scale is not None and factor == 1.0))

        auto_factor = scenario.auto_scale
        if automatic:
            self.factor_label.setText(
                _translate("ScaleControls", "factor × {0} = 1/√{1}").format(factor_text(factor), d_k)
            )
            self.note_label.setText(
                _translate("ScaleControls", "Automatic: follows d_k (√{0} = {1}).").format(
                    d_k, factor_text(math.sqrt(d_k))
                )
            )
        else:
            self.factor_label.setText(_translate("ScaleControls", "factor × {0}").format(factor_text(factor)))
            self.note_label.setText(
                _translate("ScaleControls", "Manual; auto would be 1/√{0} = {1}.").format(
                    d_k, factor_text(auto_factor)
                )
            )
        self.temperature_label.setText(
            _translate("ScaleControls", "T = 1/factor = {0}").format(factor_text(result.temperature))
        )
        if factor == 0:
            self.note_label.setText(
                self.note_label.text()
                + " "
                + _translate("ScaleControls", "Every scaled score is 0: all weights equal.")
            )

    # ------------------------------------------------------------ d_k input

    def _fill(self) -> str:
        return str(self.fill_combo.currentData())

    def _fill_changed(self) -> None:
        # The choice is the model's, so the vector editor's d_k spin box grows d_k the same way.
        self.model.d_k_fill = self._fill()
        self.seed_spin.setEnabled(self._fill() == "random")
        self._show_fill_note()

    def _seed_changed(self, seed: int) -> None:
        self.model.d_k_seed = seed

    def _show_fill_note(self) -> None:
        if self._fill() == "random":
            text = _translate(
                "ScaleControls", "New components are N(0, 1): q·k spreads like √d_k."
            )
        else:
            text = _translate(
                "ScaleControls", "New components are 0: q·k stays, only the scaling shrinks it."
            )
        self.fill_note.setText(text)

    def _d_k_slider_moved(self, position: int) -> None:
        # A drag applies every step live, all of it one undo step; keyboard, wheel or a click on the groove
        # make one step each.
        if self.d_k_slider.isSliderDown() and self._d_k_gesture is None:
            self._d_k_gesture = new_merge_key()
        merge_key = self._d_k_gesture if self.d_k_slider.isSliderDown() else None
        self._set_d_k(d_k_from_position(position), merge_key)

    def _d_k_slider_released(self) -> None:
        self._set_d_k(d_k_from_position(self.d_k_slider.value()), self._d_k_gesture)
        self.model.finish_gesture(self._d_k_gesture)
        self._d_k_gesture = None

    def _set_d_k(self, d_k: int, merge_key: int | None = None) -> None:
        try:
            self.model.set_d_k(d_k, merge_key=merge_key)
        except ScenarioError as error:
            self._show_error(error_text(error))
            self._update()
            return
        self._clear_message()
        self._update()  # also when nothing changed (the spin box may show a pending d_k)

    # ------------------------------------------------------------ scale input

    def _factor_gesture_started(self) -> None:
        self._factor_gesture = new_merge_key()

    def _factor_gesture_ended(self) -> None:
        self.model.finish_gesture(self._factor_gesture)
        self._factor_gesture = None

    def _factor_slider_moved(self, position: int) -> None:
        merge_key = self._factor_gesture if self.factor_slider.isSliderDown() else None
        self._set_scale(factor_from_position(position), merge_key)

    def _set_scale(self, factor: float | None, merge_key: int | None = None) -> None:
        try:
            self.model.set_scale(factor, merge_key)
        except ScenarioError as error:
            self._show_error(error_text(error))
            self._update()
            return
        self._clear_message()
        self._update()  # radio buttons show the model's mode even if the click changed nothing

    # ------------------------------------------------------------ messages

    def _show_error(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.show()
        self.hint.emit(text)

    def _clear_message(self) -> None:
        self.message_label.clear()
        self.message_label.hide()
