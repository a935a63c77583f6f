"""Points by sides: (s − p)/(s − 1), shared places shared equally, partners share their side's points."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

from host.tournaments import TableResult, side_points, table_points


def test_two_player_win_and_draw():
    assert side_points([1, 2]) == [1, 0]
    assert side_points([2, 1]) == [0, 1]
    assert side_points([1, 1]) == [F(1, 2), F(1, 2)]


def test_first_is_one_and_last_is_zero_whatever_the_size():
    for s in range(2, 7):
        pts = side_points(list(range(1, s + 1)))
        assert pts[0] == 1 and pts[-1] == 0
        # Evenly spaced: place p scores (s - p)/(s - 1).
        assert pts == [F(s - p, s - 1) for p in range(1, s + 1)]


def test_shared_places_share_those_places_points():
    # Four sides, two tied first: places 1 and 2 are worth 1 and 2/3, so 5/6 each.
    assert side_points([1, 1, 3, 4]) == [F(5, 6), F(5, 6), F(1, 3), 0]
    # Dense ranking (1, 1, 2, 3) means the same table.
    assert side_points([1, 1, 2, 3]) == [F(5, 6), F(5, 6), F(1, 3), 0]
    # Three sides, two tied last: places 2 and 3 are worth 1/2 and 0, so 1/4 each.
    assert side_points([2, 1, 2]) == [F(1, 4), 1, F(1, 4)]
    # A table ended by /tournament advance: everyone shares one place.
    assert side_points([1, 1, 1]) == [F(1, 2)] * 3


def test_partners_each_get_the_sides_points():
    result = TableResult(sides=((10, 12), (11, 13)), places=(2, 1))
    assert table_points(result) == {10: 0, 12: 0, 11: 1, 13: 1}


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=6))
def test_sides_points_sum_to_half_the_sides(places):
    pts = side_points(places)
    assert sum(pts) == F(len(places), 2)
    assert all(0 <= p <= 1 for p in pts)
    # A better place never scores less; equal places score the same.
    for i in range(len(places)):
        for j in range(len(places)):
            if places[i] < places[j]:
                assert pts[i] > pts[j]
            if places[i] == places[j]:
                assert pts[i] == pts[j]
