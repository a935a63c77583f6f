"""Copy a SQLite database into PostgreSQL, then prove that nothing was lost.

    python -m data.migrate --from sqlite:var/deckhand.sqlite3 --to postgresql://deckhand@127.0.0.1:5432/deckhand

Both ends are opened as the bot opens them, so both are migrated to this build's
schema first. Every table the schema defines is copied (the list comes from the
migrations, so tables added later are copied too) in one PostgreSQL transaction:
all or nothing. The key sequences then continue after the copied ids. Last, each
table is checked: same row count, same content (an order-free digest of every
row on both sides), and every game replayed from its log to its snapshot.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from data import schema
from data.sql import identity_columns, schema_tables
from data.store import Store, Tx

CHUNK = 2000
#: The entry-point group naming the replay check: ``(store) -> (table id -> whether its log replays to its
#: snapshot)``.
REPLAY_GROUP = "deckhand.replay"
ReplayCheck = Callable[[Store], Callable[[int], Awaitable[bool]]]


class MigrationError(Exception):
    """The copy cannot start (target not empty, source missing) or did not check out."""


@dataclass
class Report:
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # table → (source rows, target rows)
    digests_match: dict[str, bool] = field(default_factory=dict)
    replayed: int = 0
    not_started: int = 0
    replay_failures: list[str] = field(default_factory=list)
    next_ids: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return (all(a == b for a, b in self.counts.values()) and all(self.digests_match.values())
                and not self.replay_failures)


def _digest(rows: Sequence[Sequence[Any]]) -> int:
    """Equal for equal multisets of rows, whatever their order."""
    total = 0
    for row in rows:
        total += int.from_bytes(hashlib.sha256(repr(tuple(row)).encode()).digest(), "big")
    return total % 2**256


def _coerce(value: Any, pg_type: str) -> Any:
    # SQLite stores what it was given; PostgreSQL's columns are typed, and asyncpg does not cast.
    if value is None:
        return None
    if pg_type in ("bigint", "integer", "smallint"):
        return int(value)
    if pg_type in ("double precision", "real", "numeric"):
        return float(value)
    if pg_type == "bytea":
        return bytes(value)
    if pg_type == "text" and isinstance(value, bytes):
        return value.decode()
    return value


def installed_replay_check() -> ReplayCheck:
    found = list(entry_points(group=REPLAY_GROUP))
    if not found:
        raise MigrationError(f"no replay check is installed (entry point group {REPLAY_GROUP}): "
                             "install Deckhand with pip install -e . first")
    check: ReplayCheck = found[0].load()
    return check


async def _columns(store: Store, table: str) -> dict[str, str]:
    rows = await store.db.all(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
    return {r[0]: r[1] for r in rows}


async def _source_chunks(source: Store, table: str) -> Any:
    """The source table in rowid order, a chunk at a time: (column names, rows)."""
    last = 0
    while True:
        rows = await source.db.all(f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?",
                                 (last, CHUNK))
        if not rows:
            return
        last = rows[-1][0]
        yield list(rows[0].keys())[1:], [tuple(r)[1:] for r in rows]


async def _copy_table(tx: Tx, source: Store, table: str, types: dict[str, str]) -> int:
    copied = 0
    async for names, rows in _source_chunks(source, table):
        marks = ", ".join("?" for _ in names)
        await tx.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})",
                             [[_coerce(v, types[n]) for n, v in zip(names, row, strict=True)] for row in rows])
        copied += len(rows)
    return copied


async def copy(source: Store, target: Store, say: Callable[[str], None] = print,
               replay: ReplayCheck | None = None) -> Report:
    """Copy ``source`` (SQLite) into the empty ``target`` (PostgreSQL), then check it; ``replay`` checks each
    game's log against its snapshot (by default the installed one, see the module's notes)."""
    if source.db.backend.name != "sqlite" or target.db.backend.name != "postgresql":
        raise MigrationError("the copy goes from a SQLite database to a PostgreSQL one")
    tables = schema_tables(schema.MIGRATIONS)
    for table in tables:
        row = await target.db.one(f"SELECT COUNT(*) FROM {table}")
        if row and row[0]:
            raise MigrationError(f"the target already holds data ({table} has {row[0]} rows); "
                                 "copy into an empty database")
    replays = (replay or installed_replay_check())(target)
    say(f"copying {source.path} → {target.path}")
    report = Report()
    identities = identity_columns(schema.MIGRATIONS)
    async with target.transaction() as tx:
        for table in tables:
            await _copy_table(tx, source, table, await _columns(target, table))
        # New rows must not reuse a copied id.
        for table, column in identities.items():
            if table in tables:
                row = await tx.fetchone(
                    f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT MAX({column}) FROM {table}), 0)"
                    " + 1, false)", (table, column))
                report.next_ids[f"{table}.{column}"] = int(row[0]) if row else 0
    await _check(source, target, tables, report, replays)
    for table in tables:
        before, after = report.counts[table]
        mark = "ok" if before == after and report.digests_match[table] else "MISMATCH"
        say(f"  {table:<20}{before:>10} rows → {after:>10} rows  {mark}")
    for key, value in report.next_ids.items():
        say(f"  {key} continues at {value}")
    say(f"replayed {report.replayed} games from their logs: "
        + (f"{len(report.replay_failures)} do NOT match their snapshots: {', '.join(report.replay_failures)}"
           if report.replay_failures else "every one matches its snapshot")
        + f" ({report.not_started} lobbies had no game to replay)")
    say("RESULT: OK" if report.ok else "RESULT: FAILED")
    return report


async def _check(source: Store, target: Store, tables: list[str], report: Report,
                 replays: Callable[[int], Awaitable[bool]]) -> None:
    for table in tables:
        names = list((await _columns(target, table)).keys())
        select = f"SELECT {', '.join(names)} FROM {table}"
        before, after = await source.db.all(select), await target.db.all(select)
        report.counts[table] = (len(before), len(after))
        report.digests_match[table] = _digest(before) == _digest(after)
    for table in await target.tables.all_tables():
        if table.snapshot is None:
            report.not_started += 1
            continue
        report.replayed += 1
        try:
            ok = await replays(table.id)
        except Exception as exc:  # noqa: BLE001 - an unknown game or an illegal logged move is a failed check
            ok = False
            report.replay_failures.append(f"#{table.id} ({type(exc).__name__})")
            continue
        if not ok:
            report.replay_failures.append(f"#{table.id}")


async def migrate(source_arg: str, target_url: str, say: Callable[[str], None] = print,
                  replay: ReplayCheck | None = None) -> Report:
    path = source_arg.removeprefix("sqlite:")
    if not os.path.isfile(path):
        raise MigrationError(f"no SQLite database at {path}")
    if not target_url.startswith(("postgresql://", "postgres://")):
        raise MigrationError("--to must be a postgresql:// URL")
    source = await Store.connect(f"sqlite:{path}")
    try:
        target = await Store.connect(target_url)
        try:
            return await copy(source, target, say, replay)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.migrate", description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", required=True, metavar="sqlite:PATH")
    parser.add_argument("--to", dest="target", required=True, metavar="postgresql://…")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate(args.source, args.target))
    except MigrationError as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 2
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
