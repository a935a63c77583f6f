"""Shared pieces of the search hooks: redealing hidden cards, and turning standings into values.

``determinize`` hooks must give the same state for two real states that a seat cannot tell
apart, given the same ``random.Random``: a search is then blind to the hidden cards by
construction. So a pool of hidden cards is always sorted before it is shuffled, and places
are always filled in a public order (seat order, then the deck).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

from engines.rng import seed_state

C = TypeVar("C", str, int)


def reseed(rng: random.Random) -> int:
    """A fresh engine RNG state drawn from ``rng``: the search cannot foresee the real shuffles."""
    return seed_state(rng.getrandbits(64))


def redeal(pool: list[C], sizes: Sequence[int], rng: random.Random) -> list[list[C]]:
    """Shuffle the hidden ``pool`` (its order is ignored) and cut it into piles of ``sizes``."""
    cards = sorted(pool)
    rng.shuffle(cards)
    out, i = [], 0
    for n in sizes:
        out.append(cards[i:i + n])
        i += n
    if i != len(cards):
        raise ValueError(f"{len(cards)} hidden cards do not fill places for {i}")
    return out


def pairwise(scores: Sequence[float], scale: float) -> list[float]:
    """Per seat, the mean over the other seats of a logistic in the score margin: in [0, 1].

    Margins count, not only the order, so a search prefers winning by more and losing by less.
    """
    n = len(scores)
    if n < 2:
        return [0.5] * n
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                x = max(-30.0, min(30.0, (scores[p] - scores[q]) / scale))
                total += 1.0 / (1.0 + math.exp(-x))
        out.append(total / (n - 1))
    return out


def by_places(places: Sequence[int]) -> list[float]:
    """Per seat: the share of other seats it finished ahead of, a tie counting half."""
    n = len(places)
    if n < 2:
        return [0.5] * n
    return [sum(1.0 if places[p] < places[q] else 0.5 if places[p] == places[q] else 0.0
                for q in range(n) if q != p) / (n - 1) for p in range(n)]


def blend(final: Sequence[float], margin: Sequence[float], weight: float = 0.8) -> list[float]:
    """Mostly the finishing places, a little of the margin: a win counts first, then by how much."""
    return [weight * f + (1 - weight) * m for f, m in zip(final, margin, strict=True)]
