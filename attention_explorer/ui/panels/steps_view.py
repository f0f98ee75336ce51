"""The four steps of attention written out with the current numbers, and why Q·K = |Q||K| cos θ."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractSlider, QScrollBar, QTextBrowser, QVBoxLayout, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.panels.steps_html import (
    keep_together,
    label_column_px,
    masked,
    nowrap,
    row_tint,
    text_on,
    tip,
    vector_text,
)
from attention_explorer.ui.style.numbers import (
    MINUS,
    compact_html,
    number_html,
    parenthesized_if_negative,
    product_factor_html,
    small_number_html,
    tooltip_number,
    tooltip_vector,
)
from attention_explorer.ui.style.safe_text import escaped, literal
from attention_explorer.ui.style.theme import key_hex, output_color, query_color, theme, theme_ink
from attention_explorer.ui.widgets.key_rows import MAX_ROWS, shown_rows  # noqa: F401 (MAX_ROWS: its tests import it here)

# Q·K_i is written out product by product up to this d_k; beyond it only the sum is shown.
EXPAND_PRODUCTS_MAX_DK = 4
# The Σ of step 3 lists its terms up to this many keys.
LISTED_SUM_TERMS = 5

# Below this panel width (in pixels, at zoom 1) the numbers shrink towards the text size.
FULL_SIZE_WIDTH = 440
# The labels FULL_SIZE_WIDTH was chosen with; a wider label column takes its extra width from the numbers.
SHORT_LABELS = tuple(f"K{i}" for i in range(1, 10))

# Text colours as drawn on the light theme; on dark ones they are lightened until they read (see readable_hex).
MUTED_HEX = "#505050"  # italic notes
WORKED_NUMBERS_HEX = "#1A4E8A"  # the numbers under each step of the derivation


class _SteadyScrollBar(QScrollBar):
    """A scroll bar that sits out a text replacement and repaints after it only if it ended up different.

    Replacing the text empties the document for a moment: the range drops to 0 and comes back, the value with
    it, and each change repaints the bar and the region around it (measured: 1.5–2 ms of every drag move's frame).
    """

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None) -> None:
        super().__init__(orientation, parent)
        self._held = False
        # Opaque: its style fills the whole bar anyway, and a transparent one makes Qt paint the panel and the dock
        # under it first (0.97 → 0.57 ms a repaint here; the same pixels).
        self.setAutoFillBackground(True)

    def _state(self) -> tuple[int, int, int, int]:
        return self.minimum(), self.maximum(), self.value(), self.pageStep()

    def sliderChange(self, change: QAbstractSlider.SliderChange) -> None:
        if not self._held:
            super().sliderChange(change)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Changes inside the block are applied but not shown; one repaint after it if the bar changed."""
        before = self._state()
        self._held = True
        try:
            yield
        finally:
            self._held = False
            if self._state() != before:
                super().sliderChange(QAbstractSlider.SliderChange.SliderRangeChange)
                super().sliderChange(QAbstractSlider.SliderChange.SliderValueChange)


class _StepsBrowser(QTextBrowser):
    """A read-only rich-text view; number spans carry their full precision as tooltips (HTML title).

    Its text is brought up to date by `bring_up_to_date` just before the viewport is painted or handles the mouse,
    so what is painted, clicked or hovered is always the current text.
    """

    def __init__(self, bring_up_to_date: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bring_up_to_date = bring_up_to_date
        self.setOpenLinks(False)
        self.setReadOnly(True)
        self.setFrameShape(QTextBrowser.Shape.NoFrame)
        self._steady_bar = _SteadyScrollBar(Qt.Orientation.Vertical, self)
        self.setVerticalScrollBar(self._steady_bar)
        # A scroll bar that appears or vanishes makes Qt lay the document out twice per update.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.scroll_to: str | None = None  # after the next rebuild: "" the top, "stepN" that step's heading

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() in _NEEDS_CURRENT_TEXT:
            self._bring_up_to_date()
        return super().viewportEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):  # copy, select all
            self._bring_up_to_date()
        return super().event(event)

    def set_html_keep_scroll(self, text: str) -> None:
        """Replace the content without jumping back to the top (it changes on every drag move)."""
        vertical = self.verticalScrollBar().value()
        horizontal = self.horizontalScrollBar().value()
        with self._steady_bar.held():
            self.setHtml(text)
            self.horizontalScrollBar().setValue(horizontal)
            target, self.scroll_to = self.scroll_to, None
            if target:
                self.scrollToAnchor(target)
            else:
                self.verticalScrollBar().setValue(0 if target == "" else vertical)


# Viewport events that must see the current text: painting it, and the mouse on its links, numbers and tooltips.
_NEEDS_CURRENT_TEXT = frozenset({
    QEvent.Type.Paint, QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
    QEvent.Type.MouseMove, QEvent.Type.ToolTip, QEvent.Type.Wheel, QEvent.Type.ContextMenu,
})


class StepsView(QWidget):
    """The computation of the current scenario, step by step, like a lecturer writes it on the board."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepsView")
        self.model = model
        self.browser = _StepsBrowser(self.bring_up_to_date, self)
        self.browser.setObjectName("stepsText")
        self.browser.anchorClicked.connect(self._on_anchor_clicked)
        self.browser.highlighted.connect(self._on_anchor_hovered)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.setMinimumWidth(260)
        self._text_is_current = False
        self._watched_window: QWidget | None = None
        self._number_pt = theme().number_pt()
        self._label_width = 60
        model.changed.connect(self.refresh)
        model.selection_changed.connect(self.refresh)
        model.steps_changed.connect(self._on_steps_changed)
        model.opened.connect(self._on_opened)
        theme().changed.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------ updating

    def refresh(self) -> None:
        """Note that the text no longer matches the model; it is rebuilt once, before it is next painted or read.

        Laying out the five tables costs more than everything else a drag move does, and a mouse sends moves
        faster than the screen shows frames: rebuilding per frame instead of per move keeps a drag smooth, the way
        pyqtgraph builds a curve's path when it paints, not when its data is set (docs/performance.md:
        steps_text_ms).
        """
        self._text_is_current = False
        self._watch_window()
        self.browser.viewport().update()

    def _on_steps_changed(self) -> None:
        """The step just revealed (or the last one still shown) scrolls into view; step 1 with the formula above it."""
        shown = self.model.revealed_steps
        if self.model.step_through:
            self.browser.scroll_to = "" if shown == 1 else f"step{shown}"
        self.refresh()

    def _on_opened(self) -> None:
        """A newly opened example is read from step 1."""
        self.browser.scroll_to = ""
        self.refresh()

    def bring_up_to_date(self) -> None:
        """Rebuild the text from the model if it changed since the last rebuild (one setHtml)."""
        if self._text_is_current:
            return
        self._text_is_current = True
        self._number_pt = self._fitted_number_pt()
        self.browser.set_html_keep_scroll(self.html())

    def _watch_window(self) -> None:
        """Follow the top-level window (it changes when the dock floats): its paint request rebuilds the text."""
        window = self.window()
        if window is self._watched_window:
            return
        if self._watched_window is not None:
            self._watched_window.removeEventFilter(self)
        self._watched_window = window
        if window is not self:
            window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Rebuilt when the window is about to paint, before Qt collects what to repaint: the new text's own
        # repaint then joins this frame instead of asking for a second one.
        # A closed or tabbed-away panel is not rebuilt at all: its viewport's first paint, when shown, does it.
        if event.type() == QEvent.Type.UpdateRequest and watched is self._watched_window and self.isVisible():
            self.bring_up_to_date()
        return False

    def changeEvent(self, event: QEvent) -> None:
        """Every text is rebuilt from the model, so a new language only needs a refresh."""
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)

    def document(self) -> QTextDocument:
        """The current text as a document (brought up to date first)."""
        self.bring_up_to_date()
        return self.browser.document()

    def plain_text(self) -> str:
        """What the user reads, without markup."""
        return self.document().toPlainText()

    def html(self) -> str:
        """The whole panel as one HTML document built from model.result."""
        result = self.model.result
        selected = self.model.selected_key
        rows = shown_rows(result.weights, selected)
        self._label_width = self._label_column_width(rows, self._number_pt)
        parts: list[str] = [
            f'<html><body style="font-size:{theme().font_pt():.1f}pt; color:{theme().foreground().name()}">',
            self._formula_line(),
        ]
        if len(rows) < result.n:
            parts.append(self._para(self.tr(
                "… and {0} more keys: the rows show the {1} largest weights (and the selected key); "
                "every sum is over all {2} keys."
            ).format(result.n - len(rows), len(rows), result.n), italic=True))
        for step, write in enumerate((self._raw_scores, self._scaling, self._softmax, self._weighted_sum), start=1):
            start = len(parts)
            write(parts, rows)
            if not self.model.step_shown(step):
                # The same text with "?" for each number: the step keeps its size, so nothing jumps when it shows.
                title, formula = parts[start].split("</b>", 1)
                parts[start:] = [title, "</b>", masked(formula + "".join(parts[start + 1:]))]
        self._derivation(parts)
        parts.append("</body></html>")
        return "".join(parts)

    # ------------------------------------------------------------ pieces

    def _label_column_width(self, rows: Sequence[int], point_size: float) -> int:
        """Pixel width of the label column at `point_size`, the same in every table so the steps line up."""
        labels = tuple(self.model.scenario.labels[i] for i in rows)
        return label_column_px(self.font().toString(), point_size, labels)

    def _number_style(self) -> str:
        return f"font-size:{self._number_pt:.1f}pt"

    def _fitted_number_pt(self) -> float:
        """theme().number_pt() when the panel is wide enough (~460 px); smaller, down to the text size, when not.

        A narrower dock would otherwise need a horizontal scroll bar for the softmax rows, and long labels
        (code-review's "shared state") make it narrower for the numbers.
        """
        full_size, text_size = theme().number_pt(), theme().font_pt()
        # From our own width: in resizeEvent the browser's viewport still has its old size.
        width = self.width() - self.browser.verticalScrollBar().sizeHint().width()
        # Labels wider than K1 take their extra width from the numbers, which keep the room they have beside K1.
        rows = shown_rows(self.model.result.weights, self.model.selected_key)
        font = self.font().toString()
        width -= max(0, self._label_column_width(rows, full_size) - label_column_px(font, full_size, SHORT_LABELS))
        fraction = min(1.0, max(width, 1) / (FULL_SIZE_WIDTH * theme().zoom))
        return round(max(text_size, full_size * fraction) * 2) / 2  # half points: fewer rebuilds while resizing

    def resizeEvent(self, event) -> None:
        """A narrower panel gets smaller numbers rather than a horizontal scroll bar."""
        super().resizeEvent(event)
        if self._fitted_number_pt() != self._number_pt:
            self.refresh()

    def _ink(self, hex_colour: str) -> str:
        """A text colour that reads on the panel's background in the current theme (unchanged on the light one)."""
        return theme_ink(hex_colour)

    def _para(self, text: str, italic: bool = False, top: int = 4) -> str:
        style = f"margin-top:{top}px; margin-bottom:4px;"
        if italic:
            style += f" font-style:italic; color:{self._ink(MUTED_HEX)};"
        return f'<p style="{style}">{text}</p>'

    def _heading(self, number_text: str, title: str, formula: str) -> str:
        prefix = f"{number_text}&nbsp;·&nbsp;" if number_text else ""
        anchor = f'<a name="step{number_text}"></a>' if number_text else ""  # scrolled to when revealed
        return (
            f'<p style="margin-top:14px; margin-bottom:4px;">{anchor}<b>{prefix}{title}</b>'
            f'&nbsp;&nbsp;<span style="{self._number_style()}">{keep_together(formula)}</span></p>'
        )

    def _formula_line(self) -> str:
        scenario = self.model.scenario
        q = f'<span style="color:{query_color().name()}"><b>Q</b></span>'
        if scenario.scale is None:
            formula = "softmax(<b>Q</b>·<b>K</b><sup>T</sup> / √d<sub>k</sub>)·<b>V</b>"
        else:
            formula = f"softmax({compact_html(scenario.scale)} × <b>Q</b>·<b>K</b><sup>T</sup>)·<b>V</b>"
        return (
            f'<p style="margin-top:2px; {self._number_style()}">{formula}</p>'
            + self._para(self.tr("{0} = {1}, d<sub>k</sub> = {2}, d<sub>v</sub> = {3}, {4} keys").format(
                q, vector_text(scenario.query, compact_html), scenario.d_k, scenario.d_v, scenario.n))
        )

    def _label_cell(self, index: int, title: str) -> str:
        colour = key_hex(index)
        ink = text_on(colour)
        label = escaped(self.model.scenario.labels[index])
        return (
            f'<td bgcolor="{colour}" align="center" width="{self._label_width}" title="{escaped(literal(title))}" '
            f'style="padding:4px 8px; font-weight:bold">'
            f'<a href="key:{index}" style="color:{ink}; text-decoration:none">{label}</a></td>'
        )

    def _row(self, index: int, title: str, cells: Sequence[str]) -> str:
        """One key's row: the label cell in its colour, then the cells; the selected key tinted and bold.

        Cells wrap only where their text has ordinary spaces (see `nowrap`), the last one is right-aligned.
        """
        selected = index == self.model.selected_key
        current = theme()
        tint = row_tint(key_hex(index), current.mode, current.background().name(), current.foreground().name())
        background = f' bgcolor="{tint}"' if selected else ""
        last = len(cells) - 1
        body = "".join(
            f'<td style="padding:4px 6px"{" align=right" if i == last else ""}>'
            f'{f"<b>{cell}</b>" if selected else cell}</td>'
            for i, cell in enumerate(cells)
        )
        return f"<tr{background}>{self._label_cell(index, title)}{body}</tr>"

    def _table(self, rows: Sequence[str]) -> str:
        return (
            f'<table width="100%" cellspacing="0" cellpadding="3" style="{self._number_style()}">'
            + "".join(rows) + "</table>"
        )

    def _raw_scores(self, parts: list[str], rows: Sequence[int]) -> None:
        scenario, result = self.model.scenario, self.model.result
        parts.append(self._heading("1", self.tr("Raw scores"),
                                   "s<sub>i</sub> = Q·K<sub>i</sub>"))
        expand = scenario.d_k <= EXPAND_PRODUCTS_MAX_DK
        if not expand:
            parts.append(self._para(self.tr("d<sub>k</sub> = {0}: each score is the sum of {0} products "
                                            "q<sub>j</sub>·k<sub>j</sub>.").format(scenario.d_k), italic=True, top=0))
        table = []
        for i in rows:
            score = float(result.scores[i])
            if expand:
                terms = " + ".join(f"{product_factor_html(q)}·{product_factor_html(k)}"
                                   for q, k in zip(scenario.query, scenario.keys[i]))
                expression = f"Q·K = {terms}"
            else:
                expression = "Q·K"
            title = (f"{scenario.labels[i]}: K = {tooltip_vector(scenario.keys[i])}, "
                     f"Q·K = {tooltip_number(score)}")
            table.append(self._row(i, title, [expression, "= " + tip(number_html(score), score)]))
        parts.append(self._table(table))

    def _scaling(self, parts: list[str], rows: Sequence[int]) -> None:
        scenario, result = self.model.scenario, self.model.result
        if scenario.scale is None:
            root = math.sqrt(scenario.d_k)
            shown_root = compact_html(root)
            formula = (f"x<sub>i</sub> = s<sub>i</sub> ÷ √d<sub>k</sub> = s<sub>i</sub> ÷ √{scenario.d_k}"
                       f" = s<sub>i</sub> ÷ {shown_root}")
            operation = f"÷ {shown_root}"
            explanation = self.tr("automatic: the raw scores are divided by √d<sub>k</sub>")
        else:
            shown = compact_html(result.scale)
            formula = f"x<sub>i</sub> = s<sub>i</sub> × {shown}"
            operation = f"× {shown}"
            explanation = self.tr("manual factor f = {0} (automatic would be ÷ √{1} = ÷ {2})").format(
                shown, scenario.d_k, compact_html(math.sqrt(scenario.d_k)))
        parts.append(self._heading("2", self.tr("Scaling"), formula))
        parts.append(self._para(explanation, italic=True, top=0))
        table = []
        for i in rows:
            raw, scaled = float(result.scores[i]), float(result.scaled_scores[i])
            title = (f"{scenario.labels[i]}: s = {tooltip_number(raw)}, × {tooltip_number(result.scale)} "
                     f"= {tooltip_number(scaled)}")
            table.append(self._row(i, title, [nowrap(f"{tip(number_html(raw), raw)} {operation}"),
                                              nowrap("= " + tip(number_html(scaled), scaled))]))
        parts.append(self._table(table))

    def _softmax(self, parts: list[str], rows: Sequence[int]) -> None:
        scenario, result = self.model.scenario, self.model.result
        shifted = result.exp_shifted
        top = float(np.max(result.scaled_scores))
        if shifted:
            formula = "w<sub>i</sub> = e<sup>x<sub>i</sub> − m</sup> / Σ<sub>j</sub> e<sup>x<sub>j</sub> − m</sup>"
        else:
            formula = "w<sub>i</sub> = e<sup>x<sub>i</sub></sup> / Σ<sub>j</sub> e<sup>x<sub>j</sub></sup>"
        parts.append(self._heading("3", self.tr("Softmax"), formula))
        if shifted:
            parts.append(self._para(self.tr(
                "Stable form: e<sup>x</sup> itself would overflow or underflow a float64 here (beyond about "
                "e<sup>±709</sup>), so every exponent is first lowered by the largest score m = {0}. "
                "The weights do not change: the factor e<sup>−m</sup> cancels between each term and Σ."
            ).format(number_html(top)), italic=True, top=0))
        total = result.exp_sum
        shown_total = tip(small_number_html(total), total)
        table = []
        for i in rows:
            x, e, w = float(result.scaled_scores[i]), float(result.exponentials[i]), float(result.weights[i])
            power = f"{compact_html(x)} {MINUS} {compact_html(top)}" if shifted else number_html(x)
            title = f"{scenario.labels[i]}: x = {tooltip_number(x)}, e^x = {tooltip_number(e)}, w = {tooltip_number(w)}"
            table.append(self._row(i, title, [
                nowrap(f"e<sup>{power}</sup>") + " " + nowrap(f"= {tip(small_number_html(e), e)}"),
                nowrap(f"/ {shown_total}") + " " + nowrap(f"= {tip(number_html(w), w)}"),
            ]))
        if result.n <= LISTED_SUM_TERMS:
            terms = " + ".join(small_number_html(float(e)) for e in result.exponentials)
            sum_text = f"{terms} = {shown_total}"
        else:
            sum_text = self.tr("all {0} terms: {1}").format(result.n, shown_total)
        table.append(
            f'<tr><td align="center" style="padding:4px 8px"><b>Σ</b></td>'
            f'<td colspan="2" style="padding:4px 6px">Σ = {sum_text}</td></tr>'
        )
        parts.append(self._table(table))

    def _weighted_sum(self, parts: list[str], rows: Sequence[int]) -> None:
        scenario, result = self.model.scenario, self.model.result
        parts.append(self._heading("4", self.tr("Weighted sum of the values"),
                                   self.tr("output") + " = Σ w<sub>i</sub>·V<sub>i</sub>"))
        table = []
        for i in rows:
            w = float(result.weights[i])
            term = result.weighted_value(i)
            title = f"{scenario.labels[i]}: w = {tooltip_number(w)}, w·V = {tooltip_vector(term)}"
            table.append(self._row(i, title, [
                nowrap(f"{tip(number_html(w), w)} ×") + " " + vector_text(scenario.values[i], compact_html),
                nowrap("= ") + f'<span title="{tooltip_vector(term)}">{vector_text(term)}</span>',
            ]))
        colour = output_color().name()
        ink = self._ink(colour)
        table.append(
            f'<tr><td bgcolor="{colour}" align="center" style="padding:4px 8px; color:#FFFFFF"><b>Σ</b></td>'
            f'<td style="padding:4px 6px; color:{ink}"><b>{self.tr("output")}</b></td>'
            f'<td align=right style="padding:4px 6px; color:{ink}"><b>=&nbsp;'
            f'<span title="{tooltip_vector(result.output)}">{vector_text(result.output)}</span></b></td></tr>'
        )
        parts.append(self._table(table))

    def _derivation(self, parts: list[str]) -> None:
        scenario, result = self.model.scenario, self.model.result
        i = self.model.selected_key
        colour = key_hex(i)
        label = escaped(scenario.labels[i])
        difference = scenario.query - scenario.keys[i]
        distance2 = float(difference @ difference)  # formatting-level: |Q − K|² for the triangle's third side
        q_norm, k_norm = result.query_norm, float(result.key_norms[i])
        dot = float(result.scores[i])
        cosine, angle = result.cosines[i], result.angles_deg[i]
        key_name = f'<span style="background-color:{colour}; color:{text_on(colour)}">&nbsp;{label}&nbsp;</span>'
        parts.append(
            '<hr/>'
            + self._heading("", self.tr("Why Q·K = |Q||K| cos θ"), "")
            + self._para(self.tr("For Q and the selected key K = {0}. Q, K and Q − K form a triangle; "
                                 "θ is its angle between Q and K.").format(key_name), top=0)
        )
        qn, kn = tip(number_html(q_norm), q_norm), tip(number_html(k_norm), k_norm)
        d2 = tip(number_html(distance2), distance2)
        qn2, kn2 = tip(number_html(q_norm**2), q_norm**2), tip(number_html(k_norm**2), k_norm**2)
        dot_text = tip(number_html(dot), dot)
        minus = f" {MINUS} "
        steps: list[tuple[str, str, str | None]] = []
        cos_text = None if cosine is None else tip(parenthesized_if_negative(cosine, number_html(cosine)), cosine)
        steps.append((
            self.tr("Law of cosines"),
            "|Q − K|² = |Q|² + |K|² − 2|Q||K| cos θ",
            None if cos_text is None else f"{d2} = {qn2} + {kn2}{minus}2 × {qn} × {kn} × {cos_text}",
        ))
        steps.append((
            self.tr("Expand the left side"),
            "|Q − K|² = (Q − K)·(Q − K) = |Q|² − 2 Q·K + |K|²",
            f"{d2} = {qn2}{minus}2 × {parenthesized_if_negative(dot, dot_text)} + {kn2}",
        ))
        steps.append((
            self.tr("Both equal |Q − K|²: |Q|² + |K|² cancels"),
            "−2 Q·K = −2 |Q||K| cos θ",
            None if cos_text is None else
            f"{number_html(-2 * dot)} = {MINUS}2 × {qn} × {kn} × {cos_text}",
        ))
        steps.append((
            self.tr("Divide by −2"),
            "Q·K = |Q||K| cos θ",
            None if cos_text is None else
            f"{dot_text} = {qn} × {kn} × {cos_text}&nbsp;&nbsp;(θ = {tip(f'{angle:.1f}°', angle)})",
        ))
        rows = []
        for n_step, (name, formula, numbers) in enumerate(steps, start=1):
            rows.append(
                f'<tr><td valign="top" style="padding:3px 6px"><b>{n_step}</b></td>'
                f'<td style="padding:3px 6px">{name}:<br/><span style="{self._number_style()}">{formula}</span>'
            )
            if numbers is not None:
                ink = self._ink(WORKED_NUMBERS_HEX)
                rows.append(f'<br/><span style="{self._number_style()}; color:{ink}">{numbers}</span>')
            rows.append("</td></tr>")
        parts.append('<table cellspacing="0" cellpadding="2">' + "".join(rows) + "</table>")
        if cosine is None:
            zero = (self.tr("Q and K are both the zero vector") if q_norm == 0 and k_norm == 0
                    else self.tr("Q is the zero vector") if q_norm == 0 else self.tr("K is the zero vector"))
            parts.append(self._para(self.tr(
                "<b>θ undefined</b>: {0}, so it has no direction and there is no angle. "
                "Q·K = {1} and |Q||K| = 0: the identity holds for any θ."
            ).format(zero, dot_text)))

    # ------------------------------------------------------------ interaction

    def _key_of(self, url: QUrl) -> int | None:
        text = url.toString()
        if text.startswith("key:"):
            try:
                return int(text[4:])
            except ValueError:
                return None
        return None

    def _on_anchor_clicked(self, url: QUrl) -> None:
        index = self._key_of(url)
        if index is None:
            return
        try:
            self.model.select_key(index)
        except ScenarioError as error:
            self.hint.emit(error_text(error))

    def _on_anchor_hovered(self, url: QUrl) -> None:
        index = self._key_of(url)
        if index is None or index >= self.model.scenario.n:
            self.hint.emit("")
            return
        self.hint.emit(self.tr("{0}: click to select this key; hover a number for more decimals.").format(
            self.model.scenario.labels[index]))

