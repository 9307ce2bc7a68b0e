"""The fixed core of rules.md: setup, the seven phases, end conditions and final scoring."""

from __future__ import annotations

import random
from typing import Any, Callable

from rulekit import registry
from rulekit.agents.base import DefaultChooser, Question
from rulekit.core import board as B
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.ops import EffectOps
from rulekit.core.state import Ctx, Entry, PlayerState, track_bounds, unique_ids

STRATEGIES = {1: (1, 1, 1), 2: (1, 1, 2), 3: (1, 2, 3)}
# An out player's board still spreads; its choices are made in reading order (rules.md 5).
OUT_OF_GAME = DefaultChooser()


class Game(EffectOps):
    """One game: a pure function of (content, rules, seed, choosers)."""

    def __init__(self, content, seed: int, choosers, *, players: int | None = None,
                 rules: dict | None = None, evaluator: str = "compiled", log: list | None = None,
                 combos: list | None = None):
        from rulekit.interpreter import compile_content

        self.content = content
        self.rules = rules if rules is not None else content.rules
        self.players = players or int(self.rules.get("players", 4))
        if not 2 <= self.players <= 4:
            raise ValueError(f"a table has 2 to 4 players, not {self.players}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.choosers = list(choosers)
        self.log = log
        self.geo = B.geometry(self.players)
        self.board = [B.NOCELL if o < 0 else B.EMPTY for o in self.geo.owner]
        self.bounds = track_bounds(self.rules)
        start = {n: b[2] for n, b in self.bounds.items() if n != "money"}
        self.ps = [PlayerState(s, start, self.bounds["money"][2]) for s in range(self.players)]
        self.compiled, self.conditions = compile_content(content, self.rules, evaluator)
        self.decks: dict[int, list] = {1: [], 2: [], 3: []}
        self.discards: dict[int, list] = {1: [], 2: [], 3: []}
        self.event_deck: list = []
        self.history: list = []
        self.current_event = None
        self.last_event = None
        self.offers: list = []
        self.advisor_deck: list = []
        self.out_of_game: list = []
        self.round = 1
        self.phase = "setup"
        self.over = False
        self.end_reason: str | None = None
        self.trigger_depth = 0
        self.treated: set[int] = set()
        combo_cards = combos if combos is not None else content.of_kind("combo")
        self.combos = sorted(combo_cards, key=lambda c: c.id)
        self.events_drawn: list[str] = []
        self.combos_log: list[tuple[int, str]] = []
        self.score_history: list[tuple[int, ...]] = []
        self.build_decks()

    # ---- logging and questions -------------------------------------------------
    def record(self, kind: str, **data) -> None:
        if self.log is not None:
            self.log.append({"e": kind, "round": self.round, "phase": self.phase, **data})

    def ask(self, seat: int, kind: str, options, card=None, text: str = "") -> Any:
        """Ask a seat's chooser; out players' boards answer in reading order (rules.md 5)."""
        options = tuple(options)
        q = Question(kind, seat, options, card.id if card is not None else None, text)
        chooser = OUT_OF_GAME if self.ps[seat].out else self.choosers[seat]
        answer = chooser.choose(self, q)
        if answer not in options:
            raise RuleViolation(f"P{seat + 1} answered {answer!r}, which is not a legal answer to '{kind}'"
                                f" (legal: {_preview(options)})")
        if self.log is not None:
            self.record("ask", seat=seat, q=kind, card=q.card, n=len(options), a=_jsonable(answer))
        return answer

    # ---- turn order --------------------------------------------------------------
    def first_seat(self) -> int:
        if self.rules.get("first_player", "rotate") == "fixed":
            return 0
        return (self.round - 1) % self.players

    def turn_order(self) -> list[int]:
        f = self.first_seat()
        return [(f + i) % self.players for i in range(self.players)]

    def in_order(self) -> list[int]:
        return [s for s in self.turn_order() if not self.ps[s].out]

    def active_players(self) -> list[int]:
        return [s for s in range(self.players) if not self.ps[s].out]

    # ---- decks -------------------------------------------------------------------
    def build_decks(self) -> None:
        for card in self.content.of_kind("policy"):
            if card.stage in self.decks:
                self.decks[card.stage].extend([card] * card.copies)
        for card in self.content.of_kind("event"):
            self.event_deck.extend([card] * card.copies)
        self.advisor_deck = list(self.content.of_kind("advisor"))

    def draw_policy(self, stage: int):
        deck = self.decks[stage]
        if not deck and self.discards[stage]:
            deck.extend(self.discards[stage])
            self.discards[stage].clear()
            self.rng.shuffle(deck)
            self.record("refill", stage=stage, cards=len(deck))
        return deck.pop() if deck else None

    def take_from_deck(self, card) -> bool:
        """Take a named card out of whichever deck holds it (scenarios)."""
        pools = [*self.decks.values(), *self.discards.values(), self.event_deck, self.advisor_deck]
        for pool in pools:
            for i in range(len(pool) - 1, -1, -1):
                if pool[i].id == card.id:
                    del pool[i]
                    return True
        return False

    # ---- setup ---------------------------------------------------------------------
    def setup(self) -> None:
        self.phase = "setup"
        self.fill_tiles()
        self.deal_advisors()
        for s in range(self.players):
            self.run_on(s, "setup")
        self.initial_reveal()
        self.shuffle_decks()
        self.record("setup_done")

    def fill_tiles(self) -> None:
        per = int(self.rules["tiles"]["infected_per_player"])
        if self.rules["tiles"].get("shuffle", "global") == "per_player":
            for s in range(self.players):
                fronts = [B.TILE_I] * per + [B.TILE_H] * (25 - per)
                self.rng.shuffle(fronts)
                for i, f in zip(self.geo.cells_of[s], fronts):
                    self.board[i] = f
        else:
            n = 25 * self.players
            fronts = [B.TILE_I] * (per * self.players) + [B.TILE_H] * (n - per * self.players)
            self.rng.shuffle(fronts)
            cells = [i for i in range(100) if self.geo.owner[i] >= 0]
            for i, f in zip(cells, fronts):
                self.board[i] = f

    def deal_advisors(self) -> None:
        deck = self.advisor_deck
        self.rng.shuffle(deck)
        for s in range(self.players):
            dealt = [deck.pop() for _ in range(min(2, len(deck)))]
            if not dealt:
                continue
            keep_id = self.ask(s, "advisor", [c.id for c in dealt], text="keep one advisor")
            for c in dealt:
                if c.id == keep_id and self.ps[s].advisor is None:
                    self.set_advisor(s, c)
                else:
                    self.out_of_game.append(c)

    def set_advisor(self, seat: int, card) -> None:
        p = self.ps[seat]
        p.advisor = card
        p.advisor_compiled = self.compiled[card.id]
        self.record("advisor", seat=seat, card=card.id)

    def initial_reveal(self) -> None:
        if self.rules["setup"].get("reveal", "corner_diagonal") != "corner_diagonal":
            return
        for s in range(self.players):
            for r, c in B.CORNER_DIAGONALS[s]:
                i = B.idx(r, c)
                if self.board[i] in B.TILES:
                    self.reveal_cell(i)

    def shuffle_decks(self) -> None:
        self.rng.shuffle(self.event_deck)
        for k in (1, 2, 3):
            self.rng.shuffle(self.decks[k])

    # ---- the round -----------------------------------------------------------------
    def play(self) -> None:
        """Set up and play to the end."""
        self.setup()
        while not self.over:
            self.run_round()
        self.finish()

    def run_round(self) -> None:
        self.record("round_start")
        self.run_phase_handlers("round", "start")
        for phase in registry.PHASE_ORDER:
            self.run_phase(phase)
            if self.over:
                return
        self.run_phase_handlers("round", "end")
        self.score_history.append(tuple(p.score for p in self.ps))
        if self.log is not None:
            self.record("tracks", players=[self.snapshot(s) for s in range(self.players)])
        if self.over:
            return
        if not self.event_deck and self.last_event is not None:
            self.end("events_exhausted")
        elif self.round >= int(self.rules.get("max_rounds", 14)):
            self.end("max_rounds")
        else:
            self.round += 1

    def run_phase(self, phase: str) -> None:
        self.phase = phase
        self.record("phase")
        self.run_phase_handlers(phase, "start")
        getattr(self, "phase_" + phase)()
        self.run_phase_handlers(phase, "end")
        self.check_unlocks()
        self.check_end()

    def run_phase_handlers(self, phase: str, edge: str) -> None:
        key = f"{phase} {edge}"
        for s in self.in_order():
            for compiled, entry in self.ps[s].active_cards():
                fn = compiled.on.get(key)
                if fn is not None:
                    self.run_handler(fn, compiled.card, s, entry)

    def run_on(self, seat: int, key: str, entry=None) -> None:
        p = self.ps[seat]
        compiled = entry.compiled if entry is not None else p.advisor_compiled
        if compiled is None:
            return
        fn = compiled.on.get(key)
        if fn is not None:
            self.run_handler(fn, compiled.card, seat, entry)

    def run_handler(self, fn: Callable, card, seat: int | None, entry=None, it=None) -> Ctx:
        ctx = Ctx(self, card, seat, seat, entry, it)
        self.trigger_depth += 1
        try:
            if self.trigger_depth > registry.MAX_TRIGGER_DEPTH:
                raise EffectError(f"effects set each other off more than {registry.MAX_TRIGGER_DEPTH} times in a row"
                                  " (a trigger whose effect fires it again?)", card, 0, self.round, self.seed)
            fn(ctx)
        except EffectError as err:
            if err.seed is None:
                err.seed, err.round = self.seed, self.round
                err.args = (err.describe(),)
            raise
        finally:
            self.trigger_depth -= 1
        return ctx

    # ---- phase 1: income --------------------------------------------------------------
    def phase_income(self) -> None:
        for s in self.in_order():
            p = self.ps[s]
            base = p.economy + self.count(s, "healthy") // 2
            self.gain_money(s, self.quantity(s, "income", base), "income")

    # ---- phase 2: reserve -------------------------------------------------------------
    def phase_reserve(self) -> None:
        self.check_unlocks()
        for s in self.in_order():
            self.reserve_for(s)
        limit = self.rules.get("hand_limit")
        if limit is not None:
            for s in self.in_order():
                while len(self.ps[s].hand) > int(limit):
                    cid = self.ask(s, "discard", unique_ids(self.ps[s].hand), text=f"discard down to {limit}")
                    card = self.take_from_hand(s, cid)
                    self.discard_card(card)

    def strategy_costs(self, seat: int) -> dict[int, int]:
        L = self.ps[seat].unlocked
        G = max([self.ps[s].unlocked for s in self.active_players()] or [1])
        return {s: max(0, s - L) for s in (1, 2, 3) if s <= G}

    def reserve_for(self, seat: int) -> None:
        p = self.ps[seat]
        costs = {s: c for s, c in self.strategy_costs(seat).items() if c <= p.money}
        choice = self.ask(seat, "strategy", sorted(costs), text="draw strategy")
        if costs[choice]:
            self.spend_money(seat, costs[choice], "strategy")
        for stage in STRATEGIES[choice]:
            card = self.draw_policy(stage)
            if card is not None:
                self.to_hand(seat, card, f"stage {stage}")

    # ---- phase 3: actions -------------------------------------------------------------
    def phase_actions(self) -> None:
        passed: set[int] = set()
        taken = dict.fromkeys(range(self.players), 0)
        limit = int(self.rules.get("actions", {}).get("max_per_phase", 50))
        while True:
            acted = False
            for s in self.in_order():
                if s in passed or self.ps[s].out:
                    continue
                if taken[s] >= limit:
                    passed.add(s)
                    self.record("action_limit", seat=s, limit=limit)
                    continue
                action = self.ask(s, "action", self.legal_actions(s), text="take an action or pass")
                if action[0] == "pass":
                    passed.add(s)
                else:
                    self.do_action(s, action)
                    taken[s] += 1
                    acted = True
            if not acted or all(s in passed for s in self.in_order()):
                return

    def legal_actions(self, seat: int) -> list:
        p = self.ps[seat]
        acts: list = [("pass",)]
        mine = self.geo.cells_of[seat]
        board = self.board
        if p.money >= self.quantity(seat, "bury_cost", 1):
            acts += [("bury", B.rc(i)) for i in mine if board[i] == B.DEAD]
        if p.money >= self.quantity(seat, "relocate_cost", 1):
            empties = [i for i in mine if board[i] == B.EMPTY]
            if empties:
                for i in mine:
                    if board[i] in B.RESIDENTS:
                        acts += [("relocate", B.rc(i), B.rc(j)) for j in empties]
        for card in {c.id: c for c in p.hand}.values():     # each card name once, first-seen order
            if self.can_play(seat, card) is None:
                acts.append(("play", card.id))
        for e in p.tableau:
            if self.can_execute(seat, e) is None:
                acts.append(("execute", e.card.id))
        for e in p.tableau:
            if e.card.switchable and not e.spent and e.switched_round != self.round:
                acts.append(("switch", e.card.id))
        return acts

    def can_play(self, seat: int, card, reaction: bool = False) -> str | None:
        """Why the card cannot be played now, or None."""
        p = self.ps[seat]
        if p.has_name(card.name):
            return f"P{seat + 1} already has {card.name} in the tableau (one card per name)"
        price = card.price[0] if card.price else 0
        if price > p.money:
            return f"{card.name} costs {price}, P{seat + 1} has {p.money}"
        if not reaction and not self.compiled[card.id].playable:
            return f"{card.name} is played only as a reaction"
        return None

    def can_execute(self, seat: int, e: Entry) -> str | None:
        if len(e.card.price) <= 1:
            return f"{e.card.name} cannot be executed again"
        if e.uses >= len(e.card.price):
            return f"{e.card.name} has been executed {e.uses} times, its price list allows {len(e.card.price)}"
        if e.last_round == self.round:
            return f"{e.card.name} was already executed this round"
        if not e.active:
            return f"{e.card.name} is switched off or spent"
        if e.card.price[e.uses] > self.ps[seat].money:
            return f"executing {e.card.name} again costs {e.card.price[e.uses]}, P{seat + 1} has {self.ps[seat].money}"
        return None

    def do_action(self, seat: int, action) -> None:
        kind = action[0]
        if kind == "bury":
            self.spend_money(seat, self.quantity(seat, "bury_cost", 1), "bury")
            self.set_cell(B.idx(*action[1]), B.EMPTY, "bury")
        elif kind == "relocate":
            a, b = B.idx(*action[1]), B.idx(*action[2])
            self.spend_money(seat, self.quantity(seat, "relocate_cost", 1), "relocate")
            state = self.board[a]
            self.set_cell(a, B.EMPTY, "relocate")
            self.set_cell(b, state, "relocate")
        elif kind == "play":
            self.play_card(seat, action[1])
        elif kind == "execute":
            self.execute_card(seat, action[1])
        elif kind == "switch":
            e = self.entry_of(seat, action[1])
            if not e.card.switchable or e.switched_round == self.round:
                raise RuleViolation(f"{e.card.name} cannot be switched again this round")
            e.on = not e.on
            e.switched_round = self.round
            self.record("switch", seat=seat, card=e.card.id, on=e.on)

    def entry_of(self, seat: int, ref: str) -> Entry:
        for e in self.ps[seat].tableau:
            if ref in (e.card.id, e.card.name):
                return e
        raise RuleViolation(f"P{seat + 1} has no {ref} in the tableau")

    def play_card(self, seat: int, ref: str) -> Entry:
        """Play a card from hand as an action: pay the first price, into the tableau, resolve `on play`."""
        entry = self.enter_tableau(seat, ref, None)
        self.run_on(seat, "play", entry)
        return entry

    def react_with(self, seat: int, ref: str, trigger: str, it) -> bool:
        """Play a card from hand as a reaction to `trigger`; True when its block prevented what was happening."""
        entry = self.enter_tableau(seat, ref, trigger)
        ctx = self.run_handler(entry.compiled.react[trigger], entry.card, seat, entry, it)
        return ctx.prevented

    def enter_tableau(self, seat: int, ref: str, reaction: str | None) -> Entry:
        """Pay a hand card's first price and put it in the tableau as its first execution."""
        p = self.ps[seat]
        card = next((c for c in p.hand if ref in (c.id, c.name)), None)
        if card is None:
            raise RuleViolation(f"P{seat + 1} has no {ref} in hand")
        why = self.can_play(seat, card, reaction=reaction is not None)
        if why:
            raise RuleViolation(why)
        price = card.price[0] if card.price else 0
        p.hand.remove(card)
        self.spend_money(seat, price, "price of " + card.id)
        entry = Entry(card, self.compiled[card.id], self.round)
        p.tableau.append(entry)
        p.played_ids.append(card.id)
        self.record("play", seat=seat, card=card.id, price=price, reaction=reaction)
        return entry

    def execute_card(self, seat: int, ref: str) -> Entry:
        e = self.entry_of(seat, ref)
        why = self.can_execute(seat, e)
        if why:
            raise RuleViolation(why)
        price = e.card.price[e.uses]
        self.spend_money(seat, price, "price of " + e.card.id)
        e.uses += 1
        e.last_round = self.round
        self.record("execute", seat=seat, card=e.card.id, price=price, uses=e.uses)
        self.run_on(seat, "play", e)
        return e

    # ---- phase 4: treatment -----------------------------------------------------------
    def phase_treatment(self) -> None:
        for s in self.in_order():
            self.treat_for(s)

    def treat_for(self, seat: int) -> None:
        p = self.ps[seat]
        mild_cost = self.quantity(seat, "mild_cost", int(self.rules["treatment"]["mild_cost"]))
        severe_cost = self.quantity(seat, "severe_cost", int(self.rules["treatment"]["severe_cost"]))
        budget = p.medical
        treated: set[int] = set()
        while True:
            opts = []
            for i in self.geo.cells_of[seat]:
                st = self.board[i]
                if i in treated:
                    continue
                if (st == B.MILD and mild_cost <= budget) or (st == B.SEVERE and severe_cost <= budget):
                    opts.append(B.rc(i))
            if not opts:
                return
            answer = self.ask(seat, "treat", opts + ["done"], text=f"treat (medical left {budget})")
            if answer == "done":
                return
            i = B.idx(*answer)
            treated.add(i)
            if self.board[i] == B.MILD:
                budget -= mild_cost
                self.set_cell(i, B.HEALTHY, "treatment")
            else:
                budget -= severe_cost
                self.set_cell(i, B.MILD, "treatment")

    # ---- phase 5: spread ----------------------------------------------------------------
    def phase_spread(self) -> None:
        for step in registry.SPREAD_STEPS:
            self.run_spread_step(step)
            if self.over:
                return

    def run_spread_step(self, step: str) -> None:
        for s in self.turn_order():
            getattr(self, "spread_" + step)(s)
        self.check_unlocks()

    def spread_discovery(self, seat: int) -> None:
        n = self.quantity(seat, "discovery", int(self.rules["discovery"]["per_round"]))
        self.reveal_some(seat, n, None)

    def spread_contagion(self, seat: int) -> None:
        p = self.ps[seat]
        x = self.quantity(seat, "new_mild", p.disease // 3)
        if x <= 0:
            return
        board, nb, owner = self.board, self.geo.neighbours, self.geo.owner
        sources = [i for i in self.geo.cells_of[seat] if board[i] in B.INFECTED]
        own, other = [], []
        for i in sources:
            for j in nb[i]:
                if board[j] == B.HEALTHY:
                    if owner[j] == seat:
                        if j not in own:
                            own.append(j)
                    elif not self.sealed(owner[j]) and j not in other:
                        other.append(j)
        for tier in (sorted(own), sorted(other)):
            if x <= 0:
                return
            chosen = self.pick_cells(seat, tier, x, "contagion: infect a healthy neighbour")
            for i in chosen:
                self.set_cell(i, B.MILD, "contagion")
            x -= len(chosen)

    def spread_dead_contagion(self, seat: int) -> None:
        board, nb, owner = self.board, self.geo.neighbours, self.geo.owner
        targets = []
        for i in self.geo.cells_of[seat]:
            if board[i] == B.DEAD:
                for j in nb[i]:
                    if board[j] == B.HEALTHY and j not in targets:
                        if owner[j] == seat or not self.sealed(owner[j]):
                            targets.append(j)
        for j in sorted(targets):
            self.set_cell(j, B.MILD, "dead contagion")

    def spread_deaths(self, seat: int) -> None:
        self.spread_x(seat, "new_dead", B.SEVERE, "deaths: a severe case dies",
                      lambda i: self.kill_cell(i, "deaths", None))

    def spread_worsening(self, seat: int) -> None:
        self.spread_x(seat, "new_severe", B.MILD, "worsening: a mild case becomes severe",
                      lambda i: self.set_cell(i, B.SEVERE, "worsening"))

    def spread_x(self, seat: int, quantity: str, state: int, text: str, apply) -> None:
        """X = floor(disease / 4), modified; X cells of the state, the player's choice (rules.md 3.5 steps 3-4)."""
        x = self.quantity(seat, quantity, self.ps[seat].disease // 4)
        if x > 0:
            for i in self.pick_cells(seat, self.cells(seat, (state,)), x, text):
                apply(i)

    def pick_cells(self, seat: int, cells: list[int], x: int, text: str, card=None, kind: str = "cell") -> list[int]:
        """X cells of `cells` chosen one at a time by the seat; all of them when X covers them."""
        if x >= len(cells):
            return list(cells)
        left = list(cells)
        chosen = []
        for _ in range(x):
            a = self.ask(seat, kind, [B.rc(i) for i in left], card=card, text=text)
            i = B.idx(*a)
            left.remove(i)
            chosen.append(i)
        return chosen

    # ---- phase 6: exchange ----------------------------------------------------------------
    def phase_exchange(self) -> None:
        self.offers = []
        for s in self.in_order():
            hand = self.ps[s].hand
            if not hand:
                continue
            cid = self.ask(s, "offer", [*unique_ids(hand), None], text="offer one card, or none")
            if cid is not None:
                card = self.take_from_hand(s, cid)
                self.offers.append((s, card))
                self.record("offer", seat=s, card=card.id)
        offers, self.offers = self.offers, []
        for owner, card in offers:
            self.auction(owner, card)

    def auction(self, owner: int, card) -> None:
        best, best_bid = None, 0
        for s in self.in_order():
            if s == owner:
                continue
            bid = self.ask(s, "bid", range(self.ps[s].money + 1), card=card, text=f"bid for {card.name}")
            if bid > best_bid:
                best, best_bid = s, bid
        if best is None:
            self.record("unsold", seat=owner, card=card.id)
            self.ps[owner].hand.append(card)
            self.fire(owner, "unsold", card)
            return
        self.spend_money(best, best_bid, "bid")
        self.gain_money(owner, best_bid, "sale")
        self.ps[best].hand.append(card)
        self.record("sold", seat=owner, to=best, card=card.id, bid=best_bid)

    # ---- phase 7: event -------------------------------------------------------------------
    def phase_event(self) -> None:
        if not self.event_deck:
            return
        self.resolve_event(self.event_deck.pop())

    def resolve_event(self, card) -> None:
        self.current_event = card
        self.last_event = card
        self.events_drawn.append(card.id)
        self.record("event", card=card.id)
        fn = self.compiled[card.id].on.get("resolve")
        if fn is not None:
            self.run_handler(fn, card, None)
        self.fire_combos()
        self.event_scoring()
        self.history.append(card)
        self.current_event = None
        for p in self.ps:
            for e in p.tableau:
                if e.card.duration == "round" and e.played_round == self.round and not e.spent:
                    e.spent = True
                    self.record("spent", seat=p.seat, card=e.card.id)

    def fire_combos(self) -> None:
        every = self.rules["combos"].get("repeat", "once") == "every_round"
        for s in self.in_order():
            p = self.ps[s]
            for combo in self.combos:
                if not every and combo.id in p.combos_fired:
                    continue
                compiled = self.compiled[combo.id]
                ctx = Ctx(self, combo, s, s)
                if compiled.condition is not None and compiled.condition(ctx):
                    p.combos_fired.add(combo.id)
                    self.combos_log.append((s, combo.id))
                    self.record("combo", seat=s, card=combo.id)
                    fn = compiled.on.get("resolve")
                    if fn is not None:
                        self.run_handler(fn, combo, s)
                if p.out:
                    break

    def event_scoring(self) -> None:
        for s in self.in_order():
            p = self.ps[s]
            delta = -1 if p.policy < 0 else 0
            if self.count(s, "tiles") == 0:
                delta += (self.count(s, "dead") == 0) + (self.count(s, "severe") == 0) + (self.count(s, "infected") < 5)
            if delta:
                self.add_score(s, delta, "event scoring")

    # ---- unlocks, end -------------------------------------------------------------------------
    def check_unlocks(self) -> None:
        for s in self.active_players():
            p = self.ps[s]
            ctx = Ctx(self, None, s, s)
            if p.unlocked < 2 and self.conditions["stage2"](ctx):
                self.set_unlocked(s, 2)
            if p.unlocked == 2 and self.conditions["stage3"](ctx):
                self.set_unlocked(s, 3)

    def set_unlocked(self, seat: int, stage: int) -> None:
        if stage > self.ps[seat].unlocked:
            self.ps[seat].unlocked = stage
            self.record("unlock", seat=seat, stage=stage)

    def check_end(self) -> None:
        for s in self.active_players():
            if self.count(s, "tiles") == 0 and self.count(s, "alive") == 0:
                self.knock_out(s, "emptied")
        if self.over:
            return
        if all(b not in B.TILES and b not in B.INFECTED for b in self.board):
            self.end("won_fight")
        elif len(self.active_players()) < 2:
            self.end("one_left")

    def knock_out(self, seat: int, reason: str) -> None:
        p = self.ps[seat]
        if p.out:
            return
        p.out = True
        p.out_reason = reason
        self.record("out", seat=seat, reason=reason)

    def end(self, reason: str) -> None:
        if not self.over:
            self.over = True
            self.end_reason = reason
            self.record("end", reason=reason)

    def finish(self) -> None:
        """Final scoring (rules.md 4) and the winner (rules.md 5)."""
        self.phase = "final"
        if len(self.score_history) < self.round:
            self.score_history.append(tuple(p.score for p in self.ps))
        for s in self.active_players():
            p = self.ps[s]
            penalty = self.quantity(s, "final_penalty", 0)
            total = 0
            for e in p.tableau:
                v = e.card.score
                total += v if v >= 0 else min(0, v - penalty)
            if total:
                p.score += total
                self.record("final_score", seat=s, delta=total, score=p.score)
        self.record("final", scores=[p.score for p in self.ps], winners=list(self.winners()))

    def snapshot(self, seat: int) -> dict:
        """A seat's tracks, money and board counts, for logs and accounts."""
        p = self.ps[seat]
        out = {name: getattr(p, name) for name in self.bounds}
        out.update({k: self.count(seat, k) for k in ("healthy", "mild", "severe", "dead", "tiles")})
        out["out"] = p.out
        return out

    def winners(self) -> tuple[int, ...]:
        pool = self.active_players()
        if self.rules.get("out_players_can_win") or not pool:
            pool = list(range(self.players))
        key = lambda s: (self.ps[s].score, self.count(s, "alive"))
        best = max(key(s) for s in pool)
        return tuple(s for s in pool if key(s) == best)


def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _preview(options) -> str:
    shown = ", ".join(repr(o) for o in options[:8])
    return shown + (", …" if len(options) > 8 else "")
