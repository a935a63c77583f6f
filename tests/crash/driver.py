"""Play at six tables through the real bot in SimCord, logging every acknowledgement.

    python -m tests.crash.driver DB ACKS SEED STEPS [--visit-all]

The crash test SIGKILLs this process at random moments. Each line of ACKS is
written (and fsynced) only after the bot acknowledged the change to the member,
so after a kill every line must be found in the database. The world is built the
same way every time, so a restarted driver meets the same guild, channels and
members (SimCord's ids come from its virtual clock) and plays on where it stopped.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sys
from typing import Any, TextIO

CHANNELS = 6
NAMES = ("alice", "bob", "carol", "dave")
TABLE = re.compile(r"table #(\d+)")
MENTION = re.compile(r"<@(\d+)>")


def record(acks: TextIO, line: str) -> None:
    acks.write(line + "\n")
    acks.flush()
    os.fsync(acks.fileno())


def text_of(result: Any) -> str:
    response = result.response
    if response is None:
        return ""
    return "\n".join([response.content or "", *((e.title or "") + (e.description or "") for e in response.embeds)])


async def open_table(channel: Any, members: list[Any], acks: TextIO, rng: random.Random) -> None:
    host, guest = members[0], members[1 + rng.randrange(3)]
    created = await host.slash(channel, "game new", game="do_over", options="max_turns=40")
    found = TABLE.search(text_of(created))
    if created.ephemeral or not found:
        return
    table = found.group(1)
    record(acks, f"new {table} {host.id}")
    joined = await guest.slash(channel, "game join")
    if not joined.ephemeral:
        record(acks, f"join {table} {guest.id}")
    await host.slash(channel, "game addbot")
    started = await host.slash(channel, "game start")
    if "The game begins" in text_of(started):
        record(acks, f"start {table}")


async def move(channel: Any, members: dict[int, Any], acks: TextIO, rng: random.Random) -> bool:
    """One human move at the channel's table; False when there is no table in play."""
    status = await members[next(iter(members))].slash(channel, "game status")
    text = text_of(status)
    found = TABLE.search(text)
    if "To act:" not in text or not found:
        return False
    ids = [int(x) for x in MENTION.findall(text.split("To act:")[1])]
    humans = [members[i] for i in ids if i in members]
    if not humans:
        return True  # bots are to act: they move on their own
    member = humans[0]
    choices = await member.autocomplete(channel, "play", "action", "")
    if not choices:
        return True
    action = rng.choice(choices)["value"]
    played = await member.slash(channel, "play", action=action)
    if text_of(played).startswith("✅"):
        record(acks, f"move {found.group(1)} {member.id} {action}")
    return True


async def main(db: str, acks_path: str, seed: int, steps: int, visit_all: bool) -> None:
    os.environ["DATABASE_PATH"] = db
    os.environ["BOT_DELAY"] = "0"
    os.environ["BOT_LEVEL"] = "easy"  # durability is under test here, not the bots' strength
    logging.basicConfig(level=logging.WARNING)
    import simcord

    from bot import create_bot

    bot = create_bot()
    rng = random.Random(seed)
    runner = simcord.run(bot, check_errors=False)
    # The world exists before the bot starts, as a real server does when a bot restarts:
    # the bot's start-up catch-up then finds every channel.
    env = runner._env
    guild = env.create_guild("Crash test")
    channels = [guild.create_text_channel(f"table-{i}") for i in range(CHANNELS)]
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    by_id = {m.id: m for m in members}
    with open(acks_path, "a", encoding="utf-8") as acks:
        async with runner:
            if visit_all:
                for channel in channels:
                    await move(channel, by_id, acks, rng)
                print("visited", flush=True)
            for _ in range(steps):
                channel = rng.choice(channels)
                if not await move(channel, by_id, acks, rng):
                    await open_table(channel, members, acks, rng)
            await bot.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), "--visit-all" in sys.argv))
