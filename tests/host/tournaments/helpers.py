"""Shared helpers: play random results for a round, and brute-force checks of avoidability."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Collection, Iterator, Sequence

from host.tournaments import Entrant, PlayedRound, Round, TableResult


def entrants(n: int) -> list[Entrant]:
    return [Entrant(id=i, name=f"P{i}", lot=i) for i in range(1, n + 1)]


def random_results(rnd: Round, rng: random.Random, ties: bool = True) -> PlayedRound:
    """A finished round with random places (sometimes shared) for every table."""
    results = []
    for table in rnd.tables:
        s = len(table.sides)
        places = [rng.randint(1, s) for _ in range(s)] if ties else rng.sample(range(1, s + 1), s)
        results.append(TableResult(sides=table.sides, places=tuple(places)))
    return PlayedRound(results=tuple(results), byes=rnd.bye_ids)


def matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even-sized list."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[frozenset[int]]]:
    """Every split of ``players`` into groups of the given sizes (as a multiset)."""
    if not players:
        yield []
        return
    head, rest = players[0], list(players[1:])
    for size in set(sizes):
        remaining = list(sizes)
        remaining.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in partitions(left, remaining):
                yield [frozenset((head, *others)), *tail]


def repeat_free_pairing_exists(players: Sequence[int], met: Collection[frozenset[int]]) -> bool:
    return any(all(frozenset(p) not in met for p in m) for m in matchings(list(players)))


def repeat_free_pods_exist(players: Sequence[int], sizes: Sequence[int], past: Collection[frozenset[int]]) -> bool:
    return any(all(pod not in past for pod in split) for split in partitions(list(players), sizes))


def met_pairs(history: Sequence[PlayedRound]) -> set[frozenset[int]]:
    out: set[frozenset[int]] = set()
    for rnd in history:
        for result in rnd.results:
            players = [p for side in result.sides for p in side]
            out.update(frozenset(pair) for pair in itertools.combinations(players, 2))
    return out


def past_pods(history: Sequence[PlayedRound]) -> set[frozenset[int]]:
    return {frozenset(p for side in r.sides for p in side) for rnd in history for r in rnd.results}


def pod_cost(pods: Sequence[Sequence[int]], met: Counter[frozenset[int]],
             past: Collection[frozenset[int]]) -> tuple[int, int]:
    """(pods repeating a past pod, met pairs seated together, each earlier meeting counted)."""
    return (sum(frozenset(p) in past for p in pods),
            sum(met.get(frozenset(pair), 0) for p in pods for pair in itertools.combinations(p, 2)))


def improving_swap(pods: Sequence[Sequence[int]], met: Counter[frozenset[int]],
                   past: Collection[frozenset[int]]) -> tuple[int, int, int, int] | None:
    """A single swap of two players between two pods that lowers ``pod_cost``, if any, as (pod,
    player index, other pod, other index): what a local swap search from ``pods`` would take first.
    Only the two pods a swap touches change, so only their cost is compared."""
    work = [list(p) for p in pods]
    for i, j in itertools.combinations(range(len(work)), 2):
        before = pod_cost((work[i], work[j]), met, past)
        if before == (0, 0):
            continue
        for x in range(len(work[i])):
            for y in range(len(work[j])):
                a = [*work[i][:x], work[j][y], *work[i][x + 1:]]
                b = [*work[j][:y], work[i][x], *work[j][y + 1:]]
                if pod_cost((a, b), met, past) < before:
                    return i, x, j, y
    return None


def met_counts(history: Sequence[PlayedRound]) -> Counter[frozenset[int]]:
    out: Counter[frozenset[int]] = Counter()
    for rnd in history:
        for result in rnd.results:
            players = [p for side in result.sides for p in side]
            out.update(frozenset(pair) for pair in itertools.combinations(players, 2))
    return out
