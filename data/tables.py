"""Game tables: their seats, the action log, results and seat events (``Store.tables``).

A move appends to the log and saves the snapshot and version in one transaction (``commit_action``);
the clock changes, results, tournament place and rating change it causes are written in that same
transaction. Every change other than a move carries the table's ``revision``, moves its ``version``:
a writer that read an older one changes nothing and learns so (``StaleVersion``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from data.backends.base import IntegrityError, Row, Tx
from data.database import PAGE, Database
from data.ratings import RatingPlan, RatingStore, apply_rating
from data.revisions import bump_revision
from data.sql import ShardSet, shard_filter
from data.timers import LOBBY, TABLE_WIDE, TimerPlan, TimerRecord, write_plan
from data.tournaments import record_tournament_result

ACTIVE = ("lobby", "playing")
#: Table and user ids are Discord snowflakes or row ids: both fit a signed 64-bit integer.
MAX_ID = 2**63 - 1
#: ``game_tables.paused``: 0 plays, 1 paused by a person (/game pause), LOST_CHANNEL paused by the bot
#: because Discord refused its posts in the table's channel.
LOST_CHANNEL = 2
#: The newest table of a channel: served by the ``tables_by_channel`` index (migration 5).
LATEST_TABLE = "SELECT * FROM game_tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1"
#: ``commit_action`` as one statement, for a backend that runs a lone statement as its own transaction
#: (PostgreSQL): the log row is written only if the version check's UPDATE moved the table.
_COMMIT_MOVE = (
    "WITH moved AS (UPDATE game_tables SET version = ?, snapshot = ?, status = ?, updated_at = ?,"
    " revision = revision + 1 WHERE id = ? AND version = ? AND status = 'playing' RETURNING id)"
    " INSERT INTO actions (table_id, version, seat, action, label, events, at, label_id, label_params, event_ids)"
    " SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM moved")


class StaleVersion(Exception):
    """The table moved on between reading it and committing a change."""


class ChannelBusy(Exception):
    """The channel already has an active table."""


#: ``SeatRecord.stand_in``: who plays a human's seat.
PLAYER = 0  # the player
STAND_IN = 1  # a bot, after three timeouts in a row; the player may /game return
FORFEITED = 2  # a bot, for good: the player forfeited or resigned


#: A row of ``seat_events`` as written: (seat, kind, the seat's user, the member who made the change), and
#: optionally the lines that told the table about it (JSON of their messages, host/move_lines.py).
SeatEvent = tuple[int, str, int | None, int | None] | tuple[int, str, int | None, int | None, str | None]


@dataclass
class SeatRecord:
    position: int
    user_id: int | None
    name: str
    is_bot: bool
    level: str | None = None
    timeouts: int = 0
    stand_in: int = PLAYER

    @property
    def bot_plays(self) -> bool:
        """Whether the table's bot makes this seat's moves."""
        return self.is_bot or self.stand_in != PLAYER


@dataclass
class TableRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    status: str
    seed: int
    version: int
    snapshot: str | None
    host_id: int
    posted_version: int
    #: Bumped by every change of the table's state (lobby edits, start, moves, abandon):
    #: the optimistic check that non-move changes carry, as moves carry ``version``.
    revision: int = 0
    seats: list[SeatRecord] = field(default_factory=list)
    #: Seconds a seat has to act, or None for no clock.
    turn_time: int | None = None
    on_timeout: str = "bot"
    #: For a thread table, the channel its thread belongs to (``channel_id`` is the thread).
    parent_id: int | None = None
    paused: bool = False
    #: Paused by the bot itself: Discord refused its posts there (403/404), so its clocks wait until a
    #: post there succeeds again (stored as ``paused = LOST_CHANNEL``).
    lost: bool = False
    #: The newest public table message, for links.
    message_id: int | None = None
    #: The lobby messages still to edit when the table starts or closes (none once it has closed).
    lobby_messages: list[int] = field(default_factory=list)
    #: Why an abandoned table ended ("channel deleted", "lobby timed out"…); None while active, or not known.
    end_reason: str | None = None

    @property
    def active(self) -> bool:
        return self.status in ACTIVE


@dataclass
class ActionRecord:
    version: int
    seat: int
    action: str
    label: str
    events: list[str]
    at: float
    #: The message the label and events were said from (host/move_lines.py), None for older moves.
    label_id: str | None = None
    label_params: str | None = None
    event_ids: str | None = None



class TableStore:
    """The game tables' reads and writes, on the store's shared :class:`Database`."""

    def __init__(self, db: Database, ratings: RatingStore) -> None:
        self._db = db
        #: A finished table is rated in its results' transaction, under the ratings' lock.
        self._ratings = ratings

    # ----------------------------------------------------------------- tables

    async def create_table(self, *, guild_id: int | None, channel_id: int, game: str,
                           options: dict[str, Any], seed: int, host_id: int, host_name: str,
                           turn_time: int | None = None, on_timeout: str = "bot", parent_id: int | None = None,
                           lobby_timeout: float | None = None) -> TableRecord:
        now = self._db.now()
        try:
            async with self._db.transaction() as tx:
                written = await tx.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id,"
                    " created_at, updated_at, turn_time, on_timeout, parent_id)"
                    " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, json.dumps(options, sort_keys=True), seed, host_id, now, now,
                     turn_time, on_timeout, parent_id))
                table_id = int(written.lastrowid or 0)
                await tx.execute(
                    "INSERT INTO seats (table_id, position, user_id, name, is_bot) VALUES (?, 0, ?, ?, 0)",
                    (table_id, host_id, host_name))
                if lobby_timeout is not None:
                    await write_plan(tx, table_id, TimerPlan(add=[TimerRecord(table_id, LOBBY, TABLE_WIDE,
                                                                              now + lobby_timeout, None, now)]))
        except IntegrityError as exc:
            raise ChannelBusy from exc
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def seat_tournament_table(self, tournament_id: int, round_number: int, position: int, *,
                                    guild_id: int | None, channel_id: int, parent_id: int, game: str,
                                    options: dict[str, Any], seed: int, host_id: int, seats: Sequence[SeatRecord],
                                    snapshot: str, turn_time: int | None, timers: TimerPlan) -> int:
        """Create a tournament table already dealt, and link it to its place in the round: all or nothing.

        Refused (``StaleVersion``) if that place already has a table, so a place is never seated twice.
        """
        now = self._db.now()
        async with self._db.transaction() as tx:
            written = await tx.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game, options, status, seed, host_id, created_at,"
                " updated_at, turn_time, on_timeout, parent_id, snapshot, version)"
                " VALUES (?, ?, ?, ?, 'playing', ?, ?, ?, ?, ?, 'bot', ?, ?, 0)",
                (guild_id, channel_id, game, json.dumps(options, sort_keys=True), seed, host_id, now, now, turn_time,
                 parent_id, snapshot))
            table_id = int(written.lastrowid or 0)
            linked = await tx.execute(
                "UPDATE tournament_tables SET table_id = ?, status = 'playing'"
                " WHERE tournament_id = ? AND round = ? AND position = ? AND table_id IS NULL AND status = 'pending'",
                (table_id, tournament_id, round_number, position))
            if linked.rowcount != 1:
                raise StaleVersion(f"tournament {tournament_id} round {round_number} table {position} is seated")
            await self._replace_seats(tx, table_id, seats)
            plan = replace(timers, add=[replace(t, table_id=table_id) for t in timers.add])
            await write_plan(tx, table_id, plan)
        return table_id

    async def get_table(self, table_id: int) -> TableRecord | None:
        if not 0 < table_id <= MAX_ID:
            return None
        row = await self._db.one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else await self._with_seats(row)

    async def active_table(self, channel_id: int) -> TableRecord | None:
        row = await self._db.one("SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                              (channel_id,))
        return None if row is None else await self._with_seats(row)

    async def thread_tables_of(self, parent_id: int) -> list[tuple[int, int]]:
        """``(table id, thread id)`` of the open tables in threads of channel ``parent_id``, newest first."""
        rows = await self._db.all("SELECT id, channel_id FROM game_tables WHERE parent_id = ?"
                                  " AND status IN ('lobby', 'playing') ORDER BY id DESC LIMIT 5", (parent_id,))
        return [(r["id"], r["channel_id"]) for r in rows]

    async def open_tables_hosted(self, guild_id: int, user_id: int) -> int:
        """How many lobbies and games ``user_id`` hosts in a server that have not ended (tournament tables,
        hosted by their organiser, are not theirs to count)."""
        row = await self._db.one("SELECT COUNT(*) AS n FROM game_tables WHERE guild_id = ? AND host_id = ?"
                                 " AND status IN ('lobby', 'playing') AND id NOT IN"
                                 " (SELECT table_id FROM tournament_tables WHERE table_id IS NOT NULL)",
                                 (guild_id, user_id))
        return int(row["n"]) if row is not None else 0

    async def active_thread_tables(self, guild_id: int) -> int:
        """How many tables of a server play in threads and have not ended."""
        row = await self._db.one("SELECT COUNT(*) AS n FROM game_tables WHERE guild_id = ? AND parent_id IS NOT NULL"
                                 " AND status IN ('lobby', 'playing')", (guild_id,))
        return int(row["n"]) if row is not None else 0

    async def unposted_tables(self, shards: ShardSet | None = None) -> list[TableRecord]:
        """Tables whose newest committed change never reached their channel (a crash between the two);
        with ``shards``, only those in guilds on those shards."""
        owned, params = shard_filter("guild_id", shards)
        rows = await self._db.all("SELECT * FROM game_tables WHERE status IN ('playing', 'finished')"
                               f" AND posted_version < version{' AND ' + owned if owned else ''} ORDER BY id", params)
        return await self._with_seats_all(rows)

    async def lost_tables(self, guild_id: int | None = None) -> list[tuple[int, int, int | None]]:
        """``(table id, channel id, guild id)`` of the games paused because the bot lost their channel."""
        where, params = ("", ()) if guild_id is None else (" AND guild_id = ?", (guild_id,))
        rows = await self._db.all("SELECT id, channel_id, guild_id FROM game_tables WHERE status = 'playing'"
                                  f" AND paused = ?{where} ORDER BY id", (LOST_CHANNEL, *params))
        return [(r["id"], r["channel_id"], r["guild_id"]) for r in rows]

    async def open_tables_in(self, channel_id: int) -> list[int]:
        """The lobbies and games in play in a channel or a thread, or in the threads of that channel."""
        rows = await self._db.all("SELECT id FROM game_tables WHERE (channel_id = ? OR parent_id = ?)"
                                  " AND status IN ('lobby', 'playing') ORDER BY id", (channel_id, channel_id))
        return [r["id"] for r in rows]

    async def all_tables(self) -> list[TableRecord]:
        rows = await self._db.all("SELECT * FROM game_tables ORDER BY id")
        return await self._with_seats_all(rows)

    async def tables_in_guild(self, guild_id: int, statuses: Sequence[str] = ACTIVE) -> list[TableRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.all(f"SELECT * FROM game_tables WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
                               (guild_id, *statuses))
        return await self._with_seats_all(rows)

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The newest table of a channel or thread, finished or not."""
        row = await self._db.one(LATEST_TABLE, (channel_id,))
        return None if row is None else await self._with_seats(row)

    async def _with_seats(self, row: Row) -> TableRecord:
        return (await self._with_seats_all([row]))[0]

    async def _with_seats_all(self, rows: Sequence[Row]) -> list[TableRecord]:
        """The tables of ``rows`` with their seats, read in one query per page of tables, not one per table."""
        seats: dict[int, list[SeatRecord]] = {r["id"]: [] for r in rows}
        ids = list(seats)
        for start in range(0, len(ids), PAGE):
            chunk = ids[start:start + PAGE]
            for r in await self._db.all(
                    "SELECT table_id, position, user_id, name, is_bot, level, timeouts, stand_in FROM seats"
                    f" WHERE table_id IN ({', '.join('?' for _ in chunk)}) ORDER BY table_id, position", chunk):
                seats[r["table_id"]].append(SeatRecord(r["position"], r["user_id"], r["name"], bool(r["is_bot"]),
                                                       r["level"], r["timeouts"], r["stand_in"]))
        return [TableRecord(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], game=row["game"],
            options=json.loads(row["options"]), status=row["status"], seed=row["seed"],
            version=row["version"], snapshot=row["snapshot"], host_id=row["host_id"],
            posted_version=row["posted_version"], revision=row["revision"], seats=seats[row["id"]],
            turn_time=row["turn_time"], on_timeout=row["on_timeout"], parent_id=row["parent_id"],
            paused=bool(row["paused"]), lost=row["paused"] == LOST_CHANNEL, message_id=row["message_id"],
            lobby_messages=json.loads(row["lobby_messages"] or "[]"), end_reason=row["end_reason"]) for row in rows]

    @staticmethod
    async def _replace_seats(tx: Tx, table_id: int, seats: Sequence[SeatRecord]) -> None:
        await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await tx.executemany(
            "INSERT INTO seats (table_id, position, user_id, name, is_bot, level, timeouts, stand_in)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, s.position, s.user_id, s.name, int(s.is_bot), s.level, s.timeouts, s.stand_in)
             for s in seats])

    @staticmethod
    async def _bump(tx: Tx, table_id: int, revision: int, statuses: Sequence[str], sets: str = "",
                    params: Sequence[Any] = ()) -> None:
        """Move the table from ``revision`` to the next, if it is still there and in one of ``statuses``."""
        if not await bump_revision(tx, "game_tables", table_id, revision, statuses, sets, params):
            raise StaleVersion(f"table {table_id} changed since revision {revision}")

    async def set_lobby_seats(self, table_id: int, revision: int, seats: Sequence[SeatRecord],
                              host_id: int | None = None) -> None:
        """Replace a lobby's seat list (join, leave, add bot), and its host if given, all or nothing."""
        async with self._db.transaction() as tx:
            if host_id is None:
                await self._bump(tx, table_id, revision, ("lobby",), ", updated_at = ?", (self._db.now(),))
            else:
                await self._bump(tx, table_id, revision, ("lobby",), ", updated_at = ?, host_id = ?",
                                 (self._db.now(), host_id))
            await self._replace_seats(tx, table_id, seats)

    async def close_table(self, table_id: int, revision: int, seats: Sequence[SeatRecord] | None = None,
                          timers: TimerPlan | None = None, reason: str | None = None) -> None:
        """Abandon a lobby or a game in play (with its final seat list, if it changed), for ``reason``; its
        timers go, replaced by ``timers`` when given (a thread table's archive)."""
        async with self._db.transaction() as tx:
            await self._bump(tx, table_id, revision, ACTIVE, ", status = 'abandoned', updated_at = ?, end_reason = ?",
                             (self._db.now(), reason))
            if seats is not None:
                await self._replace_seats(tx, table_id, seats)
            await write_plan(tx, table_id, timers or TimerPlan(drop_all=True))

    async def start_table(self, table_id: int, revision: int, seats: Sequence[SeatRecord], snapshot: str,
                          timers: TimerPlan | None = None) -> None:
        """Fix the seat order and store the opening snapshot at version 0, with the first clocks."""
        async with self._db.transaction() as tx:
            await self._bump(tx, table_id, revision, ("lobby",),
                             ", status = 'playing', version = 0, snapshot = ?, updated_at = ?",
                             (snapshot, self._db.now()))
            await self._replace_seats(tx, table_id, seats)
            await write_plan(tx, table_id, timers)

    async def change_table(self, table_id: int, revision: int, *, seats: Sequence[SeatRecord] | None = None,
                           paused: bool | None = None, lost: bool = False, timers: TimerPlan | None = None,
                           results: list[tuple[int, int | None, int]] | None = None,
                           events: Sequence[SeatEvent] = (),
                           rating: RatingPlan | None = None, drawn: bool = False) -> None:
        """A change to a game in play other than a move (pause, resume, replace, resign, return, a forfeit
        that ends the game), all or nothing, if the table is still at ``revision``.

        ``lost`` pauses it as the bot's own doing (it lost the channel), not a person's.
        ``events`` are (seat, kind, user, by_user) rows for the seat's history; ``results`` finish the table
        (``drawn``: ended as a draw by its tournament), and ``rating`` rates it in the same transaction.
        """
        now = self._db.now()
        async with self._rating_guard(rating), self._db.transaction() as tx:
            sets, params = ", updated_at = ?", [now]
            if paused is not None:
                sets += ", paused = ?"
                params.append(LOST_CHANNEL if paused and lost else int(paused))
            if results is not None:
                sets += ", status = 'finished'"
            await self._bump(tx, table_id, revision, ("playing",), sets, params)
            if seats is not None:
                await self._replace_seats(tx, table_id, seats)
            await write_plan(tx, table_id, timers)
            if results is not None:
                await self._record_results(tx, table_id, results, rating, now, drawn)
            await self._seat_events(tx, table_id, events, now)

    def _rating_guard(self, rating: RatingPlan | None) -> AbstractAsyncContextManager[object]:
        return nullcontext() if rating is None else self._ratings.lock

    @staticmethod
    async def _record_results(tx: Tx, table_id: int, results: Sequence[tuple[int, int | None, int]],
                              rating: RatingPlan | None, now: float, drawn: bool = False) -> None:
        """A finished table's places, its tournament place's result and its rating change: one transaction."""
        await tx.executemany("INSERT INTO results (table_id, seat, user_id, place) VALUES (?, ?, ?, ?)",
                             [(table_id, s, u, p) for s, u, p in results])
        await record_tournament_result(tx, table_id, results, drawn)
        if rating is not None:
            await apply_rating(tx, table_id, rating, now)

    @staticmethod
    async def _seat_events(tx: Tx, table_id: int, events: Sequence[SeatEvent],
                           now: float) -> None:
        if not events:
            return
        row = await tx.fetchone("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        version = int(row[0]) if row else 0
        await tx.executemany("INSERT INTO seat_events (table_id, version, seat, kind, user_id, by_user, at, lines)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [(table_id, version, *event[:4], now, event[4] if len(event) > 4 else None)
                              for event in events])

    async def seat_events(self, table_id: int) -> list[tuple[int, int, str, int | None, int | None, float]]:
        rows = await self._db.all("SELECT version, seat, kind, user_id, by_user, at FROM seat_events WHERE table_id = ?"
                               " ORDER BY id", (table_id,))
        return [(r["version"], r["seat"], r["kind"], r["user_id"], r["by_user"], r["at"]) for r in rows]

    async def seat_lines(self, table_id: int) -> list[tuple[int, float, str]]:
        """The stored lines of the table's seat changes, in order: (the table's version then, when, JSON)."""
        rows = await self._db.all("SELECT version, at, lines FROM seat_events WHERE table_id = ? AND lines IS NOT NULL"
                                  " ORDER BY id", (table_id,))
        return [(r["version"], r["at"], r["lines"]) for r in rows]

    async def commit_action(self, table_id: int, expected_version: int, seat: int, action: str,
                            label: str, events: list[str], snapshot: str,
                            results: list[tuple[int, int | None, int]] | None = None,
                            timers: TimerPlan | None = None, seats: Sequence[SeatRecord] | None = None,
                            seat_events: Sequence[SeatEvent] = (),
                            rating: RatingPlan | None = None,
                            said: tuple[str | None, str | None, str | None] = (None, None, None)) -> int:
        """Append one action and save the new snapshot, all or nothing.

        Raises StaleVersion when the table is not at ``expected_version`` (or no longer playing).
        With ``results`` (seat, user, place) the table is finished in the same transaction; ``timers``
        moves its clocks and ``seats`` stores changed seats (timeout counts) in it too; ``rating`` rates
        a finished table in it. ``said``: the label's message id, its params and the events' messages.
        """
        new_version = expected_version + 1
        status = "finished" if results is not None else "playing"
        now = self._db.now()
        if (self._db.one_statement_transactions and results is None and seats is None and not timers
                and not seat_events):
            # The usual move (no clock to move, nothing else to store): the version check, the snapshot and
            # the log row in one statement, which is a transaction by itself, in one round trip.
            async with self._db.transaction(one_statement=True) as tx:
                written = await tx.execute(_COMMIT_MOVE, (
                    new_version, snapshot, status, now, table_id, expected_version,
                    new_version, seat, action, label, json.dumps(events), now, *said))
            if written.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {expected_version}")
            self._db.move_committed()
            return new_version
        async with self._rating_guard(rating), self._db.transaction() as tx:
            written = await tx.execute(
                "UPDATE game_tables SET version = ?, snapshot = ?, status = ?, updated_at = ?,"
                " revision = revision + 1 WHERE id = ? AND version = ? AND status = 'playing'",
                (new_version, snapshot, status, now, table_id, expected_version))
            if written.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {expected_version}")
            await tx.execute(
                "INSERT INTO actions (table_id, version, seat, action, label, events, at, label_id, label_params,"
                " event_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, new_version, seat, action, label, json.dumps(events), now, *said))
            if results is not None:
                await self._record_results(tx, table_id, results, rating, now)
            if seats is not None:
                await self._replace_seats(tx, table_id, seats)
            await write_plan(tx, table_id, timers)
            await self._seat_events(tx, table_id, seat_events, now)
        self._db.move_committed()
        return new_version

    async def set_posted_version(self, table_id: int, version: int, message_id: int | None = None) -> None:
        """Record that the table message for ``version`` went out; never moves backwards (the message id
        is taken only from a version at least as new as the one already recorded). One statement, so one
        round trip on PostgreSQL: every move posts a table message."""
        async with self._db.transaction(one_statement=True) as tx:
            await tx.execute("UPDATE game_tables SET posted_version = GREATEST(posted_version, ?), "
                             "message_id = CASE WHEN posted_version <= ? THEN COALESCE(?, message_id) "
                             "ELSE message_id END WHERE id = ?", (version, version, message_id, table_id))

    async def set_lobby_messages(self, table_id: int, message_ids: Sequence[int]) -> None:
        """Record the table's lobby messages still to edit (none: all were edited for its close)."""
        async with self._db.transaction(one_statement=True) as tx:
            await tx.execute("UPDATE game_tables SET lobby_messages = ? WHERE id = ?",
                             (json.dumps(list(message_ids)), table_id))

    async def replace_snapshot(self, table_id: int, version: int, snapshot: str) -> None:
        """Store a snapshot rebuilt from the log, only if the table is still at ``version``."""
        async with self._db.transaction() as tx:
            written = await tx.execute("UPDATE game_tables SET snapshot = ? WHERE id = ? AND version = ?",
                                       (snapshot, table_id, version))
            if written.rowcount != 1:
                raise StaleVersion(f"table {table_id} is not at version {version}")

    async def actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        """The log after ``after_version``, in order; read a page at a time (see :meth:`action_pages`)."""
        return [a async for page in self.action_pages(table_id, after_version) for a in page]

    async def action_pages(self, table_id: int, after_version: int = 0,
                           size: int = PAGE) -> AsyncIterator[list[ActionRecord]]:
        """The log after ``after_version`` a page of ``size`` moves at a time, in order: for answers the size
        of a whole game (``/game log``), which then never hold the event loop for the whole log."""
        async for rows in self._db.pages("SELECT version, seat, action, label, events, at, label_id, label_params,"
                                         " event_ids FROM actions"
                                         " WHERE table_id = ?", (table_id,), "version", after_version, size):
            yield [ActionRecord(r["version"], r["seat"], r["action"], r["label"], json.loads(r["events"]), r["at"],
                                r["label_id"], r["label_params"], r["event_ids"]) for r in rows]

    async def results(self, table_id: int) -> list[tuple[int, int | None, int]]:
        rows = await self._db.all("SELECT seat, user_id, place FROM results WHERE table_id = ? ORDER BY seat",
                               (table_id,))
        return [(r["seat"], r["user_id"], r["place"]) for r in rows]

