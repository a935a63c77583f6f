"""Sentences read right: articles, tenses, option errors that list the options, /game rules in words."""

from __future__ import annotations

from typing import Any

from render.words import article
from tests.e2e.driver import latest_table_message, open_hand, seats_to_act
from tests.e2e.test_reliability_e2e import answer_text


def test_articles_follow_the_sound_of_every_game_title() -> None:
    assert [article(t) for t in ("Ogre Cheerleaders", "Pedwar", "Do Over!", "Pentawar",
                                  "Canadian and Ukrainian King Pedro", "unusual", "Ukrainian")] == \
        ["an", "a", "a", "a", "a", "an", "a"]


async def test_an_ogre_cheerleaders_table_is_opened_with_the_right_article(world: Any) -> None:
    opened = await world.members["alice"].slash(world.channel, "game new", game="ogre_cheerleaders")
    assert "opened an **Ogre Cheerleaders** table" in answer_text(opened), answer_text(opened)


async def test_option_errors_list_the_games_options_with_their_values(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    for options in ("target=262", "target=abc", "max_turns=100000"):
        refused = await alice.slash(world.channel, "game new", game="pedwar", options=options)
        text = answer_text(refused)
        assert refused.ephemeral and "Pedwar options: `max_turns`: a whole number from 1 to 5,000" in text, text


async def test_a_turn_time_out_of_range_says_which_side_it_falls(world: Any) -> None:
    refused = await world.members["alice"].slash(world.channel, "game new", game="pedwar", turn_time="5s")
    assert "`5s` is shorter than that" in answer_text(refused), answer_text(refused)


async def test_game_rules_names_a_real_move_in_words_and_the_options_with_their_values(world: Any) -> None:
    shown = await world.members["alice"].slash(world.channel, "game rules", game="king_pedro")
    fields = {f.name: f.value for f in shown.response.embeds[0].fields}
    assert "**Bid 30**" in fields["Your moves"]
    assert "`target`: a whole number from 1 to 262 (default 262)" in fields["Table options"]
    assert "`max_rounds`: a whole number from 1 to 500 (default 100)" in fields["Table options"]


async def test_the_hand_panel_shows_the_seats_deadline_when_the_table_has_a_clock(world: Any) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar", turn_time="1h")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    table = latest_table_message(world.channel)
    due = table.content.split("⏰ <t:")[1].split(":R>")[0]  # the public message's deadline for the first seat
    first = alice if seats_to_act(table)[0] == alice.id else bob
    panel = await open_hand(first, table)
    assert f"⏰ Your deadline: <t:{due}:R>" in panel.content, panel.content
    assert "<t:" not in (panel.attachments[0].description or "")
    await alice.slash(world.channel, "game abandon")

    await world.env.advance_time(3)  # alice's new_cooldown between two /game new
    await alice.slash(world.channel, "game new", game="pedwar")  # no clock: no deadline
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    table = latest_table_message(world.channel)
    first = alice if seats_to_act(table)[0] == alice.id else bob
    panel = await open_hand(first, table)
    assert "deadline" not in panel.content, panel.content
