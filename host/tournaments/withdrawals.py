"""A table not yet seated that lost players (a drop, a disqualification): who still sits at it.

Pure. A table keeps the sides that still have all their players. When one side is left, or too
few players for the game (or a partnership was broken), the table is decided without play: the
full sides share first place and the broken ones share last (a walkover).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Reseated:
    seats: list[int]
    sides: list[list[int]]
    #: None: play the table with ``seats``; else each side's place (a walkover, nothing to play).
    places: list[int] | None


def without(seats: Sequence[int], sides: Sequence[Sequence[int]], gone: set[int], min_players: int,
            partnerships: bool) -> Reseated | None:
    """The table once ``gone`` entrants left it; None if none of them sat there."""
    if not gone & set(seats):
        return None
    whole = [list(side) for side in sides if not gone & set(side)]
    if len(whole) >= 2 and not partnerships and sum(len(s) for s in whole) >= min_players:
        kept = {e for side in whole for e in side}
        return Reseated([e for e in seats if e in kept], whole, None)
    # Decided without play: the original table is recorded, the broken sides placed last.
    places = [1 if not gone & set(side) else 2 for side in sides]
    if all(p == 2 for p in places):
        places = [1] * len(sides)  # nobody is left: a draw that counts for no one still in the event
    return Reseated(list(seats), [list(s) for s in sides], places)
