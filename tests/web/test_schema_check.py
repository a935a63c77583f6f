"""``python -m web`` never migrates, so it starts only on a database at its own schema: one clear line and a
failing exit otherwise, on both backends (a database no bot made, one a migration behind, one a migration ahead)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import data.store
from data.schema import SCHEMA_VERSION
from data.store import Store
from host.web import SchemaMismatch, open_site

pytestmark = pytest.mark.asyncio
ROOT = Path(__file__).resolve().parents[2]


async def refusal(target: str) -> str:
    with pytest.raises(SchemaMismatch) as raised:
        site = await open_site(target)
        await site.store.close()
    return str(raised.value)


async def test_the_web_starts_only_on_its_own_schema(store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not store_target.startswith("postgres"):
        Path(store_target).touch()  # an empty file: what a bot that never ran leaves (nothing)
    assert await refusal(store_target) == (f"the database is at schema 0, this web needs {SCHEMA_VERSION}: "
                                           "run the bot once to migrate")

    # An older bot's database: migrated one step short (as before migration 14 made guild_locales).
    monkeypatch.setattr(data.store, "SCHEMA_VERSION", SCHEMA_VERSION - 1)
    await (await Store.connect(store_target)).close()
    monkeypatch.undo()
    assert await refusal(store_target) == (f"the database is at schema {SCHEMA_VERSION - 1}, this web needs "
                                           f"{SCHEMA_VERSION}: run the bot once to migrate")

    bot = await Store.connect(store_target)  # the bot runs once and migrates
    try:
        site = await open_site(store_target)
        assert await site.store.applied_schema() == SCHEMA_VERSION
        await site.store.close()

        # A newer bot migrated further than this web knows.
        async with bot.transaction() as tx:
            await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                             (SCHEMA_VERSION + 1, 0.0))
        message = await refusal(store_target)
        assert message.startswith(f"the database is at schema {SCHEMA_VERSION + 1}, newer than this web knows "
                                  f"({SCHEMA_VERSION})"), message
    finally:
        await bot.close()


async def test_python_m_web_refuses_with_one_line_and_a_failing_exit(tmp_path: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "deckhand.sqlite3")
    monkeypatch.setattr(data.store, "SCHEMA_VERSION", SCHEMA_VERSION - 1)
    await (await Store.open(path)).close()
    monkeypatch.undo()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_PATH": path, "DATABASE_URL": "", "WEB_PORT": "0",
           "WEB_HOST": "127.0.0.1"}
    # cwd: the test's folder, so that no .env of the checkout is read.
    done = subprocess.run([sys.executable, "-m", "web"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [
        f"python -m web: the database is at schema {SCHEMA_VERSION - 1}, this web needs {SCHEMA_VERSION}: "
        "run the bot once to migrate"], done.stderr
    assert "Deckhand web pages at" not in done.stdout
