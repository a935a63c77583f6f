"""Double elimination at 2-player tables, for a whole event or for a Swiss top cut.

A winners' bracket seeded as in single elimination (the top seeds take the byes), a losers' bracket
fed by the winners' bracket's losers, and a grand final between the two brackets' winners, with a
reset match when the losers' bracket winner takes the first: only then has the winners' bracket
winner lost once, so every entrant but the champion leaves after exactly two losses.

The losers' bracket, for a bracket of P = 2^k places, has 2(k − 1) rounds. Its odd rounds pair its
own players (round 1: the losers of winners' round 1, neighbours together); its even rounds 2j
take in the losers of winners' round j + 1, in the standard crossing order so that a dropped
player meets someone from another part of the bracket and rematches are put off: the drops cycle
through reversed, reversed within each half, halves swapped, and in order. (Measured over random
results at 64 and 128 places, this cycle repeats fewest meetings of the orders tried; with the
better seed always winning, the only rematches left are the losers' final and the grand final.)

Empty places (seeds beyond the field) flow through both brackets: a match with one empty side is
won by the other at once (no table, no loss), so any field size works.

Like ``elimination``, the bracket is a pure function of the seeds and the results so far. Two
players can meet twice (in the losers' bracket after the winners', or in the reset), so results are
read in the order they were played, each going to the open match of its pair; a player is in at
most one open match at a time, so that match is unique.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from host.tournaments.elimination import bracket_positions, bracket_size, table_winner
from host.tournaments.models import Bye, EntrantId, Round, TableResult
from host.tournaments.seating import seat_table

WINNERS, LOSERS, GRAND_FINAL = "winners", "losers", "grand_final"

#: Where a match's player comes from: ("seed", n) the n-th seed (1-based; beyond the field: an
#: empty place), ("won", key) the winner of a match, ("lost", key) its loser.
Source = tuple[str, object]
#: (bracket, round from 1, slot from 0). The grand final is round 1 and its reset round 2.
Key = tuple[str, int, int]


@dataclass
class DoubleMatch:
    """One match. ``high`` and ``low``: the better and the worse seed once known (``None`` for an
    empty place). ``decided``: the winner is known (at once when a side is empty); ``played``: a
    table was played (or walked over); ``needed`` is False only for a reset that was not needed."""

    key: Key
    sources: tuple[Source, Source]
    high: EntrantId | None = None
    low: EntrantId | None = None
    known: bool = False
    decided: bool = False
    played: bool = False
    needed: bool = True
    winner: EntrantId | None = None
    loser: EntrantId | None = None
    result: TableResult | None = field(default=None, repr=False)

    @property
    def bracket(self) -> str:
        return self.key[0]

    @property
    def round(self) -> int:
        return self.key[1]

    @property
    def is_open(self) -> bool:
        """Both players known and present, no result yet: a table to seat."""
        return self.known and not self.decided and self.high is not None and self.low is not None


def crossing(count: int, drop: int) -> list[int]:
    """For the ``drop``-th drop round (1 = winners' round 2's losers) of ``count`` matches: which
    winners' match's loser plays losers' match i: reversed, reversed within halves, halves
    swapped, in order, and again."""
    order = list(range(count))
    half = count // 2
    step = (drop - 1) % 4
    if count == 1 or step == 3:
        return order
    if step == 0:
        return order[::-1]
    if step == 1:
        return order[:half][::-1] + order[half:][::-1]
    return order[half:] + order[:half]


def structure(entrants: int) -> list[DoubleMatch]:
    """Every match of the double-elimination bracket for ``entrants`` (at least 2), in the order
    they can be played: winners' rounds and losers' rounds interleaved, then the grand final."""
    if entrants < 2:
        raise ValueError("double elimination needs at least two entrants")
    size = bracket_size(entrants)
    k = size.bit_length() - 1
    positions = bracket_positions(size)
    winners: list[list[DoubleMatch]] = []
    for r in range(1, k + 1):
        count = size >> r
        if r == 1:
            row = [DoubleMatch((WINNERS, 1, i), (("seed", positions[2 * i]), ("seed", positions[2 * i + 1])))
                   for i in range(count)]
        else:
            row = [DoubleMatch((WINNERS, r, i),
                               (("won", (WINNERS, r - 1, 2 * i)), ("won", (WINNERS, r - 1, 2 * i + 1))))
                   for i in range(count)]
        winners.append(row)
    losers: list[list[DoubleMatch]] = []
    if k >= 2:
        count = size // 4
        losers.append([DoubleMatch((LOSERS, 1, i), (("lost", (WINNERS, 1, 2 * i)), ("lost", (WINNERS, 1, 2 * i + 1))))
                       for i in range(count)])
        for j in range(1, k):
            count = size >> (j + 1)
            order = crossing(count, j)
            losers.append([DoubleMatch((LOSERS, 2 * j, i), (("won", (LOSERS, 2 * j - 1, i)),
                                                            ("lost", (WINNERS, j + 1, order[i]))))
                           for i in range(count)])
            if j < k - 1:
                losers.append([DoubleMatch((LOSERS, 2 * j + 1, i), (("won", (LOSERS, 2 * j, 2 * i)),
                                                                    ("won", (LOSERS, 2 * j, 2 * i + 1))))
                               for i in range(count // 2)])
        losers_champion: Source = ("won", (LOSERS, 2 * (k - 1), 0))
    else:
        losers_champion = ("lost", (WINNERS, 1, 0))
    final = DoubleMatch((GRAND_FINAL, 1, 0), (("won", (WINNERS, k, 0)), losers_champion))
    reset = DoubleMatch((GRAND_FINAL, 2, 0), (("won", (GRAND_FINAL, 1, 0)), ("lost", (GRAND_FINAL, 1, 0))))
    # Winners' round r is followed by the losers' rounds that need nothing later: 2r − 3 and 2r − 2.
    ordered: list[DoubleMatch] = []
    for r, row in enumerate(winners, start=1):
        ordered += row
        for lr in (2 * r - 3, 2 * r - 2):
            if 1 <= lr <= len(losers):
                ordered += losers[lr - 1]
    return [*ordered, final, reset]


def double_bracket(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> list[DoubleMatch]:
    """Every match, as far as ``results`` (in the order played) decide it."""
    matches = structure(len(seeds))
    by_key = {m.key: m for m in matches}
    rank = {p: i for i, p in enumerate(seeds)}

    def value(source: Source) -> tuple[bool, EntrantId | None]:
        kind, ref = source
        if kind == "seed":
            n = int(ref)  # type: ignore[call-overload]
            return True, seeds[n - 1] if n <= len(seeds) else None
        m = by_key[ref]  # type: ignore[index]
        if not m.decided:
            return False, None
        return True, m.winner if kind == "won" else m.loser

    def settle() -> None:
        for m in matches:  # in playing order, so one pass reaches a fixed point
            if m.decided:
                continue
            if not m.known:
                (ka, a), (kb, b) = value(m.sources[0]), value(m.sources[1])
                if not (ka and kb):
                    continue
                m.known = True
                m.high, m.low = (a, b) if b is None or (a is not None and rank[a] < rank[b]) else (b, a)
            if m.key == (GRAND_FINAL, 2, 0):
                final = by_key[(GRAND_FINAL, 1, 0)]
                champion_of_winners = value(final.sources[0])[1]
                if final.winner == champion_of_winners or final.loser is None:
                    # The winners' bracket winner won the grand final: no reset.
                    m.decided, m.needed, m.winner, m.loser = True, False, final.winner, None
                    continue
            if m.low is None:  # an empty place: the other side goes on without a table or a loss
                m.decided, m.winner, m.loser = True, m.high, None

    settle()
    for result in results:
        pair = frozenset(p for side in result.sides for p in side)
        match = next((m for m in matches if m.is_open and frozenset((m.high, m.low)) == pair), None)
        if match is None:
            continue  # not a match of this bracket (cannot happen for results it asked for)
        winner = table_winner(result, seeds)
        match.decided, match.played, match.result = True, True, result
        match.winner = winner
        match.loser = match.low if winner == match.high else match.high
        settle()
    return matches


def next_double_round(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> Round | None:
    """Every match that can be played now, in both brackets (a player is in at most one), once its
    bracket's previous round is over; ``None`` once the champion is known. The first round carries
    the top seeds' byes."""
    matches = double_bracket(seeds, results)
    if all(m.decided for m in matches):
        return None
    # A bracket's round waits for the whole of its previous round, as in single elimination: the top
    # seeds' byes are a round off, not an earlier meeting of two of them.
    waiting = {(m.bracket, m.round + 1) for m in matches if not m.decided and m.bracket != GRAND_FINAL}
    tables = tuple(seat_table([m.high, m.low]) for m in matches  # type: ignore[list-item]
                   if m.is_open and (m.bracket, m.round) not in waiting)
    first = not any(m.played for m in matches)
    byes = tuple(Bye(m.high) for m in matches
                 if first and m.key[:2] == (WINNERS, 1) and m.low is None and m.high is not None)
    return Round(number=1, tables=tables, byes=byes)


def double_champion(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> EntrantId | None:
    """The winner of the grand final (or of its reset, when one was needed), once decided."""
    reset = double_bracket(seeds, results)[-1]
    return reset.winner if reset.decided else None


def losses(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> dict[EntrantId, int]:
    """Matches each entrant has lost (a walkover counts; an empty place's bye does not)."""
    out = {p: 0 for p in seeds}
    for m in double_bracket(seeds, results):
        if m.played and m.loser is not None:
            out[m.loser] += 1
    return out
