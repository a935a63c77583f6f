"""Ratings in the store: every finished table with two humans moves them, in the results'
transaction, and they can be recomputed exactly from the ``results`` table."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from data.store import Store
from engines import get_engine
from engines.bots import bot_action
from host import TableService
from host.outcomes import sides
from host.tournaments.ratings import human_sides, recompute

pytestmark = pytest.mark.asyncio

channels = itertools.count(1)


async def play(tables: TableService, game: str, humans: list[int], bots: int = 0, options: dict | None = None,
               resign: int | None = None) -> int:
    if game == "do_over" and options is None:
        options = {"max_turns": 40}  # short games: what matters here is how they end
    channel = next(channels)
    await tables.create(guild_id=1, channel_id=channel, game_id=game, options=options, user_id=humans[0],
                        user_name=f"u{humans[0]}")
    for uid in humans[1:]:
        await tables.join(channel, uid, f"u{uid}")
    for _ in range(bots):
        await tables.add_bot(channel, humans[0], False, level="random")
    table = await tables.start(channel, humans[0], False)
    if resign is not None:
        await tables.resign(channel, resign)
    for step in range(20_000):
        table = await tables.get(table.id)
        if table.status != "playing":
            return table.id
        if await tables.bots_to_act(table.id):
            await tables.bot_step(table.id)
            continue
        engine = tables.engine_of(table)
        state = await tables.state(table)
        seat = engine.to_act(state)[0]
        action = bot_action(engine, state, seat, step, level="random")
        await tables.act(table.id, table.seats[seat].user_id or 0, action)
    raise AssertionError("the game did not end")


async def test_ratings_are_recomputed_exactly_from_the_results(store: Store) -> None:
    seeds = itertools.count(40)
    tables = TableService(store, new_seed=lambda: next(seeds))
    played = [
        await play(tables, "do_over", [1, 2, 3]),
        await play(tables, "do_over", [2, 3]),
        await play(tables, "do_over", [1, 3], bots=1),
        await play(tables, "do_over", [1], bots=2),  # one human: not rated
        await play(tables, "king_pedro", [1, 2, 3, 4], options={"max_rounds": 1}),
        await play(tables, "do_over", [3, 4], resign=4),  # a forfeit ends the game: rated too
    ]
    rated = await store.ratings.rated_tables(1, "do_over") + await store.ratings.rated_tables(1, "king_pedro")
    assert sorted(rated) == sorted(played[:3] + played[4:]), "every table with two humans, and only those"
    counts: Counter[int] = Counter()
    for game in ("do_over", "king_pedro"):
        engine = get_engine(game)
        history = []
        for table_id in await store.ratings.rated_tables(1, game):
            table = await store.tables.get_table(table_id)
            assert table is not None
            place = {seat: (user, p) for seat, user, p in await store.tables.results(table_id)}
            by_side = [[None if table.seats[s].is_bot else place[s][0] for s in side]
                       for side in sides(engine, len(table.seats))]
            places = [min(place[s][1] for s in side) for side in sides(engine, len(table.seats))]
            kept = human_sides(by_side, places, lambda user: user is None)
            assert kept is not None
            history.append(kept)
            counts.update((game, u) for side in kept[0] for u in side)
        expected = recompute(history)
        for user, rating in expected.items():
            [stored] = await store.ratings.ratings_of(1, user, game)
            assert (stored.mu, stored.sigma) == (rating.mu, rating.sigma)
            assert stored.games == counts[(game, user)]
    # King Pedro partners share a place, so they move together as a team.
    kp = {r.user_id: r for r in await store.ratings.leaderboard(1, "king_pedro", 1, 10)}
    assert (kp[1].mu, kp[1].sigma) == (kp[3].mu, kp[3].sigma) or (kp[1].mu, kp[1].sigma) == (kp[2].mu, kp[2].sigma) \
        or (kp[1].mu, kp[1].sigma) == (kp[4].mu, kp[4].sigma)


async def test_the_leaderboard_needs_enough_games_and_sorts_by_ordinal(store: Store) -> None:
    seeds = itertools.count(90)
    tables = TableService(store, new_seed=lambda: next(seeds))
    for _ in range(5):
        await play(tables, "do_over", [7, 8])
    await play(tables, "do_over", [7, 9])
    board = await store.ratings.leaderboard(1, "do_over", 5, 20)
    assert {r.user_id for r in board} == {7, 8}, "player 9 has one rated game"
    assert board[0].ordinal >= board[1].ordinal
