"""Single elimination and the Swiss top cut."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from host.tournaments import (
    Entrant,
    TableResult,
    bracket,
    bracket_positions,
    champion,
    cut_champions,
    cut_seeds,
    make_settings,
    next_cut_round,
    next_elimination_round,
    seed_order,
    standings,
)
from tests.host.tournaments.helpers import entrants


def _play_out(seeds, rng, draws=0.0):
    results = []
    rounds = []
    while (rnd := next_elimination_round(seeds, results)) is not None:
        rounds.append(rnd)
        for t in rnd.tables:
            places = (1, 1) if rng.random() < draws else rng.choice([(1, 2), (2, 1)])
            results.append(TableResult(t.sides, places))
    return rounds, results


@given(n=st.integers(2, 70), seed=st.integers(0, 2**32))
def test_one_champion_after_log2_rounds(n, seed):
    seeds = list(range(1, n + 1))
    rounds, results = _play_out(seeds, random.Random(seed), draws=0.1)
    assert len(rounds) == math.ceil(math.log2(n))
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    winner = champion(seeds, results)
    assert winner in seeds
    # Everyone else lost exactly once; the champion never.
    losers = set()
    for r in results:
        a, b = (s[0] for s in r.sides)
        w = a if r.places[0] < r.places[1] else b if r.places[1] < r.places[0] else min(a, b)
        losers.add(b if w == a else a)
    assert losers == set(seeds) - {winner}
    # Byes go to the top seeds, so round 2 holds a power of two.
    size = 2 ** math.ceil(math.log2(n))
    assert sorted(rounds[0].bye_ids) == list(range(1, size - n + 1))
    if len(rounds) > 1:
        in_round_2 = [p for t in rounds[1].tables for p in t.seats]
        assert len(in_round_2) == size // 2


def test_standard_seeding_one_against_n():
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = next_elimination_round([11, 12, 13, 14, 15, 16, 17, 18], [])
    assert [t.seats for t in first.tables] == [(11, 18), (14, 15), (12, 17), (13, 16)]


def test_six_entrants_byes_to_seeds_one_and_two():
    first = next_elimination_round([1, 2, 3, 4, 5, 6], [])
    assert first.bye_ids == (1, 2)
    assert [t.seats for t in first.tables] == [(4, 5), (3, 6)]


def test_a_draw_goes_to_the_higher_seed():
    seeds = [1, 2]
    results = [TableResult(((2,), (1,)), (1, 1))]
    assert champion(seeds, results) == 1
    assert bracket(seeds, results)[0][0].winner == 1


def test_seeded_by_rating_then_lot():
    field = [Entrant(1, "a", lot=3, rating=10.0), Entrant(2, "b", lot=1, rating=12.5),
             Entrant(3, "c", lot=2, rating=10.0), Entrant(4, "d", lot=0, rating=-1.0)]
    assert seed_order(field) == [2, 3, 1, 4]


def test_two_player_top_cut_seeds_by_place():
    cfg = make_settings("pedwar", "swiss", top_cut=4)
    field = entrants(8)
    rows = standings(field, [])
    seeds = cut_seeds(rows, 4)
    assert seeds == [1, 2, 3, 4]
    rnd = next_cut_round(cfg, seeds, [])
    assert [t.seats for t in rnd.tables] == [(1, 4), (2, 3)]
    results = [TableResult(t.sides, (2, 1)) for t in rnd.tables]
    final = next_cut_round(cfg, seeds, results)
    assert [t.seats for t in final.tables] == [(3, 4)]
    results.append(TableResult(final.tables[0].sides, (1, 2)))
    assert next_cut_round(cfg, seeds, results) is None
    assert cut_champions(cfg, seeds, results) == (3,)


def test_dropped_players_are_left_out_of_the_cut():
    rows = standings(entrants(6), [], dropped={2})
    assert cut_seeds(rows, 4) == [1, 3, 4, 5]


def test_pod_top_cut_is_one_final_table():
    cfg = make_settings("king_pedro", "swiss", top_cut=4)
    seeds = [7, 3, 9, 1]
    rnd = next_cut_round(cfg, seeds, [])
    assert len(rnd.tables) == 1
    table = rnd.tables[0]
    assert table.sides == ((7, 1), (3, 9))  # 1st and 4th against 2nd and 3rd
    result = TableResult(table.sides, (2, 1))
    assert next_cut_round(cfg, seeds, [result]) is None
    assert cut_champions(cfg, seeds, [result]) == (3, 9)
    # A shared first place at the final pod goes to the side with the best seed.
    pod = make_settings("do_over", "swiss", table_size=4, top_cut=4)
    shared = TableResult(((7,), (3,), (9,), (1,)), (2, 1, 3, 1))
    assert cut_champions(pod, seeds, [shared]) == (3,)
    # ... whichever side the table lists first.
    shared = TableResult(((7,), (1,), (9,), (3,)), (2, 1, 3, 1))
    assert cut_champions(pod, seeds, [shared]) == (3,)
