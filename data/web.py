"""What the web pages read and the two facts the bot records for them: which channels @everyone can view,
and which members hid their player page. Plus the database probe behind ``/healthz`` and a read-only store
for ``python -m web`` (on SQLite it opens the file read-only and never migrates)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from data.backends.sqlite import ReadOnlySqliteBackend, SqliteBackend
from data.database import Database

#: A database that has not answered within this many seconds is reported down.
PROBE_TIMEOUT = 1.0


@dataclass(frozen=True)
class PlayedRow:
    """One finished table a member sat at, as their player page lists it."""

    table_id: int
    game: str
    place: int
    players: int
    at: float


@dataclass(frozen=True)
class EntryRow:
    tournament_id: int
    name: str
    game: str
    status: str
    channel_id: int
    champion: bool


@dataclass(frozen=True)
class LiveRow:
    """A table's facts for a live page's cheap check (``WebStore.live_table``)."""

    guild_id: int
    version: int
    revision: int
    status: str
    pages_on: bool
    public: bool
    hidden_members: int


class WebStore:
    """The web pages' queries (``Store.web``), on the store's shared :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_channel_public(self, guild_id: int, channel_id: int, public: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM web_channels WHERE channel_id = ?", (channel_id,))
            await tx.execute("INSERT INTO web_channels (channel_id, guild_id, public, updated_at) VALUES (?, ?, ?, ?)",
                             (channel_id, guild_id, int(public), self._db.now()))

    async def known_channel(self, channel_id: int) -> bool | None:
        row = await self._db.one("SELECT public FROM web_channels WHERE channel_id = ?", (channel_id,))
        return None if row is None else bool(row[0])

    async def channel_facts(self) -> dict[int, bool]:
        """Every recorded channel: whether @everyone can view it."""
        return {int(r[0]): bool(r[1]) for r in await self._db.all("SELECT channel_id, public FROM web_channels")}

    async def public_channels(self, guild_id: int) -> set[int]:
        rows = await self._db.all("SELECT channel_id FROM web_channels WHERE guild_id = ? AND public = 1", (guild_id,))
        return {int(r[0]) for r in rows}

    async def set_profile_hidden(self, user_id: int, hidden: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM web_profiles WHERE user_id = ?", (user_id,))
            await tx.execute("INSERT INTO web_profiles (user_id, hidden) VALUES (?, ?)", (user_id, int(hidden)))

    async def hidden_profiles(self, user_ids: Sequence[int]) -> set[int]:
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return set()
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.all(f"SELECT user_id FROM web_profiles WHERE hidden = 1 AND user_id IN ({marks})", ids)
        return {int(r[0]) for r in rows}

    async def recent_tables(self, guild_id: int, statuses: Sequence[str], limit: int) -> list[Any]:
        """Rows of ``game_tables`` (no snapshot), newest first."""
        marks = ", ".join("?" for _ in statuses)
        return await self._db.all(
            "SELECT id, channel_id, parent_id, game, status, version, updated_at FROM game_tables"
            f" WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT ?", (guild_id, *statuses, limit))

    async def guild_tournaments(self, guild_id: int, limit: int) -> list[Any]:
        return await self._db.all(
            "SELECT id, channel_id, name, game, format, status, champion, updated_at FROM tournaments"
            " WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit))

    async def played_by(self, guild_id: int, user_id: int, limit: int) -> list[PlayedRow]:
        rows = await self._db.all(
            "SELECT r.table_id, t.game, r.place, t.channel_id, t.parent_id, t.updated_at,"
            " (SELECT COUNT(*) FROM seats s WHERE s.table_id = r.table_id) AS players"
            " FROM results r JOIN game_tables t ON t.id = r.table_id"
            " WHERE r.user_id = ? AND t.guild_id = ? ORDER BY r.table_id DESC LIMIT ?", (user_id, guild_id, limit))
        return [PlayedRow(r["table_id"], r["game"], r["place"], r["players"], r["updated_at"]) for r in rows]

    async def played_channels(self, guild_id: int, user_id: int, limit: int) -> dict[int, int]:
        """table id → the channel whose visibility decides whether it is shown (the parent of a thread)."""
        rows = await self._db.all(
            "SELECT r.table_id, COALESCE(t.parent_id, t.channel_id) AS channel FROM results r"
            " JOIN game_tables t ON t.id = r.table_id WHERE r.user_id = ? AND t.guild_id = ?"
            " ORDER BY r.table_id DESC LIMIT ?", (user_id, guild_id, limit))
        return {int(r["table_id"]): int(r["channel"]) for r in rows}

    async def entered_by(self, guild_id: int, user_id: int) -> list[EntryRow]:
        rows = await self._db.all(
            "SELECT t.id, t.name, t.game, t.status, t.channel_id, t.champion, e.id AS entrant FROM entrants e"
            " JOIN tournaments t ON t.id = e.tournament_id WHERE e.user_id = ? AND t.guild_id = ?"
            " ORDER BY t.id DESC", (user_id, guild_id))
        return [EntryRow(r["id"], r["name"], r["game"], r["status"], r["channel_id"],
                         str(r["entrant"]) in (r["champion"] or "").replace(",", " ").split()) for r in rows]

    async def table_channels(self, table_ids: Sequence[int]) -> dict[int, int]:
        """table id → the channel whose visibility decides whether its page is served (a thread's parent)."""
        ids = sorted({int(t) for t in table_ids})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.all(f"SELECT id, COALESCE(parent_id, channel_id) FROM game_tables WHERE id IN ({marks})",
                               ids)
        return {int(r[0]): int(r[1]) for r in rows}

    async def seat_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """Each member's name at their newest table in this server (the web process knows no members)."""
        return await self._newest_names(
            "SELECT s.user_id, s.name FROM seats s JOIN game_tables t ON t.id = s.table_id WHERE t.guild_id = ?"
            " AND s.user_id IN ({marks}) ORDER BY s.table_id", guild_id, user_ids)

    async def entrant_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """Each member's name at their newest tournament entry in this server (one who entered a tournament
        here but never sat at a table has a player page too: the tournament page links every entrant)."""
        return await self._newest_names(
            "SELECT e.user_id, e.name FROM entrants e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE t.guild_id = ? AND e.user_id IN ({marks}) ORDER BY e.id", guild_id, user_ids)

    async def _newest_names(self, sql: str, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """user id → name from ``sql``'s (user id, name) rows, oldest first: the newest one wins."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        rows = await self._db.all(sql.format(marks=", ".join("?" for _ in ids)), (guild_id, *ids))
        return {int(r[0]): str(r[1]) for r in rows}

    async def open_counts(self) -> tuple[int, int]:
        """Tables in a lobby or playing, and tournaments registering or playing, over every server."""
        tables = await self._db.one("SELECT COUNT(*) FROM game_tables WHERE status IN ('lobby', 'playing')")
        events = await self._db.one("SELECT COUNT(*) FROM tournaments WHERE status IN ('registration', 'playing')")
        return int(tables[0]), int(events[0])

    async def table_versions(self, table_ids: Sequence[int]) -> dict[int, tuple[int, int, str]]:
        """id → (version, revision, status) for a poll of many live pages at once."""
        ids = sorted({int(t) for t in table_ids})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.all(f"SELECT id, version, revision, status FROM game_tables WHERE id IN ({marks})", ids)
        return {int(r[0]): (int(r[1]), int(r[2]), str(r[3])) for r in rows}

    async def live_table(self, table_id: int) -> LiveRow | None:
        """What a table page's live part depends on, in one indexed read: the server's ``web_pages`` setting,
        whether its channel is public, its version, revision and status, and how many of its members hid their
        page (a follower's request checks this, not the whole page)."""
        row = await self._db.one(
            "SELECT t.guild_id, t.version, t.revision, t.status,"
            " (SELECT value FROM guild_settings g WHERE g.guild_id = t.guild_id AND g.name = 'web_pages'),"
            " (SELECT public FROM web_channels w WHERE w.channel_id = COALESCE(NULLIF(t.parent_id, 0), t.channel_id)),"
            " (SELECT COUNT(*) FROM seats s JOIN web_profiles p ON p.user_id = s.user_id"
            "  WHERE s.table_id = t.id AND p.hidden = 1)"
            " FROM game_tables t WHERE t.id = ?", (table_id,))
        if row is None:
            return None
        return LiveRow(int(row[0] or 0), int(row[1]), int(row[2]), str(row[3]), row[4] == "on", bool(row[5]),
                       int(row[6]))

    async def hidden_at_table(self, table_id: int) -> list[int]:
        """The members seated at a table who hid their player page (their names link nowhere)."""
        rows = await self._db.all("SELECT s.user_id FROM seats s JOIN web_profiles p ON p.user_id = s.user_id"
                                  " WHERE s.table_id = ? AND p.hidden = 1 ORDER BY s.user_id", (table_id,))
        return [int(r[0]) for r in rows]

    async def tournament_stamp(self, tournament_id: int) -> str:
        """Changes whenever the tournament's page would: its revision, status, entrants and finished tables."""
        row = await self._db.one(
            "SELECT revision, status, (SELECT COUNT(*) FROM tournament_tables p WHERE p.tournament_id = t.id"
            " AND p.status = 'finished'), (SELECT COUNT(*) FROM tournament_tables p WHERE p.tournament_id = t.id),"
            " (SELECT COUNT(*) FROM entrants e WHERE e.tournament_id = t.id AND e.left_reason IS NULL)"
            " FROM tournaments t WHERE t.id = ?", (tournament_id,))
        return "gone" if row is None else ".".join(str(v) for v in row)

    async def probe(self) -> str | None:
        """None when the database answers a query within ``PROBE_TIMEOUT`` seconds, else what failed.

        SQLite is probed through a fresh read-only connection to the file: the store's own connections
        keep an open descriptor and would go on answering after the file was moved or made unreadable."""
        backend = self._db.backend
        try:
            if isinstance(backend, SqliteBackend | ReadOnlySqliteBackend):
                await asyncio.wait_for(asyncio.to_thread(_probe_file, backend.location), PROBE_TIMEOUT)
            else:
                await asyncio.wait_for(backend.fetchone("SELECT 1"), PROBE_TIMEOUT)
        except TimeoutError:
            return f"the database did not answer within {PROBE_TIMEOUT:g} s"
        except Exception as exc:  # noqa: BLE001 - any failure is the probe's answer
            return f"the database failed: {type(exc).__name__}: {str(exc)[:200]}"
        return None


def _probe_file(path: str) -> None:
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise FileNotFoundError(f"{path} is missing or unreadable")
    # A process running as root reads any file, so os.access says yes to a file whose mode lets nobody read it
    # (chmod 000): that is still a database its owner made unreadable, which a probe should report.
    if not os.stat(path).st_mode & (stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH):
        raise PermissionError(f"{path} is readable by nobody (mode {stat.filemode(os.stat(path).st_mode)})")
    conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=PROBE_TIMEOUT)
    with closing(conn):
        conn.execute("SELECT COUNT(*) FROM schema_version").fetchall()
