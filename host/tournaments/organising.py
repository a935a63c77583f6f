"""Organisers' tools beside the rounds: penalties and notes, and a start on the calendar (its check-in
and start timers, and the scheduled event's estimated end). Mixed into ``TournamentService``.

No discord: the cog creates and edits the Discord scheduled event with the times these return.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

from data.store import Store, TableRecord
from data.tournaments import (
    CHECKIN_TIMER,
    DISQUALIFIED,
    EVENT_END_TIMER,
    START_TIMER,
    EntrantRecord,
    PenaltyRecord,
    PlaceRecord,
    TournamentChanged,
    TournamentRecord,
)
from host.errors import Refusal
from host.seat_changes import SeatNotice
from host.settings import Settings as ServerConfig
from host.tables import TableService
from host.tournaments.calendar import check_in_opens, estimated_length, parse_start
from host.tournaments.refusals import Phrase
from host.tournaments.state import Calendar, StartOutcome, TournamentState, lost_race
from i18n import N_, said
from render.markup import escape_name

PENALTY_KINDS = ("warning", "game_loss", "disqualify")
MAX_NOTE = 500
#: The scheduled event's end is pushed later this long before it comes, while the event still runs.
EVENT_END_MARGIN = 600.0


def game_loss_line(name: str) -> str:
    # Said: English as before, and the table's message shows it in the server's language.
    return said(N_("🟥 **{name}** received a game loss from the organisers and forfeits this table."),
                name=escape_name(name))


class OrganiserAccess(Protocol):
    """What penalties, notes and the calendar use of the tournament service: its named operations."""

    tables: TableService
    store: Store
    on_timers: Callable[[], None]

    def lock(self, tournament_id: int) -> asyncio.Lock: ...
    async def get(self, tournament_id: int) -> TournamentRecord: ...
    async def state(self, tournament_id: int) -> TournamentState: ...
    async def server_config(self, guild_id: int | None) -> ServerConfig: ...
    async def registering(self, tournament_id: int) -> TournamentRecord: ...
    async def require_organiser(self, record: TournamentRecord, user_id: int, is_manager: bool, what: str,
                                roles: Sequence[int] = ()) -> None: ...
    async def withdraw(self, record: TournamentRecord, entrant: EntrantRecord,
                       reason: str = "drop") -> list[PlaceRecord]: ...
    async def forfeit_at(self, places: list[PlaceRecord], entrant: EntrantRecord, line: str) -> list[SeatNotice]: ...
    async def start(self, tournament_id: int, user_id: int, is_manager: bool,
                    roles: Sequence[int] = ()) -> StartOutcome: ...


class Organising:
    """Penalties, notes and the calendar of a tournament service, done through its named operations."""

    def __init__(self, service: OrganiserAccess) -> None:
        self.service = service
        self.store = service.store

    # ------------------------------------------------------- penalties, notes

    async def _entrant_of(self, record: TournamentRecord, player_id: int) -> EntrantRecord:
        mine = [e for e in await self.store.tournaments.entrants(record.id) if e.user_id == player_id]
        if not mine:
            raise Refusal(N_("<@{player}> is not entered in **{name}**."),
                          player=player_id, name=escape_name(record.name))
        return mine[0]

    async def penalty(self, tournament_id: int, user_id: int, is_manager: bool, player_id: int, kind: str,
                      reason: str, roles: Sequence[int] = ()) -> tuple[PenaltyRecord, list[SeatNotice]]:
        """A warning (recorded), a game loss (the player's table in play is forfeited, else their next one),
        or a disqualification (dropped at once, never champion, tables forfeited)."""
        if kind not in PENALTY_KINDS:
            raise Refusal(N_("`{:kind}` is one of {kinds}."), kinds=", ".join(f"`{k}`" for k in PENALTY_KINDS))
        text = " ".join(reason.split())[:MAX_NOTE]
        if not text:
            raise Refusal(N_("Give a `{:reason}`: it is kept with the penalty."))
        async with self.service.lock(tournament_id):
            record = await self.service.get(tournament_id)
            await self.service.require_organiser(record, user_id, is_manager, N_("give penalties"), roles)
            if not record.active:
                raise Refusal(N_("**{name}** is {status}: penalties are for events under way."),
                              name=escape_name(record.name), status=Phrase(record.status))
            entrant = await self._entrant_of(record, player_id)
            if kind != "warning" and not entrant.active:
                raise Refusal(N_("**{player}** no longer plays in **{name}**."), player=escape_name(entrant.name),
                              name=escape_name(record.name))
            places: list[PlaceRecord] = []
            if kind == "disqualify":
                try:
                    places = await self.service.withdraw(record, entrant, DISQUALIFIED)
                except TournamentChanged:
                    raise Refusal(N_("**{player}** has just left **{name}**."), player=escape_name(entrant.name),
                                  name=escape_name(record.name)) from None
            elif kind == "game_loss":
                places = [p for p in await self.store.tournaments.round_places(tournament_id)
                          if p.status == "playing" and p.table_id is not None and entrant.id in p.seats]
            pending = kind == "game_loss" and not places
            penalty_id = await self.store.tournaments.add_penalty(tournament_id, entrant.id, kind, text, user_id,
                                                                  pending)
        line = (game_loss_line(entrant.name) if kind == "game_loss" else
                said(N_("⛔ **{name}** was disqualified from the tournament and forfeits."),
                     name=escape_name(entrant.name)))
        notices = [] if kind == "warning" else await self.service.forfeit_at(places, entrant, line)
        found = [p for p in await self.store.tournaments.penalties(tournament_id) if p.id == penalty_id]
        return found[0], notices

    async def note(self, tournament_id: int, user_id: int, is_manager: bool, player_id: int, text: str,
                   roles: Sequence[int] = ()) -> PenaltyRecord:
        """A note about an entrant that only organisers see."""
        body = " ".join(text.split())[:MAX_NOTE]
        if not body:
            raise Refusal(N_("The note is empty."))
        async with self.service.lock(tournament_id):
            record = await self.service.get(tournament_id)
            await self.service.require_organiser(record, user_id, is_manager, N_("write notes"), roles)
            entrant = await self._entrant_of(record, player_id)
            penalty_id = await self.store.tournaments.add_penalty(tournament_id, entrant.id, "note", body, user_id)
        return next(p for p in await self.store.tournaments.penalties(tournament_id) if p.id == penalty_id)

    # --------------------------------------------------------------- calendar

    @staticmethod
    def calendar(record: TournamentRecord) -> Calendar | None:
        """The scheduled event's times: from the start, its rounds' estimated length."""
        if record.starts_at is None:
            return None
        rounds = record.planned_rounds or record.rounds or 4
        return Calendar(record.starts_at, record.starts_at + estimated_length(rounds, record.round_time))

    async def reschedule(self, tournament_id: int, user_id: int, is_manager: bool, starts_at: str,
                         roles: Sequence[int] = ()) -> TournamentState:
        """Move the start (``/tournament schedule``): the check-in and start timers move with it."""
        async with self.service.lock(tournament_id):
            record = await self.service.get(tournament_id)
            await self.service.require_organiser(record, user_id, is_manager, N_("move the start"), roles)
            record = await self.service.registering(tournament_id)
            now = self.store.now()
            start = parse_start(starts_at, now, (await self.service.server_config(record.guild_id)).timezone)
            timers = [(START_TIMER, start)]
            if not record.checkin:
                timers.append((CHECKIN_TIMER, max(now, check_in_opens(start, record.checkin_minutes))))
            with lost_race():
                await self.store.tournaments.reschedule_tournament(tournament_id, record.revision, start, timers)
        self.service.on_timers()
        return await self.service.state(tournament_id)

    async def calendar_checkin(self, tournament_id: int, started: float) -> TournamentState | None:
        """The check-in timer: open the check-in (once); the state, for pinging the entrants, or None."""
        if not await self.store.tournaments.take_tournament_timer(tournament_id, CHECKIN_TIMER, started):
            return None
        async with self.service.lock(tournament_id):
            record = await self.service.get(tournament_id)
            if record.status != "registration" or record.checkin:
                return None
            with lost_race():
                await self.store.tournaments.open_checkin(tournament_id, record.revision)
        return await self.service.state(tournament_id)

    async def calendar_start(self, tournament_id: int, started: float) -> StartOutcome | Refusal | None:
        """The start timer: start with those checked in; the refusal (too few) for the channel; or
        None when there is nothing to do (the timer was taken, or the event already started)."""
        if not await self.store.tournaments.take_tournament_timer(tournament_id, START_TIMER, started):
            return None
        record = await self.service.get(tournament_id)
        if record.status != "registration":
            return None
        try:
            return await self.service.start(tournament_id, record.organiser_id, True)
        except Refusal as exc:
            return exc  # the reason, told in the channel in the server's language

    async def event_end_due(self, tournament_id: int, started: float) -> float | None:
        """The scheduled event's end is near while the event still runs: push it later. Returns the new end."""
        if not await self.store.tournaments.take_tournament_timer(tournament_id, EVENT_END_TIMER, started):
            return None
        record = await self.service.get(tournament_id)
        if record.status != "playing" or record.event_id is None:
            return None
        return await self.push_event_end(record)

    async def push_event_end(self, record: TournamentRecord) -> float:
        """The end to show while the event runs: the rounds left at their estimated length from now, and
        a timer to push it again shortly before it comes."""
        rounds = await self.store.tournaments.tournament_rounds(record.id)
        left = max(1, (record.planned_rounds or len(rounds)) - len(rounds) + 1)
        end = max(record.event_end or 0.0, self.store.now() + estimated_length(left, record.round_time))
        await self.store.tournaments.set_tournament_event(record.id, record.event_id, end)
        await self.store.tournaments.set_tournament_timers(record.id, [(EVENT_END_TIMER, end - EVENT_END_MARGIN)])
        self.service.on_timers()
        return end

    async def game_losses_due(self, table: TableRecord) -> list[SeatNotice]:
        """Game losses given while a player had no table in play: their next table is forfeited."""
        place = await self.store.tournaments.place_of_table(table.id)
        if place is None:
            return []
        entrants = {e.id: e for e in await self.store.tournaments.entrants(place.tournament_id)}
        notices = []
        for penalty in await self.store.tournaments.penalties(place.tournament_id):
            if not (penalty.pending and penalty.kind == "game_loss" and penalty.entrant_id in place.seats):
                continue
            if await self.store.tournaments.settle_penalty(penalty.id):
                entrant = entrants[penalty.entrant_id]
                notice = await self.service.tables.drop_seat(table.id, entrant.user_id or 0,
                                                             game_loss_line(entrant.name))
                if notice is not None:
                    notices.append(notice)
        return notices
