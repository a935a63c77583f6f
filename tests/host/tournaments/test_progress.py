"""An event from round 1 to its champion through ``next_step``: Swiss with and without a top cut,
round robin, single elimination with walkovers, and a cut whose seeds stay fixed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.tournaments import PlayedRound, TableResult, make_settings, needed_entrants, rounds_for
from host.tournaments.progress import CUT, ELIMINATION, ROUND_ROBIN, SWISS, StageRound, next_step
from host.tournaments.standings import standings
from tests.host.tournaments.helpers import entrants, random_results


def run(settings_, field, rng, dropped=frozenset(), drop_at=None):
    """Play the event with random results; returns (rounds played, champion)."""
    planned = rounds_for(settings_, len(field))
    played: list[StageRound] = []
    seeds = None
    gone = set(dropped)
    for _ in range(40):
        if drop_at is not None and len(played) == drop_at[0]:
            gone.add(drop_at[1])
        step = next_step(settings_, field, planned, played, gone, seeds)
        if step.seeds is not None:
            seeds = step.seeds
        if step.round is None:
            return played, step.champion, seeds
        result = random_results(step.round, rng, ties=False)
        played.append(StageRound(step.stage, result.results + step.walkovers, result.byes))
    raise AssertionError("the event did not end")


def test_swiss_with_a_two_player_top_cut_of_four_ends_with_the_cut_winner() -> None:
    cfg = make_settings("pedwar", "swiss", top_cut=4)
    played, champion, seeds = run(cfg, entrants(10), random.Random(3))
    stages = [r.stage for r in played]
    assert stages == [SWISS] * 4 + [CUT, CUT]  # ⌈log₂ 10⌉ Swiss rounds, then semi-finals and the final
    swiss = [r for r in played if r.stage == SWISS]
    rows = standings(entrants(10), [PlayedRound(r.results, r.byes) for r in swiss])
    assert list(seeds) == [row.entrant for row in rows[:4]]
    semis = {frozenset(p for side in res.sides for p in side) for res in played[4].results}
    assert semis == {frozenset((seeds[0], seeds[3])), frozenset((seeds[1], seeds[2]))}, "1 v 4 and 2 v 3"
    final = played[5].results[0]
    winner = next(side for side, place in zip(final.sides, final.places, strict=True) if place == 1)
    assert champion == winner


def test_swiss_pods_with_a_top_cut_play_one_final_table() -> None:
    cfg = make_settings("do_over", "swiss", table_size=4, top_cut=4, rounds=2)
    played, champion, seeds = run(cfg, entrants(12), random.Random(5))
    assert [r.stage for r in played] == [SWISS, SWISS, CUT]
    final = played[-1].results[0]
    assert set(p for side in final.sides for p in side) == set(seeds)
    assert champion == next(side for side, place in zip(final.sides, final.places, strict=True) if place == 1)


def test_swiss_without_a_cut_crowns_the_top_of_the_standings() -> None:
    cfg = make_settings("do_over", "swiss", table_size=3, rounds=3)
    played, champion, _ = run(cfg, entrants(9), random.Random(8))
    rows = standings(entrants(9), [PlayedRound(r.results, r.byes) for r in played])
    assert champion == (rows[0].entrant,)


def test_round_robin_plays_every_round_then_stops() -> None:
    cfg = make_settings("pentawar", "round_robin")
    played, champion, _ = run(cfg, entrants(5), random.Random(2))
    assert [r.stage for r in played] == [ROUND_ROBIN] * 5
    pairs = [frozenset(p for side in res.sides for p in side) for r in played for res in r.results]
    assert len(pairs) == len(set(pairs)) == 10 and champion is not None


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 20), seed=st.integers(0, 10**6))
def test_single_elimination_ends_with_one_champion_after_log2_rounds(n: int, seed: int) -> None:
    cfg = make_settings("pedwar", "single_elimination")
    played, champion, _ = run(cfg, entrants(n), random.Random(seed))
    assert all(r.stage == ELIMINATION for r in played)
    assert len(played) == max(1, (n - 1).bit_length()) and champion is not None and len(champion) == 1


def test_a_dropped_players_bracket_match_is_a_walkover() -> None:
    cfg = make_settings("pedwar", "single_elimination")
    field = entrants(4)
    step = next_step(cfg, field, 2, [], dropped={4})
    assert [t.seats for t in step.round.tables] == [(2, 3)]
    assert step.walkovers == (TableResult(sides=((1,), (4,)), places=(1, 2)),)


def test_the_cut_keeps_its_seeds_when_a_seed_drops_during_it() -> None:
    cfg = make_settings("pedwar", "swiss", top_cut=4)
    _, _, seeds = run(cfg, entrants(8), random.Random(11))
    # The same event, with the top seed dropping after the semi-finals: the seeds stay, and the
    # top seed, if in the final, loses it by walkover.
    played, champion, seeds2 = run(cfg, entrants(8), random.Random(11), drop_at=(4, seeds[0]))
    assert seeds2 == seeds
    assert champion is not None and seeds[0] not in champion
    final = played[-1].results[0]
    if seeds[0] in final.sides[0] + final.sides[1]:
        assert dict(zip(final.sides, final.places, strict=True))[(seeds[0],)] == 2


def _swiss_round(field_size: int, rng: random.Random, cfg) -> list[StageRound]:
    step = next_step(cfg, entrants(field_size), 1, [])
    result = random_results(step.round, rng, ties=False)
    return [StageRound(step.stage, result.results, result.byes)]


def test_a_top_cut_with_one_player_left_crowns_that_player() -> None:
    cfg = make_settings("pedwar", "swiss", top_cut=4, rounds=1)
    played = _swiss_round(4, random.Random(1), cfg)
    step = next_step(cfg, entrants(4), 1, played, dropped={2, 3, 4})
    assert step.round is None and step.champion == (1,)
    step = next_step(cfg, entrants(4), 1, played, dropped={1, 2, 3, 4})
    assert step.round is None and step.champion is None


def test_a_pod_cut_that_the_players_left_cannot_fill_crowns_the_best_of_them() -> None:
    cfg = make_settings("king_pedro", "swiss", top_cut=4, rounds=1)
    played = _swiss_round(8, random.Random(2), cfg)
    rows = standings(entrants(8), [PlayedRound(r.results, r.byes) for r in played], dropped={5, 6, 7, 8})
    left = [row.entrant for row in rows if not row.dropped]
    step = next_step(cfg, entrants(8), 1, played, dropped={5, 6, 7, 8, left[3]})
    assert step.round is None and step.champion == (left[0],), "three of a partnership game's four: no table"
    do_over = make_settings("do_over", "swiss", table_size=4, top_cut=4, rounds=1)
    played = _swiss_round(8, random.Random(3), do_over)
    step = next_step(do_over, entrants(8), 1, played, dropped={2, 3, 4, 5, 6, 7})
    assert step.round is not None and step.stage == CUT, "two players still make a Do Over! table"
    assert sorted(step.round.tables[0].seats) == [1, 8]
    step = next_step(do_over, entrants(8), 1, played, dropped={2, 3, 4, 5, 6, 7, 8})
    assert step.round is None and step.champion == (1,)


def test_a_player_who_dropped_is_never_champion() -> None:
    cfg = make_settings("do_over", "swiss", table_size=3, rounds=1)
    played = _swiss_round(6, random.Random(4), cfg)
    assert next_step(cfg, entrants(6), 1, played, dropped=set(range(1, 7))).champion is None
    # Single elimination: both finalists dropped before the final was played.
    bracket = make_settings("pedwar", "single_elimination")
    first = next_step(bracket, entrants(2), 1, [], dropped={1, 2})
    played = [StageRound(first.stage, first.walkovers)]
    assert next_step(bracket, entrants(2), 1, played, dropped={1, 2}).champion is None


def test_a_player_who_drops_after_a_bye_loses_the_next_match_by_walkover() -> None:
    cfg = make_settings("pedwar", "single_elimination")
    field = entrants(3)
    first = next_step(cfg, field, 2, [])
    byes = tuple(b.entrant for b in first.round.byes)
    assert byes == (1,) and [t.seats for t in first.round.tables] == [(2, 3)]
    played = [StageRound(first.stage, (TableResult(sides=((2,), (3,)), places=(2, 1)),), byes)]
    second = next_step(cfg, field, 2, played, dropped={1})
    assert second.round is not None and not second.round.tables
    assert second.walkovers == (TableResult(sides=((1,), (3,)), places=(2, 1)),)
    played.append(StageRound(second.stage, second.walkovers))
    assert next_step(cfg, field, 2, played, dropped={1}).champion == (3,)


def test_a_pod_cut_never_crowns_a_player_who_dropped() -> None:
    """Issue 30, bug 2: the final pod ended with every side at first place (``/tournament advance``)
    after the top seed dropped; the best seed still whole wins, not the one who left."""
    cfg = make_settings("do_over", "swiss", table_size=4, top_cut=4, rounds=1)
    played = _swiss_round(8, random.Random(6), cfg)
    cut = next_step(cfg, entrants(8), 1, played)
    assert cut.stage == CUT and cut.seeds is not None
    seeds = cut.seeds
    final = cut.round.tables[0]
    drawn = TableResult(sides=final.sides, places=tuple(1 for _ in final.sides))
    played = [*played, StageRound(CUT, (drawn,))]
    assert next_step(cfg, entrants(8), 1, played, cut=seeds).champion == (seeds[0],)
    assert next_step(cfg, entrants(8), 1, played, dropped={seeds[0]}, cut=seeds).champion == (seeds[1],)
    assert next_step(cfg, entrants(8), 1, played, dropped=set(seeds), cut=seeds).champion is None
    # The dropped player placed alone first (a result decided before the drop): the next place wins.
    ranked = TableResult(sides=final.sides, places=tuple(1 if side == (seeds[2],) else 2 for side in final.sides))
    played[-1] = StageRound(CUT, (ranked,))
    assert next_step(cfg, entrants(8), 1, played, dropped={seeds[2]}, cut=seeds).champion == (seeds[0],)


FORMATS = [
    ("pedwar", "swiss", None, 0, None), ("pedwar", "swiss", None, 4, "single"), ("pedwar", "swiss", None, 4, "double"),
    ("pedwar", "swiss", None, 2, "double"), ("do_over", "swiss", 4, 4, None), ("do_over", "swiss", 3, 0, None),
    ("king_pedro", "swiss", None, 4, None), ("pedwar", "round_robin", None, 0, None),
    ("pedwar", "single_elimination", None, 0, None), ("pedwar", "double_elimination", None, 0, None),
]


@pytest.mark.parametrize("which", range(len(FORMATS)))
@settings(max_examples=50, deadline=None)
@given(n=st.integers(2, 14), seed=st.integers(0, 2**32), drop_rate=st.sampled_from([0.05, 0.15, 0.4]))
def test_no_dropped_player_is_ever_seated_or_crowned(which, n, seed, drop_rate) -> None:
    """Every format, random results, players dropping at random moments (before any round, between
    rounds, during a cut): nobody who has dropped sits at a table or is crowned, and the event ends."""
    game, fmt, size, top_cut, cut_format = FORMATS[which]
    cfg = make_settings(game, fmt, size, top_cut, None, cut_format)
    if n < needed_entrants(cfg):
        return
    planned = rounds_for(cfg, n)
    field = entrants(n)
    rng = random.Random(seed)
    gone: set[int] = set()
    played: list[StageRound] = []
    seeds = None
    for _ in range(80):
        gone |= {e.id for e in field if rng.random() < drop_rate / 2}
        step = next_step(cfg, field, planned, played, gone, seeds)
        if step.seeds is not None:
            seeds = step.seeds
            assert not set(seeds) & gone, "the cut's seeds are players still in"
        if step.round is None:
            assert step.champion is None or not set(step.champion) & gone, (step.champion, gone)
            if len(set(e.id for e in field) - gone) == len(field):
                assert step.champion is not None, "with nobody gone, someone wins"
            return
        for table in step.round.tables:
            assert not set(table.seats) & gone, (table.seats, gone)
        for walkover in step.walkovers:
            winners = {p for side, place in zip(walkover.sides, walkover.places, strict=True)
                       if place == min(walkover.places) for p in side}
            everyone = {p for side in walkover.sides for p in side}
            assert everyone <= gone or not winners & gone, "a walkover goes to the player still in"
        result = random_results(step.round, rng, ties=rng.random() < 0.3)
        played.append(StageRound(step.stage, result.results + step.walkovers, result.byes))
        # A player may also drop while their table is in play: the table still ends (as a forfeit,
        # placed last), which random results stand for.
    raise AssertionError("the event did not end")
