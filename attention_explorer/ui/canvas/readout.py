"""The canvas's live readout: θ, cos θ, the norms and Q·K of the selected key, under the plot or beside it.

Mixed into VectorCanvas: it reads the canvas's model and items and writes only the readout and its side column.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QTextDocument

from attention_explorer.ui.style.numbers import MINUS, number_html
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import key_hex, theme, theme_ink

# The texts keep the canvas's translation context: this class is mixed into VectorCanvas.
_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate


class CanvasReadout:
    """The readout part of VectorCanvas (the numbers of the selected key, sized so that nothing wraps)."""

    def _update_readout(self) -> None:
        result = self.model.result
        scenario = self.model.scenario
        selected = self.model.selected_key
        pt = theme().number_pt() * self._readout_scale
        color = key_hex(selected)
        if theme().mode == "contrast":
            color = theme_ink(color)  # 7:1 on black: K3's teal was dark
        q = f"<b style='color:{self.query.color.name()}'>Q</b>"
        k = f"<b style='color:{color}'>{escaped(scenario.labels[selected]).replace(' ', '&nbsp;')}</b>"
        dot = number_html(float(result.scores[selected]))
        q_norm = number_html(result.query_norm)
        k_norm = number_html(float(result.key_norms[selected]))
        cosine = result.cosines[selected]
        angle = result.angles_deg[selected]
        sep = "&nbsp;&nbsp;&nbsp; "
        norms = f"{_bars(q)}&nbsp;=&nbsp;<b>{q_norm}</b>{sep}{_bars(k)}&nbsp;=&nbsp;<b>{k_norm}</b>"
        score = f"{q}·{k}&nbsp;=&nbsp;<b>{dot}</b>"
        if self._side_shown:
            product = "" if cosine is None else number_html(
                result.query_norm * float(result.key_norms[selected]) * cosine)
            rows = self._rows_beside(q, k, q_norm, k_norm, dot, None if cosine is None else number_html(cosine),
                                     None if angle is None else f"{angle:.1f}", product)
            if (scenario.labels[selected], pt, self.width()) != self._side_sized_for:
                self._side_sized_for = (scenario.labels[selected], pt, self.width())
                self._size_side()
        elif angle is None or cosine is None:
            undefined = _translate("VectorCanvas", "θ undefined")
            why = _translate("VectorCanvas", "a zero vector has no direction")
            rows = (f"<b>{undefined}</b>{sep}{norms}", f"{score}{sep}<i>({why})</i>")
        else:
            product = number_html(result.query_norm * float(result.key_norms[selected]) * cosine)
            # Plain spaces only before '=': a line may break there and nowhere inside a number or a product.
            cos_text = number_html(cosine)  # the minus sign, never a hyphen ("cos θ = −0.006")
            rows = (f"θ&nbsp;=&nbsp;<b>{angle:.1f}°</b>{sep}cos&nbsp;θ&nbsp;=&nbsp;<b>{cos_text}</b>{sep}{norms}",
                    score,
                    f"{_bars(q)}{_bars(k)}&nbsp;cos&nbsp;θ =&nbsp;{q_norm}&nbsp;×&nbsp;{k_norm}&nbsp;×&nbsp;"
                    f"{number_html(cosine)} =&nbsp;<b>{product}</b>")
        self.readout.setText(self._readout_html(rows, pt))

    def _rows_beside(self, q: str, k: str, q_norm: str, k_norm: str, dot: str, cosine: str | None,
                     angle: str | None, product: str) -> list[str]:
        """The readout beside the plot: one fact a line, none of them long enough to wrap."""
        rows = []
        if angle is None or cosine is None:
            undefined = _translate("VectorCanvas", "θ undefined")
            why = _translate("VectorCanvas", "a zero vector has no direction")
            rows += [f"<b>{undefined}</b>", f"<i>({why})</i>"]
        else:
            rows += [f"θ&nbsp;=&nbsp;<b>{angle}°</b>", f"cos&nbsp;θ&nbsp;=&nbsp;<b>{cosine}</b>"]
        rows += [f"{_bars(q)}&nbsp;=&nbsp;<b>{q_norm}</b>", f"{_bars(k)}&nbsp;=&nbsp;<b>{k_norm}</b>",
                 f"{q}·{k}&nbsp;=&nbsp;<b>{dot}</b>"]
        if angle is not None and cosine is not None:
            rows += [f"{_bars(q)}{_bars(k)}&nbsp;cos&nbsp;θ", f"=&nbsp;{q_norm}&nbsp;×&nbsp;{k_norm}",
                     f"×&nbsp;{cosine}&nbsp;=&nbsp;<b>{product}</b>"]
        return rows

    def _readout_html(self, rows: list[str], pt: float) -> str:
        return f"<div style='font-size:{pt:.1f}pt; color:{self._text_hex}'>" + "<br>".join(rows) + "</div>"

    def set_readout_scale(self, scale: float) -> None:
        """The readout's type size relative to the theme's numbers (presentation: larger, for the back row)."""
        self._readout_scale = scale
        self._update_readout()
        self._size_side()

    @property
    def beside(self) -> bool:
        """Whether the notes and the readout stand beside the plot (presentation) rather than under it."""
        return self._side_shown

    def set_beside(self, beside: bool) -> None:
        """Presentation: the notes and the readout in a column beside the plot, one fact a line, the plot the whole
        height; the desk: under the plot again."""
        if beside == self._side_shown:
            return
        self._side_shown = beside
        self._place_texts()
        self._update_readout()
        self._size_side()

    def _place_texts(self) -> None:
        widgets = (self.note, self.message, self._readout_host)
        for widget in widgets:
            self._under.removeWidget(widget)
            self._beside.removeWidget(widget)
        if self._side_shown:  # the numbers first: what the hall reads; the notes under them
            for at, widget in enumerate((self._readout_host, self.note, self.message)):
                self._beside.insertWidget(at, widget)
            self.readout.setWordWrap(False)  # one fact a line, the column as wide as the widest
        else:
            for widget in widgets:
                self._under.addWidget(widget)
            self.readout.setWordWrap(True)
        self.side.setVisible(self._side_shown)
        # The hall: no band above or below the plot; every pixel of height is the figure's.
        self.layout().setContentsMargins(4, 0 if self._side_shown else 4, 4, 0 if self._side_shown else 4)
        if self._drawn and self._auto_fit:
            self.fit()  # framed by the hall's rule, or the desk's again
        for widget in widgets[:2]:
            widget.setVisible(bool(widget.text()))
        self._readout_host.show()

    def _size_side(self) -> None:
        """The column's width: the readout with every number at its widest (a minus sign, more digits) and the
        key's name, so no drag or turn ever changes it; at most 40 % of the canvas (a longer name scrolls)."""
        if not self._side_shown:
            return
        label = self.model.scenario.labels[min(self.model.selected_key, self.model.scenario.n - 1)]
        q = "<b>Q</b>"
        k = f"<b>{escaped(label).replace(' ', '&nbsp;')}</b>"
        # Lengths to 99.999 and products to −999.999: ten times the longest vector a lesson draws. Beyond, the
        # column keeps its width and its text scrolls: the plot never moves under the mouse.
        rows = self._rows_beside(q, k, "88.888", "88.888", f"{MINUS}888.888", f"{MINUS}1.000", "180.0",
                                 f"{MINUS}888.888")
        document = QTextDocument()
        document.setDefaultFont(self.readout.font())
        document.setHtml(self._readout_html(rows, theme().number_pt() * self._readout_scale))
        margins = self.readout.contentsMargins()
        width = math.ceil(document.idealWidth() + 2 * document.documentMargin() + margins.left() + margins.right())
        width += self.side.verticalScrollBar().sizeHint().width() + 4
        self.side.setFixedWidth(min(width, int(0.4 * max(self.width(), 600))))

    # ------------------------------------------------------------ language


def _bars(name: str) -> str:
    """∣name∣ with U+2223: it looks like '|' but, unlike '|', is no line-break opportunity."""
    return f"\u2223{name}\u2223"
