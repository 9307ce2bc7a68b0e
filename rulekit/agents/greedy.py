"""The greedy agent: a rule-based baseline that reads cards' effects and looks one step ahead, no further."""

from __future__ import annotations

import random

from rulekit.agents import estimate as E
from rulekit.core.questions import Observation, Question
from rulekit.core import board as B
from rulekit.language import ast

PLAY_MARGIN = 0.25     # a card is played when its worth beats its price by this many points
BID_RESERVE = 2        # coins kept back when bidding
POLICY_DANGER = -6     # at or below this policy, never pay policy
POLICY_FLOOR = -8      # never play a card that would take policy to this or lower


class GreedyAgent:
    """A sensible baseline player: each decision takes what is best right now, by fixed rules.

    It estimates a card's worth in points from its effect text (rulekit.agents.estimate): score
    gains count 1; medical, disease and economy count per round left; money 0.3 a coin; policy
    through a curve that punishes going below 0 and sharply near -10; modifiers that lower
    new_mild, new_severe or new_dead by how much they lower them now, per round left; drawn
    cards by stage; what other players gain counts a quarter against it. Its rules:

    1. Advisor: the one worth most by that estimate.
    2. Draw strategy: the highest stage it gets for free; it pays for a higher one only when it
       keeps at least 6 coins afterwards.
    3. Actions, best first, while one is worth doing:
       - bury a dead that has healthy neighbours on its board (dead contagion infects them all);
       - play or execute again the card whose worth beats its price most (by PLAY_MARGIN);
         never a card that pays policy when policy is at or below -6, or that would take policy
         to -8 or lower — so when policy is low only policy-raising cards are played;
       - switch a switchable card off when it now costs more than it brings, on when it brings.
       It never relocates.
    4. Treatment: as much as its medical allows. A severe case comes first when this round's
       deaths would take every severe case left (it would die tonight: -1 score and a dead that
       infects its neighbours); otherwise mild cases first (+1 score each, and cheaper). Among
       cells of one kind, the one with the most healthy neighbours.
    5. Cells: harm lands where it spreads least — contagion, worsening, deaths and its own
       kills go to the cells with the fewest healthy neighbours (contagion across a border
       goes where it hurts the neighbour most); cures, treatment and removals go to the cells
       with the most, removing dead first, then severe, then mild. Discovery reveals the tile
       with the fewest healthy neighbours. The planner puts infected fronts far from its
       corner diagonal (revealed last) and healthy fronts near it.
    6. Choices inside an effect (how many, which number, may / may pay): the answer the estimate
       values most. 拒之门外 and other reactions: played whenever worth their price.
    7. Exchange: offers the card worth least to it (a card it cannot play first) when worth
       under 1 point; bids half the card's worth in coins, keeping BID_RESERVE coins back.
    8. Keep / discard: keeps the cards worth most, discards those worth least.
    Ties go to its own random generator, seeded by (game seed, seat): the agent is deterministic.
    """

    name = "greedy"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"greedy:{seed}:{seat}")
        self.seat = seat
        self._cache_key = None
        self._cache: dict = {}
        self._switched: set = set()     # (round, card id): switch a card at most once a round

    def choose(self, obs: Observation, q: Question) -> int:
        option = getattr(self, "on_" + q.kind.value, self.on_other)(obs, q)
        return q.options.index(option)

    # ---- helpers ------------------------------------------------------------------------------
    def snapshot(self, obs) -> E.Snapshot:
        snap = E.Snapshot(obs, self.seat)
        if snap.key != self._cache_key:
            self._cache_key, self._cache = snap.key, {}
        return snap

    def best(self, scored: list[tuple[float, object]]):
        top = max(v for v, _ in scored)
        return self.rng.choice([o for v, o in scored if v >= top - 1e-9])

    def card(self, obs, ref: str):
        return obs.card(ref)

    def play_worth(self, snap: E.Snapshot, card, uses: int = 1, again: bool = False) -> tuple[float, float]:
        """(worth before price, policy change) of playing a card now, or executing it again."""
        key = (card.id, uses, again)
        hit = self._cache.get(key)
        if hit is None:
            acc = E.on_play(card, snap, uses)
            v = E.worth(acc, snap)
            if again:
                v += E.lasting(card, snap, uses) - E.lasting(card, snap, uses - 1)
            else:
                v += E.lasting(card, snap, uses) + E.endgame(card, snap)
            hit = self._cache[key] = (v, acc.d["policy"])
        return hit

    def card_worth(self, obs, snap: E.Snapshot, card) -> float:
        """What holding a card is worth: its play worth (or reaction worth) less its price."""
        if any(e.card.name == card.name for e in obs.tableau(self.seat)):
            return 0.0
        price = card.price[0] if card.price else 0
        if not obs.playable(card.id):
            return E.react_value(card, snap) - price * E.MONEY
        return self.play_worth(snap, card)[0] - price * E.MONEY

    def safe(self, snap: E.Snapshot, dpolicy: float) -> bool:
        """Policy stays out of danger: no paying policy when low, never down to POLICY_FLOOR."""
        p = snap.tracks["policy"]
        return not (dpolicy < 0 and (p <= POLICY_DANGER or p + dpolicy <= POLICY_FLOOR))

    # ---- questions ----------------------------------------------------------------------------
    def on_advisor(self, obs, q: Question):
        snap = self.snapshot(obs)
        scored = []
        for ref in q.options:
            card = self.card(obs, ref)
            v = sum(E.worth(E.Walker(snap).run(h.body), snap) for h in E.handlers(card, "on", "setup"))
            scored.append((v + E.lasting(card, snap), ref))
        return self.best(scored)

    def on_strategy(self, obs, q: Question):
        costs = obs.strategy_costs()
        money = obs.track(self.seat, "money")
        free = max(s for s in q.options if costs[s] == 0) if any(costs[s] == 0 for s in q.options) else min(q.options)
        paid = [s for s in q.options if s > free and money - costs[s] >= 6]
        return max(paid) if paid else free

    def on_action(self, obs, q: Question):
        snap = self.snapshot(obs)
        tableau = obs.tableau(self.seat)
        scored: list[tuple[float, object]] = [(PLAY_MARGIN, ("pass",))]
        for o in q.options:
            kind = o[0]
            if kind == "bury":
                v = self.bury_worth(obs, B.idx(*o[1])) - obs.quantity(self.seat, "bury_cost", 1) * E.MONEY
            elif kind == "play":
                card = self.card(obs, o[1])
                worth, dpolicy = self.play_worth(snap, card)
                v = worth - (card.price[0] if card.price else 0) * E.MONEY if self.safe(snap, dpolicy) else 0.0
            elif kind == "execute":
                e = next(x for x in tableau if x.card.id == o[1])
                worth, dpolicy = self.play_worth(snap, e.card, e.uses + 1, again=True)
                v = worth - e.card.price[e.uses] * E.MONEY if self.safe(snap, dpolicy) else 0.0
            elif kind == "switch":
                if (obs.round, o[1]) in self._switched:
                    continue
                e = next(x for x in tableau if x.card.id == o[1])
                now = E.lasting(e.card, snap, e.uses)
                v = -now if e.on else now
            else:
                continue
            scored.append((v, o))
        choice = self.best(scored)
        if choice[0] == "switch":
            self._switched.add((obs.round, choice[1]))
        return choice

    def bury_worth(self, obs, i: int) -> float:
        geo, board = obs.geometry, obs.board
        mine = geo.owner[i]
        return 0.9 * sum(1 for j in geo.neighbours[i] if board[j] == B.HEALTHY and geo.owner[j] == mine)

    def on_treat(self, obs, q: Question):
        cells = [o for o in q.options if o != "done"]
        if not cells:
            return "done"
        board = obs.board
        severe = [c for c in cells if board[B.idx(*c)] == B.SEVERE]
        mild = [c for c in cells if board[B.idx(*c)] == B.MILD]
        disease = obs.track(self.seat, "disease")
        deaths = obs.quantity(self.seat, "new_dead", disease // 4)
        severe_left = obs.count(self.seat, "severe")
        if severe and severe_left <= deaths:
            pool = severe
        else:
            pool = mild or severe
        return self.best([(self.healthy_around(obs, B.idx(*c)), c) for c in pool])

    def healthy_around(self, obs, i: int) -> int:
        board = obs.board
        return sum(1 for j in obs.geometry.neighbours[i] if board[j] == B.HEALTHY)

    def on_cell(self, obs, q: Question):
        word = q.text.split(":")[0].split(" ")[0]
        cells = list(q.options)
        if word in ("cure", "treat", "remove"):
            return self.pick_good(obs, cells)
        if word in ("reveal", "contagion", "deaths", "worsening", "kill", "infect", "worsen"):
            return self.pick_harm(obs, cells, word)
        return cells[self.rng.randrange(len(cells))]

    def pick_good(self, obs, cells):
        rank = {B.DEAD: 3, B.SEVERE: 2, B.MILD: 1, B.HEALTHY: -10}
        return self.best([(rank.get(obs.board[B.idx(*c)], 0) * 10 + self.healthy_around(obs, B.idx(*c)), c)
                          for c in cells])

    def pick_harm(self, obs, cells, word: str):
        first = {B.SEVERE: 2, B.MILD: 1} if word == "kill" else {}
        scored = []
        for c in cells:
            i = B.idx(*c)
            h = self.healthy_around(obs, i)
            mine = obs.geometry.owner[i] == self.seat
            scored.append((first.get(obs.board[i], 0) * 10 + (-h if mine else h), c))
        return self.best(scored)

    def on_arrange(self, obs, q: Question):
        diagonal = B.CORNER_DIAGONALS[self.seat]
        infected = "infected" in q.text
        scored = []
        for c in q.options:
            dist = min(abs(c[0] - r) + abs(c[1] - k) for r, k in diagonal)
            scored.append((dist if infected else -dist, c))
        return self.best(scored)

    def on_amount(self, obs, q: Question):
        return self.forced(obs, q, "amount", q.options[-1])

    def on_choose(self, obs, q: Question):
        return self.forced(obs, q, "choose", q.options[-1])

    def on_may(self, obs, q: Question):
        return self.forced(obs, q, "may", True)

    def forced(self, obs, q: Question, kind: str, fallback):
        """Weigh each answer by reading the handler that asks, with that answer at its first such choice."""
        if q.card is None:
            return fallback
        card = self.card(obs, q.card)
        handler = next((h for h in E.handlers(card) if _holds(h.body, kind)), None)
        if handler is None:
            return fallback
        snap = self.snapshot(obs)
        trigger = handler.event if handler.form in ("when", "once", "react") else None
        entry = next((e for e in obs.tableau(self.seat) if e.card.id == card.id), None)
        uses = entry.uses if entry is not None else 1
        options = q.options if len(q.options) <= 26 else _spread(q.options)
        scored = []
        for o in options:
            w = E.Walker(snap, trigger=trigger, force=o, force_kind=kind, uses=uses, as_subject=True)
            scored.append((E.worth(w.run(handler.body), snap), o))
        return self.best(scored)

    def on_react(self, obs, q: Question):
        snap = self.snapshot(obs)
        card = self.card(obs, q.card)
        return E.react_value(card, snap) - (card.price[0] if card.price else 0) * E.MONEY > 0

    def on_keep(self, obs, q: Question):
        snap = self.snapshot(obs)
        return self.best([(self.card_worth(obs, snap, self.card(obs, ref)), ref) for ref in q.options])

    def on_discard(self, obs, q: Question):
        snap = self.snapshot(obs)
        return self.best([(-self.card_worth(obs, snap, self.card(obs, ref)), ref) for ref in q.options])

    def on_offer(self, obs, q: Question):
        snap = self.snapshot(obs)
        scored = [(self.card_worth(obs, snap, self.card(obs, ref)), ref) for ref in q.options if ref is not None]
        low = min(v for v, _ in scored)
        if low >= 1.0:
            return None
        return self.best([(-v, ref) for v, ref in scored])

    def on_bid(self, obs, q: Question):
        snap = self.snapshot(obs)
        worth = self.card_worth(obs, snap, self.card(obs, q.card))
        top = q.options[-1]                 # bids are 0 … money, ascending
        bid = int(worth / E.MONEY * 0.5)
        return max(0, min(bid, top - BID_RESERVE))

    def on_other(self, obs, q: Question):
        return q.options[self.rng.randrange(len(q.options))]


def _holds(stmts, kind: str) -> bool:
    """Does a block hold a choice of this kind (searching nested blocks)?"""
    for s in stmts:
        if kind == "choose" and isinstance(s, ast.Choose):
            return True
        if kind == "may" and isinstance(s, (ast.May, ast.MayPay)):
            return True
        if kind == "amount" and isinstance(s, ast.VerbStmt) and s.amount.mode in ("any", "up_to"):
            return True
        for body in _bodies(s):
            if _holds(body, kind):
                return True
    return False


def _bodies(s):
    if isinstance(s, ast.If):
        return [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
    return [s.body] if hasattr(s, "body") else []


def _spread(options):
    """At most 26 answers, evenly over a long range (both ends kept)."""
    n = len(options)
    return tuple(options[round(k * (n - 1) / 25)] for k in range(26))
