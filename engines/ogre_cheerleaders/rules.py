"""Pure rule helpers: formations on a field and the overlap choice (rules: Scoring phase)."""

from __future__ import annotations

from collections.abc import Sequence

from data.editions import ogre_cheerleaders as edition
from i18n import msg, said

Formation = tuple[str, int, int]
#: A scorable span: [start, stop, kinds]; two formations on exactly the same cards are one span.
Span = list


def formations(field: Sequence[str]) -> list[Formation]:
    """Every longest formation on ``field`` (left to right) as ``(kind, start, stop)``, stop exclusive.

    Same team: >= 3 adjacent cards of one team. Sequence: >= 3 adjacent cards going up by 1 each step,
    or down by 1 each step (each direction taken at its longest, so 5-6-7-6-5 holds 5-6-7 and 7-6-5).
    Same number: >= 2 adjacent equal numbers. Overlapping formations are all listed; sorted.
    """
    n = len(field)
    teams = [c[0] for c in field]
    nums = [int(c[1:]) for c in field]
    out: list[Formation] = []
    i = 0
    while i < n:
        j = i + 1
        while j < n and teams[j] == teams[i]:
            j += 1
        if j - i >= edition.MIN_TEAM:
            out.append(("team", i, j))
        i = j
    i = 0
    while i < n:
        j = i + 1
        while j < n and nums[j] == nums[i]:
            j += 1
        if j - i >= edition.MIN_NUMBER:
            out.append(("number", i, j))
        i = j
    for step in (1, -1):
        i = 0
        while i < n - 1:
            if nums[i + 1] - nums[i] != step:
                i += 1
                continue
            j = i + 1
            while j + 1 < n and nums[j + 1] - nums[j] == step:
                j += 1
            if j + 1 - i >= edition.MIN_SEQUENCE:
                out.append(("sequence", i, j + 1))
            i = j
    out.sort()
    return out


_KIND_ORDER = {"team": 0, "sequence": 1, "number": 2}


def scorable_spans(field: Sequence[str], records: Sequence[Sequence[str]]) -> list[Span]:
    """Formations that may score: those equal (cards and order) to a standing dealt record are left out.

    Formations on exactly the same cards (e.g. O3 O4 O5: a team and a sequence) score the same, so they
    are merged into one span ``[start, stop, kinds]``. Sorted by (start, stop).
    """
    found = formations(field)
    if not found:
        return []
    recs = {tuple(r) for r in records}
    spans: dict[tuple[int, int], list[str]] = {}
    for kind, a, b in found:
        if recs and tuple(field[a:b]) in recs:
            continue
        spans.setdefault((a, b), []).append(kind)
    return [[a, b, sorted(kinds, key=_KIND_ORDER.__getitem__)] for (a, b), kinds in sorted(spans.items())]


def _overlap(x: Span, y: Span) -> bool:
    return x[0] < y[1] and y[0] < x[1]


def score_choices(spans: Sequence[Span]) -> list[list[int]]:
    """Every valid choice under the overlap ruling, as sorted index lists into ``spans``.

    A choice is a set of pairwise disjoint spans such that every span left out shares a card with a
    chosen one (a maximal independent set of the overlap graph). Deterministic order.
    """
    k = len(spans)
    if k == 0:
        return []
    nbrs = [[j for j in range(k) if j != i and _overlap(spans[i], spans[j])] for i in range(k)]
    if not any(nbrs):
        return [list(range(k))]
    out: list[list[int]] = []
    chosen: list[int] = []
    blocked = [0] * k  # number of chosen neighbours

    def walk(i: int) -> None:
        if i == k:
            if all(blocked[j] or j in chosen for j in range(k)):
                out.append(list(chosen))
            return
        if not blocked[i]:
            chosen.append(i)
            for j in nbrs[i]:
                blocked[j] += 1
            walk(i + 1)
            for j in nbrs[i]:
                blocked[j] -= 1
            chosen.pop()
        # Leaving i out needs a chosen neighbour: one chosen already, or one still to come.
        if blocked[i] or any(j > i for j in nbrs[i]):
            walk(i + 1)

    walk(0)
    return out


def span_cards(field: Sequence[str], span: Span) -> list[str]:
    return list(field[span[0]:span[1]])


def span_label(field: Sequence[str], span: Span) -> str:
    """``Same team O3 O4 O5``; a span that is two kinds at once is named by the first (team, sequence, number)."""
    return said("{kind} {cards}", kind=msg(edition.KIND_NAMES[span[2][0]]), cards=" ".join(field[span[0]:span[1]]))


def points(cards: Sequence[str]) -> int:
    return sum(int(c[1:]) for c in cards)
