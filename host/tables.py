"""Tables: lobbies, seats and the write-ahead application of actions.

Every action is applied under its table's lock, appended to the action log
and saved with the new snapshot in one transaction before anything is
returned to the caller, so nothing a player saw can be lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import i18n
from data.store import FORFEITED, ChannelBusy, SeatEvent, SeatRecord, StaleVersion, Store, TableRecord
from data.timers import BOT, DEADLINE, LOBBY, TimerPlan, TimerRecord
from engines import Engine, IllegalAction, get_engine
from engines.bots import BOT_LEVELS, bot_action
from engines.rng import Rng, seed_state
from host import table_views
from host.clock import closed_plan, paused_plan, plan_turn, resumed_plan
from host.errors import GameTitle, Phrase, Refusal, Several, StaleClick
from host.move_lines import move_line, stored
from host.names import BUTTON_LABEL, fill_names_fitted, fill_said
from host.outcomes import ABANDONED_BY_COMMAND, CHANNEL_DELETED, EVERYONE_LEFT, final_places
from host.rated import rating_plan
from host.read_models import HandPanel, LobbyMessage, TableMessage
from host.replay import agrees, canonical, rebuild
from host.results import ActOutcome, LobbyChange
from host.seat_changes import Reminder, SeatChanges, SeatNotice
from host.table_options import check_table_options
from host.table_views import seat_names
from host.thinking import INLINE_LEVELS
from render.markup import escape_name, label_name

log = logging.getLogger(__name__)

#: (game, snapshot, seat, salt, level) -> the bot's action.
Think = Callable[[str, dict[str, Any], int, int, str], Awaitable[str]]

#: Lobby messages of one table kept to edit at its start and close: a /game join typed in the channel
#: posts another each time, and each edit is a request in the channel's rate limit.
MAX_LOBBY_MESSAGES = 5
BOT_NAMES = ("Robo Ada", "Robo Bix", "Robo Cog", "Robo Dot", "Robo Eel", "Robo Fox")


def no_player_left(table: TableRecord) -> bool:
    """Whether only bots play on at ``table``: bot seats, and players who resigned, forfeited or dropped for good
    (a player a bot stands in for after timeouts may still come back, so they count as present)."""
    return all(s.is_bot or s.stand_in == FORFEITED for s in table.seats)


def bot_plays_note(seat: SeatRecord) -> str:
    """Why a member's own seat offers them no move: the table's bot plays it."""
    if seat.stand_in == FORFEITED:
        return i18n.N_("You gave up this seat (a resignation or a forfeit): a bot plays it to the end of the game.")
    return i18n.N_("A bot plays your seat after three timeouts in a row. Type `{/game return}` to take it back.")


def engine_reason(engine: Engine, state: Any, seat: int, action: str, names: list[str]) -> str:
    """Why the rules refuse ``action`` now, in the engine's words (a message, its seats named): engines check
    legality first in ``apply``, so asking it costs no move."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        return fill_said(exc.args[0], names) or i18n.said("That move isn't allowed.")
    return i18n.said("That move isn't allowed.")


class TableService:
    def __init__(self, store: Store, *, new_seed: Callable[[], int] | None = None, bot_delay: float = 0.0,
                 delay_for: Callable[[int | None], float] | None = None,
                 level_for: Callable[[int | None], str] | None = None, think: Think | None = None,
                 on_timers: Callable[[float | None], None] | None = None,
                 web_url: Callable[[TableRecord], str | None] | None = None) -> None:
        self.store = store
        self._new_seed = new_seed or (lambda: secrets.randbits(62))
        #: Seconds before a bot's move, unless the server's settings say otherwise (``delay_for``).
        self.bot_delay = bot_delay
        self.delay_for: Callable[[int | None], float] = delay_for or (lambda guild_id: self.bot_delay)
        #: Told the earliest due instant whenever timers change, so the scheduler can wake.
        self.on_timers: Callable[[float | None], None] = on_timers or (lambda due: None)
        #: The level of a new bot seat, and of the bot that stands in for a timed-out player, per server.
        self.level_for: Callable[[int | None], str] = level_for or (lambda guild_id: "easy")
        #: Computes a bot's move. The bot passes a process pool's (host.thinking.BotPool) so that search
        #: never runs on the event loop.
        self.think: Think = think or self._think_inline
        #: A table's web page, when its server's pages are on (host/web_links.py).
        self.web_url: Callable[[TableRecord], str | None] = web_url or (lambda table: None)
        # One lock per table serialises every change to it in this process (lobby edits,
        # start, moves, abandon); the store's revision and version checks guard the rest.
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: dict[int, tuple[int, Any]] = {}
        # This process is the only writer of its tables: with several processes, a guild's tables are
        # served by the process holding the guild's shard (host/shards.py). So a table read once stays
        # true until the service itself changes it, and the play path needs no reads at all. Should two
        # processes ever write one table (a takeover while the old owner still runs), a write from a
        # stale cache meets the store's version or revision check and is refused, never applied, and
        # the refusal reloads the table; a click drawn for a newer version than the cache reloads too.
        self._records: dict[int, TableRecord] = {}
        #: Timeouts, resign, replace, pause, resume and return: changes of a game in play (host/seat_changes.py).
        self.seat_changes = SeatChanges(self)

    def new_seed(self) -> int:
        return self._new_seed()

    @staticmethod
    async def _think_inline(game_id: str, snapshot: dict[str, Any], seat: int, salt: int, level: str) -> str:
        engine = get_engine(game_id)
        return bot_action(engine, engine.load(snapshot), seat, salt, level=level)

    def level_of(self, table: TableRecord, seat: int) -> str:
        return table.seats[seat].level or self.level_for(table.guild_id)

    async def bot_choice(self, table: TableRecord, state: Any, seat: int) -> str:
        """The move the seat's bot makes in ``state``: the same for the same table seed and version."""
        engine = self.engine_of(table)
        level = self.level_of(table, seat)
        if level in INLINE_LEVELS:
            # Rules of thumb cost well under a millisecond: no process hop, no snapshot round trip.
            return bot_action(engine, state, seat, table.seed + table.version, level=level)
        return await self.think(table.game, engine.dump(state), seat, table.seed + table.version, level)

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # ------------------------------------------------------------------ lookup

    async def table_in(self, channel_id: int) -> TableRecord | None:
        return await self.store.tables.active_table(channel_id)

    async def require_table(self, channel_id: int) -> TableRecord:
        table = await self.store.tables.active_table(channel_id)
        if table is None:
            threads = await self.store.tables.thread_tables_of(channel_id)
            if threads:  # this channel's tables play in threads of their own: say where
                where = Several(Phrase(i18n.N_("table #{table} in {thread}"), table=table_id, thread=f"<#{thread_id}>")
                                for table_id, thread_id in threads)
                raise Refusal(i18n.N_("This channel's tables play in their own threads: {where}. Use the command "
                                      "there."), where=where)
            raise Refusal(i18n.N_("There is no table in this channel. Start one with `{/game new}`."))
        return table

    async def get(self, table_id: int) -> TableRecord:
        cached = self._records.get(table_id)
        return cached if cached is not None else await self.reload(table_id)

    async def reload(self, table_id: int) -> TableRecord:
        table = await self.store.tables.get_table(table_id)
        if table is None:
            self._records.pop(table_id, None)
            raise Refusal(i18n.N_("That table does not exist."))
        self._records[table_id] = table
        return table

    def forget(self, table_id: int) -> None:
        """Drop the cached record of a table whose write may not have happened: the next read asks the store."""
        self._records.pop(table_id, None)

    async def mark_posted(self, table: TableRecord, message_id: int | None = None) -> None:
        """Remember that the table message for ``table.version`` went out (and which message it is)."""
        await self.store.tables.set_posted_version(table.id, table.version, message_id)
        cached = self._records.get(table.id)
        if cached is not None and cached.posted_version <= table.version:
            self._records[table.id] = replace(cached, posted_version=table.version,
                                              message_id=message_id or cached.message_id)

    async def add_lobby_message(self, table_id: int, message_id: int) -> list[int]:
        """Remember one more lobby message of the table; returns the older ones, at most
        ``MAX_LOBBY_MESSAGES - 1`` kept: the caller retires any that fell off the list."""
        async with self.lock(table_id):
            held = [m for m in await self.lobby_messages_of(table_id) if m != message_id] + [message_id]
            await self.store.tables.set_lobby_messages(table_id, held[-MAX_LOBBY_MESSAGES:])
            self.forget(table_id)
        return held[:-MAX_LOBBY_MESSAGES]

    async def forget_lobby_messages(self, table_id: int) -> None:
        """The table's lobby messages have been edited for its close: none is left to edit."""
        async with self.lock(table_id):
            await self.store.tables.set_lobby_messages(table_id, [])
            self.forget(table_id)

    async def lobby_messages_of(self, table_id: int) -> list[int]:
        """The table's lobby messages still to edit, read from the store: a cached record built before
        a message was posted would not know it."""
        table = await self.store.tables.get_table(table_id)
        return list(table.lobby_messages) if table is not None else []

    @staticmethod
    def engine_of(table: TableRecord) -> Engine:
        return get_engine(table.game)

    async def state(self, table: TableRecord) -> Any:
        """The table's current game state, from cache, snapshot, or (if corrupt) the log."""
        cached = self._states.get(table.id)
        if cached and cached[0] == table.version:
            return cached[1]
        engine = self.engine_of(table)
        try:
            state = engine.load(json.loads(table.snapshot or ""))
        except Exception:  # noqa: BLE001 - any corrupt snapshot is recovered the same way
            log.warning("table %s: snapshot unreadable, rebuilding from the action log", table.id)
            state = rebuild(engine, table, await self.store.tables.actions(table.id))
            snapshot = canonical(engine.dump(state))
            try:
                await self.store.tables.replace_snapshot(table.id, table.version, snapshot)
                self._records[table.id] = replace(table, snapshot=snapshot)
            except StaleVersion:  # the table moved on meanwhile; its new snapshot is the truth
                self._records.pop(table.id, None)
        self._states[table.id] = (table.version, state)
        return state

    @staticmethod
    def seat_of(table: TableRecord, user_id: int) -> int | None:
        for seat in table.seats:
            if seat.user_id == user_id:
                return seat.position
        return None

    # ------------------------------------------------------------------- lobby

    def game(self, game_id: str) -> Engine:
        """The engine of ``game_id``; an unknown game raises Refusal."""
        try:
            return get_engine(game_id)
        except (KeyError, ModuleNotFoundError):
            raise Refusal(i18n.N_("I don't know a game called `{game}`."), game=game_id[:40]) from None

    def check_new(self, game_id: str, options: dict[str, Any] | None) -> dict[str, Any]:
        """The game's options merged over its defaults; an unknown game, an unknown option or a value the game
        cannot use (host.table_options) raises Refusal."""
        return check_table_options(self.game(game_id), options)

    async def create(self, *, guild_id: int | None, channel_id: int, game_id: str,
                     options: dict[str, Any] | None, user_id: int, user_name: str,
                     turn_time: int | None = None, on_timeout: str = "bot", parent_id: int | None = None,
                     lobby_timeout: float | None = None) -> TableRecord:
        merged = self.check_new(game_id, options)
        try:
            table = await self.store.tables.create_table(guild_id=guild_id, channel_id=channel_id, game=game_id,
                                                         options=merged, seed=self._new_seed(), host_id=user_id,
                                                         host_name=user_name, turn_time=turn_time,
                                                         on_timeout=on_timeout, parent_id=parent_id,
                                                         lobby_timeout=lobby_timeout)
        except ChannelBusy:
            busy = await self.store.tables.active_table(channel_id)
            if busy is None:
                raise Refusal(i18n.N_("This channel already has a table. Use `{/game status}` to see it, or start "
                                      "yours in another channel or thread.")) from None
            raise Refusal(i18n.N_("This channel already has a table ({title}, table #{table}, {status}). Use "
                                  "`{/game status}` to see it, or start yours in another channel or thread."),
                          title=GameTitle(self.engine_of(busy).title), table=busy.id,
                          status=Phrase(busy.status)) from None
        if lobby_timeout is not None:
            self.on_timers(None)
        return table

    def _gone(self, table: TableRecord) -> Refusal:
        """The truth about a table that is no longer a lobby, for a lobby change that lost a race."""
        if table.status == "abandoned":
            return Refusal(i18n.N_("Table #{table} was just closed. Start a new one with `{/game new}`."),
                           table=table.id)
        if table.status == "finished":
            return Refusal(i18n.N_("The game at table #{table} is over. Start a new one with `{/game new}`."),
                           table=table.id)
        return Refusal(i18n.N_("The game has already started."))

    async def _edit_lobby(self, table_id: int,
                          edit: Callable[[TableRecord, list[SeatRecord]], int | None]) -> LobbyChange:
        """Apply ``edit`` to a copy of the lobby's seats and commit it if the lobby is unchanged.

        ``edit`` may return a new host id. A lobby left with no human closes in the same transaction.
        """
        async with self.lock(table_id):
            table = await self.reload(table_id)
            if table.status != "lobby":
                raise self._gone(table)
            seats = [replace(s) for s in table.seats]
            host = edit(table, seats)
            for i, seat in enumerate(seats):
                seat.position = i
            closed = not any(not s.is_bot for s in seats)
            try:
                if closed:
                    await self.store.tables.close_table(table.id, table.revision, seats,
                                                        closed_plan(table, self.store.now()), EVERYONE_LEFT)
                    self.on_timers(None)
                else:
                    await self.store.tables.set_lobby_seats(table.id, table.revision, seats, host)
            except StaleVersion:
                raise self._gone(await self.reload(table.id)) from None
            finally:
                self._records.pop(table.id, None)
            return LobbyChange(await self.reload(table.id), closed)

    async def join(self, channel_id: int, user_id: int, name: str, table_id: int | None = None) -> LobbyChange:
        def edit(table: TableRecord, seats: list[SeatRecord]) -> None:
            engine = self.engine_of(table)
            if any(s.user_id == user_id for s in seats):
                raise Refusal(i18n.N_("You are already at this table."))
            if len(seats) >= engine.max_players:
                raise Refusal(i18n.N_("The table is full ({n} seats)."), n=engine.max_players)
            seats.append(SeatRecord(len(seats), user_id, name, False))

        return await self._edit_lobby(table_id or (await self.require_table(channel_id)).id, edit)

    async def leave(self, channel_id: int, user_id: int, table_id: int | None = None) -> LobbyChange:
        def edit(table: TableRecord, seats: list[SeatRecord]) -> int | None:
            if not any(s.user_id == user_id for s in seats):
                raise Refusal(i18n.N_("You are not at this table."))
            seats[:] = [s for s in seats if s.user_id != user_id]
            humans = [s for s in seats if not s.is_bot]
            return humans[0].user_id if humans and table.host_id == user_id else None

        return await self._edit_lobby(table_id or (await self.require_table(channel_id)).id, edit)

    async def add_bot(self, channel_id: int, user_id: int, is_manager: bool,
                      table_id: int | None = None, level: str | None = None) -> LobbyChange:
        def edit(table: TableRecord, seats: list[SeatRecord]) -> None:
            self.require_host(table, user_id, is_manager, i18n.N_("add bot players"))
            engine = self.engine_of(table)
            if len(seats) >= engine.max_players:
                raise Refusal(i18n.N_("The table is full ({n} seats)."), n=engine.max_players)
            taken = {s.name.split(" (")[0] for s in seats}
            name = next(n for n in BOT_NAMES if n not in taken)
            chosen = level or self.level_for(table.guild_id)
            if chosen not in BOT_LEVELS:
                raise Refusal(i18n.N_("Bot levels are {levels}."), levels=", ".join(BOT_LEVELS))
            # The level is part of the name, so the lobby, the table image and every line show it.
            seats.append(SeatRecord(len(seats), None, f"{name} ({chosen})", True, level=chosen))

        return await self._edit_lobby(table_id or (await self.require_table(channel_id)).id, edit)

    @staticmethod
    def require_host(table: TableRecord, user_id: int, is_manager: bool, what: str) -> None:
        """Refuse a member who neither hosts ``table`` nor manages the server; ``what`` (a message id, what they
        asked to do) is said in their language."""
        if table.host_id != user_id and not is_manager:
            raise Refusal(i18n.N_("Only the table's host or a member with **Manage Server** can {what}."),
                          what=Phrase(what))

    async def start(self, channel_id: int, user_id: int, is_manager: bool,
                    table_id: int | None = None) -> TableRecord:
        table_id = table_id or (await self.require_table(channel_id)).id
        async with self.lock(table_id):
            table = await self.reload(table_id)
            if table.status != "lobby":
                raise self._gone(table)
            self.require_host(table, user_id, is_manager, i18n.N_("start the game"))
            engine = self.engine_of(table)
            n = len(table.seats)
            if n < engine.min_players:
                need = engine.min_players - n
                raise Refusal(i18n.N_("{title} needs at least {least} players: {need} more must `{/game join}`, "
                                      "or the host can `{/game addbot}`."), title=GameTitle(engine.title),
                              least=engine.min_players, need=need)
            seats = self._seating(engine, table)
            state = engine.new_game(n, table.seed, table.options)
            seated = replace(table, seats=seats)
            timers = plan_turn(seated, None, engine.to_act(state), self.store.now(), self.delay_for(table.guild_id))
            timers.drop_kinds.append(LOBBY)
            try:
                await self.store.tables.start_table(table.id, table.revision, seats,
                                                    canonical(engine.dump(state)), timers)
            except StaleVersion:
                raise self._gone(await self.reload(table.id)) from None
            finally:
                self._records.pop(table.id, None)
            table = await self.reload(table.id)
            self._states[table.id] = (0, state)
            self.on_timers(None)
            return table

    @staticmethod
    def _seating(engine: Engine, table: TableRecord) -> list[SeatRecord]:
        """Random seat order; in a partnership game humans sit together before bots fill in.

        So two friends who add two bots play as partners, not against each other.
        """
        rng = Rng(seed_state(table.seed ^ 0x5EA7))
        seats = [replace(s) for s in table.seats]
        rng.shuffle(seats)
        teams = getattr(engine, "teams", None)
        if teams and any(s.is_bot for s in seats):
            humans_first = [s for s in seats if not s.is_bot] + [s for s in seats if s.is_bot]
            positions = [p for team in teams for p in team]
            for seat, position in zip(humans_first, positions, strict=True):
                seat.position = position
            return sorted(seats, key=lambda s: s.position)
        for i, seat in enumerate(seats):
            seat.position = i
        return seats

    async def abandon(self, channel_id: int, user_id: int, is_manager: bool,
                      table_id: int | None = None, reason: str = ABANDONED_BY_COMMAND) -> TableRecord:
        table_id = table_id or (await self.require_table(channel_id)).id
        async with self.lock(table_id):
            table = await self.reload(table_id)
            if not table.active:
                # A whole sentence for each end, so that each language can agree its words with it.
                raise Refusal(i18n.N_("Table #{table} is already finished.") if table.status == "finished" else
                              i18n.N_("Table #{table} is already abandoned."), table=table.id)
            self.require_host(table, user_id, is_manager, i18n.N_("abandon the table"))
            place = await self.store.tournaments.place_of_table(table.id)
            event = None if place is None else await self.store.tournaments.tournament(place.tournament_id)
            if event is not None and event.status == "playing":
                # An abandoned table would never finish, and its round would wait for it forever.
                raise Refusal(i18n.N_("Table #{table} is part of the tournament **{name}**: the organiser can end "
                                      "its round with `{/tournament advance}` (after its `{:round_time}`) or "
                                      "`{/tournament cancel}`."), table=table.id, name=escape_name(event.name))
            try:
                await self.store.tables.close_table(table.id, table.revision,
                                                    timers=closed_plan(table, self.store.now()), reason=reason)
                self.on_timers(None)
            except StaleVersion:
                table = await self.reload(table.id)
                raise Refusal(i18n.N_("Table #{table} changed just now ({status}); try again."), table=table.id,
                              status=Phrase(table.status)) from None
            finally:
                self._records.pop(table.id, None)
            self._states.pop(table.id, None)
            return await self.reload(table.id)

    async def close_deleted(self, table_id: int) -> TableRecord | None:
        """The table's channel or thread was deleted: it ends as abandoned ("channel deleted"), its timers
        with it; a tournament's table ends as a draw instead, every side sharing first place, as when its round's
        time is up (abandoned, it left its round waiting for ever). None: it had already ended."""
        if await self.store.tournaments.place_of_table(table_id) is not None:
            notice = await self.end_as_draw(table_id, i18n.said(i18n.N_(
                "🗑️ This table's thread was deleted: it ends as a **draw**, every side sharing first place.")))
            return None if notice is None else notice.table
        async with self.lock(table_id):
            table = await self.reload(table_id)
            if not table.active:
                return None
            try:
                await self.store.tables.close_table(table.id, table.revision, reason=CHANNEL_DELETED)
            except StaleVersion:
                return None
            finally:
                self._records.pop(table.id, None)
            self._states.pop(table.id, None)
            return await self.reload(table.id)

    async def hold_lobbies(self, guild_id: int, *, hold: bool) -> None:
        """A server removed the bot (``hold``) or invited it back: its lobbies' timeouts stop, or run on with
        the time they had left, so a lobby waits for the re-invite instead of closing unseen."""
        now = self.store.now()
        for table in await self.store.tables.tables_in_guild(guild_id, ("lobby",)):
            async with self.lock(table.id):
                timers = await self.store.timers.timers_of(table.id)
                plan = paused_plan(timers, now) if hold else resumed_plan(timers, now)
                if plan.add:
                    await self.store.timers.change_timers(table.id, plan)
        self.on_timers(None)

    async def lose_channel(self, table_id: int) -> TableRecord | None:
        return await self.seat_changes.lose_channel(table_id)

    async def regain_channel(self, table_id: int) -> TableRecord | None:
        return await self.seat_changes.regain_channel(table_id)

    async def lost_tables(self, guild_id: int | None = None) -> list[tuple[int, int, int | None]]:
        return await self.store.tables.lost_tables(guild_id)

    async def open_tables_in(self, channel_id: int) -> list[int]:
        return await self.store.tables.open_tables_in(channel_id)

    # ------------------------------------------------------------------- play

    async def hand(self, table_id: int, user_id: int, lang: str = i18n.DEFAULT) -> HandPanel:
        """A seat's private panel; its move labels speak ``lang`` (the member's language)."""
        table = await self.get(table_id)
        if table.status == "lobby":
            raise Refusal(i18n.N_("The game has not started yet."))
        seat = self.seat_of(table, user_id)
        if seat is None:
            raise Refusal(i18n.N_("You are not playing at this table. You can watch the table messages."))
        engine = self.engine_of(table)
        state = await self.state(table)
        names = seat_names(table)
        choices: list[tuple[str, str]] = []
        # A seat the bot plays (after three timeouts, or given up) offers its member no move: the bot's
        # move and theirs would race.
        if table.status == "playing" and not table.seats[seat].bot_plays:
            # Names are shortened inside a label, never the action: a label fits a button (80).
            # Labels show no markdown: names there only lose what could ping or turn the line around.
            shown = [label_name(n) for n in names]
            describe = getattr(engine, "describe_for", None)
            choices = [(a, fill_names_fitted(i18n.say_text(lang, describe(state, seat, a) if describe
                                                           else engine.describe(state, a)), shown, BUTTON_LABEL))
                       for a in engine.legal_actions(state, seat)]
        # Only a seat with a move to make has a deadline worth showing (a clocked table's only: no read else).
        due = (await self.deadlines(table)).get(seat) if choices and table.turn_time else None
        return table_views.hand_panel(table, seat, state, choices, due)

    async def deadlines(self, table: TableRecord) -> dict[int, float | None]:
        """When each seat's time runs out. Only a table with a turn clock ever has deadlines
        (host.clock.seat_clock): the others, every casual table, need no read for them at each move."""
        if not table.turn_time:
            return {}
        return {t.seat: t.due for t in await self.store.timers.timers_of(table.id) if t.kind == DEADLINE}

    async def table_view(self, table: TableRecord, lines: Sequence[str]) -> TableMessage:
        """The read model of the public table message for ``table``, telling ``lines``."""
        places = await self.places(table) if table.status == "finished" else None
        return table_views.table_message(table, await self.state(table), lines, await self.deadlines(table), places,
                                         self.web_url(table))

    def lobby(self, table: TableRecord) -> LobbyMessage:
        return table_views.lobby(table, self.web_url(table))

    async def to_act(self, table: TableRecord) -> list[int]:
        """The seats that may act now."""
        return self.engine_of(table).to_act(await self.state(table))

    async def places(self, table: TableRecord) -> list[int]:
        """Each seat's final place: as recorded when the table finished (forfeits included)."""
        recorded = {seat: place for seat, _, place in await self.store.tables.results(table.id)}
        if recorded:
            return [recorded.get(s.position, len(table.seats)) for s in table.seats]
        return self.engine_of(table).outcome(await self.state(table))

    async def public_view(self, table: TableRecord) -> dict[str, Any]:
        return self.engine_of(table).view(await self.state(table), None)

    async def act(self, table_id: int, user_id: int, action: str, version: int | None = None) -> ActOutcome:
        """Apply a human's action; ``version`` is the table version the control was drawn for."""
        async with self.lock(table_id):
            table = await self.get(table_id)
            if version is not None and version > table.version:
                table = await self.reload(table_id)  # drawn by another process that wrote after our read
            self.require_playing(table)
            if version is not None and version != table.version:
                raise StaleClick(table.id)
            seat = self.seat_of(table, user_id)
            if seat is None:
                raise Refusal(i18n.N_("You are not playing at this table."))
            if table.seats[seat].bot_plays:
                raise Refusal(bot_plays_note(table.seats[seat]))
            return await self.apply(table, seat, action)

    async def bot_step(self, table_id: int) -> ActOutcome | None:
        """Let one bot seat that is to act make its move; None when no bot is to act.

        The bot thinks outside the table's lock (a search may take a second, in a worker process);
        its move is then applied with the version check, and a move computed for a version the
        table has left raises StaleClick: the bot timer that the newer change wrote tries again.
        """
        table = await self.get(table_id)
        if table.status != "playing" or table.paused:
            return None
        engine = self.engine_of(table)
        state = await self.state(table)
        bots = [s for s in engine.to_act(state) if table.seats[s].bot_plays]
        if not bots:
            return None
        seat = bots[0]
        action = await self.bot_choice(table, state, seat)
        async with self.lock(table_id):
            current = await self.get(table_id)
            # Every change bumps the revision, a move as well as a pause, /game return or a replacement
            # (which leave the version): the move would go to a table that has moved on or stopped, or to
            # a seat a member has taken back.
            if current.revision != table.revision:
                raise StaleClick(table_id)
            return await self.apply(current, seat, action, by_bot=True)

    async def drop_idle_bot_timer(self, table_id: int) -> None:
        """Drop the bot timer of a table where no bot is to act; a paused table keeps it for its resume."""
        async with self.lock(table_id):
            table = await self.get(table_id)
            if table.paused or await self.bots_to_act(table_id):
                return
            await self.store.timers.change_timers(table_id, TimerPlan(drop_kinds=[BOT]))

    async def bots_to_act(self, table_id: int) -> bool:
        table = await self.get(table_id)
        if table.status != "playing":
            return False
        state = await self.state(table)
        return any(table.seats[s].bot_plays for s in self.engine_of(table).to_act(state))

    @staticmethod
    def require_playing(table: TableRecord) -> None:
        if table.status == "lobby":
            raise Refusal(i18n.N_("The game has not started yet."))
        if table.status == "finished":
            raise Refusal(i18n.N_("This game is over. Start a new one with `{/game new}`."))
        if table.status == "abandoned":
            raise Refusal(i18n.N_("This table was abandoned. Start a new one with `{/game new}`."))

    async def apply(self, table: TableRecord, seat: int, action: str, *, by_bot: bool = False,
                     prefix: str = "", seats: list[SeatRecord] | None = None,
                     seat_events: list[SeatEvent] | None = None) -> ActOutcome:
        """Apply and commit one action for ``seat``; ``prefix`` heads its public line (a timeout's note)."""
        engine = self.engine_of(table)
        state = await self.state(table)
        names = seat_names(table)
        to_act = engine.to_act(state)
        if seat not in to_act:
            waiting: object = ", ".join(escape_name(names[s]) for s in to_act) or Phrase(i18n.N_("nobody"))
            raise Refusal(i18n.N_("It's not your turn. Waiting for {names}."), names=waiting)
        # The public line is markdown (and kept in the action log as such): names in it are escaped,
        # and render.markup.plain_text gives them back as written for the picture and the web pages.
        shown = [escape_name(n) for n in names]
        if action not in engine.legal_actions(state, seat):
            # The rules' own reason (an engine's message, said in the member's language by the guard) follows.
            raise Refusal(i18n.N_("`{action}` isn't a legal move for you right now. "
                                  "Open your hand or start typing in `{/play}` to see your choices.\n> {reason}"),
                          action=action[:80], reason=engine_reason(engine, state, seat, action, shown))
        try:
            label = engine.public_label(state, seat, action)
            new_state = engine.apply(state, seat, action)
        except IllegalAction as exc:
            raise Refusal(fill_said(exc.args[0], shown) or i18n.said("That move isn't allowed.")) from None
        events = [fill_said(e, shown) for e in engine.events(new_state)]
        line = move_line(prefix, shown[seat], fill_said(label, shown))
        over = engine.is_over(new_state)
        if seats is None and not by_bot and table.seats[seat].timeouts:
            # A move of the player's own resets their run of timeouts.
            seats = [replace(s, timeouts=0) if s.position == seat else s for s in table.seats]
        changed = table if seats is None else replace(table, seats=seats)
        results = None
        rating = None
        if over:
            places = final_places(engine, changed, engine.outcome(new_state))
            results = [(s.position, s.user_id, places[s.position]) for s in changed.seats]
            rating = rating_plan(engine, changed, places)
        snapshot = canonical(engine.dump(new_state))
        timers = plan_turn(changed, to_act, engine.to_act(new_state), self.store.now(),
                           self.delay_for(table.guild_id), over=over)
        try:
            version = await self.store.tables.commit_action(table.id, table.version, seat, action, line, events,
                                                            snapshot, results, timers, seats, seat_events or (),
                                                            rating=rating, said=stored(line, events))
        except StaleVersion:
            await self.reload(table.id)
            raise StaleClick(table.id) from None
        except BaseException:
            self._records.pop(table.id, None)  # the transaction rolled back; trust only the database
            raise
        self._states[table.id] = (version, new_state)
        table = replace(changed, version=version, snapshot=snapshot, status="finished" if over else "playing",
                        revision=table.revision + 1)
        self._records[table.id] = table
        self.on_timers(None)
        now_acting = engine.to_act(new_state)
        return ActOutcome(table=table, seat=seat, line=line, events=events,
                          turn_changed=now_acting != to_act or bool(events) or over,
                          over=over, state=new_state, entered=[s for s in now_acting if s not in to_act])

    async def verify_replay(self, table_id: int) -> bool:
        """Replaying the log from the seed gives the stored snapshot: byte for byte, or (a snapshot stored by
        an earlier build, without the fields added since) the same value in every field it has."""
        table = await self.reload(table_id)
        engine = self.engine_of(table)
        rebuilt = canonical(engine.dump(rebuild(engine, table, await self.store.tables.actions(table.id))))
        if rebuilt == table.snapshot:
            return True
        try:
            stored = json.loads(table.snapshot or "")
        except ValueError:
            return False
        return agrees(stored, json.loads(rebuilt))

    # ------------------------------------------------------------ seat changes

    async def timeout(self, timer: TimerRecord) -> SeatNotice | None:
        return await self.seat_changes.timeout(timer)

    async def reminder(self, timer: TimerRecord) -> Reminder | None:
        return await self.seat_changes.reminder(timer)

    async def lobby_timeout(self, timer: TimerRecord) -> TableRecord | None:
        return await self.seat_changes.lobby_timeout(timer)

    async def resign(self, channel_id: int, user_id: int, table_id: int | None = None) -> SeatNotice:
        return await self.seat_changes.resign(channel_id, user_id, table_id)

    async def drop_seat(self, table_id: int, user_id: int, line: str) -> SeatNotice | None:
        return await self.seat_changes.drop_seat(table_id, user_id, line)

    async def end_as_draw(self, table_id: int, line: str) -> SeatNotice | None:
        return await self.seat_changes.end_as_draw(table_id, line)

    async def replace_player(self, channel_id: int, user_id: int, is_manager: bool, player_id: int, new_id: int,
                             new_name: str, table_id: int | None = None, new_is_bot: bool = False) -> SeatNotice:
        return await self.seat_changes.replace_player(channel_id, user_id, is_manager, player_id, new_id, new_name,
                                                      table_id, new_is_bot)

    async def take_back(self, channel_id: int, user_id: int, table_id: int | None = None) -> SeatNotice:
        return await self.seat_changes.take_back(channel_id, user_id, table_id)

    async def pause(self, channel_id: int, user_id: int, is_manager: bool, table_id: int | None = None) -> SeatNotice:
        return await self.seat_changes.pause(channel_id, user_id, is_manager, table_id)

    async def resume(self, channel_id: int, user_id: int, is_manager: bool, table_id: int | None = None) -> SeatNotice:
        return await self.seat_changes.resume(channel_id, user_id, is_manager, table_id)
