"""Live pages and the bracket: a table's event stream says ``change`` after a move; a tournament's after a
table finishes; a single- or double-elimination bracket is served as a picture with alt text on its page."""

from __future__ import annotations

import asyncio
import random

import pytest

from data.store import Store
from tests.web.helpers import GUILD, OTHER_GUILD, PUBLIC, bot_event, client, new_table, pages_on, play, service

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


async def test_many_pages_following_a_table_share_one_build_of_its_live_part(store: Store) -> None:
    """Thirty pages fetching a table's live part at once after a move: the part is read and rendered once
    (web.live.Shared), each page gets the same bytes, and the next move is built once more."""
    from web.app import PARTS

    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    tid = await new_table(tables, "do_over", PUBLIC, 3)
    async with client(store) as c:
        parts = c.server.app[PARTS]
        url = f"/s/{GUILD}/tables/{tid}/part"
        for moves in (1, 2):
            await play(tables, tid, 1, random.Random(moves))
            before = parts.builds
            answers = await asyncio.gather(*(c.get(url) for _ in range(30)))
            bodies = {await a.text() for a in answers}
            assert [a.status for a in answers] == [200] * 30
            assert len(bodies) == 1 and f'data-version="{moves}"' in bodies.pop()
            assert parts.builds == before + 1
        pictures = await asyncio.gather(*(c.get(f"/s/{GUILD}/tables/{tid}/v2.png") for _ in range(10)))
        assert {p.status for p in pictures} == {200}
        assert len({await p.read() for p in pictures}) == 1


async def test_a_kept_live_part_never_outlives_its_gates(store: Store) -> None:
    """The part is kept per stamp, but every fetch checks the gates: a member who hides their page stops
    being linked on the next fetch, and pages turned off (or a channel made private) 404 at once."""
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    tid = await new_table(tables, "do_over", PUBLIC, 3)
    url = f"/s/{GUILD}/tables/{tid}/part"
    async with client(store) as c:
        assert f"/players/{102}" in await (await c.get(url)).text()
        await store.web.set_profile_hidden(102, True)
        shown = await (await c.get(url)).text()
        assert f"/players/{102}" not in shown and f"/players/{101}" in shown
        await store.web.set_profile_hidden(102, False)
        assert f"/players/{102}" in await (await c.get(url)).text()
        await store.web.set_channel_public(GUILD, PUBLIC, False)
        assert (await c.get(url)).status == 404
        assert (await c.get(f"/s/{GUILD}/tables/{tid}/v0.png")).status == 404
        await store.web.set_channel_public(GUILD, PUBLIC, True)
        assert (await c.get(url)).status == 200
        await pages_on(store, on=False)
        assert (await c.get(url)).status == 404
        assert (await c.get(f"/s/{GUILD}/tables/{tid}/live")).status == 404
        assert (await c.get(f"/s/{OTHER_GUILD}/tables/{tid}/part")).status == 404
