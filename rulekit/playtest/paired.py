"""Paired and clustered estimates: ratios of sums over games, with a 95% interval and a p-value each.

Every statistic a designer acts on is a ratio of two sums over games: a win rate is wins over
player-games, a card's win rate is the wins of the players who played it over those players, a
mean score is points over player-games. `Paired` compares such a ratio between two sides played
on the same seeds and seats (common random numbers): game i of one side is matched with game i of
the other, so what the two games share (the deal, the tiles, the events) cancels out of the
difference. `Clustered` is the one-sided version, for values measured several times within a game
(the causal value of a card at each decision where it could be played).

The interval comes from the delta method with the game as the unit (each game's contribution to
the ratio, linearised), so several player-games of one game are not counted as independent; the
p-value is Student's t on the same standard error. Everything is kept as running sums, so memory
does not grow with the number of games.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """One compared number: each side's value, their difference, its 95% interval and two-sided p."""

    base: float | None
    new: float | None
    difference: float | None
    ci95: tuple[float, float] | None
    p: float | None
    games: int              # games (pairs) that carried any weight (b > 0 on either side)


@dataclass(frozen=True)
class Mean:
    """One measured number: its value, a 95% interval, the two-sided p of "it is 0", and its weight."""

    value: float | None
    ci95: tuple[float, float] | None
    p: float | None
    games: int              # games that carried any weight
    weight: float           # the sum of b (decisions measured, player-games …)


class Paired:
    """R = Σa / Σb on each side, over games paired by index; the difference R_new − R_base."""

    __slots__ = ("n", "s", "used")

    def __init__(self) -> None:
        self.n = 0              # pairs added
        self.used = 0           # pairs with b > 0 on a side
        # Σ of a1 b1 a0 b0, then of their products, in the order of _PRODUCTS.
        self.s = [0.0] * (4 + len(_PRODUCTS))

    def add(self, a_base: float, b_base: float, a_new: float, b_new: float) -> None:
        """One pair of games: the numerator and denominator each side contributes."""
        v = (a_new, b_new, a_base, b_base)
        s = self.s
        self.n += 1
        if b_base or b_new:
            self.used += 1
        for k in range(4):
            s[k] += v[k]
        for k, (i, j) in enumerate(_PRODUCTS, 4):
            s[k] += v[i] * v[j]

    def estimate(self) -> Estimate:
        n, s = self.n, self.s
        a1, b1, a0, b0 = s[0], s[1], s[2], s[3]
        r1 = a1 / b1 if b1 else None
        r0 = a0 / b0 if b0 else None
        if r1 is None or r0 is None or n < 2:
            return Estimate(r0, r1, None, None, None, self.used)
        p = dict(zip(_PRODUCTS, s[4:], strict=False))
        m1, m0 = b1 / n, b0 / n                      # mean denominators
        xx = p[0, 0] - 2 * r1 * p[0, 1] + r1 * r1 * p[1, 1]
        yy = p[2, 2] - 2 * r0 * p[2, 3] + r0 * r0 * p[3, 3]
        xy = p[0, 2] - r0 * p[0, 3] - r1 * p[1, 2] + r1 * r0 * p[1, 3]
        uu = max(0.0, xx / (m1 * m1) + yy / (m0 * m0) - 2 * xy / (m1 * m0))
        d = r1 - r0
        return Estimate(r0, r1, d, *_interval(d, uu, n), self.used)

    def side(self, which: str) -> Mean:
        """One side's ratio alone ("base" or "new") with its own 95% interval: what a before/after plot shows."""
        a, b = (0, 1) if which == "new" else (2, 3)
        p = dict(zip(_PRODUCTS, self.s[4:], strict=False))
        one = Clustered()
        one.n, one.used = self.n, self.used
        one.a, one.b, one.aa, one.ab, one.bb = self.s[a], self.s[b], p[a, a], p[a, b], p[b, b]
        return one.mean()


class Clustered:
    """R = Σa / Σb over games, one side: the mean of measures taken b times in a game, summing to a."""

    __slots__ = ("a", "aa", "ab", "b", "bb", "n", "used")

    def __init__(self) -> None:
        self.n = self.used = 0
        self.a = self.b = self.aa = self.ab = self.bb = 0.0

    def add(self, a: float, b: float) -> None:
        self.n += 1
        self.used += b > 0
        self.a += a
        self.b += b
        self.aa += a * a
        self.ab += a * b
        self.bb += b * b

    def mean(self) -> Mean:
        n = self.n
        if not self.b:
            return Mean(None, None, None, self.used, self.b)
        r = self.a / self.b
        if n < 2:
            return Mean(r, None, None, self.used, self.b)
        m = self.b / n
        uu = max(0.0, (self.aa - 2 * r * self.ab + r * r * self.bb) / (m * m))
        return Mean(r, *_interval(r, uu, n), self.used, self.b)


# The products of (a1, b1, a0, b0) the variance of the paired difference needs.
_PRODUCTS = ((0, 0), (0, 1), (1, 1), (2, 2), (2, 3), (3, 3), (0, 2), (0, 3), (1, 2), (1, 3))


def _interval(d: float, uu: float, n: int) -> tuple[tuple[float, float], float]:
    """The t interval and two-sided p of an estimate d whose linearised terms have sum of squares uu."""
    se = math.sqrt(uu / (n - 1) / n)
    if se <= 1e-12 * max(1.0, abs(d)):
        return (d, d), (1.0 if d == 0 else 0.0)
    t = t_quantile(0.975, n - 1)
    return (d - t * se, d + t * se), t_two_sided_p(d / se, n - 1)


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    x = df / (df + t * t)
    return min(1.0, _betainc(df / 2, 0.5, x))


@functools.lru_cache(maxsize=64)     # a comparison asks it hundreds of times, always for the same df
def t_quantile(q: float, df: int) -> float:
    """The q quantile (q > 0.5) of Student's t, by bisection on the exact tail (df >= 1)."""
    target = 2 * (1 - q)
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > target:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (a continued fraction, Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(ln) * h / a
