"""What each seat has seen happen: the public history of a game, and what one seat saw for itself.

The game keeps one list, `GameState.seen`, of entries `(who, kind, *data)`: `who` is PUBLIC (-1) for what
every seat sees, or the one seat that saw it. A seat's history is the entries it saw, in order:

| kind | data | who |
|---|---|---|
| reveal | cell index, 1 if the front was infected | public |
| drew | seat, why (the card or step that drew) | public (that a seat took a card into its hand) |
| got | card id, why | the seat that got it |
| play / execute | seat, card id | public |
| switch | seat, card id, on | public |
| offer | seat, card id | public (offers are face up) |
| sold | owner, winner, card id, bid | public (the winner pays the owner: the amount shows) |
| unsold | owner, card id | public |
| bid | card id, amount | the bidder (bids are sealed) |
| event | card id | public |
| advisor | card id | the seat that kept it (face up to all once every advisor is kept) |
| arranged | ((cell, front), ...) | the planner's seat: the fronts it saw and where it put them |
| given | giver, taker | public; the card id goes to both (`gave` / `got`) |
| roll | seat (None for an event's own roll), card id, sides, value | public (every die an effect rolls) |
| draft | stage, (card id, ...) | public (a draft's cards lie face up) |
| drafted | seat, card id | public (the card a seat takes from a draft's face-up pool) |
| looked | seat, how many events, reordered (True/False) | public (that a seat looked at the event deck) |
| foresaw | (event id, ...) top first: the events the seat looked at, in the order it left them | the seat that looked |
| reshuffled | how many past events went back | public (the event deck was shuffled) |

Deck and discard sizes, hand sizes, tracks, tableaus and the board are read from the state as it stands
(core/observation.py); `info_key` puts them and the history together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekit.core.game import Game
    from rulekit.core.state import GameState

PUBLIC = -1
Entry = tuple


def from_record(kind: str, data: dict[str, Any]) -> tuple[Entry, ...]:
    """The history entries of one game-log record (Game.record), if it is one the history keeps."""
    if kind in ("play", "execute"):
        return ((PUBLIC, kind, data["seat"], data["card"]),)
    if kind == "switch":
        return ((PUBLIC, kind, data["seat"], data["card"], data["on"]),)
    if kind == "offer":
        return ((PUBLIC, kind, data["seat"], data["card"]),)
    if kind == "sold":
        return ((PUBLIC, kind, data["seat"], data["to"], data["card"], data["bid"]),)
    if kind == "unsold":
        return ((PUBLIC, kind, data["seat"], data["card"]),)
    if kind == "event":
        return ((PUBLIC, kind, data["card"]),)
    if kind == "advisor":
        return ((data["seat"], kind, data["card"]),)
    if kind == "looked":
        return ((PUBLIC, kind, data["seat"], data["events"], data["arranged"]),)
    if kind == "reshuffled":
        return ((PUBLIC, kind, data["events"]),)
    if kind == "roll":
        return ((PUBLIC, kind, data["seat"], data["card"], data["sides"], data["value"]),)
    if kind == "draft":
        return ((PUBLIC, kind, data["stage"], tuple(data["cards"])),)
    if kind == "drafted":
        return ((PUBLIC, kind, data["seat"], data["card"]),)
    if kind == "given":
        src, dst, card = data["seat"], data["to"], data["card"]
        return (PUBLIC, kind, src, dst), (src, "gave", card, dst), (dst, "got", card, "given")
    return ()


KEPT = frozenset({"play", "execute", "switch", "offer", "sold", "unsold", "event", "advisor", "given", "roll",
                  "draft", "drafted", "looked", "reshuffled"})


def events_known(seen: list[Entry], seat: int) -> list[str | None]:
    """The events `seat` knows lie on top of the event deck, top first (None: a place it does not know), by its
    history: what it foresaw, less the events drawn since; another seat's reordering of the top N makes it
    forget those N places (it no longer knows their order); a reshuffle, everything."""
    known: list[str | None] = []
    for e in seen:
        who, kind = e[0], e[1]
        if kind == "foresaw" and who == seat:
            ids = list(e[2])
            known = ids + known[len(ids):]
        elif who != PUBLIC:
            continue
        elif kind == "event" and known:
            known.pop(0)
        elif kind == "looked" and e[2] != seat and e[4]:
            n = e[3]
            forgot: list[str | None] = [None] * min(n, len(known))
            known = forgot + known[n:]
        elif kind == "reshuffled":
            known = []
    while known and known[-1] is None:
        known.pop()
    return known


def seen_by(state: GameState, seat: int) -> tuple[Entry, ...]:
    """The history one seat has seen, in order, without the `who` of each entry."""
    return tuple(e[1:] for e in state.seen if e[0] == PUBLIC or e[0] == seat)


def info_key(game: Game, seat: int) -> tuple:
    """Everything `seat` can tell about the game now: two states with equal keys are the same to it.

    The board as it lies (face-down tiles without fronts), every seat's public fields, hand sizes and
    tableaus, the advisors once face up (its own always), its own hand, the market, the events drawn
    and how many are left, deck and discard sizes, where the game stands, and its history.
    """
    from rulekit.core.observation import advisors_hidden  # the one definition of the face-down draft

    st = game.state
    hidden = advisors_hidden(game)
    seats = tuple(
        (p.medical, p.disease, p.policy, p.score, p.economy, p.money, p.unlocked, p.out, len(p.hand),
         tuple((e.card.id, e.uses, e.last_round, e.on, e.spent, e.played_round, e.switched_round,
                tuple(sorted(e.counters.items()))) for e in p.tableau),
         None if p.advisor is None or (hidden and p.seat != seat) else
         (p.advisor.id, tuple(sorted(p.advisor_counters.items()))),
         tuple(p.marks.items()))
        for p in st.seats)
    cur = st.cursor
    return (
        st.round, st.phase, cur.phase, cur.step, st.over, tuple(st.board), seats,
        tuple(c.id for c in st.seats[seat].hand),
        tuple((s, c.id) for s, c in st.offers),
        tuple(c.id for c in st.history), st.current_event.id if st.current_event else None, len(st.event_deck),
        tuple(sorted((k, len(v)) for k, v in st.decks.items())), tuple(sorted((k, len(v)) for k, v in st.discards.items())),
        seen_by(st, seat),
        *((tuple(c.id for c in st.pool),) if st.pool else ()),      # a draft's face-up pool, while it lies
    ) + ((tuple(sorted(st.tags.items())),) if st.tags else ())     # tags on cells are public
