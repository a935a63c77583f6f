"""Do Over! through the real bot in SimCord: lobby, swaps, clicks, refusals, restart."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot import create_bot
from tests.e2e.driver import (
    choices_in,
    hand_button_id,
    latest_table_message,
    open_hand,
    play_until_over,
    seats_to_act,
    table_messages,
    take_turn,
)

pytestmark = pytest.mark.asyncio


def picker(seed: int) -> Any:
    rng = random.Random(seed)

    def pick(options: list[tuple[str, str | None, str]]) -> tuple[str, str | None, str]:
        # Swap at most now and then so the swap step ends; otherwise uniform.
        values = [o for o in options if not o[2].startswith("swap")]
        return rng.choice(values or options)

    return pick


async def open_table(world: Any, players: list[str], options: str = "max_turns=200") -> Any:
    alice = world.members[players[0]]
    result = await alice.slash(world.channel, "game new", game="do_over", options=options)
    assert not result.ephemeral and result.response.embeds[0].title.startswith("Do Over!")
    lobby = result.response
    for name in players[1:]:
        # Half join by command, half by the lobby button.
        if name in ("bob", "dave"):
            joined = await world.members[name].slash(world.channel, "game join")
            assert not joined.ephemeral
        else:
            await world.members[name].click(lobby, label="Join")
    return lobby


async def test_a_full_three_player_game_from_new_to_the_winner(world: Any) -> None:
    await open_table(world, ["alice", "bob", "carol"])
    started = await world.members["alice"].slash(world.channel, "game start")
    assert "The game begins" in started.response.content
    first = latest_table_message(world.channel)
    assert first.attachments[0].filename == "table.png"
    assert len(seats_to_act(first)) == 3, "the swap step is simultaneous: everyone is to act"

    # Swap step through the ephemeral panel: bob swaps once before he is ready.
    bob = world.members["bob"]
    panel = await open_hand(bob, first)
    assert panel.attachments[0].filename == "hand.png"
    swaps = [c for c in choices_in(panel) if c[2].startswith("swap:")]
    assert swaps and any(c[2] == "ready" for c in choices_in(panel))
    swapped = await bob.select(panel, [swaps[0][2]], custom_id=swaps[0][1]) if swaps[0][0] == "select" else \
        await bob.click(panel, custom_id=swaps[0][1])
    assert swapped.response.ephemeral and "✅" in swapped.response.content

    final = await play_until_over(world, picker(1))
    assert "Game over" in final.content
    for name in ("alice", "bob", "carol"):
        assert name in final.content
    assert not [c for c in final.components], "a finished table offers no controls"
    # Every table message is public and carries a table image.
    assert all(not m.flags.ephemeral for m in table_messages(world.channel))


async def test_a_game_with_bot_seats_plays_itself_around_the_human(world: Any) -> None:
    alice = world.members["alice"]
    await alice.slash(world.channel, "game new", game="do_over", options="max_turns=120")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    final = await play_until_over(world, picker(2))
    assert "Robo Ada" in final.content and "Robo Bix" in final.content
    # Bots moved on their own: there are table messages whose last line is a bot's move.
    assert any("**Robo" in m.content for m in table_messages(world.channel))


async def test_refusals_are_ephemeral_and_change_nothing(world: Any) -> None:
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    await open_table(world, ["alice", "bob", "carol"])

    # A second table in a busy channel.
    busy = await dave.slash(world.channel, "game new", game="do_over")
    assert busy.ephemeral and "already has a table" in busy.response.content
    # Only the host may start.
    not_host = await bob.slash(world.channel, "game start")
    assert not_host.ephemeral and "host" in not_host.response.content
    await alice.slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    before = message.content

    # A stranger's click on the Hand / act button.
    stranger = await dave.click(message, custom_id=hand_button_id(message))
    assert stranger.ephemeral and "not playing" in stranger.response.content

    # Finish the swap step, then act out of turn.
    for name in ("alice", "bob", "carol"):
        await take_turn(world.members[name], latest_table_message(world.channel),
                        lambda opts: next(o for o in opts if o[2] == "ready"))
    message = latest_table_message(world.channel)
    on_turn = seats_to_act(message)[0]
    idle = next(m for m in (alice, bob, carol) if m.id != on_turn)
    wrong = await idle.slash(world.channel, "play", action="take")
    assert wrong.ephemeral and "not your turn" in wrong.response.content

    # An illegal action typed into /play.
    mover = next(m for m in (alice, bob, carol) if m.id == on_turn)
    illegal = await mover.slash(world.channel, "play", action="play:99")
    assert illegal.ephemeral and "isn't a legal move" in illegal.response.content

    # A stale button: open the panel, let the table move on, then click the old control.
    panel = await open_hand(mover, message)
    choice = choices_in(panel)[0]
    legal = await mover.slash(world.channel, "play", action=choice[2])
    assert legal.ephemeral and "✅" in legal.response.content
    version_after = latest_table_message(world.channel).content
    old = await (mover.click(panel, custom_id=choice[1]) if choice[0] == "button"
                 else mover.select(panel, [choice[2]], custom_id=choice[1]))
    assert old.ephemeral and "moved on" in (old.response.content + "".join(f.content for f in old.followups))
    assert latest_table_message(world.channel).content == version_after

    # A forged / garbled custom_id on a message.
    channel = world.env.bot.get_channel(world.channel.id)
    forged_view = discord.ui.View()
    forged_view.add_item(discord.ui.Button(label="Forged", custom_id="dh:a:99999:0:take"))
    forged_view.add_item(discord.ui.Button(label="Garbled", custom_id="dh:zz:x"))
    forged_view.add_item(discord.ui.Button(label="Alien", custom_id="not-ours"))
    forged_msg = await channel.send("forged", view=forged_view)
    for label, expect in (("Forged", "does not exist"), ("Garbled", "recognise"), ("Alien", "recognise")):
        res = await alice.click(forged_msg, label=label)
        assert res.ephemeral and expect in res.response.content

    # The finished / abandoned table.
    not_host_abandon = await bob.slash(world.channel, "game abandon")
    assert not_host_abandon.ephemeral
    done = await alice.slash(world.channel, "game abandon")
    assert not done.ephemeral and "abandoned" in done.response.content
    late = await mover.click(message, custom_id=hand_button_id(message))
    assert late.ephemeral and "abandoned" in late.response.content.lower()
    late_play = await mover.slash(world.channel, "play", action="take")
    assert late_play.ephemeral and "no table" in late_play.response.content
    assert before  # the first table message still exists, untouched
    world.env.errors  # noqa: B018 - reading acknowledges logged errors; none are expected
    assert not world.env.errors


async def test_play_autocomplete_offers_the_invokers_legal_actions(world: Any) -> None:
    await open_table(world, ["alice", "bob"])
    await world.members["alice"].slash(world.channel, "game start")
    choices = await world.members["bob"].autocomplete(world.channel, "play", "action", "")
    values = {c["value"] for c in choices}
    assert "ready" in values and any(v.startswith("swap:") for v in values)
    narrowed = await world.members["bob"].autocomplete(world.channel, "play", "action", "ready")
    assert [c["value"] for c in narrowed] == ["ready"]
    assert await world.members["dave"].autocomplete(world.channel, "play", "action", "") == []


async def test_a_restart_mid_game_keeps_the_game_and_old_buttons_work(world: Any, db_path: str) -> None:
    await open_table(world, ["alice", "bob", "carol"])
    await world.members["alice"].slash(world.channel, "game start")
    pick = picker(3)
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(12):
        message = latest_table_message(world.channel)
        await take_turn(by_id[seats_to_act(message)[0]], message, pick)
    old_message = latest_table_message(world.channel)
    on_turn = by_id[seats_to_act(old_message)[0]]

    await world.env.restart_bot(create_bot())

    # The old table message's Hand / act button still works after the restart.
    panel = await open_hand(on_turn, old_message)
    assert choices_in(panel), "the player on turn gets their controls back"
    final = await play_until_over(world, pick)
    assert "Game over" in final.content


async def test_buttons_keep_working_after_ephemeral_panels_expire(world: Any) -> None:
    """A panel older than an ephemeral view's 15-minute life still acts: nothing depends on a live View."""
    await open_table(world, ["alice", "bob"])
    await world.members["alice"].slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    panel = await open_hand(world.members["bob"], message)
    await world.env.advance_time(16 * 60)  # past the 15-minute life of an ephemeral view
    # The first click after the expiry, before any new panel could re-register anything.
    ready = next(c for c in choices_in(panel) if c[2] == "ready")
    clicked = await world.members["bob"].click(panel, custom_id=ready[1])
    assert clicked.acknowledged and "✅" in clicked.response.content
    again = await open_hand(world.members["alice"], message)
    assert choices_in(again)
