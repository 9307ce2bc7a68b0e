"""Every change of state the rules allow: cells, deaths, reveals, money and tracks, overthrow, cards and
tableau, transfers, the planner's arrangement and moving residents — and the board reads they rest on.

`Ops` is the part of a Game that changes its GameState; the phases and the effect runtime change the
state only through it, so each change is logged, counted and heard (triggers) in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulekit import registry
from rulekit.core import board as B
from rulekit.core import quantities as Q
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.chance import Chance
from rulekit.core.handlers import DEATH_WORDS, Frame
from rulekit.core.program import Card
from rulekit.core.questions import CELLS, Ask
from rulekit.core.rules import Rules
from rulekit.core.state import Entry, unique_ids

MAX_MARKS = registry.LIMITS["marks"].value


class Ops(Chance):
    """The operations of rules.md over a game's state."""

    rules: Rules
    geo: B.Geometry
    _where: list[list[set[int]]] | None          # cells of each seat by state
    _frontier: list[set[int]] | None             # face-down tiles of each seat next to a revealed cell
    _order_round: int

    # ---- reading the board ------------------------------------------------------------------------------------
    def count(self, seat: int, name: str) -> int:
        return sum(map(self.state.seats[seat].counts.__getitem__, B.COUNT_CODES[name]))

    def cells(self, seat: int, codes: Sequence[int]) -> list[int]:
        """A seat's cells in these states, in reading order."""
        where = self._where or self._index_cells()
        sets = where[seat]
        if len(codes) == 1:
            return sorted(sets[codes[0]])
        found: list[int] = []
        for code in codes:
            found.extend(sets[code])
        found.sort()
        return found

    def _index_cells(self) -> list[list[set[int]]]:
        board = self.state.board
        where: list[list[set[int]]] = [[set() for _ in range(B.N_CODES)] for _ in range(self.players)]
        for s in range(self.players):
            sets = where[s]
            for i in self.geo.cells_of[s]:
                sets[board[i]].add(i)
        self._where = where
        return where

    # ---- cells ----------------------------------------------------------------------------------------------
    def set_cell(self, i: int, new: int, cause: str) -> None:
        st = self.state
        board = st.board
        old = board[i]
        if old == new:
            return
        board[i] = new
        seat = self.geo.owner[i]
        ps = st.seats[seat]
        c = ps.counts
        c[old] -= 1
        c[new] += 1
        st.board_version[seat] += 1
        where = self._where
        if where is not None:
            where[seat][old].discard(i)
            where[seat][new].add(i)
        if old == B.TILE and self._frontier is not None:
            self._revealed(i)
        if self.log is not None:
            self.record("cell", cell=list(B.RC[i]), before=B.STATE_NAMES[old], after=B.STATE_NAMES[new], cause=cause)
        if st.tags and i in st.tags:       # a tag stays only while its resident stays as it is
            self.tag_cell(i, st.tags[i], False, cause)
        if old == B.MILD and new == B.HEALTHY:
            self.add_score(seat, 1, "cured")
            if self.program.hears_cure:
                self.fire(seat, "cure", i)
        elif new == B.DEAD and old in B.ALIVE:
            self.add_score(seat, -1, "death")

    def tag_cell(self, i: int, tag: str, on: bool, cause: str) -> bool:
        """Put a tag on cell i (only a living resident takes one; it replaces another tag there), or take it
        off (only that tag). True when the cell's tag changed."""
        tags = self.state.tags
        if on:
            if self.state.board[i] not in B.ALIVE or tags.get(i) == tag:
                return False
            tags[i] = tag
        elif tags.get(i) == tag:
            del tags[i]
        else:
            return False
        self.state.board_version[self.geo.owner[i]] += 1    # what reads the board (once when becomes) looks again
        if self.log is not None:
            self.record("tag", cell=list(B.RC[i]), tag=tag, on=on, cause=cause)
        return True

    def tagged(self, seat: int, tag: str) -> list[int]:
        """The seat's cells holding this tag, in reading order."""
        owner = self.geo.owner
        return sorted(i for i, m in self.state.tags.items() if m == tag and owner[i] == seat)

    def board_changed(self) -> None:
        """The board was laid by hand: forget what was derived from it."""
        self._frontier = None
        self._where = None
        for s in range(self.players):
            self.state.board_version[s] += 1

    def place_tile(self, i: int, infected: bool) -> None:
        """Lay a face-down tile on a cell (set-up, the planner): no reveal, no trigger."""
        st = self.state
        old = st.board[i]
        if old != B.TILE:
            self._frontier = None
            self._where = None
            seat = self.geo.owner[i]
            st.seats[seat].counts[old] -= 1
            st.seats[seat].counts[B.TILE] += 1
            st.board[i] = B.TILE
            st.board_version[seat] += 1
        st.fronts[i] = 1 if infected else 0

    def reveal_cell(self, i: int) -> None:
        st = self.state
        infected = st.fronts[i]
        st.fronts[i] = 0
        st.seen.append((-1, "reveal", i, infected))
        self.set_cell(i, B.MILD if infected else B.HEALTHY, "reveal")
        self.fire(self.geo.owner[i], "reveal mild" if infected else "reveal healthy", i)

    def reveal_candidates(self, seat: int) -> list[int]:
        """A seat's face-down tiles next to a revealed cell (any board), or all of them if none is."""
        frontier = self._frontier
        if frontier is None:
            frontier = self._build_frontier()
        near = frontier[seat]
        if near:
            return sorted(near)
        return self.cells(seat, (B.TILE,))

    def _build_frontier(self) -> list[set[int]]:
        """Each seat's face-down tiles with a revealed neighbour (kept up to date as tiles are revealed)."""
        board, nb, owner = self.state.board, self.geo.neighbours, self.geo.owner
        frontier: list[set[int]] = [set() for _ in range(self.players)]
        for i in self.geo.cells:
            if board[i] == B.TILE and any(board[j] > B.TILE_I for j in nb[i]):
                frontier[owner[i]].add(i)
        self._frontier = frontier
        return frontier

    def _revealed(self, i: int) -> None:
        """Tile i was revealed: it leaves its seat's frontier, and its face-down neighbours join theirs."""
        frontier = self._frontier
        assert frontier is not None
        board, owner = self.state.board, self.geo.owner
        frontier[owner[i]].discard(i)
        for j in self.geo.neighbours[i]:
            if board[j] == B.TILE:
                frontier[owner[j]].add(j)

    def reveal_some(self, seat: int, n: int, card: Card | None, chooser: int | None = None) -> int:
        """Reveal n tiles of the seat's board, one at a time, each next to a revealed cell; `chooser` (default the
        seat) picks which."""
        done = 0
        for _ in range(n):
            cands = self.reveal_candidates(seat)
            if not cands:
                break
            if len(cands) == 1:
                i = cands[0]
            else:
                c = self.effect_ask(seat if chooser is None else chooser, Ask.CELL, [CELLS[k] for k in cands],
                                    card=card, text="reveal a tile next to a revealed cell")
                i = c.row * B.SIZE + c.col
            self.reveal_cell(i)
            done += 1
        return done

    def kill_cell(self, i: int, cause: str) -> bool:
        """A resident dies unless a `death` handler prevents it; True when it died. A `death` handler
        that moved or removed the resident leaves nobody there to die."""
        board = self.state.board
        if board[i] not in B.ALIVE or i in self.dying:
            return False
        self.dying.add(i)
        try:
            prevented = self.fire(self.geo.owner[i], DEATH_WORDS[board[i]], i)
        finally:
            self.dying.discard(i)
        if prevented:
            self.record("death_prevented", cell=list(B.RC[i]))
            return False
        if board[i] not in B.ALIVE:
            return False
        self.set_cell(i, B.DEAD, cause)
        return True

    def pick_cells(self, seat: int, cells: list[int], x: int, text: str, card: Card | None = None,
                   kind: Ask = Ask.CELL) -> list[int]:
        """X cells of `cells` chosen one at a time by the seat (an effect asks); all when X covers them."""
        if x >= len(cells):
            return list(cells)
        left = list(cells)
        chosen = []
        for _ in range(x):
            c = self.effect_ask(seat, kind, [CELLS[i] for i in left], card=card, text=text)
            i = c.row * B.SIZE + c.col
            left.remove(i)
            chosen.append(i)
        return chosen

    # ---- money, tracks, players -----------------------------------------------------------------------------------
    def gain_money(self, seat: int, n: int, why: str) -> None:
        if n:
            p = self.state.seats[seat]
            new = min(self.rules.bound("money")[1], p.money + n)
            delta, p.money = new - p.money, new
            if self.log is not None and delta:
                self.record("money", seat=seat, delta=delta, money=new, why=why)

    def spend_money(self, seat: int, n: int, why: str) -> None:
        """A payment the player chose: prices, bids, strategies, `spend`, `may pay`."""
        p = self.state.seats[seat]
        if n > p.money:
            raise EffectError(f"P{seat + 1} cannot pay {n} (has {p.money})")
        if n:
            p.money -= n
            if self.log is not None:
                self.record("money", seat=seat, delta=-n, money=p.money, why=why)

    def add_score(self, seat: int, delta: int, why: str) -> None:
        p = self.state.seats[seat]
        if p.out or not delta:
            return
        lo, hi, _ = self.rules.bound("score")
        new = p.score + delta
        if "score" in (self._tables[seat] or self._index(seat)).limits:
            new = self.held(seat, "score", p.score, new, why)
            if new == p.score:
                return
        p.score = max(lo, min(hi, new))
        if self.log is not None:
            self.record("track", seat=seat, track="score", delta=delta, value=p.score, why=why)

    def set_track(self, seat: int, track: str, new: int, why: str | None) -> None:
        """Set a track (or money) to a value, clamped to its range; below policy's floor overthrows."""
        p = self.state.seats[seat]
        cur = getattr(p, track)
        if track in (self._tables[seat] or self._index(seat)).limits:
            new = self.held(seat, track, cur, new, why)      # the owner's floors and ceilings, before the rules' range
        lo, hi, _ = self.rules.bound(track)
        if track == "policy" and new < lo:
            self.overthrow(seat)
            return
        if new < lo:
            new = lo
        elif new > hi:
            new = hi
        if new != cur:
            setattr(p, track, new)
            if self.log is not None:
                self.record("track", seat=seat, track=track, delta=new - cur, value=new, why=why)

    def overthrow(self, seat: int) -> None:
        if self.fire(seat, "overthrown", None):
            self.record("overthrow_prevented", seat=seat)
            return
        # The change that would have taken policy below its minimum is not applied (docs/rules.md).
        self.knock_out(seat, "overthrown")

    def knock_out(self, seat: int, reason: str) -> None:
        """The player is out at once; whether the game ends is decided at the end of the phase."""
        p = self.state.seats[seat]
        if p.out:
            return
        p.out = True
        p.out_reason = reason
        self._order_round = 0
        self.record("out", seat=seat, reason=reason)

    def end(self, reason: str) -> None:
        st = self.state
        if not st.over:
            st.over = True
            st.end_reason = reason
            self.record("end", reason=reason)

    def add_mark(self, seat: int, card: Card, n: int) -> None:
        """`mark N`: the event leaves n more stacks of its mark on the seat, at most LIMITS["marks"]; the seat's
        cards in play change (the event's phase handlers now run for it). Logged as "mark" with the stacks."""
        p = self.state.seats[seat]
        if p.out or n <= 0:
            return
        had = p.marks.get(card.id, 0)
        stacks = min(MAX_MARKS, had + n)
        if stacks == had:
            return
        p.marks[card.id] = stacks
        self.cards_changed(seat)
        self.record("mark", seat=seat, card=card.id, stacks=stacks)

    def set_unlocked(self, seat: int, stage: int) -> None:
        p = self.state.seats[seat]
        if stage > p.unlocked:
            p.unlocked = stage
            if self.log is not None:
                self.record("unlock", seat=seat, stage=stage)

    def set_advisor(self, seat: int, card: Card) -> None:
        self.state.seats[seat].advisor = card
        self.state.seats[seat].advisor_counters = dict(card.counters)
        self.start_counters(seat, card, None)
        self.cards_changed(seat)
        self.record("advisor", seat=seat, card=card.id)

    # ---- decks and hands -------------------------------------------------------------------------------------------
    def draw_policy(self, stage: int) -> Card | None:
        st = self.state
        deck = st.decks[stage]
        if not deck and st.discards[stage]:
            deck.extend(st.discards[stage])
            st.discards[stage].clear()
            st.rng.shuffle(deck)
            self.record("refill", stage=stage, cards=len(deck))
        return deck.pop() if deck else None

    def take_from_deck(self, card: Card) -> bool:
        """Take a named card out of whichever deck holds it (hand-made tables)."""
        st = self.state
        for pool in (*st.decks.values(), *st.discards.values(), st.event_deck, st.advisor_deck):
            for i in range(len(pool) - 1, -1, -1):
                if pool[i].id == card.id:
                    del pool[i]
                    return True
        return False

    def to_hand(self, seat: int, card: Card, why: str) -> None:
        p = self.state.seats[seat]
        p.hand.append(card)
        p.drawn_ids.append(card.id)
        self.state.seen.extend(((-1, "drew", seat, why), (seat, "got", card.id, why)))
        if self.log is not None:
            self.record("draw", seat=seat, card=card.id, why=why)

    def take_from_hand(self, seat: int, ref: str) -> Card:
        hand = self.state.seats[seat].hand
        for k, c in enumerate(hand):
            if ref in (c.id, c.name):
                return hand.pop(k)
        raise EffectError(f"P{seat + 1} has no {ref} in hand")

    def discard_card(self, card: Card) -> None:
        st = self.state
        if card.kind == "policy" and card.stage in st.discards:
            st.discards[card.stage].append(card)
        else:
            st.out_of_game.append(card)
        if self.log is not None:
            self.record("discard", card=card.id)

    # ---- playing cards ------------------------------------------------------------------------------------------------
    def strategy_costs(self, seat: int) -> dict[int, int]:
        seats = self.state.seats
        L = seats[seat].unlocked
        G = max([seats[s].unlocked for s in self.active_players()] or [1])
        return {s: max(0, s - L) for s in (1, 2, 3) if s <= G}

    def price(self, seat: int, card: Card, k: int = 0, note: bool = False) -> int:
        """What playing a card (k = 0) or executing it the k-th time again costs this seat: its price,
        under the seat's `modify price` declarations."""
        return self.quantity(seat, "price", Q.price(card.price, k), note=note)

    def can_play(self, seat: int, card: Card, reaction: bool = False) -> str | None:
        """Why the card cannot be played now, or None."""
        p = self.state.seats[seat]
        if card.name in (self._tables[seat] or self._index(seat)).names:
            return f"P{seat + 1} already has {card.name} in the tableau (one card per name)"
        price = self.price(seat, card)
        if price > p.money:
            return f"{card.name} costs {price}, P{seat + 1} has {p.money}"
        if not reaction and not self.program.cards[card.id].playable:
            return f"{card.name} is played only as a reaction"
        return None

    def can_execute(self, seat: int, e: Entry) -> str | None:
        p = self.state.seats[seat]
        if len(e.card.price) <= 1:
            return f"{e.card.name} cannot be executed again"
        if e.uses >= len(e.card.price):
            return f"{e.card.name} has been executed {e.uses} times, its most"
        if e.last_round == self.state.round:
            return f"{e.card.name} was already executed this round"
        if e.spent:
            return f"{e.card.name} is spent"
        price = self.price(seat, e.card, e.uses)
        if price > p.money:
            return f"executing {e.card.name} again costs {price}, P{seat + 1} has {p.money}"
        return None

    def entry_of(self, seat: int, ref: str) -> Entry:
        for e in self.state.seats[seat].tableau:
            if ref in (e.card.id, e.card.name):
                return e
        raise RuleViolation(f"P{seat + 1} has no {ref} in the tableau")

    def enter_tableau(self, seat: int, ref: str, reaction: str | None) -> Entry:
        """Pay a hand card's first price and put it in the tableau as its first execution."""
        p = self.state.seats[seat]
        card = next((c for c in p.hand if ref in (c.id, c.name)), None)
        if card is None:
            raise RuleViolation(f"P{seat + 1} has no {ref} in hand")
        why = self.can_play(seat, card, reaction=reaction is not None)
        if why:
            raise RuleViolation(why)
        price = self.price(seat, card, note=True)
        p.hand.remove(card)
        self.spend_money(seat, price, "price of " + card.id)
        if self.program.hears_play:
            self.fire(seat, "play", card)        # the card is not in play yet: only the others hear it
        entry = Entry(card, self.state.round)
        self.start_counters(seat, card, entry)
        p.tableau.append(entry)
        p.played_ids.append(card.id)
        self.cards_changed(seat)
        self.record("play", seat=seat, card=card.id, price=price, reaction=reaction)
        return entry

    def play_card(self, seat: int, ref: str) -> Entry:
        """Play a card from hand: pay the first price, into the tableau, resolve `on play`."""
        entry = self.enter_tableau(seat, ref, None)
        self.run_on(seat, "play", entry)
        return entry

    def execute_card(self, seat: int, ref: str) -> Entry:
        e = self.entry_of(seat, ref)
        why = self.can_execute(seat, e)
        if why:
            raise RuleViolation(why)
        price = self.price(seat, e.card, e.uses, note=True)
        self.spend_money(seat, price, "price of " + e.card.id)
        e.uses += 1
        e.last_round = self.state.round
        self.record("execute", seat=seat, card=e.card.id, price=price, uses=e.uses)
        self.run_on(seat, "play", e)
        return e

    def react_with(self, seat: int, ref: str, trigger: str, it: Any,
                   cause: tuple[Card, int | None] | None = None) -> bool:
        """Play a card from hand as a reaction to `trigger`; True when its block prevented what was happening."""
        entry = self.enter_tableau(seat, ref, trigger)
        fn = self.program.cards[entry.card.id].react[trigger]
        return self.run_handler(fn, entry.card, seat, entry, it, how="react " + trigger, cause=cause,
                                mover=seat).prevented

    def can_switch(self, e: Entry) -> str | None:
        """Why a card in the tableau cannot be switched on or off now, or None."""
        if not e.card.switchable:
            return f"{e.card.name} cannot be switched"
        if e.spent:
            return f"{e.card.name} is spent"
        if e.switched_round == self.state.round:
            return f"{e.card.name} was already switched this round"
        return None

    def switch(self, seat: int, ref: str) -> None:
        e = self.entry_of(seat, ref)
        why = self.can_switch(e)
        if why is not None:
            raise RuleViolation(why)
        e.on = not e.on
        e.switched_round = self.state.round
        self.cards_changed(seat)
        self.record("switch", seat=seat, card=e.card.id, on=e.on)

    # ---- what effects change (the runtime checks its numbers, then calls these) ------------------------------
    def change_track(self, f: Frame, seat: int, track: str, new: int) -> None:
        """A statement sets a track (or money) to `new`: a loss another's card would cause is stopped by a shield."""
        p = self.state.seats[seat]
        if p.out:
            return
        if new < getattr(p, track) and self.shielded(seat, track, f):
            self.record("shielded", seat=seat, what=track, card=f.card.id)
            return
        self.set_track(seat, track, new, f.card.id)

    def pay(self, f: Frame, seat: int, n: int) -> int:
        """`pay N`: as much of n as the seat has (unless shielded); the part left unpaid."""
        if self.shielded(seat, "money", f):
            self.record("shielded", seat=seat, what="money", card=f.card.id)
            return 0
        p = self.state.seats[seat]
        paid = min(n, p.money)
        if paid:
            p.money -= paid
            if self.log is not None:
                self.record("money", seat=seat, delta=-paid, money=p.money, why=f.card.id)
        return n - paid

    def board_verb(self, f: Frame, verb: str, i: int, target: int, takes: tuple[int, ...]) -> bool:
        """A verb on one cell, if the cell still holds what the verb acts on (`takes`): a handler set off by
        an earlier cell of the same statement may have changed it."""
        if self.state.board[i] not in takes:
            return False
        if verb == "kill":
            return self.kill_cell(i, f.card.id)
        self.set_cell(i, target, f.card.id)
        return True

    def discard_it(self, f: Frame) -> None:
        """`discard it`: the card the moment is about leaves its owner's hand (if it is still there)."""
        if f.owner is None:
            return
        hand = self.state.seats[f.owner].hand
        for k, c in enumerate(hand):
            if c is f.it:
                hand.pop(k)
                self.discard_card(c)
                return

    def arrange(self, f: Frame, seat: int, n: int) -> int:
        """The planner: see the fronts of n random tiles of the seat's board, place them, shuffle the rest."""
        st = self.state
        cells = [i for i in self.geo.cells_of[seat] if st.board[i] == B.TILE]
        seen = sorted(st.rng.sample(cells, min(n, len(cells))))
        fronts = [st.fronts[i] for i in seen]
        rest = [st.fronts[i] for i in cells if i not in seen]
        free = list(cells)
        placed = []
        for front in fronts:
            name = "infected" if front else "healthy"
            c = self.effect_ask(seat, Ask.ARRANGE, [CELLS[i] for i in free], card=f.card,
                                text=f"place a tile with a {name} front")
            i = c.row * B.SIZE + c.col
            free.remove(i)
            st.fronts[i] = front
            placed.append((i, front))
        st.rng.shuffle(rest)
        for i, front in zip(free, rest, strict=False):
            st.fronts[i] = front
        st.seen.append((seat, "arranged", tuple(placed)))
        self.record("arranged", seat=seat, tiles=len(fronts))
        return len(fronts)

    def draw_cards(self, f: Frame, seat: int, n: int, stage: int, keep: int | None) -> None:
        """`draw N stage S [keep K]`: each card drawn is a step of the effect; the ones not kept are discarded."""
        why = f.card.id
        drawn: list[Card] = []
        for _ in range(n):
            c = self.draw_policy(stage)
            if c is None:
                break           # the deck and its discard pile are empty: nothing more to draw
            self.tick(1)        # a card drawn is a step of the effect's budget, as lint counts it
            drawn.append(c)
        if keep is None or keep >= len(drawn):
            for c in drawn:
                self.to_hand(seat, c, why)
            return
        for _ in range(keep):
            cid = self.effect_ask(seat, Ask.KEEP, unique_ids(drawn), card=f.card, text="keep a card")
            k = next(k for k, c in enumerate(drawn) if c.id == cid)
            self.to_hand(seat, drawn.pop(k), why)
        for c in drawn:
            self.state.discards[stage].append(c)
            self.record("discard", card=c.id)

    def draft(self, f: Frame, order: Sequence[int], n: int, stage: int) -> int:
        """`draft N from stage K`: N cards (fewer when the deck and its discard pile run out) laid out face up, the
        pool every seat sees; each seat of `order` takes one (a DRAFT question) while any are left; the rest go
        to the stage's discard pile. Each card laid out is a step of the effect. How many were taken."""
        st = self.state
        laid: list[Card] = []
        for _ in range(n):
            c = self.draw_policy(stage)
            if c is None:
                break
            self.tick(1)
            laid.append(c)
        if not laid:
            return 0
        outer, st.pool = st.pool, laid
        self.record("draft", stage=stage, cards=[c.id for c in laid])
        taken = 0
        try:
            for seat in order:
                if not laid:
                    break
                cid = self.effect_ask(seat, Ask.DRAFT, unique_ids(laid), card=f.card, text="take a card from the draft")
                k = next(k for k, c in enumerate(laid) if c.id == cid)
                self.to_hand(seat, laid.pop(k), f.card.id)
                self.record("drafted", seat=seat, card=cid)
                taken += 1
            for c in laid:
                st.discards[stage].append(c)
                self.record("discard", card=c.id)
        finally:
            st.pool = outer
        return taken

    def counters_of(self, entry: Entry | None, owner: int | None) -> dict[str, int]:
        """The numbers a card in play keeps: its tableau entry's, or its owner's advisor's."""
        if entry is not None:
            return entry.counters
        if owner is None:
            raise EffectError("this statement has no player to act on (an event needs `each player:` "
                              "or `player with …:` first)")
        return self.state.seats[owner].advisor_counters

    def start_counters(self, seat: int, card: Card, entry: Entry | None) -> None:
        """The counters whose first value is an expression (`counters: {NAME: "= EXPR"}`), worked out once, as
        the card enters play (a policy as it goes into the tableau, before `on play`; an advisor as it is
        dealt), for its owner, from the game as it is then; held within the number limit."""
        starts = self.program.cards[card.id].starts
        if not starts:
            return
        kept = entry.counters if entry is not None else self.state.seats[seat].advisor_counters
        limit = registry.MAX_NUMBER
        for name, fn in starts:
            value = int(self.evaluate(fn, card, seat, entry))
            kept[name] = -limit if value < -limit else limit if value > limit else value

    def set_counter(self, f: Frame, name: str, value: int) -> None:
        self.counters_of(f.entry, f.owner)[name] = value

    def schedule(self, f: Frame, seat: int | None, n: int, block: str, values: dict[str, Any]) -> None:
        """`after N rounds:` — keep the block (and the numbers it reads) for the start of round now + N."""
        st = self.state
        st.scheduled.append((st.round + n, f.card.id, block, f.owner, {**values, "S": seat}))

    def transfer(self, f: Frame, direction: str, src: int, dst: int, what: str, want_all: bool, n: int) -> int:
        """`take`/`give`: move up to the amount from src to dst; the part that could not be moved is returned."""
        if what in registry.KIND_STATES:
            return self.send_residents(f, direction, src, dst, what, want_all, n)
        p, q = self.state.seats[src], self.state.seats[dst]
        cards = what in registry.HAND_WORDS
        # A loss the giver did not choose (another's card, an event, a combo) is stopped by its shield.
        forced = self.shielded(src, "hand" if cards else what, f)
        if cards:
            want = len(p.hand) if want_all else n
            if forced:
                self.record("shielded", seat=src, what="hand", card=f.card.id)
                return want
            moved = 0
            for _ in range(min(want, len(p.hand))):
                if direction == "take":
                    card = p.hand.pop(self.state.rng.randrange(len(p.hand)))
                else:
                    ref = self.effect_ask(src, Ask.GIVE, unique_ids(p.hand), card=f.card,
                                          text=f"give a card to P{dst + 1}")
                    card = self.take_from_hand(src, ref)
                q.hand.append(card)
                self.record("given", seat=src, to=dst, card=card.id)
                moved += 1
            return want - moved
        lo, hi, _ = self.rules.bound(what)
        have, room = getattr(p, what) - lo, hi - getattr(q, what)
        want = max(0, have) if want_all else n
        if forced:
            self.record("shielded", seat=src, what=what, card=f.card.id)
            return want
        moved = max(0, min(want, have, room))
        if moved:
            self.set_track(src, what, getattr(p, what) - moved, f.card.id)
            self.set_track(dst, what, getattr(q, what) + moved, f.card.id)
        return want - moved

    def send_residents(self, f: Frame, direction: str, src: int, dst: int, kind: str, want_all: bool, n: int) -> int:
        """`take`/`give` KIND: up to the amount of src's residents of that kind move, one at a time and keeping their
        state, each to an empty cell of dst's board. The card's owner picks which resident and which empty cell;
        inside `they choose:` the block's player does (the receiver of `give`, the giver of `take`); an event has no
        owner: the one who gives, or takes. When src has no such resident left, or dst no empty cell,
        the rest stay; a resident whose death is being decided is never moved. Nothing scores and no trigger hears
        it. To oneself nothing moves. The part that could not be moved is returned."""
        if src == dst:
            return 0
        codes = tuple(B.STATE_BY_NAME[s] for s in registry.KIND_STATES[kind])
        if f.owner is None:
            asker = src if direction == "give" else dst          # the enclosing subject: who gives, or takes
        elif f.they:
            asker = dst if direction == "give" else src          # `they choose:`: the block's player
        else:
            asker = f.owner
        dying = self.dying
        left = [i for i in self.cells(src, codes) if i not in dying]
        want = len(left) if want_all else n
        moved = 0
        for _ in range(min(want, len(left))):      # each pass moves one of src's residents away, or stops
            left = [i for i in self.cells(src, codes) if i not in dying]
            empties = self.cells(dst, (B.EMPTY,))
            if not left or not empties:
                break
            a, = self.pick_cells(asker, left, 1, f"send which {kind} to P{dst + 1}?", f.card)
            b, = self.pick_cells(asker, empties, 1, f"send it to which empty cell of P{dst + 1}?", f.card)
            self.move_resident(a, b, f.card.id)
            moved += 1
        return want - moved

    def discard_cards(self, f: Frame, seat: int, x: int, shield: bool = True) -> int:
        """x cards of the seat's hand discarded, the seat picking which; a shield stops a loss it did not choose."""
        p = self.state.seats[seat]
        if shield and self.shielded(seat, "hand", f):
            self.record("shielded", seat=seat, what="hand", card=f.card.id)
            return 0
        if x >= len(p.hand):                 # every card goes: there is nothing to choose
            done = len(p.hand)
            while p.hand:
                self.discard_card(p.hand.pop(0))
            return done
        self.discard_chosen(f, seat, x)
        return x

    def discard_chosen(self, f: Frame, seat: int, x: int) -> None:
        """x cards of the seat's hand discarded one at a time, the seat picking each (`may discard`)."""
        p = self.state.seats[seat]
        for _ in range(x):
            ref = self.effect_ask(seat, Ask.DISCARD, unique_ids(p.hand), card=f.card, text="discard a card")
            self.discard_card(self.take_from_hand(seat, ref))

    def move_resident(self, a: int, b: int, cause: str) -> None:
        """The resident of cell a moves to the empty cell b (relocate, `move`)."""
        state = self.state.board[a]
        self.set_cell(a, B.EMPTY, cause)
        self.set_cell(b, state, cause)
