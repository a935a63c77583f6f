"""The real bot on PostgreSQL (DATABASE_URL): the same games, refusals and restart as on SQLite.

The tests are the SQLite ones, imported; only where the bot's database lives changes. The long
three-player game is left to SQLite: the restart test plays on PostgreSQL through the same paths.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_do_over_e2e import (  # noqa: F401 - collected here again, on PostgreSQL
    test_a_game_with_bot_seats_plays_itself_around_the_human,
    test_a_restart_mid_game_keeps_the_game_and_old_buttons_work,
    test_refusals_are_ephemeral_and_change_nothing,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture
def db_path(db_path: str, pg_target: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", pg_target)
    return db_path


@pytest.fixture(autouse=True)
def _on_postgres(db_path: str) -> None:
    """Every test here runs with DATABASE_URL set, whether or not it asks for db_path."""


async def test_the_bot_keeps_its_tables_in_postgresql(world: Any) -> None:
    from tests.e2e.test_do_over_e2e import open_table

    await open_table(world, ["alice", "bob"])
    store = world.env.bot.store
    assert store._backend.name == "postgresql"
    assert [t.channel_id for t in await store.tables.all_tables()] == [world.channel.id]
