"""Real Discord's time (tests/latency.py): every answer within 3 s at 1 s per REST call, 429s waited out,
each table's timers on their own, and later moves folded into a table's next post."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot import create_bot
from tests.e2e.driver import choices_in, latest_table_message, open_hand, seats_to_act, use
from tests.e2e.test_long_games_e2e import manager
from tests.e2e.test_reliability_e2e import (
    answer_text,
    click_everything,
    play_randomly,
    public_messages,
    rows,
    seat_alone_with_bots,
)
from tests.latency import Latency

pytestmark = pytest.mark.simcord(settle_timeout=60)


def assert_answered_in_time(latency: Latency, at_least: int) -> None:
    """Every interaction's first response landed within 3 s of virtual time, and none got 10062."""
    first = latency.first_responses()
    assert len(first) >= at_least, f"only {len(first)} interactions answered"
    late = {i: (round(s, 2), status) for i, (s, status) in first.items() if s >= 3.0 or status != 200}
    assert not late, f"first responses later than 3 s or refused (10062): {late}"


async def every_command(world: Any) -> int:
    """Every slash command once, in an order that gives each something to do (or a clear refusal)."""
    alice, bob, carol, dave = (world.members[n] for n in ("alice", "bob", "carol", "dave"))
    mona = await manager(world)
    ch = world.channel
    other = world.guild.create_text_channel("threads-here")
    calendar = world.guild.create_text_channel("calendar")
    steps: list[tuple[Any, Any, str, dict[str, Any]]] = [
        (mona, ch, "config set", {"setting": "reminders", "value": "on"}),
        (mona, ch, "config show", {}),
        (alice, ch, "game rules", {"game": "pentawar"}),
        (alice, ch, "game new", {"game": "pentawar", "turn_time": "1h"}),
        (bob, ch, "game join", {}),
        (carol, ch, "game join", {}),
        (carol, ch, "game leave", {}),
        (alice, ch, "game addbot", {"level": "easy"}),
        (alice, ch, "game start", {}),
        (alice, ch, "game status", {}),
        (alice, ch, "game bench", {}),
        (bob, ch, "game notify", {"dm": "on"}),
        (alice, ch, "game mine", {}),
        (alice, ch, "game tables", {}),
        (alice, ch, "game pause", {}),
        (alice, ch, "game resume", {}),
    ]
    answered = 0
    for member, channel, command, options in steps:
        result = await member.slash(channel, command, **options)
        assert result.acknowledged, command
        answered += 1
    mover = {m.id: m for m in (alice, bob)}.get((seats_to_act(latest_table_message(ch)) or [0])[0])
    if mover is not None:
        choices = await mover.autocomplete(ch, "play", "action", "")
        assert (await mover.slash(ch, "play", action=choices[0]["value"])).acknowledged
        answered += 1
    later: list[tuple[Any, Any, str, dict[str, Any]]] = [
        (alice, ch, "game log", {}),
        (alice, ch, "game replay", {"move": 0}),
        (alice, ch, "game replace", {"player": bob, "with_": carol}),
        (carol, ch, "game resign", {}),
        (carol, ch, "game return", {}),
        (alice, ch, "game abandon", {}),
        (alice, other, "game new", {"game": "do_over", "thread": True}),
        (alice, ch, "tournament new", {"game": "do_over", "format": "swiss", "rounds": 1}),
        (bob, ch, "tournament join", {}),
        (carol, ch, "tournament join", {}),
        (carol, ch, "tournament leave", {}),
        (alice, ch, "tournament addbot", {"count": 2, "level": "easy"}),
        (alice, ch, "tournament join", {}),
        (alice, ch, "tournament checkin", {}),
        (dave, ch, "tournament standings", {}),
        (alice, ch, "tournament start", {}),
        (dave, ch, "tournament status", {}),
        (bob, ch, "tournament drop", {}),
        (alice, ch, "tournament advance", {}),
        (alice, ch, "tournament cancel", {}),
        (alice, ch, "rating", {}),
        (alice, ch, "leaderboard", {"game": "do_over"}),
        (alice, ch, "tournament export", {"format": "csv"}),
        (bob, ch, "profile", {"visibility": "hidden"}),
        (bob, ch, "profile", {"visibility": "visible"}),
        # A tournament on the calendar: its Discord scheduled event is one more REST call, made after the answer.
        (alice, calendar, "tournament new", {"game": "do_over", "format": "swiss", "starts_at": "in 2h"}),
        (alice, calendar, "tournament schedule", {"starts_at": "in 3h"}),
        (bob, calendar, "tournament join", {}),
        (alice, calendar, "tournament penalty", {"player": bob, "kind": "warning", "reason": "late"}),
        (alice, calendar, "tournament note", {"player": bob, "text": "asked to be on time"}),
        (bob, calendar, "tournament leave", {}),
    ]
    for member, channel, command, options in later:
        if "with_" in options:
            options = {"player": options["player"], "with": options["with_"]}
        result = await member.slash(channel, command, **options)
        assert result.acknowledged, command
        answered += 1
    return answered


async def test_a_scheduled_tournament_is_answered_before_its_event_is_made(world: Any, latency: Latency) -> None:
    """/tournament new with starts_at made the Discord scheduled event before it answered: at 1 s a call, a 429
    on that event was past 3 s (10062). The event is made after the answer, and still made."""
    latency.default = 1.0
    latency.rate_limit("POST", "/guilds/*/scheduled-events", times=1, retry_after=1.0)
    mona = await manager(world)  # only managers open tournaments by default
    result = await mona.slash(world.channel, "tournament new", game="do_over", format="swiss", starts_at="in 2h")
    assert result.acknowledged and not result.ephemeral
    assert_answered_in_time(latency, 1)
    await world.env.settle()
    assert len(world.env.backend.get_guild(world.guild.id).scheduled_events) == 1


async def test_every_command_is_answered_within_3_s_at_1_s_per_rest_call(world: Any, latency: Latency) -> None:
    latency.default = 1.0
    answered = await every_command(world)
    assert_answered_in_time(latency, answered)


async def test_every_component_is_answered_within_3_s_at_1_s_per_call_before_and_after_a_restart(
        world: Any, latency: Latency) -> None:
    await seat_alone_with_bots(world, "do_over", "max_turns=30", 1)
    panel = await play_randomly(world, random.Random(7))
    latency.default = 1.0
    seated, stranger = world.members["alice"], world.members["dave"]
    panels = [panel] if panel is not None else []
    before = await click_everything(world, public_messages(world), [seated, stranger])
    before += await click_everything(world, panels, [seated])
    await world.env.restart_bot(create_bot())
    after = await click_everything(world, public_messages(world), [seated, stranger])
    after += await click_everything(world, panels, [seated])
    assert before == after > 0
    assert_answered_in_time(latency, before + after)


async def test_moves_at_1_s_per_call_are_each_acknowledged_in_time(world: Any, latency: Latency) -> None:
    """A game played click by click while every REST call takes 1 s: each click's first response in time."""
    await seat_alone_with_bots(world, "do_over", "max_turns=16", 1)
    latency.default = 1.0
    alice = world.members["alice"]
    rng = random.Random(3)
    for _ in range(6):
        message = latest_table_message(world.channel)
        if seats_to_act(message) != [alice.id]:
            break
        panel = await open_hand(alice, message)
        kind, custom_id, value = rng.choice([c for c in choices_in(panel) if not c[2].startswith(">")]
                                            or choices_in(panel))
        await use(alice, panel, kind, custom_id, value)
    assert_answered_in_time(latency, 2)


async def test_a_thread_whose_creation_answers_429_twice_makes_one_thread_and_one_table(
        world: Any, latency: Latency, db_path: str) -> None:
    latency.default = 1.0
    latency.rate_limit("POST", "/channels/*/threads", times=2, retry_after=1.5)
    result = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    assert "plays in" in answer_text(result), answer_text(result)
    assert latency.statuses("/channels/*/threads", "POST") == [429, 429, 200]
    assert len(world.channel.threads) == 1
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(1,)]
    assert_answered_in_time(latency, 1)


async def test_moves_made_while_a_table_s_post_is_in_flight_fold_into_its_next_post(
        world: Any, latency: Latency, db_path: str) -> None:
    """Alice moves; while her table message uploads (slowly), both bots move: their moves go out in one
    message after hers (the latest picture, each move's line), not one message each, and none is lost."""
    await seat_alone_with_bots(world, "do_over", None, 2)
    alice = world.members["alice"]
    latency.upload = 2.0
    rng = random.Random(2)
    folded = 0
    for _ in range(8):
        message = latest_table_message(world.channel)
        if seats_to_act(message) != [alice.id]:
            break
        before = {m.id for m in world.channel.history()}
        moves_before = rows(db_path, "SELECT COUNT(*) FROM actions")[0][0]
        panel = await open_hand(alice, message)
        kind, custom_id, value = rng.choice([c for c in choices_in(panel) if not c[2].startswith(">")])
        await use(alice, panel, kind, custom_id, value)
        await world.env.advance_time(10)
        labels = [r[0] for r in rows(db_path, "SELECT label FROM actions WHERE version > ? ORDER BY version",
                                     (moves_before,))]
        posted = [m for m in world.channel.history() if m.id not in before and m.attachments
                  and m.attachments[0].filename == "table.png"]
        told = "\n".join(m.content for m in posted)
        for label in labels:  # every move's line reached the channel
            assert label.split("**")[1] in told, (label, told)
        version, posted_version = rows(db_path, "SELECT version, posted_version FROM game_tables")[0]
        assert posted_version == version, "the newest move reached the channel"
        if len(labels) >= 3:
            assert len(posted) < len(labels), "a message for every move: nothing was folded"
            folded += 1
    assert folded, "no turn where both bots moved while alice's message was on its way"


@pytest.mark.simcord(settle_timeout=10)
async def test_an_answer_due_after_the_15_minute_token_is_not_sent_on_the_dead_token(
        world: Any, db_path: str, caplog: pytest.LogCaptureFixture) -> None:
    """Discord's interaction token lasts 15 minutes, and SimCord models it (a follow-up or an edit of the
    original response after that gets 10015 Unknown Webhook). ``/game new thread:true`` defers, then its
    thread takes 16 minutes of virtual time to open: the table and its thread are still made once, the
    channel is told where it plays (a public result goes to the channel), and the private answer is dropped
    and logged; nothing is sent on the expired token."""
    caplog.set_level("INFO", logger="cogs.answers")
    # Its own harness, far faster than the fixture's: 16 virtual minutes pass in about half a second (a
    # short settle window: with the module's 60 s, SimCord lets later timers run out in real time first).
    with Latency(0.1, routes={("POST", "/channels/*/threads"): 16 * 60.0}, speed=2000.0) as harness:
        harness.attach(world.env)
        result = await world.members["alice"].slash(world.channel, "game new", game="pentawar", thread=True)
    assert result.acknowledged
    assert len(world.channel.threads) == 1
    assert rows(db_path, "SELECT COUNT(*) FROM game_tables") == [(1,)]
    told = [m.content for m in world.channel.history() if "plays in" in (m.content or "")]
    assert len(told) == 1, told
    webhook = [(c.method, c.status) for c in harness.calls if c.path.startswith("/webhooks/")]
    assert webhook == [], f"a follow-up or edit was tried on the expired token: {webhook}"
    assert [r for r in caplog.records if "dropped: its interaction expired" in r.getMessage()]
    first = harness.first_responses()
    assert [status for _, status in first.values()] == [200]  # the deferral itself landed in time


async def test_the_harness_hurries_the_bot_s_timers_once_across_restarts_and_leaves_the_loop_as_it_was(
        world: Any) -> None:
    """``speed`` hurries the bot's virtual timers through its runtime's ``call_at``, which SimCord puts back on
    the loop when it detaches the bot. A restart used to build the next runtime on the hurried one (ten times
    more each time, SimCord's own settle windows too), and the speed-up outlived the harness: bench.latency's
    third run in one process saw its 5 s start-up window close after 50 ms and stopped with "bot did not settle
    while advancing time". Read from each timer's due instant on the real clock, no sleeping."""
    from simcord import _dpy_internals

    loop, env = asyncio.get_running_loop(), world.env

    def seconds_until(call_at: Any, delay: float = 100.0) -> float:
        now = _dpy_internals.real_monotonic()
        handle = call_at(now + delay, lambda: None)
        handle.cancel()
        return round(handle.when() - now)

    with Latency(speed=10.0) as harness:
        harness.attach(env)
        harness.attach(env)  # attached twice (the fixture and a bench both may): still ten times
        assert seconds_until(env._runtime.call_at) == 10
        for _ in range(2):
            await env.restart_bot(create_bot())
            assert seconds_until(env._runtime.call_at) == 10  # the restarted bot's timers: ten times, not 100
            assert seconds_until(loop.call_at) == 100  # the loop's other timers (SimCord's settle windows)
    assert seconds_until(env._runtime.call_at) == 100  # what SimCord puts back on the loop at detach
    await env.restart_bot(create_bot())
    assert seconds_until(env._runtime.call_at) == seconds_until(loop.call_at) == 100
