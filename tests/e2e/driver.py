"""Helpers that play through Discord the way a person would: open the hand, pick a control."""

from __future__ import annotations

from typing import Any

import discord
from simcord.results import to_discord_message

import i18n
from bench._common import configure as configure_server


def components(message: Any) -> list[dict[str, Any]]:
    """Flattened component dicts of a ResponseMessage or discord.Message."""
    rows = message.components
    out: list[dict[str, Any]] = []
    for row in rows:
        if isinstance(row, dict):
            out.extend(row.get("components", [row]))
        else:  # discord.ActionRow
            for child in row.children:
                out.append(child.to_dict())
    return out


def table_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.attachments and m.attachments[0].filename == "table.png"]


def hand_button_id(message: Any) -> str:
    """The table message's **Hand / act** button, in whatever language the server reads."""
    return next(c["custom_id"] for c in components(message) if str(c.get("custom_id", "")).startswith("dh:h:"))


def choices_in(panel: Any) -> list[tuple[str, str | None, str]]:
    """(kind, custom_id, value) for every action control on an ephemeral hand panel."""
    found: list[tuple[str, str | None, str]] = []
    for c in components(panel):
        cid = c.get("custom_id", "")
        if c.get("type") == 2 and cid.startswith("dh:a:"):
            found.append(("button", cid, cid.split(":", 4)[4]))
        elif c.get("type") == 3:
            for option in c.get("options", []):
                found.append(("select", cid, option["value"]))
    return found


async def use(member: Any, panel: Any, kind: str, custom_id: str | None, value: str) -> Any:
    if kind == "button":
        return await member.click(panel, custom_id=custom_id)
    return await member.select(panel, [value], custom_id=custom_id)


MENTION = __import__("re").compile(r"<@(\d+)>")


def latest_table_message(channel: Any) -> discord.Message:
    """The newest public table message (scans from the end: history() rebuilds every message)."""
    env = channel._env
    stored = env.backend.messages.get(channel.id, {})
    for message_id in sorted(stored, reverse=True):
        message = to_discord_message(env, stored[message_id])
        if not message.flags.ephemeral and message.attachments and message.attachments[0].filename == "table.png":
            return message
    raise AssertionError("no table message has been posted")


def seats_to_act(message: discord.Message) -> list[int]:
    """User ids mentioned after 'To act:' (in the server's language) in a table message."""
    for lang in i18n.languages():
        _, sep, tail = message.content.partition(i18n.t(lang, "To act:"))
        if sep:
            return [int(x) for x in MENTION.findall(tail)]
    return []


async def open_hand(member: Any, message: Any) -> Any:
    result = await member.click(message, custom_id=hand_button_id(message))
    assert result.ephemeral, "the hand panel must be ephemeral"
    return result.response


async def take_turn(member: Any, message: Any, pick: Any) -> Any:
    """Open the hand from ``message`` and make one move; ``pick(choices)`` chooses a control
    (``rng.choice``: a random one, as a member trying things would).

    Follows nested selects (values starting with '>') until an action is made.
    Returns the last interaction result.
    """
    return await choose(member, await open_hand(member, message), pick)


async def choose(member: Any, panel: Any, pick: Any) -> Any:
    """On an open hand ``panel``, use the control ``pick(choices)`` chooses, following nested selects until an
    action is made; returns that interaction's result."""
    for _ in range(6):
        options = choices_in(panel)
        assert options, f"{member.name} is to act but the panel offers no choices: {panel.content}"
        kind, custom_id, value = pick(options)
        result = await use(member, panel, kind, custom_id, value)
        if not value.startswith(">"):
            return result
        panel = result.response
    raise AssertionError("menu nesting did not end")


async def seat_table(world: Any, game: str, humans: list[str], bots: int = 0, options: str | None = None) -> Any:
    """``humans[0]`` opens a ``game`` table in the world's channel (``/game new``), the other humans join, the
    host adds ``bots`` bots and starts it. Each step is answered in public; returns ``/game start``'s answer
    (``world``: anything with ``channel`` and ``members`` by name)."""
    host = world.members[humans[0]]
    kwargs = {"game": game} if options is None else {"game": game, "options": options}
    created = await host.slash(world.channel, "game new", **kwargs)
    assert not created.ephemeral, created.response.content
    for name in humans[1:]:
        joined = await world.members[name].slash(world.channel, "game join")
        assert not joined.ephemeral, joined.response.content
    for _ in range(bots):
        await host.slash(world.channel, "game addbot")
    return await host.slash(world.channel, "game start")


async def play_until_over(world: Any, pick: Any, max_moves: int = 3000) -> discord.Message:
    """Drive every human through the public table messages until the game is announced over."""
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(max_moves):
        message = latest_table_message(world.channel)
        if "Game over" in message.content:
            return message
        ids = seats_to_act(message)
        assert ids, f"nobody human to act, yet the game is not over: {message.content}"
        await take_turn(by_id[ids[0]], message, pick)
    raise AssertionError("the game did not end")


async def configure(world: Any, **values: Any) -> None:
    """A server manager sets ``values`` with ``/config set``: how a test that opens many tables or tournaments
    quickly raises the flood limits it needs (issue 26), as a server would."""
    await configure_server(world.env, world.guild, world.channel, **values)
