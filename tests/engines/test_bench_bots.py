"""bench.bots bookkeeping: which results a code change makes stale, and the budget verdicts."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from bench import bots as bench
from engines import bots


def test_tuning_one_games_search_leaves_the_others_results_current(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {g: bench.fingerprint(g, bench.PLAYERS[g]) for g in bench.PLAYERS}
    table = {level: dict(games) for level, games in bots._SEARCH.items()}
    table["hard"]["pedwar"] = dataclasses.replace(bots.search_settings("pedwar", "hard"), iterations=12_345)
    monkeypatch.setattr(bots, "_SEARCH", table)
    after = {g: bench.fingerprint(g, bench.PLAYERS[g]) for g in bench.PLAYERS}
    assert after["pedwar"] != before["pedwar"]
    assert {g: fp for g, fp in after.items() if g != "pedwar"} == {g: fp for g, fp in before.items() if g != "pedwar"}


def test_the_player_count_is_part_of_the_fingerprint() -> None:
    assert bench.fingerprint("ogre_cheerleaders", 2) != bench.fingerprint("ogre_cheerleaders", 3)


def test_ogre_budget_lines_seat_three_and_two_players_are_information_only() -> None:
    lines = bench.all_lines("ogre_cheerleaders")
    assert {ln.players for ln in lines if ln.budget != "info"} == {3}
    two = [ln for ln in lines if ln.players == 2]
    assert two and all(ln.budget == "info" for ln in two)
    assert len({ln.key for ln in lines}) == len(lines)


def _store_with(line: bench.Line, shares: list[float]) -> bench.Store:
    store = bench.Store(bench.RESULTS, {})
    store.done[line.key] = {g: {"share": s, "times": {}} for g, s in enumerate(shares)}
    return store


def test_hard_against_easy_passes_only_when_the_whole_interval_clears_the_fair_share() -> None:
    line = next(ln for ln in bench.lines_for("pedwar") if ln.label() == "hard vs easy")
    assert line.budget == "clear"
    args = argparse.Namespace(games=200, search_games=50)
    # 40% of 50 games at a fair share of 1/3: above it, but the interval [28%, 54%] is not
    failures, _, _ = bench.table(_store_with(line, [1.0] * 20 + [0.0] * 30), ["pedwar"], args)
    assert "pedwar hard vs easy" in failures
    failures, _, _ = bench.table(_store_with(line, [1.0] * 27 + [0.0] * 23), ["pedwar"], args)
    assert "pedwar hard vs easy" not in failures


def test_hard_against_easy_lines_play_twice_the_search_games() -> None:
    """The whole-interval budget needs the games: 50 are short of it, 100 are not."""
    args = argparse.Namespace(games=200, search_games=50)
    lines = {ln.label(): ln for ln in bench.lines_for("pentawar")}
    assert bench.needed(lines["hard vs easy"], 200, 50) == 100
    assert bench.needed(lines["hard vs random"], 200, 50) == 50
    assert bench.needed(lines["normal vs easy"], 200, 50) == 50
    assert bench.needed(lines["easy vs random"], 200, 50) == 200
    line = lines["hard vs easy"]
    _, short, _ = bench.table(_store_with(line, [1.0] * 50), ["pentawar"], args)
    assert "pentawar/hard-vs-easy 50/100" in short
    _, short, _ = bench.table(_store_with(line, [1.0] * 100), ["pentawar"], args)
    assert not any(s.startswith("pentawar/hard-vs-easy") for s in short)
