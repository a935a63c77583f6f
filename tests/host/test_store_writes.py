"""Every write commits in its own transaction: none can ride along in another coroutine's.

On both backends the write side (SQLite's write connection, PostgreSQL's write
pool) is reachable only through ``Store.transaction()``, whose handle refuses to
work outside its block or in another task, and reads use a read-only side.
These tests fail when a write bypasses that path.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import data.store as store_module
from data.database import Database
from data.ratings import RatingStore
from data.settings import SettingsStore
from data.store import SeatRecord, StaleVersion, Store, TxClosed
from data.tables import TableStore
from data.timers import BOT, TimerPlan, TimerRecord, TimerStore
from data.tournaments import RoundPlan, TournamentChanged, TournamentStore
from data.web import WebStore
from host import TableService
from tests.host.test_store import started

DATA = Path(store_module.__file__).parent


def _functions(path: Path) -> Iterator[tuple[str, ast.AST]]:
    for func in ast.walk(ast.parse(path.read_text())):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            yield func.name, func


def test_only_the_transaction_touches_the_write_connection() -> None:
    """A new method that wrote on the connection (or the pool) directly would appear here."""
    allowed = {"__init__", "open", "close", "transaction"}
    offenders = []
    for path in DATA.rglob("*.py"):
        for name, func in _functions(path):
            for node in ast.walk(func):
                if isinstance(node, ast.Attribute) and node.attr == "_writer" and name not in allowed:
                    offenders.append(f"{path.name}:{name}")
    assert not offenders, f"write connection used outside a backend's transaction(): {offenders}"


def test_the_store_reaches_the_write_side_only_through_its_transaction() -> None:
    """In the store's parts, only ``Database.transaction`` may open a backend transaction."""
    offenders = []
    for path in DATA.glob("*.py"):
        for name, func in _functions(path):
            for node in ast.walk(func):
                if (isinstance(node, ast.Attribute) and node.attr == "transaction"
                        and isinstance(node.value, ast.Attribute) and node.value.attr in ("_backend", "backend")
                        and name != "transaction"):
                    offenders.append(f"{path.name}:{name}")
    assert not offenders, f"backend transaction opened outside Store.transaction(): {offenders}"


DRIVERS = {"aiosqlite", "asyncpg", "sqlite3"}


def test_nothing_above_data_knows_the_backend() -> None:
    root = DATA.parent
    offenders = []
    for package in ("host", "cogs", "engines", "render"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                offenders += [f"{path.relative_to(root)}: {n}" for n in names
                              if n.split(".")[0] in DRIVERS or n.startswith("data.backends")]
    assert not offenders, offenders


async def test_the_read_connection_cannot_write(store: Store) -> None:
    sql = "UPDATE game_tables SET status = 'abandoned'"
    if store._backend.name == "sqlite":
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store._backend._reader.execute(sql)  # type: ignore[attr-defined]
    else:
        import asyncpg

        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await store._backend._reader.execute(sql)  # type: ignore[attr-defined]
        # Nor inside an explicit transaction on a reader connection.
        async with store._backend._reader.acquire() as conn:  # type: ignore[attr-defined]
            with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
                async with conn.transaction():
                    await conn.execute(sql)


async def test_a_transaction_handle_is_dead_outside_its_block(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.fetchone("SELECT 1")
    with pytest.raises(TxClosed):
        await tx.execute("DELETE FROM seats")


async def test_a_one_statement_transaction_runs_one_statement(store: Store) -> None:
    async with store.transaction(one_statement=True) as tx:
        await tx.fetchone("SELECT 1")
        with pytest.raises(TxClosed):
            await tx.execute("DELETE FROM seats")


async def test_another_task_cannot_write_through_an_open_transaction(store: Store) -> None:
    async with store.transaction() as tx:
        with pytest.raises(TxClosed):
            await asyncio.create_task(tx.execute("DELETE FROM seats"))


async def test_a_write_is_never_undone_by_another_coroutines_rollback(store: Store) -> None:
    """The race that undid an acknowledged abandon: a join rolls back while an abandon commits."""
    tables = TableService(store, new_seed=lambda: 3)
    lobby = (await tables.create(guild_id=1, channel_id=1, game_id="do_over", options=None, user_id=1,
                                 user_name="a"))
    game = await started(tables, 2, channel=2)
    entered = asyncio.Event()

    async def doomed() -> None:
        async with store.transaction() as tx:
            await tx.execute("UPDATE game_tables SET updated_at = 0 WHERE id = ?", (lobby.id,))
            entered.set()
            await asyncio.sleep(0.05)
            raise StaleVersion("rolls back")

    async def writes() -> None:
        await entered.wait()
        # Every public write of the store, issued while the doomed transaction is open.
        await store.tables.close_table(lobby.id, lobby.revision)
        await store.tables.set_posted_version(game.id, 0)
        await store.tables.replace_snapshot(game.id, game.version, game.snapshot or "")

    results = await asyncio.gather(doomed(), writes(), return_exceptions=True)
    assert isinstance(results[0], StaleVersion) and results[1] is None
    assert (await store.tables.get_table(lobby.id)).status == "abandoned"  # type: ignore[union-attr]


async def test_every_public_write_goes_through_a_transaction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write method opens a transaction of its own (counted), so none can share another's."""
    opened = 0
    original = Database.transaction

    def counting(self: Database, *args: Any, **kwargs: Any) -> Any:
        nonlocal opened
        opened += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Database, "transaction", counting)
    tables = TableService(store, new_seed=lambda: 5)
    table = await tables.create(guild_id=1, channel_id=1, game_id="do_over", options=None, user_id=1,
                                user_name="a")
    calls = {
        "set_lobby_seats": lambda t: store.tables.set_lobby_seats(t.id, t.revision, [SeatRecord(0, 1, "a", False),
                                                                               SeatRecord(1, 2, "b", False)]),
        "start_table": lambda t: store.tables.start_table(t.id, t.revision, t.seats, "{}"),
        "set_posted_version": lambda t: store.tables.set_posted_version(t.id, 0),
        "set_lobby_messages": lambda t: store.tables.set_lobby_messages(t.id, [5]),
        "replace_snapshot": lambda t: store.tables.replace_snapshot(t.id, 0, "{}"),
        "commit_action": lambda t: store.tables.commit_action(t.id, 0, 0, "x", "x", [], "{}"),
        "change_table": lambda t: store.tables.change_table(t.id, t.revision, paused=True),
        "change_timers": lambda t: store.timers.change_timers(t.id, TimerPlan(add=[TimerRecord(t.id, BOT, -1, 5.0)])),
        "push_timer": lambda t: store.timers.push_timer(TimerRecord(t.id, BOT, -1, 5.0), 9.0),
        "take_timer": lambda t: store.timers.take_timer(TimerRecord(t.id, BOT, -1, 5.0)),
        "set_guild_setting": lambda t: store.settings.set_guild_setting(1, "turn_time", "1d", 7),
        "set_dm_notify": lambda t: store.settings.set_dm_notify(7, True),
        "set_member_locale": lambda t: store.settings.set_member_locale(7, "uk"),
        "set_guild_locale": lambda t: store.settings.set_guild_locale(1, "fr"),
        "close_table": lambda t: store.tables.close_table(t.id, t.revision),
        # A tournament through its life: each change its own transaction.
        "create_tournament": lambda t: store.tournaments.create_tournament(
            guild_id=1, channel_id=77, name="Cup", game="pedwar", format="swiss", table_size=2, top_cut=0,
            rounds=None, turn_time=None, round_time=None, options={}, organiser_id=1),
        "set_tournament_message": lambda t: store.tournaments.set_tournament_message(1, 5),
        "add_entrant": lambda t: store.tournaments.add_entrant(1, 0, user_id=9, name="ann"),
        "open_checkin": lambda t: store.tournaments.open_checkin(1, 1),
        "check_in": lambda t: store.tournaments.check_in(1, 2, 1),
        "remove_entrant": lambda t: store.tournaments.remove_entrant(1, 3, 999),
        "start_tournament": lambda t: store.tournaments.start_tournament(
            1, 4, planned_rounds=1, lots={1: (1, 0.0)}, no_shows=[],
            first=RoundPlan(1, "swiss", [([1, 2], [[1], [2]])])),
        "seat_tournament_table": lambda t: store.tables.seat_tournament_table(
            1, 1, 0, guild_id=1, channel_id=88, parent_id=77, game="pedwar", options={}, seed=1, host_id=1,
            seats=[SeatRecord(0, 9, "ann", False), SeatRecord(1, None, "Robo", True)], snapshot="{}",
            turn_time=None, timers=TimerPlan()),
        "mark_round_announced": lambda t: store.tournaments.mark_round_announced(1, 1),
        "drop_entrant": lambda t: store.tournaments.drop_entrant(1, 1),
        # Issue 30: the calendar, late entrants, penalties, tables settled before seating.
        "reschedule_tournament":
            lambda t: refused_quietly(store.tournaments.reschedule_tournament(1, 99, 5.0, [])),
        "set_tournament_timers": lambda t: store.tournaments.set_tournament_timers(1, [("start", 5.0)]),
        "push_tournament_timer": lambda t: store.tournaments.push_tournament_timer(1, "start", 0.0, 9.0),
        "take_tournament_timer": lambda t: store.tournaments.take_tournament_timer(1, "start", 0.0),
        "set_tournament_event": lambda t: store.tournaments.set_tournament_event(1, 5, 9.0),
        "add_late_entrant": lambda t: store.tournaments.add_late_entrant(1, user_id=50, name="late", lot=9,
                                                                         rating=0.0, missed_rounds=1),
        "add_penalty": lambda t: store.tournaments.add_penalty(1, 1, "note", "a note", 1),
        "settle_penalty": lambda t: store.tournaments.settle_penalty(1),
        "rewrite_pending_place":
            lambda t: store.tournaments.rewrite_pending_place(1, 1, 0, [1, 2], [[1], [2]], None),
        "cancel_tournament": lambda t: store.tournaments.cancel_tournament(1, 5),
        "advance_tournament": lambda t: store.tournaments.advance_tournament(1, 1, champion=[1]),
        # The web pages' two facts.
        "set_channel_public": lambda t: store.web.set_channel_public(1, 1, True),
        "set_profile_hidden": lambda t: store.web.set_profile_hidden(7, True),
    }
    writes = {name for part in (Store, TableStore, TimerStore, TournamentStore, RatingStore, SettingsStore, WebStore)
              for name, fn in inspect.getmembers(part, inspect.iscoroutinefunction)
              if not name.startswith("_") and name not in READS}
    assert writes == set(calls) | {"create_table", "migrate"}, "a new write method needs a test here"
    for name, call in calls.items():
        before = opened
        await call(await store.tables.get_table(table.id))
        assert opened == before + 1, f"{name} did not open its own transaction"


async def refused_quietly(write: Any) -> None:
    """A write refused by its revision check still opened (and rolled back) its own transaction."""
    with contextlib.suppress(TournamentChanged):
        await write


READS = {"get_table", "active_table", "all_tables", "actions", "results", "schema_version", "applied_schema",
         "pragma", "close", "close_all", "open", "connect", "open_read_only", "next_due", "due_timers", "timers_of",
         "guild_settings",
         "settings_log", "dm_notify", "member_locale", "guild_locale", "tables_in_guild", "thread_tables_of",
         "latest_table",
         "seat_events", "seat_lines", "unposted_tables",
         # A lost channel's tables (issue: lost channels): two reads.
         "lost_tables", "open_tables_in",
         # The flood limits' counts (issue 26).
         "open_tables_hosted", "active_thread_tables",
         "tournament", "active_tournament", "latest_tournament", "running_tournaments", "entrants",
         "tournament_rounds", "round_places", "place_of_table", "tournament_byes", "unannounced_finals",
         "ratings_of", "ratings_for", "leaderboard", "rated_tables", "tournament_timers", "next_tournament_due",
         "due_tournament_timers", "penalties",
         # The web pages' reads (data/web.py) and the database probe of /healthz.
         "known_channel", "channel_facts", "public_channels", "hidden_profiles", "recent_tables",
         "guild_tournaments", "played_by", "played_channels", "entered_by", "table_channels", "open_counts",
         "table_versions", "live_table", "hidden_at_table", "tournament_stamp", "probe", "seat_names",
         "entrant_names"}
