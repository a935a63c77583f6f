"""Bot seats at a level: chosen at /game addbot, shown in the lobby, thinking in worker processes."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from data.store import ActionRecord, SeatRecord, TableRecord
from engines import get_engine
from engines.bots import bot_action
from host.replay import rebuild
from tests.e2e.driver import latest_table_message, seats_to_act
from tests.e2e.test_long_games_e2e import play_own_move


def rows(db_path: str, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return list(db.execute(sql))


async def test_a_normal_bot_thinks_off_the_loop_and_its_move_is_the_reproducible_one(world: Any,
                                                                                     db_path: str) -> None:
    alice = world.members["alice"]
    await alice.slash(world.channel, "game new", game="pentawar")
    added = await alice.slash(world.channel, "game addbot", level="normal")
    seats = next(f.value for f in added.response.embeds[0].fields if f.name == "Seats")
    assert "Robo Ada (normal)" in seats, "the lobby shows each bot's level"
    await alice.slash(world.channel, "game start")
    assert rows(db_path, "SELECT level FROM seats WHERE is_bot = 1") == [("normal",)]
    for _ in range(3):
        if seats_to_act(latest_table_message(world.channel)) == [alice.id]:
            await play_own_move(world, alice)
    seed, options = rows(db_path, "SELECT seed, options FROM game_tables")[0]
    actions = rows(db_path, "SELECT version, seat, action FROM actions ORDER BY version")
    bot_seat = rows(db_path, "SELECT position FROM seats WHERE is_bot = 1")[0][0]
    bot_moves = [a for a in actions if a[1] == bot_seat]
    assert bot_moves, "the bot moved"
    engine = get_engine("pentawar")

    table = TableRecord(id=1, guild_id=None, channel_id=0, game="pentawar", options=json.loads(options),
                        status="playing", seed=seed, version=0, snapshot=None, host_id=0, posted_version=0,
                        seats=[SeatRecord(0, None, "a", False), SeatRecord(1, None, "b", True)])
    log = [ActionRecord(v, s, a, "", [], 0.0) for v, s, a in actions]
    for version, seat, action in bot_moves:
        before = rebuild(engine, table, log[: version - 1])
        # The same table seed and version give the same move: a restart re-computes exactly this one.
        assert bot_action(engine, before, seat, seed + version - 1, level="normal") == action


async def test_a_search_that_never_returns_is_cut_in_the_real_bot_and_the_seat_plays_the_easy_move(
        world: Any, db_path: str) -> None:
    """The time limit runs on real time: SimCord does not move its clock while the loop waits for a worker
    process, so a limit kept by a loop timer never cut a search that never returned here (the move hung)."""
    from tests.host.test_time_limits import hang

    pool = world.env.bot.services.bot_pool
    pool.time_limit, pool.work = 1.0, hang
    alice = world.members["alice"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await alice.slash(world.channel, "game addbot", level="normal")
    await alice.slash(world.channel, "game start")
    for _ in range(2):
        if seats_to_act(latest_table_message(world.channel)) == [alice.id]:
            await play_own_move(world, alice)
    assert pool.cut >= 1
    seed, options = rows(db_path, "SELECT seed, options FROM game_tables")[0]
    actions = rows(db_path, "SELECT version, seat, action FROM actions ORDER BY version")
    bot_seat = rows(db_path, "SELECT position FROM seats WHERE is_bot = 1")[0][0]
    engine = get_engine("pentawar")
    table = TableRecord(id=1, guild_id=None, channel_id=0, game="pentawar", options=json.loads(options),
                        status="playing", seed=seed, version=0, snapshot=None, host_id=0, posted_version=0,
                        seats=[SeatRecord(0, None, "a", False), SeatRecord(1, None, "b", True)])
    log = [ActionRecord(v, s, a, "", [], 0.0) for v, s, a in actions]
    bot_moves = [a for a in actions if a[1] == bot_seat]
    assert bot_moves, "the bot moved"
    for version, seat, action in bot_moves:
        before = rebuild(engine, table, log[: version - 1])
        assert bot_action(engine, before, seat, seed + version - 1, level="easy") == action
