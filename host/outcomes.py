"""Final places when players forfeit: a forfeited seat is placed last, and a side left alone wins."""

from __future__ import annotations

from collections.abc import Sequence

from data.store import FORFEITED, TableRecord
from engines import Engine
from i18n import DEFAULT, N_, t

#: Why a table was abandoned, as stored with it (``game_tables.end_reason``) and shown by /game log.
#: Stored in English; marked, so that a page or message shows them in its reader's language.
#: (The command written out in English: ``i18n.t`` finds the message id of that text in every language.)
ABANDONED_BY_COMMAND = t(DEFAULT, N_("closed with {/game abandon}"))
EVERYONE_LEFT = N_("everyone left its lobby")
LOBBY_TIMED_OUT = N_("lobby timed out")
CHANNEL_DELETED = N_("channel deleted")
TOURNAMENT_CANCELLED = N_("tournament cancelled")
THREAD_REFUSED = N_("the bot could not post in its thread")


def sides(engine: Engine, players: int) -> list[tuple[int, ...]]:
    """The table's sides: its partnerships (King Pedro), else each seat alone."""
    teams = getattr(engine, "teams", None)
    return [tuple(t) for t in teams] if teams else [(s,) for s in range(players)]


def forfeited(table: TableRecord) -> set[int]:
    return {s.position for s in table.seats if s.stand_in == FORFEITED}


def sides_still_in(engine: Engine, table: TableRecord) -> list[tuple[int, ...]]:
    """Sides none of whose seats forfeited: in a partnership game a forfeit loses for both partners."""
    out = forfeited(table)
    return [side for side in sides(engine, len(table.seats)) if not out.intersection(side)]


def final_places(engine: Engine, table: TableRecord, places: Sequence[int]) -> list[int]:
    """The engine's places, with every forfeited seat moved to a shared last place.

    The seats still in keep their order among themselves (ties still share a place).
    """
    out = forfeited(table)
    if not out:
        return list(places)
    keep = [s for s in range(len(places)) if s not in out]
    ranked = {s: 1 + sum(1 for other in keep if places[other] < places[s]) for s in keep}
    last = len(keep) + 1
    return [ranked.get(s, last) for s in range(len(places))]


def forfeit_win(engine: Engine, table: TableRecord) -> list[int] | None:
    """When forfeits leave one side (or none), the game ends: that side first, everyone else last."""
    still = sides_still_in(engine, table)
    if len(still) > 1:
        return None
    winners = set(still[0]) if still else set()
    return [1 if s in winners else (2 if winners else 1) for s in range(len(table.seats))]
