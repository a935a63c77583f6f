"""The channel stays short and current: steps of one decision update the newest table message in place."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

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


RULES = {"do_over": ("do-over.md", "Do Over!"), "pedwar": ("pedwar.md", "Pedwar"),
         "king_pedro": ("king-pedro.md", "King Pedro"),
         "ogre_cheerleaders": ("ogre-cheerleaders.md", "Ogre Cheerleaders"), "pentawar": ("pentawar.md", "Pentawar")}


@pytest.mark.parametrize("game", sorted(RULES))
async def test_every_game_s_rules_are_in_the_repository_attached_and_linked(world: Any, game: str) -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    filename, title = RULES[game]
    result = await world.members["alice"].slash(world.channel, "game rules", game=game)
    assert result.ephemeral and title in answer_text(result)
    assert [a.filename for a in result.response.attachments] == [filename]
    attached = (await result.response.attachments[0].read()).decode()
    assert attached == (root / "docs" / "rules" / filename).read_text(encoding="utf-8")
    assert title in attached.splitlines()[0] and "/game new" in attached  # written for players at this table
    assert f"(docs/rules/{filename})" in (root / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in (root / "README.md").read_text(encoding="utf-8")


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
        alt = message.attachments[0].description or ""
        assert alt.startswith("King Pedro table.") and "Last action: " in alt, alt  # every picture has alt text
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
                 if re.search(r"discards [2-9]\d* cards face down", line)]
    assert collapsed, "a run of face-down discards reads as one line with its count"


SANDBOX_RUN = """
import contextlib, os, sys
sys.path.insert(0, os.getcwd())
import bot as deckhand

class Preview:
    url = "http://sandbox.invalid/"
    _pages = {}
    _active_action = None
    def _publish(self, page, **kwargs):
        return None
    async def wait_closed(self):  # the browser closes at once: the sandbox stops
        return None

@contextlib.asynccontextmanager
async def preview(self, channel, **kwargs):
    for message in channel.history():
        print("MESSAGE:", message.content, flush=True)
    yield Preview()

import sandbox as deckhand_sandbox

real_serve = deckhand_sandbox.serve

async def serve(*args):
    import simcord  # imported here, as the sandbox does, so its import-time warnings are seen as they are

    simcord.Env.preview = preview
    await real_serve(*args)

deckhand_sandbox.serve = serve
sys.exit(deckhand.main(["--sandbox"]))  # as bot.py --sandbox, logging set up as there
"""


def test_the_sandbox_opens_games_with_a_welcome_and_no_alarming_warnings(tmp_path: Any) -> None:
    """A newcomer's first minute: #games starts with how to begin (`/game new`) and how to switch
    members, and the start-up logs no warnings about voice support or intents. A fresh interpreter,
    since discord.py warns about voice once per process and simcord about intents on import."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "SANDBOX_DATABASE_PATH": str(tmp_path / "sandbox.sqlite3"), "DISCORD_TOKEN": "",
           "LOG_LEVEL": "INFO", "DATABASE_URL": "", "PYTHONUNBUFFERED": "1"}
    run = subprocess.run([sys.executable, "-c", SANDBOX_RUN], cwd=root, env=env, text=True, capture_output=True,
                         timeout=120)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    messages = [line for line in run.stdout.splitlines() if line.startswith("MESSAGE:")]
    assert len(messages) == 1, out
    assert "/game new" in messages[0] and "Viewing as" in messages[0]
    lowered = out.lower()
    assert "voice will not be supported" not in lowered and "intent" not in lowered, out
