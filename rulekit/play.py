"""One game for a person to read: the round-by-round account, the JSON-lines log, and replaying a log."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rulekit.core import board as B
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.agents import seat_agents
from rulekit.engine import new_game

LOG_FORMAT = 1


@dataclass
class Played:
    game: object
    log: list
    error: EffectError | None


def play_game(content, seed: int, agents: list[str], players: int, *, header: dict,
              evaluator: str = "compiled", choosers=None, verbose: bool = False) -> Played:
    """One whole game with its log; verbose also logs every handler, modifier and combo that fires."""
    log: list = [header]
    game = new_game(content, seed, agents, players=players, evaluator=evaluator, log=log, verbose=verbose)
    if choosers is not None:
        game.choosers = choosers
    error = None
    try:
        game.run()
    except EffectError as err:
        error = err
        game.record("error", message=str(err), card=err.card.id if err.card else None)
    return Played(game, log, error)


def write_log(path: str | Path, log: list) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for rec in log:
            f.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")


def log_lines(log: list) -> list[str]:
    return [json.dumps(rec, ensure_ascii=False, sort_keys=True) for rec in log]


# ---- replay --------------------------------------------------------------------------------

class ReplayChooser:
    """Answers every seat's questions from a log's recorded decisions, in order."""

    name = "replay"

    def __init__(self, asks: list[dict]):
        self.asks = asks
        self.pos = 0

    def choose(self, obs, q) -> int:
        if self.pos >= len(self.asks):
            raise RuleViolation(f"the log has no more decisions, but P{q.seat + 1} is asked '{q.kind}'")
        rec = self.asks[self.pos]
        self.pos += 1
        if rec["q"] != q.kind.value or rec["seat"] != q.seat:
            raise RuleViolation(f"decision {self.pos}: the log says P{rec['seat'] + 1} answers '{rec['q']}', "
                                f"but the game asks P{q.seat + 1} '{q.kind.value}'")
        answer = _from_json(rec["a"])
        if answer not in q.options:
            raise RuleViolation(f"decision {self.pos}: the log's answer {rec['a']!r} is not one of the game's options")
        return q.options.index(answer)


def _from_json(v):
    if isinstance(v, list):
        return tuple(_from_json(x) for x in v)
    return v


def read_log(path: str | Path) -> list[dict]:
    """A game log's records; a ValueError saying where and what is wrong, for any other file."""
    records = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{n}:{err.colno}: not a JSON line: {err.msg}") from None
                if not isinstance(rec, dict) or "e" not in rec:
                    raise ValueError(f"{path}:{n}:1: not a record of a rulekit game log")
                records.append(rec)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a rulekit game log (it is not UTF-8 text)") from None
    if not records or records[0].get("e") != "header":
        raise ValueError(f"{path}:1:1: not a rulekit game log (the first line must be its header)")
    check_header(records[0], path)
    return records


def check_header(head: dict, path) -> None:
    """The header must say how to set the game up again: seed, players and agents."""
    players = head.get("players")
    if not isinstance(head.get("seed"), int) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"{path}:1:1: the log's header lacks a whole-number seed or a player count of 2 to 4")
    agents = head.get("agents")
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise ValueError(f"{path}:1:1: the log's header lacks the list of agents")
    try:
        seat_agents(agents, players)
    except ValueError as err:
        raise ValueError(f"{path}:1:1: {err}") from None


def first_difference(a: list[str], b: list[str]) -> tuple[int, str, str] | None:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i + 1, x, y
    if len(a) != len(b):
        i = min(len(a), len(b))
        return i + 1, a[i] if i < len(a) else "(end of log)", b[i] if i < len(b) else "(end of log)"
    return None


# ---- the account a person reads ------------------------------------------------------------

CELL_CHARS = {B.TILE_H: "#", B.TILE_I: "#", B.EMPTY: ".", B.HEALTHY: "H", B.MILD: "M",
              B.SEVERE: "S", B.DEAD: "D", B.NOCELL: " "}


def board_picture(game) -> list[str]:
    """The board as scenario-file letters (# = face-down tile), quadrants apart."""
    lines = []
    for r in range(B.SIZE):
        if r == B.HALF:
            lines.append("")
        row = [CELL_CHARS[game.state.board[B.idx(r, c)]] for c in range(B.SIZE)]
        if not "".join(row).strip():
            continue
        lines.append("  " + " ".join(row[:5]) + "   " + " ".join(row[5:]))
    return lines


def card_name(game, cid: str | None) -> str:
    if cid is None:
        return "?"
    card = game.content.lookup(cid)
    return f"{card.name} ({cid})" if card else cid


def account(game, log: list) -> list[str]:
    """A readable round-by-round account built from the game's log (with what effects did, if it has it)."""
    out: list[str] = []
    name = lambda cid: card_name(game, cid)
    advisors = [f"P{p.seat + 1} {name(p.advisor.id) if p.advisor else '—'}" for p in game.state.seats]
    out.append("顾问 Advisors: " + " · ".join(advisors))
    current = None
    deaths: dict[int, int] = {}
    cured: dict[int, int] = {}
    effects = _Effects(name)
    for rec in log:
        e = rec.get("e")
        shown = effects.line(rec)
        if shown is not None:
            out.append(shown)
        if e in ("header", "ask", "cell", "money", "track", "draw", "discard", "setup_done", "phase", "round_start",
                 "fire", "done", "modifier", "shielded"):
            if e == "cell":
                seat = game.geo.owner[B.idx(*rec["cell"])]
                if rec["after"] == "dead":
                    deaths[seat] = deaths.get(seat, 0) + 1
                elif rec["before"] == "mild" and rec["after"] == "healthy":
                    cured[seat] = cured.get(seat, 0) + 1
            if e == "round_start" and rec["round"] != current:
                current = rec["round"]
                out.append("")
                out.append(f"── 第 {current} 回合 Round {current} " + "─" * 40)
            continue
        seat = rec.get("seat")
        who = f"P{seat + 1}" if isinstance(seat, int) else ""
        line = _LINES.get(e)
        if line is not None:
            out.append("  " + line(rec, who, name))
        elif e == "tracks":
            out.extend(_round_tail(deaths, cured))
            deaths, cured = {}, {}
            out.extend(_tracks_lines(rec["players"]))
    out.extend(_round_tail(deaths, cured))
    return out


# How each logged change reads in the account; `name` turns a card id into 名字 (id).
_LINES = {
    "play": lambda r, who, name: f"{who} 打出 plays {name(r['card'])} for {r['price']}"
                                 + (" as a reaction" if r.get("reaction") else ""),
    "execute": lambda r, who, name: f"{who} 再次执行 executes {name(r['card'])} again for {r['price']} (time {r['uses']})",
    "switch": lambda r, who, name: f"{who} switches {name(r['card'])} {'on' if r['on'] else 'off'}",
    "sold": lambda r, who, name: f"{who} sells {name(r['card'])} to P{r['to'] + 1} for {r['bid']}",
    "event": lambda r, who, name: f"事件 Event: {name(r['card'])}",
    "combo": lambda r, who, name: f"连击 Combo for {who}: {name(r['card'])}",
    "unlock": lambda r, who, name: f"{who} unlocks stage {r['stage']}",
    "out": lambda r, who, name: f"{who} is out: {_OUT_WORDS.get(r['reason'], r['reason'])}",
    "overthrow_prevented": lambda r, who, name: f"{who} would be overthrown, but is saved",
    "death_prevented": lambda r, who, name: f"a death at {tuple(r['cell'])} is prevented",
    "action_limit": lambda r, who, name: f"{who} reached the limit of {r['limit']} actions this phase",
    "error": lambda r, who, name: f"效果出错 EFFECT ERROR: {r['message']}",
}

_OUT_WORDS = {"emptied": "board fully revealed and no one alive (emptied)", "overthrown": "overthrown (policy below -10)"}
END_WORDS = {
    "won_fight": "every board is revealed and no one is infected — the fight is won",
    "events_exhausted": "the last event card was drawn",
    "max_rounds": "the last round was played",
    "one_left": "fewer than two players are still in",
}


class _Effects:
    """The lines `-v` adds: each handler, reaction, modifier and combo that fired, and what it changed."""

    def __init__(self, name):
        self.name = name
        self.depth = 0

    def line(self, r: dict) -> str | None:
        e = r.get("e")
        pad = "  " + "    " * self.depth
        if e == "fire":
            self.depth += 1
            who = f"P{r['seat'] + 1} " if isinstance(r.get("seat"), int) else ""
            return f"{pad}▸ {who}{self.name(r['card'])} — {r['how']}"
        if e == "done":
            self.depth = max(0, self.depth - 1)
            return None
        if e == "modifier":
            return f"{pad}▸ P{r['seat'] + 1} {self.name(r['card'])} — modifies {r['quantity']} by {r['delta']:+d}"
        if not self.depth:
            return None
        change = _change_words(r, self.name)
        return f"{pad}· {change}" if change else None


def _change_words(r: dict, name) -> str | None:
    """A change record in a few words, for the lines under an effect that fired."""
    e = r.get("e")
    who = f"P{r['seat'] + 1} " if isinstance(r.get("seat"), int) else ""
    if e == "track":
        return f"{who}{r['track']} {r['delta']:+d} → {r['value']}"
    if e == "money":
        return f"{who}money {r['delta']:+d} → {r['money']}"
    if e == "cell":
        return f"cell {tuple(r['cell'])} {r['before']} → {r['after']}"
    if e == "draw":
        return f"{who}draws {name(r['card'])}"
    if e == "discard":
        return f"discards {name(r['card'])}"
    if e == "shielded":
        return f"{who}is shielded: no {r['what']} lost"
    if e == "arranged":
        return f"{who}arranges {r['tiles']} tiles"
    return None


def effect_account(game, log: list) -> list[str]:
    """Only the lines of effects that fired (for `rulekit test -v`)."""
    effects = _Effects(lambda cid: card_name(game, cid))
    return [line.strip() for line in (effects.line(r) for r in log) if line is not None]


def _round_tail(deaths, cured) -> list[str]:
    bits = []
    if cured:
        bits.append("cured " + ", ".join(f"P{s + 1}×{n}" for s, n in sorted(cured.items())))
    if deaths:
        bits.append("deaths " + ", ".join(f"P{s + 1}×{n}" for s, n in sorted(deaths.items())))
    out = ["  " + "; ".join(bits)] if bits else []
    return out


def _tracks_lines(players: list[dict]) -> list[str]:
    """One compact line per seat: tracks, money and board counts at the end of a round."""
    lines = []
    for s, t in enumerate(players):
        tag = "  (out)" if t["out"] else ""
        lines.append(f"    P{s + 1} 医疗 med {t['medical']:>2} 疾病 dis {t['disease']:>2} 政策 pol {t['policy']:>3} "
                     f"计分 score {t['score']:>3} 经济 eco {t['economy']:>2} $ {t['money']:>2} | "
                     f"H {t['healthy']:>2} M {t['mild']:>2} S {t['severe']:>2} D {t['dead']:>2} # {t['tiles']:>2}{tag}")
    return lines


def status_table(game) -> list[str]:
    cols = ("med", "dis", "pol", "scr", "eco", "$")
    counts = ("H", "M", "S", "D", "#")
    lines = ["      " + "".join(f"{c:>4}" for c in cols) + " |" + "".join(f"{c:>4}" for c in counts)]
    for p in game.state.seats:
        c = lambda k: game.count(p.seat, k)
        mark = " out" if p.out else ""
        lines.append(f"  P{p.seat + 1:<3}{p.medical:>4}{p.disease:>4}{p.policy:>4}{p.score:>4}{p.economy:>4}{p.money:>4} |"
                     f"{c('healthy'):>4}{c('mild'):>4}{c('severe'):>4}{c('dead'):>4}{c('tiles'):>4}{mark}")
    return lines


def ranking(game) -> list[str]:
    winners = set(game.winners())
    seats = game.state.seats
    order = sorted(range(game.players), key=lambda s: (-seats[s].score, -game.count(s, "alive"), s))
    lines = []
    for place, s in enumerate(order, 1):
        p = seats[s]
        tag = "  ← 胜者 winner" if s in winners else ""
        out = " (out)" if p.out else ""
        lines.append(f"  {place}. P{s + 1} score {p.score}, alive {game.count(s, 'alive')}{out}{tag}")
    return lines
