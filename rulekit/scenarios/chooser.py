"""Scripted answers: each seat's list consumed in the order the questions come, then the default chooser."""

from __future__ import annotations

from typing import Any

from rulekit.core.default import DefaultChooser
from rulekit.core.questions import KINDS, NUMBER_KINDS, Ask, Observation, Question
from rulekit.scenarios.reader import Answer

_NO_OPTION = object()
SHOWN_AT_MOST = 12


class IllegalAnswer(Exception):
    """A scripted answer that is not one of the question's legal answers."""

    def __init__(self, seat: int, number: int, answer: Answer, question: Question, obs: Observation):
        self.seat = seat
        self.answer = answer
        self.question = question
        legal = legal_answers(question, obs)
        super().__init__(f"P{seat + 1}'s answer {number} `{answer.text}` (line {answer.span.line}) is not legal: "
                         f"{ask_text(question, obs)}; legal answers: {legal}")


class ScriptedChooser:
    """One seat's scripted answers, in order; the scenario default chooser once they run out."""

    name = "scripted"

    def __init__(self, seat: int, answers: list[Answer], trace=None):
        self.seat = seat
        self.answers = list(answers)
        self.used = 0
        self.default = DefaultChooser()
        self.trace = trace

    def choose(self, obs: Observation, q: Question) -> int:
        if self.used >= len(self.answers):
            k = self.default.choose(obs, q)
            self.note(obs, q, q.options[k], "default")
            return k
        answer = self.answers[self.used]
        self.used += 1
        option = to_option(answer, q)
        if option is _NO_OPTION or option not in q.options:
            raise IllegalAnswer(self.seat, self.used, answer, q, obs)
        self.note(obs, q, option, f"scripted, line {answer.span.line}")
        return q.options.index(option)

    def unused(self) -> list[Answer]:
        return self.answers[self.used:]

    def note(self, obs: Observation, q: Question, option: Any, how: str) -> None:
        if self.trace is not None:
            self.trace.append(f"{ask_text(q, obs)}: {shown_answer(q, option, obs)} ({how})")


def to_option(answer: Answer, q: Question) -> Any:
    """The option a scripted answer stands for in this question, or _NO_OPTION (a form the question's
    kind does not take: core.questions.KINDS says which it takes)."""
    form, value = answer.form, answer.value
    if form not in KINDS[q.kind].scripted:
        return _NO_OPTION
    if form == "card":
        if q.kind is Ask.ACTION:
            execute = ("execute", value.id)
            return execute if execute in q.options else ("play", value.id)
        return value.id
    if form == "pass":
        return ("pass",)
    if form == "done":
        return "done"
    if form == "none":
        return None
    return value            # a number, yes / no, a cell, an action, a seat


def ask_text(q: Question, obs: Observation) -> str:
    words = KINDS[q.kind].asks
    about = []
    if q.card is not None:
        about.append(_card_name(q.card, obs))
    if q.text:
        about.append(q.text)
    return f"P{q.seat + 1} was asked {words}" + (f" ({'; '.join(about)})" if about else "")


def legal_answers(q: Question, obs: Observation) -> str:
    options = q.options
    if q.kind in NUMBER_KINDS and len(options) > 2:
        lo, hi = options[0], options[-1]
        if isinstance(options, range) or list(options) == list(range(lo, hi + 1)):
            return f"a number from {lo} to {hi}"
    options = list(options)
    shown = [shown_answer(q, o, obs) for o in options[:SHOWN_AT_MOST]]
    more = len(options) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def shown_answer(q: Question, option: Any, obs: Observation) -> str:
    """An answer to this question as it would be written in `choices:` (a seat is P1, P2 …)."""
    if q.kind.value == "player":
        return f"P{option + 1}"
    return shown_option(option, obs)


def shown_option(option: Any, obs: Observation) -> str:
    """An option as it would be written in `choices:`."""
    if isinstance(option, bool):
        return "yes" if option else "no"
    if option is None:
        return "none"
    if isinstance(option, str):
        return option if option == "done" else _card_name(option, obs)
    if isinstance(option, tuple) and len(option) == 2 and all(isinstance(x, int) for x in option):
        return f"[{option[0]}, {option[1]}]"
    if isinstance(option, tuple) and option and isinstance(option[0], str):
        word, args = option[0], option[1:]
        if word == "pass":
            return "pass"
        if word == "play":
            return _card_name(args[0], obs)
        parts = [_card_name(a, obs) if isinstance(a, str) else shown_option(a, obs) for a in args]
        return f"[{word}, {', '.join(parts)}]"
    return str(option)


def _card_name(card_id: str, obs: Observation) -> str:
    card = obs.card(card_id)
    return card.name if card is not None else card_id
