"""One Swiss round: rank by the standings, give the byes, then pair (2-player) or build pods."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from host.tournaments.byes import choose_byes
from host.tournaments.matching import pair_players
from host.tournaments.models import Bye, Entrant, EntrantId, PlayedRound, Round
from host.tournaments.pods import build_pods
from host.tournaments.seating import seat_table
from host.tournaments.settings import Settings
from host.tournaments.sizes import table_sizes
from host.tournaments.standings import standings


def pair_swiss(settings: Settings, entrants: Sequence[Entrant], history: Sequence[PlayedRound],
               dropped: Collection[EntrantId] = ()) -> Round:
    """The next Swiss round (number ``len(history) + 1``) for every entrant not in ``dropped``.

    ``entrants`` is the whole field, dropped players included (their results still count for
    their opponents' tie-breakers); ``history`` is the finished Swiss rounds in order.
    """
    number = len(history) + 1
    rows = [row for row in standings(entrants, history, dropped) if row.entrant not in dropped]
    ranked = [row.entrant for row in rows]
    sizes, bye_count = table_sizes(len(ranked), settings.table_size, settings.min_table)
    byes_had = Counter(p for rnd in history for p in rnd.byes)
    byes = choose_byes(ranked, bye_count, byes_had)
    bye_set = set(byes)
    seated = [p for p in ranked if p not in bye_set]
    met: Counter[frozenset[EntrantId]] = Counter()
    past_pods: set[frozenset[EntrantId]] = set()
    for rnd in history:
        for result in rnd.results:
            players = [p for side in result.sides for p in side]
            past_pods.add(frozenset(players))
            for i, a in enumerate(players):
                for b in players[i + 1:]:
                    met[frozenset((a, b))] += 1
    if settings.table_size == 2:
        points = {row.entrant: row.points for row in rows}
        groups = pair_players(seated, points, met)
        tables = tuple(seat_table(pair, settings.teams, number - 1) for pair in groups)
    else:
        pods = build_pods(seated, sizes, met, past_pods)
        tables = tuple(seat_table(pod, settings.teams, number - 1) for pod in pods)
    return Round(number=number, tables=tables, byes=tuple(Bye(p) for p in ranked if p in bye_set))
