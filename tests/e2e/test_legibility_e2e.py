"""The channel stays short and current: steps of one decision update the newest table message in place."""

from __future__ import annotations

from typing import Any

from tests.e2e.driver import choices_in, latest_table_message, open_hand, table_messages, use
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
