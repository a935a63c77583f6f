"""The long-game use cases behind /game: a new table's clock and place, notify, mine, tables, status, log
and replay. The cog parses an interaction, calls these with plain values, and presents what they return."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.store import Store, TableRecord
from engines import get_engine
from host.durations import TURN_TIME_BOUNDS, parse_duration
from host.errors import Refusal
from host.limits import NEW_TABLE, check_new_table
from host.move_lines import events_of, line_of, lines_of
from host.parsing import parse_options, whole_number
from host.privacy import Sight
from host.read_models import (
    LOBBY,
    PLAYING,
    Bench,
    LobbyMessage,
    LoggedChange,
    LoggedMove,
    MineRow,
    MoveLog,
    MyTables,
    ReplayFrame,
    ServerTables,
    TableMessage,
    TableRow,
    Where,
)
from host.replay import rebuild
from host.settings import ServerSettings
from host.table_options import WITH_OPTIONS, listing
from host.table_views import clock_view, picture, seat_view
from host.tables import TableService
from i18n import N_

#: How many of the latest moves /game status tells.
STATUS_MOVES = 5


@dataclass(frozen=True)
class NewTable:
    """A checked /game new: what to create, and whether it opens in a thread of its own."""

    game_id: str
    title: str
    options: dict[str, Any]
    turn_time: int | None
    on_timeout: str
    in_own_thread: bool
    lobby_timeout: int


def where(table: TableRecord) -> Where:
    return Where(table.guild_id, table.channel_id, table.message_id)


def parse_table_number(text: str | None) -> int | None:
    if text is None:
        return None
    number = whole_number(text.strip().lstrip("#"), 1, 2**63 - 1)
    if number is None:
        raise Refusal(N_("`{:table}` is a table number, like `12`."))
    return number


def log_lines(records: Any) -> list[str]:
    """The public lines of logged moves: each move's label, then what it made happen."""
    return [line for r in records for line in (line_of(r.label, r.label_params), *events_of(r.events, r.event_ids))]


class LongGameService:
    """Same shape as TableService: built with what it needs, called with plain values, answering read models."""

    def __init__(self, store: Store, tables: TableService, settings: ServerSettings) -> None:
        self.store = store
        self.tables = tables
        self.settings = settings

    # --------------------------------------------------------------- new table

    async def check_new(self, guild_id: int | None, home_id: int, in_thread: bool, game_id: str,
                        options: str | None, turn_time: str | None, on_timeout: str | None,
                        thread: bool | None, user_id: int) -> NewTable:
        """Check a /game new by ``user_id`` in ``home_id`` (the channel, or the thread's parent) before anything
        is made: the flood limits last, so that the cooldown starts only for a table about to open."""
        server = await self.settings.require_play_here(guild_id, home_id, "Tables")
        engine = self.tables.game(game_id)
        try:
            parsed = parse_options(options)
        except Refusal as refused:  # a malformed option: say which options the game has, with their values
            raise Refusal(WITH_OPTIONS, refusal=refused, options=listing(engine)) from None
        self.tables.check_new(game_id, parsed)
        clock = (server.turn_time if turn_time is None
                 else parse_duration(turn_time, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1]))
        policy = on_timeout or server.on_timeout
        if policy not in ("bot", "forfeit"):
            raise Refusal(N_("`{:on_timeout}` is `bot` or `forfeit`."))
        own_thread = (server.thread if thread is None else thread) and not in_thread
        await check_new_table(self.store, guild_id, user_id, own_thread, max_open_tables=server.max_open_tables,
                              max_thread_tables=server.max_thread_tables)
        self.settings.cooldowns.take(guild_id, user_id, NEW_TABLE, server.new_cooldown)
        return NewTable(game_id, get_engine(game_id).title, parsed, clock, policy, own_thread, server.lobby_timeout)

    def not_opened(self, guild_id: int | None, user_id: int) -> None:
        """A /game new that passed ``check_new`` opened no table after all: its cooldown is given back."""
        self.settings.cooldowns.give_back(guild_id, user_id, NEW_TABLE)

    async def create(self, new: NewTable, *, guild_id: int | None, channel_id: int, parent_id: int | None,
                     user_id: int, user_name: str) -> LobbyMessage:
        table = await self.tables.create(
            guild_id=guild_id, channel_id=channel_id, game_id=new.game_id, options=new.options, user_id=user_id,
            user_name=user_name, turn_time=new.turn_time, on_timeout=new.on_timeout, parent_id=parent_id,
            lobby_timeout=new.lobby_timeout)
        return self.tables.lobby(table)

    # ----------------------------------------------------------- your tables

    async def set_notify(self, user_id: int, dm: str) -> bool:
        if dm not in ("on", "off"):
            raise Refusal(N_("`{:dm}` is `on` or `off`."))
        await self.store.settings.set_dm_notify(user_id, dm == "on")
        return dm == "on"

    async def mine(self, guild_id: int | None, user_id: int) -> MyTables:
        """A member's active tables in a server: their turns first, then those waiting for others, then lobbies."""
        rows: list[tuple[int, MineRow]] = []
        for table in await self.store.tables.tables_in_guild(guild_id or 0):
            seat = self.tables.seat_of(table, user_id)
            if seat is None:
                continue
            title = get_engine(table.game).title
            if table.status == LOBBY:
                rows.append((2, MineRow(table.id, title, table.status, False, (), None, False, where(table))))
                continue
            to_act = get_engine(table.game).to_act(await self.tables.state(table))
            deadlines = await self.tables.deadlines(table)
            if seat in to_act:
                rows.append((0, MineRow(table.id, title, table.status, True, (), deadlines.get(seat), table.paused,
                                        where(table))))
            else:
                soonest = min((d for s, d in deadlines.items() if s in to_act and d), default=None)
                waiting = tuple(table.seats[s].name for s in to_act)
                rows.append((1, MineRow(table.id, title, table.status, False, waiting, soonest, table.paused,
                                        where(table))))
        rows.sort(key=lambda r: r[0])
        return MyTables(tuple(row for _, row in rows))

    async def server_tables(self, guild_id: int | None) -> ServerTables:
        tables = await self.store.tables.tables_in_guild(guild_id or 0)

        def row(t: TableRecord) -> TableRow:
            engine = get_engine(t.game)
            return TableRow(t.id, engine.title, t.status, len(t.seats), engine.max_players, clock_view(t), where(t))

        return ServerTables(tuple(row(t) for t in tables if t.status == LOBBY),
                            tuple(row(t) for t in tables if t.status == PLAYING))

    async def status(self, channel_id: int) -> LobbyMessage | TableMessage:
        """/game status: the lobby, or the table with its latest moves."""
        table = await self.tables.require_table(channel_id)
        if table.status == LOBBY:
            return self.tables.lobby(table)
        recent = await self.store.tables.actions(table.id, max(0, table.version - STATUS_MOVES))
        return await self.tables.table_view(table, log_lines(recent))

    async def bench(self, channel_id: int) -> Bench:
        """/game bench: the bench of the channel's table, for a game that has one."""
        table = await self.tables.require_table(channel_id)
        view = await self.tables.public_view(table) if table.status != LOBBY else {}
        if "bench" not in view:
            raise Refusal(N_("This game has no bench."))
        return Bench(tuple(reversed(view["bench"])))

    # ------------------------------------------------------------- history

    async def table_channel(self, guild_id: int | None, table: int) -> int | None:
        """The channel or thread of ``table`` of this server, whose viewers may read it (None: no such table)."""
        found = await self.store.tables.get_table(table)
        return found.channel_id if found is not None and found.guild_id == guild_id else None

    async def history_table(self, guild_id: int | None, channel_id: int, table: int | None,
                            sight: Sight | None = None) -> TableRecord:
        """The channel's latest table, or ``table``: a table of this server in a channel the member can view.

        A table they cannot view gets the very answer of a table that does not exist, so the refusal tells
        nobody that a hidden table is there. No sight given: they see nothing beyond their own channel."""
        if table is not None:
            found = await self.store.tables.get_table(table)
            if (found is None or found.guild_id != guild_id
                    or not (sight or Sight(frozenset())).sees(found.channel_id)):
                raise Refusal(N_("There is no table #{table} in this server."), table=table)
            return found
        found = await self.store.tables.latest_table(channel_id)
        if found is None:
            raise Refusal(N_("This channel has had no table yet. Give a `{:table:}` number to reach another one."))
        return found

    async def move_log(self, guild_id: int | None, channel_id: int, table: int | None,
                       sight: Sight | None = None) -> MoveLog:
        return await self.log_of(await self.history_table(guild_id, channel_id, table, sight))

    async def log_of(self, record: TableRecord) -> MoveLog:
        """The move list of a table found by :meth:`history_table` (which refuses, in one read, before this
        reads a long log: the command answers a refusal before it says "thinking…")."""
        moves: list[LoggedMove] = []
        # A page at a time: a long game's log is never read in one hold of the event loop.
        async for page in self.store.tables.action_pages(record.id):
            # Each line said again from its stored message, so the log reads in its reader's language.
            moves.extend(LoggedMove(a.version, a.at, line_of(a.label, a.label_params),
                                    tuple(events_of(a.events, a.event_ids))) for a in page)
        # The seat changes' lines, said again from their stored messages too.
        changes = tuple(LoggedChange(version, at, tuple(lines_of(lines)))
                        for version, at, lines in await self.store.tables.seat_lines(record.id))
        return MoveLog(record.id, get_engine(record.game).title, record.status,
                       tuple(seat_view(s) for s in record.seats), tuple(moves), record.end_reason, changes)

    async def replay(self, guild_id: int | None, channel_id: int, move: int, table: int | None,
                     sight: Sight | None = None) -> ReplayFrame:
        return await self.replay_of(await self.history_table(guild_id, channel_id, table, sight), move)

    @staticmethod
    def check_replay(record: TableRecord, move: int, last: int | None = None) -> None:
        """Refuse a replay of ``record`` that cannot be drawn (a lobby, a move past ``last``, by default the
        record's version): from the record alone, the command answers this before it says "thinking…"."""
        if record.status == LOBBY:
            raise Refusal(N_("That table has not started yet."))
        last = record.version if last is None else last
        if not 0 <= move <= last:
            raise Refusal(N_("Table #{table} has moves 0 to {last}."), table=record.id, last=last)

    async def replay_of(self, record: TableRecord, move: int) -> ReplayFrame:
        """The table found by :meth:`history_table` as it stood after ``move``."""
        actions = await self.store.tables.actions(record.id)
        self.check_replay(record, move, len(actions))  # the record may be older than the log: the log has the last word
        engine = get_engine(record.game)
        state = rebuild(engine, record, actions[:move])
        # Each line said again from its stored message, so the replay reads in its reader's language.
        lines = tuple(line_of(a.label, a.label_params) for a in actions[:move])
        return ReplayFrame(record.id, engine.title, move, lines,
                           picture(record, engine.view(state, None)))
