"""A game's own words (move labels, the public lines, events and status lines) in the server's and the
member's language: a Do Over! table in a French and a Ukrainian server, and its log in any language."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from tests.e2e.driver import components, configure, latest_table_message, seats_to_act, take_turn
from tests.languages import english_left


def words_of(message: Any) -> list[str]:
    """A message's text, its controls' labels and its attachments' alt text."""
    texts = [message.content or ""]
    for component in components(message):
        texts.append(component.get("label") or "")
        texts.extend(option.get("label", "") for option in component.get("options", []))
    texts.extend(a.description or "" for a in message.attachments)
    return [text for text in texts if text]


@pytest.mark.parametrize("lang", ["fr", "uk"])
async def test_a_do_over_table_speaks_the_servers_language_and_panels_the_members(
        world: Any, db_path: str, lang: str, member_locales: dict[int, str]) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    for member in (alice, bob):
        member_locales[member.id] = lang
    await configure(world, language=lang)
    await alice.slash(world.channel, "game new", game="do_over")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    by_id = {alice.id: alice, bob.id: bob}
    rng = random.Random(7)
    seen: list[str] = []
    for _ in range(40):
        message = latest_table_message(world.channel)
        seen += words_of(message)
        ids = seats_to_act(message)
        if not ids:
            break
        done = await take_turn(by_id[ids[0]], message, rng.choice)
        seen += words_of(done.response) if done.response is not None else []
    lines = [line for message in world.channel.history() for line in (message.content or "").splitlines()]
    assert any("**alice**" in line or "**bob**" in line for line in lines), "moves were told"
    assert english_left(seen + lines, lang) == []
    with sqlite3.connect(db_path) as db:
        logged = db.execute("SELECT label, label_id, label_params FROM actions ORDER BY version").fetchall()
    assert logged and all(label_id and params for _, label_id, params in logged)
    assert all(label.isascii() or "**" in label for label, _, _ in logged), "the log keeps English labels"


async def test_an_english_member_at_a_french_table_gets_english_move_labels(
        world: Any, member_locales: dict[int, str]) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    member_locales[bob.id] = "fr"
    await configure(world, language="fr")
    await alice.slash(world.channel, "game new", game="do_over")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game start")
    message = latest_table_message(world.channel)
    assert "Étape d'échange" in message.content
    panels = {}
    for member in (alice, bob):
        result = await member.click(message, custom_id=next(c["custom_id"] for c in components(message)
                                                            if c.get("custom_id", "").startswith("dh:h:")))
        panels[member.name] = [label for label in words_of(result.response)]
    assert any("Ready: done swapping" in text for text in panels["alice"])
    assert any("Valider : échanges finis" in text for text in panels["bob"])
