"""What comes after a finished round: the next round to seat, or the champion.

A pure function of the event's settings, its entrants and the rounds played so far, so the service
can call it again after a restart and get the same answer. Rounds are numbered through the whole
event (a Swiss event of 3 rounds with a top cut of 4 plays rounds 1–3, then cut rounds 4 and 5);
each round also has a stage, which says which pairing rule made it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

from host.tournaments.double_elimination import double_champion, next_double_round
from host.tournaments.elimination import champion as elimination_champion
from host.tournaments.elimination import next_elimination_round, seed_order
from host.tournaments.models import Entrant, EntrantId, Format, PlayedRound, Round, Side, Table, TableResult
from host.tournaments.round_robin import round_robin_round
from host.tournaments.settings import Settings
from host.tournaments.standings import standings
from host.tournaments.swiss import pair_swiss
from host.tournaments.top_cut import cut_champions, cut_seeds, next_cut_round

SWISS, ROUND_ROBIN, ELIMINATION, CUT = "swiss", "round_robin", "elimination", "cut"


@dataclass(frozen=True)
class StageRound:
    """A finished round as stored: its stage, its table results and its byes."""

    stage: str
    results: tuple[TableResult, ...]
    byes: tuple[EntrantId, ...] = ()


@dataclass(frozen=True)
class NextStep:
    """Either a round to seat (``round`` with its ``stage``, numbered through the event) or, once
    there is none, the ``champion`` side. ``walkovers`` are tables of the round decided without play:
    a bracket match whose player has dropped goes to the other."""

    stage: str = ""
    round: Round | None = None
    walkovers: tuple[TableResult, ...] = field(default=())
    champion: Side | None = None
    #: The top cut's seeds, when this step begins the cut: stored, and passed back in from then on,
    #: so a player who drops during the cut does not reshuffle its bracket.
    seeds: tuple[EntrantId, ...] | None = None


def main_stage(fmt: Format) -> str:
    return {Format.SWISS: SWISS, Format.ROUND_ROBIN: ROUND_ROBIN, Format.SINGLE_ELIMINATION: ELIMINATION,
            Format.DOUBLE_ELIMINATION: ELIMINATION}[fmt]


def lot_order(entrants: Sequence[Entrant]) -> list[EntrantId]:
    return [e.id for e in sorted(entrants, key=lambda e: e.lot)]


def next_step(settings: Settings, entrants: Sequence[Entrant], planned_rounds: int, played: Sequence[StageRound],
              dropped: Collection[EntrantId] = (), cut: Sequence[EntrantId] | None = None) -> NextStep:
    """The step after ``played`` (every finished round, in order); ``cut``: the top cut's seeds, once fixed."""
    number = len(played) + 1
    stage = main_stage(settings.format)
    main = [r for r in played if r.stage == stage]
    history = [PlayedRound(results=r.results, byes=r.byes) for r in main]
    if settings.format is Format.SINGLE_ELIMINATION:
        seeds = seed_order(entrants)
        results = [res for r in main for res in r.results]
        return _bracket_step(ELIMINATION, number, seeds, results, dropped,
                             lambda: elimination_champion(seeds, results))
    if settings.format is Format.DOUBLE_ELIMINATION:
        seeds = seed_order(entrants)
        results = [res for r in main for res in r.results]
        return _bracket_step(ELIMINATION, number, seeds, results, dropped,
                             lambda: double_champion(seeds, results), next_double_round)
    if len(main) < planned_rounds:
        if settings.format is Format.ROUND_ROBIN:
            rnd = round_robin_round(lot_order(entrants), len(main) + 1, dropped)
        else:
            rnd = pair_swiss(settings, entrants, history, dropped)
        return NextStep(stage=stage, round=Round(number, rnd.tables, rnd.byes))
    rows = standings(entrants, history, dropped)
    if not settings.top_cut:
        # A player who dropped is never champion: with everyone gone, the event ends without one.
        leader = next((row.entrant for row in rows if not row.dropped), None)
        return NextStep(champion=None if leader is None else (leader,))
    fresh = cut is None
    seeds = cut_seeds(rows, settings.top_cut) if cut is None else list(cut)
    if fresh and not cut_can_be_played(settings, seeds):
        # So many dropped that the players left cannot fill the cut's table: the best of them wins.
        return NextStep(champion=(seeds[0],) if seeds else None, seeds=tuple(seeds))
    cut_results = [res for r in played if r.stage == CUT for res in r.results]
    if settings.table_size == 2 and settings.top_cut_format == "double":
        step = _bracket_step(CUT, number, seeds, cut_results, dropped,
                             lambda: double_champion(seeds, cut_results), next_double_round)
    elif settings.table_size == 2:
        step = _bracket_step(CUT, number, seeds, cut_results, dropped,
                             lambda: cut_champions(settings, seeds, cut_results))
    else:
        final = next_cut_round(settings, seeds, cut_results)
        step = (NextStep(champion=cut_champions(settings, seeds, cut_results, dropped)) if final is None
                else NextStep(stage=CUT, round=Round(number, final.tables, final.byes)))
    return replace(step, seeds=tuple(seeds)) if fresh else step


def cut_can_be_played(settings: Settings, seeds: Sequence[EntrantId]) -> bool:
    """Whether the cut's seeds (the players left, at most ``top_cut``) can fill its table: two for a
    2-player bracket, the full partnerships in a team game, else the game's own minimum."""
    if settings.table_size == 2:
        return len(seeds) >= 2
    if settings.teams:
        return len(seeds) == settings.table_size
    return len(seeds) >= settings.min_table


def _bracket_step(stage: str, number: int, seeds: Sequence[EntrantId], results: list[TableResult],
                  dropped: Collection[EntrantId], winner: Callable[[], EntrantId | Side | None],
                  next_round: Callable[[Sequence[EntrantId], Sequence[TableResult]], Round | None]
                  = next_elimination_round) -> NextStep:
    """The next bracket round (single elimination, or double with ``next_double_round``); a match
    with a dropped player is a walkover for the other, decided at once.

    A round of walkovers only is still a round: the service records it and asks again.
    """
    rnd = next_round(seeds, results)
    if rnd is None:
        champ = winner()
        side = None if champ is None else champ if isinstance(champ, tuple) else (champ,)
        if side is not None and any(p in dropped for p in side):
            # A final between two who both dropped goes to the higher seed as a drawn table would, but
            # a player who left is not crowned: the event ends without a champion.
            side = None
        return NextStep(champion=side)
    tables: list[Table] = []
    decided: list[TableResult] = []
    for table in rnd.tables:
        gone = [side[0] in dropped for side in table.sides]
        if not any(gone):
            tables.append(table)
        elif all(gone):  # both have dropped: as a drawn table, it goes to the higher seed
            decided.append(TableResult(sides=table.sides, places=(1, 1)))
        else:
            decided.append(TableResult(sides=table.sides, places=tuple(2 if g else 1 for g in gone)))
    return NextStep(stage=stage, round=Round(number, tuple(tables), rnd.byes), walkovers=tuple(decided))
