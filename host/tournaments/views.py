"""The tournament read model (host/read_models.py): a frozen copy of what the service read at one moment."""

from __future__ import annotations

from collections.abc import Sequence

from host.read_models import (
    Duration,
    EntrantInfo,
    EventInfo,
    PenaltyInfo,
    PlaceInfo,
    RoundInfo,
    StandingRow,
    TournamentView,
)
from host.tournaments.models import Standing
from host.tournaments.state import TournamentState


def tournament_view(state: TournamentState, web_url: str | None = None) -> TournamentView:
    r = state.record
    event = EventInfo(r.id, r.name, r.game, state.title, r.format, r.table_size, r.top_cut,
                      r.planned_rounds or r.rounds, Duration(r.turn_time), Duration(r.round_time), dict(r.options),
                      r.organiser_id, r.status, r.checkin, r.message_id, tuple(r.champion) if r.champion else None,
                      web_url, top_cut_format=r.top_cut_format, starts_at=r.starts_at,
                      checkin_minutes=r.checkin_minutes, role_id=r.role_id, max_entrants=r.max_entrants,
                      late_join_rounds=r.late_join_rounds)
    entrants = tuple(EntrantInfo(e.id, e.user_id, e.name, e.is_bot, e.checked_in, e.left, e.missed_rounds)
                     for e in state.entrants)
    rounds = tuple(RoundInfo(x.number, x.stage, x.status, x.due, x.announced) for x in state.rounds)
    places = tuple(PlaceInfo(p.round, p.position, tuple(tuple(side) for side in p.sides), p.table_id, p.status,
                             tuple(p.places) if p.places is not None else None, p.drawn) for p in state.places)
    penalties = tuple(PenaltyInfo(p.id, p.entrant_id, p.kind, p.text, p.organiser_id, p.at, p.pending)
                      for p in state.penalties)
    return TournamentView(event, entrants, rounds, places, tuple(state.byes), penalties)


def standing_rows(rows: Sequence[Standing]) -> tuple[StandingRow, ...]:
    return tuple(StandingRow(r.place, r.entrant, r.points, r.opp, r.oopp, r.games, r.byes, r.dropped) for r in rows)
