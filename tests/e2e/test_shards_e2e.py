"""The real bot over gateway shards (SHARD_COUNT, SHARD_IDS) on PostgreSQL, in SimCord.

An AutoShardedBot over two shards plays a game in each shard's guild; a bot that holds one shard
of two dies abruptly mid-game and a replacement with the same shard takes over its tables.
Two processes side by side are tested below the Discord layer (tests/host/test_shards.py):
two SimCord worlds can hand out the same ids.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import DeckhandBot, Settings, ShardedDeckhandBot, create_bot
from data.store import Store
from host.shards import Shards, shard_of
from tests.e2e.conftest import World, assert_within_limits
from tests.e2e.driver import choices_in, latest_table_message, open_hand, play_until_over, seats_to_act, use
from tests.e2e.test_do_over_e2e import open_table, picker
from tests.e2e.test_long_games_e2e import messages_with, play_own_move, two_player
from tests.e2e.test_reliability_e2e import answer_text

SHARDS = 2


@pytest.fixture
def db_path(db_path: str, pg_target: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", pg_target)
    monkeypatch.setenv("SHARD_COUNT", str(SHARDS))
    monkeypatch.setenv("SHARD_IDS", "0,1")
    return db_path


def shard_world(env: Any, shard: int) -> World:
    guild = env.create_guild(f"Shard {shard}", shard_id=shard)
    channel = guild.create_text_channel("games")
    members = {name: guild.add_member(env.create_user(f"{name}{shard}")) for name in ("alice", "bob", "carol")}
    return World(env, guild, channel, members)


def test_shard_settings_build_an_auto_sharded_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    plain = create_bot()
    assert type(plain) is DeckhandBot and plain.settings.shards is None, "without the settings: unchanged"
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2,3")
    sharded = create_bot()
    assert isinstance(sharded, ShardedDeckhandBot) and isinstance(sharded, DeckhandBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
    assert sharded.settings.shards == Shards(4, (2, 3))
    monkeypatch.setenv("SHARD_IDS", "4")
    with pytest.raises(ValueError, match="SHARD_IDS"):
        Settings.from_env()


@pytest.mark.simcord(shard_count=SHARDS)
async def test_an_auto_sharded_bot_plays_a_game_in_each_shards_guild(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    worlds = [shard_world(env, shard) for shard in range(SHARDS)]
    assert isinstance(env.bot, ShardedDeckhandBot) and env.bot.shard_count == SHARDS
    for shard, world in enumerate(worlds):
        assert env.bot.get_guild(world.guild.id).shard_id == shard == shard_of(world.guild.id, SHARDS)
        await open_table(world, ["alice", "bob"])
        started = await world.members["alice"].slash(world.channel, "game start")
        assert "The game begins" in started.response.content
    finals = [await play_until_over(world, picker(10 + shard)) for shard, world in enumerate(worlds)]
    for final in finals:
        assert "Game over" in final.content and "alice" in final.content
    tables = await env.bot.store.tables.all_tables()
    assert sorted((shard_of(t.guild_id, SHARDS), t.status) for t in tables) == [(0, "finished"), (1, "finished")]
    for table in tables:
        assert await env.bot.tables.verify_replay(table.id)
    assert_within_limits(env)


@pytest.mark.simcord(shard_count=SHARDS)
async def test_only_the_process_holding_shard_0_registers_the_slash_commands(
        simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    env = simcord_env

    def syncs() -> int:
        return env.transcript().count("/commands")

    assert syncs() >= 1, "the first process (shards 0 and 1) registered them"
    before = syncs()
    await env.advance_time(15)
    monkeypatch.setenv("SHARD_IDS", "1")
    await env.restart_bot(create_bot())
    assert syncs() == before, "a process without shard 0 leaves the application's commands alone"
    world = shard_world(env, 1)
    await open_table(world, ["alice", "bob"])  # and its servers' commands work all the same
    await env.advance_time(15)
    monkeypatch.setenv("SHARD_IDS", "0")
    await env.restart_bot(create_bot())
    assert syncs() == before + 1


@pytest.mark.simcord(shard_count=SHARDS)
async def test_a_replacement_with_the_same_shard_takes_over_after_an_abrupt_death(
        simcord_env: Any, db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process holding shard 1 of 2 dies mid-game (tasks cancelled, connections dropped, no close);
    another starts with shard 1: nothing acknowledged is lost, the pending deadline fires exactly once,
    old buttons work, and shard 0's tables, which another process owns, are never touched."""
    env = simcord_env
    monkeypatch.setenv("SHARD_IDS", "1")
    await env.restart_bot(create_bot())  # from here on this process holds shard 1 only
    assert env.bot.shard_ids == [1]
    world = shard_world(env, 1)
    mover, other = await two_player(world, turn_time="60s")
    for _ in range(4):  # acknowledged moves, each by the member to act
        to_act = seats_to_act(latest_table_message(world.channel))
        await play_own_move(world, mover if to_act == [mover.id] else other)
    store = env.bot.store
    table = await store.tables.active_table(world.channel.id)
    acknowledged = [(r.seat, r.action) for r in await store.tables.actions(table.id)]
    assert len(acknowledged) >= 4
    # A table of a guild on shard 0, whose process is another one: its deadline is due first.
    foreign = shard_world(env, 0)
    tables = env.bot.tables
    theirs = await tables.create(guild_id=foreign.guild.id, channel_id=foreign.channel.id, game_id="pentawar",
                                 options=None, user_id=foreign.members["alice"].id, user_name="alice0", turn_time=30)
    await tables.join(foreign.channel.id, foreign.members["bob"].id, "bob0")
    await tables.start(foreign.channel.id, foreign.members["alice"].id, False)
    their_timers = await store.timers.timers_of(theirs.id)
    assert {t.kind for t in their_timers} == {"deadline", "reminder"}
    old_message = latest_table_message(world.channel)
    on_turn = next(m for m in (mover, other) if seats_to_act(old_message) == [m.id])
    pending = [t for t in await store.timers.timers_of(table.id) if t.kind == "deadline"]
    assert len(pending) == 1 and pending[0].due is not None

    # The abrupt death: the scheduler's task is cancelled and both connection pools are cut, no clean close.
    dead: Any = env.bot
    assert dead.scheduler is not None and dead.scheduler._task is not None
    dead.scheduler._task.cancel()
    dead.store._backend._writer.terminate()
    dead.store._backend._reader.terminate()
    Store._open.discard(dead.store)
    dead.store = None
    await env.advance_time(5)  # well before the deadline: a restart keeps 10 s clear of any due timer
    await env.restart_bot(create_bot())
    assert env.bot is not dead and env.bot.shard_ids == [1]
    store = env.bot.store

    # Nothing acknowledged was lost.
    assert [(r.seat, r.action) for r in await store.tables.actions(table.id)][:len(acknowledged)] == acknowledged
    # The pending deadline fires exactly once, after the takeover.
    await env.advance_time(pending[0].due - env.now().timestamp() + 2)
    timeouts = [e for e in await store.tables.seat_events(table.id) if e[2] == "timeout"]
    assert len(timeouts) == 1 and "Time ran out" in latest_table_message(world.channel).content
    await env.advance_time(20)
    assert len([e for e in await store.tables.seat_events(table.id) if e[2] == "timeout"]) == 1
    # Shard 0's table is not this process's: its deadline and reminder, long due, were neither fired nor dropped.
    assert await store.tables.actions(theirs.id) == [] and await store.tables.seat_events(theirs.id) == []
    assert await store.timers.timers_of(theirs.id) == their_timers
    assert not messages_with(foreign.channel, "Time ran out") and not messages_with(foreign.channel, "half your")

    # Old buttons work: the table message from before the death opens the current hand, which acts.
    now_on_turn = seats_to_act(latest_table_message(world.channel))
    member = next(m for m in (mover, other) if now_on_turn == [m.id])
    panel = await open_hand(member, old_message)
    kind, custom_id, value = choices_in(panel)[0]
    acted = await use(member, panel, kind, custom_id, value)
    assert answer_text(acted).startswith("✅"), answer_text(acted)
    assert on_turn in (mover, other)
    assert await env.bot.tables.verify_replay(table.id)
    assert_within_limits(env)


@pytest.mark.simcord(shard_count=SHARDS)
async def test_healthz_names_the_shard_whose_connection_is_down(simcord_env: Any, db_path: str) -> None:
    from bot import WebServing

    bot = simcord_env.bot
    serving = WebServing(bot, None, None, None)  # type: ignore[arg-type]  # only its gateway check
    assert serving.gateway_problem() is None
    await bot.shards[1].disconnect()
    assert serving.gateway_problem() == "the gateway connection of shard 1 is closed"
    await bot.shards[1].reconnect()
    assert serving.gateway_problem() is None
