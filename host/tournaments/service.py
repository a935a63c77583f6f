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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from data.store import SeatRecord, StaleVersion, TableRecord
from data.tournaments import (
    AlreadyEntered,
    EntrantRecord,
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
from host.pairing import PairingPool
from host.replay import canonical
from host.seat_changes import SeatNotice
from host.tables import MAX_BOTS_NAMES, TableService
from host.tournaments.bracket_view import DoubleRows, MatchRow, bracket_view, double_bracket_view
from host.tournaments.elimination import seed_order
from host.tournaments.models import Entrant, Format, PlayedRound, Standing, TableResult
from host.tournaments.progress import CUT, ELIMINATION, NextStep, StageRound, main_stage
from host.tournaments.refusals import TournamentRefusal
from host.tournaments.settings import Settings, check_start, make_settings
from host.tournaments.standings import standings

log = logging.getLogger(__name__)

FORMAT_NAMES = {"swiss": "Swiss", "round_robin": "Round robin", "single_elimination": "Single elimination",
                "double_elimination": "Double elimination"}
#: Bot entrants one ``/tournament addbot`` may add, and in all.
MAX_BOTS_AT_ONCE = 32
MAX_ENTRANTS = 1024


@dataclass
class TournamentState:
    """Everything the presenters show about a tournament, read at one moment."""

    record: TournamentRecord
    entrants: list[EntrantRecord]
    rounds: list[RoundRecord]
    places: list[PlaceRecord]
    byes: list[tuple[int, int]]

    @property
    def title(self) -> str:
        return GAME_TITLES.get(self.record.game, self.record.game)

    @property
    def names(self) -> dict[int, str]:
        return {e.id: e.name for e in self.entrants}

    @property
    def current(self) -> RoundRecord | None:
        return self.rounds[-1] if self.rounds else None

    def round_places(self, number: int) -> list[PlaceRecord]:
        return [p for p in self.places if p.round == number]

    def round_byes(self, number: int) -> list[int]:
        return [e for r, e in self.byes if r == number]


@dataclass
class Advance:
    """What one step of the event did: rounds finished, a round written, or the champion named."""

    tournament_id: int
    finished_round: int
    new_round: int | None = None
    champion: list[int] | None = None


@dataclass
class StartOutcome:
    state: TournamentState
    no_shows: list[EntrantRecord] = field(default_factory=list)


@contextmanager
def _lost_race() -> Iterator[None]:
    """A change that another one beat (``TournamentChanged``) is refused; nothing was written."""
    try:
        yield
    except TournamentChanged:
        raise Refusal("The tournament changed just now; try again.") from None


class TournamentService:
    def __init__(self, tables: TableService, pairing: PairingPool | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        self._locks: dict[int, asyncio.Lock] = {}
        #: Pairs large fields in a worker process, off the event loop (issue 24).
        self.pairing = pairing or PairingPool()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ------------------------------------------------------------------ lookup

    async def require(self, channel_id: int) -> TournamentRecord:
        record = await self.store.active_tournament(channel_id)
        if record is None:
            raise Refusal("There is no tournament in this channel. An organiser opens one with `/tournament new`.")
        return record

    async def latest(self, channel_id: int) -> TournamentRecord:
        """The channel's running tournament, or its most recent one (for standings after the end)."""
        record = await self.store.active_tournament(channel_id) or await self.store.latest_tournament(channel_id)
        if record is None:
            raise Refusal("This channel has had no tournament. An organiser opens one with `/tournament new`.")
        return record

    async def get(self, tournament_id: int) -> TournamentRecord:
        record = await self.store.tournament(tournament_id)
        if record is None:
            raise Refusal("That tournament does not exist.")
        return record

    async def state(self, tournament_id: int) -> TournamentState:
        record = await self.get(tournament_id)
        return TournamentState(record, await self.store.entrants(tournament_id),
                               await self.store.tournament_rounds(tournament_id),
                               await self.store.round_places(tournament_id),
                               await self.store.tournament_byes(tournament_id))

    @staticmethod
    def settings_of(record: TournamentRecord) -> Settings:
        return make_settings(record.game, record.format, record.table_size, record.top_cut, record.rounds,
                             record.top_cut_format if record.top_cut else None)

    @staticmethod
    def _require_organiser(record: TournamentRecord, user_id: int, is_manager: bool, what: str,
                           manager_too: bool = True) -> None:
        if record.organiser_id != user_id and not (manager_too and is_manager):
            who = "the organiser or a member with Manage Server" if manager_too else "the organiser"
            raise Refusal(f"Only {who} can {what}.")

    # ------------------------------------------------------------ registration

    async def create(self, *, guild_id: int | None, channel_id: int, organiser_id: int, game: str, fmt: str,
                     rounds: int | None, table_size: int | None, top_cut: int | None, turn_time: int | None,
                     round_time: int | None, options: dict[str, Any] | None, name: str | None,
                     top_cut_format: str | None = None) -> TournamentState:
        try:
            settings = make_settings(game, fmt, table_size, top_cut or 0, rounds, top_cut_format)
        except TournamentRefusal as exc:
            raise Refusal(str(exc)) from None
        merged = self.tables.check_new(game, options)
        title = " ".join((name or "").split())[:80] or f"{GAME_TITLES[game]} {FORMAT_NAMES[settings.format.value]}"
        try:
            tournament_id = await self.store.create_tournament(
                guild_id=guild_id, channel_id=channel_id, name=title, game=game, format=settings.format.value,
                table_size=settings.table_size, top_cut=settings.top_cut, rounds=rounds, turn_time=turn_time,
                round_time=round_time, options=merged, organiser_id=organiser_id,
                top_cut_format=settings.top_cut_format)
        except TournamentBusy:
            busy = await self.store.active_tournament(channel_id)
            what = f" (**{busy.name}**, {busy.status})" if busy else ""
            raise Refusal(f"This channel already runs a tournament{what}. Open yours in another channel, "
                          "or wait until this one ends.") from None
        return await self.state(tournament_id)

    async def _registering(self, tournament_id: int) -> TournamentRecord:
        record = await self.get(tournament_id)
        if record.status == "registration":
            return record
        if record.status == "playing":
            raise Refusal(f"**{record.name}** has already started, so registration is closed.")
        raise Refusal(f"**{record.name}** is {record.status}.")

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self._registering(tournament_id)
            entrants = await self.store.entrants(tournament_id)
            if any(e.user_id == user_id for e in entrants):
                raise Refusal(f"You are already entered in **{record.name}**.")
            if len(entrants) >= MAX_ENTRANTS:
                raise Refusal(f"**{record.name}** is full ({MAX_ENTRANTS} entrants).")
            try:
                with _lost_race():
                    await self.store.add_entrant(tournament_id, record.revision, user_id=user_id, name=name[:64])
            except AlreadyEntered:
                raise Refusal(f"You are already entered in **{record.name}**.") from None
            return await self.state(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            if record.status == "playing":
                raise Refusal(f"**{record.name}** has started: use `/tournament drop` to stop playing in it.")
            record = await self._registering(tournament_id)
            mine = [e for e in await self.store.entrants(tournament_id) if e.user_id == user_id]
            if not mine:
                raise Refusal(f"You are not entered in **{record.name}**.")
            with _lost_race():
                await self.store.remove_entrant(tournament_id, record.revision, mine[0].id)
            return await self.state(tournament_id)

    async def add_bots(self, tournament_id: int, user_id: int, is_manager: bool, count: int,
                       level: str | None) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self._registering(tournament_id)
            self._require_organiser(record, user_id, is_manager, "add bot entrants")
            chosen = level or self.tables.level_for(record.guild_id)
            if chosen not in BOT_LEVELS:
                raise Refusal(f"Bot levels are {', '.join(BOT_LEVELS)}.")
            if not 1 <= count <= MAX_BOTS_AT_ONCE:
                raise Refusal(f"`count` is 1 to {MAX_BOTS_AT_ONCE}.")
            entrants = await self.store.entrants(tournament_id)
            if len(entrants) + count > MAX_ENTRANTS:
                raise Refusal(f"**{record.name}** can take {MAX_ENTRANTS - len(entrants)} more entrants.")
            taken = {e.name.split(" (")[0] for e in entrants}
            names = [n for n in MAX_BOTS_NAMES if n not in taken]
            names += [f"Robo {i}" for i in range(1, MAX_ENTRANTS + 1) if f"Robo {i}" not in taken]
            for bot_name in names[:count]:
                record = await self.get(tournament_id)
                with _lost_race():
                    await self.store.add_entrant(tournament_id, record.revision, user_id=None,
                                                 name=f"{bot_name} ({chosen})", is_bot=True, level=chosen)
            return await self.state(tournament_id)

    async def open_checkin(self, tournament_id: int, user_id: int, is_manager: bool) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self._registering(tournament_id)
            self._require_organiser(record, user_id, is_manager, "open the check-in")
            if record.checkin:
                raise Refusal("The check-in is already open.")
            with _lost_race():
                await self.store.open_checkin(tournament_id, record.revision)
            return await self.state(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentState:
        async with self.lock(tournament_id):
            record = await self._registering(tournament_id)
            if not record.checkin:
                raise Refusal("The check-in has not opened yet.")
            mine = [e for e in await self.store.entrants(tournament_id) if e.user_id == user_id]
            if not mine:
                raise Refusal(f"You are not entered in **{record.name}**: join first.")
            if mine[0].checked_in:
                raise Refusal("You have already checked in.")
            with _lost_race():
                await self.store.check_in(tournament_id, record.revision, mine[0].id)
            return await self.state(tournament_id)

    # ------------------------------------------------------------------ start

    async def start(self, tournament_id: int, user_id: int, is_manager: bool) -> StartOutcome:
        async with self.lock(tournament_id):
            record = await self._registering(tournament_id)
            self._require_organiser(record, user_id, is_manager, "start the tournament")
            settings = self.settings_of(record)
            entrants = [e for e in await self.store.entrants(tournament_id) if e.active]
            no_shows = [e for e in entrants if record.checkin and not e.checked_in]
            players = [e for e in entrants if e not in no_shows]
            try:
                planned = check_start(settings, len(players))
            except TournamentRefusal as exc:
                extra = (f" ({len(no_shows)} entrants have not checked in.)" if no_shows else "")
                raise Refusal(str(exc) + extra) from None
            rng = random.Random(secrets.randbits(62))
            lots = list(range(1, len(players) + 1))
            rng.shuffle(lots)
            humans = [e.user_id for e in players if e.user_id is not None]
            rated = await self.store.ratings_for(record.guild_id or 0, record.game, humans)
            seeding = {e.id: (lot, rated[e.user_id].ordinal if e.user_id in rated else 0.0)
                       for e, lot in zip(players, lots, strict=True)}
            pure = [Entrant(e.id, e.name, e.is_bot, seeding[e.id][0], seeding[e.id][1]) for e in players]
            step = await self.pairing.next_step(settings, pure, planned, [])
            plan = self._plan(record, step)
            with _lost_race():
                await self.store.start_tournament(tournament_id, record.revision, planned_rounds=planned, lots=seeding,
                                                  no_shows=[e.id for e in no_shows], first=plan)
        await self.progress(tournament_id)  # a first round of byes only moves straight on
        return StartOutcome(await self.state(tournament_id), no_shows)

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
        field_ = [e for e in state.entrants if e.left != "no_show"]
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
        place = await self.store.place_of_table(table_id)
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
                        await self.store.advance_tournament(tournament_id, current.number, champion=champion,
                                                            cut_seeds=step.seeds)
                        done.append(Advance(tournament_id, current.number, champion=champion))
                        return done
                    await self.store.advance_tournament(tournament_id, current.number, cut_seeds=step.seeds,
                                                        next_round=self._plan(state.record, step))
                except TournamentChanged:
                    return done  # another change finished this round first
                done.append(Advance(tournament_id, current.number, new_round=step.round.number))

    async def pending(self, tournament_id: int) -> list[PlaceRecord]:
        """Tables of the current round that still need a thread and a game."""
        state = await self.state(tournament_id)
        if state.record.status != "playing" or state.current is None:
            return []
        return [p for p in state.round_places(state.current.number) if p.status == "pending"]

    async def seat(self, place: PlaceRecord, thread_id: int) -> TableRecord:
        """Deal the game of one pending table in its thread, with the tournament's clock."""
        record = await self.get(place.tournament_id)
        entrants = {e.id: e for e in await self.store.entrants(record.id)}
        seats = []
        for position, entrant_id in enumerate(place.seats):
            e = entrants[entrant_id]
            seats.append(SeatRecord(position, e.user_id, e.name, e.is_bot, level=e.level if e.is_bot else None))
        engine = get_engine(record.game)
        seed = self.tables.new_seed()
        state = engine.new_game(len(seats), seed, record.options)
        stub = TableRecord(id=0, guild_id=record.guild_id, channel_id=thread_id, game=record.game,
                           options=record.options, status="playing", seed=seed, version=0, snapshot=None,
                           host_id=record.organiser_id, posted_version=0, seats=seats, turn_time=record.turn_time,
                           parent_id=record.channel_id)
        timers = plan_turn(stub, None, engine.to_act(state), self.store.now(), self.tables.delay_for(record.guild_id))
        try:
            table_id = await self.store.seat_tournament_table(
                record.id, place.round, place.position, guild_id=record.guild_id, channel_id=thread_id,
                parent_id=record.channel_id, game=record.game, options=record.options, seed=seed,
                host_id=record.organiser_id, seats=seats, snapshot=canonical(engine.dump(state)),
                turn_time=record.turn_time, timers=timers)
        except StaleVersion:
            raise Refusal("That table is already seated.") from None
        self.tables.on_timers(None)
        return await self.tables.reload(table_id)

    async def mark_announced(self, tournament_id: int, number: int, level: int = 1) -> None:
        """Record that round ``number``'s pairings (level 1) or the event's end (level 2) were posted."""
        await self.store.mark_round_announced(tournament_id, number, level)

    async def resume_work(self, owns: Callable[[int | None], bool] = lambda guild_id: True) -> list[int]:
        """After a restart: catch up rounds whose last table finished while the bot was down. Returns
        the tournaments that may still need posting (pending tables, pairings, the final standings).

        ``owns`` says which guilds this process serves (with several processes, its shards' guilds):
        a tournament spans one guild's channels, so the process holding that guild runs it."""
        ids = [r.id for r in await self.store.running_tournaments() if owns(r.guild_id)]
        for tournament_id in ids:
            try:
                await self.progress(tournament_id)
            except Exception:
                log.exception("could not catch up tournament %s", tournament_id)
        finals = [t for t in await self.store.unannounced_finals() if t not in ids]
        return ids + [t for t in finals if owns((await self.get(t)).guild_id)]

    # ---------------------------------------------------------- while playing

    async def drop(self, tournament_id: int, user_id: int) -> list[SeatNotice]:
        """Drop out: never paired again; a seat at a table still in play is forfeited at once."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            if record.status == "registration":
                raise Refusal(f"**{record.name}** has not started: use `/tournament leave` instead.")
            if record.status != "playing":
                raise Refusal(f"**{record.name}** is {record.status}.")
            mine = [e for e in await self.store.entrants(tournament_id) if e.user_id == user_id]
            if not mine:
                raise Refusal(f"You are not entered in **{record.name}**.")
            if not mine[0].active:
                raise Refusal(f"You have already left **{record.name}**.")
            try:
                await self.store.drop_entrant(tournament_id, mine[0].id)
            except TournamentChanged:
                raise Refusal(f"You have already left **{record.name}**.") from None
            places = [p for p in await self.store.round_places(tournament_id)
                      if p.status == "playing" and p.table_id is not None and mine[0].id in p.seats]
        notices = []
        for place in places:
            assert place.table_id is not None
            notice = await self.tables.drop_seat(place.table_id, user_id,
                                                 f"🚪 **{mine[0].name}** dropped from the tournament and forfeits.")
            if notice is not None:
                notices.append(notice)
        return notices

    async def advance(self, tournament_id: int, user_id: int, is_manager: bool) -> list[SeatNotice]:
        """End a round whose time has passed: every table still playing ends as a draw."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            self._require_organiser(record, user_id, is_manager, "end a round", manager_too=False)
            if record.status != "playing":
                raise Refusal(f"**{record.name}** is not being played ({record.status}).")
            rounds = await self.store.tournament_rounds(tournament_id)
            current = rounds[-1]
            if record.round_time is None or current.due is None:
                raise Refusal("This tournament has no `round_time`, so a round ends when its last table does.")
            if current.due > self.store.now():
                raise Refusal(f"Round {current.number} runs until <t:{int(current.due)}:f> (<t:{int(current.due)}:R>);"
                              " `/tournament advance` can end it after that.")
            places = [p for p in await self.store.round_places(tournament_id, current.number)
                      if p.status == "playing" and p.table_id is not None]
        notices = []
        for place in places:
            assert place.table_id is not None
            notice = await self.tables.end_as_draw(
                place.table_id, f"⏱️ Round {current.number}'s time is up: this table ends as a **draw**, "
                                "every side sharing first place.")
            if notice is not None:
                notices.append(notice)
        return notices

    async def cancel(self, tournament_id: int, user_id: int, is_manager: bool) -> list[TableRecord]:
        """Cancel the event; its tables still in play are closed."""
        async with self.lock(tournament_id):
            record = await self.get(tournament_id)
            self._require_organiser(record, user_id, is_manager, "cancel the tournament")
            with _lost_race():
                await self.store.cancel_tournament(tournament_id, record.revision)
            places = [p for p in await self.store.round_places(tournament_id)
                      if p.status == "playing" and p.table_id is not None]
        closed = []
        for place in places:
            assert place.table_id is not None
            try:
                closed.append(await self.tables.abandon(0, record.organiser_id, True, place.table_id))
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
        return state, standings(pure, history, dropped)

    async def bracket(self, tournament_id: int) -> tuple[list[list[MatchRow]] | DoubleRows, str] | None:
        """The elimination bracket (the event's, or a 2-player top cut's once it began) with names: a list
        of rounds for single elimination, both brackets and the grand final for double."""
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
        title = f"{record.name} · {'top cut' if stage == CUT else 'bracket'}"
        if double:
            return double_bracket_view(seeds, results, state.names), title
        return bracket_view(seeds, results, state.names), title
