"""Swiss pods of 3–6: a greedy builder in standings order, a swap repair, a swap search over the
whole field until no single swap seats fewer met pairs, and an exact search for small fields.

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
    pods = _settle(pods, met, past_pods)
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


def _settle(pods: list[list[EntrantId]], met: Counter[frozenset[EntrantId]],
            past: Collection[frozenset[EntrantId]]) -> list[list[EntrantId]]:
    """Swap single players between any two pods while a swap lowers (repeated pods, met pairs), so
    no single swap can improve the result: the repair above looks only at nearby pods and a few
    passes, which in a large field left 21 met pairs where one swap search found 1.

    A player is only moved out of a pod where they have met someone; the partner pod is searched
    nearest first (the closest in the standings that improves, best swap at that distance), so pods
    stay within their points groups where they can. Every swap lowers the cost, so this ends; the
    work is the players with a met pair times the field, small once the builder has done its part.
    """
    seated = {p for pod in pods for p in pod}
    adj: dict[EntrantId, dict[EntrantId, int]] = {p: {} for p in seated}
    for pair, count in met.items():
        if count and pair <= seated and len(pair) == 2:
            a, b = pair
            adj[a][b] = count
            adj[b][a] = count

    def against(p: EntrantId, pod: Sequence[EntrantId], without: EntrantId) -> int:
        seen = adj[p]
        return sum(seen.get(q, 0) for q in pod if q != without and q != p) if seen else 0

    def repeats(pod: Sequence[EntrantId], out: EntrantId, into: EntrantId, met_into: int) -> int:
        # A pod can only repeat a past one when its newcomer has met everyone in it.
        if met_into < len(pod) - 1:
            return 0
        return int(frozenset([*(q for q in pod if q != out), into]) in past)

    improved = True
    while improved:
        improved = False
        for i in range(len(pods)):
            for x in list(pods[i]):
                if x not in pods[i]:
                    continue
                cx = against(x, pods[i], x)
                if cx == 0:
                    continue
                rep_i = int(bool(past) and frozenset(pods[i]) in past)
                best: tuple[tuple[int, int], int, EntrantId] | None = None
                for dist in range(1, len(pods)):
                    for j in (i - dist, i + dist):
                        if not 0 <= j < len(pods):
                            continue
                        rep_j = int(bool(past) and frozenset(pods[j]) in past)
                        for y in pods[j]:
                            x_there = against(x, pods[j], y)
                            y_here = against(y, pods[i], x)
                            gain = cx + against(y, pods[j], y) - x_there - y_here
                            rep_after = ((repeats(pods[i], x, y, y_here) + repeats(pods[j], y, x, x_there))
                                         if past else 0)
                            delta = (rep_after - rep_i - rep_j, -gain)
                            if delta < (0, 0) and (best is None or delta < best[0]):
                                best = (delta, j, y)
                    if best is not None:
                        break
                if best is not None:
                    _, j, y = best
                    pods[i][pods[i].index(x)] = y
                    pods[j][pods[j].index(y)] = x
                    improved = True
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
