"""The words of a question and of its reveal, in the current language, from the core's question and verdict."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.core.scenes.sequence.scene import SequenceScenario
from attention_explorer.core.teaching import questions as qs
from attention_explorer.ui.style.numbers import factor_text, three_decimals

_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate


def question_text(question: qs.Question, scene: Scenario | SequenceScenario) -> str:
    """What the panel asks (plain text: labels and tokens come from files)."""
    kind = question.kind
    if kind == qs.LARGEST_WEIGHT:
        return _translate("QuestionPanel", "Which key gets the largest weight? Click it: its bar, its arrow or its V.")
    if kind == qs.WEIGHT_HALF:
        return _translate("QuestionPanel", "Drag {0} so that its weight is about {1}, then press Check.").format(
            scene.labels[question.key], f"{question.target:.2f}")
    if kind == qs.OUTPUT_PLACE:
        return _translate("QuestionPanel", "Where will the output land? Click the spot in the output view.")
    if kind == qs.FLATTER_SHARPER:
        if question.scaled:
            return _translate("QuestionPanel", "d_k goes from {0} to {1} with the scale 1/√d_k on: do the weights get "
                                               "flatter or sharper?").format(question.d_from, question.d_to)
        if question.factor == 1.0:
            return _translate("QuestionPanel", "d_k goes from {0} to {1} with the scale off: do the weights get "
                                               "flatter or sharper?").format(question.d_from, question.d_to)
        return _translate("QuestionPanel", "d_k goes from {0} to {1} with the factor kept at × {2}: do the weights get "
                                           "flatter or sharper?").format(question.d_from, question.d_to,
                                                                         factor_text(question.factor))
    token = scene.tokens[question.token]
    return _translate("QuestionPanel", "Which position does “{0}” (token {1}) attend to most? Click a cell of its "
                               "row.").format(token, question.token + 1)


def _opening(verdict: qs.Verdict | None) -> str:
    if verdict is None:
        return _translate("QuestionPanel", "No answer. The truth:")
    return _translate("QuestionPanel", "✓ Right.") if verdict.correct else _translate("QuestionPanel", "✗ Not quite.")


def reveal_text(question: qs.Question, scene: Scenario | SequenceScenario, verdict: qs.Verdict | None) -> str:
    """The truth next to the guess (`verdict` None: skipped, the truth alone), numbers from the core."""
    return f"{_opening(verdict)} {_truth(question, scene, verdict)}"


def _truth(question: qs.Question, scene: Scenario | SequenceScenario, verdict: qs.Verdict | None) -> str:
    kind = question.kind
    if kind in (qs.LARGEST_WEIGHT, qs.ATTEND_MOST):
        return _largest(question, scene, verdict)
    if kind == qs.WEIGHT_HALF:
        verdict = verdict or qs.check_weight(question, scene)
        return _translate("QuestionPanel", "{0}'s weight is {1}, {2} from the target {3} (tolerance ±{4}).").format(
            scene.labels[question.key], three_decimals(verdict.guess[0]), three_decimals(verdict.distance),
            f"{question.target:.2f}", f"{question.tolerance:.2f}")
    if kind == qs.OUTPUT_PLACE:
        output = scene.compute().output
        truth = _translate("QuestionPanel", "The output is ({0}, {1}).").format(
            three_decimals(output[0]), three_decimals(output[1]))
        if verdict is None:
            return truth
        guess = _translate("QuestionPanel", "Your click ({0}, {1}) is {2} away (within {3} counts).").format(
            three_decimals(verdict.guess[0]), three_decimals(verdict.guess[1]), three_decimals(verdict.distance),
            three_decimals(question.tolerance))
        return f"{truth} {guess}"
    answer, before, after = qs.flatter_or_sharper(scene, question)
    if answer == qs.SHARPER:
        truth = _translate("QuestionPanel", "The weights get sharper: entropy {0} → {1} bits.")
    else:
        truth = _translate("QuestionPanel", "The weights get flatter: entropy {0} → {1} bits.")
    return truth.format(three_decimals(before), three_decimals(after))


def _largest(question: qs.Question, scene: Scenario | SequenceScenario, verdict: qs.Verdict | None) -> str:
    if question.kind == qs.ATTEND_MOST:
        names, weights = scene.tokens, scene.compute().weights[question.token]
        best = qs.largest_keys(weights)[0]
        truth = _translate("QuestionPanel", "“{0}” attends most to “{1}” (position {2}), weight {3}.").format(
            names[question.token], names[best], best + 1, three_decimals(weights[best]))
    else:
        names, weights = scene.labels, scene.compute().weights
        best = qs.largest_keys(weights)[0]
        truth = _translate("QuestionPanel", "{0} gets the largest weight, {1}.").format(names[best],
                                                                               three_decimals(weights[best]))
    if verdict is None or verdict.correct:
        return truth
    guess = int(verdict.guess[0])
    chosen = _translate("QuestionPanel", "You chose {0} ({1}).").format(names[guess], three_decimals(weights[guess]))
    return f"{chosen} {truth}"


def score_text(score: qs.Score) -> str:
    """"Score 2 of 3"."""
    return _translate("QuestionPanel", "Score {0} of {1}").format(score.right, score.asked)


def idle_text() -> str:
    """What the panel says in question mode before the next question."""
    return _translate("QuestionPanel", "Question mode: press → or Page Down; a question comes before each hidden step.")
