"""The top cut that ends a Swiss event: a 2-player single-elimination bracket or one final pod."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from host.tournaments.elimination import champion, next_elimination_round
from host.tournaments.models import EntrantId, Round, Side, Standing, TableResult
from host.tournaments.seating import seat_table
from host.tournaments.settings import Settings


def cut_seeds(rows: Sequence[Standing], top_cut: int) -> list[EntrantId]:
    """The top ``top_cut`` of the final Swiss standings who have not dropped, by place: seed 1 first."""
    return [row.entrant for row in rows if not row.dropped][:top_cut]


def next_cut_round(settings: Settings, seeds: Sequence[EntrantId], results: Sequence[TableResult]) -> Round | None:
    """The cut's next round (numbered from 1 within the cut), or ``None`` once it has a champion.

    At 2-player tables: single elimination seeded 1 against n. With pods: one final table of the
    ``top_cut`` seeds (partners dealt in a snake for King Pedro).
    """
    if settings.table_size == 2:
        return next_elimination_round(seeds, results)
    if results:
        return None
    return Round(number=1, tables=(seat_table(list(seeds), settings.teams),))


def cut_champions(settings: Settings, seeds: Sequence[EntrantId], results: Sequence[TableResult],
                  dropped: Collection[EntrantId] = ()) -> Side | None:
    """The winning side of the cut: one player at 2-player tables, the winning partnership in King
    Pedro. Sides sharing first place at the final pod: the one holding the best seed wins.

    A side with a player who dropped is never champion: at the final pod the best-placed side
    still whole wins (a table ended by ``/tournament advance`` puts a dropped seed at first place
    too); with none left, or a 2-player final won by one who dropped, there is no champion."""
    if settings.table_size == 2:
        winner = champion(seeds, results)
        return None if winner is None or winner in dropped else (winner,)
    if not results:
        return None
    final = results[-1]
    rank = {p: i for i, p in enumerate(seeds)}
    whole = [(place, side) for side, place in zip(final.sides, final.places, strict=True)
             if not any(p in dropped for p in side)]
    if not whole:
        return None
    return min(whole, key=lambda ps: (ps[0], min(rank.get(p, len(rank)) for p in ps[1])))[1]
