"""The greedy agent's estimate reads a name as the game does: from the checker's table of what every
name means (Checked.meaning), not by guessing from the word.

The case where a guess from the word goes wrong: an effect that makes its own `price` and counts
`count(played where price >= 2)`. Inside the count, `price` is the counted card's (the language's
scoping rule, which the game follows); outside, it is the effect's own. Read by the word, the
estimate took the effect's `price` inside the count too, and counted every card in play.
"""

from __future__ import annotations

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.agents.greedy import GreedyAgent
from rulekit.content.loader import load_content
from rulekit.engine import make_game
from rulekit.language.parser import parse_effect
from rulekit.language.resolve import CARD, LOCAL
from rulekit.model import Card
from tests.conftest import CONTENT

TEXT = "on play:\n  let price = 9\n  money += count(played where price >= 2) + price\n"


def _card() -> Card:
    program, problems = parse_effect(TEXT)
    assert program is not None, problems
    return Card(kind="policy", id="counts_dear", name="数贵牌", effect=program, price=(1,))


def test_a_card_made_without_the_checker_is_read_by_the_resolver_s_table():
    """The table the estimate reads says `price` is the counted card's inside the count, the effect's outside."""
    card = _card()
    kinds = sorted((m.kind, type(node).__name__) for node, m in E.meanings(card).items() if m.name == "price")
    assert kinds == [(CARD, "Name"), (LOCAL, "Let"), (LOCAL, "Name")]
    assert E.meanings(card) is E.meanings(card), "resolved once per effect"


class _Probe(GreedyAgent):
    """A greedy player that, whenever its tableau holds a cheap and a dear card, reads the probe card."""

    def __init__(self, seed: int, seat: int, card: Card, found: list):
        super().__init__(seed, seat)
        self.probe, self.found = card, found

    def choose(self, obs, q):
        prices = [e.card.price[0] if e.card.price else 0 for e in obs.tableau(self.seat) if e.on]
        if any(p >= 2 for p in prices) and any(p < 2 for p in prices):
            snap = E.Snapshot(obs, self.seat)
            reference = E.on_play(self.probe, snap).d["money"]
            generated = estgen.of(self.probe).play(E.Snapshot(obs, self.seat))[estgen.TRACK["money"]]
            self.found.append((sum(p >= 2 for p in prices) + 9, len(prices) + 9, reference, generated))
        return super().choose(obs, q)


def test_price_inside_a_count_of_played_cards_is_the_counted_card_s():
    """Both readings of the estimate (the Walker and the generated code) count only the cards in play priced 2
    or more, and add the effect's own 9, at every point of a game where the two counts differ."""
    card, found = _card(), []
    content = load_content(CONTENT)
    game = make_game(content, 3, [_Probe(3, s, card, found) for s in range(3)], players=3)
    game.run()
    assert found, "the game must reach a tableau holding a card priced under 2 and one priced 2 or more"
    for dear, every, reference, generated in found:
        assert dear != every
        assert reference == generated == dear
