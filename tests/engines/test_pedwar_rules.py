"""One test (or more) per rule of rules/pedwar.md, with stacked decks."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from functools import cache

import pytest

from data.editions import pedwar as edition
from engines import IllegalAction, get_engine
from engines.contract import Engine
from engines.pedwar import ENGINE as E
from engines.pedwar import best_collections, score_breakdown, score_collection
from engines.pedwar import rules as R
from engines.pedwar.bids import ALL_BIDS, RANK
from engines.pedwar.state import ACTION, DISCARD, OVER, TRUMP, State
from engines.rng import Rng, seed_state
from tests.engines.harness import assert_refuses, canonical

ROW = ["R1", "R2", "R3", "R4", "R5", "R6"]


def make(n: int = 2, *, active: int = 0, hands: list[list[str]] | None = None, row: list[str] | None = None,
         odeck: list[str] | None = None, mdeck: list[str] | None = None, mdisc: list[str] | None = None,
         colls: list[list[str]] | None = None, goals: list[int] | None = None, max_turns: int = 500) -> State:
    """A game stacked as given, at the start of ``active``'s turn."""
    s = E.new_game(n, 1, {"max_turns": max_turns}).clone()
    if hands is not None:
        s.hands = [sorted(h, key=RANK.__getitem__) for h in hands]
    s.row = list(row if row is not None else ROW)
    if odeck is not None:
        s.odeck = list(odeck)
    if mdeck is not None:
        s.mdeck = list(mdeck)
    if mdisc is not None:
        s.mdisc = list(mdisc)
    if colls is not None:
        s.colls = [list(c) for c in colls]
    if goals is not None:
        s.goals = list(goals)
    s.active = active
    s.turns = 0
    s.events = []
    s.bids = [[] for _ in range(6)]
    s.final = None
    R.start_turn(s)
    return s


def play(s: State, *moves: tuple[int, str]) -> State:
    for seat, action in moves:
        assert action in E.legal_actions(s, seat), (action, E.legal_actions(s, seat))
        s = E.apply(s, seat, action)
    return s


def slot_of(s: State, card: str) -> int:
    return s.row.index(card)


# ---------------------------------------------------------------- contract basics

def test_registry_and_contract() -> None:
    assert get_engine("pedwar") is E
    assert isinstance(E, Engine)
    assert (E.game_id, E.min_players, E.max_players) == ("pedwar", 2, 4)
    assert E.default_options == {"max_turns": 500}
    assert 10 <= len(E.summary.splitlines()) <= 20


def test_new_game_validates_players_and_options() -> None:
    for bad in (1, 5, 0):
        with pytest.raises(ValueError):
            E.new_game(bad, 1)
    with pytest.raises(ValueError):
        E.new_game(2, 1, {"turns": 3})
    with pytest.raises(ValueError):
        E.new_game(2, 1, {"max_turns": 0})
    with pytest.raises(ValueError):
        E.new_game(2, 1, {"max_turns": True})


# ---------------------------------------------------------------- cards

def test_object_cards_four_colours_numbers_and_two_wilds() -> None:
    cards = Counter(edition.OBJECT_CARDS)
    assert sum(cards.values()) == 40
    for c in "RBGY":
        for n in range(1, 9):
            assert cards[f"{c}{n}"] == 1
        assert cards[f"{c}W"] == 2


def test_maneuver_counts_and_pips_ruling() -> None:
    assert Counter(edition.MANEUVER_CARDS) == {"1+": 10, "2+": 10, "3": 9, "4": 9, "5": 8, "OP": 4}
    assert edition.MANEUVER_PIPS == {"1+": 3, "2+": 2, "3": 2, "4": 1, "5": 1, "OP": 1}


def test_goal_cards_ruling() -> None:
    for k in range(1, 9):
        assert edition.GOALS[k] == (f"R{k}", f"B{k % 8 + 1}", f"G{(k + 1) % 8 + 1}", f"Y{(k + 2) % 8 + 1}")
    listed = Counter(c for g in edition.GOALS.values() for c in g)
    assert set(listed) == {c for c in edition.OBJECT_CARDS if c[1] != "W"}
    assert set(listed.values()) == {1}
    assert edition.GOALS[8] == ("R8", "B1", "G2", "Y3")


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_row_hands_goals(n: int) -> None:
    seed = 42 + n
    s = E.new_game(n, seed)
    rng = Rng(seed_state(seed))
    odeck, mdeck, gdeck = list(edition.OBJECT_CARDS), list(edition.MANEUVER_CARDS), list(edition.GOALS)
    rng.shuffle(odeck)
    rng.shuffle(mdeck)
    rng.shuffle(gdeck)
    row = [odeck.pop() for _ in range(6)]
    first = rng.below(n)
    assert s.row == row and s.odeck == odeck and s.first == first and s.active == first
    for i in range(n):  # dealt starting with the first player, clockwise
        seat = (first + i) % n
        assert Counter(s.hands[seat]) == Counter(mdeck[-6:])
        del mdeck[-6:]
        assert s.goals[seat] == gdeck.pop()
    assert s.mdeck == mdeck and sorted(s.goals_out) == sorted(gdeck) and len(s.goals_out) == 8 - n
    assert E.to_act(s) == [first] and s.phase == DISCARD


def test_first_player_is_random() -> None:
    assert {E.new_game(3, seed).first for seed in range(40)} == {0, 1, 2}


# ---------------------------------------------------------------- bids

def test_single_bids_and_values() -> None:
    s = make(hands=[["1+", "2+", "3", "4", "5", "OP"], ["3"] * 6])
    s = play(s, (0, "done"))
    acts = E.legal_actions(s, 0)
    for single in ("1+", "2+", "3", "4", "5", "OP"):
        assert f"bid:R1:{single}" in acts
    s2 = play(s, (0, "bid:R1:4"))
    assert s2.bids[0] == [[0, "4"]]
    assert E.view(s2, None)["row"][0]["bids"] == [{"seat": 0, "cards": ["4"], "value": 4}]


def test_pair_needs_a_1plus_or_2plus() -> None:
    s = play(make(hands=[["3", "4", "5", "1+", "2+", "5"], ["3"] * 6]), (0, "done"))
    assert "bid:R1:3,4" not in E.legal_actions(s, 0)
    assert_refuses(E, s, 0, "bid:R1:3,4")
    with pytest.raises(IllegalAction, match="1\\+ or 2\\+"):
        E.apply(s, 0, "bid:R1:4,5")
    s2 = play(s, (0, "bid:R1:2+,5"))
    assert s2.bids[0] == [[0, "2+,5"]]
    assert E.view(s2, None)["row"][0]["bids"][0]["value"] == 7


def test_pair_other_card_may_be_1plus_or_2plus_highest_is_7() -> None:
    s = play(make(hands=[["1+", "1+", "2+", "2+", "5", "3"], ["3"] * 6]), (0, "done"))
    acts = E.legal_actions(s, 0)
    assert {"bid:R1:1+,1+", "bid:R1:1+,2+", "bid:R1:2+,2+", "bid:R1:2+,5", "bid:R1:1+,5"} <= set(acts)
    assert max(b[2] for b in ALL_BIDS if b[2]) == 7


def test_op_is_bid_alone_and_three_cards_are_not_a_bid() -> None:
    s = play(make(hands=[["1+", "2+", "3", "OP", "5", "3"], ["3"] * 6]), (0, "done"))
    assert not [a for a in E.legal_actions(s, 0) if "OP," in a or ",OP" in a]
    with pytest.raises(IllegalAction, match="OP is bid alone"):
        E.apply(s, 0, "bid:R1:1+,OP")
    with pytest.raises(IllegalAction, match="pair of two"):
        E.apply(s, 0, "bid:R1:1+,2+,3")
    assert_refuses(E, s, 0, "bid:R1:7")
    assert_refuses(E, s, 0, "bid:R1:")


def test_bid_needs_the_cards_in_hand() -> None:
    s = play(make(hands=[["1+", "3", "3", "4", "4", "4"], ["3"] * 6]), (0, "done"))
    with pytest.raises(IllegalAction, match="do not hold"):
        E.apply(s, 0, "bid:R1:5")
    with pytest.raises(IllegalAction, match="do not hold"):
        E.apply(s, 0, "bid:R1:1+,1+")


# ---------------------------------------------------------------- discard phase

def test_discard_three_pips_per_extra_action_rounded_down() -> None:
    s = make(hands=[["1+", "2+", "4", "5", "3", "3"], ["3"] * 6])
    s = play(s, (0, "discard:4"), (0, "discard:5"))
    assert s.pips == 2 and s.phase == DISCARD
    s1 = play(s, (0, "done"))
    assert s1.phase == ACTION and s1.actions == 1  # 2 pips: no extra action
    s = play(s, (0, "discard:2+"))
    assert s.pips == 4
    s2 = play(s, (0, "done"))
    assert s2.actions == 2  # 4 pips: one extra action
    s3 = play(make(hands=[["1+", "1+", "3", "5", "3", "3"], ["3"] * 6]), (0, "discard:1+"), (0, "discard:1+"),
              (0, "done"))
    assert s3.actions == 3  # 6 pips: two extra actions
    assert s3.mdisc[-2:] == ["1+", "1+"]  # discards go to the Maneuver discard pile


def test_discard_must_leave_one_card_in_hand() -> None:
    s = make(hands=[["3", "4"], ["3"] * 6])
    s = play(s, (0, "discard:3"))
    assert s.phase == ACTION and s.hands[0] == ["4"]  # with one card left the discard phase is over
    s1 = make(hands=[["OP"], ["3"] * 6])
    assert s1.phase == ACTION and "discard:OP" not in E.legal_actions(s1, 0)
    s1.phase = DISCARD  # even forced into the discard phase, the last card stays
    with pytest.raises(IllegalAction, match="at least one"):
        E.apply(s1, 0, "discard:OP")


def test_discard_refusals() -> None:
    s = make(hands=[["3", "4", "4"], ["3"] * 6])
    with pytest.raises(IllegalAction, match="hold no"):
        E.apply(s, 0, "discard:5")
    assert_refuses(E, s, 0, "discard:9")
    assert_refuses(E, s, 0, "bid:R1:3")
    assert_refuses(E, s, 0, "done:now")
    assert_refuses(E, s, 1, "discard:3")


# ---------------------------------------------------------------- action phase

def test_at_least_one_action_is_required() -> None:
    s = play(make(hands=[["1+", "3", "4", "4", "5", "5"], ["3"] * 6]), (0, "discard:1+"), (0, "done"))
    assert s.actions == 2 and "done" not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="At least one action"):
        E.apply(s, 0, "done")


def test_extra_actions_may_be_left_unused() -> None:
    s = play(make(hands=[["1+", "3", "4", "4", "5", "5"], ["3"] * 6]), (0, "discard:1+"), (0, "done"),
             (0, "bid:R1:3"))
    assert s.phase == ACTION and "done" in E.legal_actions(s, 0)
    s = play(s, (0, "done"))
    assert s.phase == TRUMP and s.inplay == [0]


def test_each_action_uses_a_different_object_card() -> None:
    s = play(make(hands=[["1+", "3", "4", "4", "5", "5"], ["3"] * 6]), (0, "discard:1+"), (0, "done"),
             (0, "bid:R1:3"))
    assert not [a for a in E.legal_actions(s, 0) if a.startswith("bid:R1:")]
    with pytest.raises(IllegalAction, match="different Object card"):
        E.apply(s, 0, "bid:R1:4")
    s = play(s, (0, "bid:R2:4"))
    assert s.phase == TRUMP and s.inplay == [0, 1]


def test_action_phase_ends_when_actions_are_used() -> None:
    s = play(make(hands=[["3", "4", "4", "5", "5", "5"], ["3"] * 6]), (0, "done"), (0, "bid:R3:5"))
    assert s.phase == TRUMP and s.bids[2] == [[0, "5"]]
    with pytest.raises(IllegalAction):
        E.apply(s, 0, "bid:R1:4")


def test_bid_on_a_card_not_in_the_row() -> None:
    s = play(make(hands=[["3", "4", "4", "5", "5", "5"], ["3"] * 6]), (0, "done"))
    with pytest.raises(IllegalAction, match="not a face-up"):
        E.apply(s, 0, "bid:B8:3")
    assert_refuses(E, s, 0, "bid:R1")
    assert_refuses(E, s, 0, "raise:R1:3")
    assert_refuses(E, s, 0, "pass")


def test_op_in_action_phase_wins_at_once_and_cannot_be_trumped() -> None:
    s = play(make(hands=[["OP", "1+", "4", "4", "5", "5"], ["OP", "5", "5", "5", "5", "5"]]),
             (0, "discard:1+"), (0, "done"), (0, "bid:R2:OP"))
    assert "R2" in s.colls[0] and s.row[1] is None
    assert any("wins R2 at once" in e for e in E.events(s))
    assert not [a for a in E.legal_actions(s, 0) if ":R2:" in a]
    with pytest.raises(IllegalAction, match="not a face-up"):
        E.apply(s, 0, "bid:R2:4")  # the card left the row: no second bid on it
    s = play(s, (0, "bid:R3:4"))
    assert s.phase == TRUMP and s.inplay == [2]
    assert not [a for a in E.legal_actions(s, 1) if ":R2:" in a]


def test_only_op_bids_skip_the_trump_phase() -> None:
    s = play(make(hands=[["OP", "4", "4", "5", "5", "5"], ["OP", "5", "5", "5", "5", "5"]]), (0, "done"),
             (0, "bid:R6:OP"))
    assert s.colls[0] == ["R6"] and s.active == 1 and s.phase == DISCARD
    assert s.row[5] is not None and len(s.hands[0]) == 6  # End phase happened: refill and draw


def test_no_maneuver_cards_skips_to_the_end_phase() -> None:
    s = make(3, hands=[[], ["3"] * 6, ["4"] * 6], mdeck=["5"] * 20)
    assert s.active == 1 and s.turns == 1
    assert s.hands[0] == ["5"] * 6
    assert any("skips to the End phase" in e for e in s.events)


def test_identical_wilds_share_one_action_name() -> None:
    row = ["GW", "R2", "GW", "R4", "R5", "R6"]
    s = play(make(hands=[["1+", "3", "4", "4", "5", "5"], ["5", "5", "5", "5", "2+", "2+"]], row=row),
             (0, "discard:1+"), (0, "done"))
    acts = E.legal_actions(s, 0)
    assert acts.count("bid:GW:3") == 1
    s = play(s, (0, "bid:GW:3"))
    assert s.bids[0] == [[0, "3"]] and not s.bids[2]
    s = play(s, (0, "bid:GW:4"))
    assert s.bids[2] == [[0, "4"]]
    assert s.phase == TRUMP
    acts = E.legal_actions(s, 1)
    assert "raise:GW#1:5" in acts and "raise:GW#2:5" in acts
    with pytest.raises(IllegalAction, match="GW#1 or GW#2"):
        E.apply(s, 1, "raise:GW:5")
    s = play(s, (1, "raise:GW#2:5"))
    assert s.bids[2][-1] == [1, "5"] and len(s.bids[0]) == 1


# ---------------------------------------------------------------- trump phase

def three_player_trump() -> State:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "2+", "OP"], ["3", "4", "5", "1+", "2+", "OP"]]
    return play(make(3, active=1, hands=hands), (1, "done"), (1, "bid:R1:3"))


def test_trump_turns_start_left_of_active_and_active_takes_part() -> None:
    s = three_player_trump()
    assert s.phase == TRUMP and E.to_act(s) == [2]
    s = play(s, (2, "pass"))
    assert E.to_act(s) == [0]
    s = play(s, (0, "raise:R1:4"))
    assert E.to_act(s) == [1]  # the active player's trump turn, in turn order
    assert "raise:R1:5" in E.legal_actions(s, 1)


def test_raise_must_be_at_least_one_more() -> None:
    s = play(three_player_trump(), (2, "pass"))
    acts = E.legal_actions(s, 0)
    assert "raise:R1:3" not in acts and "raise:R1:4" in acts and "raise:R1:1+,3" in acts
    assert "raise:R1:1+" not in acts
    with pytest.raises(IllegalAction, match="at least 4"):
        E.apply(s, 0, "raise:R1:3")


def test_raise_is_a_new_complete_bid_never_added() -> None:
    s = play(three_player_trump(), (2, "pass"))
    with pytest.raises(IllegalAction, match="at least 4"):
        E.apply(s, 0, "raise:R1:1+")  # 3 + 1 would be 4, but a raise never adds to earlier bids
    s = play(s, (0, "raise:R1:4"))
    assert s.bids[0] == [[1, "3"], [0, "4"]]  # earlier bids stay on the card
    assert E.view(s, None)["row"][0]["high"] == 0


def test_cannot_raise_own_highest_bid() -> None:
    s = play(three_player_trump(), (2, "pass"), (0, "raise:R1:4"))
    s = play(s, (1, "raise:R1:5"))
    assert E.to_act(s) == [2]
    s = play(s, (2, "pass"), (0, "pass"))
    # seat 1 holds the highest bid on the only card in play: its trump turn passes by itself
    assert "{p1} cannot raise and passes" in E.events(s)
    assert s.colls[1] == ["R1"] and s.active == 2
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "5", "5"]]
    s3 = play(make(2, hands=hands), (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:4"),
              (1, "raise:R1:4"), (1, "done"))
    acts = E.legal_actions(s3, 0)
    assert "raise:R1:5" in acts and "raise:R1:OP" in acts
    assert not [a for a in acts if a.startswith("raise:R2:")]  # R2's highest bid is seat 0's own
    with pytest.raises(IllegalAction, match="already yours"):
        E.apply(s3, 0, "raise:R2:5")
    s2 = play(three_player_trump(), (2, "pass"))
    s2 = play(s2, (0, "raise:R1:4"))
    s2.tseat = 0  # forced: seat 0 may not raise its own highest bid, not even with an OP
    with pytest.raises(IllegalAction, match="already yours"):
        E.apply(s2, 0, "raise:R1:OP")


def test_op_by_another_player_locks_the_card_for_the_active_op_only() -> None:
    s = play(three_player_trump(), (2, "raise:R1:OP"))
    assert s.bids[0][-1] == [2, "OP"] and s.phase == TRUMP
    assert E.to_act(s) == [1]  # seat 0 cannot bid after the OP at all: its turn passes by itself
    assert E.legal_actions(s, 1) == ["raise:R1:OP", "pass"]
    with pytest.raises(IllegalAction, match="only with an OP"):
        E.apply(s, 1, "raise:R1:2+,5")
    s2 = s.clone()
    s2.tseat = 0
    with pytest.raises(IllegalAction, match="only the active player"):
        E.apply(s2, 0, "raise:R1:OP")
    s3 = play(s, (1, "pass"))  # everyone passed: the OP takes the card
    assert s3.colls[2] == ["R1"] and s3.active == 2


def test_op_by_active_player_in_trump_phase_wins_at_once() -> None:
    s = play(three_player_trump(), (2, "raise:R1:OP"), (1, "raise:R1:OP"))
    assert s.colls[1] == ["R1"] and s.phase == DISCARD and s.active == 2  # no card left in play: phase over
    assert any("wins R1 at once" in e for e in E.events(s))
    assert Counter(s.mdisc[-3:]) == Counter(["3", "OP", "OP"])


def test_op_by_active_over_a_number_wins_at_once() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "2+", "OP"]]
    s = play(make(2, hands=hands), (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:4"))
    s = play(s, (1, "raise:R1:4"), (1, "raise:R2:5"))
    assert E.to_act(s) == [0]
    s = play(s, (0, "raise:R1:OP"))
    assert s.colls[0] == ["R1"] and s.inplay == [1] and s.phase == TRUMP
    assert s.raised == [0]


def test_raise_over_a_pair_must_beat_the_pair_sum() -> None:
    hands = [["1+", "5", "3", "3", "3", "3"], ["5", "2+", "4", "3", "3", "3"]]
    s = play(make(2, hands=hands), (0, "done"), (0, "bid:R1:1+,5"))  # worth 6
    assert E.legal_actions(s, 1) == ["raise:R1:2+,5", "pass"]  # 7 is the only raise worth at least 6 + 1
    for low in ("5", "2+,4", "2+,3"):
        with pytest.raises(IllegalAction, match="at least 7"):
            E.apply(s, 1, f"raise:R1:{low}")
    s = play(s, (1, "raise:R1:2+,5"))
    assert s.bids[0] == [[0, "1+,5"], [1, "2+,5"]]


def test_op_by_another_player_beats_every_number_even_the_highest_pair() -> None:
    hands = [["2+", "5", "3", "4", "4", "4"], ["OP", "2+", "5", "3", "3", "3"]]
    s = play(make(2, hands=hands), (0, "done"), (0, "bid:R1:2+,5"))  # worth 7, the highest a number gets
    assert E.legal_actions(s, 1) == ["raise:R1:OP", "pass"]
    with pytest.raises(IllegalAction, match="at least 8"):
        E.apply(s, 1, "raise:R1:2+,5")
    s = play(s, (1, "raise:R1:OP"))
    assert s.phase == TRUMP and s.bids[0][-1] == [1, "OP"] and E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == ["pass"]  # no OP in hand: the active player cannot answer
    s = play(s, (0, "pass"))  # then seat 1, holding the highest bid, passes by itself
    assert s.colls == [[], ["R1"]]


def test_pass_and_raise_again_on_a_later_trump_turn() -> None:
    s = play(three_player_trump(), (2, "pass"), (0, "raise:R1:4"), (1, "pass"))
    assert E.to_act(s) == [2]
    s = play(s, (2, "raise:R1:5"))  # seat 2 passed before, it may raise now
    assert s.bids[0][-1] == [2, "5"]


def test_phase_ends_after_every_player_passed_in_a_row() -> None:
    s = play(three_player_trump(), (2, "pass"), (0, "raise:R1:4"), (1, "pass"))
    assert s.phase == TRUMP and s.passes == 1
    s = play(s, (2, "pass"))  # then seat 0, holding the highest bid, passes by itself: three in a row
    assert s.phase == DISCARD and s.colls[0] == ["R1"] and s.active == 2
    s = play(three_player_trump(), (2, "pass"), (0, "raise:R1:4"))
    assert s.passes == 0  # a raise breaks the run of passes


def test_phase_ends_when_no_cards_remain_in_play() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "2+", "OP"], ["3", "4", "5", "1+", "2+", "OP"]]
    s = play(make(3, active=1, hands=hands), (1, "done"), (1, "bid:R1:3"), (2, "raise:R1:OP"))
    s = play(s, (1, "raise:R1:OP"))
    assert s.phase == DISCARD and s.active == 2


def test_raise_on_several_cards_in_one_trump_turn_then_done() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "5", "5"]]
    s = play(make(2, hands=hands), (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:4"))
    s = play(s, (1, "raise:R1:4"))
    assert E.to_act(s) == [1] and "pass" not in E.legal_actions(s, 1)
    assert not [a for a in E.legal_actions(s, 1) if a.startswith("raise:R1:")]  # one bid per card per turn
    with pytest.raises(IllegalAction, match="already raised"):
        E.apply(s, 1, "raise:R1:5")
    with pytest.raises(IllegalAction, match="done"):
        E.apply(s, 1, "pass")
    s = play(s, (1, "raise:R2:5"))
    assert E.to_act(s) == [0]  # nothing else to raise: the turn ended by itself
    s = play(make(2, hands=hands), (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:4"),
             (1, "raise:R1:4"), (1, "done"))
    assert E.to_act(s) == [0] and s.passes == 0


def test_done_before_raising_is_refused_in_trump_phase() -> None:
    s = three_player_trump()
    with pytest.raises(IllegalAction, match="pass instead"):
        E.apply(s, 2, "done")
    with pytest.raises(IllegalAction, match="not in play"):
        E.apply(s, 2, "raise:R2:4")
    assert_refuses(E, s, 2, "bid:R2:4")
    assert_refuses(E, s, 0, "pass")  # not seat 0's trump turn
    assert_refuses(E, s, 2, "pass:x")


def test_seat_without_cards_passes_automatically() -> None:
    s = play(make(3, hands=[["3", "4", "4", "5", "5", "5"], [], ["4", "5"]], mdeck=["5"] * 30), (0, "done"),
             (0, "bid:R1:3"))
    assert E.to_act(s) == [2]
    assert any("{p1} cannot raise and passes" in e for e in E.events(s))


# ---------------------------------------------------------------- resolve and end phases

def test_resolve_gives_each_card_to_the_highest_bid() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "5", "5"]]
    s = play(make(2, hands=hands), (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:4"),
             (1, "raise:R1:4"), (1, "done"), (0, "pass"))
    assert s.phase == TRUMP and E.to_act(s) == [1]  # seat 1 may still raise R2
    s = play(s, (1, "pass"))
    assert s.colls == [["R2"], ["R1"]]
    assert any("{p1} takes R1" in e for e in E.events(s))


def test_end_phase_discards_played_cards_refills_row_and_only_active_draws() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "5", "5"]]
    s = make(2, hands=hands, odeck=["B1", "B2", "B3", "B4"], mdeck=["4"] * 10, mdisc=[])
    s = play(s, (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:5"), (1, "raise:R1:4"), (1, "done"),
             (0, "pass"), (1, "pass"))
    assert s.row == ["B4", "B3", "R3", "R4", "R5", "R6"]
    assert Counter(s.mdisc) == Counter(["1+", "3", "5", "4"])
    assert len(s.hands[0]) == 6 and s.hands[0].count("4") == 4  # kept 4 5 OP, drew three 4s back up to 6
    assert len(s.hands[1]) == 5  # other players do not draw
    assert s.active == 1 and s.turns == 1  # the player on the left is active


def test_hand_limit_is_six() -> None:
    s = make(2, hands=[["3", "3", "3", "3", "3", "3"], ["4"] * 2], mdeck=["5"] * 10)
    s = play(s, (0, "done"), (0, "bid:R1:3"), (1, "raise:R1:4"), (0, "pass"))
    assert len(s.hands[0]) == 6 and s.hands[0].count("5") == 1
    assert len(s.hands[1]) == 1


def test_reshuffle_only_when_a_draw_needs_it() -> None:
    s = make(2, hands=[["3", "3", "3", "3", "3", "3"], ["4"] * 6], mdeck=["5", "5"], mdisc=["1+"] * 5)
    s = play(s, (0, "done"), (0, "bid:R1:3"), (1, "pass"))
    assert len(s.hands[0]) == 6 and s.mdeck == ["5"] and s.mdisc == ["1+"] * 5 + ["3"]  # no reshuffle yet
    assert not any("shuffled" in e for e in E.events(s))
    s = make(2, hands=[["3", "3", "3", "3", "3", "3"], ["4"] * 6], mdeck=[], mdisc=["1+"] * 5)
    s = play(s, (0, "done"), (0, "bid:R1:3"), (1, "pass"))
    assert any("shuffled to form a new deck" in e for e in E.events(s))
    assert len(s.hands[0]) == 6 and len(s.mdeck) == 5 and s.mdisc == []


def test_draw_as_many_as_possible_when_both_piles_are_empty() -> None:
    s = make(2, hands=[["3", "3", "3"], ["4"] * 6], mdeck=[], mdisc=[])
    s = play(s, (0, "done"), (0, "bid:R1:3"), (1, "pass"))
    assert s.hands[0] == ["3", "3", "3"] and s.mdeck == [] and s.mdisc == []  # only the played 3 was there


def test_game_ends_the_moment_the_last_object_card_is_turned() -> None:
    hands = [["1+", "3", "4", "5", "5", "OP"], ["3", "4", "5", "2+", "5", "5"]]
    s = make(2, hands=hands, odeck=["B7"], goals=[2, 3])
    s = play(s, (0, "discard:1+"), (0, "done"), (0, "bid:R1:3"), (0, "bid:R2:5"), (1, "raise:R1:4"), (1, "done"),
             (0, "pass"), (1, "pass"))
    assert E.is_over(s) and E.to_act(s) == [] and s.phase == OVER
    assert s.row[0] == "B7" and s.row[1] is None  # the last card turned, the refill stopped there
    assert len(s.hands[0]) == 3  # the active player did not draw
    assert any("last Object card" in e for e in E.events(s))
    assert E.legal_actions(s, 0) == [] and E.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        E.apply(s, 0, "done")


def test_max_turns_option_ends_and_scores_the_game() -> None:
    s = E.new_game(2, 5, {"max_turns": 1})
    first = s.active
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        acts = E.legal_actions(s, seat)
        s = E.apply(s, seat, "pass" if "pass" in acts else acts[-1] if acts[-1] == "done" else acts[0])
    assert s.turns == 1 and s.final is not None and "1 game turns" in s.final["reason"]
    assert len(E.outcome(s)) == 2
    assert first in (0, 1)


# ---------------------------------------------------------------- scoring helper

def test_straight_four_consecutive_any_colours_one_point_each() -> None:
    assert score_collection(["R1", "B2", "G3", "Y4"], None) == 4
    assert score_collection(["R1", "B2", "G3"], None) == 0
    assert score_collection(["R3", "B4", "G5", "Y6", "R7"], None) == 5


def test_straight_flush_two_points_each() -> None:
    assert score_collection(["R3", "R4", "R5", "R6", "R7"], None) == 10
    assert score_breakdown(["R3", "R4", "R5", "R6", "R7"], None) == ["Straight Flush R3–R7: 10"]


def test_four_of_a_kind_one_of_each_colour_three_points_each() -> None:
    assert score_collection(["R5", "B5", "G5", "Y5"], None) == 12
    assert score_collection(["R5", "B5", "G5"], None) == 0


def test_wild_in_a_straight_any_colour_scores_zero() -> None:
    assert score_collection(["R1", "BW", "G3", "Y4"], None) == 3
    assert score_collection(["RW", "BW", "RW", "Y4"], None) == 1
    assert score_collection(["RW", "BW", "GW", "Y4"], None) == 3  # or a Four of a Kind 4s


def test_wild_in_a_straight_flush_must_match_the_colour() -> None:
    assert score_collection(["R3", "R4", "RW", "R6"], None) == 6
    assert score_collection(["R3", "R4", "BW", "R6"], None) == 3  # only a Straight


def test_wild_in_four_of_a_kind_fills_its_own_colour() -> None:
    assert score_collection(["R5", "B5", "G5", "YW"], None) == 9
    assert score_collection(["R5", "B5", "G5", "RW"], None) == 0
    assert score_collection(["R5", "B5", "GW", "YW"], None) == 6


def test_numbers_do_not_wrap() -> None:
    assert score_collection(["R7", "R8", "R1", "R2"], None) == 0
    assert score_collection(["R7", "R8", "RW", "RW"], None) == 4  # Wilds as 5 and 6


def test_each_card_in_at_most_one_collection_best_split() -> None:
    cards = ["R1", "R2", "R3", "R4", "B1", "G1", "Y1"]
    assert score_collection(cards, None) == 12  # Four of a Kind 1s beats the Straight Flush
    cards = ["R1", "R2", "R3", "R4", "R5", "B5", "G5", "Y5"]
    assert score_collection(cards, None) == 12 + 8  # 4K 5s and Straight Flush R1-R4
    cards = ["R1", "B1", "R2", "B2", "R3", "B3", "G4", "Y4"]
    assert score_collection(cards, None) == 8  # two overlapping Straights 1-4


def test_goal_three_points_per_listed_card_independent_of_collections() -> None:
    goal = 3  # R3 B4 G5 Y6
    assert score_collection(["R3", "B4"], goal) == 6
    assert score_collection(["R3", "R4", "R5", "R6"], goal) == 8 + 3
    assert score_collection(["R3", "R4", "R5", "R6"], None) == 8
    lines = score_breakdown(["R3", "R4", "R5", "R6", "G5"], goal)
    assert lines[-1] == "Goal 3 (R3 G5): 6"
    with pytest.raises(ValueError):
        score_collection(["R1"], 9)
    with pytest.raises(ValueError):
        score_collection(["X1"], None)


def test_scoring_exact_on_large_collections_with_known_maximum() -> None:
    # every numbered card scores at most 3, so 32 numbered cards score at most 96: eight Four of a Kinds
    assert score_collection(list(edition.OBJECT_CARDS), None) == 96
    # two Wilds per colour allow at most two Four of a Kinds; the other six Reds form a Straight Flush
    reds = [f"R{n}" for n in range(1, 9)]
    assert score_collection(reds + [f"{c}W" for c in "RBGY" for _ in range(2)], None) == 2 * 3 + 6 * 2
    both = reds + [f"B{n}" for n in range(1, 9)]
    assert score_collection([*both, "GW", "GW", "YW", "YW"], None) == 2 * 6 + 12 * 2


def brute_force(cards: list[str]) -> int:
    """Independent exact solver: list every possible collection, then the best disjoint packing."""
    m = len(cards)
    num = [0 if c[1] == "W" else int(c[1]) for c in cards]
    cands: dict[int, int] = {}

    def add(mask: int, pts: int) -> None:
        if cands.get(mask, -1) < pts:
            cands[mask] = pts

    def runs(v: int, b: int, mask: int, colours: frozenset[str], pts: int) -> None:
        if v > b:
            add(mask, pts)
            if len(colours) == 1:
                add(mask, 2 * pts)
            return
        for i in range(m):
            if not mask >> i & 1 and num[i] in (v, 0):
                runs(v + 1, b, mask | 1 << i, colours | {cards[i][0]}, pts + (num[i] > 0))

    def quads(v: int, ci: int, mask: int, pts: int) -> None:
        if ci == 4:
            add(mask, pts)
            return
        for i in range(m):
            if cards[i][0] == "RBGY"[ci] and num[i] in (v, 0):
                quads(v, ci + 1, mask | 1 << i, pts + 3 * (num[i] > 0))

    for a in range(1, 9):
        for b in range(a + 3, 9):
            runs(a, b, 0, frozenset(), 0)
        quads(a, 0, 0, 0)
    options = sorted(cands.items())

    @cache
    def best(used: int) -> int:
        free = [i for i in range(m) if not used >> i & 1]
        if not free:
            return 0
        i = free[0]
        result = best(used | 1 << i)
        for mask, pts in options:
            if mask >> i & 1 and not mask & used:
                result = max(result, pts + best(used | mask))
        return result

    return best(0)


def packing_best(cards: list[str]) -> int:
    """A second independent exact solver for bigger collections: identical Wilds are counted, not told apart.

    Every candidate collection is (numbered cards, Wilds of a given colour, Wilds of any colour, points);
    the search packs them, branching on the lowest numbered card left (used in a collection or not).
    """
    nums = sorted({c for c in cards if c[1] != "W"}, key=lambda c: (c[1], "RBGY".index(c[0])))
    idx = {c: i for i, c in enumerate(nums)}
    wilds = tuple(cards.count(f"{col}W") for col in "RBGY")
    at = {v: [c for c in nums if int(c[1]) == v] for v in range(1, 9)}
    cands: dict[int, set[tuple[int, tuple[int, ...], int, int]]] = {}

    def add(chosen: tuple[str | None, ...], points: int, colour: int | None) -> None:
        mask = sum(1 << idx[c] for c in chosen if c is not None)
        holes = sum(1 for c in chosen if c is None)
        if not mask:
            return
        spec = tuple(holes if colour == k else 0 for k in range(4))
        anyw = holes if colour is None else 0
        score = points * sum(1 for c in chosen if c is not None)
        cands.setdefault((mask & -mask).bit_length() - 1, set()).add((mask, spec, anyw, score))

    for a in range(1, 9):
        for b in range(a + 3, 9):
            add_runs = [at[v] + [None] for v in range(a, b + 1)]
            for chosen in itertools.product(*add_runs):
                add(chosen, 1, None)
            for k, col in enumerate("RBGY"):
                for chosen in itertools.product(*[[c for c in at[v] if c[0] == col] + [None] for v in range(a, b + 1)]):
                    add(chosen, 2, k)
    for v in range(1, 9):
        for chosen in itertools.product(*[[c for c in at[v] if c[0] == col] + [None] for col in "RBGY"]):
            mask = sum(1 << idx[c] for c in chosen if c is not None)
            if mask:
                spec = tuple(int(c is None) for c in chosen)
                cands.setdefault((mask & -mask).bit_length() - 1, set()).add((mask, spec, 0, 3 * mask.bit_count()))
    full = (1 << len(nums)) - 1

    @cache
    def best(used: int, spec: tuple[int, ...], anyw: int) -> int:
        free = full & ~used
        if not free:
            return 0
        i = (free & -free).bit_length() - 1
        result = best(used | 1 << i, spec, anyw)
        for mask, sp, an, pts in cands.get(i, ()):
            if mask & used:
                continue
            need = tuple(x + y for x, y in zip(spec, sp, strict=True))
            if any(x > w for x, w in zip(need, wilds, strict=True)) or sum(need) + anyw + an > sum(wilds):
                continue
            result = max(result, pts + best(used | mask, need, anyw + an))
        return result

    return best(0, (0, 0, 0, 0), 0)


def test_score_collection_matches_a_packing_solver_on_game_sized_collections() -> None:
    rnd = random.Random(77)
    for _ in range(24):
        cards = rnd.sample(edition.OBJECT_CARDS, rnd.randint(11, 14))
        assert score_collection(cards, None) == packing_best(cards), cards


def valid_collection(item: dict) -> bool:
    cards = item["cards"]
    if item["kind"] == "four":
        nums = {c[1] for c in cards if c[1] != "W"}
        return [c[0] for c in cards] == list("RBGY") and len(nums) <= 1
    if len(cards) < 4:
        return False
    nums = [c[1] for c in cards]
    fixed = [(i, int(n)) for i, n in enumerate(nums) if n != "W"]
    if len({n - i for i, n in fixed}) > 1:
        return False
    start = fixed[0][1] - fixed[0][0] if fixed else 1
    if start < 1 or start + len(cards) - 1 > 8:
        return False
    return item["kind"] == "straight" or len({c[0] for c in cards}) == 1


def test_score_collection_matches_brute_force_on_thousands_of_collections() -> None:
    rnd = random.Random(2024)
    for _ in range(2500):
        lo = rnd.randint(1, 5)
        hi = min(8, lo + rnd.randint(3, 6))
        colours = rnd.sample("RBGY", rnd.randint(1, 4))
        pool = [c for c in edition.OBJECT_CARDS if c[0] in colours and (c[1] == "W" or lo <= int(c[1]) <= hi)]
        cards = rnd.sample(pool, rnd.randint(0, min(len(pool), 10)))
        goal = rnd.choice([None, *range(1, 9)])
        expected = brute_force(cards) + (3 * sum(c in edition.GOALS[goal] for c in cards) if goal else 0)
        assert score_collection(cards, goal) == expected, (cards, goal)
        split = best_collections(cards)
        used = Counter(c for item in split for c in item["cards"])
        assert not used - Counter(cards), cards
        assert all(valid_collection(item) for item in split), split
        assert sum(item["points"] for item in split) == expected - (score_collection(cards, goal)
                                                                     - score_collection(cards, None))


def test_breakdown_names_each_collection() -> None:
    cards = ["R1", "B1", "G1", "Y1", "R2", "R3", "R4", "RW", "B2", "B3", "GW", "B5"]
    lines = score_breakdown(cards, None)
    assert "Four of a Kind 1s (R1 B1 G1 Y1): 12" in lines
    assert any(line.startswith("Straight Flush R") for line in lines)
    assert sum(int(line.rsplit(": ", 1)[1]) for line in lines) == score_collection(cards, None)


# ---------------------------------------------------------------- winner and tie-break

def ended(n: int, colls: list[list[str]], goals: list[int], mdeck: list[str], active: int = 0) -> State:
    """A game stacked so the active player's single bid ends it (the last Object card is turned)."""
    hands = [["3"] * 6 for _ in range(n)]
    s = make(n, active=active, hands=hands, odeck=["B8"], colls=colls, goals=goals, mdeck=mdeck, mdisc=[],
             row=["R8", "B7", "G7", "Y7", "G8", "Y8"])
    s = play(s, (active, "done"), (active, "bid:R8:3"))
    while not E.is_over(s):
        s = play(s, (E.to_act(s)[0], "pass"))
    return s


def test_highest_score_wins_and_others_ranked_by_score() -> None:
    s = ended(3, [["R1", "R2", "R3", "R4"], ["B1", "G2", "Y3", "B4"], []], [8, 1, 2], ["5"] * 10)
    # seat 0 also takes R8 (its Goal 8 lists R8): 8 + 3; seat 1: a Straight, 4
    assert s.final is not None and s.final["scores"] == [11, 4, 0]
    assert E.outcome(s) == [1, 2, 3]
    assert any("{p0} wins with 11 points" in e for e in E.events(s))


def test_tie_break_draws_highest_card_wins_in_seat_order_from_last_active_left() -> None:
    # last active = seat 0; draw order 1 then 0; deck top is the end of the list
    s = ended(2, [[], []], [2, 3], ["1+", "1+", "OP", "5"])
    assert s.final is not None and s.final["tiebreak"] == [[[1, "5"], [0, "OP"]]]
    assert E.outcome(s) == [1, 2]
    assert s.mdisc[-2:] == ["5", "OP"]  # drawn cards go to the discard pile
    assert any(e == "Tie-break round 1: {p1} draws 5, {p0} draws OP" for e in E.events(s))


def test_only_players_tied_for_first_draw_and_the_others_share_places_by_score() -> None:
    # last active = seat 1: draw order 2, 3, 0, 1. Seats 0 and 2 tie on 6, seats 1 and 3 have 5 (one less).
    colls = [["R1", "B2", "R3", "B4", "R5", "B6"], ["Y1", "G2", "Y3", "G4", "Y5"],
             ["G1", "Y2", "G3", "Y4", "G5", "Y6"], ["B1", "R2", "B3", "R4", "B5"]]
    s = ended(4, colls, [2, 1, 4, 3], ["5", "5", "OP", "4"], active=1)
    assert s.final is not None and s.colls[1][-1] == "R8" and s.final["scores"] == [6, 5, 6, 5]
    assert s.final["tiebreak"] == [[[2, "4"], [0, "OP"]]]  # seat 2 first, then seat 0; nobody else draws
    assert E.outcome(s) == [1, 3, 2, 3]


def test_a_game_ended_by_max_turns_breaks_its_tie_from_the_last_active_players_left() -> None:
    # 3 players, max_turns=1, seat 1 active: nobody scores, so all three tie; the draws go 2, 0, 1.
    s = make(3, active=1, hands=[["3"] * 6] * 3, mdeck=["1+"] * 10 + ["2+", "4", "5"], colls=[[], [], []],
             goals=[1, 2, 3], max_turns=1)
    s = play(s, (1, "done"), (1, "bid:R1:3"))
    while not E.is_over(s):
        s = play(s, (E.to_act(s)[0], "pass"))
    assert s.final is not None and s.final["scores"] == [0, 0, 0]
    assert s.final["tiebreak"] == [[[2, "4"], [0, "2+"], [1, "1+"]]]
    assert E.outcome(s) == [2, 2, 1]


def test_tie_break_with_nothing_left_to_draw_ends_in_a_shared_first_place() -> None:
    s = make(2, hands=[["3"] * 6, ["3"] * 6], goals=[2, 3], mdeck=[], mdisc=[]).clone()
    s.colls = [[], []]
    R.finish(s, "test")  # both piles empty: each round nobody can draw, so the players stay tied
    assert s.final is not None and s.final["tiebreak"] == [[[1, None], [0, None]]] * 10
    assert E.outcome(s) == [1, 1]


def test_tie_break_rank_order() -> None:
    assert [k for k, _ in sorted(R.TIE_RANK.items(), key=lambda kv: -kv[1])] == ["OP", "5", "4", "3", "2+", "1+"]


def test_tie_break_repeats_among_those_still_tied() -> None:
    # three tied; round 1: seat 1 draws 3, seat 2 draws 5, seat 0 draws 5; round 2: seat 2 4, seat 0 2+
    s = ended(3, [[], [], []], [2, 3, 4], ["1+", "2+", "4", "5", "5", "3"], active=0)
    assert s.final is not None
    assert s.final["tiebreak"] == [[[1, "3"], [2, "5"], [0, "5"]], [[2, "4"], [0, "2+"]]]
    assert E.outcome(s) == [2, 2, 1]  # the others share second: equal scores below first share a place


def test_tie_break_uses_the_usual_reshuffle() -> None:
    s = make(2, hands=[["3"] * 6, ["3"] * 6], goals=[2, 3], mdeck=[], mdisc=["5", "4"])
    s = s.clone()
    s.colls = [[], []]
    R.finish(s, "test")
    assert s.final is not None and len(s.final["tiebreak"]) >= 1
    assert any("shuffled" in e for e in s.events)


def test_still_tied_after_ten_rounds_share_first() -> None:
    s = ended(2, [[], []], [2, 3], ["4"] * 30)
    assert s.final is not None and len(s.final["tiebreak"]) == 10
    assert E.outcome(s) == [1, 1]
    assert any("share first place" in e for e in E.events(s))


def test_no_tie_break_without_a_tie_for_first() -> None:
    s = ended(3, [["R1", "R2", "R3", "R4"], [], []], [2, 3, 4], ["4"] * 30)
    assert s.final is not None and s.final["tiebreak"] == []
    assert E.outcome(s) == [1, 2, 2]


# ---------------------------------------------------------------- views, labels, events, refusals

def test_views_hide_hands_and_goals_until_the_end() -> None:
    s = make(2, hands=[["1+", "3", "4", "5", "5", "OP"], ["2+", "2+", "4", "4", "4", "4"]], goals=[2, 5])
    pub = E.view(s, None)
    for key in ("game", "num_players", "status", "to_act", "over"):
        assert key in pub
    assert "hand" not in pub and all(p["goal"] is None for p in pub["players"])
    assert [p["hand_count"] for p in pub["players"]] == [6, 6]
    mine = E.view(s, 0)
    assert mine["seat"] == 0 and mine["hand"] == ["1+", "3", "4", "5", "5", "OP"] and mine["goal"] == 2
    assert mine["goal_cards"] == ["R2", "B3", "G4", "Y5"]
    assert "2+" not in json.dumps(mine)
    json.dumps(pub)


def test_views_do_not_depend_on_hidden_information() -> None:
    """Other hands, other Goals, the deck orders and the RNG state never change what a seat sees."""
    hands = [["1+", "3", "4", "5", "5", "OP"], ["2+", "2+", "4", "4", "4", "4"], ["3", "3", "5", "5", "OP", "OP"]]
    s = play(make(3, hands=hands, goals=[2, 5, 7], odeck=["B1", "B2", "B3", "G6", "Y7"], mdeck=["1+", "2+", "3"] * 4),
             (0, "done"), (0, "bid:R1:3"))
    assert s.phase == TRUMP
    assert '"OP"' not in json.dumps(E.view(s, None)) and '"2+"' not in json.dumps(E.view(s, 0))
    t = s.clone()
    t.hands[1], t.hands[2] = ["1+"] * 6, ["2+"] * 6
    t.goals[1], t.goals[2] = 6, 1
    t.odeck.reverse()
    t.mdeck.reverse()
    t.rng = s.rng + 1
    for seat in (None, 0):
        assert E.view(t, seat) == E.view(s, seat)
        text = json.dumps(E.view(s, seat))
        assert '"B1"' not in text and '"Y7"' not in text  # Object deck cards stay face down
    assert E.view(t, 1) != E.view(s, 1)  # the change was real: seat 1 sees its own hand and Goal


def test_end_view_shows_every_goal_and_breakdown() -> None:
    s = ended(2, [["R1", "R2", "R3", "R4"], []], [2, 3], ["5"] * 10)
    pub = E.view(s, None)
    assert pub["over"] and pub["outcome"] == E.outcome(s)
    assert [p["goal"] for p in pub["players"]] == [2, 3]
    assert "Straight Flush R1–R4: 8" in pub["players"][0]["breakdown"]
    assert pub["players"][0]["final_score"] == 11  # with R8 won at the end and Goal 2 (R2)


def test_running_score_in_view_leaves_out_the_goal() -> None:
    s = make(2, hands=[["3"] * 6, ["3"] * 6], colls=[["R2", "R3", "R4", "R5"], []], goals=[2, 3])
    assert E.view(s, None)["players"][0]["score"] == 8
    assert E.view(s, 0)["score_with_goal"] == 11


def test_labels_and_events() -> None:
    s = make(2, hands=[["1+", "3", "4", "5", "5", "OP"], ["2+", "2+", "4", "4", "4", "4"]])
    assert E.public_label(s, 0, "discard:1+") == "discards a 1+ (3 pips)"
    assert E.describe(s, "discard:1+") == "Discard a 1+ (3 pips)"
    s = play(s, (0, "discard:1+"), (0, "done"))
    assert E.public_label(s, 0, "bid:R1:1+,5") == "bids 1+ and 5 (6) on R1"
    assert E.describe(s, "bid:R1:5") == "Bid 5 on R1"
    assert E.describe(s, "bid:R1:OP") == "Play OP on R1: take it at once"
    assert "extra action" in E.events(s)[0]
    for action in E.legal_actions(s, 0):
        assert len(E.describe(s, action)) <= 100 and len(E.public_label(s, 0, action)) <= 100
    s2 = E.apply(s, 0, "bid:R1:3")
    assert E.events(s2) == []  # events are reset at each apply


def test_refusals_leave_state_unchanged() -> None:
    s = make(2, hands=[["1+", "3", "4", "5", "5", "OP"], ["2+", "2+", "4", "4", "4", "4"]])
    before = canonical(E.dump(s))
    for seat, action in [(1, "done"), (0, "fly"), (0, ""), (0, "bid"), (0, "raise:R1:4"), (0, "pass"),
                         (7, "done"), (0, "discard:"), (0, "discard:OP,3")]:
        assert_refuses(E, s, seat, action)
    assert canonical(E.dump(s)) == before


def test_bool_seats_and_bad_scoring_input_are_refused() -> None:
    s = make(2, active=1, hands=[["3"] * 6, ["1+", "3", "4", "5", "5", "OP"]])
    assert_refuses(E, s, True, "done")  # True == 1, but it is no seat
    assert E.legal_actions(s, True) == []
    with pytest.raises(ValueError):
        E.view(s, True)
    for goal in (True, 0, 9, "3"):
        with pytest.raises(ValueError):
            score_collection(["R1"], goal)  # type: ignore[arg-type]
    for cards in (["R1", None], ["R1", "R1"], ["R9"], ["RX"]):
        with pytest.raises(ValueError):
            score_collection(cards, None)  # type: ignore[arg-type]


def test_dump_load_roundtrip_and_apply_does_not_mutate() -> None:
    s = three_player_trump()
    d = E.dump(s)
    assert canonical(E.dump(E.load(json.loads(json.dumps(d))))) == canonical(d)
    before = canonical(d)
    E.apply(s, 2, "raise:R1:4")
    assert canonical(E.dump(s)) == before
