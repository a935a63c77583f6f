"""Finished means finished: however a game ends, its last table message and picture show the end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.driver import latest_table_message, seats_to_act
from tests.e2e.test_reliability_e2e import answer_text

TWO_PLAYER = ("pedwar", "do_over", "ogre_cheerleaders", "pentawar")


async def seated(world: Any, game: str, names: tuple[str, ...], **clock: Any) -> list[Any]:
    members = [world.members[n] for n in names]
    created = await members[0].slash(world.channel, "game new", game=game, **clock)
    assert not created.ephemeral, answer_text(created)
    for member in members[1:]:
        await member.slash(world.channel, "game join")
    started = await members[0].slash(world.channel, "game start")
    assert "To act" in latest_table_message(world.channel).content, answer_text(started)
    return members


def assert_over(world: Any, winner: Any | None) -> None:
    final = latest_table_message(world.channel)
    assert "To act" not in final.content and "to act" not in final.content, final.content
    alt = final.attachments[0].description or ""
    assert "To act" not in alt and "Game over" in alt, alt
    assert not final.components, "a finished table offers no Hand / act"
    if winner is not None:
        assert final.embeds, "the final message has its standings in an embed"
        standings = final.embeds[0].description or ""
        assert f"🥇 {winner.name}" in standings, standings
        assert "1st" in alt, alt


@pytest.mark.parametrize("game", TWO_PLAYER)
async def test_a_resignation_ends_the_game_with_standings_and_nobody_to_act(world: Any, game: str) -> None:
    alice, bob = await seated(world, game, ("alice", "bob"))
    await alice.slash(world.channel, "game resign")
    assert_over(world, bob)


@pytest.mark.parametrize("game", TWO_PLAYER)
async def test_a_forfeit_on_time_ends_the_game_with_standings(world: Any, game: str) -> None:
    alice, bob = await seated(world, game, ("alice", "bob"), turn_time="30s", on_timeout="forfeit")
    first = seats_to_act(latest_table_message(world.channel))[0]
    await world.env.advance_time(31)
    assert_over(world, bob if first == alice.id else alice)


@pytest.mark.parametrize("game", (*TWO_PLAYER, "king_pedro"))
async def test_an_abandoned_game_shows_no_one_to_act(world: Any, game: str) -> None:
    names = ("alice", "bob", "carol", "dave") if game == "king_pedro" else ("alice", "bob")
    alice, *_ = await seated(world, game, names)
    await alice.slash(world.channel, "game abandon")
    assert_over(world, None)
    # Its result, none, in the embed as a finished game's standings are, with the seats.
    [embed] = latest_table_message(world.channel).embeds
    assert embed.title == "No result" and "nobody places" in (embed.description or "")
    assert all(f". {name}\n" in (embed.description or "") + "\n" for name in names), embed.description
