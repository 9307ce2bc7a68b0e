"""The greedy agent: a rule-based baseline that reads cards' effects and looks one step ahead, no further."""

from __future__ import annotations

import copy
import random
from collections.abc import Collection

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.agents.base import Stream, stream_of, sub_stream
from rulekit.core import board as B
from rulekit.core.errors import EffectError, RuleViolation
from rulekit.core.questions import CELLS, DONE, Ask, Observation, Question

PLAY_MARGIN = 0.25     # a card is played when its worth beats its price by this many points
BID_RESERVE = 2        # coins kept back when bidding
# Policy's lines, above its lowest in the rules (below which a player is overthrown; -10 by default):
POLICY_DANGER = 4      # at or below this far above it (-6), never pay policy
POLICY_FLOOR = 2       # never play a card that would take policy to this far above it (-8) or lower
# The lookahead (a card the reading cannot value): decisions its copies of the game may play, for one
# action question and for one game, counting both copies; past them the card is worth what is read of it.
LOOK_DECISION = 300
LOOK_GAME = 1200


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
    6. Choices inside an effect (how many, which number, may / may pay, which player): the answer
       the estimate values most; a card to give away: the one worth least. 拒之门外 and other
       reactions: played whenever worth their price (a reaction to an event, for that event).
    7. Exchange: offers the card worth least to it (a card it cannot play first) when worth
       under 1 point; bids half the card's worth in coins, keeping BID_RESERVE coins back.
    8. Keep / discard: keeps the cards worth most, discards those worth least.
    9. A card whose worth cannot be read from its text (estimate.unreadable: `move`) is measured
       when it could be played or executed: two copies of the game (Observation.forecast), one
       where it plays the card now and one where it does not play it this round, are played on to
       the end of the round by plain greedy players (who look no further), and the card is worth
       the difference in its standing: score, money, tracks and residents (estimate.position),
       and what its tableau and hand still bring, as read. At most LOOK_DECISION decisions a
       question and LOOK_GAME a game; kept while the table stays the same; past the budget, the
       card is worth what is read of it.
    Ties go to its own random generator, from the stream the harness gives it for its seat: deterministic
    (the copies' players have generators of their own, seeded from the same).
    """

    name = "greedy"
    looks = True            # measures unreadable cards by the lookahead (the copies' players do not)
    looked = 0              # decisions its lookaheads played this game
    _moving: int | None = None  # the state of the resident a `move` is moving
    barred: frozenset = frozenset()     # cards it does not play or execute (a lookahead's other copy)

    def __init__(self, seed: int | Stream, seat: int):
        self.stream = stream_of(seed)      # its generators, from the harness (never the game's seed itself)
        self.rng = self.stream("greedy", seat)
        self.seat = seat
        self._cache_key: tuple | None = None
        self._cache: dict = {}
        self._switched: set = set()     # (round, card id): switch a card at most once a round
        self._cards: dict = {}          # card id or name -> (card, its reading, playable): a game's content stays put
        self._on = {kind: getattr(self, "on_" + kind.value, self.on_other) for kind in Ask}
        self._obs: Observation | None = None
        self._cell: dict | None = None
        self._words: dict[str, str] = {}    # question text -> its first word

    def choose(self, obs: Observation, q: Question) -> int:
        return self._on.get(q.kind, self.on_other)(obs, q)

    def fork(self) -> GreedyAgent:
        """An exact copy for another copy of the game: its generator and all it keeps between questions
        are copied, so its future answers equal this agent's (tests/test_value.py checks they do)."""
        twin = copy.copy(self)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        for name, kept in vars(self).items():
            if isinstance(kept, (dict, set, list)):
                setattr(twin, name, copy.copy(kept))
        twin._on = {kind: getattr(twin, "on_" + kind.value, twin.on_other) for kind in Ask}
        twin._obs = twin._cell = None       # what it read from this game's observation is made again
        return twin

    # ---- helpers ------------------------------------------------------------------------------
    def snapshot(self, obs) -> E.Snapshot:
        """The numbers it weighs cards by; what it worked out under another key is forgotten."""
        snap = E.Snapshot(obs, self.seat)
        if snap.key != self._cache_key:
            self._cache_key, self._cache = snap.key, {}
        return snap

    def no_snapshot(self, obs) -> None:
        """For a question that weighs no card: forget as snapshot() would, reading only the key, and only
        when something is kept (an empty cache stays empty whatever the key; the next question that
        keeps anything takes its own snapshot first)."""
        if self._cache:
            key = E.Snapshot.key_of(obs, self.seat)
            if key != self._cache_key:
                self._cache_key, self._cache = key, {}

    def best(self, values: list, indexes=None, whole: bool = False) -> int:
        """The index (from indexes, or of values) of the highest value; ties (within 1e-9) go to the
        agent's generator. whole: every value is a whole number, so only equals tie."""
        if len(values) == 1:
            k = 0 if indexes is None else indexes[0]
        else:
            top = max(values)
            if whole and values.count(top) == 1:    # one best whole number: no list of ties
                k = values.index(top) if indexes is None else indexes[values.index(top)]
            else:
                low = top - 1e-9
                ties = [k for k, v in enumerate(values) if v >= low] if indexes is None else \
                    [k for v, k in zip(values, indexes, strict=False) if v >= low]
                if len(ties) > 1:
                    return ties[self.below(len(ties))]
                k = ties[0]
        getrandbits = self.rng.getrandbits      # self.below(1), inline: single bits until one is 0
        while getrandbits(1):
            pass
        return k

    def below(self, n: int) -> int:
        """A number below n from the agent's generator, drawn as self.rng.choice draws an index
        (random.Random._randbelow), without its two calls; tests/test_greedy_agent.py checks they agree."""
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def cells(self, obs) -> dict:
        """Cell -> (index, its neighbours' states as a function of the board, mine?), for the observed game."""
        if self._obs is not obs or self._cell is None:
            cell = cell_table(obs.geometry, self.seat)
            self._obs, self._cell = obs, cell
            return cell
        return self._cell

    def card(self, obs, ref: str) -> tuple:
        """(card, its generated estimate, playable) of a card id or name."""
        hit = self._cards.get(ref)
        if hit is None:
            card = obs.card(ref)
            hit = self._cards[ref] = (card, estgen.of(card), obs.playable(card.id))
        return hit

    def names(self, obs) -> set:
        """The names in its tableau (one card per name)."""
        return {e.card.name for e in obs.tableau(self.seat)}

    def play_worth(self, snap: E.Snapshot, card, est, uses: int = 1, again: bool = False) -> tuple[float, float]:
        """(worth before price, policy change) of playing a card now, or executing it again
        (estimate.play_value), kept while the snapshot's key stays the same."""
        key = (card.id, uses, again)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = est.value(snap, uses, again)
        return hit

    def card_worth(self, obs, snap: E.Snapshot, names: Collection[str], ref: str) -> float:
        """What holding a card is worth: its play worth (or reaction worth) less its price."""
        card, est, playable = self.card(obs, ref)
        if card.name in names:
            return 0.0
        price = obs.price(card)                 # under the player's `modify price`
        if not playable:
            return est.react(snap) - price * E.MONEY
        return self.play_worth(snap, card, est)[0] - price * E.MONEY

    # ---- questions (each returns the index of its answer) ---------------------------------------
    def on_advisor(self, obs, q: Question) -> int:
        snap = self.snapshot(obs)
        values = []
        for ref in q.options:
            est = self.card(obs, ref)[1]
            values.append(est.setup(snap) + est.lasting(snap, 1))
        return self.best(values)

    def on_strategy(self, obs, q: Question) -> int:
        costs = obs.strategy_costs()
        money = obs.track(self.seat, "money")
        free = [s for s in q.options if costs[s] == 0]
        free = max(free) if free else min(q.options)
        paid = [s for s in q.options if s > free and money - costs[s] >= 6]
        return q.options.index(max(paid) if paid else free)

    def on_action(self, obs, q: Question) -> int:
        opts = q.options
        # The menu comes in a documented order: pass, bury …, relocate …, play …, execute …, switch ….
        # The agent never relocates, so it reads the menu from both ends and skips the relocations
        # (each option read is made on reading; tests/test_greedy_agent.py checks the order).
        n = len(opts)
        read = {}
        k = 1
        while k < n:
            o = read[k] = opts[k]
            if o[0] != "bury":
                break
            k += 1
        back = []
        j = n - 1
        while j >= k:
            o = read[j] if j in read else opts[j]
            if o[0] not in ("play", "execute", "switch"):
                break
            read[j] = o
            back.append(j)
            j -= 1
        back.reverse()
        if back:
            snap = self.snapshot(obs)
            p = snap.t[POLICY]
            danger, floor = snap.floor + POLICY_DANGER, snap.floor + POLICY_FLOOR
        else:
            self.no_snapshot(obs)       # pass and burials weigh no card
        values, indexes = [PLAY_MARGIN], [0]
        tableau = bury_cost = None
        look = None                       # this question's lookaheads, made when first needed
        barred = self.barred
        for i in [*range(1, k), *back]:
            o = read[i]
            kind = o[0]
            if barred and kind in ("play", "execute") and o[1] in barred:
                continue
            if kind == "bury":
                if bury_cost is None:
                    bury_cost = obs.quantity(self.seat, "bury_cost")
                v = self.bury_worth(obs, o[1]) - bury_cost * E.MONEY
            elif kind == "play":
                card, est, _ = self.card(obs, o[1])
                worth, dpolicy = self.play_worth(snap, card, est)
                # safe: no paying policy when low, never down to POLICY_FLOOR
                safe = not (dpolicy < 0 and (p <= danger or p + dpolicy <= floor))
                v = worth - obs.price(card) * E.MONEY if safe else 0.0
                if safe and est.unreadable:
                    look = look or Lookahead(self.unreadable_options(obs, read, back))
                    v = self.measured(obs, i, snap, card, 1, False, look, v)
            elif kind == "execute":
                if tableau is None:
                    tableau = obs.tableau(self.seat)
                e = next(x for x in tableau if x.card.id == o[1])
                est = estgen.of(e.card)
                worth, dpolicy = self.play_worth(snap, e.card, est, e.uses + 1, again=True)
                safe = not (dpolicy < 0 and (p <= danger or p + dpolicy <= floor))
                v = worth - obs.price(e.card, e.uses) * E.MONEY if safe else 0.0
                if safe and est.unreadable:
                    look = look or Lookahead(self.unreadable_options(obs, read, back))
                    v = self.measured(obs, i, snap, e.card, e.uses + 1, True, look, v)
            elif kind == "switch":
                if (obs.round, o[1]) in self._switched:
                    continue
                if tableau is None:
                    tableau = obs.tableau(self.seat)
                e = next(x for x in tableau if x.card.id == o[1])
                now = estgen.of(e.card).lasting(snap, e.uses)
                v = -now if e.on else now
            else:
                continue
            values.append(v)
            indexes.append(i)
        k = self.best(values, indexes)
        if k and read[k][0] == "switch":
            self._switched.add((obs.round, read[k][1]))
        return k

    # ---- the lookahead -------------------------------------------------------------------------------
    def measured(self, obs, i: int, snap: E.Snapshot, card, uses: int, again: bool, look: Lookahead,
                 read: float) -> float:
        """What answering the action question with option i (playing or executing an unreadable card) is worth,
        by the lookahead, kept while the snapshot's key stays the same; `read` (the reading's value) when it
        cannot look."""
        if not self.looks:
            return read
        key = ("look", card.id, uses, again)
        hit = self._cache.get(key)
        if hit is None:
            left = min(look.left, LOOK_GAME - self.looked)
            if left <= 0:
                return read
            hit, spent = self.look(obs, i, snap, card, again, look, left)
            look.left -= spent
            self.looked += spent
            if hit is None:
                return read
            self._cache[key] = hit
        return hit

    def look(self, obs, i: int, snap: E.Snapshot, card, again: bool, look: Lookahead,
             budget: int) -> tuple[float | None, int]:
        """(the difference in standing between answering with option i and with anything but an unreadable
        card, both copies played on to the end of the round, or None when a copy failed; decisions played).
        The second copy is played once a question, for every unreadable card on its menu."""
        rnd = obs.round
        spent = 0
        try:
            if look.base is None:
                other = obs.forecast(self.plain(obs.players, rnd))
                look.barred = frozenset(other.pending().options[k][1] for k in look.skip)
                other.choosers[self.seat].barred = look.barred
                spent = self.to_round_end(other, rnd, budget // 2)
                look.base = self.standing(other, look.barred)
            if look.base is False:
                return None, spent
            played = obs.forecast(self.plain(obs.players, rnd))
            played.answer(i)
            spent += 1 + self.to_round_end(played, rnd, budget - spent - 1)
            v = self.standing(played, look.barred) - look.base
        except (EffectError, RuleViolation):
            look.base = False
            return None, spent
        if not again and not played.state.over:
            v += E.endgame(card, snap)
        return v, spent

    def standing(self, game, barred: frozenset) -> float:
        """The seat's standing in a copy of the game: its position (score, money, tracks, residents), what the
        cards in its tableau will still bring (as read), and the cards in its hand worth playing (not those
        the lookahead measures: what they are worth is the question)."""
        seat = self.seat
        obs = game.observation(seat)
        snap = E.Snapshot(obs, seat)
        v = E.position(obs, seat, snap.rounds_left)
        if game.state.over:
            return v
        for e in obs.tableau(seat):
            if e.on and not e.spent:
                v += estgen.of(e.card).lasting(snap, e.uses)
        for card in obs.hand:
            if card.id in barred:
                continue
            est = estgen.of(card)
            worth = est.value(snap, 1, False)[0] if obs.playable(card.id) else est.react(snap)
            v += max(0.0, worth - obs.price(card) * E.MONEY)
        return v

    def unreadable_options(self, obs, read: dict, back: list) -> tuple[int, ...]:
        """The options of the action menu that play or execute a card the reading cannot value."""
        out = []
        for j in back:
            kind, ref = read[j][0], read[j][1]
            if ((kind == "play" and self.card(obs, ref)[1].unreadable)
                    or (kind == "execute" and estgen.of(obs.card(ref)).unreadable)):
                out.append(j)
        return tuple(out)

    def plain(self, players: int, rnd: int) -> list:
        """Plain greedy players for a copy of the game: no lookahead of their own, generators of their own
        (the same in every copy of this round)."""
        out = []
        for s in range(players):
            agent = GreedyAgent(sub_stream(self.stream, "look", self.seat, rnd), s)
            agent.looks = False
            out.append(agent)
        return out

    @staticmethod
    def to_round_end(game, rnd: int, budget: int) -> int:
        """Play a copy on until its round `rnd` is over (or the game), at most `budget` decisions; how many."""
        n = 0
        while n < budget:
            q = game.pending()
            if q is None or game.state.round != rnd:
                break
            game.answer(game.choosers[q.seat].choose(game.observation(q.seat), q))
            n += 1
        return n

    def bury_worth(self, obs, cell) -> float:
        """0.9 a point for each healthy neighbour of a dead on the same board."""
        return 0.9 * self.cells(obs)[cell][3](obs.board).count(HEALTHY)

    def on_treat(self, obs, q: Question) -> int:
        opts = q.options
        board = obs.board
        severe, mild = [], []
        cells = False
        for k, c in enumerate(opts):
            if c != DONE:
                cells = True
                s = board[c[0] * B.SIZE + c[1]]
                if s == SEVERE:
                    severe.append(k)
                elif s == MILD:
                    mild.append(k)
        if not cells:
            return opts.index(DONE)
        deaths = obs.quantity(self.seat, "new_dead")
        severe_left = obs.count(self.seat, "severe")
        pool = severe if severe and severe_left <= deaths else mild or severe
        cell = self.cells(obs)
        return self.best([cell[opts[k]][1](board).count(HEALTHY) for k in pool], pool, whole=True)

    def on_cell(self, obs, q: Question) -> int:
        word = self._words.get(q.text)
        if word is None:
            word = self._words[q.text] = q.text.partition(":")[0].partition(" ")[0]
        if word in HARM:
            return self.pick_harm(obs, q.options, word)
        if word in GOOD:
            return self.pick_good(obs, q.options)
        if word == "move":
            return self.pick_move(obs, q)
        if word == "send":
            return self.pick_send(obs, q)
        return self.rng.randrange(len(q.options))

    def pick_resident(self, obs, q: Question) -> int:
        """Which resident `move` or a `take`/`give` of residents sends: the one whose neighbours it most endangers
        (or who is most endangered); where it lands is asked next and read from what it was."""
        board, cells = obs.board, self.cells(obs)
        values = []
        for c in q.options:
            i, around = cells[c][:2]
            values.append(around(board).count(HEALTHY) if board[i] != HEALTHY else sum(
                around(board).count(x) for x in HARMFUL))
        k = self.best(values, whole=True)
        self._moving = board[cells[q.options[k]][0]]
        return k

    def pick_move(self, obs, q: Question) -> int:
        """`move`: the resident as pick_resident has it, then the empty cell where it endangers (or is endangered
        by) the fewest."""
        if q.text.startswith("move which"):
            return self.pick_resident(obs, q)
        board, cells = obs.board, self.cells(obs)
        harmful = self._moving != HEALTHY
        return self.best([-(around(board).count(HEALTHY) if harmful else sum(around(board).count(x) for x in HARMFUL))
                          for _, around, _, _ in map(cells.__getitem__, q.options)], whole=True)

    def pick_send(self, obs, q: Question) -> int:
        """`take`/`give` of residents: the resident as pick_resident has it, then the empty cell where it spares my
        own residents (on my board) or endangers the other's (on theirs)."""
        if q.text.startswith("send which"):
            return self.pick_resident(obs, q)
        board, cells = obs.board, self.cells(obs)
        harmful = self._moving != HEALTHY
        values = []
        for c in q.options:
            _, around, mine, _ = cells[c]
            v = around(board).count(HEALTHY) if harmful else sum(around(board).count(x) for x in HARMFUL)
            values.append(-v if mine else v)
        return self.best(values, whole=True)

    def pick_good(self, obs, cells) -> int:
        board = obs.board
        return self.best([GOOD_FIRST.get(board[i], 0) * 10 + around(board).count(HEALTHY)
                          for i, around, _, _ in map(self.cells(obs).__getitem__, cells)], whole=True)

    def pick_harm(self, obs, cells, word: str) -> int:
        board = obs.board
        cells = list(map(self.cells(obs).__getitem__, cells))
        values = [-around(board).count(HEALTHY) if mine else around(board).count(HEALTHY)
                  for _, around, mine, _ in cells]
        if word == "kill":
            values = [KILL_FIRST.get(board[i], 0) * 10 + v for (i, _, _, _), v in zip(cells, values, strict=False)]
        return self.best(values, whole=True)

    def on_arrange(self, obs, q: Question) -> int:
        diagonal = B.CORNER_DIAGONALS[self.seat]
        infected = "infected" in q.text
        values = []
        for c in q.options:
            dist = min(abs(c[0] - r) + abs(c[1] - k) for r, k in diagonal)
            values.append(dist if infected else -dist)
        return self.best(values, whole=True)

    def on_amount(self, obs, q: Question) -> int:
        k = self.forced(obs, q, "amount")
        return q.options.index(q.options[-1]) if k is None else k

    def on_choose(self, obs, q: Question) -> int:
        k = self.forced(obs, q, "choose")
        return q.options.index(q.options[-1]) if k is None else k

    def on_may(self, obs, q: Question) -> int:
        k = self.forced(obs, q, "may")
        return q.options.index(True) if k is None else k

    def on_player(self, obs, q: Question) -> int:
        k = self.forced(obs, q, "player")
        return self.rng.randrange(len(q.options)) if k is None else k

    def forced(self, obs, q: Question, kind: str) -> int | None:
        """Weigh each answer by reading the handler that asks, with that answer at its first such choice
        (None when no handler of the asking card holds such a choice)."""
        if q.card is None:
            return None
        card, est, _ = self.card(obs, q.card)
        found = est.forced.get(kind)
        if found is None:
            return None
        run = found[1]
        snap = self.snapshot(obs)
        entry = next((e for e in obs.tableau(self.seat) if e.card.id == card.id), None)
        opts = q.options
        indexes = range(len(opts)) if len(opts) <= 26 else _spread(len(opts))

        def weigh(w: E.Snapshot) -> list:
            values = []
            w.uses, w.as_subject = entry.uses if entry is not None else 1, kind != "player"
            try:
                for k in indexes:
                    w.fk, w.force = kind, opts[k]
                    values.append(estgen.worth(run(w), w))
            finally:
                w.fk, w.force, w.as_subject = None, None, False
            return values
        # Asked while an event resolves (`when event:`): the reading weighs that event.
        ev = obs.current_event if found[0].event == "event" else None
        return self.best(weigh(snap) if ev is None else E.with_event(snap, ev, weigh, estgen.harm), indexes)

    def on_reroll(self, obs, q: Question) -> int:
        """Keep the die shown (index 0) or roll again (1): the handler that rolls it, read with the die at the
        value shown against the die at its mean; rolling again only when the mean reads better."""
        shown = next((e for e in reversed(obs.seen()) if e[0] == "roll" and e[1] == self.seat), None)
        if q.card is None or shown is None:
            return 0
        card, est, _ = self.card(obs, q.card)
        found = est.forced.get("roll")
        if found is None:
            return 0
        run, sides, value = found[1], shown[3], shown[4]
        snap = self.snapshot(obs)
        entry = next((e for e in obs.tableau(self.seat) if e.card.id == card.id), None)

        def weigh(w: E.Snapshot) -> list:
            values = []
            w.uses, w.as_subject = entry.uses if entry is not None else 1, True
            try:
                for tried in (value, E.roll_mean(sides)):
                    w.fk, w.force = "roll", tried
                    values.append(estgen.worth(run(w), w))
            finally:
                w.fk, w.force, w.as_subject = None, None, False
            return values
        ev = obs.current_event if found[0].event == "event" else None
        keep, again = weigh(snap) if ev is None else E.with_event(snap, ev, weigh, estgen.harm)
        return q.options.index(again > keep + 1e-9)

    def on_order(self, obs, q: Question) -> int:
        """`arrange N events`: the event that reads best for this seat is drawn next."""
        snap = self.snapshot(obs)
        return self.best([estgen.harm(obs.card(ref), snap)[0] for ref in q.options])

    def on_react(self, obs, q: Question) -> int:
        snap = self.snapshot(obs)
        card, est, _ = self.card(obs, asked(q))
        ev = obs.current_event
        worth = est.react(snap) if ev is None else E.with_event(snap, ev, est.react, estgen.harm)
        return q.options.index(worth - obs.price(card) * E.MONEY > 0)

    def on_keep(self, obs, q: Question) -> int:
        snap, names = self.snapshot(obs), self.names(obs)
        values = [self.card_worth(obs, snap, names, ref) for ref in q.options]
        return self.best(values)

    def on_discard(self, obs, q: Question) -> int:
        snap, names = self.snapshot(obs), self.names(obs)
        values = [-self.card_worth(obs, snap, names, ref) for ref in q.options]
        return self.best(values)

    on_give = on_discard            # a card given away: the one worth least to keep
    on_draft = on_keep              # a card taken from a draft: the one worth most

    def on_offer(self, obs, q: Question) -> int:
        snap, names = self.snapshot(obs), self.names(obs)
        values, indexes = [], []
        for k, ref in enumerate(q.options):
            if ref is not None:
                values.append(self.card_worth(obs, snap, names, ref))
                indexes.append(k)
        if min(values) >= 1.0:
            return q.options.index(None)
        return self.best([-v for v in values], indexes)

    def on_bid(self, obs, q: Question) -> int:
        top = q.options[-1]                 # bids are 0 … money, ascending
        if top - BID_RESERVE <= 0:
            # It bids 0 whatever the card is worth. What it would have kept while the snapshot's key
            # holds could only serve later bids of this auction with the same money: 0 again.
            self.no_snapshot(obs)
            return q.options.index(0)
        snap = self.snapshot(obs)
        ref = asked(q)
        name = self.card(obs, ref)[0].name
        worth = self.card_worth(obs, snap, {name} if any(e.card.name == name for e in obs.tableau(self.seat)) else (),
                                ref)
        bid = int(worth / E.MONEY * 0.5)
        return q.options.index(max(0, min(bid, top - BID_RESERVE)))

    def on_other(self, obs, q: Question) -> int:
        return self.rng.randrange(len(q.options))


class Lookahead:
    """One action question's lookaheads: the decisions they may still play, the unreadable options on its
    menu, and the standing in the other copy, where none of their cards is played this round (None: not
    played yet; False: failed)."""

    __slots__ = ("barred", "base", "left", "skip")

    def __init__(self, skip: tuple[int, ...]):
        self.left = LOOK_DECISION
        self.skip = skip
        self.barred: frozenset = frozenset()    # the cards of those options, never played in the other copy
        self.base: float | bool | None = None


POLICY = estgen.TRACK["policy"]
HEALTHY, MILD, SEVERE = B.HEALTHY, B.MILD, B.SEVERE
HARMFUL = (B.MILD, B.SEVERE, B.DEAD)    # what endangers a healthy neighbour


def asked(q: Question) -> str:
    """The card a reaction's or an auction's question is about: the core always names it."""
    if q.card is None:
        raise ValueError(f"a {q.kind.value} question that names no card")
    return q.card


def cell_table(geo, seat: int) -> dict:
    """Cell -> (index, its neighbours' states as a function of the board, owned by seat?, the states of its
    neighbours on the same board), made once per geometry."""
    nb, owner = geo.neighbours, geo.owner
    return E.of_geometry(geo, "cell table", seat, lambda: {
        CELLS[i]: (i, E.states_of(nb[i]), owner[i] == seat,
                   E.states_of(tuple(j for j in nb[i] if owner[j] == owner[i]))) for i in range(len(CELLS))})
GOOD = ("cure", "treat", "remove", "revive", "tag")
HARM = ("reveal", "contagion", "deaths", "worsening", "kill", "infect", "worsen")
GOOD_FIRST = {B.DEAD: 3, B.SEVERE: 2, B.MILD: 1, B.HEALTHY: -10}   # cures, removals, revivals: dead first, then severe, mild
KILL_FIRST = {B.SEVERE: 2, B.MILD: 1}                              # its own kills: severe first, then mild


def _spread(n: int) -> tuple[int, ...]:
    """At most 26 of n answers (their indexes), evenly over a long range (both ends kept)."""
    return tuple(round(k * (n - 1) / 25) for k in range(26))
