"""Which finished tables change ratings, and how: openskill per server and game, bots left out."""

from __future__ import annotations

from collections.abc import Sequence

from data.ratings import RatingPlan
from data.store import TableRecord
from engines import Engine
from host.outcomes import sides
from host.tournaments.ratings import human_sides, rate_table


def rating_plan(engine: Engine, table: TableRecord, places: Sequence[int]) -> RatingPlan | None:
    """The rating change of a table that finished with ``places`` (per seat), or None when it is not
    rated: it needs a server and at least two human players on two sides. Partners are one team."""
    if table.guild_id is None:
        return None
    users: dict[int, int | None] = {s.position: (None if s.is_bot else s.user_id) for s in table.seats}
    by_side = [[users[seat] for seat in side] for side in sides(engine, len(table.seats))]
    side_places = [min(places[seat] for seat in side) for side in sides(engine, len(table.seats))]
    kept = human_sides(by_side, side_places, lambda user: user is None)
    if kept is None:
        return None
    humans, kept_places = kept
    return RatingPlan(guild_id=table.guild_id, game=table.game,
                      sides=tuple(tuple(int(u) for u in side if u is not None) for side in humans),
                      places=tuple(kept_places), rate=rate_table)
