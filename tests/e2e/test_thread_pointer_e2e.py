"""A command typed in a channel whose tables play in threads says where they are."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_reliability_e2e import answer_text


async def test_a_command_in_the_parent_channel_points_to_the_tables_thread(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar", thread=True)
    thread = world.channel.threads[0]
    typed = await bob.slash(world.channel, "game join")
    assert typed.ephemeral, answer_text(typed)
    assert f"<#{thread.id}>" in answer_text(typed) and "table #1" in answer_text(typed), answer_text(typed)
    joined = await bob.slash(thread, "game join")
    assert "bob joined" in answer_text(joined)


async def test_a_channel_without_tables_still_says_how_to_start_one(world: Any) -> None:
    typed = await world.members["bob"].slash(world.channel, "game join")
    assert "There is no table in this channel" in answer_text(typed)
