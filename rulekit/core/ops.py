"""What effects do to the state: board changes, tracks, money, triggers — the runtime the interpreter calls."""

from __future__ import annotations

from rulekit import registry
from rulekit.core import board as B
from rulekit.core.errors import EffectError
from rulekit.core.state import Ctx, unique_ids

VERB_TARGET = {"cure": B.HEALTHY, "treat": B.MILD, "infect": B.MILD, "worsen": B.SEVERE,
               "kill": B.DEAD, "remove": B.EMPTY}
KIND_CODES = {k: tuple(B.STATE_BY_NAME[s] for s in states) for k, states in registry.KIND_STATES.items()}
# The cell states each board verb can act on (`VERB it` checks the cell still qualifies).
VERB_FROM = {name: tuple(sorted({c for k in v.kinds for c in KIND_CODES[k]})) for name, v in registry.VERBS.items()}
SIGNED_QUANTITIES = tuple(name for name, q in registry.QUANTITIES.items() if q.signed)


class EffectOps:
    """Mixed into Game: the operations of rules.md that effects and phases share."""

    # ---- reading the board ------------------------------------------------------------
    def count(self, seat: int, name: str) -> int:
        states = list(map(self.board.__getitem__, self.geo.cells_of[seat]))
        if name == "tiles":
            return states.count(B.TILE_H) + states.count(B.TILE_I)
        return sum(map(states.count, KIND_CODES[name]))

    def cells(self, seat: int, codes) -> list[int]:
        board = self.board
        return [i for i in self.geo.cells_of[seat] if board[i] in codes]

    # ---- modifiers, shields, seals -------------------------------------------------------
    def quantity(self, seat: int, name: str, base: int) -> int:
        """X' = max(0, X + Σd, max over bounds of min(N, X)) (rules.md 3.5)."""
        total = base
        floor = None
        for compiled, entry in self.ps[seat].active_cards():
            for q, fn, bound in compiled.modifiers:
                if q != name:
                    continue
                total += fn(self.effect_ctx(compiled.card, seat, entry))
                if bound is not None:
                    m = min(bound, base)
                    floor = m if floor is None else max(floor, m)
        if floor is not None:
            total = max(total, floor)
        return total if name in SIGNED_QUANTITIES else max(0, total)

    def effect_ctx(self, card, seat, entry=None, it=None) -> Ctx:
        return Ctx(self, card, seat, seat, entry, it)

    def shielded(self, seat: int, what: str, ctx) -> bool:
        if ctx is None or not (ctx.from_other or ctx.owner != seat):
            return False
        return any(what in compiled.shields for compiled, _ in self.ps[seat].active_cards())

    def sealed(self, seat: int) -> bool:
        return any("border" in compiled.seals for compiled, _ in self.ps[seat].active_cards())

    # ---- cells ---------------------------------------------------------------------------
    def set_cell(self, i: int, new: int, cause: str) -> None:
        old = self.board[i]
        if old == new:
            return
        self.board[i] = new
        seat = self.geo.owner[i]
        if self.log is not None:
            self.record("cell", cell=list(B.rc(i)), before=B.STATE_NAMES[old], after=B.STATE_NAMES[new], cause=cause)
        if old == B.MILD and new == B.HEALTHY:
            self.add_score(seat, 1, "cured")
        elif new == B.DEAD and old in B.ALIVE:
            self.add_score(seat, -1, "death")

    def reveal_cell(self, i: int) -> None:
        front = self.board[i]
        self.set_cell(i, B.MILD if front == B.TILE_I else B.HEALTHY, "reveal")
        seat = self.geo.owner[i]
        self.fire(seat, "reveal mild" if front == B.TILE_I else "reveal healthy", i)

    def reveal_some(self, seat: int, n: int, card) -> int:
        """Reveal n tiles of the seat's board, one at a time, each next to a revealed cell (rules.md 3.5 step 0)."""
        done = 0
        board, nb = self.board, self.geo.neighbours
        for _ in range(n):
            tiles = [i for i in self.geo.cells_of[seat] if board[i] in B.TILES]
            if not tiles:
                break
            near = [i for i in tiles if any(board[j] > B.TILE_I for j in nb[i])]
            cands = near or tiles
            if len(cands) == 1:
                i = cands[0]
            else:
                i = B.idx(*self.ask(seat, "cell", [B.rc(c) for c in cands], card=card,
                                    text="reveal a tile next to a revealed cell"))
            self.reveal_cell(i)
            done += 1
        return done

    def kill_cell(self, i: int, cause: str, ctx) -> bool:
        """A resident dies unless a `death` handler prevents it; True when it died."""
        seat = self.geo.owner[i]
        if self.fire(seat, "death", i):
            self.record("death_prevented", cell=list(B.rc(i)))
            return False
        self.set_cell(i, B.DEAD, cause)
        return True

    # ---- triggers and reactions ------------------------------------------------------------
    def fire(self, seat: int, word: str, it) -> bool:
        """Run `when`/`once when` handlers and offer reactions for a trigger; True if prevented."""
        p = self.ps[seat]
        if p.out:
            return False
        words = (word, "reveal") if word.startswith("reveal ") else (word,)
        prevented = False
        for compiled, entry in p.active_cards():
            for w in words:
                for key, fn, once in compiled.triggers.get(w, ()):
                    if once:
                        if key in p.once_fired:
                            continue
                        p.once_fired.add(key)
                    ctx = self.run_handler(fn, compiled.card, seat, entry, it)
                    prevented = prevented or ctx.prevented
        if p.hand:
            prevented = self.offer_reactions(seat, words, it) or prevented
        return prevented

    def offer_reactions(self, seat: int, words, it) -> bool:
        p = self.ps[seat]
        prevented = False
        offered = []
        for card in list(p.hand):
            if card.id in offered:
                continue
            react = self.compiled[card.id].react
            w = next((w for w in words if w in react), None)
            if w is None or self.can_play(seat, card, reaction=True) is not None:
                continue
            offered.append(card.id)
            if self.ask(seat, "react", (True, False), card=card, text=f"play {card.name} as a reaction?"):
                prevented = self.react_with(seat, card.id, w, it) or prevented
        return prevented

    # ---- money and tracks ---------------------------------------------------------------------
    def gain_money(self, seat: int, n: int, why: str) -> None:
        if n:
            self.ps[seat].money += n
            self.record("money", seat=seat, delta=n, money=self.ps[seat].money, why=why)

    def spend_money(self, seat: int, n: int, why: str) -> None:
        """A payment the player chose: prices, bids, strategies, `spend`, `may pay`."""
        p = self.ps[seat]
        if n > p.money:
            raise EffectError(f"P{seat + 1} cannot pay {n} (has {p.money})")
        if n:
            p.money -= n
            self.record("money", seat=seat, delta=-n, money=p.money, why=why)


    def add_score(self, seat: int, delta: int, why: str) -> None:
        p = self.ps[seat]
        if p.out or not delta:
            return
        p.score += delta
        self.record("track", seat=seat, track="score", delta=delta, value=p.score, why=why)

    def change_track(self, ctx, track: str, op: str, value: int) -> None:
        seat = self.need_subject(ctx)
        p = self.ps[seat]
        if p.out:
            return
        cur = getattr(p, track)
        new = cur + value if op == "+=" else cur - value if op == "-=" else value
        if track == "money" and new < cur and self.shielded(seat, "money", ctx):
            self.record("shielded", seat=seat, what="money", card=_cid(ctx))
            return
        lo, hi, _ = self.bounds[track]
        if track == "policy" and lo is not None and new < lo:
            self.overthrow(seat)
            return
        if lo is not None and new < lo:
            new = lo
        if hi is not None and new > hi:
            new = hi
        if new != cur:
            setattr(p, track, new)
            self.record("track", seat=seat, track=track, delta=new - cur, value=new, why=_cid(ctx))

    def overthrow(self, seat: int) -> None:
        if self.fire(seat, "overthrown", None):
            self.record("overthrow_prevented", seat=seat)
            return
        # The change that would have taken policy below its minimum is not applied (rules.md 1).
        self.knock_out(seat, "overthrown")
        if len(self.active_players()) < 2:
            self.end("one_left")

    def need_subject(self, ctx) -> int:
        if ctx.subject is None:
            raise EffectError("this statement has no player to act on (an event needs `each player:` "
                              "or `player with …:` first)", ctx.card)
        return ctx.subject

    # ---- hands and decks ------------------------------------------------------------------------
    def to_hand(self, seat: int, card, why: str) -> None:
        p = self.ps[seat]
        p.hand.append(card)
        p.drawn_ids.append(card.id)
        self.record("draw", seat=seat, card=card.id, why=why)

    def take_from_hand(self, seat: int, ref: str):
        hand = self.ps[seat].hand
        for k, c in enumerate(hand):
            if ref in (c.id, c.name):
                return hand.pop(k)
        raise EffectError(f"P{seat + 1} has no {ref} in hand")

    def discard_card(self, card) -> None:
        if card.kind == "policy" and card.stage in self.discards:
            self.discards[card.stage].append(card)
        else:
            self.out_of_game.append(card)
        self.record("discard", card=card.id)

    # ---- statements of the language (what compiled effects call) --------------------------------------
    def amount_of(self, ctx, mode: str, n, available: int, what: str) -> int:
        if mode == "all":
            return available
        if n is not None and n < 0:
            raise EffectError(f"a count gone negative: {n} {what}", ctx.card)
        if mode == "n":
            return n
        top = available if mode == "any" else min(n, available)
        if top <= 0:
            return 0
        return self.ask(ctx.subject, "amount", range(top + 1), card=ctx.card, text=f"how many {what}?")

    def board_verb(self, ctx, verb: str, mode: str, n, kind: str) -> int:
        seat = self.need_subject(ctx)
        cells = self.cells(seat, KIND_CODES[kind])
        x = self.amount_of(ctx, mode, n, len(cells), kind)
        if x <= 0:
            return 0
        chosen = self.pick_cells(seat, cells, x, f"{verb} {kind}", card=ctx.card)
        return sum(1 for i in chosen if self.apply_verb(verb, i, ctx))

    def apply_verb(self, verb: str, i: int, ctx) -> bool:
        if verb == "kill":
            return self.kill_cell(i, ctx.card.id if ctx.card else "kill", ctx)
        self.set_cell(i, VERB_TARGET[verb], ctx.card.id if ctx.card else verb)
        return True

    def verb_it(self, ctx, verb: str) -> None:
        it = ctx.it
        if verb == "discard":
            seat = ctx.owner
            p = self.ps[seat]
            for k, c in enumerate(p.hand):
                if c is it:
                    p.hand.pop(k)
                    self.discard_card(c)
                    return
            return
        if isinstance(it, int) and self.board[it] in VERB_FROM[verb]:
            self.apply_verb(verb, it, ctx)

    def reveal_tiles(self, ctx, mode: str, n) -> int:
        seat = self.need_subject(ctx)
        x = self.amount_of(ctx, mode, n, self.count(seat, "tiles"), "tiles")
        return self.reveal_some(seat, x, ctx.card)

    def arrange(self, ctx, n) -> int:
        """The planner: see the fronts of n random tiles of mine, place them, shuffle the rest."""
        seat = self.need_subject(ctx)
        if n < 0:
            raise EffectError(f"a count gone negative: arrange {n}", ctx.card)
        cells = [i for i in self.geo.cells_of[seat] if self.board[i] in B.TILES]
        seen = sorted(self.rng.sample(cells, min(n, len(cells))))
        fronts = [self.board[i] for i in seen]
        rest = [self.board[i] for i in cells if i not in seen]
        free = list(cells)
        for f in fronts:
            name = "infected" if f == B.TILE_I else "healthy"
            a = self.ask(seat, "arrange", [B.rc(i) for i in free], card=ctx.card, text=f"place a tile with a {name} front")
            i = B.idx(*a)
            free.remove(i)
            self.board[i] = f
        self.rng.shuffle(rest)
        for i, f in zip(free, rest):
            self.board[i] = f
        self.record("arranged", seat=seat, tiles=len(fronts))
        return len(fronts)

    def pay(self, ctx, n: int) -> int:
        seat = self.need_subject(ctx)
        if n < 0:
            raise EffectError(f"a payment gone negative: pay {n}", ctx.card)
        if self.shielded(seat, "money", ctx):
            self.record("shielded", seat=seat, what="money", card=_cid(ctx))
            return 0
        p = self.ps[seat]
        paid = min(n, p.money)
        if paid:
            p.money -= paid
            self.record("money", seat=seat, delta=-paid, money=p.money, why=_cid(ctx))
        return n - paid

    def spend(self, ctx, n: int) -> None:
        seat = self.need_subject(ctx)
        if n < 0:
            raise EffectError(f"a payment gone negative: spend {n}", ctx.card)
        p = self.ps[seat]
        if n > p.money:
            raise EffectError(f"spend {n}, but P{seat + 1} has only {p.money}", ctx.card)
        self.spend_money(seat, n, _cid(ctx))

    def may(self, ctx) -> bool:
        seat = self.need_subject(ctx)
        return self.ask(seat, "may", (True, False), card=ctx.card, text="resolve this?")

    def may_pay(self, ctx, n: int) -> bool:
        seat = self.need_subject(ctx)
        if n < 0:
            raise EffectError(f"a payment gone negative: may pay {n}", ctx.card)
        if self.ps[seat].money < n:
            return False
        if self.ask(seat, "may", (True, False), card=ctx.card, text=f"pay {n}?"):
            self.spend_money(seat, n, _cid(ctx))
            return True
        return False

    def choose_number(self, ctx, lo: int, hi: int) -> int:
        seat = self.need_subject(ctx)
        if lo > hi:
            raise EffectError(f"choose from {lo} to {hi}: there is no number to choose", ctx.card)
        return self.ask(seat, "choose", range(lo, hi + 1), card=ctx.card, text=f"choose {lo}–{hi}")

    def draw(self, ctx, n: int, stage: int, keep) -> None:
        seat = self.need_subject(ctx)
        if stage not in (1, 2, 3):
            raise EffectError(f"there is no stage {stage} deck", ctx.card)
        if n < 0 or (keep is not None and keep < 0):
            raise EffectError("a count gone negative in draw", ctx.card)
        drawn = [c for c in (self.draw_policy(stage) for _ in range(n)) if c is not None]
        if keep is None or keep >= len(drawn):
            for c in drawn:
                self.to_hand(seat, c, _cid(ctx))
            return
        for _ in range(keep):
            cid = self.ask(seat, "keep", unique_ids(drawn), card=ctx.card, text="keep a card")
            k = next(k for k, c in enumerate(drawn) if c.id == cid)
            self.to_hand(seat, drawn.pop(k), _cid(ctx))
        for c in drawn:
            self.discards[stage].append(c)
            self.record("discard", card=c.id)

    def unlock(self, ctx, k: int) -> None:
        seat = self.need_subject(ctx)
        if k not in (1, 2, 3):
            raise EffectError(f"there is no stage {k} to unlock", ctx.card)
        self.set_unlocked(seat, k)

    def players_each(self, ctx, other: bool) -> list[int]:
        return [s for s in self.in_order() if not (other and s == ctx.subject)]

    def players_with(self, ctx, which: str, fn) -> list[int]:
        seats = self.in_order()
        if not seats:
            return []
        values = [(s, fn(ctx.sub(s))) for s in seats]
        best = (max if which in ("highest", "most") else min)(v for _, v in values)
        return [s for s, v in values if v == best]

    def value(self, ctx, name: str):
        """A name read by an expression (tracks, money, counts and the other values)."""
        if name in ("hand", "round", "players", "uses", "revealed"):
            if name == "round":
                return self.round
            if name == "players":
                return len(self.active_players())
            if name == "uses":
                return ctx.entry.uses if ctx.entry is not None else 0
            seat = self.need_subject(ctx)
            if name == "hand":
                return len(self.ps[seat].hand)
            return self.count(seat, "tiles") == 0
        seat = self.need_subject(ctx)
        if name in KIND_CODES or name == "tiles":
            return self.count(seat, name)
        return getattr(self.ps[seat], name)

    def played(self, ctx, ref: str) -> bool:
        seat = self.need_subject(ctx)
        return any(e.on and ref in (e.card.id, e.card.name) for e in self.ps[seat].tableau)

    def event_is(self, ref: str) -> bool:
        ev = self.current_event or self.last_event
        return ev is not None and ref in (ev.id, ev.name)

    def happened(self, ref: str) -> bool:
        if self.current_event is not None and ref in (self.current_event.id, self.current_event.name):
            return True
        return any(ref in (e.id, e.name) for e in self.history)

    def is_unlocked(self, ctx, k: int) -> bool:
        return self.ps[self.need_subject(ctx)].unlocked >= k


def _cid(ctx) -> str | None:
    return ctx.card.id if ctx is not None and ctx.card is not None else None
