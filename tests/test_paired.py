"""Paired and clustered estimates: the intervals a designer reads are the textbook ones, and honest."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from rulekit.playtest.paired import Clustered, Paired, t_quantile, t_two_sided_p


def test_t_distribution_matches_the_tables():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-3)
    assert t_quantile(0.975, 100000) == pytest.approx(1.96, abs=1e-3)
    assert t_two_sided_p(2.2281, 10) == pytest.approx(0.05, abs=1e-4)
    assert t_two_sided_p(0.0, 5) == pytest.approx(1.0)


def test_a_plain_mean_difference_is_the_paired_t_interval():
    rng = random.Random(3)
    base = [rng.gauss(10, 4) for _ in range(200)]
    new = [b + rng.gauss(0.5, 1) for b in base]
    p = Paired()
    for b, n in zip(base, new, strict=False):
        p.add(b, 1, n, 1)
    e = p.estimate()
    diffs = [n - b for b, n in zip(base, new, strict=False)]
    mean, se = statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))
    t = t_quantile(0.975, len(diffs) - 1)
    assert e.difference == pytest.approx(mean)
    assert e.ci95 == pytest.approx((mean - t * se, mean + t * se))
    assert e.base == pytest.approx(statistics.fmean(base)) and e.new == pytest.approx(statistics.fmean(new))


def test_identical_sides_differ_by_exactly_nothing():
    p = Paired()
    for k in range(50):
        p.add(k % 3, 4, k % 3, 4)
    e = p.estimate()
    assert e.difference == 0 and e.ci95 == (0, 0) and e.p == 1.0


def test_a_side_with_no_weight_has_no_difference():
    p = Paired()
    for _ in range(40):
        p.add(0, 0, 1, 2)
    e = p.estimate()
    assert e.base is None and e.new == 0.5 and e.difference is None and e.p is None


def test_ratio_intervals_cover_the_truth_about_95_percent_of_the_time():
    """A card's win rate among the players who played it: a ratio with a varying denominator per game."""
    rng = random.Random(11)
    covered = 0
    runs = 300
    for _ in range(runs):
        p = Paired()
        for _ in range(150):
            k0, k1 = rng.randint(0, 4), rng.randint(0, 4)
            w0 = sum(rng.random() < 0.4 for _ in range(k0))
            w1 = sum(rng.random() < 0.5 for _ in range(k1))
            p.add(w0, k0, w1, k1)
        lo, hi = p.estimate().ci95
        covered += lo <= 0.1 <= hi
    assert 0.91 <= covered / runs <= 0.99


def test_pairing_narrows_the_interval_when_the_games_share_their_luck():
    rng = random.Random(5)
    paired, unpaired = Paired(), Paired()
    luck = [rng.gauss(0, 5) for _ in range(400)]
    for k, shared in enumerate(luck):
        paired.add(shared + rng.gauss(0, 1), 1, shared + 0.3 + rng.gauss(0, 1), 1)
        other = luck[(k * 7 + 3) % len(luck)]
        unpaired.add(shared + rng.gauss(0, 1), 1, other + 0.3 + rng.gauss(0, 1), 1)
    def width(e):
        return e.ci95[1] - e.ci95[0]
    assert width(paired.estimate()) * 3 < width(unpaired.estimate())


def test_clustered_mean_counts_the_game_not_the_decision():
    """Ten measures in one game that all share the game's luck are one game's worth of evidence."""
    rng = random.Random(2)
    c = Clustered()
    for _ in range(60):
        luck = rng.gauss(0, 3)
        c.add(sum(luck + rng.gauss(0, 0.1) for _ in range(10)), 10)
    m = c.mean()
    half = (m.ci95[1] - m.ci95[0]) / 2
    assert half > 0.5        # ~ 1.96 * 3 / sqrt(60) = 0.76, not 1.96 * 3 / sqrt(600) = 0.24
    assert m.games == 60 and m.weight == 600


def test_clustered_mean_of_a_constant_is_exact():
    c = Clustered()
    for k in range(1, 30):
        c.add(5.0 * (k % 3), k % 3)
    m = c.mean()
    assert m.value == 5.0 and m.ci95 == (5.0, 5.0) and m.p == 0.0
