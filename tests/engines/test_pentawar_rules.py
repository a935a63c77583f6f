"""Pentawar rules (rules/pentawar.md), one or more tests per rule, with stacked states."""

from __future__ import annotations

import inspect
import json
from collections import Counter

import pytest

from data.editions import pentawar as edition
from engines import IllegalAction, get_engine
from engines.pentawar import ENGINE, PLACES, can_kill
from i18n import say_text
from tests.engines.harness import assert_refuses, canonical

E = ENGINE
WAR = ["citrine", "ruby", "sun", "moon", "shadow"]  # the seed examples: Sun across Citrine and Shadow
FULL = {"A": "ruby", "B": "ruby", "C": "moon", "D": "moon", "E": "ruby"}


def make_state(n: int = 2, war: list[str] | None = None, hands: list[list[str]] | None = None,
               wings: list[dict[str, str]] | None = None, tableau: list[str] | None = None,
               deck: list[str] | None = None, discard: list[str] | None = None, turn: int = 0,
               reshuffled: bool = False):
    """A stacked state. Unless ``deck`` is given, every card not placed goes to the deck (top last)."""
    s = E.new_game(n, 1)
    s.war = list(war or WAR)
    s.hands = [list(h) for h in (hands or [[] for _ in range(n)])]
    s.wings = [[(w or {}).get(p) for p in PLACES] for w in (wings or [{} for _ in range(n)])]
    s.tableau = list(tableau or [])
    s.discard = list(discard or [])
    placed = Counter(s.war) + Counter(s.tableau) + Counter(s.discard)
    for h in s.hands:
        placed += Counter(h)
    for w in s.wings:
        placed += Counter(k for k in w if k)
    if deck is None:
        rest = Counter(edition.DECK) - placed
        deck = [k for k in edition.KINDS for _ in range(rest[k])]
    s.deck = list(deck)
    s.turn = turn
    return s


def all_cards(s) -> Counter:
    c = Counter(s.war) + Counter(s.deck) + Counter(s.discard) + Counter(s.tableau)
    for h in s.hands:
        c += Counter(h)
    for w in s.wings:
        c += Counter(k for k in w if k)
    if s.pending:
        c[s.pending[1]] += 1
    return c


def wing(s, seat: int) -> dict[str, str]:
    return {p: k for p, k in zip(PLACES, s.wings[seat], strict=True) if k}


def acts(s, verb: str, seat: int | None = None) -> list[str]:
    return [a for a in E.legal_actions(s, s.turn if seat is None else seat) if a.split(":")[0] == verb]


# ---------------------------------------------------------------- the contract basics

def test_registry_and_attributes():
    assert get_engine("pentawar") is ENGINE
    assert (E.game_id, E.min_players, E.max_players) == ("pentawar", 2, 5)
    assert E.default_options == {}
    assert 8 <= len(E.summary.splitlines()) <= 25


def test_edition_ten_kinds_four_each_distinct_looks():
    assert len(edition.KINDS) == 10 and len(edition.DECK) == 40
    assert Counter(edition.DECK) == {k: 4 for k in edition.KINDS}
    assert set(edition.SEED_KINDS) == {"citrine", "sun", "forest", "shadow"}
    for table in (edition.NAMES, edition.ABBREVIATIONS, edition.COLOURS, edition.SIGILS):
        assert set(table) == set(edition.KINDS)
        assert len(set(table.values())) == 10


@pytest.mark.parametrize("n", [1, 6, 0])
def test_player_count_is_validated(n):
    with pytest.raises(ValueError):
        E.new_game(n, 3)


def test_unknown_option_refused():
    with pytest.raises(ValueError):
        E.new_game(3, 1, {"nope": 1})


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deals_war_hands_tableau(n):
    s = E.new_game(n, 42)
    assert len(s.war) == 5
    assert [len(h) for h in s.hands] == [2] * n
    assert len(s.tableau) == 2
    assert len(s.deck) == 40 - 5 - 2 * n - 2
    assert s.discard == [] and all(w == [None] * 5 for w in s.wings)
    assert all_cards(s) == Counter(edition.DECK)
    assert E.to_act(s) == [s.turn]


def test_first_player_is_random_and_seeded():
    firsts = {E.new_game(4, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert canonical(E.dump(E.new_game(4, 9))) == canonical(E.dump(E.new_game(4, 9)))


# ---------------------------------------------------------------- the across relation (rule helper)

def test_can_kill_has_the_contract_signature():
    assert list(inspect.signature(can_kill).parameters) == ["pentawar", "attacker", "target"]
    assert can_kill(pentawar=["citrine", "sun", "forest", "shadow", "ruby"], attacker="sun", target="shadow")


def test_can_kill_across_on_the_star():
    war = ["citrine", "sun", "forest", "shadow", "ruby"]
    for p, attacker in enumerate(war):
        for q, target in enumerate(war):
            expected = p == q or (q - p) % 5 in (2, 3)
            assert can_kill(war, attacker, target) is expected, (attacker, target)
    # position 0 is across from 2 and 3, not from its neighbours 1 and 4
    assert can_kill(war, "citrine", "forest") and can_kill(war, "citrine", "shadow")
    assert not can_kill(war, "citrine", "sun") and not can_kill(war, "citrine", "ruby")


def test_can_kill_own_kind_even_if_target_kind_only_there():
    war = ["citrine", "sun", "forest", "shadow", "ruby"]
    for k in war:
        assert can_kill(war, k, k)


def test_can_kill_attacker_must_be_in_pentawar():
    war = ["citrine", "sun", "forest", "shadow", "ruby"]
    assert not can_kill(war, "moon", "moon")
    assert not can_kill(war, "moon", "citrine")


def test_can_kill_target_not_in_pentawar_only_by_own_kind():
    war = ["citrine", "sun", "forest", "shadow", "ruby"]
    assert not any(can_kill(war, a, "moon") for a in war)


def test_can_kill_attacker_holding_several_positions_uses_all_of_them():
    war = ["sun", "sun", "forest", "shadow", "ruby"]
    # sun at 0 reaches 2 and 3; sun at 1 reaches 3 and 4
    assert can_kill(war, "sun", "forest") and can_kill(war, "sun", "shadow") and can_kill(war, "sun", "ruby")
    assert not can_kill(war, "forest", "shadow")  # neighbours
    assert can_kill(tuple(war), "ruby", "sun")


# ---------------------------------------------------------------- gather forces

def test_gather_draws_to_hand_then_turns_one_into_tableau():
    s = make_state(2, hands=[["moon"], []], deck=["frost", "ember", "storm"])
    s2 = E.apply(s, 0, "gather")
    assert sorted(s2.hands[0]) == ["moon", "storm"]
    assert s2.tableau == ["ember"] and s2.deck == ["frost"]
    assert s2.turn == 1 and E.events(s2) == ["An Ember is turned face up into the tableau."]


def test_gather_with_one_card_goes_to_hand_only():
    s = make_state(4, deck=["frost"], discard=["moon"], tableau=["sun"])
    assert "gather" in E.legal_actions(s, 0)
    assert E.describe(s, "gather") == "Gather forces: draw the last card"
    s2 = E.apply(s, 0, "gather")
    assert s2.hands[0] == ["frost"] and s2.tableau == ["sun"]


def test_gather_not_allowed_with_empty_deck():
    s = make_state(2, hands=[["moon"], []], deck=[])
    assert "gather" not in E.legal_actions(s, 0)
    assert_refuses(E, s, 0, "gather")


def test_pass_only_when_no_legal_action():
    s = make_state(2, deck=[])  # empty hand, empty tableau, empty deck
    assert E.legal_actions(s, 0) == ["pass"]
    s2 = E.apply(s, 0, "pass")
    assert E.is_over(s2)  # end of the turn with an empty deck (2 players)
    s3 = make_state(2, hands=[["moon"], []])
    assert_refuses(E, s3, 0, "pass")


# ---------------------------------------------------------------- strengthen flight wing

def test_strengthen_from_hand_and_from_tableau():
    s = make_state(2, hands=[["sun"], []], tableau=["citrine"])
    s2 = E.apply(s, 0, "wing:hand:sun:A")
    assert wing(s2, 0) == {"A": "sun"} and s2.hands[0] == []
    s3 = E.apply(s, 0, "wing:tableau:citrine:B")
    assert wing(s3, 0) == {"B": "citrine"} and s3.tableau == []


def test_strengthen_kind_must_be_in_pentawar():
    s = make_state(2, hands=[["forest"], []], tableau=["frost"])
    assert acts(s, "wing") == []
    assert_refuses(E, s, 0, "wing:hand:forest:A")
    assert_refuses(E, s, 0, "wing:tableau:frost:A")


@pytest.mark.parametrize("places, uncovered", [
    ("AB", "AB"),
    ("ABC", "BC"),     # C lies on A only
    ("ABD", "AD"),     # D lies on B only
    ("ABCD", "CD"),
    ("ABCDE", "E"),    # E lies on both C and D
])
def test_covering_layout_c_on_a_d_on_b_e_on_c_and_d(places, uncovered):
    """Only uncovered dragons may be killed; in this edition no card lies under two cards."""
    kinds = {"A": "sun", "B": "moon", "C": "citrine", "D": "sun", "E": "moon"}  # all killable by a Citrine
    target = {p: kinds[p] for p in places}
    s = make_state(2, hands=[["citrine"], []], wings=[{}, target])
    assert acts(s, "kill") == [f"kill:hand:citrine:1:{p}" for p in uncovered]
    for p in places:
        assert E.view(s, None)["wings"][1][p]["covered"] is (p not in uncovered)
        if p not in uncovered:
            assert_refuses(E, s, 0, f"kill:hand:citrine:1:{p}")


def test_rows_fill_in_order_player_chooses_in_lowest_open_row():
    s = make_state(2, hands=[["sun"], []])
    assert acts(s, "wing") == ["wing:hand:sun:A", "wing:hand:sun:B"]
    assert_refuses(E, s, 0, "wing:hand:sun:C")
    s = make_state(2, hands=[["sun"], []], wings=[{"B": "moon"}, {}])
    assert acts(s, "wing") == ["wing:hand:sun:A"]
    s = make_state(2, hands=[["sun"], []], wings=[{"A": "moon", "B": "moon"}, {}])
    assert acts(s, "wing") == ["wing:hand:sun:C", "wing:hand:sun:D"]
    assert_refuses(E, s, 0, "wing:hand:sun:E")
    s = make_state(2, hands=[["sun"], []], wings=[{"A": "moon", "B": "moon", "C": "sun"}, {}])
    assert acts(s, "wing") == ["wing:hand:sun:D"]
    s = make_state(2, hands=[["sun"], []], wings=[{"A": "moon", "B": "moon", "C": "sun", "D": "sun"}, {}])
    assert acts(s, "wing") == ["wing:hand:sun:E"]


def test_strengthen_not_allowed_with_five_in_wing():
    s = make_state(2, hands=[["sun"], []], wings=[FULL, {}])
    assert acts(s, "wing") == []
    assert_refuses(E, s, 0, "wing:hand:sun:E")


def test_freed_place_is_refilled_before_later_rows():
    # seat 1: A B C filled, D free -> B is uncovered; killing B frees row 1 again
    s = make_state(2, hands=[["ruby"], []], wings=[{}, {"A": "sun", "B": "ruby", "C": "moon"}])
    assert "kill:hand:ruby:1:B" in acts(s, "kill")
    s = E.apply(s, 0, "kill:hand:ruby:1:B")
    assert wing(s, 1) == {"A": "sun", "C": "moon"}
    s.hands[1] = ["sun"]
    assert acts(s, "wing") == ["wing:hand:sun:B"]  # row 1 before D
    s = E.apply(s, 1, "wing:hand:sun:B")
    s.hands[1] = ["sun"]
    s.turn = 1
    assert acts(s, "wing") == ["wing:hand:sun:D"]


def test_freed_place_in_row_two_is_refilled_before_row_three():
    s = make_state(2, hands=[["sun"], ["citrine"]], turn=1,
                   wings=[{"A": "moon", "B": "moon", "C": "ruby", "D": "sun"}, {}])
    s = E.apply(s, 1, "kill:hand:citrine:0:D")  # citrine (0) is across sun (2)
    assert wing(s, 0) == {"A": "moon", "B": "moon", "C": "ruby"}
    assert acts(s, "wing") == ["wing:hand:sun:D"]


# ---------------------------------------------------------------- kill

def test_kill_own_kind():
    s = make_state(2, hands=[["ruby"], []], wings=[{}, {"A": "ruby"}])
    assert acts(s, "kill") == ["kill:hand:ruby:1:A"]  # ruby (1) is across moon (3) and shadow (4) only
    s2 = E.apply(s, 0, "kill:hand:ruby:1:A")
    assert wing(s2, 1) == {} and s2.discard == ["ruby", "ruby"] and s2.hands[0] == []


def test_kill_across_and_not_neighbours():
    s = make_state(3, hands=[["citrine"], [], []],
                   wings=[{}, {"A": "sun", "B": "moon"}, {"A": "ruby", "B": "shadow"}])
    # citrine at 0: across 2 (sun) and 3 (moon); ruby (1) and shadow (4) are its neighbours
    assert acts(s, "kill") == ["kill:hand:citrine:1:A", "kill:hand:citrine:1:B"]
    assert_refuses(E, s, 0, "kill:hand:citrine:2:A")
    assert_refuses(E, s, 0, "kill:hand:citrine:2:B")


def test_kill_attacker_must_be_in_pentawar():
    s = make_state(2, hands=[["forest"], []], wings=[{}, {"A": "forest"}])
    assert acts(s, "kill") == []
    assert_refuses(E, s, 0, "kill:hand:forest:1:A")


def test_kill_with_an_attacker_holding_several_positions():
    # Sun at 0 is across 2 (forest) and 3 (shadow); Sun at 1 is across 3 (shadow) and 4 (ruby)
    war = ["sun", "sun", "forest", "shadow", "ruby"]
    s = make_state(3, war=war, hands=[["sun"], [], []],
                   wings=[{}, {"A": "ruby", "B": "forest"}, {"A": "shadow", "B": "moon"}])
    assert acts(s, "kill") == ["kill:hand:sun:1:A", "kill:hand:sun:1:B", "kill:hand:sun:2:A"]
    assert_refuses(E, s, 0, "kill:hand:sun:2:B")
    s2 = E.apply(s, 0, "kill:hand:sun:1:A")
    assert wing(s2, 1) == {"B": "forest"} and s2.discard == ["sun", "ruby"]


def test_kill_with_a_tableau_card_after_alter_war():
    s = make_state(2, hands=[["frost"], []], tableau=["citrine"], wings=[{}, {"A": "frost"}])
    assert acts(s, "kill") == []
    s = E.apply(E.apply(s, 0, "alter:hand:frost"), 0, "replace:2")   # Frost at 2 is across Citrine at 0
    assert E.legal_actions(s, 0) == ["kill:tableau:citrine:1:A", "skip"]
    s = E.apply(s, 0, "kill:tableau:citrine:1:A")
    assert s.tableau == [] and wing(s, 1) == {} and s.discard == ["sun", "citrine", "frost"]


def test_kill_from_tableau():
    s = make_state(2, tableau=["sun", "moon"], wings=[{}, {"A": "shadow"}])
    assert acts(s, "kill") == ["kill:tableau:sun:1:A"]
    s2 = E.apply(s, 0, "kill:tableau:sun:1:A")
    assert s2.tableau == ["moon"] and s2.discard == ["sun", "shadow"]


def test_kill_only_another_players_wing():
    s = make_state(2, hands=[["sun"], []], wings=[{"A": "sun"}, {}])
    assert acts(s, "kill") == []
    assert_refuses(E, s, 0, "kill:hand:sun:0:A")


def test_kill_needs_an_uncovered_target():
    s = make_state(2, hands=[["sun"], []], wings=[{}, {"A": "sun", "C": "ruby"}])
    assert acts(s, "kill") == []
    assert_refuses(E, s, 0, "kill:hand:sun:1:A")
    assert_refuses(E, s, 0, "kill:hand:sun:1:B")  # empty place


def test_seed_example_covered_sun_is_protected():
    """Seed: a Citrine attacks a wing of Citrine, Sun and a Forest on the Sun: only the Citrine dies."""
    s = make_state(2, hands=[["citrine"], []], wings=[{}, {"A": "sun", "B": "citrine", "C": "forest"}])
    assert can_kill(s.war, "citrine", "sun")  # normally it could kill the Sun...
    assert acts(s, "kill") == ["kill:hand:citrine:1:B"]  # ...but the Sun is covered by the Forest
    assert_refuses(E, s, 0, "kill:hand:citrine:1:A")
    assert_refuses(E, s, 0, "kill:hand:citrine:1:C")
    s2 = E.apply(s, 0, "kill:hand:citrine:1:B")
    assert wing(s2, 1) == {"A": "sun", "C": "forest"}
    assert s2.discard == ["citrine", "citrine"]


def test_seed_example_alter_war_forest_replaces_sun_then_shadow_kills_forest():
    s = make_state(2, hands=[["shadow"], []], tableau=["forest"],
                   wings=[{}, {"A": "sun", "B": "citrine", "C": "forest"}])
    assert "kill:hand:shadow:1:C" not in acts(s, "kill")  # before: Shadow is across Ruby and Sun only
    s = E.apply(s, 0, "alter:tableau:forest")
    assert s.phase == "alter" and E.to_act(s) == [0] and s.tableau == []
    assert E.legal_actions(s, 0) == [f"replace:{p}" for p in range(5)]
    assert E.describe(s, "replace:2") == "Put Forest on position 2, replacing the Sun"
    s = E.apply(s, 0, "replace:2")
    assert s.war == ["citrine", "ruby", "forest", "moon", "shadow"] and s.discard == ["sun"]
    assert s.phase == "alter_kill" and E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == ["kill:hand:shadow:1:C", "skip"]
    assert E.describe(s, "kill:hand:shadow:1:C") == "Kill {p1}'s Forest (row 2) with Shadow from hand"
    s = E.apply(s, 0, "kill:hand:shadow:1:C")
    assert s.discard == ["sun", "shadow", "forest"]
    assert wing(s, 1) == {"A": "sun", "B": "citrine"}
    assert s.turn == 1 and s.phase == "turn"


# ---------------------------------------------------------------- alter war

def test_alter_any_kind_replaces_and_discards():
    s = make_state(2, hands=[["frost"], []])
    assert acts(s, "alter") == ["alter:hand:frost"]
    s = E.apply(s, 0, "alter:hand:frost")
    s = E.apply(s, 0, "replace:0")
    assert s.war[0] == "frost" and s.discard == ["citrine"]
    assert s.turn == 1  # no kill possible (nothing in any wing): the turn ends at once
    assert E.events(s) == ["No kill is possible against the new pentawar: the turn ends."]


def test_alter_kill_is_optional():
    s = make_state(2, hands=[["frost", "sun"], []], wings=[{}, {"A": "sun"}])
    s = E.apply(E.apply(s, 0, "alter:hand:frost"), 0, "replace:0")
    assert E.legal_actions(s, 0) == ["kill:hand:sun:1:A", "skip"]
    s2 = E.apply(s, 0, "skip")
    assert s2.turn == 1 and wing(s2, 1) == {"A": "sun"} and s2.hands[0] == ["sun"]


def test_alter_kill_uses_the_new_pentawar():
    # Ember is not in the pentawar; put on position 3 it is across Citrine (0) and may kill it
    s = make_state(2, hands=[["ember", "ember"], []], wings=[{}, {"A": "citrine"}])
    assert acts(s, "kill") == []
    s = E.apply(E.apply(s, 0, "alter:hand:ember"), 0, "replace:3")
    assert E.legal_actions(s, 0) == ["kill:hand:ember:1:A", "skip"]


def test_alter_only_replace_then_only_kill_or_skip():
    s = make_state(2, hands=[["frost", "sun"], []], wings=[{}, {"A": "sun"}])
    s = E.apply(s, 0, "alter:hand:frost")
    for bad in ("gather", "skip", "replace:5", "replace:x", "wing:hand:sun:A", "kill:hand:sun:1:A"):
        assert_refuses(E, s, 0, bad)
    s = E.apply(s, 0, "replace:0")
    for bad in ("gather", "replace:1", "alter:hand:sun", "wing:hand:sun:A", "pass"):
        assert_refuses(E, s, 0, bad)


def test_only_one_card_played_outside_alter_war():
    s = make_state(2, hands=[["sun", "sun"], []], wings=[{}, {"A": "sun", "B": "sun"}])
    s = E.apply(s, 0, "kill:hand:sun:1:A")
    assert s.turn == 1 and s.phase == "turn"


# ---------------------------------------------------------------- end of the game

def test_game_ends_at_start_of_turn_with_five_in_wing():
    s = make_state(3, wings=[{}, FULL, {}], hands=[["moon"], [], []])
    s2 = E.apply(s, 0, "gather")
    assert E.is_over(s2) and E.to_act(s2) == [] and E.legal_actions(s2, 1) == []
    assert s2.end_reason == "{p1} starts a turn with 5 dragons in the flight wing"
    assert E.outcome(s2) == [2, 1, 3]


def test_five_in_wing_killed_before_the_turn_does_not_end():
    s = make_state(3, wings=[{}, FULL, {}], hands=[["ruby"], [], []])
    s2 = E.apply(s, 0, "kill:hand:ruby:1:E")
    assert not E.is_over(s2) and E.to_act(s2) == [1]


@pytest.mark.parametrize("n", [2, 3])
def test_small_game_ends_when_deck_runs_out(n):
    s = make_state(n, deck=["frost", "ember"], discard=["moon"])
    s2 = E.apply(s, 0, "gather")
    assert E.is_over(s2) and s2.end_reason == "the deck ran out"
    s = make_state(n, deck=["frost"])
    assert E.is_over(E.apply(s, 0, "gather"))


@pytest.mark.parametrize("n", [4, 5])
def test_big_game_reshuffles_discards_once_then_ends(n):
    s = make_state(n, deck=["frost", "ember"], discard=["moon", "sun", "storm"])
    s = E.apply(s, 0, "gather")
    assert not E.is_over(s) and s.reshuffled
    assert sorted(s.deck) == ["moon", "storm", "sun"] and s.discard == []
    assert E.events(s)[-1] == "The deck ran out: the discard pile (3 cards) is shuffled into a new deck."
    # counted in each language's plural: one card is "1 card", "1 carte", "1 карта"
    one = E.apply(make_state(n, deck=["frost", "ember"], discard=["moon"]), 0, "gather")
    said_one = E.events(one)[-1]
    assert said_one == "The deck ran out: the discard pile (1 card) is shuffled into a new deck."
    assert "(1 carte)" in say_text("fr", said_one) and "(3 cartes)" in say_text("fr", E.events(s)[-1])
    assert "(1 карта)" in say_text("uk", said_one) and "(3 карти)" in say_text("uk", E.events(s)[-1])
    assert E.view(s, None)["reshuffle"] == {"allowed": True, "done": True}
    s = E.apply(s, 1, "gather")
    assert not E.is_over(s) and len(s.deck) == 1
    s = E.apply(s, 2, "gather")
    assert E.is_over(s) and s.end_reason == "the deck ran out a second time"


@pytest.mark.parametrize("n", [4, 5])
def test_big_game_ends_if_discard_empty_at_first_run_out(n):
    s = make_state(n, deck=["frost", "ember"])
    s = E.apply(s, 0, "gather")
    assert E.is_over(s) and s.end_reason == "the deck ran out and the discard pile is empty"


def test_deck_end_checked_before_next_players_start():
    s = make_state(4, deck=["frost", "ember"], discard=["moon"], wings=[{}, FULL, {}, {}])
    s = E.apply(s, 0, "gather")
    assert E.is_over(s) and "5 dragons" in s.end_reason and s.reshuffled


def test_random_reshuffle_is_seeded():
    a = make_state(4, deck=["frost", "ember"], discard=list(edition.KINDS))
    b = E.load(E.dump(a))
    assert E.apply(a, 0, "gather").deck == E.apply(b, 0, "gather").deck


# ---------------------------------------------------------------- winner and tie-breakers

def test_most_wing_dragons_wins():
    s = make_state(3, wings=[{"A": "frost"}, {"A": "frost", "B": "frost"}, {}], deck=["frost"])
    s.hands = [["sun"] * 3, [], []]
    s = E.apply(s, 0, "gather")
    assert E.is_over(s) and E.outcome(s) == [2, 1, 3]
    assert E.events(s)[-1] == "{p1} wins."


def test_first_tie_breaker_wing_dragons_in_final_pentawar():
    s = make_state(3, wings=[{"A": "frost", "B": "sun"}, {"A": "sun", "B": "moon"}, {"A": "frost", "B": "ember"}],
                   deck=["frost"])
    s.hands = [[], [], ["ruby"] * 5]
    s = E.apply(s, 0, "gather")  # seat 0 ends with 1 card in hand
    assert E.outcome(s) == [2, 1, 3]
    assert E.view(s, None)["standings"] == [[2, 1, 1], [2, 2, 0], [2, 0, 5]]


def test_tie_breaker_uses_final_pentawar_after_alter():
    s = make_state(2, wings=[{"A": "frost"}, {"A": "sun"}], hands=[["frost", "ember", "ember"], []], deck=["moon"])
    assert E.outcome(s) == [2, 1]  # frost is not in the pentawar yet
    s = E.apply(E.apply(s, 0, "alter:hand:frost"), 0, "replace:1")  # frost in, ruby out; sun stays
    s = E.apply(s, 1, "gather")  # seat 1 draws the last card: game over
    assert E.is_over(s)
    assert E.view(s, None)["standings"] == [[1, 1, 2], [1, 1, 1]]
    assert E.outcome(s) == [1, 2]


def test_first_tie_breaker_counts_dragons_not_kinds():
    # seat 0: two Suns in the pentawar (one kind); seat 1: one Citrine (one kind) but more cards in hand
    s = make_state(2, wings=[{"A": "sun", "B": "sun", "C": "frost"}, {"A": "citrine", "B": "frost", "C": "frost"}],
                   deck=["ember"])
    s.hands = [[], ["ruby"] * 3]
    s = E.apply(s, 0, "gather")
    assert E.view(s, None)["standings"] == [[3, 2, 1], [3, 1, 3]]
    assert E.outcome(s) == [1, 2]


def test_second_tie_breaker_most_cards_in_hand():
    s = make_state(3, wings=[{"A": "sun"}, {"A": "sun"}, {"A": "moon"}], deck=["frost"])
    s.hands = [[], ["ruby", "ruby"], ["ruby"] * 3]
    s = E.apply(s, 0, "gather")  # seat 0 now holds 1 card
    assert E.outcome(s) == [3, 2, 1]


def test_still_tied_players_share_the_victory():
    s = make_state(4, wings=[{"A": "sun"}, {"A": "moon"}, {}, {"A": "sun"}], deck=["frost"], discard=[])
    s.hands = [[], ["ruby"], ["ruby"] * 3, []]
    s = E.apply(s, 0, "gather")
    assert E.is_over(s) and E.outcome(s) == [1, 1, 4, 3]
    assert E.events(s)[-1] == "{p0} and {p1} share the victory."


# ---------------------------------------------------------------- refusals

def test_refusals_leave_state_unchanged():
    s = make_state(3, hands=[["sun"], ["moon"], []], tableau=["ruby"], wings=[{}, {"A": "sun"}, {}])
    for bad in ("", "dance", "gather:1", "wing", "wing:hand:sun", "wing:pocket:sun:A", "wing:hand:dragon:A",
                "wing:hand:moon:A", "wing:tableau:sun:A", "kill:hand:sun:9:A", "kill:hand:sun:1:Z",
                "kill:hand:sun:x:A", "kill:hand:sun:2:A", "kill:hand:sun:0:A", "alter:hand:moon",
                "alter:hand", "replace:1", "skip", "pass", "kill:hand:sun:1:A:extra"):
        assert_refuses(E, s, 0, bad)
    assert_refuses(E, s, 1, "gather")  # not your turn
    assert_refuses(E, s, 7, "gather")  # no such seat
    s.turn = 1
    assert E.legal_actions(s, True) == [] and E.legal_actions(s, 3) == []  # True is not seat 1
    assert_refuses(E, s, True, "gather")
    with pytest.raises(IllegalAction):
        E.apply(s, 0, None)  # type: ignore[arg-type]


def test_refusal_reasons_are_readable():
    s = make_state(2, hands=[["sun", "forest"], []], wings=[{}, {"A": "sun", "C": "ruby"}])
    cases = {
        "wing:hand:forest:A": "Forest is not in the pentawar.",
        "wing:hand:sun:C": "fill the lowest open row",
        "kill:hand:sun:1:A": "covered and protected",
        "kill:hand:moon:1:C": "You have no Moon in your hand.",
        "kill:hand:sun:0:A": "own flight wing",
        "pass": "only pass when no other action",
    }
    for action, reason in cases.items():
        with pytest.raises(IllegalAction, match=reason):
            E.apply(s, 0, action)
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(s, 1, "gather")


def test_game_over_refuses_everything():
    s = E.apply(make_state(2, deck=["frost"]), 0, "gather")
    assert E.is_over(s)
    with pytest.raises(IllegalAction, match="over"):
        E.apply(s, 1, "gather")


# ---------------------------------------------------------------- views, labels, persistence

def test_public_view_shows_table_not_hands():
    s = make_state(3, hands=[["frost"], ["ember", "ember"], []], tableau=["storm"],
                   wings=[{}, {"A": "sun", "B": "citrine", "C": "forest"}, {}])
    v = E.view(s, None)
    for key in ("game", "num_players", "status", "to_act", "over", "pentawar", "tableau", "deck_count",
                "discard_count", "wings", "hand_counts", "turn", "reshuffle"):
        assert key in v
    assert "hand" not in v and "seat" not in v and "deck" not in v and "rng" not in v
    assert v["hand_counts"] == [1, 2, 0]
    assert v["wings"][1]["A"] == {"kind": "sun", "covered": True}
    assert v["wings"][1]["C"] == {"kind": "forest", "covered": False}
    assert v["wings"][1]["E"] is None
    assert v["reshuffle"] == {"allowed": False, "done": False}
    seat_view = E.view(s, 1)
    assert seat_view["seat"] == 1 and seat_view["hand"] == ["ember", "ember"]
    assert "frost" not in str(seat_view)


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_view_refuses_a_seat_that_is_not_at_the_table(seat):
    s = make_state(2, hands=[["frost"], ["ember"]])
    with pytest.raises(ValueError):
        E.view(s, seat)


def test_describe_and_public_label():
    s = make_state(2, hands=[["sun"], []], tableau=["frost"], wings=[{}, {"A": "moon", "B": "citrine"}])
    s.wings[1][2] = "citrine"  # C on A
    assert E.describe(s, "kill:hand:sun:1:C") == "Kill {p1}'s Citrine (row 2) with Sun from hand"
    assert E.public_label(s, 0, "kill:hand:sun:1:C") == "kills {p1}'s Citrine (row 2) with Sun from hand"
    assert E.describe(s, "wing:hand:sun:D") == "Strengthen: Sun from hand to place D (row 2)"
    assert E.describe(s, "alter:tableau:frost") == "Alter war with Frost from the tableau"
    assert E.public_label(s, 0, "gather") == "gathers forces: draws a card, turns one into the tableau"
    for a in E.legal_actions(s, 0):
        assert 0 < len(E.describe(s, a)) <= 100 and 0 < len(E.public_label(s, 0, a)) <= 100


def test_events_reset_each_apply_and_gather_event_hides_drawn_card():
    s = make_state(2, hands=[["moon"], ["moon"]], deck=["sapphire", "ember", "storm"])
    s = E.apply(s, 0, "gather")
    assert E.events(s) == ["An Ember is turned face up into the tableau."]  # storm (drawn) not named
    s = E.apply(s, 1, "alter:hand:moon")
    assert E.events(s) == []


def test_dump_load_roundtrip_and_apply_does_not_mutate():
    s = make_state(3, hands=[["frost", "sun"], [], []], wings=[{}, {"A": "sun"}, {}])
    before = canonical(E.dump(s))
    s2 = E.apply(s, 0, "alter:hand:frost")
    assert canonical(E.dump(s)) == before
    d = E.dump(s2)
    assert canonical(E.dump(E.load(d))) == canonical(d)


def test_view_records_the_altered_position_until_the_next_turn():
    s = make_state(2, hands=[["frost", "sun"], ["moon"]], wings=[{}, {"A": "sun"}])
    assert E.view(s, None)["altered"] is None
    s = E.apply(s, 0, "alter:hand:frost")
    assert E.view(s, None)["altered"] is None  # chosen, not yet placed
    s = E.apply(s, 0, "replace:1")
    want = {"position": 1, "kind": "frost", "replaced": "ruby", "seat": 0}
    assert s.phase == "alter_kill" and E.view(s, None)["altered"] == want  # during the optional kill
    s = E.apply(s, 0, "skip")
    assert s.turn == 1
    assert E.view(s, None)["altered"] == want  # the next player still sees what changed
    assert E.view(s, 1)["altered"] == want  # private views too
    s = E.apply(s, 1, "gather")
    assert E.view(s, None)["altered"] is None  # the next turn's first action clears it


def test_altered_position_after_a_turn_that_ends_at_once_and_a_second_alter():
    s = make_state(2, hands=[["frost"], ["ember"]])
    s = E.apply(E.apply(s, 0, "alter:hand:frost"), 0, "replace:0")
    assert s.turn == 1  # no kill possible: the turn ended with the replace
    assert E.view(s, None)["altered"] == {"position": 0, "kind": "frost", "replaced": "citrine", "seat": 0}
    s = E.apply(s, 1, "alter:hand:ember")
    assert E.view(s, None)["altered"] is None
    s = E.apply(s, 1, "replace:4")
    assert E.view(s, None)["altered"] == {"position": 4, "kind": "ember", "replaced": "shadow", "seat": 1}


def test_dumps_hold_altered_only_while_set_and_old_snapshots_load():
    s = make_state(2, hands=[["frost", "sun"], ["moon"]], wings=[{}, {"A": "sun"}])
    assert "altered" not in E.dump(s)  # unchanged bytes for states without an Alter war to show
    s = E.apply(E.apply(s, 0, "alter:hand:frost"), 0, "replace:2")
    d = E.dump(s)
    assert d["altered"] == [2, "sun", 0]
    assert canonical(E.dump(E.load(json.loads(canonical(d))))) == canonical(d)  # byte-stable
    old = {k: v for k, v in d.items() if k != "altered"}  # a snapshot written before the field existed
    loaded = E.load(old)
    assert loaded.altered is None and E.view(loaded, None)["altered"] is None
    assert canonical(E.dump(loaded)) == canonical(old)
    assert E.legal_actions(loaded, 0) == E.legal_actions(s, 0)


def test_replaying_an_old_game_gives_its_old_snapshot_when_no_alter_is_showing():
    # A stored snapshot from before the field: replaying its log now writes the same bytes.
    s = make_state(2, hands=[["frost"], ["moon"]])
    log = [(0, "alter:hand:frost"), (0, "replace:1"), (1, "gather")]
    for seat, action in log:
        s = E.apply(s, seat, action)
    assert s.altered is None and "altered" not in E.dump(s)
