"""Round robin at 2-player tables by the circle method: every pair meets exactly once."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from host.tournaments.models import Bye, EntrantId, Round
from host.tournaments.refusals import TournamentRefusal
from host.tournaments.seating import seat_table
from i18n import N_


def round_robin_round(order: Sequence[EntrantId], number: int, dropped: Collection[EntrantId] = (),
                      table_size: int = 2) -> Round:
    """Round ``number`` (from 1) of the circle-method schedule of ``order`` (the entrants in lot
    order, fixed at the start so every round comes from the same circle).

    With an odd count, one entrant a round meets the empty place of the circle: a bye. A player
    whose scheduled opponent has dropped also gets a bye, so the schedule never changes once made.
    """
    if table_size != 2:
        raise TournamentRefusal(
            N_("Round robin is for 2-player tables. For pods, use format swiss: it avoids repeated pods."))
    players: list[EntrantId | None] = list(order)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if not 1 <= number <= n - 1:
        raise ValueError(f"a round robin of {len(order)} has rounds 1 to {n - 1}, not {number}")
    # The circle: the first place stays, the others rotate one step per round.
    fixed, ring = players[0], players[1:]
    k = (number - 1) % len(ring)
    ring = ring[-k:] + ring[:-k] if k else ring
    circle = [fixed, *ring]
    tables = []
    byes = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if i % 2 == 1 or (i == 0 and number % 2 == 0):  # alternate who takes seat 0
            a, b = b, a
        pair = [p for p in (a, b) if p is not None and p not in dropped]
        if len(pair) == 2:
            tables.append(seat_table(pair))
        elif len(pair) == 1:
            byes.append(Bye(pair[0]))
    return Round(number=number, tables=tuple(tables), byes=tuple(byes))


def round_robin_schedule(order: Sequence[EntrantId]) -> list[Round]:
    """Every round of the event, for tests and previews."""
    n = len(order) + len(order) % 2
    return [round_robin_round(order, r) for r in range(1, n)]
