"""Why the bots never played a card they drew: what its text lets them read, and what they made of it in a sample game.

A card drawn but never played in a batch is suspect to a designer; the reason may be the card or
the bots. Each card gets the reasons that apply, in this order:

- `reaction`: it is played only as a reaction (`react …`), and its moment never came while a bot
  held it, or the bot judged it not worth its price then;
- `unreadable`: the bots cannot value it from its text (rulekit.agents.estimate.unreadable) and
  measure it by a short lookahead instead;
- `unaffordable`: at no action question of the sample game could a bot pay its price;
- `not_worth`: at every action question of the sample game where a bot could pay for it, the bots'
  reading judged it worth less than its price (by the greedy agent's margin);
- `unknown`: none of these — the sample game would have played it.

The sample game is the batch's first game, every seat played by the greedy agent, watched at each
action question of each seat (as if that seat held the card): a pure function of the batch.
"""

from __future__ import annotations

from rulekit.agents import estgen
from rulekit.agents import estimate as E
from rulekit.agents.greedy import PLAY_MARGIN, GreedyAgent
from rulekit.core.errors import EffectError
from rulekit.engine import make_game
from rulekit.language import ast
import contextlib
from typing import Any

WORDS = {
    "reaction": ("只能作为反应打出，持有时时机没来，或来了也不值它的价",
                 "only played as a reaction: its moment never came while a bot held it, or it was not worth its price "
                 "then"),
    "unreadable": ("AI 从文字估不出它的价值（{why}），靠短程前瞻衡量",
                   "the bots cannot value it from its text ({why}) and measure it by a short lookahead"),
    "unaffordable": ("付不起：价格 {price}，样本对局里 AI 行动时最多只有 {money} 金钱",
                     "never affordable: its price is {price}, and in a sample game the bots had at most {money} coins "
                     "when choosing an action"),
    "not_worth": ("AI 认为不值这个价：样本对局里最多值 {worth:.1f} 分，价格 {price} 金钱（{cost:.1f} 分）",
                  "judged worth less than its price: at best {worth:.1f} points in a sample game, against a price of "
                  "{price} coins ({cost:.1f} points)"),
    "unknown": ("原因不明：样本对局里 AI 会打出它", "reason not known: in a sample game the bots would have played it"),
}


class _Watcher(GreedyAgent):
    """A greedy player that, at each of its action questions, weighs the cards asked about as if it held them."""

    def __init__(self, seed, seat: int, cards: list, seen: dict, asked: list):
        super().__init__(seed, seat)
        self.watched, self.seen, self.asked = cards, seen, asked

    def on_action(self, obs, q):
        self.asked[0] += 1
        snap = E.Snapshot(obs, self.seat)
        money = obs.track(self.seat, "money")
        for card in self.watched:
            seen = self.seen[card.id]
            seen["money"] = max(seen["money"], money)
            price = obs.price(card)
            if price > money:
                continue
            est = estgen.of(card)
            worth = est.value(snap, 1, False)[0] if _playable(card) else est.react(snap)
            if not seen["affordable"] or worth - price * E.MONEY > seen["worth"] - seen["price"] * E.MONEY:
                seen["affordable"], seen["worth"], seen["price"] = True, worth, price
        return super().on_action(obs, q)


def reasons(content, cards: list, players: int, seed: int, greedy: bool) -> dict[str, list[dict]]:
    """Each card's reasons as {"why": code, "zh": …, "en": …}; a sample game only when greedy agents played."""
    if not cards:
        return {}
    # per card: affordable at some action question; its worth and price where it came nearest to being played
    seen = {c.id: {"affordable": False, "worth": 0.0, "price": c.price[0] if c.price else 0, "money": 0} for c in cards}
    sampled = greedy and _sample(content, cards, players, seed, seen)
    out = {}
    for card in cards:
        found: list[tuple[str, dict[str, Any]]] = []
        playable = _playable(card)
        if not playable:
            found.append(("reaction", {}))
        unread = E.unreadable(card)
        if unread:
            found.append(("unreadable", {"why": "; ".join(u.why.split(" (")[0] for u in unread)}))
        s = seen[card.id]
        if sampled and playable and not s["affordable"]:
            found.append(("unaffordable", {"price": s["price"], "money": s["money"]}))
        elif sampled and playable and not unread and s["worth"] - s["price"] * E.MONEY <= PLAY_MARGIN:
            found.append(("not_worth", {"worth": s["worth"], "price": s["price"], "cost": s["price"] * E.MONEY}))
        if not found and sampled:
            found.append(("unknown", {}))
        out[card.id] = [{"why": why, "zh": WORDS[why][0].format(**v), "en": WORDS[why][1].format(**v)}
                        for why, v in found]
    return out


def _sample(content, cards: list, players: int, seed: int, seen: dict) -> bool:
    """Play the sample game, watching; whether any action question was watched (an effect may stop it early)."""
    asked = [0]
    game = make_game(content, seed, [_Watcher(seed, s, cards, seen, asked) for s in range(players)], players=players)
    with contextlib.suppress(EffectError):
        game.run()
    return asked[0] > 0


def _playable(card) -> bool:
    """Whether the card can be played in the action phase: anything but `react` handlers alone."""
    program = card.effect
    if program is None:
        return True
    items = program.items
    return any(not (isinstance(i, ast.Handler) and i.form == "react") for i in items) or not items
