"""Issue 30 below Discord: a drop reaches tables not yet seated (bug 1), who organises, penalties and
notes, registration rules (role, waiting list, late joins), the calendar's timers, and a property:
random drops at random moments with restarts never seat or crown a dropped player."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from data.store import Store
from data.tournaments import CHECKIN_TIMER, START_TIMER
from host import Refusal, TableService
from host.settings import ServerSettings
from host.tournaments.service import TournamentService
from tests.host.tournaments.test_service import CHANNEL, new_event, threads

pytestmark = pytest.mark.asyncio

ROLE = 777


def service(store: Store, seed: int = 7) -> TournamentService:
    seeds = itertools.count(seed)
    return TournamentService(TableService(store, new_seed=lambda: next(seeds)), ServerSettings(store, 0.0))


async def finish(svc: TournamentService, table_id: int, rng: random.Random | None = None) -> None:
    """End a table of human players: a forfeit of a random seat at a 2-player table, else a draw."""
    table = await svc.tables.get(table_id)
    if table.status == "playing":
        humans = [s.user_id for s in table.seats if s.user_id is not None]
        if rng is not None and len(table.seats) == 2 and humans and rng.random() < 0.7:
            await svc.tables.drop_seat(table_id, rng.choice(humans), "resigns")
        else:
            await svc.tables.end_as_draw(table_id, "drawn")
    await svc.table_finished(table_id)


async def draw_round(svc: TournamentService, tid: int) -> None:
    await svc.settle(tid)
    for place in await svc.pending(tid):
        table = await svc.seat(place, next(threads))
        await svc.tables.end_as_draw(table.id, "drawn")
    for place in (await svc.state(tid)).places:
        if place.table_id is not None:
            await svc.table_finished(place.table_id)


async def humans_event(svc: TournamentService, count: int, **kw: object) -> int:
    tid = await new_event(svc, game="pedwar", **kw)
    for uid in range(50, 50 + count):
        await svc.join(tid, uid, f"p{uid}")
    return tid


# ---------------------------------------------------------------- bug 1

async def test_a_drop_while_the_table_waits_for_its_thread_is_a_walkover_and_never_seated(store: Store) -> None:
    svc = service(store)
    tid = await humans_event(svc, 4, rounds=2)
    await svc.start(tid, 1, False)
    # No thread was made yet (creation failed, or the bot restarted): every table is pending.
    pending = await svc.pending(tid)
    entrants = {e.user_id: e.id for e in (await svc.state(tid)).entrants}
    victim = pending[0].seats[0]
    user = next(u for u, e in entrants.items() if e == victim)
    await svc.drop(tid, user)
    state = await svc.state(tid)
    place = state.round_places(1)[0]
    assert place.status == "finished" and place.table_id is None, "the dropped player's table was left to seat"
    winner_side = next(i for i, side in enumerate(place.sides) if victim not in side)
    assert place.places is not None and place.places[winner_side] == 1 and place.places[1 - winner_side] == 2
    # Seating what is left never seats the dropped player.
    for p in await svc.pending(tid):
        table = await svc.seat(p, next(threads))
        assert user not in [s.user_id for s in table.seats]
    with pytest.raises(Refusal, match="already seated"):
        await svc.seat(pending[0], next(threads))


async def test_a_pod_waiting_for_its_thread_is_seated_without_the_dropped_player(store: Store) -> None:
    svc = service(store)
    tid = await new_event(svc, table_size=4, rounds=1)
    for uid in range(50, 54):
        await svc.join(tid, uid, f"p{uid}")
    await svc.start(tid, 1, False)
    place = (await svc.pending(tid))[0]
    await svc.drop(tid, 51)
    table = await svc.seat(place, next(threads))
    assert sorted(s.user_id for s in table.seats) == [50, 52, 53]


async def test_advance_draws_a_table_that_never_got_its_thread(store: Store) -> None:
    svc = service(store)
    tid = await humans_event(svc, 4, rounds=2, round_time=3600)
    await svc.start(tid, 1, False)
    seated = await svc.seat((await svc.pending(tid))[0], next(threads))
    store.now = lambda: 10**10  # type: ignore[method-assign]  # the round's time has passed
    notices = await svc.advance(tid, 1, False)
    assert [n.table.id for n in notices] == [seated.id]
    state = await svc.state(tid)
    waiting = next(p for p in state.round_places(1) if p.table_id is None)
    assert waiting.status == "finished" and waiting.drawn and waiting.places == [1, 1]
    await svc.table_finished(seated.id)
    assert len((await svc.state(tid)).rounds) == 2, "the round moved on"


# ---------------------------------------------------------- who organises

async def test_the_organiser_role_and_managers_run_organiser_commands_and_advance(store: Store) -> None:
    svc = service(store)
    await store.settings.set_guild_setting(1, "tournament_organiser_role", str(ROLE), 1)
    tid = await humans_event(svc, 2, rounds=1, round_time=3600)
    with pytest.raises(Refusal, match="Only the organiser"):
        await svc.add_bots(tid, 99, False, 1, "easy", roles=[5])
    await svc.add_bots(tid, 99, False, 2, "easy", roles=[ROLE])
    await svc.start(tid, 98, False, roles=[ROLE])
    store.now = lambda: 10**10  # type: ignore[method-assign]
    with pytest.raises(Refusal, match="Only the organiser"):
        await svc.advance(tid, 99, False)
    await svc.advance(tid, 97, True)  # a manager: today only the creator could
    await svc.advance(tid, 99, False, roles=[ROLE])


# ------------------------------------------------------------- penalties

async def test_a_member_warned_during_registration_can_leave_and_join_again(store: Store) -> None:
    """Leaving deleted the entry while a penalty still named it: the foreign key refused, and the member got the
    apology. The entry's notes and penalties go with it; rejoining makes a clean entry."""
    svc = service(store)
    tid = await humans_event(svc, 3, rounds=1)
    await svc.penalty(tid, 1, False, 51, "warning", "rude in chat")
    await svc.note(tid, 1, False, 51, "asked to calm down")
    await svc.note(tid, 1, False, 52, "arrived late")
    state = await svc.leave(tid, 51)
    assert 51 not in {e.user_id for e in state.entrants if e.active}
    assert [(p.kind, p.text) for p in state.penalties] == [("note", "arrived late")]
    state = await svc.join(tid, 51, "p51")
    assert 51 in {e.user_id for e in state.entrants if e.active}


async def test_penalties_each_kind_and_the_record(store: Store) -> None:
    svc = service(store)
    tid = await humans_event(svc, 4, rounds=3)
    with pytest.raises(Refusal, match="Only the organiser"):
        await svc.penalty(tid, 50, False, 51, "warning", "slow play")
    await svc.penalty(tid, 1, False, 51, "warning", "slow play")
    await svc.note(tid, 1, False, 52, "arrived late")
    with pytest.raises(Refusal, match="not entered"):
        await svc.note(tid, 1, False, 4242, "who?")
    with pytest.raises(Refusal, match="kind"):
        await svc.penalty(tid, 1, False, 51, "yellow_card", "x")
    await svc.start(tid, 1, False)
    # A game loss with no table in play waits for the player's next table.
    penalty, notices = await svc.penalty(tid, 1, False, 50, "game_loss", "marked cards")
    assert penalty.pending and not notices
    first = (await svc.state(tid)).entrants[0].id
    place = next(p for p in await svc.pending(tid) if first in p.seats)
    table = await svc.seat(place, next(threads))
    notices = await svc.game_losses_due(table)
    assert len(notices) == 1 and notices[0].over
    assert {user: place for _, user, place in await store.tables.results(table.id)}[50] == 2
    assert not [p for p in (await svc.state(tid)).penalties if p.pending]
    # A game loss with a table in play forfeits it at once.
    other = next(iter(await svc.pending(tid)))
    table2 = await svc.seat(other, next(threads))
    loser = table2.seats[0].user_id
    assert loser is not None
    _, notices = await svc.penalty(tid, 1, False, loser, "game_loss", "insulted opponent")
    assert len(notices) == 1 and (await svc.tables.get(table2.id)).status == "finished"
    await svc.table_finished(table.id)
    await svc.table_finished(table2.id)
    # A disqualification drops at once, forfeits, and the player is never champion.
    _, notices = await svc.penalty(tid, 1, False, 52, "disqualify", "collusion")
    state = await svc.state(tid)
    assert next(e for e in state.entrants if e.user_id == 52).left == "disqualified"
    with pytest.raises(Refusal, match="disqualified"):
        await svc.join(tid, 52, "p52")
    while (await svc.state(tid)).record.status == "playing":
        await draw_round(svc, tid)
    state = await svc.state(tid)
    dq = next(e.id for e in state.entrants if e.user_id == 52)
    assert dq not in (state.record.champion or [])
    assert all(dq not in p.seats for p in state.places if p.round > 1 and p.table_id is not None), \
        "a disqualified player was seated"
    kinds = [(p.kind, p.organiser_id, p.text) for p in state.penalties]
    assert kinds == [("warning", 1, "slow play"), ("note", 1, "arrived late"), ("game_loss", 1, "marked cards"),
                     ("game_loss", 1, "insulted opponent"), ("disqualify", 1, "collusion")]
    assert all(p.at > 0 for p in state.penalties)


# ---------------------------------------------------------- registration

async def test_a_role_is_required_at_join_and_at_check_in(store: Store) -> None:
    svc = service(store)
    tid = await new_event(svc, game="pedwar", role_id=ROLE)
    with pytest.raises(Refusal, match="role"):
        await svc.join(tid, 50, "ann", roles=[1, 2])
    assert (await svc.state(tid)).entrants == []
    await svc.join(tid, 50, "ann", roles=[ROLE])
    await svc.open_checkin(tid, 1, False)
    with pytest.raises(Refusal, match="role"):
        await svc.check_in(tid, 50, roles=[])  # the role was taken away since
    await svc.check_in(tid, 50, roles=[ROLE])


async def test_the_waiting_list_moves_up_in_sign_up_order(store: Store) -> None:
    svc = service(store)
    with pytest.raises(Refusal, match="max_entrants"):
        await new_event(svc, game="pedwar", max_entrants=300)  # over the server's limit of 256
    tid = await new_event(svc, game="pedwar", max_entrants=2)
    for uid in (50, 51, 52, 53):
        await svc.join(tid, uid, f"p{uid}")
    state = await svc.state(tid)
    assert [e.user_id for e in state.waiting] == [52, 53]
    await svc.leave(tid, 51)
    assert [e.user_id for e in (await svc.state(tid)).waiting] == [53]
    start = await svc.start(tid, 1, False)
    assert [e.user_id for e in start.waitlisted] == [53]
    pure, _ = svc.pure_entrants(start.state)
    names = {e.id: e.name for e in start.state.entrants}
    assert sorted(names[e.id] for e in pure) == ["p50", "p52"]


async def test_late_join_scores_each_missed_round_as_a_loss_with_no_opponent(store: Store) -> None:
    svc = service(store)
    with pytest.raises(Refusal, match="Swiss"):
        await new_event(svc, game="pedwar", fmt="round_robin", late_join_rounds=2)
    tid = await humans_event(svc, 5, rounds=3, late_join_rounds=2)  # with the late one, 6: no bye in round 2
    await svc.start(tid, 1, False)
    await svc.join(tid, 60, "late")  # round 1 is being played: missed
    await draw_round(svc, tid)
    with pytest.raises(Refusal, match="until round 2"):
        await svc.join(tid, 61, "too late")
    state, rows = await svc.standings(tid)
    late = next(e for e in state.entrants if e.user_id == 60)
    assert late.missed_rounds == 1
    row = next(r for r in rows if r.entrant == late.id)
    assert row.points == 0 and row.byes == 0 and row.games == 0
    assert all(late.id not in r.opponents for r in rows), "a missed round gave someone an opponent"
    await draw_round(svc, tid)
    assert any(late.id in p.seats for p in (await svc.state(tid)).round_places(2)), "paired from round 2"


async def test_a_late_join_keeps_within_the_fields_limit_and_lets_the_waiting_list_in(store: Store) -> None:
    """Late joins ignored max_entrants and the server's max_entrants_limit, and a member on the waiting list was
    told "already entered": the field stays within its limit, dropped entrants counting, and the waiting member is
    told the event is full."""
    await store.settings.set_guild_setting(1, "max_entrants_limit", "4", 1)  # for the second event (below)
    svc = service(store)
    tid = await new_event(svc, game="pedwar", rounds=3, late_join_rounds=2, max_entrants=3)
    for uid in (50, 51, 52):
        await svc.join(tid, uid, f"p{uid}")
    await svc.join(tid, 53, "waiting")  # the waiting list
    await svc.start(tid, 1, False)
    with pytest.raises(Refusal, match="is full"):
        await svc.join(tid, 60, "late")
    with pytest.raises(Refusal, match="is full"):
        await svc.join(tid, 53, "waiting")
    await svc.drop(tid, 52)
    with pytest.raises(Refusal, match="is full"):  # a dropped entrant still took a place in the field
        await svc.join(tid, 53, "waiting")
    # The server's limit, without max_entrants.
    other = await new_event(svc, game="do_over", rounds=3, late_join_rounds=2, channel_id=CHANNEL + 1, organiser_id=2)
    for uid in (70, 71, 72):
        await svc.join(other, uid, f"p{uid}")
    await svc.start(other, 2, False)
    await svc.join(other, 73, "late")
    with pytest.raises(Refusal, match="max_entrants_limit"):
        await svc.join(other, 74, "too many")
    assert sum(e.active for e in (await svc.state(other)).entrants) == 4


# -------------------------------------------------------------- calendar

async def test_a_start_time_writes_the_check_in_and_start_timers_and_moving_moves_them(store: Store) -> None:
    svc = service(store)
    now = store.now()
    tid = await new_event(svc, game="pedwar", starts_at="in 2h", checkin_minutes=30)
    record = (await svc.state(tid)).record
    assert record.starts_at == pytest.approx(now + 7200, abs=5)
    timers = dict(await store.tournaments.tournament_timers(tid))
    assert timers[CHECKIN_TIMER] == pytest.approx(record.starts_at - 1800)
    assert timers[START_TIMER] == record.starts_at
    with pytest.raises(Refusal, match="Only the organiser") as stranger:
        await svc.reschedule(tid, 50, False, "in 3h")
    from cogs.guard import refusal_text  # the stranger reads why in their language, the action's words too

    assert refusal_text(stranger.value, "fr").endswith(" déplacer le début du tournoi.")
    assert refusal_text(stranger.value, "uk").endswith(" переносити початок турніру.")
    with pytest.raises(Refusal, match="future"):
        await svc.reschedule(tid, 1, False, "<t:1000:F>")
    await svc.reschedule(tid, 1, False, "in 3h")
    timers = dict(await store.tournaments.tournament_timers(tid))
    assert timers[START_TIMER] == pytest.approx(now + 3 * 3600, abs=5)
    await svc.cancel(tid, 1, False)
    assert await store.tournaments.tournament_timers(tid) == []


async def test_parse_start_forms_in_the_servers_time_zone() -> None:
    from host.tournaments.calendar import parse_start
    now = 1_790_000_000.0  # 2026-09
    assert parse_start("2026-12-01 18:00", now) == 1_796_148_000
    assert parse_start("2026-12-01 18:00", now, "Europe/Paris") == 1_796_148_000 - 3600
    assert parse_start("<t:1796148000:F>", now) == 1_796_148_000
    assert parse_start("in 2h", now) == now + 7200
    for bad in ("tomorrow", "2026-02-30 10:00", "in forever"):
        with pytest.raises(Refusal):
            parse_start(bad, now)


# -------------------------------------------------------------- property

EVENTS = [("swiss", 2, "pedwar", 0), ("swiss", 3, "do_over", 0), ("single_elimination", 2, "pedwar", 0),
          ("round_robin", 2, "pedwar", 0), ("swiss", 2, "pedwar", 4), ("swiss", 4, "king_pedro", 0),
          ("swiss", 4, "do_over", 0)]


#: With the pod top cut's fix (a dropped player never wins the final pod) and double elimination:
#: a King Pedro final table, a 3-player final pod, double elimination, and a double-elimination top cut.
MORE_EVENTS = [("swiss", 4, "king_pedro", 4, None), ("swiss", 3, "do_over", 3, None),
               ("double_elimination", 2, "pedwar", 0, None), ("swiss", 2, "pedwar", 4, "double")]


@pytest.mark.parametrize("seed", range(14))
async def test_random_drops_and_restarts_never_seat_or_crown_a_dropped_player(store: Store, seed: int) -> None:
    fmt, size, game, cut = EVENTS[seed % len(EVENTS)]
    await drops_and_restarts(store, seed, fmt, size, game, cut, None)


@pytest.mark.parametrize("seed", range(12))
async def test_random_drops_never_seat_or_crown_a_dropped_player_in_pod_cuts_or_double_elimination(
        store: Store, seed: int) -> None:
    await drops_and_restarts(store, seed, *MORE_EVENTS[seed % len(MORE_EVENTS)])


async def drops_and_restarts(store: Store, seed: int, fmt: str, size: int, game: str, cut: int,
                             cut_format: str | None) -> None:
    """Random drops at random moments, with restarts: nobody who dropped is seated or crowned."""
    rng = random.Random(seed)
    svc = service(store, seed)
    count = rng.randint(max(4, cut), 11)
    tid = await new_event(svc, game=game, fmt=fmt, table_size=size, rounds=None if fmt != "swiss" else 3,
                          top_cut=cut or None, top_cut_format=cut_format)
    for uid in range(50, 50 + count):
        await svc.join(tid, uid, f"p{uid}")
    await svc.start(tid, 1, False)
    dropped: set[int] = set()
    for _ in range(200):
        state = await svc.state(tid)
        if state.record.status != "playing":
            break
        if rng.random() < 0.3:
            svc = service(store, seed + len(dropped) + 100)  # a restart: a fresh service over the same rows
        active = [e for e in state.entrants if e.active]
        if active and rng.random() < 0.25:
            victim = rng.choice(active)
            assert victim.user_id is not None
            await svc.drop(tid, victim.user_id)
            dropped.add(victim.id)
            await svc.progress(tid)
            continue
        await svc.settle(tid)
        pending = await svc.pending(tid)
        if pending:
            table = await svc.seat(rng.choice(pending), next(threads))
            seated = {s.user_id for s in table.seats}
            assert not seated & {e.user_id for e in state.entrants if e.id in dropped}, "a dropped player was seated"
            continue
        playing = [p for p in state.places if p.status == "playing" and p.table_id is not None]
        if playing:
            await finish(svc, rng.choice(playing).table_id or 0, rng)
        await svc.progress(tid)
    state = await svc.state(tid)
    assert state.record.status == "finished"
    assert not set(state.record.champion or []) & dropped, "a dropped player was crowned"
    _, rows = await svc.standings(tid)
    assert all(r.points >= Fraction(0) for r in rows)


# ------------------------------------------------------- rounds and threads


async def test_rounds_are_1_to_20_when_an_event_opens_and_an_older_event_with_more_still_loads(store: Store) -> None:
    svc = service(store)
    for bad in (21, 64):
        with pytest.raises(Refusal, match=r"`rounds` is 1 to 20\."):
            await new_event(svc, rounds=bad)
    with pytest.raises(Refusal, match="at least 1"):
        await new_event(svc, rounds=0)
    tid = await new_event(svc, rounds=20)
    # Before the bound an event could ask for up to 64: it is read and started as it was opened.
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE tournaments SET rounds = ? WHERE id = ?", (30, tid))
    await svc.add_bots(tid, 1, False, 4, "easy")
    started = await svc.start(tid, 1, False)
    assert svc.settings_of(started.state.record).rounds == 30


async def test_a_start_whose_first_round_would_pass_max_thread_tables_is_refused_changing_nothing(
        store: Store) -> None:
    svc = service(store)
    assert svc.settings is not None
    await svc.settings.change(1, "max_thread_tables", "5", 1, True)  # as /config set does
    tid = await humans_event(svc, 12, table_size=2)  # round 1: six 2-player tables
    with pytest.raises(Refusal) as refused:
        await svc.start(tid, 1, False)
    text = str(refused.value)
    assert "needs 6 tables" in text and "already has 0 active thread tables" in text, text
    assert "limit of 5" in text and "`max_thread_tables`" in text, text
    assert (await svc.get(tid)).status == "registration" and not (await svc.state(tid)).rounds
    # The server's other thread tables count too: the limit is the server's, as at /game new.
    await svc.settings.change(1, "max_thread_tables", "6", 1, True)
    other = await svc.tables.create(guild_id=1, channel_id=next(threads), game_id="pedwar", options={}, user_id=9,
                                    user_name="nine", turn_time=None, on_timeout="bot", parent_id=CHANNEL + 1)
    with pytest.raises(Refusal, match="already has 1 active thread table;"):
        await svc.start(tid, 1, False)
    await svc.tables.abandon(other.channel_id, 9, True, other.id)
    started = await svc.start(tid, 1, False)
    assert len(started.state.round_places(1)) == 6


async def test_a_tournament_that_failed_to_open_gives_its_cooldown_back(store: Store,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    svc = service(store)
    failing = store.tournaments.create_tournament

    async def busy_database(**kw: object) -> int:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(store.tournaments, "create_tournament", busy_database)
    with pytest.raises(ConnectionError):
        await new_event(svc)
    monkeypatch.setattr(store.tournaments, "create_tournament", failing)
    await new_event(svc)  # at once: nothing opened the first time, so no new_cooldown (3 s) to wait
    with pytest.raises(Refusal, match="new_cooldown"):
        await new_event(svc, channel_id=CHANNEL + 1)
