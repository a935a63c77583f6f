"""The tournament service below Discord, on both backends: registration, rounds seated and played
by bots, results recorded from the tables, the next round paired automatically, the champion."""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import host.tournaments.service as service_module
from data.store import Store
from host import Refusal, TableService
from host.tournaments.models import TableResult
from host.tournaments.points import table_points
from host.tournaments.service import TournamentService

pytestmark = pytest.mark.asyncio

CHANNEL = 500
threads = itertools.count(10_000)


async def service(store: Store) -> TournamentService:
    seeds = itertools.count(7)
    return TournamentService(TableService(store, new_seed=lambda: next(seeds)))


async def play_round(svc: TournamentService) -> list[int]:
    """Seat every pending table in a made-up thread and let bots play each to the end."""
    tournament = (await svc.store.tournaments.active_tournament(CHANNEL)
                  or await svc.store.tournaments.latest_tournament(CHANNEL))
    assert tournament is not None
    seated = []
    for place in await svc.pending(tournament.id):
        table = await svc.seat(place, next(threads))
        seated.append(table.id)
    for table_id in seated:
        for _ in range(20_000):
            table = await svc.tables.get(table_id)
            if table.status != "playing":
                break
            assert await svc.tables.bot_step(table_id) is not None
        await svc.table_finished(table_id)
    return seated


async def new_event(svc: TournamentService, **kw: Any) -> int:
    args: dict[str, Any] = dict(guild_id=1, channel_id=CHANNEL, organiser_id=1, game="do_over", fmt="swiss",
                                rounds=None, table_size=None, top_cut=None, turn_time=86400, round_time=None,
                                options=None, name=None)
    args.update(kw)
    return (await svc.create(**args)).record.id


async def test_swiss_pods_of_four_play_three_rounds_to_a_champion(store: Store) -> None:
    svc = await service(store)
    tid = await new_event(svc, table_size=4, rounds=3)
    await svc.add_bots(tid, 1, False, 8, "easy")
    start = await svc.start(tid, 1, False)
    assert [r.number for r in start.state.rounds] == [1]
    for _ in range(3):
        await play_round(svc)
    state = await svc.state(tid)
    assert state.record.status == "finished"
    assert [r.number for r in state.rounds] == [1, 2, 3]
    pods = [frozenset(p.seats) for p in state.places]
    assert all(len(p) == 4 for p in pods) and len(pods) == 6
    assert len(set(pods)) == len(pods), "a pod repeated"
    # The points are the tables' own results: each table's sides score (s − p)/(s − 1).
    _, rows = await svc.standings(tid)
    expected: Counter[int] = Counter()
    for place in state.places:
        assert place.table_id is not None
        results = {seat: p for seat, _, p in await store.tables.results(place.table_id)}
        sides = tuple((e,) for e in place.seats)
        for entrant, pts in table_points(TableResult(sides, tuple(results[i] for i in range(4)))).items():
            expected[entrant] += pts
    assert {r.entrant: r.points for r in rows} == {e: Fraction(v) for e, v in expected.items()}
    assert state.record.champion == [rows[0].entrant]


async def test_registration_refusals_change_nothing(store: Store) -> None:
    svc = await service(store)
    tid = await new_event(svc, game="pedwar", fmt="single_elimination")
    await svc.join(tid, 50, "ann")
    with pytest.raises(Refusal, match="already entered"):
        await svc.join(tid, 50, "ann")
    with pytest.raises(Refusal, match="Only the organiser"):
        await svc.add_bots(tid, 50, False, 1, None)
    with pytest.raises(Refusal, match="needs at least 2 entrants"):
        await svc.start(tid, 1, False)
    with pytest.raises(Refusal, match="already runs a tournament"):
        await new_event(svc)
    assert [e.user_id for e in (await svc.state(tid)).entrants] == [50]
    await svc.add_bots(tid, 1, False, 1, "easy")
    await svc.start(tid, 1, False)
    with pytest.raises(Refusal, match="already started"):
        await svc.join(tid, 51, "bob")


async def test_single_elimination_of_six_gives_byes_to_the_top_seeds(store: Store) -> None:
    svc = await service(store)
    tid = await new_event(svc, game="pedwar", fmt="single_elimination")
    await svc.add_bots(tid, 1, False, 6, "easy")
    await svc.start(tid, 1, False)
    state = await svc.state(tid)
    assert len(state.round_byes(1)) == 2 and len(state.round_places(1)) == 2
    for _ in range(3):
        await play_round(svc)
    state = await svc.state(tid)
    assert state.record.status == "finished" and len(state.record.champion or []) == 1
    assert len(state.rounds) == 3


async def test_check_in_drops_no_shows_and_drop_forfeits_a_seat(store: Store) -> None:
    svc = await service(store)
    tid = await new_event(svc, game="pedwar", rounds=2)
    for uid in (50, 51, 52):
        await svc.join(tid, uid, f"p{uid}")
    await svc.open_checkin(tid, 1, False)
    await svc.check_in(tid, 50)
    await svc.check_in(tid, 51)
    start = await svc.start(tid, 1, False)
    assert [e.user_id for e in start.no_shows] == [52]
    place = (await svc.pending(tid))[0]
    table = await svc.seat(place, next(threads))
    notices = await svc.drop(tid, 50)
    assert len(notices) == 1 and notices[0].over
    assert (await svc.tables.get(table.id)).status == "finished"
    advanced = await svc.table_finished(table.id)
    assert advanced and advanced[0].new_round == 2
    state = await svc.state(tid)
    assert state.round_places(2) == [] and state.round_byes(2) != [], "the one player left gets a bye"


async def test_king_pedro_partners_share_their_sides_points_and_byes_fill_the_rest(store: Store) -> None:
    svc = await service(store)
    tid = await new_event(svc, game="king_pedro", rounds=1, options={"max_rounds": 1})
    await svc.add_bots(tid, 1, False, 6, "easy")
    await svc.start(tid, 1, False)
    state = await svc.state(tid)
    assert len(state.round_places(1)) == 1 and len(state.round_byes(1)) == 2, "one table of 4, two byes"
    await play_round(svc)
    state, rows = await svc.standings(tid)
    place = state.round_places(1)[0]
    assert [len(side) for side in place.sides] == [2, 2]
    points = {r.entrant: r.points for r in rows}
    for side in place.sides:
        assert points[side[0]] == points[side[1]], "partners score the side's points"
    assert sorted(points[side[0]] for side in place.sides) == [0, 1]
    assert all(points[e] == 1 for e in state.round_byes(1)), "a bye scores 1"


async def test_after_a_restart_each_process_catches_up_only_its_own_guilds_tournaments(store: Store) -> None:
    """A round whose last table ended while the bot was down moves on at start, in the process that
    owns the tournament's guild (its shard), and only there."""
    svc = await service(store)
    shard_of = {1 << 22: 1, 2 << 22: 0}  # guild id → shard of 2
    ids = {}
    for guild, channel in ((1 << 22, 601), (2 << 22, 602)):
        tid = (await svc.create(guild_id=guild, channel_id=channel, organiser_id=1, game="pedwar", fmt="swiss",
                                rounds=2, table_size=None, top_cut=None, turn_time=86400, round_time=None,
                                options=None, name=None)).record.id
        await svc.add_bots(tid, 1, False, 2, "easy")
        await svc.start(tid, 1, False)
        table = await svc.seat((await svc.pending(tid))[0], next(threads))
        while (await svc.tables.get(table.id)).status == "playing":
            await svc.tables.bot_step(table.id)  # the table ends; nobody tells the tournament (a crash)
        ids[guild] = tid
    assert [len((await svc.state(t)).rounds) for t in ids.values()] == [1, 1]
    fresh = await service(store)  # the process that holds shard 0 starts
    await fresh.resume_work(lambda guild: shard_of[guild or 0] == 0)
    assert len((await fresh.state(ids[2 << 22])).rounds) == 2, "its own guild's round moved on"
    assert len((await fresh.state(ids[1 << 22])).rounds) == 1, "another process's guild was left alone"


async def test_a_large_fields_standings_are_computed_off_the_event_loop(store: Store,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """1,024 entrants' tie-breakers take tens of ms: past the inline size they run in a thread, not on the loop."""
    where: list[bool] = []
    computed = service_module.standings

    def watched(*args: Any) -> Any:
        where.append(threading.current_thread() is threading.main_thread())
        return computed(*args)

    monkeypatch.setattr(service_module, "standings", watched)
    svc = await service(store)
    tid = await new_event(svc)
    await svc.add_bots(tid, 1, False, 8, "easy")
    _, small = await svc.standings(tid)
    monkeypatch.setattr(service_module, "INLINE_UP_TO", 4, raising=False)
    _, large = await svc.standings(tid)
    assert where == [True, False], where
    assert [row.entrant for row in small] == [row.entrant for row in large] and len(large) == 8
