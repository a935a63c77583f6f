"""Turn clocks as pure rules: durations, the timers a change leaves, forfeits' places, settings; the scheduler."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from data.store import FORFEITED, STAND_IN, SeatRecord, Store, TableRecord
from data.timers import BOT, DEADLINE, REMINDER, TimerRecord
from engines import get_engine
from host import Refusal
from host.clock import Scheduler, paused_plan, plan_turn, resumed_plan
from host.durations import TURN_TIME_BOUNDS, describe, parse_duration
from host.outcomes import final_places, forfeit_win
from host.settings import normalise, parse


def table(seats: int = 3, *, turn_time: int | None = 600, bots: tuple[int, ...] = (), paused: bool = False,
          stand_in: dict[int, int] | None = None) -> TableRecord:
    records = [SeatRecord(i, 10 + i, f"p{i}", i in bots, stand_in=(stand_in or {}).get(i, 0)) for i in range(seats)]
    return TableRecord(id=7, guild_id=1, channel_id=2, game="do_over", options={}, status="playing", seed=1,
                       version=3, snapshot=None, host_id=10, posted_version=0, seats=records, turn_time=turn_time,
                       paused=paused)


@pytest.mark.parametrize(("text", "seconds"), [("90s", 90), ("10m", 600), ("12h", 43200), ("3d", 259200),
                                               ("1d12h", 129600), ("30s", 30), ("14d", 1209600), ("OFF", None),
                                               ("1h30m15s", 5415)])
def test_durations_read_every_accepted_form(text: str, seconds: int | None) -> None:
    assert parse_duration(text, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1]) == seconds


@pytest.mark.parametrize("text", ["29s", "14d1s", "10", "1x", "1d 2h", "-3m", "²m", "", "m", "1.5h", "0s"])
def test_durations_refuse_anything_else_naming_the_forms(text: str) -> None:
    with pytest.raises(Refusal, match=r"90s|between"):
        parse_duration(text, low=TURN_TIME_BOUNDS[0], high=TURN_TIME_BOUNDS[1])


def test_describe_reads_back() -> None:
    assert describe(129600) == "1d 12h" and describe(None) == "off" and describe(5415) == "1h 30m 15s"


def test_a_seat_that_comes_to_act_gets_a_deadline_and_a_half_time_reminder() -> None:
    plan = plan_turn(table(), [0], [1], now=1000.0, bot_delay=2.0)
    added = {(t.kind, t.seat): t.due for t in plan.add}
    assert added == {(DEADLINE, 1): 1600.0, (REMINDER, 1): 1300.0}
    assert (DEADLINE, 0) in plan.drop and (REMINDER, 0) in plan.drop
    assert BOT not in {t.kind for t in plan.add}, "no bot plays here: no bot timer"


def test_the_steps_of_one_decision_keep_the_deadline() -> None:
    plan = plan_turn(table(), [1], [1], now=1500.0, bot_delay=2.0)
    assert not plan.add and (DEADLINE, 1) not in plan.drop


def test_seats_acting_at_once_each_get_their_own_deadline() -> None:
    plan = plan_turn(table(), None, [0, 1, 2], now=0.0, bot_delay=2.0)
    assert sorted(t.seat for t in plan.add if t.kind == DEADLINE) == [0, 1, 2]


def test_seats_a_bot_plays_have_no_deadline_but_a_paced_bot_timer() -> None:
    plan = plan_turn(table(bots=(1,), stand_in={2: STAND_IN}), [0], [1, 2], now=10.0, bot_delay=1.5)
    assert [(t.kind, t.seat, t.due) for t in plan.add] == [(BOT, -1, 11.5)]
    assert (DEADLINE, 2) in plan.drop


def test_no_clock_means_no_deadline() -> None:
    assert not [t for t in plan_turn(table(turn_time=None), [0], [1], now=0.0, bot_delay=0).add]


def test_a_paused_table_keeps_new_time_in_reserve() -> None:
    plan = plan_turn(table(paused=True), [0], [1], now=50.0, bot_delay=0)
    assert {(t.kind, t.due, t.remaining) for t in plan.add} == {(DEADLINE, None, 600.0), (REMINDER, None, 300.0)}


def test_pause_then_resume_gives_each_timer_the_time_it_had_left() -> None:
    running = [TimerRecord(7, DEADLINE, 1, 700.0, None, 100.0), TimerRecord(7, REMINDER, 1, 400.0, None, 100.0)]
    frozen = paused_plan(running, now=300.0).add
    assert {(t.kind, t.remaining) for t in frozen} == {(DEADLINE, 400.0), (REMINDER, 100.0)}
    thawed = resumed_plan(frozen, now=10_000.0).add
    assert {(t.kind, t.due, t.started) for t in thawed} == {(DEADLINE, 10_400.0, 100.0), (REMINDER, 10_100.0, 100.0)}


def test_a_forfeited_seat_is_placed_last_and_seats_that_forfeit_share_last_place() -> None:
    engine = get_engine("do_over")
    t = table(4, stand_in={1: FORFEITED, 3: FORFEITED})
    assert final_places(engine, t, [2, 1, 1, 3]) == [2, 3, 1, 3]
    assert final_places(engine, table(4), [2, 1, 1, 3]) == [2, 1, 1, 3]


def test_forfeits_that_leave_one_side_end_the_game() -> None:
    do_over = get_engine("do_over")
    assert forfeit_win(do_over, table(2, stand_in={0: FORFEITED})) == [2, 1]
    assert forfeit_win(do_over, table(3, stand_in={0: FORFEITED})) is None
    king_pedro = get_engine("king_pedro")
    teams = king_pedro.teams  # type: ignore[attr-defined]
    partner = next(side for side in teams if 0 in side)
    places = forfeit_win(king_pedro, table(4, stand_in={0: FORFEITED}))
    assert places is not None and all(places[s] == 2 for s in partner)
    assert all(places[s] == 1 for s in range(4) if s not in partner)


@pytest.mark.parametrize(("name", "value", "stored"), [
    ("turn_time", "1d12h", "129600"), ("turn_time", "off", "off"), ("on_timeout", "Forfeit", "forfeit"),
    ("thread", "on", "on"), ("reminders", "off", "off"), ("bot_delay", "0", "0"), ("bot_level", "hard", "hard"),
    ("lobby_timeout", "2d", "172800"), ("game_channels", "<#123> 456", "123 456"), ("game_channels", "any", "any"),
])
def test_settings_accept_good_values(name: str, value: str, stored: str) -> None:
    assert normalise(name, value) == stored


@pytest.mark.parametrize(("name", "value"), [
    ("turn_time", "5s"), ("on_timeout", "explode"), ("thread", "maybe"), ("bot_delay", "-1"), ("bot_delay", "601"),
    ("bot_level", "godlike"), ("lobby_timeout", "off"), ("game_channels", "#general"), ("colour", "red"),
])
def test_settings_refuse_bad_values(name: str, value: str) -> None:
    with pytest.raises(Refusal):
        normalise(name, value)


def test_stored_settings_read_back_typed() -> None:
    settings = parse({"turn_time": "600", "thread": "on", "game_channels": "5 6", "bot_delay": "3"})
    assert settings.turn_time == 600 and settings.thread and settings.game_channels == (5, 6)
    assert settings.bot_delay == 3.0 and settings.allows_channel(5) and not settings.allows_channel(7)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0


@pytest.fixture
async def store(tmp_path: Any) -> Any:
    s = await Store.open(str(tmp_path / "clock.sqlite3"))
    yield s
    await s.close()


async def test_the_scheduler_fires_due_timers_in_due_order_in_bounded_batches_and_retries_failures(
        store: Store) -> None:
    clock = Clock()
    store.now = lambda: clock.now
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO game_tables (id, guild_id, channel_id, game, options, status, seed, host_id,"
                         " created_at, updated_at) VALUES (7, 1, 2, 'do_over', '{}', 'playing', 1, 1, 0, 0)")
    from data.timers import TimerPlan

    await store.timers.change_timers(7, TimerPlan(add=[TimerRecord(7, DEADLINE, s, 990.0 - s, None, 0.0)
                                                for s in range(5)]))
    batches: list[list[int]] = []

    async def fire(timers: list[TimerRecord]) -> list[TimerRecord]:
        batches.append([t.seat for t in timers])
        failed = [t for t in timers if t.seat == 0]
        await store.timers.change_timers(7, TimerPlan(drop=[(t.kind, t.seat) for t in timers if t.seat != 0]))
        return failed

    scheduler = Scheduler(store, fire, batch=2)
    scheduler.start()
    for _ in range(50):
        await asyncio.sleep(0.01)
        if not await store.timers.due_timers(clock.now, 10):
            break
    await scheduler.close()
    assert batches == [[4, 3], [2, 1], [0]]
    left = await store.timers.timers_of(7)
    assert [(t.seat, t.due) for t in left] == [(0, 1060.0)], "a failed timer is retried later, not at once"
