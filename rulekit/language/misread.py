"""What a designer most likely meant where the grammar stops: plain messages for the usual misreadings.

The parser (rulekit.language.parser) asks `explain` before its generic "expected …" message, so a
line written as another language would write it is told what is actually wrong and how to write it
here: a declaration inside a handler, a condition where a trigger goes,
`me.money`, a floor below zero. Each answer says how the parser may mend the line to read on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekit import registry
from rulekit.language.diagnostics import nearest

DECLARATIONS = ("modify", "shield", "seal", "skip", "floor", "ceiling")
_TRIGGER_OPENERS = ("when", "once", "react")
_OPERATORS = ("COMP_OP", "AND", "OR", "NOT", "EQUAL")      # what a condition has and a trigger never
_ROLL_WORD = re.compile(r"\broll\s*\([^,()]*,\s*([^\W\d]\w*)\s+$")    # `roll(6, WORD ` up to the token


@dataclass(frozen=True)
class Misread:
    """A message and its hint; `mend` says how the line can be mended: 'stand_in' (a harmless statement
    takes its place), 'drop' (the characters at the token are removed) or '' (it cannot)."""

    message: str
    hint: str | None
    mend: str = ""
    col: int = 0           # where the mistake is, when not at the token (1-based), and its width
    width: int = 0


def explain(line: str, tok_type: str, tok_value: str, col: int, top: bool, expected: set[str]) -> Misread | None:
    """The misreading of `line` where the parser stopped at a token (col: 1-based), if it is a known one."""
    words = line.split()
    first = words[0] if words else ""
    code = line.strip()
    if tok_value in DECLARATIONS and not top and line[:col - 1].strip() == "":
        return Misread(
            f"`{code}` is a declaration: declarations go at the top level of the effect, not inside a handler",
            f"move `{code}` to its own unindented line, outside the handler: it then holds for as long as the card "
            "is in play (a declaration cannot depend on a moment; to make it hold only while a condition is true, "
            "end it with `while COND`)", "stand_in")
    if top and first in _TRIGGER_OPENERS:
        return _trigger_line(code, first, tok_type, tok_value, col - (len(line) - len(line.lstrip())))
    if tok_type == "ME" and line[col - 1 + len(tok_value):col + len(tok_value)] == ".":
        track = _word_after(line, col + len(tok_value))
        return Misread(
            f"`me.{track}`: the language has no '.', and `me` only opens a block (`me:`)",
            f"inside another player's block, note your own value before it with `let mine = {track}` and read `mine`; "
            f"or open `me:` and write `{track}` in it (see docs/language.md 5.7b)", "stand_in")
    roll = _ROLL_WORD.search(line[:col - 1])
    if roll is not None and roll.group(1) != "rerolls" and nearest(roll.group(1), ["rerolls"]) == "rerolls":
        word = roll.group(1)
        return Misread(f"unknown word '{word}' — did you mean 'rerolls'?",
                       "write `roll(6, rerolls 1)`: the player sees the die and may roll it again once", "",
                       roll.start(1) + 1, len(word))
    if tok_type == "MINUS" and expected == {"INT"} and line[:col - 1].rstrip().endswith(" min"):
        value = _word_after(line, col)
        target = words[1] if first == "modify" and len(words) > 1 else ""
        if target in registry.SETTABLE:
            return Misread(
                f"`modify {target}`: '{target}' is a track, and `modify` changes a quantity (such as new_mild or "
                "income), so it cannot hold a track above a floor",
                f"a floor on a track (\"{target} cannot fall below -{value}\") is not in the language yet; change the track "
                f"with `{target} += …` in a handler, or modify one of: {', '.join(registry.QUANTITIES)}", "",
                line.index(target, line.index("modify") + 6) + 1, len(target))
        return Misread(
            f"`min -{value}`: the floor of `modify` is a whole number of 0 or more",
            "`min N` keeps the quantity from falling below N; a floor below 0 is not in the language", "drop")
    return None


def _word_after(line: str, col: int) -> str:
    rest = line[col:]
    n = 0
    while n < len(rest) and (rest[n].isalnum() or rest[n] == "_"):
        n += 1
    return rest[:n] or "…"


def _trigger_line(code: str, first: str, tok_type: str, tok_value: str, at: int) -> Misread | None:
    head = "once when" if first == "once" else first
    if tok_type in _OPERATORS and first != "react":
        condition = code[len(head):].strip().rstrip(":").strip()
        return Misread(
            f"`{head} {condition}`: `{head}` takes a trigger (a moment such as `death` or `unsold`), not a condition",
            f"for the first time it holds, write `once when becomes {condition}:` (docs/language.md 5.41); or check "
            f"it in a handler: `on round end:` then `if {condition}:`; triggers: {', '.join(registry.TRIGGERS)}", "")
    return None
