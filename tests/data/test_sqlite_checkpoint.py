"""SQLite runs its statements on the event loop's thread; only the WAL checkpoint goes to a worker thread."""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import closing
from typing import Any

import pytest

from data.backends import sqlite as backend_module
from data.store import Store

CHECKPOINT = backend_module._checkpoint


async def opened(path: str) -> Store:
    """A migrated store whose commit count starts at zero, its schema in the main file."""
    store = await Store.open(path)
    backend: Any = store._backend
    backend._commits = 0
    CHECKPOINT(backend._writer)  # so that the main file can be read without the WAL
    return store


async def insert_settings(store: Store, count: int, start: int = 0) -> None:
    for i in range(start, start + count):
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, name, value) VALUES (?, 'bot_level', 'easy')",
                             (i,))


def rows_in_the_main_file(path: str) -> int:
    """Rows the database file itself holds, ignoring the WAL (``immutable`` reads the file only)."""
    with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM guild_settings").fetchone()[0])


async def test_commits_never_checkpoint_and_every_so_often_a_worker_thread_does_before_a_transaction(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 3)
    threads: list[int] = []

    def recorded(conn: sqlite3.Connection) -> None:
        threads.append(threading.get_ident())
        CHECKPOINT(conn)

    monkeypatch.setattr(backend_module, "_checkpoint", recorded)
    path = str(tmp_path / "deckhand.sqlite3")
    store = await opened(path)
    try:
        async with store.transaction() as tx:
            assert (await tx.fetchone("PRAGMA wal_autocheckpoint"))[0] == 0  # type: ignore[index]
        await insert_settings(store, 2)
        assert threads == [] and rows_in_the_main_file(path) == 0, "three commits: all still in the WAL"
        await insert_settings(store, 1, start=2)
        assert len(threads) == 1 and threads[0] != threading.get_ident(), "checkpointed off the loop's thread"
        assert rows_in_the_main_file(path) == 2, "the checkpoint ran before the fourth transaction began"
        await insert_settings(store, 2, start=3)
        assert len(threads) == 1 and rows_in_the_main_file(path) == 2
    finally:
        await store.close()


async def test_under_writes_without_a_pause_the_log_stays_small(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint beside a busy writer never catches up, and the WAL would grow for as long as writes
    keep coming: here each runs alone, under the write lock, and the log starts again from the top."""
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 50)
    path = str(tmp_path / "deckhand.sqlite3")
    store = await opened(path)
    try:
        for i in range(2000):
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO guild_settings (guild_id, name, value) VALUES (?, 'bot_level', ?)",
                                 (i, "x" * 3000))
        assert rows_in_the_main_file(path) >= 1950
        # 2,000 rows of 3 KB would make a 6 MB log; 50 commits of one row each fit in well under 1 MB.
        assert os.path.getsize(path + "-wal") < 1_000_000
    finally:
        await store.close()


async def test_a_failed_checkpoint_loses_nothing_and_is_tried_again_later(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 4)
    calls: list[int] = []

    def fails_once(conn: sqlite3.Connection) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        CHECKPOINT(conn)

    monkeypatch.setattr(backend_module, "_checkpoint", fails_once)
    path = str(tmp_path / "deckhand.sqlite3")
    store = await opened(path)
    try:
        await insert_settings(store, 5)
        assert len(calls) == 1 and "checkpoint failed" in caplog.text
        assert rows_in_the_main_file(path) == 0
        await insert_settings(store, 2, start=5)
        assert len(calls) == 2, "tried again after half the interval"
        assert rows_in_the_main_file(path) == 6
        rows = await store._backend.fetchone("SELECT COUNT(*) FROM guild_settings")
        assert rows is not None and rows[0] == 7
    finally:
        await store.close()


async def test_a_failed_commit_commits_nothing_and_the_store_goes_on(tmp_path: Any) -> None:
    """A COMMIT that fails (here a deferred foreign key; in life a full disk) leaves no open transaction."""
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    try:
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as tx:
                await tx.execute("PRAGMA defer_foreign_keys = ON")
                await tx.execute("INSERT INTO guild_settings (guild_id, name, value) VALUES (1, 'bot_level', 'easy')")
                await tx.execute("INSERT INTO seat_events (table_id, version, seat, kind, at) "
                                 "VALUES (999, 0, 0, 'timeout', 0)")  # no table 999: fails at COMMIT
        await insert_settings(store, 1, start=2)
        assert [tuple(r) for r in await store._backend.fetchall("SELECT guild_id FROM guild_settings")] == [(2,)]
    finally:
        await store.close()
