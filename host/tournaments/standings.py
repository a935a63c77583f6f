"""Standings with tie-breakers: points, then OPP, then opponents' OPP, then the lot.

The tie-breakers follow Magic's tournament rules: a bye counts in the points but not in the
tie-breakers, and an opponent's points percentage is floored at 1/3 so that beating a player who
went on to lose everything is not worth nothing.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction

from host.tournaments.models import Entrant, EntrantId, PlayedRound, Standing
from host.tournaments.points import BYE_POINTS, table_points

#: An opponent's points percentage counts as at least this much in OPP.
OPP_FLOOR = Fraction(1, 3)


def standings(entrants: Iterable[Entrant], rounds: Sequence[PlayedRound],
              dropped: Collection[EntrantId] = ()) -> list[Standing]:
    """Every entrant's row, best first: sorted by points, OPP, OOPP, then lot (lower lot first).

    ``rounds`` are the finished Swiss rounds (not the top cut). A player's points percentage is
    their table points over their tables played, byes left out of both. OPP averages
    max(percentage, 1/3) over every opponent at every table, once per meeting; partners are not
    opponents and a bye adds no opponent. OOPP averages the opponents' OPP over the same
    meetings. A player with no meetings has OPP and OOPP 0.
    """
    people = {e.id: e for e in entrants}
    table_pts: dict[EntrantId, list[Fraction]] = defaultdict(list)
    games: dict[EntrantId, int] = defaultdict(int)
    byes: dict[EntrantId, int] = defaultdict(int)
    met: dict[EntrantId, list[EntrantId]] = defaultdict(list)
    for rnd in rounds:
        for bye in rnd.byes:
            byes[bye] += 1
        for result in rnd.results:
            for player, pts in table_points(result).items():
                table_pts[player].append(pts)
                games[player] += 1
            for side in result.sides:
                others = [p for s in result.sides if s is not side for p in s]
                for player in side:
                    met[player].extend(others)

    earned = {p: _sum(table_pts.get(p, ())) for p in people}
    points = {p: earned[p] + BYE_POINTS * byes[p] for p in people}

    def figure(player: EntrantId) -> Fraction:
        played = games[player]
        pct = earned.get(player, Fraction(0)) / played if played else Fraction(0)
        return max(pct, OPP_FLOOR)

    floored = {p: figure(p).as_integer_ratio() for p in met}
    opp = {p: _mean([floored[o] for o in opps]) for p, opps in met.items()}
    opp_ratio = {p: v.as_integer_ratio() for p, v in opp.items()}
    oopp = {p: _mean([opp_ratio[o] for o in opps]) for p, opps in met.items()}
    zero = Fraction(0)
    # Exact integer sort keys: each value over one common denominator per column, so sorting
    # compares small ints instead of Fractions (ties in points are the rule, not the exception).
    pts_key = _scaled(points)
    opp_key = _scaled(opp)
    oopp_key = _scaled(oopp)

    def key(e: Entrant) -> tuple[int, int, int, int]:
        # Sorted in reverse (best first), so the lot goes in negated: the lower lot ranks higher.
        return (pts_key[e.id], opp_key.get(e.id, 0), oopp_key.get(e.id, 0), -e.lot)

    rows = sorted(people.values(), key=key, reverse=True)
    return [Standing(place=i + 1, entrant=e.id, points=points[e.id], opp=opp.get(e.id, zero),
                     oopp=oopp.get(e.id, zero), lot=e.lot, games=games[e.id], byes=byes[e.id],
                     dropped=e.id in dropped, opponents=tuple(met.get(e.id, ())))
            for i, e in enumerate(rows)]


def _scaled(values: dict[EntrantId, Fraction]) -> dict[EntrantId, int]:
    """Each value times the common denominator of all of them: integers in the same order."""
    if not values:
        return {}
    den = math.lcm(*{v.denominator for v in values.values()})
    return {p: v.numerator * (den // v.denominator) for p, v in values.items()}


def _sum(values: Iterable[Fraction]) -> Fraction:
    """An exact sum of a few Fractions."""
    return _ratio_sum([v.as_integer_ratio() for v in values])


def _ratio_sum(ratios: Sequence[tuple[int, int]], count: int = 1) -> Fraction:
    """An exact sum of (numerator, denominator) pairs over one common denominator: a few integer
    operations instead of a Fraction (with its gcd) per addition, which keeps the standings of
    1,000 entrants well inside their time budget. The sum is divided by ``count`` (a mean)."""
    if not ratios:
        return Fraction(0)
    den = math.lcm(*{d for _, d in ratios})
    return Fraction(sum(n * (den // d) for n, d in ratios), den * count)


def _mean(ratios: Sequence[tuple[int, int]]) -> Fraction:
    return _ratio_sum(ratios, len(ratios)) if ratios else Fraction(0)
