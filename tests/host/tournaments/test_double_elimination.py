"""Double elimination: hand-checked brackets for 4, 5, 8 and 13 entrants, two losses out, byes, the
reset, the losers' bracket's crossing, drops at every stage, and as a Swiss top cut."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.tournaments import TableResult, make_settings, rounds_for
from host.tournaments.double_elimination import (
    GRAND_FINAL,
    LOSERS,
    crossing,
    double_bracket,
    double_champion,
    losses,
    next_double_round,
)
from host.tournaments.progress import CUT, ELIMINATION, StageRound, next_step
from tests.host.tournaments.helpers import entrants

# Each event round as played: (higher seed, lower seed, winner) per table, in table order. Worked out
# by hand from the bracket (seeds in bracket order 1 8 4 5 2 7 3 6 for 8 places, 1 16 8 9 4 13 5 12
# 2 15 7 10 3 14 6 11 for 16; seeds beyond the field are empty places), the comment naming each match.
ORACLE: dict[int, tuple[list[list[tuple[int, int, int]]], list[int], int]] = {
    # 4 entrants: the losers' bracket winner (2) takes the grand final, so a reset decides it.
    4: ([[(1, 4, 1), (2, 3, 2)],        # W1
         [(1, 2, 1), (3, 4, 3)],        # W2 (the winners' final), L1
         [(2, 3, 2)],                   # L2: 3 against the winners' final's loser
         [(1, 2, 2)],                   # grand final: 2 wins, 1's first loss
         [(1, 2, 1)]],                  # reset: 1 wins it
        [], 1),
    # 5 entrants: seeds 1, 2 and 3 have byes; 5 and then 4 go through empty places of the losers'
    # bracket without a table.
    5: ([[(4, 5, 4)],                   # W1 (1, 2, 3 byes)
         [(1, 4, 1), (2, 3, 2)],        # W2; L1: 5 against an empty place goes on
         [(3, 5, 3), (1, 2, 1)],        # L2: 5 against 3 (W2's second loser, crossed); 4 goes on; W3
         [(3, 4, 3)],                   # L3
         [(2, 3, 2)],                   # L4: against the winners' final's loser
         [(1, 2, 1)]],                  # grand final: the winners' bracket winner wins, no reset
        [1, 2, 3], 1),
    # 8 entrants, with upsets: 5 beats 4 and 7 beats 2 in round 1; the losers' bracket winner takes
    # the grand final and the reset.
    8: ([[(1, 8, 1), (4, 5, 5), (2, 7, 7), (3, 6, 3)],   # W1
         [(1, 5, 1), (3, 7, 3), (4, 8, 4), (2, 6, 2)],   # W2; L1: losers of neighbouring matches
         [(4, 7, 4), (2, 5, 2), (1, 3, 1)],              # L2 crossed: 7 (lost W2 lower) meets 4 from the top; W3
         [(2, 4, 2)],                                    # L3
         [(2, 3, 2)],                                    # L4: against the winners' final's loser
         [(1, 2, 2)],                                    # grand final: 2 wins
         [(1, 2, 2)]],                                   # reset: 2 wins again, 1's second loss
        [], 2),
    # 13 entrants: 1, 2, 3 have byes; the losers' bracket's drops are reversed in L2 and in order
    # (reversed within halves of two) in L4, so nobody meets a player they met before until L6.
    13: ([[(8, 9, 8), (4, 13, 4), (5, 12, 5), (7, 10, 7), (6, 11, 6)],                 # W1
          [(1, 8, 1), (4, 5, 4), (2, 7, 2), (3, 6, 3), (12, 13, 12)],                  # W2; L1 (9, 10, 11 go on)
          [(6, 9, 6), (7, 12, 7), (5, 10, 5), (8, 11, 8), (1, 4, 1), (2, 3, 2)],       # L2 reversed; W3
          [(6, 7, 6), (5, 8, 5), (1, 2, 1)],                                           # L3; W4
          [(4, 6, 4), (3, 5, 3)],                                                      # L4: W3's losers 4, 3
          [(3, 4, 3)],                                                                 # L5
          [(2, 3, 2)],                                                                 # L6
          [(1, 2, 1)]],                                                                # grand final
         [1, 2, 3], 1),
}


@pytest.mark.parametrize("n", sorted(ORACLE))
def test_hand_checked_brackets(n: int) -> None:
    rounds, byes, champion = ORACLE[n]
    cfg = make_settings("pedwar", "double_elimination")
    field = entrants(n)
    played: list[StageRound] = []
    for number, expected in enumerate(rounds, start=1):
        step = next_step(cfg, field, rounds_for(cfg, n), played)
        assert step.stage == ELIMINATION and step.round is not None, number
        assert [t.seats for t in step.round.tables] == [(h, lo) for h, lo, _ in expected], f"round {number}"
        if number == 1:
            assert list(step.round.bye_ids) == byes
        else:
            assert not step.round.byes
        results = tuple(TableResult(t.sides, (1, 2) if w == h else (2, 1))
                        for t, (h, _, w) in zip(step.round.tables, expected, strict=True))
        played.append(StageRound(step.stage, results, step.round.bye_ids))
    last = next_step(cfg, field, rounds_for(cfg, n), played)
    assert last.round is None and last.champion == (champion,)
    assert len(played) <= rounds_for(cfg, n)


def _play(n: int, rng: random.Random, draws: bool = False) -> tuple[list[TableResult], int | None]:
    seeds = list(range(1, n + 1))
    results: list[TableResult] = []
    for _ in range(4 * n + 4):
        rnd = next_double_round(seeds, results)
        if rnd is None:
            return results, double_champion(seeds, results)
        assert rnd.tables, "an undecided bracket always has a table to play"
        seated = [p for t in rnd.tables for p in t.seats]
        assert len(seated) == len(set(seated)), "nobody plays two tables at once"
        for t in rnd.tables:
            places = (1, 1) if draws and rng.random() < 0.2 else tuple(rng.sample([1, 2], 2))
            results.append(TableResult(t.sides, places))
    raise AssertionError("the bracket did not end")


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32), draws=st.booleans())
def test_everyone_but_the_champion_leaves_after_exactly_two_losses(n: int, seed: int, draws: bool) -> None:
    results, champion = _play(n, random.Random(seed), draws)
    assert champion is not None
    lost = losses(list(range(1, n + 1)), results)
    assert lost[champion] <= 1
    assert all(count == 2 for p, count in lost.items() if p != champion), lost
    # Every match is a table or a walk through an empty place: 2n − 2 tables, plus the reset if played.
    reset = double_bracket(list(range(1, n + 1)), results)[-1]
    assert len(results) == 2 * n - 2 + int(reset.played)


def test_byes_go_to_the_top_seeds_and_cost_no_loss() -> None:
    for n, byes in ((3, [1]), (5, [1, 2, 3]), (6, [1, 2]), (13, [1, 2, 3]), (16, [])):
        first = next_double_round(list(range(1, n + 1)), [])
        assert first is not None and list(first.bye_ids) == byes
        assert all(p not in byes for t in first.tables for p in t.seats)
    # 3 entrants: seed 1 waits in round 1 and is never charged a loss for it.
    results, champion = _play(3, random.Random(1))
    assert losses([1, 2, 3], results)[champion] <= 1


def test_the_grand_final_is_reset_only_when_the_losers_bracket_winner_takes_it() -> None:
    seeds = [1, 2]
    first = next_double_round(seeds, [])
    assert first is not None and [t.seats for t in first.tables] == [(1, 2)]
    results = [TableResult(((1,), (2,)), (2, 1))]  # 2 wins the winners' bracket
    final = next_double_round(seeds, results)
    assert final is not None and [t.seats for t in final.tables] == [(1, 2)], "the grand final"
    # The winners' bracket winner (2) wins it: the event is over, no reset.
    done = [*results, TableResult(((1,), (2,)), (2, 1))]
    assert next_double_round(seeds, done) is None and double_champion(seeds, done) == 2
    reset_row = double_bracket(seeds, done)[-1]
    assert reset_row.key == (GRAND_FINAL, 2, 0) and not reset_row.needed and not reset_row.played
    # The losers' bracket winner (1) wins it: both have lost once, so they meet again.
    reset = [*results, TableResult(((1,), (2,)), (1, 2))]
    again = next_double_round(seeds, reset)
    assert again is not None and [t.seats for t in again.tables] == [(1, 2)]
    assert double_champion(seeds, reset) is None
    for winner in (1, 2):
        final_results = [*reset, TableResult(((1,), (2,)), (1, 2) if winner == 1 else (2, 1))]
        assert next_double_round(seeds, final_results) is None
        assert double_champion(seeds, final_results) == winner


def test_crossing_orders() -> None:
    assert crossing(4, 1) == [3, 2, 1, 0]
    assert crossing(4, 2) == [1, 0, 3, 2]
    assert crossing(4, 3) == [2, 3, 0, 1]
    assert crossing(4, 4) == [0, 1, 2, 3]
    assert crossing(4, 5) == [3, 2, 1, 0]
    assert crossing(1, 1) == [0]


def _meetings(n: int, rng: random.Random | None) -> list[tuple[tuple[str, int, int], frozenset[int], bool]]:
    """(match key, pair, a rematch?) for every table, the better seed winning when ``rng`` is None."""
    seeds = list(range(1, n + 1))
    results: list[TableResult] = []
    while (rnd := next_double_round(seeds, results)) is not None:
        for t in rnd.tables:
            places = (1, 2) if rng is None or rng.random() < 0.5 else (2, 1)
            results.append(TableResult(t.sides, places))
    met: set[frozenset[int]] = set()
    out = []
    for m in double_bracket(seeds, results):
        if m.played:
            pair = frozenset((m.high, m.low))
            out.append((m.key, pair, pair in met))
            met.add(pair)
    return out


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_the_losers_bracket_puts_rematches_off(n: int) -> None:
    # The better seed always winning: the only rematches are the ones no order avoids, the losers'
    # final (the winners' final's loser, 2, meets the best of the losers' bracket, 3, whom 2 beat in
    # the winners' semi-final) and the grand final (the winners' final again).
    last_losers = 2 * (n.bit_length() - 2)
    rematches = [key for key, _, again in _meetings(n, None) if again]
    assert rematches == [(LOSERS, last_losers, 0), (GRAND_FINAL, 1, 0)]
    # Any results: a player dropping from winners' round 2 never meets the one they beat in round 1's
    # neighbour match (the crossing sends them to the other half).
    for seed in range(30):
        rng = random.Random(seed)
        for key, _, again in _meetings(n, rng):
            if key[0] == LOSERS and key[1] == 2:
                assert not again, (seed, key)


def test_a_straight_drop_would_rematch() -> None:
    """The crossing is what keeps the first drop free of rematches: sent straight down, winners'
    round 2's loser meets the winner of the losers' match holding the player they beat."""
    import host.tournaments.double_elimination as de

    original = de.crossing
    try:
        de.crossing = lambda count, drop: list(range(count))
        rematched = any(again for key, _, again in _meetings(8, None) if key[:2] == (LOSERS, 2))
    finally:
        de.crossing = original
    assert rematched


def _run_with_drop(cfg, n: int, drop_round: int, who: int, rng: random.Random):
    field = entrants(n)
    played: list[StageRound] = []
    gone: set[int] = set()
    seeds = None
    for number in range(60):
        if number == drop_round:
            gone.add(who)
        step = next_step(cfg, field, rounds_for(cfg, n), played, gone, seeds)
        if step.seeds is not None:
            seeds = step.seeds
        if step.round is None:
            return played, step.champion
        for table in step.round.tables:
            assert not set(table.seats) & gone, "a player who dropped is never seated"
        results = tuple(TableResult(t.sides, tuple(rng.sample([1, 2], 2))) for t in step.round.tables)
        played.append(StageRound(step.stage, results + step.walkovers, step.round.bye_ids))
    raise AssertionError("the event did not end")


@pytest.mark.parametrize("n", [2, 5, 8])
def test_a_drop_at_every_stage(n: int) -> None:
    """Drop each player at each round of the event (winners', losers', grand final, reset): never
    seated again, never champion, their later matches walkovers, and the event still ends."""
    cfg = make_settings("pedwar", "double_elimination")
    for seed in range(3):
        full, _ = _run_with_drop(cfg, n, 99, 0, random.Random(seed))
        for drop_round in range(len(full) + 1):
            for who in range(1, n + 1):
                played, champion = _run_with_drop(cfg, n, drop_round, who, random.Random(seed))
                assert champion is None or who not in champion, (seed, drop_round, who)
                if drop_round < len(full):  # (a drop after the last table leaves no champion)
                    assert champion is not None, (seed, drop_round, who)
                assert len(played) <= rounds_for(cfg, n)


def test_a_double_elimination_top_cut() -> None:
    cfg = make_settings("pedwar", "swiss", top_cut=4, rounds=2, top_cut_format="double")
    field = entrants(8)
    rng = random.Random(2)
    played: list[StageRound] = []
    seeds = None
    while True:
        step = next_step(cfg, field, 2, played, (), seeds)
        if step.seeds is not None:
            seeds = step.seeds
        if step.round is None:
            break
        results = tuple(TableResult(t.sides, tuple(rng.sample([1, 2], 2))) for t in step.round.tables)
        played.append(StageRound(step.stage, results + step.walkovers, step.round.bye_ids))
    cut = [res for r in played if r.stage == CUT for res in r.results]
    assert seeds is not None and len(seeds) == 4
    assert [r.stage for r in played][:2] == ["swiss", "swiss"]
    lost = losses(list(seeds), cut)
    champion = step.champion
    assert champion is not None and champion[0] in seeds
    assert all(count == 2 for p, count in lost.items() if p != champion[0])
    assert len(cut) in (6, 7), "4 players: 6 matches, 7 with the reset"
    first_cut = next(r for r in played if r.stage == CUT)
    assert {frozenset(p for side in res.sides for p in side) for res in first_cut.results} == {
        frozenset((seeds[0], seeds[3])), frozenset((seeds[1], seeds[2]))}, "winners' round 1: 1 v 4, 2 v 3"
