"""Worlds for the web tests: tables and tournaments played below Discord, straight through host."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from data.store import Store
from engines import get_engine
from host import TableService
from host.tournaments.service import TournamentService
from host.web import PublicSite
from web.app import make_app

GUILD = 1
PUBLIC = 500
PRIVATE = 501
OTHER_GUILD = 2
NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
seeds = itertools.count(11)


def service(store: Store) -> TableService:
    return TableService(store, new_seed=lambda: next(seeds))


async def pages_on(store: Store, guild: int = GUILD, on: bool = True) -> None:
    await store.set_guild_setting(guild, "web_pages", "on" if on else "off", 1)


async def new_table(tables: TableService, game: str, channel: int, players: int | None = None,
                    guild: int = GUILD, parent: int | None = None) -> int:
    engine = get_engine(game)
    count = players or engine.min_players
    table = await tables.create(guild_id=guild, channel_id=channel, game_id=game, options=None, user_id=101,
                                user_name=NAMES[0], parent_id=parent)
    for i in range(1, count):
        await tables.join(channel, 101 + i, NAMES[i], table.id)
    await tables.start(channel, 101, False, table.id)
    return table.id


async def play(tables: TableService, table_id: int, moves: int, rng: random.Random) -> int:
    """Up to ``moves`` random legal moves; the number made."""
    made = 0
    for _ in range(moves):
        table = await tables.get(table_id)
        if table.status != "playing":
            break
        engine = get_engine(table.game)
        state = await tables.state(table)
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        await tables.act(table_id, table.seats[seat].user_id, action, table.version)
        made += 1
    return made


async def bot_event(store: Store, tables: TableService, players: int = 8, rounds: int = 2,
                    game: str = "do_over", fmt: str = "swiss", channel: int = PUBLIC) -> int:
    """A tournament of ``players`` bots (and two members), played ``rounds`` rounds by bots."""
    svc = TournamentService(tables)
    state = await svc.create(guild_id=GUILD, channel_id=channel, organiser_id=101, game=game, fmt=fmt, rounds=None,
                             table_size=None, top_cut=None, turn_time=86400, round_time=None, options=None,
                             name="Autumn Cup")
    tid = state.record.id
    await svc.join(tid, 101, "ann")
    await svc.join(tid, 102, "bob")
    await svc.add_bots(tid, 101, False, players - 2, "easy")
    await svc.start(tid, 101, False)
    threads = itertools.count(90_000 + channel * 10)
    rng = random.Random(tid)
    for _ in range(rounds):
        record = await store.tournament(tid)
        if record is None or record.status != "playing":
            break
        seated = [(await svc.seat(place, next(threads))).id for place in await svc.pending(tid)]
        for table_id in seated:
            for _ in range(20_000):
                table = await tables.get(table_id)
                if table.status != "playing":
                    break
                if await tables.bot_step(table_id) is None:
                    await play(tables, table_id, 1, rng)
            await svc.table_finished(table_id)
    return tid


@asynccontextmanager
async def client(store: Store, **kw: Any) -> AsyncIterator[TestClient]:
    app = make_app(PublicSite(store), **kw)
    async with TestClient(TestServer(app)) as c:
        yield c
