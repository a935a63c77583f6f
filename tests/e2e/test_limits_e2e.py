"""Limits that stop a flood (issue 26), through SimCord: each refused at its bound with a private answer naming
it and its setting, changing nothing; a manager changes each; a table left to bots posts only its result; every
end of a thread table archives its thread."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.e2e.driver import configure, latest_table_message, table_messages
from tests.e2e.test_reliability_e2e import answer_text, rows

pytestmark = pytest.mark.asyncio


def database(db_path: str) -> list[str]:
    """The whole database as SQL: a refusal must leave every row of every table as it was, but the two notes every
    interaction refreshes (web_channels: each channel's visibility; member_locales: each member's language)."""
    with sqlite3.connect(db_path) as db:
        return [line for line in db.iterdump() if not line.startswith(NOTED)]


NOTED = ('INSERT INTO "web_channels"', 'INSERT INTO "member_locales"')


async def refused(member: Any, channel: Any, db_path: str, command: str, limit: str, **options: Any) -> str:
    """``command`` is refused privately, naming the setting ``limit``, and the database is unchanged."""
    before = database(db_path)
    result = await member.slash(channel, command, **options)
    text = answer_text(result)
    assert result.ephemeral, text
    assert f"`{limit}`" in text, text
    assert database(db_path) == before, f"/{command} {options} changed something"
    return text


async def opened(member: Any, channel: Any, command: str = "game new", **options: Any) -> None:
    result = await member.slash(channel, command, **options)
    text = answer_text(result)
    assert not result.ephemeral or "plays in" in text, text


async def test_max_open_tables_stops_a_host_at_five_until_a_manager_raises_it(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    channels = [world.guild.create_text_channel(f"t{i}") for i in range(7)]
    for channel in channels[:5]:
        await opened(alice, channel, game="pentawar")
        await world.env.advance_time(3)  # the default new_cooldown
    text = await refused(alice, channels[5], db_path, "game new", "max_open_tables", game="pentawar")
    assert "5 open tables" in text, text
    # Another member is not held back by alice's tables.
    await opened(world.members["bob"], channels[5], game="pentawar")
    await configure(world, max_open_tables=6)
    await opened(alice, channels[6], game="pentawar")
    await world.env.advance_time(3)
    # An ended table frees its place.
    await alice.slash(channels[0], "game abandon")
    more = world.guild.create_text_channel("t7")
    await opened(alice, more, game="pentawar")


async def test_max_thread_tables_counts_the_servers_open_thread_tables(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await configure(world, max_thread_tables=1)
    await opened(alice, world.channel, game="pentawar", thread=True)
    threads = len(world.channel.threads)
    await refused(bob, world.channel, db_path, "game new", "max_thread_tables", game="pentawar", thread=True)
    assert len(world.channel.threads) == threads, "no thread was opened"
    await opened(bob, world.channel, game="pentawar", thread=False)  # a table in the channel itself is fine
    await configure(world, max_thread_tables=2)
    await world.env.advance_time(3)
    other = world.guild.create_text_channel("more")
    await opened(bob, other, game="pentawar", thread=True)
    assert len(other.threads) == 1


async def test_thread_tables_default_to_fifty(world: Any, db_path: str) -> None:
    await configure(world, max_open_tables=60, new_cooldown=0)
    alice = world.members["alice"]
    for _ in range(50):
        await opened(alice, world.channel, game="pentawar", thread=True)
    await refused(alice, world.channel, db_path, "game new", "max_thread_tables", game="pentawar", thread=True)


async def test_new_cooldown_spaces_two_new_tables_and_two_new_tournaments(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    first, second, third = (world.guild.create_text_channel(f"c{i}") for i in range(3))
    await opened(alice, first, game="pentawar")
    text = await refused(alice, second, db_path, "game new", "new_cooldown", game="pentawar")
    assert "wait 3s" in text, text
    await world.env.advance_time(2)
    await refused(alice, second, db_path, "game new", "new_cooldown", game="pentawar")
    await world.env.advance_time(1)
    await opened(alice, second, game="pentawar")
    # A manager opens tournaments; the cooldown counts /tournament new on its own.
    await configure(world, tournament_creators="everyone")
    await opened(alice, third, "tournament new", game="pedwar", format="swiss")
    fourth = world.guild.create_text_channel("c4")
    await refused(alice, fourth, db_path, "tournament new", "new_cooldown", game="pedwar", format="swiss")
    await configure(world, new_cooldown=0)
    await opened(alice, fourth, "tournament new", game="pedwar", format="swiss")
    fifth = world.guild.create_text_channel("c5")
    await opened(alice, fifth, game="pentawar")


async def test_new_cooldown_is_given_back_by_every_new_table_that_opened_nothing(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    # A refusal after the checks: Discord will not open the table's thread.
    world.env.inject_error("POST", "/channels/*/threads", status=403, code=50013, message="Missing Permissions")
    result = await alice.slash(world.channel, "game new", game="pentawar", thread=True)
    assert result.ephemeral and "Create Public Threads" in answer_text(result), answer_text(result)
    # Not a refusal: Discord answers the "thinking…" with 10062 Unknown interaction (a lost-access answer).
    world.env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction")
    await alice.slash(world.channel, "game new", game="pentawar", thread=True)
    # The thread opened but its lobby could not be posted there: the table is taken back.
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50001, message="Missing Access")
    result = await alice.slash(world.channel, "game new", game="pentawar", thread=True)
    assert "could not post in it" in answer_text(result), answer_text(result)
    assert not rows(db_path, "SELECT id FROM game_tables WHERE status IN ('lobby', 'playing')")
    # None of the three opened a table, so none kept the 3 s cooldown: the next opens at once.
    await opened(alice, world.channel, game="pentawar", thread=True)


async def test_tournament_creators_are_managers_unless_everyone(world: Any, db_path: str) -> None:
    bob = world.members["bob"]
    text = await refused(bob, world.channel, db_path, "tournament new", "tournament_creators", game="pedwar",
                         format="swiss")
    assert "Manage Server" in text, text
    # The server's tournament organiser role opens tournaments too.
    organisers = world.guild.create_role("organisers")
    olga = world.guild.add_member(world.env.create_user("olga"), roles=[organisers])
    await configure(world, tournament_organiser_role=str(organisers.id))
    await opened(olga, world.channel, "tournament new", game="pedwar", format="swiss")
    await configure(world, tournament_creators="everyone")
    other = world.guild.create_text_channel("open")
    await opened(bob, other, "tournament new", game="pedwar", format="swiss")
    assert rows(db_path, "SELECT organiser_id FROM tournaments ORDER BY id") == [(olga.id,), (bob.id,)]


async def test_max_bot_entrants_stops_at_32_until_a_manager_raises_it(world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    await configure(world, tournament_creators="everyone")
    await opened(alice, world.channel, "tournament new", game="pedwar", format="swiss")
    await alice.slash(world.channel, "tournament addbot", count=30)
    text = await refused(alice, world.channel, db_path, "tournament addbot", "max_bot_entrants", count=3)
    assert "2 more bot entrants" in text, text
    await alice.slash(world.channel, "tournament addbot", count=2)
    await refused(alice, world.channel, db_path, "tournament addbot", "max_bot_entrants", count=1)
    await configure(world, max_bot_entrants=33)
    await alice.slash(world.channel, "tournament addbot", count=1)
    assert rows(db_path, "SELECT COUNT(*) FROM entrants WHERE is_bot = 1") == [(33,)]


async def test_a_tournament_whose_first_round_passes_max_thread_tables_is_refused_at_its_start(
        world: Any, db_path: str) -> None:
    alice = world.members["alice"]
    await configure(world, tournament_creators="everyone", max_thread_tables=2)
    await opened(alice, world.channel, "tournament new", game="pedwar", format="swiss")
    await alice.slash(world.channel, "tournament addbot", count=6)  # round 1: three tables, three threads
    text = await refused(alice, world.channel, db_path, "tournament start", "max_thread_tables")
    assert "needs 3 tables" in text and "limit of 2" in text, text
    assert not world.channel.threads, "no thread was opened"
    await configure(world, max_thread_tables=3)
    started = await alice.slash(world.channel, "tournament start")
    assert "has started" in answer_text(started), answer_text(started)
    assert rows(db_path, "SELECT COUNT(*) FROM tournament_tables WHERE round = 1") == [(3,)]


async def test_a_manager_can_change_every_limit_and_a_bad_value_is_refused(world: Any, db_path: str) -> None:
    values = {"max_open_tables": "9", "max_thread_tables": "0", "tournament_creators": "everyone",
              "max_entrants_limit": "300", "max_bot_entrants": "0", "new_cooldown": "60"}
    await configure(world, **values)
    manager = world.guild._deckhand_manager
    shown = answer_text(await manager.slash(world.channel, "config show"))
    for name, value in values.items():
        assert f"`{name}` = **{value}" in shown, shown
    for name, bad in (("max_open_tables", "0"), ("max_thread_tables", "1001"), ("tournament_creators", "anyone"),
                      ("max_bot_entrants", "-1"), ("new_cooldown", "1h")):
        await refused(manager, world.channel, db_path, "config set", name, setting=name, value=bad)


async def test_the_defaults_are_the_issues(world: Any) -> None:
    await configure(world)
    shown = answer_text(await world.guild._deckhand_manager.slash(world.channel, "config show"))
    for line in ("`max_open_tables` = **5**", "`max_thread_tables` = **50**", "`tournament_creators` = **managers**",
                 "`max_entrants_limit` = **256**", "`max_bot_entrants` = **32**", "`new_cooldown` = **3s**"):
        assert line in shown, shown


async def test_a_table_every_player_resigned_from_posts_only_its_result(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    await alice.slash(world.channel, "game resign")
    assert rows(db_path, "SELECT status FROM game_tables") == [("playing",)]
    posts = len(table_messages(world.channel))
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    await bob.slash(world.channel, "game resign")  # nobody is left: the bots play on to the end
    await world.env.advance_time(5)
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",)]
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] > moves + 2, "the bots played the game out"
    # Bob's resignation and the result: no table message for any bot move in between.
    assert len(table_messages(world.channel)) == posts + 2
    assert "Game over" in latest_table_message(world.channel).content


def archived(world: Any) -> set[int]:
    return {t["id"] if isinstance(t, dict) else t.id
            for t in world.env.backend.archived_threads(world.channel.id, private=False)}


async def thread_table(world: Any, start: bool, **options: Any) -> Any:
    alice, bob = world.members["alice"], world.members["bob"]
    await opened(alice, world.channel, game="pentawar", thread=True, **options)
    thread = world.channel.threads[-1]
    if start:
        await bob.slash(thread, "game join")
        await alice.slash(thread, "game start")
    return thread


#: What each end stores as the table's ``end_reason`` (a finished table has its result instead).
ENDED_BECAUSE = {"finished": None, "forfeited": None, "abandoned lobby": "closed with /game abandon",
                 "abandoned game": "closed with /game abandon", "lobby timed out": "lobby timed out",
                 "lobby left": "everyone left its lobby"}


@pytest.mark.parametrize("end", ["finished", "forfeited", "abandoned lobby", "abandoned game", "lobby timed out",
                                 "lobby left"])
async def test_every_end_of_a_thread_table_archives_its_thread(world: Any, db_path: str, end: str) -> None:
    alice = world.members["alice"]
    if end == "lobby timed out":
        await configure(world, lobby_timeout="1m")
    options = {"turn_time": "30s", "on_timeout": "forfeit"} if end == "forfeited" else {}
    thread = await thread_table(world, end in ("finished", "forfeited", "abandoned game"), **options)
    if end == "finished":
        await alice.slash(thread, "game resign")  # two players: the other wins
    elif end == "forfeited":
        await world.env.advance_time(31)
    elif end.startswith("abandoned"):
        await alice.slash(thread, "game abandon")
    elif end == "lobby timed out":
        await world.env.advance_time(61)
    else:
        await alice.slash(thread, "game addbot")
        await alice.slash(thread, "game leave")  # only a bot is left: the lobby closes
    status, reason = rows(db_path, "SELECT status, end_reason FROM game_tables")[0]
    assert status in ("finished", "abandoned"), status
    assert reason == ENDED_BECAUSE[end], reason
    if reason is not None:  # /game log tells why the table ended
        logged = answer_text(await alice.slash(thread, "game log"))
        assert f"It was abandoned: {reason}." in logged, logged
    assert thread.id not in archived(world)
    await world.env.advance_time(121)
    assert thread.id in archived(world), f"the thread of a table {end} stays open"
    assert rows(db_path, "SELECT COUNT(*) FROM timers") == [(0,)]


async def test_a_cancelled_tournament_archives_its_tables_threads(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await configure(world, tournament_creators="everyone", bot_delay="60")
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament start")
    [thread] = world.channel.threads
    await alice.slash(world.channel, "tournament cancel")
    assert rows(db_path, "SELECT status, end_reason FROM game_tables") == [("abandoned", "tournament cancelled")]
    await world.env.advance_time(121)
    assert thread.id in archived(world)


async def test_a_table_whose_players_all_forfeited_on_time_posts_only_its_result(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await alice.slash(world.channel, "game new", game="pentawar", turn_time="30s", on_timeout="forfeit")
    await bob.slash(world.channel, "game join")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game addbot")
    await alice.slash(world.channel, "game start")
    for _ in range(20):  # each player's clock runs out in turn; the bots move at once between them
        if rows(db_path, "SELECT COUNT(*) FROM seat_events WHERE kind = 'timeout'") == [(2,)]:
            break
        await world.env.advance_time(31)
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",)]
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    # After the second forfeit the two bots played the game out: its message and the result, nothing between.
    posts = [m.content for m in table_messages(world.channel)]
    last_forfeit = max(i for i, text in enumerate(posts) if "who forfeits" in text)
    assert len(posts) - last_forfeit == 2, posts[last_forfeit:]
    assert "Game over" in posts[-1]
    assert moves > rows(db_path, "SELECT MAX(version) FROM seat_events WHERE kind = 'timeout'")[0][0] + 2


async def test_a_tournament_table_whose_players_all_dropped_posts_only_its_result(world: Any, db_path: str) -> None:
    alice, bob = world.members["alice"], world.members["bob"]
    await configure(world, tournament_creators="everyone")
    await alice.slash(world.channel, "tournament new", game="pentawar", format="swiss", table_size=4, rounds=1)
    for member in (alice, bob):
        await member.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=2)
    await alice.slash(world.channel, "tournament start")
    [thread] = world.channel.threads
    await alice.slash(world.channel, "tournament drop")
    posts = len(table_messages(thread))
    moves = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
    await bob.slash(world.channel, "tournament drop")  # nobody is left: the bots play on to the end
    await world.env.advance_time(5)
    assert rows(db_path, "SELECT status FROM game_tables") == [("finished",)]
    assert rows(db_path, "SELECT COUNT(*) FROM actions")[0][0] > moves + 2, "the bots played the game out"
    # Bob's drop and the result: no table message for any bot move in between.
    assert len(table_messages(thread)) == posts + 2, [m.content for m in table_messages(thread)[posts:]]
    assert "Game over" in latest_table_message(thread).content
