"""python -m data.migrate: a SQLite database copied into PostgreSQL with nothing lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import data.backends.postgres as postgres_backend
import data.schema as schema
import data.store as store_module
from data.migrate import MigrationError, migrate
from data.sql import schema_tables
from data.store import Store
from engines.bots import bot_action
from host import TableService
from host.tournaments.service import TournamentService
from tests.host.test_store import play_some, started

ROOT = Path(__file__).resolve().parents[2]


async def fill(path: str) -> dict[str, int]:
    """A SQLite database with a finished game, games in play, a lobby and abandoned tables."""
    store = await Store.connect(f"sqlite:{path}")
    seeds = iter(range(100, 200))
    tables = TableService(store, new_seed=lambda: next(seeds))
    ids = {}
    await tables.create(guild_id=1, channel_id=1, game_id="do_over", options={"max_turns": 30}, user_id=1,
                        user_name="a")
    await tables.add_bot(1, 1, False)
    finished = await tables.start(1, 1, False)
    for step in range(400):
        table = await tables.get(finished.id)
        if table.status != "playing":
            break
        if await tables.bots_to_act(table.id):
            await tables.bot_step(table.id)
        else:
            state = await tables.state(table)
            engine = tables.engine_of(table)
            seat = engine.to_act(state)[0]
            await tables.act(table.id, table.seats[seat].user_id, bot_action(engine, state, seat, step), table.version)
    assert (await tables.get(finished.id)).status == "finished"
    ids["finished"] = finished.id
    ids["playing"] = (await started(tables, 4, channel=2**61 + 2)).id
    await play_some(tables, ids["playing"], 25)
    abandoned = await started(tables, 3, channel=3)
    await play_some(tables, abandoned.id, 5)
    await tables.abandon(3, 100, False)
    ids["lobby"] = (await tables.create(guild_id=7, channel_id=4, game_id="do_over", options=None, user_id=5,
                                        user_name="Zoë 🎲")).id
    await tables.create(guild_id=7, channel_id=5, game_id="do_over", options=None, user_id=6, user_name="x")
    await tables.leave(5, 6)  # an abandoned lobby
    await tables.mark_posted(await tables.get(ids["playing"]))
    # Long games: a clocked lobby (its timeout timer), a resignation (a seat event), settings.
    await tables.create(guild_id=7, channel_id=6, game_id="do_over", options=None, user_id=8, user_name="c",
                        turn_time=3600, lobby_timeout=86400)
    await started(tables, 3, channel=7)
    await tables.resign(7, 101)
    await store.settings.set_guild_setting(7, "turn_time", "3600", 8)
    await store.settings.set_dm_notify(8, True)
    await store.settings.set_member_locale(8, "uk")  # what a DM to member 8 speaks
    await store.settings.set_guild_locale(1, "fr")  # what server 1's pages speak with `auto`
    # The web pages' facts: a public channel, a hidden player page.
    await store.web.set_channel_public(7, 6, True)
    await store.web.set_profile_hidden(8, True)
    # A tournament: entrants, a round with a table and a bye, a result, and the rating it moved.
    cup = TournamentService(tables)
    tid = (await cup.create(guild_id=7, channel_id=8, organiser_id=8, game="pedwar", fmt="swiss", rounds=2,
                            table_size=None, top_cut=None, turn_time=86400, round_time=None, options=None,
                            name="Cup")).record.id
    for uid in (20, 21, 22):
        await cup.join(tid, uid, f"p{uid}")
    await cup.start(tid, 8, False)
    seated = await cup.seat((await cup.pending(tid))[0], 9)
    await cup.drop(tid, seated.seats[0].user_id or 0)
    await cup.table_finished(seated.id)
    # A penalty, and a tournament on the calendar (its check-in and start timers).
    await cup.note(tid, 8, False, 21, "a note")
    await cup.create(guild_id=7, channel_id=10, organiser_id=8, game="pedwar", fmt="swiss", rounds=None,
                     table_size=None, top_cut=None, turn_time=86400, round_time=None, options=None, name="Later",
                     starts_at="in 2h")
    # A Swiss event whose top cut is double elimination (schema 8's column, not its default).
    await cup.create(guild_id=7, channel_id=11, organiser_id=8, game="pedwar", fmt="swiss", rounds=3,
                     table_size=None, top_cut=4, turn_time=86400, round_time=None, options=None, name="Cut",
                     top_cut_format="double")
    await store.close()
    return ids


async def dump(store: Store, tables: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in tables:
        rows = await store.db.all(f"SELECT * FROM {table}")
        out[table] = sorted((tuple(r) for r in rows), key=repr)
    return out


async def test_a_round_trip_loses_nothing(tmp_path: Any, pg_target: str) -> None:
    path = str(tmp_path / "old.sqlite3")
    ids = await fill(path)
    lines: list[str] = []
    report = await migrate(f"sqlite:{path}", pg_target, lines.append)
    assert report.ok, lines
    assert report.replayed == 5 and report.not_started == 3 and not report.replay_failures
    tables = schema_tables(schema.MIGRATIONS)
    source, target = await Store.connect(path), await Store.connect(pg_target)
    try:
        before, after = await dump(source, tables), await dump(target, tables)
        assert {"game_tables", "seats", "actions", "results"} <= set(before)
        for table in tables:
            assert before[table], f"the fixture should fill {table}"
            assert after[table] == before[table], table
        assert any(f"{t}" in line and "ok" in line for line in lines for t in tables)
        # The copy is live: play on, and a new table takes the next id.
        service = TableService(target)
        await play_some(service, ids["playing"], 3)
        assert await service.verify_replay(ids["playing"])
        new = await service.create(guild_id=1, channel_id=99, game_id="do_over", options=None, user_id=1,
                                   user_name="n")
        assert new.id == max(t.id for t in await source.tables.all_tables()) + 1
    finally:
        await source.close()
        await target.close()


async def test_the_target_must_be_empty(tmp_path: Any, pg_target: str) -> None:
    path = str(tmp_path / "a.sqlite3")
    await fill(path)
    assert (await migrate(f"sqlite:{path}", pg_target, lambda _line: None)).ok
    with pytest.raises(MigrationError, match="already holds data"):
        await migrate(f"sqlite:{path}", pg_target, lambda _line: None)
    with pytest.raises(MigrationError, match="no SQLite database"):
        await migrate(f"sqlite:{tmp_path / 'missing.sqlite3'}", pg_target, lambda _line: None)


async def test_tables_added_by_later_migrations_are_copied_too(tmp_path: Any, pg_target: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    later = [*schema.MIGRATIONS,
             "CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL"
             " REFERENCES game_tables (id), body TEXT NOT NULL, due REAL)"]
    monkeypatch.setattr(schema, "MIGRATIONS", later)
    monkeypatch.setattr(store_module, "MIGRATIONS", later)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(later))
    monkeypatch.setitem(postgres_backend.IDENTITIES, "notes", "id")
    path = str(tmp_path / "later.sqlite3")
    ids = await fill(path)
    store = await Store.connect(path)
    async with store.transaction() as tx:
        for n in range(3):
            await tx.execute("INSERT INTO notes (table_id, body, due) VALUES (?, ?, ?)",
                             (ids["playing"], f"note {n}", 1.5 * n))
    await store.close()
    report = await migrate(f"sqlite:{path}", pg_target, lambda _line: None)
    assert report.ok and report.counts["notes"] == (3, 3) and report.next_ids["notes.id"] == 4
    target = await Store.connect(pg_target)
    try:
        async with target.transaction() as tx:
            written = await tx.execute("INSERT INTO notes (table_id, body) VALUES (?, ?)", (ids["lobby"], "new"))
        assert written.lastrowid == 4
    finally:
        await target.close()


async def test_a_schema_5_database_gains_the_index_and_both_tournament_migrations(store_target: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A database made by a build before 6 (data's indexes), 7 (the calendar and registration rules) and 8 (the
    top cut's format) opens with all three: its tournament reads with their defaults, and the new tables take rows."""
    monkeypatch.setattr(store_module, "MIGRATIONS", schema.MIGRATIONS[:5])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 5)
    old = await Store.connect(store_target)
    async with old.transaction() as tx:
        written = await tx.execute(
            "INSERT INTO tournaments (guild_id, channel_id, name, game, format, table_size, top_cut, rounds,"
            " turn_time, round_time, options, organiser_id, status, created_at, updated_at)"
            " VALUES (7, 8, 'Old cup', 'pedwar', 'swiss', 2, 4, 3, 86400, NULL, '{}', 8, 'registration', 0, 0)")
        tid = int(written.lastrowid or 0)
    assert await old.schema_version() == 5
    await old.close()
    monkeypatch.undo()
    store = await Store.connect(store_target)
    try:
        assert await store.schema_version() == schema.SCHEMA_VERSION == 14
        # 14: each server's Discord language as the bot last saw it.
        await store.settings.set_guild_locale(5, "fr")
        await store.settings.set_guild_locale(5, "uk")
        assert await store.settings.guild_locale(5) == "uk" and await store.settings.guild_locale(6) is None
        # 13: the lines beside each seat change (none stored before it).
        assert await store.db.all("SELECT lines FROM seat_events") == []
        # 12: the message beside each move's label (none stored before it).
        assert await store.db.all("SELECT label_id, label_params, event_ids FROM actions") == []
        # 11: why a table was abandoned (none stored before it).
        assert await store.db.all("SELECT end_reason FROM game_tables") == []
        # 10: the members' last seen locales.
        await store.settings.set_member_locale(8, "fr-CA")
        await store.settings.set_member_locale(8, "uk")
        assert await store.settings.member_locale(8) == "uk" and await store.settings.member_locale(9) is None
        record = await store.tournaments.tournament(tid)
        assert record is not None and record.name == "Old cup"
        assert (record.starts_at, record.checkin_minutes, record.role_id, record.max_entrants,
                record.late_join_rounds, record.top_cut_format) == (None, 30, None, None, 0, "single")
        cup = TournamentService(TableService(store, new_seed=lambda: 1))
        made = await cup.create(guild_id=7, channel_id=9, organiser_id=8, game="pedwar", fmt="swiss", rounds=3,
                                table_size=None, top_cut=4, turn_time=86400, round_time=None, options=None,
                                name="New cup", starts_at="in 2h", max_entrants=8, top_cut_format="double")
        again = await store.tournaments.tournament(made.record.id)
        assert again is not None and again.top_cut_format == "double" and again.max_entrants == 8
        assert again.starts_at is not None
        assert await store.db.all("SELECT kind FROM tournament_timers WHERE tournament_id = ?", (made.record.id,))
    finally:
        await store.close()


def test_the_command_line(tmp_path: Any, pg_target: str) -> None:
    import asyncio

    path = str(tmp_path / "cli.sqlite3")
    asyncio.run(fill(path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "data.migrate", "--from", f"sqlite:{path}", "--to", pg_target],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "game_tables" in done.stdout and "RESULT: OK" in done.stdout
    again = subprocess.run([sys.executable, "-m", "data.migrate", "--from", f"sqlite:{path}", "--to", pg_target],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "already holds data" in again.stderr
