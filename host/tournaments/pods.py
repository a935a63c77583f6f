"""Swiss pods of 3–6: a greedy builder in standings order, a swap repair, and an exact search
for small fields.

The cost of a set of pods, compared as a tuple (first element first):
1. pods that repeat a past pod exactly (avoided whenever possible);
2. pairs at the same pod who have already shared a table (each earlier meeting counts);
3. the spread of standings ranks inside pods, so pods stay within their points group.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Sequence

from host.tournaments.models import EntrantId

Pod = tuple[EntrantId, ...]

#: How far down the standings the greedy builder looks for a player to add to a pod.
LOOKAHEAD = 12
#: Up to this many players, a pod set with a repeated pod is replaced by an exhaustive search.
EXACT_UP_TO = 12


def build_pods(ranked: Sequence[EntrantId], sizes: Sequence[int], met: Counter[frozenset[EntrantId]],
               past_pods: Collection[frozenset[EntrantId]]) -> list[Pod]:
    """Pods of ``sizes`` (in that order, from the top of the standings) for ``ranked`` (best first);
    ``met[{a, b}]`` counts the tables a and b have shared; ``past_pods`` holds every past table's
    players."""
    if sum(sizes) != len(ranked):
        raise ValueError("the table sizes must seat exactly the ranked players")
    rank = {p: i for i, p in enumerate(ranked)}
    pods = _greedy(ranked, sizes, met, past_pods, rank)
    pods = _repair(pods, met, past_pods, rank)
    if len(ranked) <= EXACT_UP_TO and any(frozenset(p) in past_pods for p in pods):
        pods = _exact(ranked, sizes, met, past_pods, rank)
    return [tuple(sorted(p, key=rank.__getitem__)) for p in pods]


def _pair_penalty(pod: Sequence[EntrantId], met: Counter[frozenset[EntrantId]]) -> int:
    return sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(pod, 2))


def _spread(pod: Sequence[EntrantId], rank: dict[EntrantId, int]) -> int:
    ranks = [rank[p] for p in pod]
    return max(ranks) - min(ranks)


def _cost(pods: Sequence[Sequence[EntrantId]], met: Counter[frozenset[EntrantId]],
          past: Collection[frozenset[EntrantId]], rank: dict[EntrantId, int]) -> tuple[int, int, int]:
    return (sum(frozenset(p) in past for p in pods), sum(_pair_penalty(p, met) for p in pods),
            sum(_spread(p, rank) for p in pods))


def _greedy(ranked: Sequence[EntrantId], sizes: Sequence[int], met: Counter[frozenset[EntrantId]],
            past: Collection[frozenset[EntrantId]], rank: dict[EntrantId, int]) -> list[list[EntrantId]]:
    left = list(ranked)
    pods: list[list[EntrantId]] = []
    for size in sizes:
        pod = [left.pop(0)]
        while len(pod) < size:
            window = left[:LOOKAHEAD]
            last = len(pod) == size - 1

            def score(p: EntrantId, pod: list[EntrantId] = pod, last: bool = last) -> tuple[int, int, int]:
                repeats = last and frozenset([*pod, p]) in past
                return (int(repeats), sum(met.get(frozenset((p, q)), 0) for q in pod), rank[p])

            best = min(window, key=score)
            left.remove(best)
            pod.append(best)
        pods.append(pod)
    return pods


def _repair(pods: list[list[EntrantId]], met: Counter[frozenset[EntrantId]],
            past: Collection[frozenset[EntrantId]], rank: dict[EntrantId, int]) -> list[list[EntrantId]]:
    """Swap single players between a pod with a repeat or a met pair and a nearby pod, while a
    swap lowers the cost of the two pods. Nearby (±3 pods) keeps pods within their points groups
    and the work linear in the field."""
    def local(a: list[EntrantId], b: list[EntrantId]) -> tuple[int, int, int]:
        return _cost((a, b), met, past, rank)

    for _ in range(4):  # passes; each only improves, so this always ends
        improved = False
        for i, pod in enumerate(pods):
            if frozenset(pod) not in past and _pair_penalty(pod, met) == 0:
                continue
            best: tuple[tuple[int, int, int], int, int, int] | None = None
            for j in range(max(0, i - 3), min(len(pods), i + 4)):
                if j == i:
                    continue
                other = pods[j]
                before = local(pod, other)
                for x, y in itertools.product(range(len(pod)), range(len(other))):
                    a = [*pod[:x], other[y], *pod[x + 1:]]
                    b = [*other[:y], pod[x], *other[y + 1:]]
                    after = local(a, b)
                    if after < before and (best is None or after < best[0]):
                        best = (after, j, x, y)
            if best is not None:
                _, j, x, y = best
                pod[x], pods[j][y] = pods[j][y], pod[x]
                improved = True
        if not improved:
            break
    return pods


def _exact(ranked: Sequence[EntrantId], sizes: Sequence[int], met: Counter[frozenset[EntrantId]],
           past: Collection[frozenset[EntrantId]], rank: dict[EntrantId, int]) -> list[list[EntrantId]]:
    """The cheapest way to split a small field into pods of ``sizes`` (the best player's pod is
    chosen first, so each partition is visited once per order of equal sizes)."""
    best: tuple[tuple[int, int, int], list[list[EntrantId]]] | None = None

    def walk(left: list[EntrantId], todo: list[int], done: list[list[EntrantId]]) -> None:
        nonlocal best
        if not todo:
            cost = _cost(done, met, past, rank)
            if best is None or cost < best[0]:
                best = (cost, [list(p) for p in done])
            return
        head, rest = left[0], left[1:]
        for size in dict.fromkeys(todo):  # each distinct size once
            remaining = list(todo)
            remaining.remove(size)
            for others in itertools.combinations(rest, size - 1):
                pod = [head, *others]
                taken = set(others)
                walk([p for p in rest if p not in taken], remaining, [*done, pod])

    walk(list(ranked), list(sizes), [])
    assert best is not None
    # Keep the table order of the sizes: largest pods first, best players first.
    pods = sorted(best[1], key=lambda p: (-len(p), min(rank[q] for q in p)))
    return pods
