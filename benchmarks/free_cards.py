"""Every policy made free: which of them greedy players still never play, in a batch, and why.

Run by hand: `python benchmarks/free_cards.py [--content DIR] [--games N] [--players P]`. Every policy's
price is set to 0 (in memory: the folder is only read), N greedy games are played, and for each policy
the games in which a player drew it and how many of those played it are printed; then the cards drawn
but never played, with the reasons rulekit/playtest/unplayed.py gives. A card that helps and is free
should be played; one that is not either hurts, waits for a moment that never came, or is misjudged.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    from rulekit.content.loader import load_content
    from rulekit.model import Content
    from rulekit.engine import new_game, result_of
    from rulekit.playtest import unplayed

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--content", type=Path, default=ROOT / "content", help="the content folder (only read)")
    ap.add_argument("--games", type=int, default=100, help="games in the batch (default 100)")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    loaded = load_content(args.content)
    free = Content(tuple(dataclasses.replace(c, price=(0,) * max(1, len(c.price))) if c.kind == "policy" else c
                         for c in loaded.cards), loaded.rules, loaded.root, loaded.unlock, loaded.unlock_files,
                   loaded.fingerprint)
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    for seed in range(args.games):
        game = new_game(free, seed, ["greedy"], players=args.players)
        game.run()
        r = result_of(game)
        for seat in range(r.players):
            mine = set(r.cards_played[seat])
            for cid in set(r.cards_drawn[seat]):
                drawn[cid] = drawn.get(cid, 0) + 1
                played[cid] = played.get(cid, 0) + (cid in mine)
    policies = free.of_kind("policy")
    print(f"every policy free, {args.games} greedy games of {args.players} players ({args.content})")
    print(f"{'card':24} {'drawn':>6} {'played':>7}")
    for card in policies:
        n = drawn.get(card.id, 0)
        print(f"{card.id:24} {n:6} {played.get(card.id, 0):7}")
    never = [c for c in policies if drawn.get(c.id) and not played.get(c.id)]
    why = unplayed.reasons(free, never, args.players, 0, True)
    print(f"\n{len(never)} of {len(policies)} free policies drawn but never played:")
    for card in never:
        print(f"  {card.name} ({card.id}): " + "; ".join(w["en"] for w in why[card.id]))
    undrawn = [c.id for c in policies if not drawn.get(c.id)]
    if undrawn:
        print(f"never drawn: {', '.join(undrawn)}")


if __name__ == "__main__":
    main()
