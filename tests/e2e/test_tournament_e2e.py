"""Tournaments driven as members drive them: sign-up, rounds seated in threads, tables played to the
end, the next round paired automatically, the final standings and the champion; a restart between
rounds; refusals that change nothing."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections import Counter
from fractions import Fraction
from typing import Any

import discord
import pytest

from bot import create_bot
from cogs.standings_pages import format_points, safe_name
from host.tournaments.models import TableResult
from host.tournaments.points import table_points
from tests.e2e.driver import latest_table_message, seats_to_act, take_turn

# Members other than managers open tournaments here (issue 26's tournament_creators, set through /config).
pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("open_tournaments")]

#: Bots wait this long (virtual seconds) before each move, so a table of bots plays on only as the
#: test advances the clock, never inside one click's settling.
BOT_PACE = 10


def rows(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, params).fetchall()


def tournament(db_path: str) -> sqlite3.Row:
    return rows(db_path, "SELECT * FROM tournaments ORDER BY id DESC LIMIT 1")[0]


def playing_threads(world: Any, db_path: str) -> list[Any]:
    """The threads of the tournament's tables still in play."""
    ids = [r["channel_id"] for r in rows(db_path, "SELECT g.channel_id FROM tournament_tables t JOIN game_tables g"
                                                  " ON g.id = t.table_id WHERE g.status = 'playing' ORDER BY g.id")]
    threads = {t.id: t for t in world.channel.threads}
    return [threads[i] for i in ids]


async def human_turn(thread: Any, by_id: dict[int, Any], rng: random.Random) -> bool:
    """If a human is to act at the thread's table, they make a random legal move from their hand panel."""
    message = latest_table_message(thread)
    ids = seats_to_act(message)
    if "Game over" in message.content or not ids:
        return False
    await take_turn(by_id[ids[0]], message, rng.choice)
    return True


async def play_round(world: Any, db_path: str, rng: random.Random, max_steps: int = 5000) -> None:
    """Humans move where they are to act; otherwise the clock moves on and the bots play."""
    by_id = {m.id: m for m in world.members.values()}
    number = rows(db_path, "SELECT MAX(number) FROM rounds")[0][0]
    for _ in range(max_steps):
        if rows(db_path, "SELECT status FROM rounds WHERE number = ?", (number,))[0][0] == "finished":
            return
        moved = False
        for thread in playing_threads(world, db_path):
            moved = await human_turn(thread, by_id, rng) or moved
        if not moved:
            await world.env.advance_time(BOT_PACE * 30)
    raise AssertionError(f"round {number} did not end")


async def pace_bots(world: Any) -> Any:
    """A member with Manage Server sets the bots' pace; returns the organiser, alice."""
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    mona = world.guild.add_member(world.env.create_user("mona"), roles=[role])
    await mona.slash(world.channel, "config set", setting="bot_delay", value=str(BOT_PACE))
    return world.members["alice"]


def shown_points(message: Any) -> dict[str, str]:
    """Name → points as shown in a standings embed ("3. **Name** — 1½ pts · …")."""
    out = {}
    for line in message.embeds[0].description.splitlines():
        found = re.match(r"\d+\. \*\*(.+?)\*\*.* — ([0-9½.]+) pts", line)
        if found:
            out[found.group(1)] = found.group(2)
    return out


def signup(world: Any) -> Any:
    return next(m for m in world.channel.history() if m.embeds and m.embeds[0].title.startswith("🏆")
                and m.embeds[0].fields)


async def test_swiss_do_over_of_eight_in_pods_of_four_plays_three_rounds(world: Any, db_path: str) -> None:
    alice, bob = await pace_bots(world), world.members["bob"]
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", table_size=4, rounds=3,
                      name="Autumn Cup")
    posted = world.channel.last_message
    assert "Autumn Cup" in posted.embeds[0].title
    await alice.click(posted, custom_id=next(c["custom_id"] for c in posted.components[0].to_dict()["components"]
                                             if c.get("label") == "Join"))
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=6, level="easy")
    assert signup(world).embeds[0].fields[-1].name == "Entrants (8)", "the sign-up message lists the entrants"
    await alice.slash(world.channel, "tournament start")
    rng = random.Random(4)
    for number in (1, 2, 3):
        round_rows = rows(db_path, "SELECT * FROM rounds WHERE number = ?", (number,))
        assert round_rows and round_rows[0]["announced"] == 1, f"round {number} was not seated and announced"
        assert len(rows(db_path, "SELECT * FROM tournament_tables WHERE round = ?", (number,))) == 2
        await play_round(world, db_path, rng)
    record = tournament(db_path)
    assert record["status"] == "finished"
    # No pod repeats (with 8 entrants in pods of 4 over 3 rounds, a repeat is always avoidable).
    places = rows(db_path, "SELECT * FROM tournament_tables ORDER BY round, position")
    pods = [frozenset(json.loads(p["seats"])) for p in places]
    assert len(pods) == 6 and len(set(pods)) == 6
    # The points in the final standings are the tables' own results.
    names = {r["id"]: r["name"] for r in rows(db_path, "SELECT id, name FROM entrants")}
    expected: Counter[str] = Counter()
    for place in places:
        results = {r["seat"]: r["place"] for r in rows(db_path, "SELECT seat, place FROM results WHERE table_id = ?",
                                                          (place["table_id"],))}
        seats = json.loads(place["seats"])
        result = TableResult(tuple((e,) for e in seats), tuple(results[i] for i in range(len(seats))))
        for entrant, pts in table_points(result).items():
            expected[names[entrant]] += pts
    final = next(m for m in world.channel.history() if "is over. Champion" in (m.content or ""))
    assert shown_points(final) == {safe_name(n): format_points(Fraction(v)) for n, v in expected.items()}
    champion = json.loads(record["champion"])
    assert f"Champion: **{safe_name(names[champion[0]])}**" in final.content


async def test_single_elimination_pedwar_of_six_with_a_restart_between_rounds(world: Any, db_path: str) -> None:
    alice, bob = await pace_bots(world), world.members["bob"]
    await alice.slash(world.channel, "tournament new", game="pedwar", format="single_elimination")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=4, level="easy")
    await alice.slash(world.channel, "tournament start")
    assert len(rows(db_path, "SELECT * FROM byes WHERE round = 1")) == 2, "six entrants: the top two seeds get byes"
    assert any(m.attachments and m.attachments[0].filename == "bracket.png" for m in world.channel.history())
    status = await bob.slash(world.channel, "tournament status")
    assert status.ephemeral and status.response.attachments[0].filename == "bracket.png"
    assert "against" in status.response.attachments[0].description
    rng = random.Random(9)
    await play_round(world, db_path, rng)
    assert rows(db_path, "SELECT status FROM rounds WHERE number = 1")[0]["status"] == "finished"
    await world.env.restart_bot(create_bot())
    for _ in range(3):
        if tournament(db_path)["status"] == "finished":
            break
        await play_round(world, db_path, rng)
    record = tournament(db_path)
    assert record["status"] == "finished"
    assert len(rows(db_path, "SELECT * FROM rounds")) == 3  # ⌈log₂ 6⌉
    champion = json.loads(record["champion"])
    assert len(champion) == 1
    names = {r["id"]: r["name"] for r in rows(db_path, "SELECT id, name FROM entrants")}
    assert any(f"Champion: **{safe_name(names[champion[0]])}**" in (m.content or "") for m in world.channel.history())


async def test_a_pod_of_bots_plays_at_once_and_posts_only_its_start_and_result(world: Any, db_path: str) -> None:
    """With no pacing (BOT_DELAY=0), a table where only bots sit plays to its end inside the click that
    seated it; it posts its first picture and its result, not each move."""
    alice = world.members["alice"]
    await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", table_size=4, rounds=1)
    await alice.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=7, level="easy")
    await alice.slash(world.channel, "tournament start")
    bots_only = rows(db_path, "SELECT g.id, g.channel_id, g.status, g.version FROM game_tables g WHERE NOT EXISTS"
                              " (SELECT 1 FROM seats s WHERE s.table_id = g.id AND s.is_bot = 0)")
    assert len(bots_only) == 1 and bots_only[0]["status"] == "finished"
    thread = next(t for t in world.channel.threads if t.id == bots_only[0]["channel_id"])
    pictures = [m for m in thread.history() if m.attachments and m.attachments[0].filename == "table.png"]
    assert bots_only[0]["version"] > 20 and len(pictures) == 2
    assert "Game over" in pictures[-1].content


def _losses(db_path: str) -> Counter[int]:
    """Tables each entrant lost (a drawn table goes to the better seed, as the bracket counts it)."""
    lost: Counter[int] = Counter()
    seeds = [r["id"] for r in rows(db_path, "SELECT id FROM entrants ORDER BY rating DESC, lot")]
    for place in rows(db_path, "SELECT * FROM tournament_tables ORDER BY round, position"):
        seats = json.loads(place["seats"])
        if place["table_id"] is not None:
            found = rows(db_path, "SELECT seat, place FROM results WHERE table_id = ?", (place["table_id"],))
            by_seat = {r["seat"]: r["place"] for r in found}
            places = [by_seat[i] for i in range(len(seats))]
        else:
            places = json.loads(place["places"])
        best = min(places)
        winner = min((e for e, p in zip(seats, places, strict=True) if p == best), key=seeds.index)
        lost.update(e for e in seats if e != winner)
    return lost


async def test_double_elimination_pedwar_of_four_to_its_champion(world: Any, db_path: str) -> None:
    alice, bob = await pace_bots(world), world.members["bob"]
    # Short games (the bracket is under test, as in test_games' Pedwar game): a table's result is its score then.
    await alice.slash(world.channel, "tournament new", game="pedwar", format="double_elimination",
                      options="max_turns=12")
    await alice.slash(world.channel, "tournament join")
    await bob.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=2, level="easy")
    await alice.slash(world.channel, "tournament start")
    assert len(rows(db_path, "SELECT * FROM tournament_tables WHERE round = 1")) == 2
    status = await bob.slash(world.channel, "tournament status")
    image = status.response.attachments[0]
    assert image.filename == "bracket.png" and "winners' bracket" in image.description
    rng = random.Random(5)
    for _ in range(6):
        if tournament(db_path)["status"] == "finished":
            break
        await play_round(world, db_path, rng)
    record = tournament(db_path)
    assert record["status"] == "finished"
    champion = json.loads(record["champion"])
    assert len(champion) == 1
    lost = _losses(db_path)
    entrants = [r["id"] for r in rows(db_path, "SELECT id FROM entrants")]
    assert lost[champion[0]] <= 1
    assert all(lost[e] == 2 for e in entrants if e != champion[0]), lost
    # 4 entrants: 6 tables, 7 when the grand final was reset; W1, then W2 with L1, L2, the final (and reset).
    tables = len(rows(db_path, "SELECT * FROM tournament_tables"))
    assert tables == 6 + int(lost[champion[0]] == 1)
    assert len(rows(db_path, "SELECT * FROM rounds")) == tables - 2
    names = {r["id"]: r["name"] for r in rows(db_path, "SELECT id, name FROM entrants")}
    assert any(f"Champion: **{safe_name(names[champion[0]])}**" in (m.content or "") for m in world.channel.history())
    final_image = await bob.slash(world.channel, "tournament status")
    assert "losers' bracket" in final_image.response.attachments[0].description


async def test_a_double_elimination_top_cut_and_its_refusals(world: Any, db_path: str) -> None:
    alice = await pace_bots(world)
    refused = await alice.slash(world.channel, "tournament new", game="do_over", format="swiss", table_size=4,
                                top_cut=4, top_cut_format="double")
    assert refused.ephemeral and "2-player" in refused.response.content
    refused = await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss",
                                top_cut_format="double")
    assert refused.ephemeral and "top_cut" in refused.response.content
    assert not rows(db_path, "SELECT * FROM tournaments")
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=1, top_cut=2,
                      top_cut_format="double")
    assert tournament(db_path)["top_cut_format"] == "double"
    await alice.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=3, level="easy")
    await alice.slash(world.channel, "tournament start")
    rng = random.Random(3)
    for _ in range(6):
        if tournament(db_path)["status"] == "finished":
            break
        await play_round(world, db_path, rng)
    record = tournament(db_path)
    assert record["status"] == "finished"
    cut = rows(db_path, "SELECT * FROM rounds WHERE stage = 'cut'")
    # Two seeds in a double-elimination cut: the final, then the grand final (and its reset if the
    # loser of the first takes the second).
    assert len(cut) in (2, 3)
    assert json.loads(record["champion"])[0] in json.loads(record["cut_seeds"])


async def test_rounds_paired_in_the_worker_process(world: Any, db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field goes to the pairing worker here (large fields do in a running bot): the rounds are
    seated and played to a champion exactly as when paired inline."""
    from bot import DeckhandBot

    monkeypatch.setattr("host.pairing.INLINE_UP_TO", 0)
    alice = await pace_bots(world)
    await alice.slash(world.channel, "tournament new", game="pedwar", format="swiss", rounds=2)
    await alice.slash(world.channel, "tournament join")
    await alice.slash(world.channel, "tournament addbot", count=5, level="easy")
    await alice.slash(world.channel, "tournament start")
    assert any(b.tournaments is not None and b.tournaments.pairing.started for b in DeckhandBot._live)
    assert len(rows(db_path, "SELECT * FROM tournament_tables WHERE round = 1")) == 3
    rng = random.Random(8)
    for _ in range(3):
        if tournament(db_path)["status"] == "finished":
            break
        await play_round(world, db_path, rng)
    record = tournament(db_path)
    assert record["status"] == "finished" and len(json.loads(record["champion"])) == 1
    assert len(rows(db_path, "SELECT * FROM rounds")) == 2
