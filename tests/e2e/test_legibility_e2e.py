"""The channel stays short and current: steps of one decision update the newest table message in place."""

from __future__ import annotations

import itertools
import re
from typing import Any

from tests.e2e.driver import choices_in, latest_table_message, open_hand, seats_to_act, table_messages, use
from tests.e2e.test_reliability_e2e import answer_text


async def test_each_step_of_a_multi_step_turn_updates_the_newest_table_message(world: Any) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="do_over")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    posted = len(table_messages(world.channel))
    for step in range(3):
        message = latest_table_message(world.channel)
        panel = await open_hand(alice, message)
        assert "moved on" not in (panel.content or ""), f"step {step}: {panel.content}"
        swaps = [c for c in choices_in(panel) if c[2].startswith("swap:")]
        assert swaps, panel.content
        await use(alice, panel, *swaps[0])
        newest = latest_table_message(world.channel)
        assert len(table_messages(world.channel)) == posted, "a step edits the table message, it posts no new one"
        assert f"move {step + 1}" in newest.content, newest.content
    # Three private swaps read as one collapsed line.
    assert "swaps cards in private (×3)" in latest_table_message(world.channel).content
    assert latest_table_message(world.channel).attachments[0].description, "the table image has alt text"


async def test_rules_answer_with_a_summary_and_the_rules_file(world: Any) -> None:
    result = await world.members["alice"].slash(world.channel, "game rules", game="king_pedro")
    assert result.ephemeral and "King Pedro" in answer_text(result)
    files = [a.filename for a in result.response.attachments]
    assert files == ["king-pedro.md"]
    text = (await result.response.attachments[0].read()).decode()
    assert "ruling" in text.lower() or "Ruling" in text


async def test_king_pedro_face_down_discards_collapse_and_table_messages_stay_short(world: Any) -> None:
    """A run of face-down discards reads as one line, and every table message of a whole round stays
    within about 8 lines of text on a phone (the head, the last five lines, the status, who is to act)."""
    from tests.e2e.test_games_e2e import Recorder, seat

    await seat(world, "king_pedro", ["alice", "bob", "carol", "dave"], bots=0, options="target=30 max_rounds=1")
    player = Recorder(3)
    by_id = {m.id: m for m in world.members.values()}
    seen: list[str] = []
    for _ in range(400):
        message = latest_table_message(world.channel)
        seen.append(message.content)
        if "Game over" in message.content:
            break
        await player.turn(by_id[seats_to_act(message)[0]], message)
    else:
        raise AssertionError("the round did not end")
    for content in seen:
        lines = content.splitlines()
        assert len(lines) <= 8, content
        assert all(a != b for a, b in itertools.pairwise(lines)), f"a repeated line: {content}"
    collapsed = [line for content in seen for line in content.splitlines()
                 if re.search(r"discards a card face down \(×[2-9]\d*\)", line)]
    assert collapsed, "a run of face-down discards reads as one line with its count"
