"""What the page shows, built only from what the human seat may see.

Everything here reads an Observation through its public methods (board, geometry, tracks, counts,
hand, tableau, advisor, offers, history, round, phase, card), never a game: the server hands this module
the observation the human seat's chooser receives, so the page cannot show what the seat may not
see. The log is the game's records, passed through `PublicLog`, which keeps only what every seat saw
happen (another seat's drawn card, its answers and its sealed bids are left out), in the words of
`rulekit play -v`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rulekit import play as P
from rulekit.core import board as B
from rulekit.core.questions import Ask, Observation, Question

TRACKS = ("medical", "disease", "policy", "score", "economy", "money")
TRACK_WORDS = {"medical": "医疗 medical", "disease": "疾病 disease", "policy": "政策 policy", "score": "计分 score",
               "economy": "经济 economy", "money": "资金 money"}
COUNT_NAMES = ("healthy", "mild", "severe", "dead", "tiles")

# What each kind of question asks, in both languages.
PROMPTS: dict[Ask, str] = {
    Ask.ADVISOR: "选择保留的顾问 · keep one advisor",
    Ask.STRATEGY: "选择抽牌策略 · choose a draw strategy",
    Ask.ACTION: "执行一个行动或跳过 · take an action or pass",
    Ask.TREAT: "治疗：点击一个格子，或结束 · treat: click a cell, or finish",
    Ask.CELL: "点击一个格子 · click a cell",
    Ask.AMOUNT: "选择数量 · choose an amount",
    Ask.CHOOSE: "选择一个数 · choose a number",
    Ask.MAY: "是否执行 · do it?",
    Ask.REACT: "是否作为反应打出 · play it as a reaction?",
    Ask.KEEP: "选择保留的牌 · keep a card",
    Ask.DISCARD: "选择弃掉的牌 · discard a card",
    Ask.OFFER: "拿出一张牌交流，或不出 · offer a card, or none",
    Ask.BID: "暗中出价 · your sealed bid",
    Ask.ARRANGE: "点击放置这块地块的格子 · click where this tile goes",
    Ask.PLAYER: "选择一名玩家 · choose a player",
    Ask.GIVE: "选择给出的牌 · give a card",
    Ask.DRAFT: "从摊开的牌里拿一张 · take a card from the draft",
    Ask.REROLL: "骰子要重掷吗 · roll the die again?",
    Ask.ORDER: "选择接下来翻开的事件 · choose the event drawn next",
}
CELL_KINDS = (Ask.CELL, Ask.ARRANGE)


def label(seat: int) -> str:
    return f"P{seat + 1}"


def card_view(card: Any) -> dict[str, Any]:
    """A card as the content has it (the content is public): id, name, kind, stage, prices, effect text."""
    return {"id": card.id, "name": card.name, "kind": card.kind, "stage": card.stage, "price": list(card.price),
            "effect": card.effect_text or "", "flavor": card.flavor or ""}


def page(obs: Observation, q: Question | None = None, qid: int = 0) -> dict[str, Any]:
    """The table as the observation's seat sees it, and its question (if it is the one asked now)."""
    geo = obs.geometry
    board = obs.board
    seats = []
    for s in range(obs.players):
        advisor = obs.advisor(s)
        tracks = dict(zip(TRACKS, obs.tracks(s), strict=True))
        seats.append({
            "seat": s, "label": label(s), "advisor": card_view(advisor) if advisor is not None else None,
            "tracks": tracks, "counts": dict(zip(COUNT_NAMES, obs.counts(s), strict=True)),
            "hand_size": obs.hand_size(s), "unlocked": obs.unlocked(s), "out": obs.out(s),
            "tableau": [{**card_view(e.card), "on": e.on, "spent": e.spent, "uses": e.uses} for e in obs.tableau(s)],
            "marks": [{**card_view(obs.card(cid)), "stacks": n} for cid, n in obs.marks(s).items() if n],
        })
    current = obs.current_event
    return {
        "seat": obs.seat, "players": obs.players, "round": obs.round, "phase": obs.phase, "step": obs.step,
        "board": [B.STATE_NAMES[board[i]] for i in range(B.SIZE * B.SIZE)],
        "tags": {str(i): m for i, m in obs.tags},      # tags kept on cells (public): index -> tag
        "owner": list(geo.owner),
        "seats": seats,
        "hand": [card_view(c) for c in obs.hand],
        "offers": [{"owner": owner, **card_view(card)} for owner, card in obs.offers],
        "events": {"history": [card_view(c) for c in obs.history], "left": obs.events_left,
                   "current": card_view(current) if current is not None else None,
                   # what this seat knows lies on top of the event deck (`foresee`): its own, no other seat's
                   "foreseen": [_known(obs, cid) for cid in obs.foreseen()]},
        "pool": [card_view(c) for c in obs.pool],       # a draft's cards, face up for every seat
        "question": question_view(obs, q, qid) if q is not None and q.seat == obs.seat else None,
    }


def _known(obs: Observation, cid: str | None) -> str | None:
    """An event's name where the seat knows which it is, else None (a place it does not know)."""
    card = obs.card(cid) if cid is not None else None
    return card.name if card is not None else None


def question_view(obs: Observation, q: Question, qid: int) -> dict[str, Any]:
    """The seat's own question: what it asks (both languages) and each option as a cell, a move or a button."""
    asking = obs.card(q.card) if q.card else None
    return {"qid": qid, "kind": q.kind.value, "text": q.text, "prompt": PROMPTS.get(q.kind, q.kind.value),
            "card": card_view(asking) if asking is not None else None,
            "options": [option_view(obs, q.kind, k, v) for k, v in enumerate(q.options)]}


def _cell(v: Any) -> list[int]:
    return [int(v[0]), int(v[1])]


def option_view(obs: Observation, kind: Ask, k: int, v: Any) -> dict[str, Any]:
    """One option: {"k", "cell"} for a click on the board, {"k", "from", "to"} for a move, else {"k", "label"}."""
    if kind in CELL_KINDS or (kind is Ask.TREAT and v != "done"):
        return {"k": k, "cell": _cell(v)}
    if kind is Ask.TREAT:
        return {"k": k, "label": "结束治疗 · done"}
    if kind is Ask.ACTION:
        return _action_view(obs, k, v)
    if kind in (Ask.MAY, Ask.REACT):
        return {"k": k, "label": "是 · yes" if v else "否 · no"}
    if kind is Ask.REROLL:
        return {"k": k, "label": "重掷 · roll again" if v else "就用这个点数 · keep this roll"}
    if kind is Ask.PLAYER:
        return {"k": k, "label": f"玩家 {label(v)} · player {label(v)}"}
    if kind is Ask.STRATEGY:
        cost = obs.strategy_costs().get(v)
        extra = f"（花费 {cost} · costs {cost}）" if cost else ""
        return {"k": k, "label": f"策略 {v} · strategy {v}{extra}"}
    if kind in (Ask.AMOUNT, Ask.CHOOSE, Ask.BID):
        return {"k": k, "label": f"{v}", "number": v}
    if v is None:
        return {"k": k, "label": "不出牌 · none"}
    card = obs.card(v)
    return {"k": k, "label": f"{card.name} · {card.id}" if card is not None else str(v),
            "card": card_view(card) if card is not None else None}


def _action_view(obs: Observation, k: int, a: Sequence[Any]) -> dict[str, Any]:
    verb = a[0]
    if verb == "pass":
        return {"k": k, "label": "跳过（本阶段不再行动） · pass"}
    if verb == "bury":
        return {"k": k, "cell": _cell(a[1]), "verb": "bury"}
    if verb == "relocate":
        return {"k": k, "from": _cell(a[1]), "to": _cell(a[2])}
    card = obs.card(a[1])
    name = card.name if card is not None else a[1]
    if verb == "play":
        price = obs.price(card) if card is not None else "?"
        return {"k": k, "label": f"打出 {name} · play {a[1]} (${price})", "card": card_view(card) if card else None}
    if verb == "execute":
        return {"k": k, "label": f"再次执行 {name} · execute {a[1]} again"}
    return {"k": k, "label": f"开关 {name} · switch {a[1]} on/off"}


# ---- the log, as every seat saw it -----------------------------------------------------------------------

HIDDEN = "\0hidden"            # a card id the seat did not see


class PublicLog:
    """The game's records turned into the lines of `rulekit play -v`, as one seat saw them.

    Fed the records as the game writes them. What the seat did not see is left out or veiled: every
    `ask` (another seat's answers, sealed bids among them), another seat's drawn card and advisor pick,
    a card moved between two other hands, a discarded card unless the seat itself just chose it.
    """

    def __init__(self, seat: int, name: Callable[[str], str]):
        self.seat = seat
        self.lines: list[str] = []
        self._name = name
        self._effects = P._Effects(self.name)
        self._round: int | None = None
        self._own_pick = False          # the previous record was this seat choosing a card to discard or keep
        self._deaths: dict[int, int] = {}
        self._cured: dict[int, int] = {}

    def name(self, cid: str | None) -> str:
        if cid == HIDDEN:
            return "一张牌 a card"
        return self._name(cid) if cid is not None else "?"

    def public(self, rec: dict[str, Any]) -> dict[str, Any] | None:
        """The record as this seat saw it, or None when it saw nothing of it."""
        e = rec.get("e")
        own_pick, self._own_pick = self._own_pick, False
        if e == "ask":
            self._own_pick = rec["seat"] == self.seat and rec["q"] in ("discard", "keep")
            return None
        if e == "advisor" and rec["seat"] != self.seat:
            return None
        if e == "draw" and rec["seat"] != self.seat:
            return {**rec, "card": HIDDEN}
        if e == "given" and self.seat not in (rec["seat"], rec["to"]):
            return {**rec, "card": HIDDEN}
        if e == "discard" and not own_pick:
            return {**rec, "card": HIDDEN}
        return rec

    def feed(self, records: Iterable[dict[str, Any]]) -> None:
        for rec in records:
            seen = self.public(rec)
            if seen is not None:
                self._line(seen)

    def _line(self, rec: dict[str, Any]) -> None:
        out = self.lines
        e = rec.get("e")
        if e == "round_start" and rec["round"] != self._round:
            self._round = rec["round"]
            out.append(f"── 第 {self._round} 回合 Round {self._round} ──")
        if e == "cell":
            self._tally(rec)
        shown = self._effects.line(rec)
        if shown is not None:
            out.append(shown)
            return
        seat = rec.get("seat")
        who = f"P{seat + 1}" if isinstance(seat, int) else ""
        line = P._LINES.get(str(e))
        if line is not None:
            out.append("  " + line(rec, who, self.name))
        elif e == "tracks":
            out.extend(P._round_tail(self._deaths, self._cured))
            self._deaths, self._cured = {}, {}
            out.extend(P._tracks_lines(rec["players"]))
        elif e == "final":
            scores = ", ".join(f"P{s + 1} {v}" for s, v in enumerate(rec["scores"]))
            won = ", ".join(f"P{s + 1}" for s in rec["winners"])
            out.append(f"  终局 Final scores: {scores}; 胜者 winner: {won}")

    def _tally(self, rec: dict[str, Any]) -> None:
        seat = B.quadrant_of(*rec["cell"])
        if rec["after"] == "dead":
            self._deaths[seat] = self._deaths.get(seat, 0) + 1
        elif rec["before"] == "mild" and rec["after"] == "healthy":
            self._cured[seat] = self._cured.get(seat, 0) + 1


def card_namer(obs: Observation) -> Callable[[str], str]:
    """名字 (id) of a card of the content, as `rulekit play` names it."""
    def name(cid: str) -> str:
        card = obs.card(cid)
        return f"{card.name} ({cid})" if card is not None else cid
    return name


# ---- the position as a scenario skeleton (docs/scenarios.md) --------------------------------------------------

LETTERS = {"tile": "h", "empty": ".", "healthy": "H", "mild": "M", "severe": "S", "dead": "D", "none": "x"}


def scenario_skeleton(obs: Observation, seed: int) -> str:
    """The position the seat sees as a scenario file to finish by hand: the board (face-down tiles as `h`, since
    their fronts are hidden), every seat's tracks, advisor and tableau, this seat's own hand, the round."""
    me = label(obs.seat)
    lines = [f"scenario: {me}'s position in round {obs.round}, phase {obs.phase} (written by rulekit serve)",
             f"players: {obs.players}",
             f"seed: {seed}",
             "setup:",
             "  # Face-down tiles are written h: their fronts were hidden from " + me + "; make some i (infected)",
             "  # 面朝下的地块写作 h（正面未知），按需改为 i",
             "  board: |"]
    board = obs.board
    for r in range(B.SIZE):
        lines.append("    " + " ".join(LETTERS[B.STATE_NAMES[board[B.idx(r, c)]]] for c in range(B.SIZE)))
    for s in range(obs.players):
        values = dict(zip(TRACKS, obs.tracks(s), strict=True))
        parts = [f"{k}: {v}" for k, v in values.items()]
        advisor = obs.advisor(s)
        if advisor is not None:
            parts.append(f"advisor: {advisor.id}")
        tableau = [e.card.id for e in obs.tableau(s)]
        if tableau:
            parts.append(f"tableau: [{', '.join(tableau)}]")
        parts.append(f"unlocked: {obs.unlocked(s)}")
        if s == obs.seat:
            parts.append(f"hand: [{', '.join(c.id for c in obs.hand)}]")
        lines.append(f"  {label(s)}: {{{', '.join(parts)}}}")
        if s != obs.seat and obs.hand_size(s):
            lines.append(f"  # {label(s)} holds {obs.hand_size(s)} card(s) {me} cannot see: add a hand: [...] if it matters")
    lines += [f"  round: {obs.round}",
              "steps: []                # what happens next, e.g. - phase: treatment  (docs/scenarios.md §4)",
              "expect: {}               # what must hold then (docs/scenarios.md §6)",
              ""]
    return "\n".join(lines)
