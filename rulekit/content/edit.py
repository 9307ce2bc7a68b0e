"""One number of a card, found where its YAML file writes it and changed there alone, comments and layout kept."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from rulekit import registry
from rulekit.model import Card
from rulekit.content.yamlpos import Span, decode, parse_bytes, read_bytes

BOM = "\ufeff"
# A whole number as the file may write it for us to rewrite: no sign but '-', no leading zero, no `_`,
# no 0x/0o, no quotes — what YAML reads as that number and nothing else.
_PLAIN_INT = re.compile(r"-?(0|[1-9][0-9]*)")
# PyYAML's line breaks: what its marks count lines by ('\r' alone is one, '\r\n' is one).
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


class EditError(Exception):
    """The number cannot be found, or cannot be changed safely; the message says where and why."""


@dataclass(frozen=True)
class Field:
    """Which number of a card: its price (the k-th of a repeatable card's), its endgame score, or a parameter."""

    kind: str           # price | score | param
    index: int = 1      # price: which execution's price, from 1
    name: str = ""      # param: its name under `params:`

    @classmethod
    def parse(cls, text: str) -> Field:
        """`price`, `price[2]`, `score` or `params.NAME`; ValueError saying how to write it."""
        text = text.strip()
        if text == "price":
            return cls("price")
        if text == "score":
            return cls("score")
        m = re.fullmatch(r"price\[([0-9]{1,3})\]", text)
        if m and int(m.group(1)) >= 1:
            return cls("price", int(m.group(1)))
        m = re.fullmatch(r"params\.([^\W\d]\w*)", text)
        if m:
            return cls("param", name=m.group(1))
        raise ValueError(f"'{text}' is not a number of a card tune can change: write price (the first price), "
                         f"price[2] (the price of the 2nd execution), score, or params.NAME")

    @property
    def label(self) -> str:
        if self.kind == "param":
            return f"params.{self.name}"
        return "price" if self.kind == "price" and self.index == 1 else (
            f"price[{self.index}]" if self.kind == "price" else "score")

    @property
    def words(self) -> str:
        """What the number is, in Chinese and English, for the table's heading."""
        if self.kind == "price":
            return "价格 price" if self.index == 1 else f"第 {self.index} 次的价格 price[{self.index}]"
        return "终局分 score" if self.kind == "score" else f"参数 {self.name}"

    @property
    def bounds(self) -> tuple[int, int]:
        """The values the card's schema allows."""
        return (0 if self.kind == "price" else -registry.MAX_NUMBER), registry.MAX_NUMBER

    def value(self, card: Card) -> int:
        """The card's value of this number; EditError when the card has no such number."""
        where = f"{card.where}: {card.label}"
        if self.kind == "param":
            params = dict(card.params)
            if self.name not in params:
                have = ", ".join(params) or "none"
                raise EditError(f"{where} has no parameter '{self.name}' (its params: {have}); add it under "
                                f"`params:` and read it in the effect, e.g. `params: {{{self.name}: 2}}`")
            return params[self.name]
        if card.kind != "policy":
            raise EditError(f"{where} is {'an' if card.kind[0] in 'ae' else 'a'} {card.kind}: only a policy has a "
                            f"{self.kind}; tune one of its parameters instead (--field params.NAME)")
        if self.kind == "score":
            return card.score
        if self.index > len(card.price):
            raise EditError(f"{where} has {len(card.price)} price{'s' if len(card.price) != 1 else ''} "
                            f"({list(card.price)}), so it has no price[{self.index}]")
        return card.price[self.index - 1]

    def path(self, card: Card) -> tuple:
        """Where the number stands inside the card's YAML mapping."""
        if self.kind == "param":
            return ("params", self.name)
        if self.kind == "score":
            return ("score",)
        return ("price", self.index - 1) if len(card.price) > 1 or self.index > 1 else ("price",)


@dataclass(frozen=True)
class Spot:
    """Where one number is written: its file, the characters of its text, and what they say."""

    file: str           # as the card records it (a path inside the content folder)
    line: int
    col: int
    start: int          # character offsets of the number's text in the file's decoded text
    end: int
    value: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def locate(card: Card, field: Field) -> tuple[Spot, bytes]:
    """Where the card's file writes this number, and the file's bytes as read; EditError when the number is
    not written as a plain whole number of its own (an alias, an anchor, a tag, quotes, a missing line)."""
    raw, problem = read_bytes(card.file, card.file)
    if problem is not None:
        raise EditError(f"{card.file}: {problem.message}")
    located, diags = parse_bytes(raw, card.file)
    if located is None:
        raise EditError(f"{card.file} cannot be read as YAML now ({diags[0].message if diags else 'unreadable'})")
    text, _ = decode(raw, card.file)
    base = _card_path(located.data, card.id)
    if base is None:
        raise EditError(f"{card.file} no longer holds the card {card.label}: was it edited since it was loaded?")
    path = base + field.path(card)
    label = f"{card.where}: {card.label}"
    if located.values.get(path) is None:
        if field.kind == "score":
            raise EditError(f"{label} has no `score:` line (its score is the default, 0), so there is no number "
                            f"to change: add `score: 0` under its `price:` line and run again")
        raise EditError(f"{label}: cannot find where {field.label} is written")
    starts = _line_starts(text)
    card_span = located.span(base)
    for k in range(len(base) + 1, len(path) + 1):
        span = located.span(path[:k])
        written = _text(text, starts, span)
        if written.startswith(("&", "*", "!")) or not _inside(span, card_span):
            raise EditError(f"{_at(card.file, span)}: {field.label} of {card.label} is written through a YAML anchor, "
                            f"alias or tag (`&name`, `*name`, `!tag`), so changing it here would change other values "
                            f"too: write the number out in the card itself, then run again")
    span = located.span(path)
    written = _text(text, starts, span)
    value = field.value(card)
    if not _PLAIN_INT.fullmatch(written) or int(written) != value:
        raise EditError(f"{_at(card.file, span)}: {field.label} of {card.label} is written as `{written}`, not as a "
                        f"plain whole number such as {value}: write it so, then run again")
    assert span is not None     # a plain whole number was found above, so it has a place
    start = starts[span.line - 1] + span.col - 1
    return Spot(card.file, span.line, span.col, start, start + len(written), value), raw


def rewritten(raw: bytes, spot: Spot, value: int) -> bytes:
    """The file's bytes with only the number's characters changed to `value`."""
    text, _ = decode(raw, spot.file)
    old = text[spot.start:spot.end]
    if not _PLAIN_INT.fullmatch(old) or int(old) != spot.value:
        raise EditError(f"{spot.where}: the file no longer writes {spot.value} here")
    bom = BOM if raw.startswith(BOM.encode("utf-8")) else ""
    return (bom + text[:spot.start] + str(value) + text[spot.end:]).encode("utf-8")


def write(spot: Spot, raw: bytes, value: int) -> None:
    """Change the number in its file (a link is followed: the file it leads to is changed), refusing when the
    file is no longer the bytes it was read as. The file is replaced whole, so it is never half-written."""
    target = Path(os.path.realpath(spot.file))
    now, problem = read_bytes(target, spot.file)
    if problem is not None:
        raise EditError(f"{spot.file}: {problem.message}")
    if now != raw:
        raise EditError(f"{spot.file} changed while tune ran, so it was left as it is: run tune again on the new "
                        f"file, or write {value} at line {spot.line} yourself")
    new = rewritten(raw, spot, value)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tune.tmp")
    try:
        mode = os.stat(target).st_mode & 0o7777
        with open(tmp, "xb") as f:
            f.write(new)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise EditError(f"cannot write {spot.file}: {err.strerror or err}") from None


def _card_path(data, card_id: str) -> tuple | None:
    """The path of the card with this id in its file's data: () for a file of one card, (i,) in a list."""
    if isinstance(data, dict):
        return () if data.get("id") == card_id else None
    if isinstance(data, list):
        found = [i for i, item in enumerate(data) if isinstance(item, dict) and item.get("id") == card_id]
        return (found[0],) if len(found) == 1 else None
    return None


def _line_starts(text: str) -> list[int]:
    """The offset of each line's first character, lines counted as YAML's marks count them."""
    return [0] + [m.end() for m in _BREAK.finditer(text)]


def _text(text: str, starts: list[int], span: Span | None) -> str:
    if span is None or span.line > len(starts) or span.end_line > len(starts):
        return ""
    return text[starts[span.line - 1] + span.col - 1:starts[span.end_line - 1] + span.end_col - 1]


def _inside(span: Span | None, outer: Span | None) -> bool:
    if span is None or outer is None:
        return False
    return (outer.line, outer.col) <= (span.line, span.col) and (span.end_line, span.end_col) <= (outer.end_line,
                                                                                                 outer.end_col)


def _at(file: str, span: Span | None) -> str:
    return f"{file}:{span.line}:{span.col}" if span is not None else file
