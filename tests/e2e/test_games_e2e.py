"""Pedwar, King Pedro, Ogre Cheerleaders and Pentawar played to the end through the real bot."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from typing import Any

import pytest

from tests.e2e.driver import (
    choices_in,
    components,
    latest_table_message,
    open_hand,
    seat_table,
    seats_to_act,
    table_messages,
    use,
)

pytestmark = pytest.mark.asyncio


class Recorder:
    """Plays random controls and remembers who chose what, and every label shown."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.chosen: dict[str, list[str]] = defaultdict(list)
        self.labels: list[str] = []

    async def turn(self, member: Any, message: Any) -> None:
        panel = await open_hand(member, message)
        for _ in range(6):
            for component in components(panel):
                self.labels.append(str(component.get("label") or ""))
                self.labels.extend(o["label"] for o in component.get("options", []))
            options = choices_in(panel)
            assert options, f"{member.name} is to act but has no choices: {panel.content}"
            kind, custom_id, value = self.rng.choice(options)
            result = await use(member, panel, kind, custom_id, value)
            if not value.startswith(">"):
                self.chosen[member.name].append(value)
                return
            panel = result.response
        raise AssertionError("menu nesting did not end")

    async def play_to_end(self, world: Any, max_moves: int = 4000) -> Any:
        by_id = {m.id: m for m in world.members.values()}
        for _ in range(max_moves):
            message = latest_table_message(world.channel)
            if "Game over" in message.content:
                assert not any("{p" in label for label in self.labels), "a seat placeholder reached a player"
                return message
            ids = seats_to_act(message)
            assert ids, f"no human to act and not over: {message.content}"
            await self.turn(by_id[ids[0]], message)
        raise AssertionError("the game did not end")


async def seat(world: Any, game: str, humans: list[str], bots: int, options: str | None = None) -> str:
    started = await seat_table(world, game, humans, bots, options)
    assert "The game begins" in started.response.content, started.response.content
    return started.response.content


async def test_pedwar_full_game_with_humans_and_a_bot_and_a_clicked_trump_phase(world: Any) -> None:
    await seat(world, "pedwar", ["alice", "bob", "carol"], bots=1, options="max_turns=12")
    player = Recorder(11)
    final = await player.play_to_end(world)
    trumpers = {name for name, moves in player.chosen.items()
                if any(m.startswith("raise:") or m == "pass" for m in moves)}
    assert len(trumpers) >= 2, f"the trump phase must be clicked by several members, got {trumpers}"
    # Whoever's trump turn it is gets pinged in the channel.
    pinged = [m for m in table_messages(world.channel) if "Trump" in m.content and seats_to_act(m)]
    assert pinged
    # At the end every Goal and each player's full breakdown is public.
    story = final.embeds[0].description
    assert "Goal" in story and final.attachments


async def test_king_pedro_two_friends_partner_against_two_bots(world: Any) -> None:
    seats_line = await seat(world, "king_pedro", ["alice", "bob"], bots=2, options="target=30 max_rounds=2")
    order = re.findall(r"\d\. ([^,]+?)(?:,|$)", seats_line.split("Seats:")[1].strip())
    positions = {name: i for i, name in enumerate(order)}
    assert positions["alice"] % 2 == positions["bob"] % 2, f"alice and bob must be partners: {order}"
    first = latest_table_message(world.channel)
    panel = await open_hand(world.members["alice"], first)
    bids = [value for _, _, value in choices_in(panel) if value.startswith("bid:")]
    assert not bids or len([c for c in choices_in(panel)]) <= 5 * 25
    final = await Recorder(5).play_to_end(world)
    assert "Game over" in final.content
    # A round's summary is in the table message's text, or in the final embed when the round ends the game.
    posted = ["\n".join([m.content, *(e.description or "" for e in m.embeds)]) for m in table_messages(world.channel)]
    summaries = [text for text in posted if re.search(r"Round \d+ over: .* (made their bid|were set)", text)]
    assert summaries, "each round ends with a summary"
    assert all("Totals:" in text for text in summaries), "a summary gives the new totals"
    assert "win" in final.embeds[0].description.lower()


async def test_ogre_cheerleaders_full_two_player_game(world: Any) -> None:
    await seat(world, "ogre_cheerleaders", ["alice", "bob"], bots=0)
    bench = await world.members["bob"].slash(world.channel, "game bench")
    assert bench.ephemeral and "Bench" in bench.response.content
    final = await Recorder(3).play_to_end(world)
    assert "alice" in final.content and "bob" in final.content


async def test_pentawar_full_three_player_game(world: Any) -> None:
    await seat(world, "pentawar", ["alice", "bob", "carol"], bots=0)
    player = Recorder(8)
    final = await player.play_to_end(world)
    for name in ("alice", "bob", "carol"):
        assert name in final.content
    kills = [label for label in player.labels if label.startswith("Kill ")]
    assert all(re.search(r"Kill (alice|bob|carol)'s", k) for k in kills), kills[:5]
    bench = await world.members["alice"].slash(world.channel, "game bench")
    assert bench.ephemeral and "no table" in bench.response.content.lower()
