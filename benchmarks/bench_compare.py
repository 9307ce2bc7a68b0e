"""What pairing buys: the variance of a paired difference against unpaired batches, and the games each needs.

One card is made a coin cheaper (each of its prices less 1, none below 0) and the content is compared
with itself so changed, with the real `rulekit compare` machinery:
    python benchmarks/bench_compare.py [--games 400] [--players 4] [--card ID] [--jobs 2] [--content DIR]

For every number compared, the variance of the paired difference (game i against game i, same seed) is
set against the sum of the two sides' own variances on the same games — what the difference would have
if the two batches had been played on unrelated seeds. Their ratio is the variance reduction of pairing;
the games needed to see a 5-point change (80% power, 5% two-sided) scale with each variance. A check on
real unrelated batches follows: the new side played again on another seed, compared unpaired.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent.parent / "content"
Z = 1.959963984540054 + 0.8416212335729143     # 5% two-sided, 80% power
EFFECT = 0.05                                    # a 5-point change


def cheaper(content, card_id: str | None):
    """The content with one policy a coin cheaper (the first stage 1 policy with a price when none is named)."""
    policies = [c for c in content.of_kind("policy") if c.price and any(c.price)]
    card = next((c for c in policies if c.id == card_id), None) if card_id else \
        next((c for c in policies if c.stage == 1), policies[0] if policies else None)
    if card is None:
        sys.exit(f"no policy {card_id!r} with a price in {content.root}")
    edited = replace(card, price=tuple(max(0, p - 1) for p in card.price))
    cards = tuple(edited if c is card else c for c in content.cards)
    mark = hashlib.sha256(f"{content.fingerprint}:{card.id} cheaper".encode()).hexdigest()
    return replace(content, cards=cards, fingerprint=mark), card, edited


def variances(c: dict, games: int):
    """(paired, unpaired) variance of the difference of one compared number, from its intervals."""
    from rulekit.playtest.paired import t_quantile

    t = t_quantile(0.975, games - 1)
    def se(ci):
        return (ci[1] - ci[0]) / (2 * t)
    return se(c["ci95"]) ** 2, se(c["base_ci95"]) ** 2 + se(c["new_ci95"]) ** 2


def needed(variance: float, games: int) -> int:
    """Games a side to see a change of EFFECT in a number whose difference has this variance at `games` games."""
    return max(2, round(Z * Z * variance * games / EFFECT ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--card", help="the policy made cheaper (default: the first stage 1 policy)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--content", type=Path, default=SHIPPED)
    args = parser.parse_args()

    from rulekit.content.loader import load_content
    from rulekit.playtest import compare as C
    from rulekit.playtest.runner import Batch

    content = load_content(args.content)
    new, card, edited = cheaper(content, args.card)
    agents = ("greedy",) * args.players
    base = C.Side("base", content, Batch(str(args.content), args.games, 1, args.players, agents))
    paired_new = C.Side("new", new, Batch(str(args.content), args.games, 1, args.players, agents))
    unpaired_new = C.Side("new, seed 2", new, Batch(str(args.content), args.games, 2, args.players, agents))
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp)
        C.play((base, paired_new), results, jobs=args.jobs)
        C.play((base, unpaired_new), results, jobs=args.jobs)
        paired = C.compare(base, paired_new, results)
        unpaired = C.compare(base, unpaired_new, results)

    g = args.games
    print(f"content {args.content}: {g} games a side, {args.players} players, greedy; {card.name} ({card.id})"
          f" price {'/'.join(map(str, card.price))} → {'/'.join(map(str, edited.price))};"
          f" {paired['games_differing']} of {g} paired games differ")
    judged = [c for c in paired["compared"] if c["judged"] and c["ci95"]]
    same = [c for c in judged if variances(c, g)[0] < 1e-12]
    judged = [c for c in judged if c not in same]
    print("variance of the difference, unpaired (sum of the two sides') / paired, on the same games"
          f" ({len(same)} more numbers are equal game for game, their paired variance 0):")
    groups = {"every judged number": judged,
              "cards' win rate if played": [c for c in judged if (c["kind"], c["metric"]) == ("card", "win_if_played")],
              "cards' played when drawn": [c for c in judged if (c["kind"], c["metric"]) == ("card", "played_when_drawn")],
              "seats' win rate": [c for c in judged if (c["kind"], c["metric"]) == ("seat", "win")]}
    for name, rows in groups.items():
        ratios = [u / p for p, u in (variances(c, g) for c in rows)]
        if len(ratios) > 1:
            low, _, high = statistics.quantiles(ratios, n=4)
            print(f"  {name:28s} median {statistics.median(ratios):6.2f}   (middle half {low:.2f} to {high:.2f};"
                  f" {len(ratios)} numbers)")
    mine = next((c for c in paired["compared"] if (c["id"], c["metric"]) == (card.id, "win_if_played")), None)
    rows = groups["cards' win rate if played"]
    print(f"games a side to see a {EFFECT:.0%}-point change in a card's win rate if played (80% power, 5% two-sided):")
    if mine is not None and mine["judged"]:
        p, u = variances(mine, g)
        print(f"  {card.name} ({card.id}): paired {needed(p, g):,}, unpaired {needed(u, g):,}  (ratio {u / p:.2f})")
    if rows:
        typical_p = statistics.median(needed(variances(c, g)[0], g) for c in rows)
        typical_u = statistics.median(needed(variances(c, g)[1], g) for c in rows)
        print(f"  the median card: paired {typical_p:,.0f}, unpaired {typical_u:,.0f}")
    check = {(c["kind"], c["id"], c["metric"]): c for c in unpaired["compared"] if c["judged"] and c["ci95"]}
    real = [variances(check[k], g)[0] / variances(c, g)[0] for c in rows
            if (k := (c["kind"], c["id"], c["metric"])) in check]
    if real:
        print(f"check, real unpaired batches (new side on seed 2): variance of their difference / paired,"
              f" cards' win rate if played: median {statistics.median(real):.2f}")
    print(f"flagged: paired {paired['tests']['flagged']}, unpaired {unpaired['tests']['flagged']}"
          f" (of {paired['tests']['judged']} numbers judged)")


if __name__ == "__main__":
    main()
