"""Single elimination at 2-player tables, for a whole event or for a Swiss top cut.

The bracket is a pure function of the seeds and the results so far, so nothing but the results
needs storing. Standard seeding: with a bracket of P = 2^k places, seed 1 meets seed P, and seeds
1 and 2 can only meet in the final. Seeds beyond the field are empty places, which gives the
byes to the top seeds, so round 2 holds exactly P/2 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host.tournaments.models import Bye, Entrant, EntrantId, Round, TableResult
from host.tournaments.seating import seat_table


@dataclass(frozen=True)
class Match:
    """One place in the bracket. ``high`` is the better seed; ``None`` is an empty place (a bye) or
    a player not known yet; ``winner`` is set once decided (at once for a bye)."""

    round: int
    slot: int
    high: EntrantId | None
    low: EntrantId | None
    winner: EntrantId | None = None

    @property
    def is_bye(self) -> bool:
        return self.round == 1 and self.low is None


def seed_order(entrants: Sequence[Entrant]) -> list[EntrantId]:
    """Seeds for a single-elimination event: by rating (highest first), then by the lot."""
    return [e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.lot))]


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``: 8 → 1 8 4 5 2 7 3 6."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size is a power of two")
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def table_winner(result: TableResult, seeds: Sequence[EntrantId]) -> EntrantId:
    """The winner of a 2-player table: the better place; a drawn table goes to the higher seed."""
    rank = {p: i for i, p in enumerate(seeds)}
    best = min(result.places)
    leaders = [p for side, place in zip(result.sides, result.places, strict=True) if place == best for p in side]
    return min(leaders, key=lambda p: rank.get(p, len(rank)))


def bracket(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> list[list[Match]]:
    """Every round of the bracket, as far as ``results`` decide it (later places stay ``None``)."""
    if len(seeds) < 2:
        raise ValueError("single elimination needs at least two entrants")
    size = bracket_size(len(seeds))
    rank = {p: i for i, p in enumerate(seeds)}
    by_pair = {frozenset(p for side in r.sides for p in side): r for r in results}
    slots: list[EntrantId | None] = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_positions(size)]
    rounds: list[list[Match]] = []
    number = 1
    while len(slots) > 1:
        matches: list[Match] = []
        winners: list[EntrantId | None] = []
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            high, low = (a, b) if b is None or (a is not None and rank[a] < rank[b]) else (b, a)
            winner: EntrantId | None = None
            if number == 1 and low is None:
                winner = high
            elif high is not None and low is not None:
                result = by_pair.get(frozenset((high, low)))
                if result is not None:
                    winner = table_winner(result, seeds)
            matches.append(Match(round=number, slot=i // 2, high=high, low=low, winner=winner))
            winners.append(winner)
        rounds.append(matches)
        slots = winners
        number += 1
    return rounds


def next_elimination_round(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> Round | None:
    """The tables to seat now (the earliest round with undecided matches), or ``None`` when the
    final is decided. Round 1 carries the top seeds' byes. Each table seats the higher seed first."""
    for matches in bracket(seeds, results):
        open_ = [m for m in matches if m.winner is None]
        if not open_:
            continue
        tables = tuple(seat_table([m.high, m.low]) for m in open_ if m.high is not None and m.low is not None)
        byes = tuple(Bye(m.high) for m in matches if m.is_bye and m.high is not None)
        return Round(number=matches[0].round, tables=tables, byes=byes)
    return None


def champion(seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> EntrantId | None:
    """The winner of the final, once played."""
    return bracket(seeds, results)[-1][0].winner
