"""SQLite runs its statements on the event loop's thread, and only the WAL checkpoint in a worker thread."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from typing import Any

import pytest

from data.backends import sqlite as backend_module
from data.store import Store

CHECKPOINT = backend_module._checkpoint


async def opened(path: str) -> Store:
    """A migrated store whose commit count starts at zero (opening it committed the migrations)."""
    store = await Store.open(path)
    backend: Any = store._backend
    if backend._checkpointing is not None:
        await backend._checkpointing
    backend._commits = 0
    CHECKPOINT(path)  # the schema in the main file, so that it can be read without the WAL
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


async def test_commits_never_checkpoint_inline_and_a_worker_thread_does_every_so_often(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 3)
    threads: list[int] = []
    checkpoint = backend_module._checkpoint

    def recorded(path: str) -> None:
        threads.append(threading.get_ident())
        checkpoint(path)

    monkeypatch.setattr(backend_module, "_checkpoint", recorded)
    path = str(tmp_path / "deckhand.sqlite3")
    store = await opened(path)
    threads.clear()
    try:
        async with store.transaction() as tx:
            assert (await tx.fetchone("PRAGMA wal_autocheckpoint"))[0] == 0  # type: ignore[index]
        await insert_settings(store, 1)
        assert threads == [] and rows_in_the_main_file(path) == 0, "two commits: still only in the WAL"
        await insert_settings(store, 1, start=1)
        running = store._backend._checkpointing  # type: ignore[attr-defined]
        assert running is not None
        await running
        assert threads and threads[0] != threading.get_ident(), "the checkpoint ran off the event loop's thread"
        assert rows_in_the_main_file(path) == 2
        await insert_settings(store, 2, start=2)
        assert len(threads) == 1 and rows_in_the_main_file(path) == 2
    finally:
        await store.close()


async def test_a_failed_checkpoint_is_tried_again_at_the_next_commit(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 2)
    calls: list[str] = []
    checkpoint = backend_module._checkpoint

    def fails_once(path: str) -> None:
        calls.append(path)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        checkpoint(path)

    monkeypatch.setattr(backend_module, "_checkpoint", fails_once)
    path = str(tmp_path / "deckhand.sqlite3")
    store = await opened(path)
    calls.clear()
    try:
        await insert_settings(store, 2)
        first = store._backend._checkpointing  # type: ignore[attr-defined]
        with pytest.raises(sqlite3.OperationalError):
            await first
        await insert_settings(store, 1, start=2)
        second = store._backend._checkpointing  # type: ignore[attr-defined]
        assert second is not None and second is not first
        await second
        assert len(calls) == 2 and rows_in_the_main_file(path) == 3
    finally:
        await store.close()


async def test_close_waits_for_a_checkpoint_in_flight(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend_module, "CHECKPOINT_EVERY", 1)
    release = threading.Event()
    done: list[bool] = []
    checkpoint = backend_module._checkpoint

    def slow(path: str) -> None:
        release.wait(5)
        checkpoint(path)
        done.append(True)

    monkeypatch.setattr(backend_module, "_checkpoint", slow)
    release.set()
    store = await opened(str(tmp_path / "deckhand.sqlite3"))
    release.clear()
    done.clear()
    await insert_settings(store, 1)
    threading.Timer(0.05, release.set).start()
    await store.close()
    assert done == [True]
