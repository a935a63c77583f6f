"""Every refusal of issue 26 is answered privately, within 3 s, and leaves the database unchanged.

Each is made at 1 s a REST call (tests/latency.py), so an answer that waited on Discord before refusing would
miss Discord's 3 seconds. The database is read whole before and after (every row of every table but the two
notes every interaction refreshes), and nothing is posted in any channel.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.e2e.driver import configure
from tests.e2e.test_lost_channel_e2e import whole_database
from tests.e2e.test_reliability_e2e import answer_text
from tests.latency import Latency

pytestmark = pytest.mark.simcord(settle_timeout=60)


def private(result: Any) -> bool:
    answers = [m for m in (result.response, *result.followups) if m is not None]
    return bool(answers) and all(m.flags.ephemeral for m in answers)


async def refused(world: Any, latency: Latency, db_path: str, member: Any, channel: Any, command: str,
                  names: str, **options: Any) -> str:
    """``command`` is refused privately, within 3 s, naming ``names``, and changes nothing."""
    before = whole_database(db_path)
    mark = len(latency.calls)
    result = await member.slash(channel, command, **options)
    text = answer_text(result)
    assert private(result), text
    assert names in text, text
    late = {i: (s, status) for i, (s, status) in latency.first_responses().items() if s >= 3 or status >= 300}
    assert not late, late
    assert whole_database(db_path) == before, f"/{command} {options} changed something"
    posted = [(c.method, c.path) for c in latency.calls[mark:] if c.path.startswith("/channels/")]
    assert not posted, posted
    return text


async def test_each_flood_limit_is_refused_privately_within_3s_changing_nothing(world: Any, db_path: str,
                                                                               latency: Latency) -> None:
    alice, bob, carol = (world.members[n] for n in ("alice", "bob", "carol"))
    await configure(world, max_open_tables=2, max_thread_tables=0, max_entrants_limit=2, max_bot_entrants=0)
    latency.default = 1.0
    await alice.slash(world.channel, "game new", game="pentawar")
    other, more = world.guild.create_text_channel("other"), world.guild.create_text_channel("more")
    await refused(world, latency, db_path, alice, other, "game new", "`new_cooldown`", game="pentawar")
    await world.env.advance_time(3)
    await alice.slash(more, "game new", game="pentawar")
    text = await refused(world, latency, db_path, alice, other, "game new", "`max_open_tables`", game="pentawar")
    assert "host 2 open tables" in text, text
    await refused(world, latency, db_path, bob, other, "game new", "`max_thread_tables`", game="pentawar",
                  thread=True)
    await refused(world, latency, db_path, bob, other, "game new", "from 1 to 5,000", game="pedwar",
                  options="max_turns=100000")
    await refused(world, latency, db_path, bob, other, "tournament new", "`tournament_creators`", game="pedwar",
                  format="swiss")
    await configure(world, tournament_creators="everyone", max_thread_tables=50)
    await refused(world, latency, db_path, bob, other, "tournament new", "`max_entrants_limit`", game="pedwar",
                  format="swiss", max_entrants=3)
    opened = await bob.slash(other, "tournament new", game="pedwar", format="swiss")
    assert not opened.ephemeral, answer_text(opened)
    third = world.guild.create_text_channel("third")
    await refused(world, latency, db_path, bob, third, "tournament new", "`new_cooldown`", game="pedwar",
                  format="swiss")
    await refused(world, latency, db_path, bob, other, "tournament addbot", "`max_bot_entrants`", count=1)
    for member in (alice, bob):
        joined = await member.slash(other, "tournament join")
        assert "You are entered" in answer_text(joined), answer_text(joined)
    text = await refused(world, latency, db_path, carol, other, "tournament join", "`max_entrants_limit`")
    assert "allows 2 entrants" in text, text


async def test_each_missing_permission_and_privacy_refusal_is_private_within_3s_changing_nothing(
        world: Any, db_path: str, latency: Latency) -> None:
    alice, bob, dave = (world.members[n] for n in ("alice", "bob", "dave"))
    me = world.env.bot.user
    await configure(world, tournament_creators="everyone")
    staff = world.guild.create_text_channel("staff", overwrites={dave: discord.PermissionOverwrite(view_channel=False)})
    await alice.slash(staff, "game new", game="pentawar")
    await bob.slash(staff, "game join")
    await alice.slash(staff, "game start")
    latency.default = 1.0
    bare = world.guild.create_text_channel("bare", overwrites={
        me: discord.PermissionOverwrite(send_messages=False, read_message_history=False)})
    await world.env.advance_time(3)
    await refused(world, latency, db_path, alice, bare, "game new", "**Send Messages**", game="pentawar")
    await refused(world, latency, db_path, alice, bare, "tournament new", "**Read Message History**", game="pedwar",
                  format="swiss")
    # A table in a channel dave cannot view: answered as a table that does not exist.
    for command, options in (("game log", {}), ("game replay", {"move": 0})):
        await refused(world, latency, db_path, dave, world.channel, command, "There is no table #1 in this server.",
                      table="1", **options)


async def test_a_refusal_that_needs_no_rest_call_comes_before_any_defer(world: Any, db_path: str,
                                                                         latency: Latency) -> None:
    """Issue 24: /game log and /game replay refuse as their first answer, not as the edit of a "thinking…" (one
    REST call fewer, and no spinner before a refusal), whenever the refusal needs no REST call."""
    latency.default = 1.0
    for command, options in (("game log", {}), ("game replay", {"move": 0})):
        # A table number that is none, a table that never was, and a channel that has had none: each a read
        # of the database at most, answered in one REST call (the answer), not a deferral and its edit.
        for table, said in (("twelve", "`table` is a table number"), ("99", "There is no table #99 in this server."),
                            (None, "This channel has had no table yet.")):
            mark = len(latency.calls)
            asked = options if table is None else {**options, "table": table}
            result = await world.members["alice"].slash(world.channel, command, **asked)
            assert result.ephemeral and said in answer_text(result), answer_text(result)
            assert len(latency.calls) - mark == 1, (command, table, [(c.method, c.path) for c in latency.calls[mark:]])


async def test_a_replay_of_a_lobby_or_past_the_last_move_is_refused_before_any_defer(world: Any, db_path: str,
                                                                                    latency: Latency) -> None:
    """Issue 24: /game replay of a table that has not started, or of a move after its last, is refused from the
    table's record as the first answer: one REST call, no "thinking…" before it, nothing changed."""
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pedwar")
    await bob.slash(world.channel, "game join")
    latency.default = 1.0
    mark = len(latency.calls)
    result = await alice.slash(world.channel, "game replay", move=0)
    assert private(result) and "That table has not started yet." in answer_text(result), answer_text(result)
    assert len(latency.calls) - mark == 1, [(c.method, c.path) for c in latency.calls[mark:]]
    latency.default = 0.0
    await alice.slash(world.channel, "game start")
    latency.default = 1.0
    before = whole_database(db_path)
    mark = len(latency.calls)
    result = await alice.slash(world.channel, "game replay", move=5000)
    assert private(result) and "Table #1 has moves 0 to 0." in answer_text(result), answer_text(result)
    assert len(latency.calls) - mark == 1, [(c.method, c.path) for c in latency.calls[mark:]]
    assert whole_database(db_path) == before
    # The last move itself is still drawn, after its "thinking…".
    shown = await alice.slash(world.channel, "game replay", move=0)
    assert private(shown) and "Table #1 has moves" not in answer_text(shown), answer_text(shown)


async def test_tournament_start_advance_and_cancel_refuse_before_any_defer(world: Any, db_path: str,
                                                                           latency: Latency) -> None:
    """Issue 24: /tournament start, advance and cancel defer for their long work, but a refusal that needs no REST
    call (not the organiser, too few entrants, no round to end) is their first answer: one REST call, private,
    nothing changed."""
    alice, bob = world.members["alice"], world.members["bob"]
    await configure(world, tournament_creators="everyone")
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", name="Small Cup")
    await alice.slash(world.channel, "tournament join")
    latency.default = 1.0
    before = whole_database(db_path)
    for member, command, said in ((bob, "tournament start", "Only the organiser"),
                                  (bob, "tournament advance", "Only the organiser"),
                                  (bob, "tournament cancel", "Only the organiser"),
                                  (alice, "tournament start", "entrant"),
                                  (alice, "tournament advance", "is not being played")):
        mark = len(latency.calls)
        result = await member.slash(world.channel, command)
        assert private(result) and said in answer_text(result), (command, answer_text(result))
        assert len(latency.calls) - mark == 1, (command, [(c.method, c.path) for c in latency.calls[mark:]])
    assert whole_database(db_path) == before


async def test_a_thread_table_in_a_channel_without_threads_is_refused_before_any_defer(world: Any, db_path: str,
                                                                                       latency: Latency) -> None:
    """A voice channel's text chat has no threads: known without asking Discord, so /game new thread:true says
    so as its first answer, not after a "thinking…"."""
    voice = world.guild.create_voice_channel("lounge")
    latency.default = 1.0
    before = whole_database(db_path)
    mark = len(latency.calls)
    result = await world.members["alice"].slash(voice, "game new", game="do_over", thread=True)
    assert private(result) and "Threads can't be opened in this kind of channel" in answer_text(result), \
        answer_text(result)
    assert len(latency.calls) - mark == 1, [(c.method, c.path) for c in latency.calls[mark:]]
    assert whole_database(db_path) == before


async def test_tournament_start_names_a_thread_permission_lost_since_it_opened(world: Any, db_path: str) -> None:
    """The bot lost Create Public Threads between /tournament new and /tournament start: the start is refused,
    naming it, and nothing starts (it used to start and then fail to open every table's thread)."""
    from tests.e2e.test_lost_channel_e2e import deny_the_bot

    alice, bob = world.members["alice"], world.members["bob"]
    await configure(world, tournament_creators="everyone")
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", name="Thread Cup")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    deny_the_bot(world, world.channel.id, "create_public_threads")
    before = whole_database(db_path)
    result = await alice.slash(world.channel, "tournament start")
    assert private(result) and "Create Public Threads" in answer_text(result), answer_text(result)
    assert whole_database(db_path) == before
