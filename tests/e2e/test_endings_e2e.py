"""The two ends the other tests left out look finished too: a game's last move and `/tournament advance`.

However a game ends, its last table message heads an embed with the standings, says nobody is to act,
offers no Hand / act, and its picture's alt text shows the placings and no "To act"; its lobby message
says the game is over; and a thread table's thread is archived a little later.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.driver import latest_table_message, play_until_over
from tests.e2e.test_lobby_messages_e2e import assert_settled
from tests.e2e.test_reliability_e2e import answer_text
from tests.e2e.test_tournament_e2e import pace_bots, playing_threads, rows

ARCHIVED_AFTER = 121  # host.clock.ARCHIVE_AFTER, and a second


def assert_finished_look(channel: Any, winners: list[str]) -> None:
    final = latest_table_message(channel)
    assert "Game over" in final.content and "to act" not in final.content.lower(), final.content
    assert not final.components, "a finished table offers no Hand / act"
    alt = final.attachments[0].description or ""
    assert "Game over" in alt and "To act" not in alt and "1st" in alt, alt
    assert final.embeds and final.embeds[0].title == "Final result"
    standings = final.embeds[0].description or ""
    for name in winners:
        assert f"🥇 {name}" in standings, standings


#: Each title with options that make its end near (Pentawar has none), and its players.
ENDS = {
    "do_over": ("max_turns=1", ("alice", "bob")),
    "pedwar": ("max_turns=1", ("alice", "bob")),
    "ogre_cheerleaders": ("max_turns=1", ("alice", "bob")),
    "king_pedro": ("max_rounds=1", ("alice", "bob", "carol", "dave")),
    "pentawar": (None, ("alice", "bob")),
}


@pytest.mark.parametrize("game", list(ENDS))
async def test_a_games_last_move_ends_it_with_the_finished_look(world: Any, db_path: str, game: str) -> None:
    options, names = ENDS[game]
    members = [world.members[n] for n in names]
    made = await members[0].slash(world.channel, "game new", game=game, thread=True,
                                  **({"options": options} if options else {}))
    thread = world.channel.threads[-1]
    assert thread.id == rows(db_path, "SELECT channel_id FROM game_tables")[0][0], answer_text(made)
    for member in members[1:]:
        await member.slash(thread, "game join")
    await members[0].slash(thread, "game start")
    assert "To act" in latest_table_message(thread).content
    world_in_thread = type(world)(world.env, world.guild, thread, world.members)
    rng = random.Random(27)
    final = await play_until_over(world_in_thread, rng.choice)
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] >= 1, "the game ended on a move made by hand"
    assert rows(db_path, "SELECT status FROM game_tables")[0][0] == "finished"
    winners = [n for n in names if f"🥇 {n}" in (final.embeds[0].description or "")]
    assert winners, final.embeds[0].description
    assert_finished_look(thread, winners)
    assert_settled(thread, "This game is over")
    await world.env.advance_time(ARCHIVED_AFTER)
    assert thread.id in archived_threads(world)


def archived_threads(world: Any) -> list[int]:
    return [t["id"] if isinstance(t, dict) else t.id
            for t in world.env.backend.archived_threads(world.channel.id, private=False)]


@pytest.mark.usefixtures("open_tournaments")  # alice, not a manager, opens the tournament (issue 26)
@pytest.mark.usefixtures("open_tournaments")  # alice, a member, opens it (issue 26's tournament_creators)
async def test_tournament_advance_ends_the_tables_in_play_with_the_finished_look(world: Any, db_path: str) -> None:
    alice = await pace_bots(world)
    bob = world.members["bob"]
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1, round_time="1d")
    for member in (alice, bob):
        await member.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    (thread,) = playing_threads(world, db_path)
    assert "To act" in latest_table_message(thread).content
    await world.env.advance_time(86400 + 60)
    ended = await alice.slash(world.channel, "tournament advance")
    assert "ended as draws" in answer_text(ended), answer_text(ended)
    assert rows(db_path, "SELECT status FROM game_tables")[0][0] == "finished"
    assert_finished_look(thread, ["alice", "bob"])  # a draw: both share first place
    await world.env.advance_time(ARCHIVED_AFTER)
    assert thread.id in archived_threads(world)
