"""A click takes a turn of the event loop (the store's ``Turns``) before its work: clicks that arrive together
each start in the same turn, and their first steps used to hold the loop together before any reached the
store's turns (bench/README.md, the loop during a burst)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord

from cogs.controls import ActButton, ActSelect
from data.database import Turns


class CountingTurns:
    def __init__(self) -> None:
        self.taken = 0

    async def take(self) -> None:
        self.taken += 1


async def test_a_button_and_a_menu_of_ours_each_take_a_turn_before_their_work() -> None:
    turns = CountingTurns()
    interaction = SimpleNamespace(client=SimpleNamespace(turns=turns))
    button = discord.ui.Button(label="Play", custom_id="dh:a:1:0:play")
    menu = discord.ui.Select(custom_id="dh:s:1:0:0", options=[discord.SelectOption(label="a")])
    made = await ActButton.from_custom_id(interaction, button, None)  # type: ignore[arg-type]
    assert made.item.custom_id == "dh:a:1:0:play" and turns.taken == 1
    await ActSelect.from_custom_id(interaction, menu, None)  # type: ignore[arg-type]
    assert turns.taken == 2


async def test_a_click_arriving_when_the_turn_is_spent_goes_on_in_a_later_turn() -> None:
    turns = Turns(turn=0.0)  # a turn is spent as soon as it starts: the second click of a turn waits
    interaction = SimpleNamespace(client=SimpleNamespace(turns=turns))
    button = discord.ui.Button(label="Play", custom_id="dh:a:1:0:play")
    first, second = (asyncio.ensure_future(ActButton.from_custom_id(interaction, button, None))  # type: ignore[arg-type]
                     for _ in range(2))
    await asyncio.sleep(0)  # both clicks started in that turn of the loop
    assert first.done() and not second.done(), "the second click waits for a later turn"
    await asyncio.wait_for(second, 1.0)


async def test_without_turns_a_click_goes_on_at_once() -> None:
    interaction = SimpleNamespace(client=SimpleNamespace())
    button = discord.ui.Button(label="Play", custom_id="dh:a:1:0:play")
    assert (await ActButton.from_custom_id(interaction, button, None)).item.label == "Play"  # type: ignore[arg-type]
