"""Who sits out when the entrants cannot all be seated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from host.tournaments.models import EntrantId


def choose_byes(ranked: Sequence[EntrantId], count: int, byes_had: Mapping[EntrantId, int]) -> list[EntrantId]:
    """The ``count`` lowest-ranked entrants who have not had a bye (fewest byes first when every
    one has had one). ``ranked`` is best first; in round 1 it is the lot order, so the lot picks."""
    if count <= 0:
        return []
    bottom_up = list(reversed(ranked))
    # A stable sort on byes already had keeps the bottom-up rank order within each count.
    chosen = sorted(bottom_up, key=lambda p: byes_had.get(p, 0))[:count]
    return chosen
