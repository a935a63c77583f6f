"""Names are text: members whose display names are markup or mentions play a full game of each title
and a small tournament, and every request the bot sends (SimCord records them all) is checked:

- ``allowed_mentions`` is set on every message sent or edited, and pings nobody but the members the
  message names (``<@id>`` in its content): never @everyone, @here, a role, or the member whose id
  another member put in their name;
- no content, embed, button label, select option, autocomplete choice or thread name contains a
  hostile name's markup as written (markdown is escaped where Discord renders it; mentions and
  right-to-left overrides are neutralised everywhere);
- the table image's alt text shows names as written.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from render.markup import escape_name
from tests.e2e.driver import latest_table_message, seat_table, seats_to_act, take_turn

pytestmark = pytest.mark.asyncio

RLO = "\u202e"
#: 32 characters of zalgo: eight letters, each under three combining marks.
ZALGO = "".join(c + "\u0336\u0315\u0358" for c in "zalgoZAL")
MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Hostile:
    """The hostile world: members (by key) whose display names are the names under test, and a
    victim whose id one of them wears and who must never be pinged."""

    env: Any
    guild: Any
    channel: Any
    victim: Any
    role: Any
    members: dict[str, Any] = field(default_factory=dict)


def hostile_names(victim_id: int, role_id: int) -> dict[str, str]:
    return {"everyone": "@everyone", "here": "@here", "pinger": f"<@{victim_id}>", "roler": f"<@&{role_id}>",
            "linker": "[x](https://example.com)", "big": "# big", "spoiler": "||spoiler||", "tick": "tick`tock",
            "bold": "**bold**", "zalgo": ZALGO, "rtl": f"{RLO}evil"}


@pytest.fixture
def hostile(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Hostile names")
    channel = guild.create_text_channel("games")
    victim = guild.add_member(simcord_env.create_user("victim"))
    role = guild.create_role("moderators")
    world = Hostile(simcord_env, guild, channel, victim, role)
    for key, nick in hostile_names(victim.id, role.id).items():
        world.members[key] = guild.add_member(simcord_env.create_user(key), nick=nick)
    return world


def payload_of(entry: Any) -> dict[str, Any] | None:
    body = entry.json
    if isinstance(body, dict) and isinstance(body.get("payload_json"), str):
        body = json.loads(body["payload_json"])
    return body if isinstance(body, dict) else None


def message_of(entry: Any) -> dict[str, Any] | None:
    """The message a request sends or edits (content, embeds, components, allowed_mentions), if any."""
    body = payload_of(entry)
    if body is None:
        return None
    if "/callback" in entry.path:
        data = body.get("data")
        return data if isinstance(data, dict) and body.get("type") in (4, 7) else None
    if "/messages" in entry.path or "/webhooks/" in entry.path:
        return body
    return None


def markdown_texts(message: dict[str, Any]) -> list[str]:
    """The texts of a message Discord renders as markdown."""
    texts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or "",
                  (embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
        for f in embed.get("fields") or []:
            texts += [f.get("name") or "", f.get("value") or ""]
    return texts


def label_texts(message: dict[str, Any]) -> list[str]:
    """The texts of a message's components, which Discord shows as they are."""
    texts = []
    for row in message.get("components") or []:
        for c in row.get("components", [row]):
            texts += [c.get("label") or "", c.get("placeholder") or ""]
            for o in c.get("options") or []:
                texts += [o.get("label") or "", o.get("description") or ""]
    return texts


def unescaped(name: str, text: str) -> bool:
    """Whether ``name`` stands in ``text`` as written, not behind a backslash that escapes its markup."""
    return any(i == 0 or text[i - 1] != "\\" for i in (m.start() for m in re.finditer(re.escape(name), text)))


def check_requests(world: Hostile, since: int = 0) -> dict[str, int]:
    """Every recorded request since ``since``; returns counts of what was checked."""
    raw = hostile_names(world.victim.id, world.role.id)
    mention_like = [raw[k] for k in ("everyone", "here", "pinger", "roler")]
    players = {m.id for m in world.members.values()}
    seen = {"messages": 0, "pings": 0, "labels": 0, "choices": 0, "threads": 0}
    problems: list[str] = []
    for entry in world.env.http_requests[since:]:
        where = f"{entry.method} {entry.path}"
        body = payload_of(entry)
        if body is not None and "/callback" in entry.path and body.get("type") == 8:
            for choice in (body.get("data") or {}).get("choices") or []:
                seen["choices"] += 1
                problems += [f"{where}: choice {choice['name']!r} shows {n!r}" for n in mention_like
                             if n in choice["name"]]
                problems += [f"{where}: a right-to-left override in a choice" for _ in [1] if RLO in choice["name"]]
        if body is not None and entry.path.startswith("/channels/") and "name" in body and "/messages" not in \
                entry.path and ("/threads" in entry.path or entry.method == "PATCH"):
            seen["threads"] += 1
            name = str(body["name"])
            problems += [f"{where}: thread name {name!r} shows {n!r}" for n in mention_like if n in name]
            if RLO in name:
                problems.append(f"{where}: a right-to-left override in a thread name")
        message = message_of(entry)
        if message is None or not any(k in message for k in ("content", "embeds", "components")):
            continue
        seen["messages"] += 1
        allowed = message.get("allowed_mentions")
        if allowed is None:
            problems.append(f"{where}: no allowed_mentions")
            continue
        if set(allowed.get("parse") or ()) & {"everyone", "roles", "users"}:
            problems.append(f"{where}: allowed_mentions parses {allowed['parse']}")
        if allowed.get("roles"):
            problems.append(f"{where}: allowed_mentions names roles {allowed['roles']}")
        named = {int(u) for u in MENTION.findall(message.get("content") or "")}
        for user in map(int, allowed.get("users") or ()):
            seen["pings"] += 1
            if user not in named or user not in players:
                problems.append(f"{where}: allowed_mentions lets {user} be pinged, not named as a player there")
        for text in markdown_texts(message):
            for name in raw.values():
                if unescaped(name, text):
                    problems.append(f"{where}: {name!r} unescaped in {text[:200]!r}")
            if "@everyone" in text or "@here" in text or "<@&" in text:
                problems.append(f"{where}: a mass or role mention in {text[:200]!r}")
            if RLO in text:
                problems.append(f"{where}: a right-to-left override in {text[:200]!r}")
        for text in label_texts(message):
            seen["labels"] += 1
            problems += [f"{where}: label {text!r} shows {n!r}" for n in mention_like if n in text]
            if RLO in text:
                problems.append(f"{where}: a right-to-left override in label {text!r}")
    assert not problems, "\n".join(problems[:30])
    return seen


async def play_to_end(world: Hostile, rng: random.Random, max_moves: int = 4000) -> Any:
    by_id = {m.id: m for m in world.members.values()}
    for turn in range(max_moves):
        message = latest_table_message(world.channel)
        if "Game over" in message.content:
            return message
        ids = seats_to_act(message)
        assert ids, f"nobody human to act, yet the game is not over: {message.content}"
        assert set(ids) <= set(by_id), f"someone not at the table is named to act: {ids}"
        member = by_id[ids[0]]
        if turn < 30:  # /play's suggestions are the panel's labels: checked as autocomplete choices
            await member.autocomplete(world.channel, "play", "action", "")
        await take_turn(member, message, rng.choice)
    raise AssertionError("the game did not end")


GAMES = [
    ("pedwar", ["everyone", "pinger", "linker"], 1, "max_turns=12"),
    ("king_pedro", ["here", "roler"], 2, "target=30 max_rounds=2"),
    ("ogre_cheerleaders", ["big", "spoiler"], 0, None),
    ("do_over", ["tick", "bold", "zalgo"], 0, "max_turns=120"),
    ("pentawar", ["rtl", "pinger", "everyone"], 0, None),
]


@pytest.mark.parametrize("game, players, bots, options", GAMES, ids=[g[0] for g in GAMES])
async def test_hostile_names_play_a_full_game_and_ping_nobody(hostile: Hostile, game: str, players: list[str],
                                                              bots: int, options: str | None) -> None:
    started = await seat_table(hostile, game, players, bots, options)
    assert "The game begins" in started.response.content, started.response.content
    final = await play_to_end(hostile, random.Random(7))
    seen = check_requests(hostile)
    assert seen["messages"] > 10 and seen["labels"] > 10 and seen["choices"] > 10
    assert seen["pings"] > 0, "the members to act are pinged by name"
    # The picture's alt text shows the names as written.
    alt = final.attachments[0].description or ""
    shown = [hostile_names(hostile.victim.id, hostile.role.id)[k] for k in players]
    assert any(name in alt for name in shown), alt[:300]
    # The final standings name every player, escaped ("**bold**" reads as written, not in bold).
    text = final.content + "".join(e.description or "" for e in final.embeds)
    assert all(escape_name(hostile_names(hostile.victim.id, hostile.role.id)[k]) in text for k in players)


async def test_an_option_value_echoed_back_pings_nobody(hostile: Hostile) -> None:
    mark = len(hostile.env.http_requests)
    choices = await hostile.members["everyone"].autocomplete(
        hostile.channel, "game new", "options", f"@everyone <@&{hostile.role.id}> <@{hostile.victim.id}>",
        game="pentawar")
    assert choices and all("@everyone" not in c["name"] and "<@&" not in c["name"] for c in choices)
    assert check_requests(hostile, mark)["choices"] == len(choices)
    # A value refused and echoed back in a code span cannot close the span and pings nobody.
    mark = len(hostile.env.http_requests)
    for kwargs in ({"options": f"@everyone=<@&{hostile.role.id}>"}, {"options": "x=`@here`"},
                   {"turn_time": f"`<@{hostile.victim.id}>`"}):
        refused = await hostile.members["here"].slash(hostile.channel, "game new", game="pentawar", **kwargs)
        assert refused.ephemeral and "`" in refused.response.content, refused.response.content
        assert refused.response.content.count("`") % 2 == 0, refused.response.content
    assert check_requests(hostile, mark)["messages"] == 3


async def test_a_small_tournament_with_hostile_names_and_a_hostile_title(hostile: Hostile) -> None:
    moderator = hostile.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = hostile.guild.add_member(hostile.env.create_user("mona"), roles=[moderator])
    await mona.slash(hostile.channel, "config set", setting="bot_delay", value="10")
    # The member named "@everyone" organises, as a server that lets everyone run tournaments allows.
    await mona.slash(hostile.channel, "config set", setting="tournament_creators", value="everyone")
    organiser = hostile.members["everyone"]
    title = f"@here **Cup** <@&{hostile.role.id}> {RLO}"
    # Its tables end at 120 turns, as the title's full game above does: the names are what is under test here.
    created = await organiser.slash(hostile.channel, "tournament new", game="do_over", format="swiss", table_size=2,
                                    rounds=1, name=title, options="max_turns=120")
    assert not created.ephemeral or "open" in created.response.content, created.response.content
    for key in ("everyone", "pinger", "bold"):
        await hostile.members[key].slash(hostile.channel, "tournament join")
    await organiser.slash(hostile.channel, "tournament addbot", count=1, level="easy")
    await organiser.slash(hostile.channel, "tournament start")
    # An organiser's note and a penalty's reason are member-chosen text too.
    noted = await organiser.slash(hostile.channel, "tournament note", player=hostile.members["bold"],
                                  text=f"@everyone **x** <@&{hostile.role.id}>")
    assert "\\*\\*x\\*\\*" in noted.response.content, noted.response.content
    await organiser.slash(hostile.channel, "tournament penalty", player=hostile.members["pinger"], kind="warning",
                          reason=f"||@here|| <@{hostile.victim.id}>")
    status = await organiser.slash(hostile.channel, "tournament status")
    assert "@everyone" not in str(status.response.content) and "||@here||" not in str(status.response.content)
    threads = list(hostile.channel.threads)
    assert threads and all("@here" not in t.name and RLO not in t.name for t in threads)
    by_id = {m.id: m for m in hostile.members.values()}
    rng = random.Random(3)
    for _ in range(3000):
        moved = False
        for thread in hostile.channel.threads:
            try:
                message = latest_table_message(thread)
            except AssertionError:
                continue
            ids = [i for i in seats_to_act(message) if i in by_id]
            if "Game over" in message.content or not ids:
                continue
            await take_turn(by_id[ids[0]], message, rng.choice)
            moved = True
        if any("is over" in (m.content or "") for m in hostile.channel.history()):
            break
        if not moved:
            await hostile.env.advance_time(300)
    else:
        raise AssertionError("the tournament did not end")
    seen = check_requests(hostile)
    assert seen["threads"] >= 2 and seen["pings"] > 0
    # The paired members are named, so pinged, at their tables.
    named = {int(u) for place in (hostile.channel, *hostile.channel.threads) for m in place.history()
             for u in MENTION.findall(m.content or "")}
    assert named & {hostile.members[k].id for k in ("everyone", "pinger", "bold")}
    assert hostile.victim.id not in named
