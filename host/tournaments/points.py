"""Points of a table: scored by sides, 1 for first and 0 for last whatever the table's size."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from host.tournaments.models import EntrantId, TableResult

BYE_POINTS = Fraction(1)


def side_points(places: Sequence[int]) -> list[Fraction]:
    return list(_side_points(tuple(places)))


@lru_cache(maxsize=4096)
def _side_points(places: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Points per side, in the order of ``places`` (cached: a few shapes of table recur).

    At a table of s sides the side in place p scores (s − p)/(s − 1), so tables of n and n−1
    weigh the same. Sides that tie occupy consecutive places and share those places' points
    equally: two sides tied first of four occupy places 1 and 2 and score (1 + 2/3)/2 = 5/6 each.
    Exact fractions, so the points of a table always sum to exactly s/2.
    """
    s = len(places)
    if s < 2:
        raise ValueError("a table needs at least two sides")
    order = sorted(range(s), key=lambda i: places[i])
    points = [Fraction(0)] * s
    taken = 0  # places 1..taken are occupied by the groups already scored
    i = 0
    while i < s:
        j = i
        while j < s and places[order[j]] == places[order[i]]:
            j += 1
        group = order[i:j]
        occupied = range(taken + 1, taken + len(group) + 1)
        share = sum((Fraction(s - p, s - 1) for p in occupied), Fraction(0)) / len(group)
        for k in group:
            points[k] = share
        taken += len(group)
        i = j
    return tuple(points)


def table_points(result: TableResult) -> dict[EntrantId, Fraction]:
    """Points per player: every player of a side gets the side's points."""
    out: dict[EntrantId, Fraction] = {}
    for side, pts in zip(result.sides, side_points(result.places), strict=True):
        for player in side:
            out[player] = pts
    return out
