"""Never a hidden card: for random games of every title, at many points, every page and every export is
searched for every card in every seat's hidden hand (as tests/render/test_alt.py searches the alt text).

A card counts as hidden when some seat's own view holds it in ``hand`` and neither the public view nor a
public move label shows its kind (a hand may hold one of several identical cards, as Pedwar's maneuvers).
Cards written as digits alone (Do Over's 1–11, Pedwar's maneuvers 3–5) are not searched for: move numbers,
table ids and places are digits too, so they would be found everywhere; their letter-coded neighbours are.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from data.store import Store
from engines import get_engine
from host import TableService
from host.tournaments.service import TournamentService
from tests.web.helpers import GUILD, PUBLIC, client, new_table, pages_on, play, service

pytestmark = pytest.mark.asyncio

GAMES = [("do_over", 4), ("pedwar", 4), ("king_pedro", 4), ("ogre_cheerleaders", 4), ("pentawar", 5)]


async def hidden_cards(tables: TableService, table: Any, state: Any) -> set[str]:
    engine = get_engine(table.game)
    # The public view and the public move labels: a card kind they show (one of several identical maneuver
    # cards, say) is known to exist, so finding its code says nothing about a hand.
    public = json.dumps(engine.view(state, None)) + json.dumps(
        [a.label for a in await tables.store.tables.actions(table.id)])
    cards: set[str] = set()
    for seat in range(len(table.seats)):
        for card in engine.view(state, seat).get("hand", []) or []:
            code = str(card).split("#")[0]
            if not code.isdigit() and not found({code}, public):
                cards.add(code)
    return cards


def found(cards: set[str], text: str) -> list[str]:
    return [c for c in cards if re.search(rf"(?<![\w#+]){re.escape(c)}(?![\w#+])", text)]


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_no_page_or_export_shows_a_hidden_card(store: Store, game: str, players: int) -> None:
    tables = service(store)
    await store.web.set_channel_public(GUILD, PUBLIC, True)
    await pages_on(store)
    rng = random.Random(game)
    table_id = await new_table(tables, game, PUBLIC, players)
    # A tournament of the same game, its first round seated in threads of the public channel.
    events = TournamentService(tables)
    event = (await events.create(guild_id=GUILD, channel_id=PUBLIC + 1, organiser_id=101, game=game, fmt="swiss",
                                 rounds=None, table_size=None, top_cut=None, turn_time=86400, round_time=None,
                                 options=None, name="Leak Cup")).record.id
    await store.web.set_channel_public(GUILD, PUBLIC + 1, True)
    await events.add_bots(event, 101, False, 4, "easy")
    await events.start(event, 101, False)
    seated = [(await events.seat(place, 70_000 + i)).id for i, place in enumerate(await events.pending(event))]
    g = f"/s/{GUILD}"
    checked = 0
    async with client(store) as c:
        # Up to 12 points with a hidden card searched, and at least 6: the bot entrants' games are not seeded (under
        # load they all ended before the sixth point), and after a game's first rounds the hidden cards may all be
        # digits, which are not searched for (Pedwar's maneuvers); so when the main table has nothing left to
        # search, or is over, a new one is opened in a channel of its own, rather than let the test run dry.
        channel = PUBLIC
        for _ in range(40):
            if checked >= 12:
                break
            for tid in (table_id, *seated):
                table = await tables.get(tid)
                cards = (await hidden_cards(tables, table, await tables.state(table))
                         if table.status == "playing" else set())
                if not cards:
                    if tid == table_id:
                        channel += 10
                        await store.web.set_channel_public(GUILD, channel, True)
                        table_id = await new_table(tables, game, channel, players)
                    continue
                urls = [g, f"{g}/tables/{tid}", f"{g}/tables/{tid}/part", f"{g}/players/101",
                        f"{g}/tournaments/{event}", f"{g}/tournaments/{event}/part",
                        f"{g}/tournaments/{event}/export.csv", f"{g}/tournaments/{event}/export.json"]
                for url in urls:
                    response = await c.get(url)
                    assert response.status == 200, url
                    text = await response.text()
                    assert not found(cards, text), (url, found(cards, text))
                checked += 1
            await play(tables, table_id, rng.randint(3, 9), rng)
            for tid in seated:
                for _ in range(rng.randint(2, 6)):
                    table = await tables.get(tid)
                    if table.status != "playing":
                        break
                    if await tables.bot_step(tid) is None:
                        break
    assert checked >= 6
