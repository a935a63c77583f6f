"""A move is acknowledged with the mover's hand only while they still have a move to make."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.driver import (
    choices_in,
    choose,
    latest_table_message,
    open_hand,
    seats_to_act,
    table_messages,
    take_turn,
)
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


async def test_a_moves_table_picture_is_drawn_while_its_answer_is_on_its_way_and_drawn_once(
        world: Any, latency: Any, monkeypatch: Any) -> None:
    """The table picture of a move that calls for a new table message is begun as soon as the move is
    committed, so that it is drawn while the member is answered (on Discord a round trip of 100-300 ms, here
    250 ms through the latency harness), and the message then shows that picture: one picture a move, asked
    for before the answer is through (it was asked for only after)."""
    from simcord.http.client import FakeWebhookAdapter

    from cogs.pictures import RENDER_POOL

    events: list[str] = []
    submit = RENDER_POOL.submit  # every picture is handed to a worker here (RenderPool.draw too)
    request = FakeWebhookAdapter.request

    def drawing(key: int, fn: Any, /, *args: Any) -> Any:
        events.append(fn.__name__)
        return submit(key, fn, *args)

    async def answering(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await request(adapter, route, *args, **kwargs)
        finally:
            if route.url.endswith("/callback"):
                events.append("answered")

    latency.default = 0.25
    monkeypatch.setattr(RENDER_POOL, "submit", drawing)
    monkeypatch.setattr(FakeWebhookAdapter, "request", answering)
    await seat(world, "king_pedro", ["alice", "bob", "carol", "dave"], bots=0)
    by_id = {m.id: m for m in world.members.values()}
    rnd = random.Random(5)
    checked = 0
    for _ in range(12):
        message = latest_table_message(world.channel)
        member = by_id[seats_to_act(message)[0]]
        panel = await open_hand(member, message)
        posted = len(table_messages(world.channel))
        events.clear()
        await choose(member, panel, rnd.choice)
        if len(table_messages(world.channel)) == posted + 1:  # the turn moved on: a new table message
            checked += 1
            assert events.count("table_png") == 1, events
            assert events.index("table_png") < events.index("answered"), events
    assert checked >= 6, "most moves pass the turn"
