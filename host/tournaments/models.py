"""The plain data of a tournament: entrants, tables, results, rounds, standings.

Entrants are named by an ``EntrantId`` (an int the caller chooses: the database row id of the
entrant), never by a Discord object, so everything in this package stays pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

EntrantId = int
#: A side: one player, or a King Pedro partnership. Partners share a place and its points.
Side = tuple[EntrantId, ...]


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"


@dataclass(frozen=True)
class Entrant:
    id: EntrantId
    name: str
    is_bot: bool = False
    #: Drawn once at the start and stored: the last tie-breaker (lower lot ranks higher) and the
    #: round-1 order. Distinct per entrant.
    lot: int = 0
    #: The seed for single elimination (the entrant's rating ordinal, μ − 3σ); higher seeds first.
    rating: float = 0.0


@dataclass(frozen=True)
class Table:
    """One table of a round: entrants in seat order, grouped into sides.

    ``seats[i]`` sits in seat ``i`` of the game. For King Pedro the sides follow the engine's
    ``teams`` ((0, 2), (1, 3)); otherwise every seat is a side of its own.
    """

    seats: tuple[EntrantId, ...]
    sides: tuple[Side, ...]

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Bye:
    """An entrant who sits out a round. It scores 1 point (in Swiss standings) and adds no opponent."""

    entrant: EntrantId


@dataclass(frozen=True)
class Round:
    """What a pairing function hands back: the tables to seat and the byes, for round ``number`` (from 1)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def bye_ids(self) -> tuple[EntrantId, ...]:
        return tuple(b.entrant for b in self.byes)


@dataclass(frozen=True)
class TableResult:
    """A finished table in terms of sides and places: ``places[i]`` is the place of ``sides[i]``.

    1 is first; sides that tie share a place. Either ranking convention works (1, 1, 3 or 1, 1, 2):
    only the order matters. A table ended by ``/tournament advance`` is all sides at place 1.
    """

    sides: tuple[Side, ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) != len(self.places):
            raise ValueError("a table result needs one place per side")
        if len(self.sides) < 2:
            raise ValueError("a table result needs at least two sides")


@dataclass(frozen=True)
class PlayedRound:
    """A finished round as the standings see it: its table results and its byes."""

    results: tuple[TableResult, ...]
    byes: tuple[EntrantId, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One row of the standings. ``place`` counts from 1; rows are never tied (the lot decides)."""

    place: int
    entrant: EntrantId
    #: Exact fractions, so ties are real ties and the README's arithmetic can be checked exactly.
    points: Fraction
    #: Opponents' points percentage, 0–1.
    opp: Fraction
    #: Opponents' OPP, 0–1.
    oopp: Fraction
    lot: int
    #: Tables played (byes not counted).
    games: int
    byes: int = 0
    #: Dropped entrants stay in the standings; they are just not paired again.
    dropped: bool = False
    opponents: tuple[EntrantId, ...] = field(default=(), repr=False)
