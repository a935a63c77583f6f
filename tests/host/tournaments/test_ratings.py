"""openskill ratings: table updates, partners as a team, bots left out, exact recompute."""

from __future__ import annotations

import json
import random

from host.tournaments import Rating, human_sides, rate_table, recompute
from host.tournaments.ratings import DEFAULT


def test_winner_gains_loser_loses():
    new = rate_table({}, [["a"], ["b"]], [1, 2])
    assert new["a"].mu > DEFAULT.mu > new["b"].mu
    assert new["a"].sigma < DEFAULT.sigma
    assert new["a"].ordinal == new["a"].mu - 3 * new["a"].sigma


def test_draw_keeps_equal_players_equal():
    new = rate_table({}, [["a"], ["b"]], [1, 1])
    assert new["a"] == new["b"]


def test_partners_are_one_team():
    new = rate_table({}, [["a", "c"], ["b", "d"]], [1, 2])
    assert set(new) == {"a", "b", "c", "d"}
    assert new["a"] == new["c"] and new["b"] == new["d"]
    assert new["a"].mu > new["b"].mu


def test_only_the_tables_players_are_returned():
    old = {"x": Rating(30.0, 5.0)}
    assert set(rate_table(old, [["a"], ["b"], ["c"]], [2, 1, 3])) == {"a", "b", "c"}


def test_bots_are_left_out():
    bots = {"bot1", "bot2"}
    assert human_sides([["a"], ["bot1"], ["b"]], [2, 1, 3], bots.__contains__) == ([["a"], ["b"]], [2, 3])
    # King Pedro: a human with a bot partner is rated as a one-player team.
    assert human_sides([["a", "bot1"], ["b", "bot2"]], [1, 2], bots.__contains__) == ([["a"], ["b"]], [1, 2])
    # Fewer than two humans on different sides: not rated.
    assert human_sides([["a"], ["bot1"]], [1, 2], bots.__contains__) is None
    assert human_sides([["a", "b"], ["bot1", "bot2"]], [1, 2], bots.__contains__) is None


def test_recompute_equals_one_update_at_a_time_through_storage():
    rng = random.Random(5)
    players = [f"p{i}" for i in range(12)]
    log = []
    for _ in range(300):
        size = rng.choice([2, 3, 4, 4])
        seated = rng.sample(players, size)
        if size == 4 and rng.random() < 0.3:
            sides = [[seated[0], seated[2]], [seated[1], seated[3]]]
        else:
            sides = [[p] for p in seated]
        places = [rng.randint(1, len(sides)) for _ in sides]
        log.append((sides, places))
    # Live: one update per finished table, each stored and read back as the database would
    # (JSON floats round-trip exactly), as the bot does over weeks.
    stored: dict[str, list[float]] = {}
    for sides, places in log:
        current = {p: (mu, sigma) for p, (mu, sigma) in stored.items()}
        for p, r in rate_table(current, sides, places).items():
            stored[p] = [r.mu, r.sigma]
        stored = json.loads(json.dumps(stored))
    again = recompute(log)
    assert {p: (r.mu, r.sigma) for p, r in again.items()} == {p: tuple(v) for p, v in stored.items()}
