"""Swiss pairing at 2-player tables by maximum-weight matching.

Weights are integers (networkx's blossom algorithm is exact on integers) in three tiers, each
dominating everything below it in any perfect matching:

1. a pair that has not met weighs more than any number of repeat pairs can make up, so the
   matching has the fewest repeats possible (none whenever some pairing avoids them);
2. then the floats are as few and as short as can be, from the top of the standings down: a pair
   costs its distance in points, squared, weighted by the points group of its better player so
   that any float out of a group outweighs every float below it. The distance is in points, not
   in groups: falling from 2 to 1 is twice as far as from 1 to ½. Standard Swiss pairs its top
   group first, so two leaders who can meet do meet (a group with an odd count floats one player
   to the nearest group);
3. then the sum of rank distances is smallest: neighbours in the standings meet.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from math import lcm

import networkx as nx

from host.tournaments.models import EntrantId

Pair = tuple[EntrantId, EntrantId]

#: Above this many players, first try graphs that link only players near each other in the
#: standings (networkx's blossom is cubic, and a 256-player complete graph takes seconds): within
#: 12 places, then 48. The complete graph is the last resort whenever a sparse try does not give
#: a perfect matching free of repeats, so the no-repeat guarantee is the same. Closeness in points
#: is then optimal among pairings of players within the window, which is where it lies unless
#: repeats crowd a player's neighbourhood.
SPARSE_ABOVE = 48
WINDOWS = (12, 48)
#: Larger fields are first cut into blocks of consecutive standings, 32 to 64 players, cut at a
#: points-group boundary where one falls in that range, each matched on its own (a block with an
#: odd count passes its lowest-ranked player down: the Swiss floater). Blocks keep a 1,000-player
#: round under a second; if any block cannot avoid a repeat, the whole field is matched instead.
BLOCK = 32


def pair_players(ranked: Sequence[EntrantId], points: Mapping[EntrantId, Fraction],
                 met: Collection[frozenset[EntrantId]]) -> list[Pair]:
    """Pairs for an even number of players, ``ranked`` best first (so by points, highest first);
    ``points[p]`` is p's Swiss points; ``met`` holds the pairs that have already played each other."""
    n = len(ranked)
    if n % 2:
        raise ValueError("pair_players needs an even number of players (byes are chosen first)")
    if n == 0:
        return []
    if n > SPARSE_ABOVE:
        blocked = _by_blocks(ranked, points, met)
        if blocked is not None:
            return blocked
        for window in WINDOWS:
            if window >= n - 1:
                break
            pairs = _match(ranked, points, met, window)
            if _free(pairs, n, met):
                return pairs
    return _match(ranked, points, met, n)


def _free(pairs: list[Pair], n: int, met: Collection[frozenset[EntrantId]]) -> bool:
    return len(pairs) * 2 == n and not any(frozenset(p) in met for p in pairs)


def _blocks(ranked: Sequence[EntrantId], points: Mapping[EntrantId, Fraction]) -> list[list[EntrantId]]:
    blocks: list[list[EntrantId]] = []
    current: list[EntrantId] = []
    for i, player in enumerate(ranked):
        current.append(player)
        boundary = i + 1 == len(ranked) or points[ranked[i + 1]] != points[player]
        if len(current) >= 2 * BLOCK or (len(current) >= BLOCK and boundary):
            carry = [current.pop()] if len(current) % 2 else []
            blocks.append(current)
            current = carry
    if current:
        if blocks and len(current) < BLOCK:
            blocks[-1].extend(current)  # a short tail joins the block above it
        else:
            blocks.append(current)
    return blocks


def _by_blocks(ranked: Sequence[EntrantId], points: Mapping[EntrantId, Fraction],
               met: Collection[frozenset[EntrantId]]) -> list[Pair] | None:
    pairs: list[Pair] = []
    for block in _blocks(ranked, points):
        found = _match(block, points, met, WINDOWS[0])
        if not _free(found, len(block), met):
            found = _match(block, points, met, len(block))
            if not _free(found, len(block), met):
                return None
        pairs += found
    return pairs


def _match(ranked: Sequence[EntrantId], points: Mapping[EntrantId, Fraction],
           met: Collection[frozenset[EntrantId]], window: int) -> list[Pair]:
    n = len(ranked)
    pairs_count = n // 2
    # Points in whole units of the smallest fraction in play (½ at 2-player tables), so every
    # weight is an integer.
    unit = lcm(*(points[p].denominator for p in ranked))
    units = [int(points[p] * unit) for p in ranked]
    levels = sorted(set(units))  # lowest first
    spread = levels[-1] - levels[0]
    # The weight of a pair's float by the group of its better player: one unit of squared
    # distance out of a group outweighs the largest total of every group below it.
    step = pairs_count * spread * spread + 1
    height: dict[int, int] = {}
    weight = 1
    for level in levels:
        height[level] = weight
        weight *= step
    rank_cost_max = n * n  # sum of rank distances over n/2 pairs is below n * n / 2
    float_unit = rank_cost_max + 1
    cost_max = weight * float_unit + n  # bounds the sum of any matching's float and rank costs
    repeat_base = cost_max + 1
    fresh_base = pairs_count * (cost_max + repeat_base) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for i in range(n):
        for j in range(i + 1, min(n, i + window + 1)):
            hi, lo = max(units[i], units[j]), min(units[i], units[j])
            gap = hi - lo
            cost = gap * gap * height[hi] * float_unit + (j - i)
            if frozenset((ranked[i], ranked[j])) in met:
                graph.add_edge(i, j, weight=repeat_base - cost + cost_max)
            else:
                graph.add_edge(i, j, weight=fresh_base + cost_max - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    # Higher-ranked player first, top pair first: a stable order for table numbers.
    return [(ranked[i], ranked[j]) for i, j in sorted((min(a, b), max(a, b)) for a, b in matching)]
