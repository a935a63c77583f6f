"""Round robin by the circle method: every pair exactly once; pods refused."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.tournaments import TournamentRefusal, round_robin_round, round_robin_schedule, rounds_for
from host.tournaments.settings import make_settings


@given(st.integers(2, 24))
def test_every_pair_meets_exactly_once(n):
    order = list(range(100, 100 + n))
    rounds = round_robin_schedule(order)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    assert len(rounds) == rounds_for(make_settings("pedwar", "round_robin"), n)
    meetings = Counter(frozenset(t.seats) for r in rounds for t in r.tables)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(order, 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:
        # Everyone plays once a round, or has the one bye of an odd field.
        seen = [p for t in r.tables for p in t.seats] + list(r.bye_ids)
        assert sorted(seen) == order
        assert len(r.byes) == n % 2
    if n % 2:
        assert sorted(p for r in rounds for p in r.bye_ids) == order  # each sits out once


def test_a_dropped_players_opponent_gets_a_bye():
    order = [1, 2, 3, 4]
    full = round_robin_round(order, 1)
    opponent = next(t for t in full.tables if 3 in t.seats)
    other = next(p for p in opponent.seats if p != 3)
    rnd = round_robin_round(order, 1, dropped={3})
    assert rnd.bye_ids == (other,)
    assert all(3 not in t.seats for t in rnd.tables)


def test_pods_are_refused_with_a_suggestion():
    with pytest.raises(TournamentRefusal, match="swiss"):
        round_robin_round([1, 2, 3, 4], 1, table_size=4)
    with pytest.raises(TournamentRefusal, match="swiss"):
        make_settings("do_over", "round_robin", table_size=3)


def test_seat_zero_alternates():
    # Over a round robin nobody always has the first seat.
    rounds = round_robin_schedule([1, 2, 3, 4, 5, 6])
    firsts = Counter(t.seats[0] for r in rounds for t in r.tables)
    assert max(firsts.values()) <= 3
