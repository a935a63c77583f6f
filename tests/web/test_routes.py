"""Every route through aiohttp's test client, on both backends: what exists, what 404s, nothing writable."""

from __future__ import annotations

import random
import re

import pytest

from data.store import Store
from host.tournaments.service import TournamentService
from tests.web.helpers import GUILD, OTHER_GUILD, PRIVATE, PUBLIC, bot_event, client, new_table, pages_on, play, service

pytestmark = pytest.mark.asyncio


async def world(store: Store) -> dict[str, int]:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await store.web.set_channel_public(GUILD, PRIVATE, False)
    shown = await new_table(tables, "king_pedro", PUBLIC, 4)
    await play(tables, shown, 12, random.Random(1))
    private = await new_table(tables, "do_over", PRIVATE, 3)
    event = await bot_event(store, tables, players=8, rounds=1)
    return {"table": shown, "private": private, "event": event}


def urls(ids: dict[str, int], version: int) -> list[str]:
    g, t, e = f"/s/{GUILD}", ids["table"], ids["event"]
    return [g, f"{g}/tables/{t}", f"{g}/tables/{t}/part", f"{g}/tables/{t}/v{version}.png",
            f"{g}/tables/{t}/replay/0.png", f"{g}/tables/{t}/replay/{version}.png", f"{g}/tournaments/{e}",
            f"{g}/tournaments/{e}/part", f"{g}/tournaments/{e}/export.csv", f"{g}/tournaments/{e}/export.json",
            f"{g}/leaderboard/do_over", f"{g}/leaderboard/do_over.csv", f"{g}/players/101"]


async def test_pages_404_until_turned_on_and_again_after_off(store: Store) -> None:
    ids = await world(store)
    version = (await store.tables.get_table(ids["table"])).version
    async with client(store) as c:
        for url in urls(ids, version):
            assert (await c.get(url)).status == 404, url
        await pages_on(store)
        for url in urls(ids, version):
            response = await c.get(url)
            assert response.status == 200, url
            await response.read()
        await pages_on(store, on=False)
        for url in urls(ids, version):
            assert (await c.get(url)).status == 404, url


async def test_private_channels_unknown_ids_and_other_servers_404(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    await pages_on(store, OTHER_GUILD)
    g = f"/s/{GUILD}"
    async with client(store) as c:
        for url in (f"{g}/tables/{ids['private']}", f"{g}/tables/{ids['private']}/replay/0.png",
                    f"{g}/tables/99999", f"{g}/tournaments/99999", f"{g}/players/99999", f"{g}/leaderboard/chess",
                    f"{g}/tables/{ids['table']}/v999.png", f"{g}/tables/{ids['table']}/replay/999.png",
                    f"/s/{OTHER_GUILD}/tables/{ids['table']}", f"/s/{OTHER_GUILD}/tournaments/{ids['event']}",
                    f"{g}/tables/0", f"{g}/tables/99999999999999999999999", "/s/0", "/s/abc", "/nothing",
                    f"{g}/tables/{ids['private']}/live"):
            assert (await c.get(url)).status == 404, url
        server = await (await c.get(g)).text()
        assert f"/tables/{ids['table']}" in server and f"/tables/{ids['private']}\"" not in server


async def test_nothing_is_writable(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    async with client(store) as c:
        for url in [*urls(ids, 1), "/healthz", "/metrics"]:
            for method in ("POST", "PUT", "DELETE", "PATCH"):
                response = await c.request(method, url)
                assert response.status == 405, (method, url)


async def test_a_hidden_player_page_404s_and_their_name_links_nowhere(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    g = f"/s/{GUILD}"
    async with client(store) as c:
        assert f"{g}/players/102" in await (await c.get(f"{g}/tables/{ids['table']}")).text()
        await store.web.set_profile_hidden(102, True)
        assert (await c.get(f"{g}/players/102")).status == 404
        for url in (f"{g}/tables/{ids['table']}", f"{g}/tournaments/{ids['event']}"):
            assert f"{g}/players/102" not in await (await c.get(url)).text(), url
        await store.web.set_profile_hidden(102, False)
        assert (await c.get(f"{g}/players/102")).status == 200


async def test_pages_are_accessible_html(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    version = (await store.tables.get_table(ids["table"])).version
    async with client(store) as c:
        for url in urls(ids, version):
            response = await c.get(url)
            if response.content_type != "text/html" or url.endswith("/part"):
                continue
            html = await response.text()
            assert '<html lang="en">' in html and "<title>" in html and "<h1>" in html, url
            assert 'name="viewport"' in html, url
            if "<table>" in html:
                assert "<th" in html, url
            assert html.count("<img") == html.count(' alt="'), url


async def test_the_table_image_is_cached_per_version(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    version = (await store.tables.get_table(ids["table"])).version
    async with client(store) as c:
        first = await c.get(f"/s/{GUILD}/tables/{ids['table']}/v{version}.png")
        assert first.status == 200 and first.content_type == "image/png"
        assert "immutable" in first.headers["Cache-Control"]
        assert (await c.get(f"/s/{GUILD}/tables/{ids['table']}/v{version - 1}.png")).status == 404


async def test_an_abandoned_tables_page_says_why_it_ended(store: Store) -> None:
    ids = await world(store)
    await pages_on(store)
    # The table's channel was deleted (cogs/flow.py's channel_deleted closes it the same way).
    assert await service(store).close_deleted(ids["table"]) is not None
    async with client(store) as c:
        page = await (await c.get(f"/s/{GUILD}/tables/{ids['table']}")).text()
    assert "This table was abandoned: channel deleted." in page


async def test_every_player_a_tournament_page_links_has_a_page(store: Store) -> None:
    """An entrant who registered but never sat at a table is linked from the tournament page: their player page
    is served (it 404'd: a player page was only for members who had sat at a table)."""
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    svc = TournamentService(tables)
    state = await svc.create(guild_id=GUILD, channel_id=PUBLIC, organiser_id=101, game="do_over", fmt="swiss",
                             rounds=None, table_size=None, top_cut=None, turn_time=86400, round_time=None,
                             options=None, name="Spring Cup")
    await svc.join(state.record.id, 101, "ann")
    await svc.join(state.record.id, 107, "gus")
    async with client(store) as c:
        page = await (await c.get(f"/s/{GUILD}/tournaments/{state.record.id}")).text()
        linked = set(re.findall(rf"/s/{GUILD}/players/(\d+)", page))
        assert linked == {"101", "107"}
        for user in linked:
            response = await c.get(f"/s/{GUILD}/players/{user}")
            assert response.status == 200, user
            assert "Spring Cup" in await response.text()
        assert (await c.get(f"/s/{GUILD}/players/108")).status == 404  # never entered nor sat here
