"""Live pages and the bracket: a table's event stream says ``change`` after a move; a tournament's after a
table finishes; a single- or double-elimination bracket is served as a picture with alt text on its page."""

from __future__ import annotations

import asyncio
import random

import pytest

from data.store import Store
from tests.web.helpers import GUILD, PUBLIC, bot_event, client, new_table, pages_on, play, service

pytestmark = pytest.mark.asyncio


async def next_event(stream: object) -> str:
    lines = []
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), 5)).decode()  # type: ignore[attr-defined]
        if line.startswith("event:"):
            lines.append(line.strip())
        if line == "\n" and lines:
            return lines[-1]


async def test_a_table_stream_tells_of_a_move(store: Store) -> None:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    tid = await new_table(tables, "do_over", PUBLIC, 3)
    async with client(store, live_interval=0.05) as c:
        page = await (await c.get(f"/s/{GUILD}/tables/{tid}")).text()
        stamp = page.split('data-stamp="')[1].split('"')[0]
        stream = await c.get(f"/s/{GUILD}/tables/{tid}/live?since={stamp}")
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        await play(tables, tid, 1, random.Random(1))
        assert await next_event(stream) == "event: change"
        part = await (await c.get(f"/s/{GUILD}/tables/{tid}/part")).text()
        assert 'data-version="1"' in part
        await pages_on(store, on=False)  # the stream ends with the pages
        assert await asyncio.wait_for(stream.content.read(), 5) == b""
        stream.close()


async def test_a_single_elimination_bracket_is_served_with_alt_text(store: Store) -> None:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    event = await bot_event(store, tables, players=8, rounds=1, fmt="single_elimination")
    async with client(store) as c:
        page = await (await c.get(f"/s/{GUILD}/tournaments/{event}")).text()
        assert "/bracket.png" in page and 'alt="The bracket of' in page
        picture = await c.get(f"/s/{GUILD}/tournaments/{event}/bracket.png")
        assert picture.status == 200 and picture.content_type == "image/png"
        assert (await picture.read()).startswith(b"\x89PNG")
        stream = await c.get(f"/s/{GUILD}/tournaments/{event}/live?since=old")
        assert await next_event(stream) == "event: change"  # a page that saw an older stamp hears at once
        stream.close()


async def test_a_double_elimination_bracket_is_served_with_both_brackets(store: Store) -> None:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    event = await bot_event(store, tables, game="pedwar", players=6, rounds=2, fmt="double_elimination")
    async with client(store) as c:
        page = await (await c.get(f"/s/{GUILD}/tournaments/{event}")).text()
        assert "/bracket.png" in page
        picture = await c.get(f"/s/{GUILD}/tournaments/{event}/bracket.png")
        assert picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
