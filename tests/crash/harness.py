"""Kill the bot with SIGKILL at random moments and check that nothing acknowledged was lost."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from data.store import Store
from host import TableService

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Acks:
    new: set[int] = field(default_factory=set)
    joins: set[tuple[int, int]] = field(default_factory=set)
    started: set[int] = field(default_factory=set)
    moves: dict[int, list[tuple[int, str]]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def read(cls, path: Path) -> Acks:
        acks = cls()
        if not path.exists():
            return acks
        for line in path.read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 3)
            try:
                if parts[0] == "new":
                    acks.new.add(int(parts[1]))
                elif parts[0] == "join":
                    acks.joins.add((int(parts[1]), int(parts[2])))
                elif parts[0] == "start":
                    acks.started.add(int(parts[1]))
                elif parts[0] == "move" and len(parts) == 4:
                    acks.moves[int(parts[1])].append((int(parts[2]), parts[3]))
            except (IndexError, ValueError):
                continue  # the line being written at the kill
        return acks

    def count(self) -> int:
        return len(self.new) + len(self.joins) + len(self.started) + sum(map(len, self.moves.values()))


def check_database(db: Path, acks: Acks) -> dict[int, int]:
    """Every acknowledged change is stored, the file is sound, and every table replays to its snapshot.

    Returns each playing table's version, so a later run can show that the table played on.
    """
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        statuses = dict(conn.execute("SELECT id, status FROM game_tables"))
        seats = defaultdict(set)
        for table_id, user_id in conn.execute("SELECT table_id, user_id FROM seats"):
            seats[table_id].add(user_id)
        human_moves: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for table_id, user_id, action in conn.execute(
                "SELECT a.table_id, s.user_id, a.action FROM actions a JOIN seats s"
                " ON s.table_id = a.table_id AND s.position = a.seat WHERE s.is_bot = 0"
                " ORDER BY a.table_id, a.version"):
            human_moves[table_id].append((user_id, action))
        versions = dict(conn.execute("SELECT id, version FROM game_tables WHERE status = 'playing'"))
    assert acks.new <= set(statuses), f"acknowledged tables missing: {acks.new - set(statuses)}"
    for table_id, user_id in acks.joins:
        assert user_id in seats[table_id], f"acknowledged join lost: table {table_id}, user {user_id}"
    for table_id in acks.started:
        assert statuses[table_id] in ("playing", "finished"), f"acknowledged start lost at table {table_id}"
    for table_id, moves in acks.moves.items():
        # A move can commit and the process die before its acknowledgement: the log may hold
        # moves nobody saw acknowledged, but every acknowledged one, in order.
        logged = iter(human_moves[table_id])
        missing = [m for m in moves if m not in logged]
        assert not missing, f"acknowledged moves lost at table {table_id}: {missing[:3]}"
    asyncio.run(_replays(db, [t for t, s in statuses.items() if s in ("playing", "finished")]))
    return versions


async def _replays(db: Path, table_ids: list[int]) -> None:
    store = await Store.open(str(db))
    try:
        tables = TableService(store)
        for table_id in table_ids:
            assert await tables.verify_replay(table_id), f"table {table_id} does not replay to its snapshot"
    finally:
        await store.close()


def driver(db: Path, acks: Path, seed: int, steps: int, *, visit_all: bool = False) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "tests.crash.driver", str(db), str(acks), str(seed), str(steps)]
    if visit_all:
        args.append("--visit-all")
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def kill_and_check(workdir: Path, kills: int, seed: int, *, low: float = 2.5, high: float = 5.0,
                   report: bool = False) -> tuple[int, int]:
    """``kills`` random SIGKILLs during play, each followed by the checks; then a run that plays on."""
    rng = random.Random(seed)
    db, acks_path = workdir / "crash.sqlite3", workdir / "acks.txt"
    for kill in range(kills):
        process = driver(db, acks_path, seed * 1000 + kill, 100_000)
        time.sleep(rng.uniform(low, high))
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
        acks = Acks.read(acks_path)
        check_database(db, acks)
        if report:
            print(f"kill {kill + 1}/{kills}: {acks.count()} acknowledged changes, all stored", flush=True)
    before = check_database(db, Acks.read(acks_path))
    process = driver(db, acks_path, seed * 1000 + kills, 20, visit_all=True)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode()[-2000:]
    with sqlite3.connect(db) as conn:
        after = dict(conn.execute("SELECT id, version FROM game_tables"))
    stuck = [t for t, v in before.items() if after[t] <= v]
    assert not stuck, f"tables that did not play on after the restart: {stuck}"
    acks = Acks.read(acks_path)
    check_database(db, acks)
    return kills, acks.count()


if __name__ == "__main__":  # pragma: no cover - see bench/crash.py
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        print(kill_and_check(Path(tmp), int(os.environ.get("KILLS", "3")), 1, report=True))
