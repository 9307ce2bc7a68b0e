"""A scenario file -> a checked Scenario: YAML with positions, the schema, then every name resolved against the content."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit import registry
from rulekit.content.loader import load_content
from rulekit.model import Card, Content
from rulekit.content.rules import merge_rules, read_rules
from rulekit.content.yamlpos import Located, Span, read_yaml
from rulekit.core import board as B
from rulekit.diagnostics import R
from rulekit.language.checker import Checked
from rulekit.language.diagnostics import ContentError, Diagnostic, nearest
from rulekit.scenarios.board_text import parse_board
from rulekit.scenarios.schema import diag, field_name, validate_scenario

SEATS = ("P1", "P2", "P3", "P4")
KIND_WORDS = {"policy": "policy card", "event": "event", "advisor": "advisor", "combo": "combo"}
ACTION_WORDS = ("bury", "relocate", "play", "execute", "switch")
ANSWER_WORDS = ("pass", "done", "none")
COMPARISON = re.compile(r"\s*(==|!=|>=|<=|>|<|=)?\s*(-?[0-9]+)\s*")       # fullmatch: `$` admits a final line break
CELL_KEY = re.compile(r"cell \(\s*([0-9])\s*,\s*([0-9])\s*\)")


@dataclass(frozen=True)
class Compare:
    """A number expectation: `5` or `">= 3"`."""

    op: str
    n: int

    def holds(self, got: int) -> bool:
        return {"==": got == self.n, "!=": got != self.n, ">=": got >= self.n, "<=": got <= self.n,
                ">": got > self.n, "<": got < self.n}[self.op]

    def __str__(self) -> str:
        return str(self.n) if self.op == "==" else f"{self.op} {self.n}"


@dataclass
class SeatSetup:
    """What the scenario gives one player; None and empty mean the start value."""

    tracks: dict[str, int] = field(default_factory=dict)
    advisor: Card | None = None
    hand: list[Card] = field(default_factory=list)
    tableau: list[Card] = field(default_factory=list)
    unlocked: int | None = None


@dataclass(frozen=True)
class Step:
    """One step: kind is play, phase, step, event or round; label says it in words."""

    kind: str
    arg: Any
    span: Span
    label: str


@dataclass(frozen=True)
class Answer:
    """One scripted answer, normalised: (form, value), with where it was written and how."""

    form: str            # number, bool, none, pass, done, card, cell, action
    value: Any
    span: Span
    text: str


@dataclass(frozen=True)
class Expectation:
    """One expectation: subject is a seat (0-based), 'cell' or 'game'."""

    subject: Any
    name: str | tuple[int, int]     # a cell's (row, column)
    want: Any
    span: Span
    label: str


@dataclass
class Scenario:
    file: str
    name: str
    content: Content
    players: int
    seed: int
    rules: dict
    combos: list[Card] | None
    board: list[int] | None
    seats: dict[int, SeatSetup]
    events: list[Card]
    round: int
    steps: list[Step]
    choices: dict[int, list[Answer]]
    choices_span: Span | None
    expectations: list[Expectation]
    # The unlock conditions in force, parsed and checked when the scenario was read: the
    # content's, or the scenario's own `rules: unlock:`, and the file each was written in.
    unlock: dict[str, Checked] = field(default_factory=dict)
    unlock_files: dict[str, str] = field(default_factory=dict)
    # The dice the cards roll, in order (`rolls:`), taken before the game's generator; where the list was written.
    rolls: list[int] = field(default_factory=list)
    rolls_span: Span | None = None


class ContentSource:
    """The content folder a run uses: loaded and checked once, reloaded only with a scenario's own cards."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self._base: Content | None = None
        self._error: ContentError | None = None

    def base(self) -> Content:
        """The content folder's cards and rules; ContentError when the folder itself has errors."""
        if self._error is not None:
            raise self._error
        if self._base is None:
            try:
                self._base = load_content(self.root)
            except ContentError as err:
                self._error = err
                raise
        return self._base

    def with_cards(self, loc: Located) -> Content:
        """The content plus the cards under `cards:` (checked like content, at the scenario's positions)."""
        extras = [(loc.sub(("cards", i)), loc.file) for i in range(len(loc.data["cards"]))]
        return load_content(self.root, extra_cards=extras)


def read_scenario(path: str | Path, file: str, source: ContentSource) -> tuple[Scenario | None, str, list[Diagnostic]]:
    """(the scenario or None, its name for the report, every problem found)."""
    loc, diags = read_yaml(path, file)
    if loc is None:
        return None, "", diags
    if not isinstance(loc.data, dict):
        span = loc.span(())
        what = "empty" if loc.data is None else f"a {type(loc.data).__name__}"
        return None, "", [diag(R.WRONG_VALUE,
                               f"a scenario file is one mapping (scenario:, setup:, steps:, expect:), but this one is {what}",
                               loc, span or Span(1, 1, 1, 2))]
    given = loc.data.get("scenario")
    name = given if isinstance(given, str) else ""
    diags = validate_scenario(loc)
    if diags:
        return None, name, sorted(diags, key=Diagnostic.sort_key)
    content, diags = _content(loc, source)
    if content is None:
        return None, name, diags
    reader = _Reader(loc, content)
    scenario = reader.read()
    if reader.diags:
        return None, name, sorted(reader.diags, key=Diagnostic.sort_key)
    return scenario, name, []


def _content(loc: Located, source: ContentSource) -> tuple[Content | None, list[Diagnostic]]:
    try:
        if loc.data.get("cards"):
            return source.with_cards(loc), []
        return source.base(), []
    except ContentError as err:
        return None, [d for d in err.diagnostics if d.severity == "error"]


class _Reader:
    """Resolves the names of a schema-valid scenario; collects every problem before stopping."""

    def __init__(self, loc: Located, content: Content):
        self.loc = loc
        self.data = loc.data
        self.content = content
        self.diags: list[Diagnostic] = []
        self.players = registry.DEFAULT_RULES["players"]

    def report(self, code: R, message: str, path, hint: str | None = None, key: bool = False) -> None:
        span = self.loc.key_span(tuple(path)) if key else self.loc.span(tuple(path))
        self.diags.append(diag(code, message, self.loc, span, hint))

    def span(self, path) -> Span:
        return self.loc.span(tuple(path)) or Span(1, 1, 1, 2)

    def read(self) -> Scenario:
        rules, unlock, unlock_files = self.rules()
        self.players = int(self.data.get("players", rules.get("players", registry.DEFAULT_RULES["players"])))
        rules["players"] = self.players
        setup = self.data.get("setup") or {}
        combos = self.data.get("combos")
        return Scenario(
            file=self.loc.file,
            name=self.data["scenario"],
            content=self.content,
            players=self.players,
            seed=int(self.data.get("seed", 0)),
            rules=rules,
            combos=None if combos is None else self.cards(combos, "combo", ("combos",)),
            board=self.board(setup),
            seats=self.seats(setup, rules),
            events=self.cards(setup.get("events") or [], "event", ("setup", "events")),
            round=int(setup.get("round", 1)),
            steps=self.steps(),
            choices=self.choices(),
            choices_span=self.loc.key_span(("choices",)) if "choices" in self.data else None,
            expectations=self.expectations(),
            unlock=unlock,
            unlock_files=unlock_files,
            rolls=[int(v) for v in self.data.get("rolls") or []],
            rolls_span=self.loc.key_span(("rolls",)) if "rolls" in self.data else None,
        )

    # ---- rules, cards, players -------------------------------------------------------------
    def rules(self) -> tuple[dict, dict[str, Checked], dict[str, str]]:
        """The rules in force, and the unlock conditions: the scenario's own parsed once, at their positions."""
        overrides = self.data.get("rules") or {}
        unlock, files = dict(self.content.unlock), dict(self.content.unlock_files)
        if overrides:
            names = {kind: [x for c in self.content.of_kind(kind) for x in (c.id, c.name)] for kind in KIND_WORDS}
            given, found = read_rules(self.loc.sub(("rules",)), self.card_exists, card_names=names,
                                      base=self.content.rules)
            self.diags += [d for d in found if d.severity == "error"]
            unlock.update(given)
            files.update(dict.fromkeys(given, self.loc.file))
        return merge_rules(self.content.rules, overrides), unlock, files

    def card_exists(self, kind: str, ref: str) -> bool:
        return self.content.lookup(ref, kind) is not None

    def card(self, ref: str, kind: str, path) -> Card | None:
        card = self.content.lookup(ref, kind)
        if card is not None:
            return card
        other = self.content.lookup(ref)
        if other is not None:
            self.report(R.UNKNOWN_CARD, f"'{ref}' is {_article(other.kind)}, not {_article(kind)}", path,
                        hint=f"{field_name(path[:-1] if isinstance(path[-1], int) else path)} takes {KIND_WORDS[kind]}s")
            return None
        known = [x for c in self.content.of_kind(kind) for x in (c.id, c.name)]
        guess = nearest(ref, known)
        message = f"unknown {KIND_WORDS[kind]} '{ref}'" + (f" — did you mean '{guess}'?" if guess else "")
        hint = None if guess else f"{KIND_WORDS[kind]}s: " + ", ".join(c.id for c in self.content.of_kind(kind))
        self.report(R.UNKNOWN_CARD, message, path, hint=hint)
        return None

    def cards(self, refs: list[str], kind: str, path) -> list[Card]:
        out = []
        for i, ref in enumerate(refs):
            card = self.card(ref, kind, (*path, i))
            if card is not None:
                out.append(card)
        return out

    def seat(self, label: str, path, key: bool = False) -> int | None:
        seat = SEATS.index(label)
        if seat >= self.players:
            self.report(R.SEAT_NOT_AT_TABLE, f"{label} is not at this {self.players}-player table", path, key=key,
                        hint=f"players: {', '.join(SEATS[:self.players])}")
            return None
        return seat

    # ---- setup ---------------------------------------------------------------------------------
    def board(self, setup: dict) -> list[int] | None:
        text = setup.get("board")
        if text is None:
            return None
        path = ("setup", "board")
        info = self.loc.values.get(path)
        if info is not None and info.style == "|":
            first, indent = info.text_line, info.indent or 0
        else:
            span = self.span(path)
            first, indent = span.line, span.col - 1
        cells, problems = parse_board(text, self.players, first, indent)
        hint_block = (None if info is not None and info.style == "|"
                      else "write the board as a block: `board: |` and the 10 rows below it")
        for p in problems:
            self.diags.append(Diagnostic.of(R.BOARD_TEXT_MALFORMED, p.message, self.loc.file, p.line, p.col, p.line,
                                            p.col + p.width, p.hint or hint_block))
        return cells

    def seats(self, setup: dict, rules: dict) -> dict[int, SeatSetup]:
        out = {}
        bounds = _bounds(rules)
        for label in SEATS:
            given = setup.get(label)
            if given is None:
                continue
            seat = self.seat(label, ("setup", label), key=True)
            if seat is None:
                continue
            path = ("setup", label)
            s = SeatSetup()
            for name, value in given.items():
                if name in bounds:
                    lo, hi = bounds[name]
                    if (lo is not None and value < lo) or (hi is not None and value > hi):
                        self.report(R.START_OUT_OF_RANGE, f"{label} {name} {value} is outside its range {_range(lo, hi)}",
                                    (*path, name))
                    s.tracks[name] = value
            if "advisor" in given:
                s.advisor = self.card(given["advisor"], "advisor", (*path, "advisor"))
            s.hand = self.cards(given.get("hand") or [], "policy", (*path, "hand"))
            s.tableau = self.cards(given.get("tableau") or [], "policy", (*path, "tableau"))
            self.one_per_name(s.tableau, label, (*path, "tableau"))
            s.unlocked = given.get("unlocked")
            out[seat] = s
        self.copies(out, setup)
        return out

    def one_per_name(self, cards: list[Card], label: str, path) -> None:
        seen: set[str] = set()
        for i, c in enumerate(cards):
            if c.id in seen:
                self.report(R.UNKNOWN_CARD,
                            f"{label}'s tableau lists {c.label} twice; a tableau never holds two cards of one name", (*path, i))
            seen.add(c.id)

    def copies(self, seats: dict[int, SeatSetup], setup: dict) -> None:
        """Every card stays in one place: no more of a card named than the game has copies."""
        named: dict[str, list[tuple]] = {}
        for seat, s in seats.items():
            label = SEATS[seat]
            if s.advisor is not None:
                named.setdefault(s.advisor.id, []).append((s.advisor, ("setup", label, "advisor")))
            for where in ("hand", "tableau"):
                for i, c in enumerate(getattr(s, where)):
                    named.setdefault(c.id, []).append((c, ("setup", label, where, i)))
        for i, c in enumerate(self.cards_quiet(setup.get("events") or [], "event")):
            named.setdefault(c.id, []).append((c, ("setup", "events", i)))
        for places in named.values():
            card = places[0][0]
            if len(places) > card.copies:
                self.report(R.MORE_COPIES_THAN_THE_GAME, f"{card.label} is named {_times(len(places))}, but the game has "
                                     f"{card.copies} cop{'y' if card.copies == 1 else 'ies'} of it", places[card.copies][1],
                            hint="every card stays in exactly one place")

    def cards_quiet(self, refs: list[str], kind: str) -> list[Card]:
        return [c for c in (self.content.lookup(r, kind) for r in refs) if c is not None]

    # ---- steps ------------------------------------------------------------------------------------
    def steps(self) -> list[Step]:
        out = []
        for i, item in enumerate(self.data.get("steps") or []):
            (kind, value), = item.items()
            path = ("steps", i, kind)
            span = self.span(("steps", i))
            if kind == "play":
                seat = self.seat(value["player"], (*path, "player"))
                card = self.card(value["card"], "policy", (*path, "card"))
                if seat is not None and card is not None:
                    out.append(Step("play", (seat, card), span, f"play: {value['player']} {card.name}"))
            elif kind == "event":
                card = self.card(value, "event", path)
                if card is not None:
                    out.append(Step("event", card, span, f"event: {card.name}"))
            else:
                out.append(Step(kind, value, span, f"{kind}: {value}"))
        return out

    # ---- choices -------------------------------------------------------------------------------------
    def choices(self) -> dict[int, list[Answer]]:
        out = {}
        for label, answers in (self.data.get("choices") or {}).items():
            seat = self.seat(label, ("choices", label), key=True)
            if seat is None:
                continue
            out[seat] = [a for i, raw in enumerate(answers)
                         if (a := self.answer(raw, ("choices", label, i))) is not None]
        return out

    def answer(self, raw: Any, path) -> Answer | None:
        span = self.span(path)
        text = _shown(raw)
        form = self.answer_form(raw, path)
        if form is None:
            return None
        return Answer(form[0], form[1], span, text)

    def answer_form(self, raw: Any, path) -> tuple[str, Any] | None:
        if isinstance(raw, bool):
            return "bool", raw
        if isinstance(raw, int):
            return "number", raw
        if raw is None:
            return "none", None
        if isinstance(raw, str):
            if raw in ANSWER_WORDS:
                return raw, None
            if raw in SEATS:
                return "player", SEATS.index(raw)
            card = self.any_card(raw, path)
            return None if card is None else ("card", card)
        if isinstance(raw, list) and raw and isinstance(raw[0], str) and raw[0] in ACTION_WORDS:
            return self.action(raw[0], raw[1:], path)
        if isinstance(raw, dict) and len(raw) == 1 and next(iter(raw)) in ACTION_WORDS:
            word, arg = next(iter(raw.items()))
            pair = word == "relocate" and isinstance(arg, list) and len(arg) == 2 and all(isinstance(a, list) for a in arg)
            args = arg if pair else [arg]
            return self.action(word, args, (*path, word))
        cell = _cell(raw)
        if cell is not None:
            return "cell", cell
        if isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, int) for x in raw):
            self.report(R.ANSWER_OF_NO_FORM, f"{_shown(raw)} is not a cell: rows and columns go from 0 to 9", path)
            return None
        self.report(R.ANSWER_OF_NO_FORM, f"{_shown(raw)} is not an answer", path,
                    hint="an answer is a number, yes/no, a cell [r, c], a card, a player such as P2, pass, done, none, "
                         "or an action such as [bury, [0, 1]], [relocate, [0, 0], [0, 1]], [switch, 生命维持系统]")
        return None

    def action(self, word: str, args: list, path) -> tuple[str, Any] | None:
        if word in ("play", "execute", "switch"):
            if len(args) == 1 and isinstance(args[0], str):
                card = self.card(args[0], "policy", path)
                return None if card is None else ("action", (word, card.id))
            self.report(R.ANSWER_OF_NO_FORM, f"[{word}, …] takes one card, such as [{word}, 医院扩容]", path)
            return None
        cells = [_cell(a) for a in args]
        need = 1 if word == "bury" else 2
        if len(cells) != need or None in cells:
            example = "[bury, [0, 1]]" if word == "bury" else "[relocate, [0, 0], [0, 1]] (from, to)"
            self.report(R.ANSWER_OF_NO_FORM, f"{word} takes {need} cell{'s' if need > 1 else ''}, such as {example}", path)
            return None
        return "action", (word, *cells)

    def any_card(self, ref: str, path) -> Card | None:
        card = self.content.lookup(ref)
        if card is not None:
            return card
        known = [*ANSWER_WORDS, *ACTION_WORDS, *SEATS, *(x for c in self.content.cards for x in (c.id, c.name))]
        guess = nearest(ref, known)
        self.report(R.UNKNOWN_CARD,
                    f"'{ref}' is neither a card nor an answer word" + (f" — did you mean '{guess}'?" if guess else ""),
                    path, hint="answer words: pass, done, none, yes, no")
        return None

    # ---- expectations -----------------------------------------------------------------------------------
    def expectations(self) -> list[Expectation]:
        out = []
        for key, want in (self.data.get("expect") or {}).items():
            path = ("expect", key)
            span = self.span(path)
            if key in SEATS:
                seat = self.seat(key, path, key=True)
                if seat is None:
                    continue
                for name, value in want.items():
                    out.append(Expectation(seat, name, self.seat_value(name, value, (*path, name)),
                                           self.span((*path, name)), f"{key} {name}"))
            elif key == "winner":
                labels = want if isinstance(want, list) else [want]
                seats = [s for s in (self.seat(x, path) for x in labels) if s is not None]
                out.append(Expectation("game", key, tuple(sorted(set(seats))), span, key))
            elif key in ("game_over", "round"):
                out.append(Expectation("game", key, want if key == "game_over" else _compare(want), span, key))
            else:
                cell = CELL_KEY.fullmatch(key)
                assert cell is not None            # the schema admits only these keys
                r, c = (int(x) for x in cell.groups())
                if B.geometry(self.players).owner[B.idx(r, c)] < 0:
                    self.report(R.NO_SUCH_CELL, f"({r}, {c}) has no cell at a {self.players}-player table", path, key=True)
                    continue
                out.append(Expectation("cell", (r, c), want, span, f"cell ({r}, {c})"))
        return out

    def seat_value(self, name: str, value: Any, path) -> Any:
        if name == "out":
            return value
        if isinstance(value, list):
            return sorted(c.id for c in self.cards(value, "policy", path))
        return _compare(value)


def _compare(value: Any) -> Compare:
    if isinstance(value, int):
        return Compare("==", value)
    match = COMPARISON.fullmatch(value)
    assert match is not None                 # the schema admits only these
    op, n = match.groups()
    return Compare("==" if op in (None, "=") else op, int(n))


def _cell(raw: Any) -> tuple[int, int] | None:
    if (isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
            and all(0 <= x < B.SIZE for x in raw)):
        return raw[0], raw[1]
    return None


def _shown(raw: Any) -> str:
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    if raw is None:
        return "none"
    if isinstance(raw, list):
        return "[" + ", ".join(_shown(x) for x in raw) + "]"
    if isinstance(raw, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in raw.items()) + "}"
    return str(raw)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _article(kind: str) -> str:
    word = KIND_WORDS[kind]
    return ("an " if word[0] in "aeiou" else "a ") + word


def _bounds(rules: dict) -> dict[str, tuple[int | None, int | None]]:
    from rulekit.core.rules import track_bounds

    return {name: (lo, hi) for name, (lo, hi, _) in track_bounds(rules)}


def _range(lo: int | None, hi: int | None) -> str:
    if hi is None:
        return f"{lo} or more"
    return f"{lo}..{hi}"
