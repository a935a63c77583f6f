"""Join against abandon, many times over, at two tables in two channels.

Every change that was acknowledged (returned without a Refusal) must be in the
database afterwards, and every answer must say what really happened.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from data.store import Store
from data.timers import BOT, DEADLINE
from host import LobbyChange, Refusal, StaleClick, TableService

ROUNDS = 60


async def jitter(rng: random.Random) -> None:
    for _ in range(rng.randrange(4)):
        await asyncio.sleep(0)


async def test_join_racing_abandon_never_undoes_an_acknowledged_change(store: Store) -> None:
    tables = TableService(store)
    rng = random.Random(13)
    outcomes: dict[str, int] = {"join won": 0, "abandon won": 0}
    for round_no in range(ROUNDS):
        lobbies = []
        for channel in (1, 2):
            table = await tables.create(guild_id=1, channel_id=channel, game_id="do_over", options=None,
                                        user_id=10, user_name="host")
            lobbies.append(table)
        joiner = 100 + round_no

        async def join(channel: int, joiner: int = joiner) -> LobbyChange | Refusal:
            await jitter(rng)
            try:
                return await tables.join(channel, joiner, "joiner")
            except Refusal as refusal:
                return refusal

        async def abandon(channel: int) -> Any:
            await jitter(rng)
            return await tables.abandon(channel, 10, False)

        results = await asyncio.gather(join(1), abandon(1), join(2), abandon(2))
        for lobby, joined, abandoned in ((lobbies[0], results[0], results[1]), (lobbies[1], results[2], results[3])):
            stored = await store.tables.get_table(lobby.id)
            assert stored is not None
            # The abandon was acknowledged, so it stays acknowledged.
            assert abandoned.status == "abandoned" and stored.status == "abandoned"
            seated = {s.user_id for s in stored.seats}
            if isinstance(joined, LobbyChange):
                outcomes["join won"] += 1
                assert not joined.closed, "a successful join is never answered 'the table is closed'"
                assert joiner in seated, "an acknowledged join is in the database"
            else:
                outcomes["abandon won"] += 1
                text = str(joined)
                assert "already started" not in text, f"a join refused by a close said: {text}"
                assert "just closed" in text or "no table in this channel" in text, text
                assert joiner not in seated
        # The channels are free again: nothing is stuck half-abandoned.
        assert await store.tables.active_table(1) is None and await store.tables.active_table(2) is None
    assert outcomes["join won"] and outcomes["abandon won"], f"the race must go both ways: {outcomes}"


async def test_concurrent_joins_fill_a_table_exactly(store: Store) -> None:
    tables = TableService(store)
    await tables.create(guild_id=1, channel_id=7, game_id="pentawar", options=None, user_id=1, user_name="h")
    results = await asyncio.gather(*(tables.join(7, uid, f"u{uid}") for uid in range(2, 12)),
                                   return_exceptions=True)
    joined = [r for r in results if isinstance(r, LobbyChange)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(joined) == 4 and len(refused) == 6
    assert all("full" in str(r) for r in refused)
    table = await store.tables.active_table(7)
    assert table is not None and len(table.seats) == 5


async def test_abandon_during_play_races_a_move(store: Store) -> None:
    """A move and an abandon at once: either the move lands then the table closes, or the move is refused."""
    from tests.host.test_store import started

    for seed in range(20):
        tables = TableService(store, new_seed=lambda s=seed: s)
        table = await started(tables, 2, channel=100 + seed)
        state = await tables.state(table)
        engine = tables.engine_of(table)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        move, closed = await asyncio.gather(
            tables.act(table.id, table.seats[seat].user_id, action, table.version),
            tables.abandon(100 + seed, 100, False), return_exceptions=True)
        stored = await store.tables.get_table(table.id)
        assert stored is not None and stored.status == "abandoned" and not isinstance(closed, BaseException)
        logged = await store.tables.actions(table.id)
        if isinstance(move, BaseException):
            assert isinstance(move, Refusal) and "abandoned" in str(move) and not logged
        else:
            assert [a.action for a in logged] == [action]


async def _table_with_a_bot_to_act(store: Store) -> tuple[TableService, Any]:
    """A Do Over! table of a member (user 1, host) and an easy bot, at its swap step: both act at once."""
    tables = TableService(store, new_seed=lambda: 5, bot_delay=30.0)
    await tables.create(guild_id=1, channel_id=7, game_id="do_over", options=None, user_id=1, user_name="a")
    await tables.add_bot(7, 1, False, level="easy")
    table = await tables.start(7, 1, False)
    assert await tables.bots_to_act(table.id)
    return tables, table


async def test_a_pause_while_a_bot_thinks_drops_its_move(store: Store) -> None:
    tables, table = await _table_with_a_bot_to_act(store)
    think = tables.bot_choice

    async def paused_meanwhile(*args: Any) -> str:
        action = await think(*args)
        await tables.pause(7, 1, False)
        return action

    tables.bot_choice = paused_meanwhile  # type: ignore[method-assign]
    try:
        await tables.bot_step(table.id)
    except StaleClick:
        pass
    else:
        raise AssertionError("a bot's move was applied to a paused table")
    after = await tables.reload(table.id)
    assert after.paused and after.version == table.version


async def test_a_paused_tables_bot_timer_waits_for_the_resume(store: Store) -> None:
    """The scheduler may have read a bot timer just before the pause froze it: firing it then must not
    drop it, or the resumed table would wait for a bot that is never told to move."""
    tables, table = await _table_with_a_bot_to_act(store)
    assert [t.kind for t in await store.timers.timers_of(table.id)].count(BOT) == 1
    await tables.pause(7, 1, False)
    assert await tables.bot_step(table.id) is None
    await tables.drop_idle_bot_timer(table.id)
    bot = [t for t in await store.timers.timers_of(table.id) if t.kind == BOT]
    assert len(bot) == 1 and bot[0].due is None, "frozen, not dropped"
    assert not await store.timers.take_timer(bot[0]), "a frozen timer is not taken"
    await tables.resume(7, 1, False)
    bot = [t for t in await store.timers.timers_of(table.id) if t.kind == BOT]
    assert len(bot) == 1 and bot[0].due is not None


async def test_one_expiry_counts_once_when_the_bots_later_step_fails(store: Store) -> None:
    """The timeout's first bot step commits the count; if a later step of the same decision fails (a dead
    worker, a restart), the retry finishes the decision without counting the expiry again."""
    clock = [1000.0]
    store.now = lambda: clock[0]  # type: ignore[method-assign]
    tables = TableService(store, new_seed=lambda: 7)
    await tables.create(guild_id=1, channel_id=5, game_id="do_over", options=None, user_id=100, user_name="alice",
                        turn_time=600)
    await tables.join(5, 101, "bob")
    table = await tables.start(5, 100, False)
    think = tables.bot_choice
    calls = []

    async def dies_on_the_second_step(*args: Any) -> str:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the worker died")
        return await think(*args)

    tables.bot_choice = dies_on_the_second_step  # type: ignore[method-assign]
    clock[0] = 1600
    deadline = next(t for t in await store.timers.timers_of(table.id) if t.kind == DEADLINE and t.seat == 0)
    try:
        await tables.timeout(deadline)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the seat's decision took one step: this test needs two")
    tables.bot_choice = think  # type: ignore[method-assign]
    clock[0] = 1660  # the scheduler's retry
    retry = next(t for t in await store.timers.timers_of(table.id) if t.kind == DEADLINE and t.seat == 0)
    assert retry.started == deadline.started
    await tables.timeout(retry)
    assert (await store.tables.get_table(table.id)).seats[0].timeouts == 1  # type: ignore[union-attr]
    assert [e[2] for e in await store.tables.seat_events(table.id) if e[1] == 0] == ["timeout"]
    state = await tables.state(await tables.get(table.id))
    assert 0 not in tables.engine_of(table).to_act(state), "the decision was finished"
