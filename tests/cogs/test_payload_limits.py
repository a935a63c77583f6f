"""Random games of every title at the largest table: every panel and sub-menu fits Discord's limits.

The hand panel of each seat to act, every nested sub-menu it opens, the lobby and
the public table message are built exactly as the bot sends them, with 32-character
names (Discord's longest), and their payloads are checked against the limits.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import i18n
from cogs.menu import NAV
from cogs.presenter import Outgoing, hand_message, lobby_message, table_message
from data.store import SeatRecord, TableRecord
from engines import GAME_IDS, get_engine
from host import HandPanel, table_views
from host.names import fill_names
from tests.limits import message_violations

LONG_NAMES = ["Bob Zürich Überspieler of Cards~", "Ｆｕｌｌｗｉｄｔｈ　Ｎａｍｅ　Ｈｅｒｅ　１２３４",
              "👨‍👩‍👧 family table legend, again!", "Анастасія Ґалаґан-Їжакевич ЄІ",
              "Ελευθέριος Παπαδόπουλος-Κωστή", "최고의 카드 게임 플레이어 이름 길이"]


def payload(out: Outgoing) -> dict[str, Any]:
    components = out.view.to_components() if out.view is not None else []
    return {"content": out.content, "components": components,
            "embeds": [out.embed.to_dict()] if out.embed is not None else []}


def table_record(game: str, players: int) -> TableRecord:
    seats = [SeatRecord(i, 1000 + i, LONG_NAMES[i % len(LONG_NAMES)], i % 3 == 2) for i in range(players)]
    return TableRecord(id=987654321, guild_id=1, channel_id=2, game=game, options={}, status="playing", seed=1,
                       version=123456, snapshot=None, host_id=1000, posted_version=0, seats=seats)


async def panel_violations(info: HandPanel, prefix: str = "", depth: int = 0, lang: str = "en") -> list[str]:
    out = await hand_message(info, prefix, lang=lang)
    data = payload(out)
    bad = message_violations(data, f"{info.picture.game} panel {prefix or '(top)'}")
    assert depth < 6, "sub-menus nest too deep"
    for row in data["components"]:
        for child in row["components"]:
            for option in child.get("options", []):
                if option["value"].startswith(NAV):
                    bad += await panel_violations(info, option["value"][len(NAV):], depth + 1, lang)
    return bad


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
async def test_every_panel_of_a_random_game_fits(game: str, lang: str, seed: int) -> None:
    """In each language: the move labels, the game's lines and the panels' words as that language says them."""
    engine = get_engine(game)
    players = engine.max_players
    table = table_record(game, players)
    names = [s.name for s in table.seats]
    rng = random.Random(seed)
    state = engine.new_game(players, seed, {"max_turns": 120} if "max_turns" in engine.default_options else None)
    bad = message_violations(payload(lobby_message(table_views.lobby(table), "x" * 300)), "lobby")
    steps = 0
    while not engine.is_over(state) and steps < 400:
        to_act = engine.to_act(state)
        if steps % 7 == 0:  # every state would be slow: images are drawn for each panel
            for seat in to_act:
                choices = [(a, fill_names(i18n.say_text(lang, engine.describe(state, a)), names))
                           for a in engine.legal_actions(state, seat)]
                info = table_views.hand_panel(table, seat, state, choices)
                bad += await panel_violations(info, lang=lang)
            lines = [*(["**x** did y"] * 38), *engine.events(state)]
            shown = table_views.table_message(table, state, lines, {}, None)
            bad += message_violations(payload(await table_message(shown, lang)), "table message")
        seat = to_act[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        steps += 1
    assert not bad, "\n".join(bad[:10])


async def test_discord_view_custom_ids_are_unique_on_a_crowded_panel() -> None:
    """Two choices with one label never share a custom_id (Discord refuses the message)."""
    table = table_record("do_over", 6)
    engine = get_engine("do_over")
    state = engine.new_game(6, 1)
    choices = [(f"play:{i}", "Play a card") for i in range(8)]
    info = table_views.hand_panel(table, 0, state, choices)
    out = await hand_message(info)
    assert isinstance(out.view, discord.ui.View)
    ids = [c["custom_id"] for row in out.view.to_components() for c in row["components"]]
    assert len(ids) == len(set(ids))
