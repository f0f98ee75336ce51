"""The words of the Spot-the-bug page: each variant's name, explanation and code, and its measured symptom.

The core gives ids and numbers (core/teaching/bugs.py); these functions word them in the current language.
Everything returned is rich text built from our own strings and numbers only (tokens are escaped).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from attention_explorer.core.teaching import bugs as b
from attention_explorer.ui.style.numbers import MINUS, cell_number, formatted_number
from attention_explorer.ui.style.safe_text import escaped

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate
CONTEXT = "BugsLab"


def name(bug_id: str) -> str:
    """The variant's short name (a choice's text)."""
    names = {
        b.WRONG_AXIS: _translate("BugsLab", "Softmax over the wrong axis"),
        b.SCALE_D_MODEL: _translate("BugsLab", "Scaled by √d_model, not the head's √d_k"),
        b.MASK_AFTER_SOFTMAX: _translate("BugsLab", "Mask applied after the softmax"),
        b.MASK_WITH_ZERO: _translate("BugsLab", "Masked with 0 instead of −∞"),
        b.ALL_MASKED_NAN: _translate("BugsLab", "A fully masked row gives NaN"),
        b.NO_MAX_SHIFT: _translate("BugsLab", "No max-shift: e^x overflows"),
        b.K_NOT_TRANSPOSED: _translate("BugsLab", "K not transposed"),
        b.SCALE_Q_FIRST: _translate("BugsLab", "Not a bug: q scaled before the dot product"),
    }
    return names[bug_id]


def explanation(bug_id: str) -> str:
    """Why the variant goes wrong (or, for the decoy, why it does not)."""
    texts = {
        b.WRONG_AXIS: _translate(
            "BugsLab", "The softmax ran down the columns (dim=0) instead of along each query's row of keys (dim=−1). "
            "Every key's column now sums to 1: the queries compete for a key, and a query's weights no longer add "
            "up to 1."),
        b.SCALE_D_MODEL: _translate(
            "BugsLab", "A head's q·k adds d_k products, so it is divided by √d_k. Dividing by √d_model = √(h·d_k) "
            "shrinks every score by a further √h: the same scores at a higher temperature, flatter weights."),
        b.MASK_AFTER_SOFTMAX: _translate(
            "BugsLab", "The masked weights were set to 0 after the softmax had shared 1 among all keys, the masked "
            "ones too. What the visible keys keep no longer adds up to 1; the first query keeps least."),
        b.MASK_WITH_ZERO: _translate(
            "BugsLab", "A masked score set to 0 (or 1e−9) still gets e⁰ = 1 in the softmax, so the masked keys keep "
            "weight: as much as any key whose score is 0. Only −∞ (or a very large negative number) gives e^x = 0."),
        b.ALL_MASKED_NAN: _translate(
            "BugsLab", "This query may look at no key at all (padding masked both as a query and as a key). Its "
            "scores are all −∞, the max-shift gives −∞ − (−∞) = NaN, and NaN spreads to the output and, in "
            "training, to every gradient. Give such rows zero weights, or leave them out."),
        b.NO_MAX_SHIFT: _translate(
            "BugsLab", "The softmax was written as e^x / Σe^x. Scores near 1000 give e^x = inf (float64 stops at "
            "e^709.78, float16 at e^11), and inf/inf is NaN. Subtracting each row's maximum first changes no "
            "weight and keeps every e^x at most 1."),
        b.K_NOT_TRANSPOSED: _translate(
            "BugsLab", "Q·K instead of Q·Kᵀ. When d_k ≠ N the product fails with a shape error. Here N = d_k = 4, "
            "so it runs: each query meets the keys' columns, not the keys. Every row still sums to 1 and nothing "
            "complains, but the weights are wrong."),
        b.SCALE_Q_FIRST: _translate(
            "BugsLab", "(q/√d_k)·k = (q·k)/√d_k: the factor may go on q, on the scores, or be split between q and "
            "k. The weights are the same to rounding. It was reported as a bug; it is not one (and it saves "
            "work: d_k divisions per query instead of N)."),
    }
    return texts[bug_id]


CODE = {  # (the buggy line, the right one): code, the same in every language
    b.WRONG_AXIS: ("w = softmax(s, dim=0)", "w = softmax(s, dim=-1)"),
    b.SCALE_D_MODEL: ("s = q @ k.T / d_model ** 0.5", "s = q @ k.T / d_k ** 0.5"),
    b.MASK_AFTER_SOFTMAX: ("w = softmax(s).masked_fill(mask, 0)", "w = softmax(s.masked_fill(mask, -inf))"),
    b.MASK_WITH_ZERO: ("w = softmax(s.masked_fill(mask, 0))", "w = softmax(s.masked_fill(mask, -inf))"),
    b.ALL_MASKED_NAN: ("w = softmax(s.masked_fill(mask, -inf))", "w = where(mask.all(-1), 0, w)"),
    b.NO_MAX_SHIFT: ("e = exp(s); w = e / e.sum(-1)", "e = exp(s - s.max(-1)); w = e / e.sum(-1)"),
    b.K_NOT_TRANSPOSED: ("s = q @ k / d_k ** 0.5", "s = q @ k.T / d_k ** 0.5"),
    b.SCALE_Q_FIRST: ("s = (q / d_k ** 0.5) @ k.T", "s = (q @ k.T) / d_k ** 0.5"),
}


def code_html(bug_id: str) -> str:
    """The variant's line of code and the right one, in a fixed-width font."""
    wrong, right = CODE[bug_id]
    decoy = bug_id == b.SCALE_Q_FIRST
    first = _translate("BugsLab", "this code:") if decoy else _translate("BugsLab", "buggy:")
    second = _translate("BugsLab", "the same as:") if decoy else _translate("BugsLab", "right:")
    return (f"<table cellspacing='0' cellpadding='1'><tr><td>{first}&nbsp;</td><td><code>{escaped(wrong)}"
            f"</code></td></tr><tr><td>{second}&nbsp;</td><td><code>{escaped(right)}</code></td></tr></table>")


def seen_html(bug_id: str, link_hex: str = "#1F5FBF") -> str:
    """Where the variant was seen, as links (in `link_hex`, readable on the theme); or that no report is named."""
    seen = b.bug(bug_id).seen
    if not seen:
        return _translate("BugsLab", "Seen in: countless hand-written attention codes; no single public report "
                                     "is named here.")
    links = ", ".join(f'<a href="{escaped(s.url)}" style="color:{link_hex}">{escaped(s.label)}</a>' for s in seen)
    if bug_id == b.SCALE_Q_FIRST:
        return _translate("BugsLab", "Reported as a bug in: {0}").format(links)
    return _translate("BugsLab", "Seen in: {0}").format(links)


def _number(value: float, decimals: int = 3) -> str:
    return cell_number(value, decimals)


def _token(case: b.Case, row: int) -> str:
    return escaped(case.scene.tokens[row])


def symptom_html(case: b.Case) -> str:
    """The symptom measured on screen, with its numbers."""
    s = case.symptom
    row = s.worst_row
    if s.kind == b.OVERFLOW:
        return _translate(
            "BugsLab", "Scores reach <b>{0}</b>: e^{0} overflows to inf in {1} of {2} exponentials (float64 stops "
            "at e^709.78), and inf/inf gives <b>NaN</b> in {3} weights.").format(
            formatted_number("{:.1f}", s.largest_score), s.inf_exponentials, case.scene.n ** 2, s.nan_cells)
    if s.kind == b.NAN:
        return _translate(
            "BugsLab", "<b>NaN</b> in row {0} (“{1}”): {2} weights. That query has no key it may look at; "
            "no exponential overflowed.").format(row, _token(case, row), s.nan_cells)
    if s.kind == b.MASKED_WEIGHT:
        return _translate(
            "BugsLab", "Masked keys get weight: up to <b>{0}</b> in row {1} (“{2}”), though every row still sums "
            "to 1.").format(_number(s.masked_weight), row, _token(case, row))
    if s.kind == b.ROW_SUMS:
        text = _translate("BugsLab", "Row {0} (“{1}”) sums to <b>{2}</b>, not 1.").format(
            row, _token(case, row), _number(s.row_sums[row]))
        if all(abs(total - 1.0) < 1e-9 for total in s.column_sums):
            text += " " + _translate("BugsLab", "Every column sums to 1 instead.")
        return text
    if s.kind == b.TEMPERATURE:
        flatter = s.temperature < 1
        words = (_translate("BugsLab", "Every score × <b>{0}</b>: the same scores at another temperature, flatter "
                                       "weights (entropy {1} → {2} bits a row).") if flatter else
                 _translate("BugsLab", "Every score × <b>{0}</b>: the same scores at another temperature, sharper "
                                       "weights (entropy {1} → {2} bits a row)."))
        return words.format(_number(s.temperature), _number(s.entropy_right, 2), _number(s.entropy_wrong, 2))
    if s.kind == b.DIFFERENT:
        text = _translate("BugsLab", "No error, no NaN, every row sums to 1, but the weights are wrong: up to "
                                     "<b>{0}</b> off in row {1} (“{2}”).").format(
            _number(s.max_difference), row, _token(case, row))
        if case.bug.id == b.K_NOT_TRANSPOSED:
            text += " " + _translate("BugsLab", "With N ≠ d_k the same code stops with a shape error.")
        return text
    return _translate("BugsLab", "None: the weights equal the right ones to {0} (rounding).").format(
        f"{max(s.max_difference, 1e-16):.0e}".replace("-", MINUS))


def row_sums_text(sums: tuple[float, ...]) -> str:
    """"Σ per row: 1.00 · 0.62 · …"."""
    shown = " · ".join("NaN" if total != total else cell_number(total, 2) for total in sums)
    return _translate("BugsLab", "Σ per row: {0}").format(shown)
