"""The web pages speak their server's language (its ``language`` setting, as its channels do): ``<html lang>``,
the pages' words from the catalogues, numbers and dates the language's way; English stays the default."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from data.store import Store
from host.web import PublicSite
from tests.languages import english_left
from tests.web.helpers import GUILD, pages_on, service
from tests.web.test_routes import urls, world

pytestmark = pytest.mark.asyncio



async def pages(store: Store, lang: str) -> dict[str, str]:
    from tests.web.helpers import client

    ids = await world(store)
    await pages_on(store)
    await store.settings.set_guild_setting(GUILD, "language", lang, 1)
    version = (await store.tables.get_table(ids["table"])).version
    found = {}
    async with client(store) as c:
        for url in urls(ids, version):
            response = await c.get(url)
            assert response.status == 200, url
            if response.content_type == "text/html":
                found[url] = await response.text()
    assert len(found) == 7  # server, table and its part, tournament and its part, leaderboard, player
    return found


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_every_page_speaks_the_servers_language(store: Store, lang: str) -> None:
    for url, page in (await pages(store, lang)).items():
        if not url.endswith("/part"):
            assert f'<html lang="{lang}">' in page, url
        # The table page's moves, status line and picture's alt text are said again from their messages too.
        assert english_left([html.unescape(page)], lang) == [], url


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_page_words_numbers_and_reasons_in_the_servers_language(store: Store, lang: str) -> None:
    shown = await pages(store, lang)
    server = next(page for url, page in shown.items() if url == f"/s/{GUILD}")
    assert {"fr": "Tables en cours", "uk": "Столи в грі"}[lang] in server
    # King Pedro's title keeps its name and translates its descriptive part, as the commands' choices do
    assert {"fr": "King Pedro canadien et ukrainien", "uk": "Канадсько-український Кінг Педро"}[lang] in server
    assert "Canadian and Ukrainian" not in server
    event = next(page for url, page in shown.items() if "/tournaments/" in url and not url.endswith("/part"))
    # OPP as a percentage the language's way: 50,0 % in French, 50,0% in Ukrainian; never 50.0%
    assert re.search(r"\d+,\d\s?%", html.unescape(event)) and not re.search(r"\d+\.\d%", event)
    tables = service(store)
    table_id = int(re.search(r"/tables/(\d+)", server).group(1))  # type: ignore[union-attr]
    assert await tables.close_deleted(table_id) is not None
    from tests.web.helpers import client

    async with client(store) as c:
        page = html.unescape(await (await c.get(f"/s/{GUILD}/tables/{table_id}")).text())
    assert {"fr": "Cette table a été abandonnée : salon supprimé.",
            "uk": "Цей стіл покинуто: канал видалено."}[lang] in page


async def test_auto_follows_the_servers_discord_language_when_the_bot_knows_it(store: Store) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import make_app

    await world(store)
    await pages_on(store)
    for known, expected in ((None, "en"), ("uk", "uk"), ("fr-CA", "fr"), ("de", "en")):
        site = PublicSite(store, locale_of=lambda guild_id, known=known: known)
        async with TestClient(TestServer(make_app(site))) as c:
            assert f'<html lang="{expected}">' in await (await c.get(f"/s/{GUILD}")).text(), known
    await store.settings.set_guild_setting(GUILD, "language", "fr", 1)  # a set language wins over Discord's
    async with TestClient(TestServer(make_app(PublicSite(store, locale_of=lambda _: "uk")))) as c:
        assert '<html lang="fr">' in await (await c.get(f"/s/{GUILD}")).text()


async def test_the_bots_pages_follow_a_servers_discord_language(world: Any) -> None:
    """bot.py gives the site the guilds' Discord languages: with ``auto``, a French server's pages are French."""
    site = world.env.bot.get_cog("ProfileCog").site
    canadian = world.env.create_guild("Québec", preferred_locale="fr")
    assert await site.language(canadian.id) == "fr"
    assert await site.language(world.guild.id) == "en"  # SimCord's default, en-US


async def test_python_m_web_follows_the_discord_language_the_bot_stored(store: Store) -> None:
    """``python -m web`` has no gateway (no ``locale_of``): with ``auto``, a server's pages speak the Discord
    language the bot stored for it; a set language still wins; a server the bot never saw is English."""
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import make_app

    await world(store)
    await pages_on(store)
    site = PublicSite(store)
    async with TestClient(TestServer(make_app(site))) as c:
        assert '<html lang="en">' in await (await c.get(f"/s/{GUILD}")).text()
        await store.settings.set_guild_locale(GUILD, "fr-CA")
        assert '<html lang="fr">' in await (await c.get(f"/s/{GUILD}")).text()
        await store.settings.set_guild_setting(GUILD, "language", "uk", 1)
        assert '<html lang="uk">' in await (await c.get(f"/s/{GUILD}")).text()


async def test_the_bot_stores_each_servers_discord_language(world: Any) -> None:
    """The bot stores the Discord language of the servers it is in when it connects, joins one, or sees one
    change it, so the pages' separate process can follow ``auto`` (written only when it changed)."""
    store = world.env.bot.get_cog("ProfileCog").site.store
    await world.env.settle()
    assert await store.settings.guild_locale(world.guild.id) == "en-US"
    canadian = world.env.create_guild("Québec", preferred_locale="fr")
    await world.env.settle()
    assert await store.settings.guild_locale(canadian.id) == "fr"
    bot = world.env.bot
    before = type("Guild", (), {"preferred_locale": None})()
    await bot.on_guild_update(before, bot.get_guild(canadian.id))
    assert await store.settings.guild_locale(canadian.id) == "fr"
    written = []
    store.settings.set_guild_locale = lambda *args: written.append(args)  # type: ignore[method-assign]
    await bot.locale_seen(bot.get_guild(canadian.id))
    assert written == []  # unchanged: no write


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_the_index_and_404_speak_the_browsers_language(store: Store, lang: str) -> None:
    """The pages of no server (the index, a 404) speak the first language of the browser's Accept-Language
    that Deckhand speaks, never a server's (a 404 tells nothing of what exists)."""
    from tests.web.helpers import client

    await world(store)
    await store.settings.set_guild_setting(GUILD, "language", "uk" if lang == "fr" else "fr", 1)
    headers = {"Accept-Language": f"de-DE, {lang};q=0.8, en;q=0.5"}
    async with client(store) as c:
        index = await c.get("/", headers=headers)
        missing = await c.get(f"/s/{GUILD}/tables/999", headers=headers)
        english = await c.get("/nowhere", headers={"Accept-Language": "en-GB,fr;q=0.9"})
        plain = await c.get("/nowhere")
        for response in (index, missing):
            page = html.unescape(await response.text())
            assert f'<html lang="{lang}">' in page
            assert english_left([page], lang) == []
            assert response.headers["Vary"] == "Accept-Language"
        assert missing.status == 404
        assert {"fr": "Introuvable", "uk": "Не знайдено"}[lang] in await missing.text()
        assert english.status == 404 and '<html lang="en">' in await english.text()
        assert "There is no page here." in await plain.text()


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_the_bracket_picture_speaks_the_servers_language(store: Store, lang: str) -> None:
    """The bracket's title on the web page is the server's language's, as the one posted in its channel."""
    from tests.web.helpers import PUBLIC, bot_event

    await store.web.set_channel_public(GUILD, PUBLIC, True)
    tid = await bot_event(store, service(store), players=4, rounds=1, fmt="single_elimination")
    await pages_on(store)
    await store.settings.set_guild_setting(GUILD, "language", lang, 1)
    found = await PublicSite(store).bracket_image(GUILD, tid)
    assert found is not None
    png, alt = found
    assert png.startswith(b"\x89PNG")
    assert alt.startswith("Autumn Cup · " + {"fr": "tableau", "uk": "сітка"}[lang])
    assert english_left([alt], lang) == []


@pytest.mark.parametrize(("lang", "fallback"), [("en", "Entrant {n}"), ("fr", "Inscription n° {n}"),
                                                ("uk", "Учасник {n}")])
async def test_an_entrant_without_a_name_is_named_in_the_servers_language(store: Store, lang: str,
                                                                          fallback: str) -> None:
    ids = await world(store)
    await pages_on(store)
    await store.settings.set_guild_setting(GUILD, "language", lang, 1)
    async with store.transaction() as tx:
        row = await tx.fetchone("SELECT MIN(id) FROM entrants WHERE tournament_id = ?", (ids["event"],))
        await tx.execute("UPDATE entrants SET name = '' WHERE id = ?", (row[0],))
    page = await PublicSite(store).tournament(GUILD, ids["event"])
    assert page is not None
    said = fallback.format(n=row[0])
    shown = [s.name for s in page.standings] + [n for r in page.rounds for t in r.tables for side in t.sides
                                                 for n in side]
    assert said in shown and "" not in shown, shown
