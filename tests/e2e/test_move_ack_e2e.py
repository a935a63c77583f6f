"""A move is acknowledged with the mover's hand only while they still have a move to make."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.driver import choices_in, latest_table_message, seats_to_act, take_turn
from tests.e2e.test_games_e2e import seat


async def test_a_move_that_ends_your_part_is_answered_in_words_and_a_step_with_your_hand(world: Any) -> None:
    """Ogre Cheerleaders: a play with an effect still to choose keeps the hand panel; a move that passes
    the turn is answered without a hand image or controls, and says how to see the hand again."""
    await seat(world, "ogre_cheerleaders", ["alice", "bob"], bots=0)
    by_id = {m.id: m for m in world.members.values()}
    rnd = random.Random(4)
    seen = {"done": 0, "step": 0}
    for _ in range(200):
        message = latest_table_message(world.channel)
        if "Game over" in message.content or min(seen.values()) >= 2:
            break
        result = await take_turn(by_id[seats_to_act(message)[0]], message, rnd.choice)
        ack = result.response
        assert ack.ephemeral and ack.content.startswith("✅"), ack.content
        if choices_in(ack):
            seen["step"] += 1
            assert [a.filename for a in ack.attachments] == ["hand.png"] and ack.attachments[0].description
        else:
            seen["done"] += 1
            assert ack.attachments == [] and not ack.components, "nothing to act on: no hand image, no controls"
            assert "Waiting for" in ack.content or "The game is over." in ack.content
            if "Waiting for" in ack.content:
                assert "**Hand / act**" in ack.content
    assert min(seen.values()) >= 2, f"both kinds of move were made: {seen}"
