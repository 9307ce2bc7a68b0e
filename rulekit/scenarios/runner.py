"""Runs scenarios: a table set up by hand, steps through the real engine, expectations checked (scenarios.md).

Decisions the spec leaves to the runner:
- After each `play` and `event` step, and each spread `step`, the unlock and end checks that the
  rules run at the end of every phase are run too (a `phase` or `round` step runs them itself).
- When the game is over after the last step, final scoring (Game.finish) runs once before the
  expectations are checked, so `score` and `winner` are the final ones. When it is not over, no
  final scoring happens: `winner` is who would win on the scores as they stand.
- Scripted answers left unused at the end fail the scenario: the game did not ask what the
  scenario expected it to ask.
- A `tableau:` card with `duration: round` was played in an earlier round, so it is already spent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulekit.content.loader import SCENARIO_SUFFIX
from rulekit.core import board as B
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.game import Game
from rulekit.core.phases.end import check_end, check_unlocks
from rulekit.core.phases.events import resolve_event
from rulekit.core.table import Table, TableSeat, set_table
from rulekit.engine import make_game
from rulekit.language.diagnostics import ContentError, Diagnostic
from rulekit.play import EffectLines
from rulekit.scenarios.chooser import IllegalAnswer, ScriptedChooser
from rulekit.scenarios.reader import SEATS, Compare, ContentSource, Expectation, Scenario, Step, read_scenario


@dataclass(frozen=True)
class Failure:
    """Why a scenario failed, at a position of its file."""

    file: str
    line: int
    col: int
    message: str
    code: str = ""
    hint: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        code = f"{self.code} " if self.code else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}: {code}{self.message}{hint}"

    @classmethod
    def of(cls, d: Diagnostic) -> Failure:
        return cls(d.file, d.line, d.col, d.message, d.code, d.hint)


@dataclass
class Result:
    """One scenario's outcome."""

    file: str
    name: str
    failures: list[Failure] = field(default_factory=list)
    malformed: bool = False
    trace: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def find_scenarios(paths) -> list[tuple[Path, str]]:
    """(path, how to show it) of every scenario file under the paths, sorted, each once.

    A file named on the command line is run whatever its name; folders are searched for *.scenario.yaml.
    """
    found: dict[str, Path] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for f in p.rglob("*" + SCENARIO_SUFFIX):
                if f.is_file():
                    found.setdefault(str(f), f)
        else:
            found.setdefault(str(p), p)
    return [(found[k], k) for k in sorted(found)]


def run_paths(paths, content: str | Path | ContentSource = "content", *, verbose: bool = False) -> list[Result]:
    """Every scenario under the paths, run against one content folder."""
    source = content if isinstance(content, ContentSource) else ContentSource(content)
    return [run_file(path, shown, source, verbose=verbose) for path, shown in find_scenarios(paths)]


def run_file(path: str | Path, shown: str | None = None, source: ContentSource | None = None, *,
             verbose: bool = False) -> Result:
    """Read, check and run one scenario file."""
    file = shown if shown is not None else str(path)
    source = source or ContentSource("content")
    try:
        source.base()
    except ContentError as err:
        errors = sum(1 for d in err.diagnostics if d.severity == "error")
        return Result(file, "", [Failure(file, 0, 0, f"not run: the content in {source.root} has {errors} "
                                                     f"error{'s' if errors != 1 else ''} (`rulekit lint` lists them)")],
                      malformed=True)
    try:
        scenario, name, problems = read_scenario(path, file, source)
    except Exception as err:
        return Result(file, "", [Failure(file, 0, 0, "rulekit could not read this scenario (a bug of rulekit): "
                                                     f"{_error_text(err)}")], malformed=True)
    if scenario is None:
        return Result(file, name, [Failure.of(d) for d in problems], malformed=True)
    return run_scenario(scenario, verbose=verbose)


def run_scenario(scenario: Scenario, *, verbose: bool = False) -> Result:
    """Set up the table, run the steps, check the expectations."""
    result = Result(scenario.file, scenario.name)
    log: list | None = [] if verbose else None
    trace = Trace(result.trace, log) if log is not None else None
    choosers = [ScriptedChooser(s, scenario.choices.get(s, []), trace) for s in range(scenario.players)]
    try:
        game = make_game(scenario.content, scenario.seed, choosers, players=scenario.players, rules=scenario.rules,
                        combos=scenario.combos, log=log, verbose=verbose,
                        unlock=(scenario.unlock, scenario.unlock_files))
        set_table(game, table_of(scenario))
        game.fixed_rolls = list(scenario.rolls)
    except Exception as err:
        result.failures.append(Failure(scenario.file, 1, 1, f"the table cannot be set up: {_error_text(err)}"))
        return result
    if trace is not None:
        trace.game = game
        trace.seen = len(trace.log)   # the table's own set-up is not the scenario's doing
    ok = run_steps(game, scenario, result, trace)
    if trace is not None:
        trace.flush()
    if not ok:
        return result
    if game.state.over:
        game.finish()
    for s, chooser in enumerate(choosers):
        left = chooser.unused()
        if left:
            result.failures.append(unused_answers(scenario, s, chooser.used, left))
    if game.fixed_rolls:
        result.failures.append(unused_rolls(scenario, game.fixed_rolls))
    for e in scenario.expectations:
        ok, want, got = check(game, e)
        if trace is not None:
            trace.append(f"expect {e.label}: {want} — got {got}, {'ok' if ok else 'FAILED'}")
        if not ok:
            result.failures.append(Failure(scenario.file, e.span.line, e.span.col,
                                           f"{e.label}: expected {want}, got {got}"))
    return result


def unused_answers(sc: Scenario, seat: int, used: int, left) -> Failure:
    answers = ", ".join(f"`{a.text}`" for a in left)
    many = len(left) > 1
    asked = f"only {used} question{'s' if used != 1 else ''}" if used else "no question"
    return Failure(sc.file, left[0].span.line, left[0].span.col,
                   f"{SEATS[seat]}'s scripted answer{'s' if many else ''} {answers} {'were' if many else 'was'} never used:"
                   f" the game asked {SEATS[seat]} {asked}")


def unused_rolls(sc: Scenario, left: list[int]) -> Failure:
    used = len(sc.rolls) - len(left)
    span = sc.rolls_span
    many = len(left) > 1
    rolled = f"only {used} di{'c' if used != 1 else ''}e" if used else "no die"
    return Failure(sc.file, span.line if span else 1, span.col if span else 1,
                   f"the scenario's roll{'s' if many else ''} {', '.join(map(str, left))} {'were' if many else 'was'} "
                   f"never used: the cards rolled {rolled}")


# ---- the table -------------------------------------------------------------------------------------

def table_of(sc: Scenario) -> Table:
    """The scenario's table in the core's words."""
    seats = {seat: TableSeat(tracks=dict(s.tracks), advisor=s.advisor, hand=tuple(s.hand), tableau=tuple(s.tableau),
                             unlocked=s.unlocked) for seat, s in sc.seats.items()}
    return Table(board=sc.board, seats=seats, events=tuple(sc.events), round=sc.round)


class Trace:
    """`rulekit test -v`: steps, questions and answers, and — in the order they happened — every handler,
    modifier and combo that fired, with what it changed (read from the game's log as it grows)."""

    def __init__(self, lines: list[str], log: list):
        self.lines = lines
        self.log = log
        self.game: Game | None = None
        self.seen = 0
        self.effects: EffectLines | None = None

    def flush(self) -> None:
        if self.game is None or self.seen >= len(self.log):
            return
        if self.effects is None:
            self.effects = EffectLines(self.game)
        self.lines.extend(self.effects.lines(self.log[self.seen:]))
        self.seen = len(self.log)

    def append(self, line: str) -> None:
        self.flush()
        self.lines.append(line)


# ---- steps ----------------------------------------------------------------------------------------------

def run_steps(game: Game, sc: Scenario, result: Result, trace: Trace | None) -> bool:
    """Run the steps in order; False (with the failure recorded) when one cannot be run."""
    for k, step in enumerate(sc.steps, 1):
        if trace is not None:
            trace.append(f"step {k} (line {step.span.line}) {step.label}")
        try:
            run_step(game, step)
        except RuleViolation as err:
            result.failures.append(_at(sc, step, f"step {k} ({step.label}) is not allowed by the rules: {err}"))
            return False
        except EffectError as err:
            result.failures.append(_at(sc, step, f"step {k} ({step.label}) failed: {err}"))
            return False
        except IllegalAnswer as err:
            span = sc.choices_span or err.answer.span
            result.failures.append(Failure(sc.file, span.line, span.col, f"during step {k} ({step.label}), {err}"))
            return False
        except Exception as err:
            result.failures.append(_at(sc, step, f"step {k} ({step.label}) stopped rulekit with an internal error "
                                                 f"(a bug of rulekit, not of the scenario): {_error_text(err)}"))
            return False
    return True


def run_step(game: Game, step: Step) -> None:
    st = game.state
    if step.kind == "play":
        seat, card = step.arg
        play(game, seat, card)
        after_moment(game)
    elif step.kind == "phase":
        game.run_phase(step.arg)
    elif step.kind == "step":
        game.run_spread_step(step.arg)
        after_moment(game)
    elif step.kind == "event":
        card = step.arg
        game.take_from_deck(card)
        st.phase = "event"
        resolve_event(game, card)
        after_moment(game)
    elif step.kind == "round":
        for _ in range(step.arg):
            if st.over:
                break
            game.run_round()


def play(game: Game, seat: int, card) -> None:
    """Play the card from hand, or execute it again when it is already in the tableau (paying its price)."""
    p = game.state.seats[seat]
    if p.out:
        raise RuleViolation(f"P{seat + 1} is out of the game ({p.out_reason}) and takes no action")
    game.state.phase = "actions"
    if any(e.card.id == card.id for e in p.tableau):
        game.execute_card(seat, card.id)
    else:
        game.play_card(seat, card.id)


def after_moment(game: Game) -> None:
    """The checks the rules run at the end of every phase (unlocks, emptied boards, the end)."""
    check_unlocks(game)
    check_end(game)


def _error_text(err: Exception) -> str:
    return f"{type(err).__name__}: {err}" if not isinstance(err, (EffectError, RuleViolation)) else str(err)


def _at(sc: Scenario, step: Step, message: str) -> Failure:
    return Failure(sc.file, step.span.line, step.span.col, message)


# ---- expectations -----------------------------------------------------------------------------------------

def check(game: Game, e: Expectation) -> tuple[bool, str, str]:
    """(holds, what was expected, what the game shows), both in the scenario's words."""
    got = observe(game, e)
    want = e.want
    if isinstance(want, Compare):
        return want.holds(got), str(want), str(got)
    if e.name == "winner":
        return got == want, _seats(want), _seats(got)
    if isinstance(want, list):
        return sorted(got) == want, _cards(game, want), _cards(game, got)
    if isinstance(want, bool):
        return got == want, str(want).lower(), str(got).lower()
    return got == want, str(want), str(got)


def observe(game: Game, e: Expectation):
    st = game.state
    if e.subject == "cell":
        assert isinstance(e.name, tuple)
        return B.STATE_NAMES[st.board[B.idx(*e.name)]]
    if e.subject == "game":
        if e.name == "game_over":
            return st.over
        if e.name == "round":
            return st.round
        return tuple(sorted(game.winners()))
    p = st.seats[e.subject]
    if e.name in ("hand", "tableau"):
        cards = p.hand if e.name == "hand" else [x.card for x in p.tableau]
        return [c.id for c in cards] if isinstance(e.want, list) else len(cards)
    if e.name in B.STATE_BY_NAME or e.name in ("infected", "alive", "resident", "tiles"):
        return game.count(e.subject, e.name)
    assert isinstance(e.name, str)
    return getattr(p, e.name)


def _seats(seats) -> str:
    return ", ".join(f"P{s + 1}" for s in seats) or "nobody"


def _cards(game: Game, ids) -> str:
    names = []
    for cid in ids:
        card = game.content.lookup(cid)
        names.append(card.name if card is not None else cid)
    return "[" + ", ".join(names) + "]"
