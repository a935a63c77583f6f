"""The tournament service: registration, rounds, results and standings, on top of the table service.

No discord here: the cog opens a thread for each table this service says to seat, and tells the
channel what this service returns. Every change is a store transaction; the round after a finished
one is written in the transaction that finishes it, so a restart at any point resumes where it
stopped (:meth:`TournamentService.resume_work`) and never pairs a round twice.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from data.store import SeatRecord, StaleVersion, TableRecord
from data.tournaments import (
    CHECKIN_TIMER,
    DISQUALIFIED,
    NEVER_PLAYED,
    START_TIMER,
    WAITLISTED,
    AlreadyEntered,
    EntrantRecord,
    PenaltyRecord,
    PlaceRecord,
    RoundPlan,
    RoundRecord,
    TournamentBusy,
    TournamentChanged,
    TournamentRecord,
)
from engines import GAME_TITLES, get_engine
from engines.bots import BOT_LEVELS
from host.clock import plan_turn
from host.errors import Refusal
from host.limits import NEW_TOURNAMENT, check_bot_entrants, check_tournament_creator, check_tournament_threads
from host.outcomes import TOURNAMENT_CANCELLED
from host.pairing import INLINE_UP_TO, PairingPool
from host.read_models import FORMAT_NAMES
from host.replay import canonical
from host.seat_changes import SeatNotice
from host.settings import ENTRANTS_CEILING, ServerSettings
from host.settings import Settings as ServerConfig
from host.tables import BOT_NAMES, TableService
from host.tournaments.bracket_view import DoubleRows, MatchRow, bracket_view, double_bracket_view
from host.tournaments.calendar import check_checkin_minutes, check_in_opens, parse_start
from host.tournaments.elimination import seed_order
from host.tournaments.models import Entrant, Format, PlayedRound, Standing, TableResult
from host.tournaments.organising import Organising
from host.tournaments.progress import CUT, ELIMINATION, NextStep, StageRound, main_stage
from host.tournaments.refusals import Phrase, TournamentRefusal
from host.tournaments.settings import MAX_ROUNDS, Settings, check_start, make_settings, needed_entrants
from host.tournaments.standings import standings
from host.tournaments.state import Advance, Calendar, StartOutcome, TournamentState, lost_race
from host.tournaments.withdrawals import without
from i18n import N_, msg, said, said_n
from render.markup import escape_name

__all__ = ["FORMAT_NAMES", "MAX_ENTRANTS", "Advance", "Calendar", "StartOutcome", "TournamentService",
           "TournamentState"]

log = logging.getLogger(__name__)

#: Bot entrants one ``/tournament addbot`` may add, and in all.
MAX_BOTS_AT_ONCE = 32
MAX_ENTRANTS = ENTRANTS_CEILING
#: ``late_join_rounds`` at most this when ``rounds`` is left to the field size.
MAX_LATE_ROUND = 16


class TournamentService:
    def __init__(self, tables: TableService, settings: ServerSettings | None = None,
                 pairing: PairingPool | None = None, on_timers: Callable[[], None] | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        #: The servers' settings (organiser role, entrant limit); None in tests that need none.
        self.settings = settings
        #: Called when a tournament timer was written (the bot pokes the tournament scheduler).
        self.on_timers: Callable[[], None] = on_timers or (lambda: None)
        self._locks: dict[int, asyncio.Lock] = {}
        #: Pairs large fields in a worker process, off the event loop.
        self.pairing = pairing or PairingPool()
        #: Penalties, notes and the calendar, a collaborator working through this service's operations
        #: (``OrganiserAccess``); the methods below hand those use cases to it.
        self.organising = Organising(self)

    # ------------------------------------------------- penalties, notes, the calendar (``Organising``)

    async def penalty(self, tournament_id: int, user_id: int, is_manager: bool, player_id: int, kind: str,
                      reason: str, roles: Sequence[int] = ()) -> tuple[PenaltyRecord, list[SeatNotice]]:
        return await self.organising.penalty(tournament_id, user_id, is_manager, player_id, kind, reason, roles)

    async def note(self, tournament_id: int, user_id: int, is_manager: bool, player_id: int, text: str,
                   roles: Sequence[int] = ()) -> PenaltyRecord:
        return await self.organising.note(tournament_id, user_id, is_manager, player_id, text, roles)

    async def reschedule(self, tournament_id: int, user_id: int, is_manager: bool, starts_at: str,
                         roles: Sequence[int] = ()) -> TournamentState:
        return await self.organising.reschedule(tournament_id, user_id, is_manager, starts_at, roles)

    @staticmethod
    def calendar(record: TournamentRecord) -> Calendar | None:
        return Organising.calendar(record)

    async def calendar_checkin(self, tournament_id: int, started: float) -> TournamentState | None:
        return await self.organising.calendar_checkin(tournament_id, started)

    async def calendar_start(self, tournament_id: int, started: float) -> StartOutcome | Refusal | None:
        return await self.organising.calendar_start(tournament_id, started)

    async def event_end_due(self, tournament_id: int, started: float) -> float | None:
        return await self.organising.event_end_due(tournament_id, started)

    async def push_event_end(self, record: TournamentRecord) -> float:
        return await self.organising.push_event_end(record)

    async def game_losses_due(self, table: TableRecord) -> list[SeatNotice]:
        return await self.organising.game_losses_due(table)

    # ------------------------------------------------------------------ locks

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------------ lookup

    async def require(self, channel_id: int) -> TournamentRecord:
        record = await self.store.tournaments.active_tournament(channel_id)
        if record is None:
            raise Refusal(N_("There is no tournament in this channel. An organiser opens one with "
                             "`{/tournament new}`."))
        return record

    async def latest(self, channel_id: int) -> TournamentRecord:
        """The channel's running tournament, or its most recent one (for standings after the end)."""
        record = await self.store.tournaments.active_tournament(channel_id) \
            or await self.store.tournaments.latest_tournament(channel_id)
        if record is None:
            raise Refusal(N_("This channel has had no tournament. An organiser opens one with `{/tournament new}`."))
        return record

    async def get(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.tournaments.tournament(tournament_id)
        if record is None:
            raise Refusal(N_("That tournament does not exist."))
        return record

    async def state(self, tournament_id: int) -> TournamentState:
        record = await self.get(tournament_id)
        return TournamentState(record, await self.store.tournaments.entrants(tournament_id),
                               await self.store.tournaments.tournament_rounds(tournament_id),
                               await self.store.tournaments.round_places(tournament_id),
                               await self.store.tournaments.tournament_byes(tournament_id),
                               await self.store.tournaments.penalties(tournament_id))

    @staticmethod
    def settings_of(record: TournamentRecord) -> Settings:
        return make_settings(record.game, record.format, record.table_size, record.top_cut, record.rounds,
                             record.top_cut_format if record.top_cut else None)

    async def is_organiser(self, record: TournamentRecord, user_id: int, is_manager: bool,
                           roles: Sequence[int] = ()) -> bool:
        """The event's creator, a member with Manage Server, or one with the server's
        ``tournament_organiser_role`` runs every organiser command."""
        if record.organiser_id == user_id or is_manager:
            return True
        if self.settings is None or not roles:
            return False
        role = (await self.settings.get(record.guild_id)).tournament_organiser_role
        return role is not None and role in roles

    async def require_organiser(self, record: TournamentRecord, user_id: int, is_manager: bool, what: str,
                                 roles: Sequence[int] = ()) -> None:
        if not await self.is_organiser(record, user_id, is_manager, roles):
            raise Refusal(N_("Only the organiser, a member with Manage Server or one with the server's tournament "
                             "organiser role can {what}."), what=Phrase(what))

    # ------------------------------------------------------------ registration

    async def server_config(self, guild_id: int | None) -> ServerConfig:
        return ServerConfig() if self.settings is None else await self.settings.get(guild_id)

    async def create(self, *, guild_id: int | None, channel_id: int, organiser_id: int, game: str, fmt: str,
                     rounds: int | None, table_size: int | None, top_cut: int | None, turn_time: int | None,
                     round_time: int | None, options: dict[str, Any] | None, name: str | None,
                     starts_at: str | None = None, checkin_minutes: int | None = None, role_id: int | None = None,
                     max_entrants: int | None = None, late_join_rounds: int | None = None,
                     top_cut_format: str | None = None, is_manager: bool = True,
                     roles: Sequence[int] = ()) -> TournamentState:
        """Open registration. ``is_manager`` and ``roles`` (the member's Manage Server and role ids) meet the
        server's ``tournament_creators``; the callers that pass neither are the bot's own (tests, benches)."""
        server = await self.server_config(guild_id)
        check_tournament_creator(server.tournament_creators, server.tournament_organiser_role, is_manager, roles)
        try:
            settings = make_settings(game, fmt, table_size, top_cut or 0, rounds, top_cut_format)
        except TournamentRefusal as exc:
            raise Refusal(exc.msgid, **exc.params) from None
        if rounds is not None and rounds > MAX_ROUNDS:  # checked here, not in make_settings: older events may have more
            raise Refusal(N_("`{:rounds}` is 1 to {most}."), most=MAX_ROUNDS)
        merged = self.tables.check_new(game, options)
        minutes = check_checkin_minutes(checkin_minutes)
        start, timers = None, []
        if starts_at is not None:
            now = self.store.now()
            start = parse_start(starts_at, now, server.timezone)
            timers = [(CHECKIN_TIMER, max(now, check_in_opens(start, minutes))), (START_TIMER, start)]
        elif checkin_minutes is not None:
            raise Refusal(N_("`{:checkin_minutes}` goes with `{:starts_at}`: without a start time, open the check-in "
                             "yourself with `{/tournament checkin}`."))
        if max_entrants is not None:
            need = needed_entrants(settings)
            if not need <= max_entrants <= server.max_entrants_limit:
                raise Refusal(N_("`{:max_entrants}` is {low} to {high} on this server (its `max_entrants_limit`)."),
                              low=need, high=server.max_entrants_limit)
        late = late_join_rounds or 0
        if late:
            if settings.format is not Format.SWISS:
                raise Refusal(N_("`{:late_join_rounds}` is for Swiss events: other formats are paired in full at the "
                                 "start."))
            if late < 0 or late > (rounds or MAX_LATE_ROUND):
                raise Refusal(N_("`{:late_join_rounds}` is 0 to {high} (the round players may join until)."),
                              high=rounds or MAX_LATE_ROUND)
        if self.settings is not None:  # the last check: the cooldown starts only for a tournament about to open
            self.settings.cooldowns.take(guild_id, organiser_id, NEW_TOURNAMENT, server.new_cooldown)
        title = " ".join((name or "").split())[:80] or f"{GAME_TITLES[game]} {FORMAT_NAMES[settings.format.value]}"
        try:
            tournament_id = await self.store.tournaments.create_tournament(
                guild_id=guild_id, channel_id=channel_id, name=title, game=game, format=settings.format.value,
                table_size=settings.table_size, top_cut=settings.top_cut, rounds=rounds, turn_time=turn_time,
                round_time=round_time, options=merged, organiser_id=organiser_id, starts_at=start,
                checkin_minutes=minutes, role_id=role_id, max_entrants=max_entrants, late_join_rounds=late,
                top_cut_format=settings.top_cut_format, timers=timers)
        except TournamentBusy:
            if self.settings is not None:  # nothing opened: the refusal leaves the cooldown as it was
                self.settings.cooldowns.give_back(guild_id, organiser_id, NEW_TOURNAMENT)
            busy = await self.store.tournaments.active_tournament(channel_id)
            if busy is None:
                raise Refusal(N_("This channel already runs a tournament. Open yours in another channel, or wait "
                                 "until this one ends.")) from None
            raise Refusal(N_("This channel already runs a tournament (**{name}**, {status}). Open yours in another "
                             "channel, or wait until this one ends."), name=escape_name(busy.name),
                          status=Phrase(busy.status)) from None
        except BaseException:
            if self.settings is not None:  # nothing opened either (a database error, a cancelled command)
                self.settings.cooldowns.give_back(guild_id, organiser_id, NEW_TOURNAMENT)
            raise
        self.on_timers()
        return await self.state(tournament_id)

    async def registering(self, tournament_id: int) -> TournamentRecord:
        record = await self.get(tournament_id)
        if record.status == "registration":
            return record
        if record.status == "playing":
            raise Refusal(N_("**{name}** has already started, so registration is closed."),
                          name=escape_name(record.name))
        raise Refusal(N_("**{name}** is {status}."), name=escape_name(record.name), status=Phrase(record.status))

    async def _ceiling(self, record: TournamentRecord) -> int:
        """The most sign-ups: the server's ``max_entrants_limit``; with ``max_entrants``, the rest wait in line
        (up to the bot's own ceiling)."""
        return MAX_ENTRANTS if record.max_entrants else (await self.server_config(record.guild_id)).max_entrants_limit

    @staticmethod
    def _whose(record: TournamentRecord, ceiling: int) -> Phrase:
        """The limit a full event hit; the server's is named with its setting, as every flood limit is."""
        entrants = said_n("{n} entrant", "{n} entrants", ceiling)  # each language's plural (the guard says it)
        if record.max_entrants:
            return Phrase(N_(" ({entrants})"), entrants=entrants)
        return Phrase(N_(": this server allows {entrants} (the `max_entrants_limit` setting)"), entrants=entrants)

    @staticmethod
    def _require_role(record: TournamentRecord, roles: Sequence[int] | None) -> None:
        if record.role_id is not None and (roles is None or record.role_id not in roles):
            raise Refusal(N_("**{name}** is for members with the <@&{role}> role, and you don't have it."),
                          name=escape_name(record.name), role=record.role_id)

    async def join(self, tournament_id: int, user_id: int, name: str,
                   roles: Sequence[int] | None = None) -> TournamentState:
        """Enter (``roles``: the member's role ids, checked against the event's ``role``); beyond
        ``max_entrants`` the entrant waits in sign-up order; a Swiss event with ``late_join_rounds``
        still takes entrants until that round is paired."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            entrants = await self.store.tournaments.entrants(tournament_id)
            mine = [e for e in entrants if e.user_id == user_id]
            if mine and mine[0].left == DISQUALIFIED:
                raise Refusal(N_("You were disqualified from **{name}**."), name=escape_name(record.name))
            if record.status == "playing" and record.late_join_rounds:
                if mine and mine[0].left != WAITLISTED:
                    raise Refusal(N_("You are already entered in **{name}**."), name=escape_name(record.name))
                self._require_role(record, roles)
                return await self._join_late(record, entrants, user_id, name)
            record = await self.registering(tournament_id)
            if mine:
                raise Refusal(N_("You are already entered in **{name}**."), name=escape_name(record.name))
            self._require_role(record, roles)
            ceiling = await self._ceiling(record)
            if len(entrants) >= ceiling:
                raise Refusal(N_("**{name}** is full{limit}."),
                              name=escape_name(record.name), limit=self._whose(record, ceiling))
            try:
                with lost_race():
                    await self.store.tournaments.add_entrant(tournament_id, record.revision, user_id=user_id,
                                                             name=name[:64])
            except AlreadyEntered:
                raise Refusal(N_("You are already entered in **{name}**."), name=escape_name(record.name)) from None
            return await self.state(tournament_id)

    async def _join_late(self, record: TournamentRecord, entrants: list[EntrantRecord], user_id: int,
                         name: str) -> TournamentState:
        """A late entry, within the field's limit (``max_entrants``, else the server's ``max_entrants_limit``):
        every entrant who was in the field counts, dropped ones too. (An event with a waiting list started
        full, so a member on it is told the event is full, not that they are entered.)"""
        field = sum(1 for e in entrants if e.left not in NEVER_PLAYED)
        limit = record.max_entrants or (await self.server_config(record.guild_id)).max_entrants_limit
        if field >= limit:
            raise Refusal(N_("**{name}** is full{limit}."), name=escape_name(record.name),
                          limit=self._whose(record, limit))
        rounds = await self.store.tournaments.tournament_rounds(record.id)
        if len(rounds) >= record.late_join_rounds:
            raise Refusal(N_("**{name}** took late entrants until round {round} began; registration is closed."),
                          name=escape_name(record.name), round=record.late_join_rounds)
        if any(r.stage != main_stage(Format(record.format)) for r in rounds):
            raise Refusal(N_("**{name}** has reached its top cut; registration is closed."),
                          name=escape_name(record.name))
        lot = max((e.lot or 0 for e in entrants), default=0) + 1
        rated = await self.store.ratings.ratings_for(record.guild_id or 0, record.game, [user_id])
        try:
            await self.store.tournaments.add_late_entrant(record.id, user_id=user_id, name=name[:64], lot=lot,
                                              rating=rated[user_id].ordinal if user_id in rated else 0.0,
                                              missed_rounds=len(rounds))
        except AlreadyEntered:
            raise Refusal(N_("You are already entered in **{name}**."), name=escape_name(record.name)) from None
        except TournamentChanged:
            raise Refusal(N_("The tournament changed just now; try again.")) from None
        return await self.state(record.id)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            if record.status == "playing":
                raise Refusal(N_("**{name}** has started: use `{/tournament drop}` to stop playing in it."),
                              name=escape_name(record.name))
            record = await self.registering(tournament_id)
            mine = [e for e in await self.store.tournaments.entrants(tournament_id)
                    if e.user_id == user_id and e.active]
            if not mine:
                raise Refusal(N_("You are not entered in **{name}**."), name=escape_name(record.name))
            with lost_race():
                await self.store.tournaments.remove_entrant(tournament_id, record.revision, mine[0].id)
            return await self.state(tournament_id)

    async def add_bots(self, tournament_id: int, user_id: int, is_manager: bool, count: int,
                       level: str | None, roles: Sequence[int] = ()) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self.registering(tournament_id)
            await self.require_organiser(record, user_id, is_manager, N_("add bot entrants"), roles)
            chosen = level or self.tables.level_for(record.guild_id)
            if chosen not in BOT_LEVELS:
                raise Refusal(N_("Bot levels are {levels}."), levels=", ".join(BOT_LEVELS))
            if not 1 <= count <= MAX_BOTS_AT_ONCE:
                raise Refusal(N_("`{:count}` is 1 to {high}."), high=MAX_BOTS_AT_ONCE)
            entrants = await self.store.tournaments.entrants(tournament_id)
            bots = sum(1 for e in entrants if e.is_bot and e.active)
            check_bot_entrants((await self.server_config(record.guild_id)).max_bot_entrants, bots, count, record.name)
            ceiling = await self._ceiling(record)
            if len(entrants) + count > ceiling:
                left = max(0, ceiling - len(entrants))  # (``count`` here is the bots asked for)
                more = said_n("{n} more entrant", "{n} more entrants", left)
                raise Refusal(N_("**{name}** can take {more}{limit}."), name=escape_name(record.name), more=more,
                              limit=self._whose(record, ceiling))
            taken = {e.name.split(" (")[0] for e in entrants}
            names = [n for n in BOT_NAMES if n not in taken]
            names += [f"Robo {i}" for i in range(1, MAX_ENTRANTS + 1) if f"Robo {i}" not in taken]
            for bot_name in names[:count]:
                record = await self.get(tournament_id)
                with lost_race():
                    await self.store.tournaments.add_entrant(tournament_id, record.revision, user_id=None,
                                                 name=f"{bot_name} ({chosen})", is_bot=True, level=chosen)
            return await self.state(tournament_id)

    async def open_checkin(self, tournament_id: int, user_id: int, is_manager: bool,
                           roles: Sequence[int] = ()) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self.registering(tournament_id)
            await self.require_organiser(record, user_id, is_manager, N_("open the check-in"), roles)
            if record.checkin:
                raise Refusal(N_("The check-in is already open."))
            with lost_race():
                await self.store.tournaments.open_checkin(tournament_id, record.revision)
            return await self.state(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int, roles: Sequence[int] | None = None) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self.registering(tournament_id)
            if not record.checkin:
                if record.starts_at is None:
                    raise Refusal(N_("The check-in has not opened yet."))
                raise Refusal(N_("The check-in has not opened yet. It opens <t:{when}:R>."),
                              when=int(check_in_opens(record.starts_at, record.checkin_minutes)))
            mine = [e for e in await self.store.tournaments.entrants(tournament_id)
                    if e.user_id == user_id and e.active]
            if not mine:
                raise Refusal(N_("You are not entered in **{name}**: join first."), name=escape_name(record.name))
            self._require_role(record, roles)
            if mine[0].checked_in:
                raise Refusal(N_("You have already checked in."))
            with lost_race():
                await self.store.tournaments.check_in(tournament_id, record.revision, mine[0].id)
            return await self.state(tournament_id)

    # ------------------------------------------------------------------ start

    async def check_start(self, tournament_id: int, user_id: int, is_manager: bool,
                          roles: Sequence[int] = ()) -> None:
        """What ``start`` would refuse before it pairs (who may, registration open, enough entrants): the command
        asks first, so that such a refusal is a plain private answer rather than one after a "thinking…"."""
        async with self.lock(tournament_id):
            await self._field_to_start(tournament_id, user_id, is_manager, roles)

    async def _field_to_start(self, tournament_id: int, user_id: int, is_manager: bool, roles: Sequence[int]
                              ) -> tuple[TournamentRecord, Settings, int, list[EntrantRecord],
                                         list[EntrantRecord], list[EntrantRecord]]:
        """(record, settings, planned rounds, players, waiting list, no-shows), or the refusal to start."""
        record = await self.registering(tournament_id)
        await self.require_organiser(record, user_id, is_manager, N_("start the tournament"), roles)
        settings = self.settings_of(record)
        entrants = [e for e in await self.store.tournaments.entrants(tournament_id) if e.active]
        no_shows = [e for e in entrants if record.checkin and not e.checked_in]
        ready = [e for e in entrants if e not in no_shows]
        # Beyond max_entrants, the first in sign-up order play; the rest stay on the waiting list.
        cap = record.max_entrants or len(ready)
        players, waitlisted = ready[:cap], ready[cap:]
        try:
            planned = check_start(settings, len(players))
        except TournamentRefusal as exc:
            if not no_shows:
                raise Refusal(exc.msgid, **exc.params) from None
            reason = Phrase(exc.msgid, **exc.params)
            if len(no_shows) == 1:
                raise Refusal(N_("{reason} (1 entrant has not checked in.)"), reason=reason) from None
            raise Refusal(N_("{reason} ({count} entrants have not checked in.)"), reason=reason,
                          count=len(no_shows)) from None
        return record, settings, planned, players, waitlisted, no_shows

    async def start(self, tournament_id: int, user_id: int, is_manager: bool,
                    roles: Sequence[int] = ()) -> StartOutcome:
        async with self.lock(tournament_id):
            record, settings, planned, players, waitlisted, no_shows = await self._field_to_start(
                tournament_id, user_id, is_manager, roles)
            rng = random.Random(secrets.randbits(62))
            lots = list(range(1, len(players) + 1))
            rng.shuffle(lots)
            humans = [e.user_id for e in players if e.user_id is not None]
            rated = await self.store.ratings.ratings_for(record.guild_id or 0, record.game, humans)
            seeding = {e.id: (lot, rated[e.user_id].ordinal if e.user_id in rated else 0.0)
                       for e, lot in zip(players, lots, strict=True)}
            pure = [Entrant(e.id, e.name, e.is_bot, seeding[e.id][0], seeding[e.id][1]) for e in players]
            step = await self.pairing.next_step(settings, pure, planned, [])
            if self.settings is not None and step.round is not None:  # the server's flood limit, as at /game new
                server = await self.settings.get(record.guild_id)
                check_tournament_threads(escape_name(record.name), len(step.round.tables),
                                         await self.store.tables.active_thread_tables(record.guild_id or 0),
                                         server.max_thread_tables)
            plan = self._plan(record, step)
            with lost_race():
                await self.store.tournaments.start_tournament(tournament_id, record.revision, planned_rounds=planned,
                                                              lots=seeding, no_shows=[e.id for e in no_shows],
                                                              first=plan, waitlisted=[e.id for e in waitlisted])
        await self.progress(tournament_id)  # a first round of byes only moves straight on
        return StartOutcome(await self.state(tournament_id), no_shows, waitlisted)

    def _plan(self, record: TournamentRecord, step: NextStep) -> RoundPlan:
        assert step.round is not None
        due = self.store.now() + record.round_time if record.round_time else None
        return RoundPlan(number=step.round.number, stage=step.stage,
                         tables=[(list(t.seats), [list(s) for s in t.sides]) for t in step.round.tables],
                         byes=list(step.round.bye_ids), due=due,
                         decided=[([p for side in r.sides for p in side], [list(s) for s in r.sides], list(r.places))
                                  for r in step.walkovers])

    # ---------------------------------------------------------------- rounds

    @staticmethod
    def pure_entrants(state: TournamentState) -> tuple[list[Entrant], set[int]]:
        """The field as the pairing functions see it (no-shows left out), and who has dropped."""
        field_ = [e for e in state.entrants if e.left not in NEVER_PLAYED]
        pure = [Entrant(e.id, e.name, e.is_bot, e.lot or 0, e.rating or 0.0) for e in field_]
        return pure, {e.id for e in field_ if not e.active}

    @staticmethod
    def played(state: TournamentState) -> list[StageRound]:
        out = []
        for rnd in state.rounds:
            results = tuple(TableResult(tuple(tuple(s) for s in p.sides), tuple(p.places))
                            for p in state.round_places(rnd.number) if p.places is not None)
            out.append(StageRound(rnd.stage, results, tuple(state.round_byes(rnd.number))))
        return out

    async def table_finished(self, table_id: int) -> list[Advance]:
        place = await self.store.tournaments.place_of_table(table_id)
        return [] if place is None else await self.progress(place.tournament_id)

    async def progress(self, tournament_id: int) -> list[Advance]:
        """Finish the current round if all its tables are over, and write the next (or name the champion);
        again while a new round has nothing to play (only byes and walkovers)."""
        done: list[Advance] = []
        async with self.lock(tournament_id):
            while True:
                state = await self.state(tournament_id)
                current = state.current
                if state.record.status != "playing" or current is None or current.status != "playing":
                    return done
                if any(p.status != "finished" for p in state.round_places(current.number)):
                    return done
                settings = self.settings_of(state.record)
                pure, dropped = self.pure_entrants(state)
                step = await self.pairing.next_step(settings, pure, state.record.planned_rounds or 0,
                                                    self.played(state), dropped, state.record.cut_seeds)
                try:
                    if step.round is None:
                        champion = list(step.champion or ())
                        await self.store.tournaments.advance_tournament(tournament_id, current.number,
                                                                        champion=champion, cut_seeds=step.seeds)
                        done.append(Advance(tournament_id, current.number, champion=champion))
                        return done
                    await self.store.tournaments.advance_tournament(tournament_id, current.number, cut_seeds=step.seeds,
                                                        next_round=self._plan(state.record, step))
                except TournamentChanged:
                    return done  # another change finished this round first
                done.append(Advance(tournament_id, current.number, new_round=step.round.number))

    async def _settle_pending(self, record: TournamentRecord) -> bool:
        """Tables of the current round not yet seated lose the players who have left since they were
        paired: reseated without them, or decided as a walkover. Call under the tournament's lock."""
        gone = {e.id for e in await self.store.tournaments.entrants(record.id) if not e.active}
        rounds = await self.store.tournaments.tournament_rounds(record.id)
        if not gone or not rounds or rounds[-1].status != "playing":
            return False
        settings = self.settings_of(record)
        changed = False
        for place in await self.store.tournaments.round_places(record.id, rounds[-1].number):
            if place.status != "pending":
                continue
            after = without(place.seats, place.sides, gone, settings.min_table, settings.teams is not None)
            if after is not None:
                changed |= await self.store.tournaments.rewrite_pending_place(
                    record.id, place.round, place.position, after.seats, after.sides, after.places)
        return changed

    async def settle(self, tournament_id: int) -> list[Advance]:
        """Before seating: take the players who left out of the tables not yet seated, and move the
        event on if that decided the round."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            if record.status != "playing" or not await self._settle_pending(record):
                return []
        return await self.progress(tournament_id)

    async def pending(self, tournament_id: int) -> list[PlaceRecord]:
        """Tables of the current round that still need a thread and a game."""
        state = await self.state(tournament_id)
        if state.record.status != "playing" or state.current is None:
            return []
        return [p for p in state.round_places(state.current.number) if p.status == "pending"]

    async def seat(self, place: PlaceRecord, thread_id: int) -> TableRecord:
        """Deal the game of one pending table in its thread, with the tournament's clock."""
        async with self.lock(place.tournament_id):
            record = await self.get(place.tournament_id)
            await self._settle_pending(record)  # a player who left since the pairing is never seated
            now_place = [p for p in await self.store.tournaments.round_places(record.id, place.round)
                         if p.position == place.position]
            if not now_place or now_place[0].status != "pending":
                raise Refusal(N_("That table is already seated."))
            place = now_place[0]
            entrants = {e.id: e for e in await self.store.tournaments.entrants(record.id)}
            seats = []
            for position, entrant_id in enumerate(place.seats):
                e = entrants[entrant_id]
                seats.append(SeatRecord(position, e.user_id, e.name, e.is_bot, level=e.level if e.is_bot else None))
            engine = get_engine(record.game)
            seed = self.tables.new_seed()
            state = engine.new_game(len(seats), seed, record.options)
            stub = TableRecord(id=0, guild_id=record.guild_id, channel_id=thread_id, game=record.game,
                               options=record.options, status="playing", seed=seed, version=0, snapshot=None,
                               host_id=record.organiser_id, posted_version=0, seats=seats,
                               turn_time=record.turn_time, parent_id=record.channel_id)
            timers = plan_turn(stub, None, engine.to_act(state), self.store.now(),
                               self.tables.delay_for(record.guild_id))
            try:
                table_id = await self.store.tables.seat_tournament_table(
                    record.id, place.round, place.position, guild_id=record.guild_id, channel_id=thread_id,
                    parent_id=record.channel_id, game=record.game, options=record.options, seed=seed,
                    host_id=record.organiser_id, seats=seats, snapshot=canonical(engine.dump(state)),
                    turn_time=record.turn_time, timers=timers)
            except StaleVersion:
                raise Refusal(N_("That table is already seated.")) from None
        self.tables.on_timers(None)
        return await self.tables.reload(table_id)

    async def mark_announced(self, tournament_id: int, number: int, level: int = 1) -> None:
        """Record that round ``number``'s pairings (level 1) or the event's end (level 2) were posted."""
        await self.store.tournaments.mark_round_announced(tournament_id, number, level)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message, so that its entrant list can be kept up to date."""
        await self.store.tournaments.set_tournament_message(tournament_id, message_id)

    async def set_event(self, tournament_id: int, event_id: int, ends_at: float) -> None:
        """Remember the tournament's Discord scheduled event and the end it was given."""
        await self.store.tournaments.set_tournament_event(tournament_id, event_id, ends_at)

    async def tournament_of_table(self, table_id: int) -> int | None:
        place = await self.store.tournaments.place_of_table(table_id)
        return None if place is None else place.tournament_id

    async def resume_work(self, owns: Callable[[int | None], bool] = lambda guild_id: True) -> list[int]:
        """After a restart: catch up rounds whose last table finished while the bot was down. Returns
        the tournaments that may still need posting (pending tables, pairings, the final standings).

        ``owns`` says which guilds this process serves (with several processes, its shards' guilds):
        a tournament spans one guild's channels, so the process holding that guild runs it."""
        ids = [r.id for r in await self.store.tournaments.running_tournaments() if owns(r.guild_id)]
        for tournament_id in ids:
            try:
                await self.progress(tournament_id)
            except Exception:
                log.exception("could not catch up tournament %s", tournament_id)
        finals = [t for t in await self.store.tournaments.unannounced_finals() if t not in ids]
        return ids + [t for t in finals if owns((await self.get(t)).guild_id)]

    # ---------------------------------------------------------- while playing

    async def drop(self, tournament_id: int, user_id: int) -> list[SeatNotice]:
        """Drop out: never paired again; a seat at a table in play is forfeited at once, and a table not
        yet seated is seated without the player (or decided as a walkover)."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            if record.status == "registration":
                raise Refusal(N_("**{name}** has not started: use `{/tournament leave}` instead."),
                              name=escape_name(record.name))
            if record.status != "playing":
                raise Refusal(N_("**{name}** is {status}."),
                              name=escape_name(record.name), status=Phrase(record.status))
            mine = [e for e in await self.store.tournaments.entrants(tournament_id) if e.user_id == user_id]
            if not mine or mine[0].left in NEVER_PLAYED:
                raise Refusal(N_("You are not entered in **{name}**."), name=escape_name(record.name))
            if not mine[0].active:
                raise Refusal(N_("You have already left **{name}**."), name=escape_name(record.name))
            try:
                places = await self.withdraw(record, mine[0])
            except TournamentChanged:
                raise Refusal(N_("You have already left **{name}**."), name=escape_name(record.name)) from None
        return await self.forfeit_at(places, mine[0], said(N_("🚪 **{name}** dropped from the tournament and "
                                                              "forfeits."), name=escape_name(mine[0].name)))

    async def withdraw(self, record: TournamentRecord, entrant: EntrantRecord,
                        reason: str = "drop") -> list[PlaceRecord]:
        """Under the lock: the entrant leaves (raises TournamentChanged if they had already), tables not
        yet seated are settled, and the tables in play where their seat must be forfeited are returned."""
        await self.store.tournaments.drop_entrant(record.id, entrant.id, reason)
        await self._settle_pending(record)
        return [p for p in await self.store.tournaments.round_places(record.id)
                if p.status == "playing" and p.table_id is not None and entrant.id in p.seats]

    async def forfeit_at(self, places: list[PlaceRecord], entrant: EntrantRecord, line: str) -> list[SeatNotice]:
        notices = []
        for place in places:
            assert place.table_id is not None
            notice = await self.tables.drop_seat(place.table_id, entrant.user_id or 0, line)
            if notice is not None:
                notices.append(notice)
        return notices

    async def advance(self, tournament_id: int, user_id: int, is_manager: bool,
                      roles: Sequence[int] = ()) -> list[SeatNotice]:
        """End a round whose time has passed: every table still playing ends as a draw, and a table not
        yet seated (its thread never opened) is drawn without play."""
        async with self.lock(tournament_id):
            record, current = await self._round_to_end(tournament_id, user_id, is_manager, roles)
            await self._settle_pending(record)
            for place in await self.store.tournaments.round_places(tournament_id, current.number):
                if place.status == "pending":
                    await self.store.tournaments.rewrite_pending_place(
                        tournament_id, place.round, place.position, place.seats, place.sides,
                        [1] * len(place.sides), drawn=True)
            places = [p for p in await self.store.tournaments.round_places(tournament_id, current.number)
                      if p.status == "playing" and p.table_id is not None]
        notices = []
        for place in places:
            assert place.table_id is not None
            notice = await self.tables.end_as_draw(
                place.table_id, said(N_("⏱️ Round {number}'s time is up: this table ends as a **draw**, every side "
                                        "sharing first place."), number=current.number))
            if notice is not None:
                notices.append(notice)
        return notices

    async def check_advance(self, tournament_id: int, user_id: int, is_manager: bool,
                            roles: Sequence[int] = ()) -> None:
        """What ``advance`` would refuse (who may, a round that can end now), asked before the command defers."""
        async with self.lock(tournament_id):
            await self._round_to_end(tournament_id, user_id, is_manager, roles)

    async def _round_to_end(self, tournament_id: int, user_id: int, is_manager: bool, roles: Sequence[int]
                            ) -> tuple[TournamentRecord, RoundRecord]:
        record = await self.get(tournament_id)
        await self.require_organiser(record, user_id, is_manager, N_("end a round"), roles)
        if record.status != "playing":
            raise Refusal(N_("**{name}** is not being played ({status})."), name=escape_name(record.name),
                          status=Phrase(record.status))
        rounds = await self.store.tournaments.tournament_rounds(tournament_id)
        current = rounds[-1]
        if record.round_time is None or current.due is None:
            raise Refusal(N_("This tournament has no `{:round_time}`, so a round ends when its last table does."))
        if current.due > self.store.now():
            raise Refusal(N_("Round {number} runs until <t:{when}:f> (<t:{when}:R>); `{/tournament advance}` can "
                             "end it after that."), number=current.number, when=int(current.due))
        return record, current

    async def check_cancel(self, tournament_id: int, user_id: int, is_manager: bool,
                           roles: Sequence[int] = ()) -> None:
        """What ``cancel`` would refuse (who may), asked before the command defers."""
        record = await self.get(tournament_id)
        await self.require_organiser(record, user_id, is_manager, N_("cancel the tournament"), roles)

    async def cancel(self, tournament_id: int, user_id: int, is_manager: bool,
                     roles: Sequence[int] = ()) -> list[TableRecord]:
        """Cancel the event; its tables still in play are closed."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            await self.require_organiser(record, user_id, is_manager, N_("cancel the tournament"), roles)
            with lost_race():
                await self.store.tournaments.cancel_tournament(tournament_id, record.revision)
            places = [p for p in await self.store.tournaments.round_places(tournament_id)
                      if p.status == "playing" and p.table_id is not None]
        closed = []
        for place in places:
            assert place.table_id is not None
            try:
                closed.append(await self.tables.abandon(0, record.organiser_id, True, place.table_id,
                                                       TOURNAMENT_CANCELLED))
            except Refusal:
                continue  # it finished meanwhile
        return closed

    # --------------------------------------------------------------- reading

    async def standings(self, tournament_id: int) -> tuple[TournamentState, list[Standing]]:
        """The standings of the main stage (Swiss or round robin; a bracket's entrants by results)."""
        state = await self.state(tournament_id)
        pure, dropped = self.pure_entrants(state)
        stage = main_stage(Format(state.record.format))
        history = [PlayedRound(r.results, r.byes) for r in self.played(state) if r.stage == stage]
        if len(pure) <= INLINE_UP_TO:
            return state, standings(pure, history, dropped)
        # A large field's tie-breakers take tens of ms (1,024 entrants over 10 rounds: about 55): in a thread,
        # which gives the loop its turns, as the pairings of large fields go to a worker.
        return state, await asyncio.to_thread(standings, pure, history, dropped)

    async def bracket(self, tournament_id: int) -> tuple[list[list[MatchRow]] | DoubleRows, str] | None:
        """The elimination bracket (the event's, or a 2-player top cut's once it began) with names: a list
        of rounds for single elimination, both brackets and the grand final for double; and its title, an
        ``i18n.Said`` ("Spring Cup · bracket") the presenter says in the server's language."""
        state = await self.state(tournament_id)
        record = state.record
        pure, _ = self.pure_entrants(state)
        played = self.played(state)
        double = (record.format == Format.DOUBLE_ELIMINATION.value
                  or (record.format == Format.SWISS.value and record.top_cut_format == "double"))
        if record.format in (Format.SINGLE_ELIMINATION.value, Format.DOUBLE_ELIMINATION.value):
            seeds, stage = seed_order(pure), ELIMINATION
        elif record.table_size == 2 and record.cut_seeds:
            seeds, stage = list(record.cut_seeds), CUT
        else:
            return None
        if len(seeds) < 2:
            return None
        results = [res for r in played if r.stage == stage for res in r.results]
        # Said from a message: the channel's post and the web page each show it in the server's language.
        title = said("{name} · {stage}", name=record.name, stage=msg(N_("top cut") if stage == CUT else N_("bracket")))
        if double:
            return double_bracket_view(seeds, results, state.names), title
        return bracket_view(seeds, results, state.names), title
