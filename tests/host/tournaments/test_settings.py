"""Settings refusals (clear messages) and table sizes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.tournaments import (
    Format,
    TournamentRefusal,
    check_start,
    default_table_size,
    make_settings,
    needed_entrants,
    rounds_for,
    table_sizes,
)


def test_defaults():
    kp = make_settings("king_pedro", "swiss")
    assert (kp.table_size, kp.teams, kp.pods) == (4, ((0, 2), (1, 3)), True)
    assert default_table_size("pedwar") == 2
    s = make_settings("do_over", "swiss")
    assert (s.table_size, s.format, s.top_cut) == (2, Format.SWISS, 0)
    assert rounds_for(s, 8) == 3 and rounds_for(s, 9) == 4 and rounds_for(s, 2) == 1
    assert rounds_for(make_settings("pedwar", "round_robin"), 7) == 7
    assert rounds_for(make_settings("pedwar", "single_elimination"), 6) == 3
    assert check_start(make_settings("pedwar", "swiss", rounds=5), 8) == 5


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"game": "pedwar", "format": "swiss", "table_size": 5}, "Pedwar seats 2 to 4 players"),
    ({"game": "king_pedro", "format": "swiss", "table_size": 2}, "always 4"),
    ({"game": "do_over", "format": "round_robin", "table_size": 4}, "Use format swiss"),
    ({"game": "king_pedro", "format": "round_robin"}, "Use format swiss"),
    ({"game": "do_over", "format": "single_elimination", "table_size": 3}, "swiss with top_cut:3"),
    ({"game": "pedwar", "format": "swiss", "top_cut": 6}, "power of two"),
    ({"game": "pedwar", "format": "swiss", "top_cut": 1}, "power of two"),
    ({"game": "do_over", "format": "swiss", "table_size": 4, "top_cut": 8}, "must be 0 or 4"),
    ({"game": "pedwar", "format": "round_robin", "top_cut": 4}, "top_cut is for Swiss"),
    ({"game": "pedwar", "format": "single_elimination", "rounds": 3}, "leave rounds out"),
    ({"game": "pedwar", "format": "swiss", "rounds": 0}, "at least 1"),
    ({"game": "chess", "format": "swiss"}, "Unknown game"),
    ({"game": "pedwar", "format": "ladder"}, "Unknown format"),
])
def test_refusals_say_why(kwargs, needle):
    with pytest.raises(TournamentRefusal, match=needle):
        make_settings(**kwargs)


def test_valid_top_cuts():
    assert make_settings("pedwar", "swiss", top_cut=8).top_cut == 8
    assert make_settings("king_pedro", "swiss", top_cut=4).top_cut == 4
    assert make_settings("do_over", "swiss", table_size=5, top_cut=5).top_cut == 5


def test_too_few_entrants_says_how_many_are_needed():
    with pytest.raises(TournamentRefusal, match=r"at least 4 entrants.*has 3.*1 more"):
        check_start(make_settings("king_pedro", "swiss"), 3)
    with pytest.raises(TournamentRefusal, match="at least 8 entrants"):
        check_start(make_settings("pedwar", "swiss", top_cut=8), 7)
    with pytest.raises(TournamentRefusal, match="at least 2 entrants"):
        check_start(make_settings("pedwar", "single_elimination"), 1)
    assert needed_entrants(make_settings("do_over", "swiss", table_size=6)) == 6


def test_round_robin_rounds_cannot_exceed_all():
    with pytest.raises(TournamentRefusal, match="has 3 rounds"):
        check_start(make_settings("pedwar", "round_robin", rounds=4), 4)


def test_table_sizes_examples():
    assert table_sizes(10, 4, 2) == ([4, 3, 3], 0)
    assert table_sizes(9, 4, 2) == ([3, 3, 3], 0)
    assert table_sizes(5, 4, 2) == ([4], 1)  # 5 = 4 + 1: no way with 3s and 4s
    # As many full tables as will go: 12 is three 4s, not four 3s; 8 is 3 + 3 + 2, not four 2s.
    assert table_sizes(12, 4, 2) == ([4, 4, 4], 0)
    assert table_sizes(8, 3, 2) == ([3, 3, 2], 0)
    assert table_sizes(10, 4, 4) == ([4, 4], 2)  # King Pedro: always four
    assert table_sizes(7, 2, 2) == ([2, 2, 2], 1)
    assert table_sizes(7, 3, 3) == ([3, 3], 1)


@given(n=st.integers(0, 200), size=st.integers(2, 6), minimum=st.integers(2, 6))
def test_table_sizes_properties(n, size, minimum):
    if minimum > size:
        return
    sizes, byes = table_sizes(n, size, minimum)
    assert sum(sizes) + byes == n
    assert all(s in (size, size - 1) and s >= minimum for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # Byes are as few as possible: no smaller bye count seats everyone else.
    smaller = size - 1

    def seatable(k):
        return any((k - a * size) >= 0 and ((smaller >= minimum and (k - a * size) % smaller == 0) or k == a * size)
                   for a in range(k // size + 1))

    assert seatable(n - byes)
    assert not any(seatable(n - b) for b in range(byes))


def test_double_elimination_and_the_double_top_cut():
    de = make_settings("pedwar", "double_elimination")
    assert de.format is Format.DOUBLE_ELIMINATION and de.table_size == 2
    assert rounds_for(de, 8) == 7 and rounds_for(de, 2) == 3 and needed_entrants(de) == 2
    with pytest.raises(TournamentRefusal, match="Double elimination is for 2-player tables"):
        make_settings("do_over", "double_elimination", table_size=4)
    with pytest.raises(TournamentRefusal, match="leave rounds out"):
        make_settings("pedwar", "double_elimination", rounds=3)
    with pytest.raises(TournamentRefusal, match="top_cut is for Swiss"):
        make_settings("pedwar", "double_elimination", top_cut=4)
    cut = make_settings("pedwar", "swiss", top_cut=4, top_cut_format="double")
    assert cut.top_cut_format == "double"
    assert make_settings("pedwar", "swiss", top_cut=4).top_cut_format == "single"
    with pytest.raises(TournamentRefusal, match="give top_cut too"):
        make_settings("pedwar", "swiss", top_cut_format="double")
    with pytest.raises(TournamentRefusal, match="2-player tables"):
        make_settings("do_over", "swiss", table_size=4, top_cut=4, top_cut_format="double")
    with pytest.raises(TournamentRefusal, match="single or double"):
        make_settings("pedwar", "swiss", top_cut=4, top_cut_format="triple")
    pods = make_settings("do_over", "swiss", table_size=4, top_cut=4, top_cut_format="single")
    assert pods.top_cut_format == "single"
