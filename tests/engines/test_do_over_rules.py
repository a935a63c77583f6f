"""One or more tests per rule and table option of rules/do-over.md, with stacked states."""

from __future__ import annotations

import inspect
import json
from collections import Counter

import pytest

from data.editions import do_over as edition
from engines import IllegalAction, get_engine
from engines.contract import Engine
from engines.do_over import pile_value
from tests.engines.harness import assert_refuses, assert_roundtrip, canonical, json_strings

E = get_engine("do_over")


def make(n: int = 3, hands: list[list[str]] | None = None, up: list[list[str | None]] | None = None,
         down: list[list[str | None]] | None = None, pile: list[str] | None = None, draw: list[str] | None = None,
         cur: int = 0, direction: int = 1, options: dict | None = None, turns: int = 0):
    """A play-phase state with stacked cards (card totals need not be 54 here)."""
    d = E.dump(E.new_game(n, 1, options))
    d.update({
        "phase": "play", "dealt_up": None, "ready": [True] * n,
        "hands": hands if hands is not None else [["9", "10", "11"] for _ in range(n)],
        "up": up if up is not None else [["2", "3", "4"] for _ in range(n)],
        "down": down if down is not None else [["5", "6", "7"] for _ in range(n)],
        "pile": pile or [], "draw": draw or [], "removed": [],
        "current": cur, "direction": direction, "turns": turns,
    })
    return E.load(d)


def all_cards(state) -> Counter:
    d = E.dump(state)
    cards = Counter(d["draw"] + d["pile"] + d["removed"])
    for s in range(d["n"]):
        cards.update(d["hands"][s])
        cards.update(c for c in d["up"][s] + d["down"][s] if c is not None)
    return cards


def ready_all(state):
    for s in range(state.n):
        state = E.apply(state, s, "ready")
    return state


# ------------------------------------------------------------------ the rule helper
@pytest.mark.parametrize("pile, value", [
    ([], 0),
    (["7"], 7),
    (["3", "9"], 9),
    (["9", "3"], 3),
    (["11"], 11),
    (["9", "DO"], 0),
    (["DO", "4"], 4),
    (["3", "9", "REV"], 9),
    (["3", "9", "REV", "REV"], 9),
    (["REV"], 0),
    (["REV", "REV"], 0),
    (["8", "DO", "REV"], 0),
    (["8", "DO", "REV", "REV"], 0),
    (["DO", "5", "REV"], 5),
    (["BOMB"], 0),
    (["7", "BOMB", "REV"], 0),
])
def test_pile_value_helper(pile, value):
    assert pile_value(pile) == value


@pytest.mark.parametrize("pile, value", [
    (["8", "DO", "REV"], 0),
    (["8", "DO", "REV", "REV"], 0),
    (["REV"], 0),
    (["REV", "REV"], 0),
    (["9", "REV", "REV"], 9),
    (["2", "DO", "6", "REV"], 6),
])
def test_the_engine_uses_the_pile_value_rule(pile, value):
    """What may be played follows pile_value: a Reverse looks down past Reverses; Do Over! or nothing gives 0."""
    st = make(hands=[["1", "6", "9", "10"], ["1"], ["1"]], pile=pile)
    assert E.view(st, None)["pile_value"] == value == pile_value(pile)
    assert E.legal_actions(st, 0) == [f"play:{c}" for c in ("1", "6", "9", "10") if int(c) >= value] + ["take"]
    if value > 1:
        assert_refuses(E, st, 0, "play:1")
    else:
        E.apply(st, 0, "play:1")


def test_pile_value_is_pure():
    pile = ["3", "9", "REV"]
    pile_value(pile)
    assert pile == ["3", "9", "REV"]


def test_pile_value_has_the_contract_signature():
    assert list(inspect.signature(pile_value).parameters) == ["pile"]
    assert pile_value(pile=("3", "9", "REV")) == 9


# ------------------------------------------------------------------ cards and players
def test_deck_has_54_cards_numbers_1_to_11_four_each_and_the_specials():
    deck = Counter(edition.DECK)
    assert sum(deck.values()) == 54
    for v in range(1, 12):
        assert deck[str(v)] == 4
    assert deck["BOMB"] == 4 and deck["DO"] == 4 and deck["REV"] == 2
    assert all_cards(E.new_game(4, 5)) == deck


def test_engine_attributes_and_options():
    assert isinstance(E, Engine)
    assert E.game_id == "do_over" and E.min_players == 2 and E.max_players == 6
    assert E.default_options == {"allow_voluntary_take": True, "max_turns": 1000}
    assert 10 <= len(E.summary.splitlines()) <= 20


@pytest.mark.parametrize("n", [0, 1, 7, True, "3"])
def test_player_count_outside_2_to_6_is_refused(n):
    with pytest.raises(ValueError):
        E.new_game(n, 1)


@pytest.mark.parametrize("options", [{"bogus": 1}, {"allow_voluntary_take": 1}, {"max_turns": 0},
                                     {"max_turns": True}, {"max_turns": "9"}])
def test_bad_options_are_refused(options):
    with pytest.raises(ValueError):
        E.new_game(3, 1, options)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_three_piles_and_a_hand_of_three(n):
    st = E.new_game(n, 11)
    d = E.dump(st)
    for s in range(n):
        assert len(d["hands"][s]) == 3
        assert None not in d["up"][s] and len(d["up"][s]) == 3
        assert None not in d["down"][s] and len(d["down"][s]) == 3
    assert len(d["draw"]) == 54 - 9 * n
    assert d["pile"] == [] and E.view(st, None)["pile_value"] == 0


def test_with_six_players_all_54_cards_are_dealt_and_the_draw_pile_is_empty():
    st = E.new_game(6, 3)
    assert E.view(st, None)["draw_count"] == 0
    assert all_cards(st) == Counter(edition.DECK)


def test_random_dealer_and_the_player_left_of_the_dealer_starts():
    dealers = set()
    for seed in range(40):
        st = ready_all(E.new_game(4, seed))
        v = E.view(st, None)
        dealers.add(v["dealer"])
        assert v["current"] == (v["dealer"] + 1) % 4
        assert E.to_act(st) == [(v["dealer"] + 1) % 4]
    assert dealers == {0, 1, 2, 3}


def test_new_game_is_deterministic_per_seed():
    assert canonical(E.dump(E.new_game(4, 99))) == canonical(E.dump(E.new_game(4, 99)))
    assert canonical(E.dump(E.new_game(4, 99))) != canonical(E.dump(E.new_game(4, 100)))


# ------------------------------------------------------------------ swap step
def test_swap_step_everyone_acts_at_once_and_play_begins_when_all_are_ready():
    st = E.new_game(3, 2)
    assert E.to_act(st) == [0, 1, 2]
    assert all("ready" in E.legal_actions(st, s) for s in range(3))
    st = E.apply(st, 1, "ready")
    assert E.to_act(st) == [0, 2]
    assert E.legal_actions(st, 1) == []
    assert_refuses(E, st, 1, "ready")
    st = E.apply(st, 2, "ready")
    assert E.view(st, None)["phase"] == "swap"
    st = E.apply(st, 0, "ready")
    v = E.view(st, None)
    assert v["phase"] == "play" and E.to_act(st) == [(v["dealer"] + 1) % 3]
    assert E.events(st) == [f"Everyone is ready: play begins with {{p{(v['dealer'] + 1) % 3}}}"]


def test_swap_exchanges_a_hand_card_with_a_face_up_reserve_card_any_number_of_times():
    st = E.new_game(3, 2)
    hand = E.view(st, 0)["hand"]
    up = E.view(st, 0)["seats"][0]["up"]
    card = next(c for c in hand if c != up[1])
    st2 = E.apply(st, 0, f"swap:{card}:1")
    v = E.view(st2, 0)
    assert v["seats"][0]["up"][1] == card
    assert sorted(v["hand"]) == sorted((Counter(hand) - Counter([card]) + Counter([up[1]])).elements())
    assert all_cards(st2) == Counter(edition.DECK)
    # swap it back, and again: no limit before "ready"
    st3 = E.apply(st2, 0, f"swap:{up[1]}:1")
    assert E.view(st3, 0)["seats"][0]["up"] == up
    assert E.to_act(st3) == [0, 1, 2]


def test_swap_is_private_others_and_public_see_the_face_up_cards_as_dealt():
    st = E.new_game(3, 2)
    dealt = E.view(st, None)["seats"][0]["up"]
    hand = E.view(st, 0)["hand"]
    card = next(c for c in hand if c not in dealt)
    label = E.public_label(st, 0, f"swap:{card}:0")
    assert card not in label and dealt[0] not in label
    st = E.apply(st, 0, f"swap:{card}:0")
    for viewer in (None, 1, 2):
        seat0 = E.view(st, viewer)["seats"][0]
        assert seat0["up"] == dealt and seat0["up_as_dealt"]
    assert E.view(st, 0)["seats"][0]["up"][0] == card
    assert E.events(st) == []
    st = ready_all(st)
    assert E.view(st, None)["seats"][0]["up"][0] == card


def test_swap_refusals():
    st = E.new_game(3, 2)
    hand = E.view(st, 0)["hand"]
    missing = next(c for c in edition.CODES if c not in hand)
    up0 = E.view(st, 0)["seats"][0]["up"][0]
    assert_refuses(E, st, 0, f"swap:{missing}:0")          # not in the Hand
    assert_refuses(E, st, 0, f"swap:{hand[0]}:3")          # no such pile
    assert_refuses(E, st, 0, f"swap:{hand[0]}")            # garbled
    assert_refuses(E, st, 0, "swap:ZZ:0")                  # not a card
    assert_refuses(E, st, 0, "play:5")                     # not playing yet
    assert_refuses(E, st, 0, "take")
    assert_refuses(E, st, 0, "ready:")                     # only "ready" itself
    assert_refuses(E, st, 0, "ready:now")
    if up0 in hand:
        assert_refuses(E, st, 0, f"swap:{up0}:0")          # a no-op swap
    st = E.apply(st, 0, "ready")
    assert_refuses(E, st, 0, f"swap:{hand[0]}:1")          # already ready
    st = ready_all_but(st, 0)
    assert_refuses(E, st, E.to_act(st)[0], f"swap:{hand[0]}:1")  # the swap step is over


def ready_all_but(state, done: int):
    for s in range(state.n):
        if s != done:
            state = E.apply(state, s, "ready")
    return state


def test_swap_step_is_not_a_turn():
    st = ready_all(E.apply(E.new_game(2, 4), 0, E.legal_actions(E.new_game(2, 4), 0)[0]))
    assert E.view(st, None)["turns"] == 0


# ------------------------------------------------------------------ pile value and discarding
def test_discard_must_equal_or_beat_the_pile_value():
    st = make(hands=[["6", "7", "8"], [], []], pile=["7"])
    assert E.legal_actions(st, 0) == ["play:7", "play:8", "take"]
    assert_refuses(E, st, 0, "play:6")
    st2 = E.apply(st, 0, "play:7")  # equal is fine
    assert E.view(st2, None)["pile"] == ["7", "7"]


@pytest.mark.parametrize("special", ["BOMB", "DO", "REV"])
def test_special_cards_may_be_played_on_any_value(special):
    st = make(hands=[["1", special, "2"], [], []], pile=["11"])
    assert E.legal_actions(st, 0) == [f"play:{special}", "take"]
    E.apply(st, 0, f"play:{special}")


def test_eleven_is_the_highest_card_and_has_no_power():
    st = make(hands=[["11", "10", "9"], ["1", "2", "3"], []], pile=["10"])
    st = E.apply(st, 0, "play:11")
    v = E.view(st, None)
    assert v["pile_value"] == 11 and v["current"] == 1 and v["direction"] == "clockwise"
    assert E.legal_actions(st, 1) == ["take"]


def test_turn_passes_clockwise_to_the_next_seat():
    st = make(n=4, cur=3, pile=["2"])
    st = E.apply(st, 3, "play:9")
    assert E.to_act(st) == [0]


# ------------------------------------------------------------------ sources
def test_hand_first_reserve_refused_while_the_hand_has_cards():
    st = make(hands=[["9"], [], []], up=[["10", "11", "3"], ["1", "1", "1"], ["1", "1", "1"]])
    assert E.legal_actions(st, 0) == ["play:9"]
    assert_refuses(E, st, 0, "up:0")
    assert_refuses(E, st, 0, "flip:0")


def test_face_up_reserve_cards_in_any_order_once_the_hand_is_empty():
    st = make(hands=[[], ["1"], ["1"]], up=[["10", "3", "11"], ["1"] * 3, ["1"] * 3], pile=["5"])
    assert E.legal_actions(st, 0) == ["up:0", "up:2", "take"]
    assert_refuses(E, st, 0, "up:1")            # 3 is too low
    assert_refuses(E, st, 0, "play:10")         # nothing in the Hand
    assert_refuses(E, st, 0, "flip:0")          # face-up cards first
    st = E.apply(st, 0, "up:2")
    v = E.view(st, None)["seats"][0]
    assert v["up"] == ["10", "3", None]
    # the face-down card beneath is not flipped
    assert v["down"] == [1, 1, 1] and v["down_count"] == 3 and v["cards_left"] == 5


def test_identical_face_up_cards_are_addressed_by_pile():
    st = make(hands=[[], ["1"], ["1"]], up=[["7", "7", "2"], ["1"] * 3, ["1"] * 3], pile=["5"])
    assert E.legal_actions(st, 0) == ["up:0", "up:1", "take"]
    st = E.apply(st, 0, "up:1")
    assert E.view(st, None)["seats"][0]["up"] == ["7", None, "2"]
    assert_refuses(E, st, 1, "up:1")  # not seat 0's turn, and seat 1 has a Hand


def test_face_down_cards_only_after_the_face_up_ones_flip_only():
    st = make(hands=[[], ["1"], ["1"]], up=[[None, None, None], ["1"] * 3, ["1"] * 3],
              down=[["9", None, "2"], ["1"] * 3, ["1"] * 3], pile=["5"])
    assert E.legal_actions(st, 0) == ["flip:0", "flip:2"]
    assert_refuses(E, st, 0, "take")       # may not take instead of flipping
    assert_refuses(E, st, 0, "flip:1")     # that pile is gone
    assert_refuses(E, st, 0, "up:0")


def test_back_on_the_hand_it_is_played_out_before_the_reserve():
    st = make(hands=[[], ["1", "1", "1"], ["1", "1", "1"]], up=[["2", None, None], ["1"] * 3, ["1"] * 3],
              pile=["8", "4"])
    st = E.apply(st, 0, "take")
    st = E.apply(E.apply(st, 1, "play:1"), 2, "play:1")
    assert E.legal_actions(st, 0) == ["play:4", "play:8", "take"]
    assert_refuses(E, st, 0, "up:0")
    assert E.view(st, None)["seats"][0]["source"] == "hand"


def test_after_a_failed_flip_the_hand_is_played_out_before_flipping_again():
    st = make(n=2, hands=[[], ["1"]], up=[[None] * 3, ["1"] * 3], down=[["2", "9", None], ["1"] * 3],
              pile=["8", "4"])
    st = E.apply(st, 0, "flip:0")                 # 2 is lower than 4: the pile (and the 2) is taken
    st = E.apply(st, 1, "play:1")
    assert E.legal_actions(st, 0) == ["play:2", "play:4", "play:8", "take"]
    assert_refuses(E, st, 0, "flip:1")
    assert E.view(st, None)["seats"][0]["down"] == [0, 1, 0]
    for card in ("8", "4", "2"):                  # play the Hand out; then the face-down card comes back
        assert E.view(st, None)["seats"][0]["source"] == "hand"
        st = E.apply(E.apply(st, 0, f"play:{card}"), 1, "take")
    assert E.legal_actions(st, 0) == ["flip:1"]


# ------------------------------------------------------------------ taking the pile
def test_voluntary_take_is_allowed_by_default_and_ends_the_turn():
    st = make(hands=[["9", "10", "11"], ["1", "1", "1"], []], pile=["3", "5"])
    assert "take" in E.legal_actions(st, 0)
    st = E.apply(st, 0, "take")
    v = E.view(st, 0)
    assert sorted(v["hand"], key=int) == ["3", "5", "9", "10", "11"]
    assert v["pile"] == [] and v["current"] == 1 and v["turns"] == 1
    assert v["draw_count"] == 0


def test_option_allow_voluntary_take_false_forbids_taking_with_a_playable_card():
    st = make(hands=[["9", "10", "2"], ["1", "1", "1"], []], pile=["3", "5"],
              options={"allow_voluntary_take": False})
    assert E.legal_actions(st, 0) == ["play:9", "play:10"]
    assert_refuses(E, st, 0, "take")
    st_up = make(hands=[[], ["1"], ["1"]], up=[["7", "1", "1"], ["1"] * 3, ["1"] * 3], pile=["5"],
                 options={"allow_voluntary_take": False})
    assert E.legal_actions(st_up, 0) == ["up:0"]
    assert_refuses(E, st_up, 0, "take")


@pytest.mark.parametrize("allow", [True, False])
def test_take_is_forced_when_no_card_can_be_played(allow):
    st = make(hands=[["2", "3", "4"], ["1"], ["1"]], pile=["5"], options={"allow_voluntary_take": allow})
    assert E.legal_actions(st, 0) == ["take"]
    st_up = make(hands=[[], ["1"], ["1"]], up=[["2", None, "3"], ["1"] * 3, ["1"] * 3], pile=["5"],
                 options={"allow_voluntary_take": allow})
    assert E.legal_actions(st_up, 0) == ["take"]
    st_up = E.apply(st_up, 0, "take")
    assert E.view(st_up, 0)["hand"] == ["5"] and E.view(st_up, 0)["seats"][0]["up"] == ["2", None, "3"]


def test_taking_an_empty_pile_is_refused():
    st = make(hands=[["2", "3", "4"], ["1"], ["1"]], pile=[])
    assert "take" not in E.legal_actions(st, 0)
    assert_refuses(E, st, 0, "take")


# ------------------------------------------------------------------ blind flips
def test_flip_that_equals_or_beats_stays_on_the_pile():
    st = make(hands=[[], ["1"], ["1"]], up=[[None] * 3, ["1"] * 3, ["1"] * 3],
              down=[["9", "5", None], ["1"] * 3, ["1"] * 3], pile=["5"])
    label = E.public_label(st, 0, "flip:1")
    assert "5" not in label
    st = E.apply(st, 0, "flip:1")
    v = E.view(st, None)
    assert v["pile"] == ["5", "5"] and v["current"] == 1 and v["seats"][0]["down"] == [1, 0, 0]
    assert E.events(st) == ["{p0} flips 5: it stays on the pile"]


def test_flip_that_is_too_low_takes_the_pile_including_the_card():
    st = make(hands=[[], ["1"], ["1"]], up=[[None] * 3, ["1"] * 3, ["1"] * 3],
              down=[["9", "3", None], ["1"] * 3, ["1"] * 3], pile=["4", "6"])
    st = E.apply(st, 0, "flip:1")
    v = E.view(st, 0)
    assert sorted(v["hand"]) == ["3", "4", "6"] and v["pile"] == [] and v["current"] == 1
    assert v["seats"][0]["source"] == "hand" and v["turns"] == 1
    assert "takes the pile" in E.events(st)[0]


@pytest.mark.parametrize("special", ["DO", "REV", "BOMB"])
def test_flipped_special_card_stays_and_its_effect_applies(special):
    st = make(n=3, hands=[[], ["1"], ["1"]], up=[[None] * 3, ["1"] * 3, ["1"] * 3],
              down=[[special, "3", None], ["1"] * 3, ["1"] * 3], pile=["4", "11"])
    st = E.apply(st, 0, "flip:0")
    v = E.view(st, None)
    if special == "DO":
        assert v["pile_value"] == 0 and v["current"] == 1
    elif special == "REV":
        assert v["pile_value"] == 11 and v["current"] == 2 and v["direction"] == "counterclockwise"
    else:
        assert v["pile"] == [] and v["removed_count"] == 3 and v["current"] == 1


def test_face_down_cards_are_hidden_from_everyone_including_the_owner():
    secret = ["DO", "BOMB", "REV"]
    st = make(hands=[["1"], ["1"], ["1"]], up=[["2", "2", "2"]] * 3, down=[secret, secret, secret])
    for viewer in (None, 0, 1, 2):
        strings = set(json_strings(E.view(st, viewer)))
        assert not strings & set(secret)
    # and nothing changes in any view if the face-down cards were different
    other = make(hands=[["1"], ["1"], ["1"]], up=[["2", "2", "2"]] * 3, down=[["9", "8", "7"]] * 3)
    for viewer in (None, 0, 1, 2):
        assert canonical(E.view(st, viewer)) == canonical(E.view(other, viewer))


# ------------------------------------------------------------------ drawing
def test_draw_back_to_three_after_discarding_from_the_hand():
    st = make(hands=[["5", "6", "7"], ["1"], ["1"]], draw=["10", "9"])
    st = E.apply(st, 0, "play:5")
    v = E.view(st, 0)
    assert sorted(v["hand"], key=int) == ["6", "7", "9"] and v["draw_count"] == 1
    assert E.events(st) == ["{p0} draws 1 card"]


def test_draw_stops_when_the_draw_pile_is_empty():
    st = make(hands=[["5"], ["1"], ["1"]], draw=["10"])
    st = E.apply(st, 0, "play:5")
    assert E.view(st, 0)["hand"] == ["10"] and E.view(st, 0)["draw_count"] == 0


def test_no_draw_while_the_hand_still_has_three_or_more():
    st = make(hands=[["5", "6", "7", "8"], ["1"], ["1"]], draw=["10", "9"])
    st = E.apply(st, 0, "play:5")
    assert len(E.view(st, 0)["hand"]) == 3 and E.view(st, 0)["draw_count"] == 2
    assert E.events(st) == []


def test_no_draw_after_a_take_or_a_reserve_card():
    st = make(hands=[["5"], ["1"], ["1"]], pile=["9"], draw=["10", "9"])
    st = E.apply(st, 0, "take")
    assert E.view(st, 0)["hand"] == ["5", "9"] and E.view(st, 0)["draw_count"] == 2
    st = make(hands=[[], ["1"], ["1"]], up=[["7", "8", "9"], ["1"] * 3, ["1"] * 3], draw=["10", "9"])
    st = E.apply(st, 0, "up:0")
    assert E.view(st, 0)["hand"] == [] and E.view(st, 0)["draw_count"] == 2


def test_discarding_the_last_hand_card_refills_while_the_draw_pile_lasts():
    st = make(hands=[["5"], ["1"], ["1"]], draw=["1", "2", "3", "4"])
    st = E.apply(st, 0, "play:5")
    assert sorted(E.view(st, 0)["hand"]) == ["2", "3", "4"]
    assert E.view(st, None)["seats"][0]["source"] == "hand"


# ------------------------------------------------------------------ special cards
def test_do_over_sets_the_value_to_zero():
    st = make(hands=[["DO", "9", "9"], ["1", "2", "2"], []], pile=["11"])
    st = E.apply(st, 0, "play:DO")
    assert E.view(st, None)["pile_value"] == 0
    assert E.legal_actions(st, 1) == ["play:1", "play:2", "take"]


def test_reverse_reverses_direction_and_keeps_the_value_beneath():
    st = make(n=4, cur=1, hands=[["1"], ["REV", "9"], ["1"], ["9", "8"]], pile=["8"])
    st = E.apply(st, 1, "play:REV")
    v = E.view(st, None)
    assert v["direction"] == "counterclockwise" and v["current"] == 0 and v["pile_value"] == 8
    assert E.legal_actions(st, 0) == ["take"]
    st = E.apply(st, 0, "take")
    assert E.to_act(st) == [3]  # counterclockwise continues


def test_reverse_on_reverse_flips_back_and_looks_further_down():
    st = make(n=3, cur=0, hands=[["REV", "1"], ["REV", "1"], ["1"]], pile=["6"])
    st = E.apply(st, 0, "play:REV")
    assert E.to_act(st) == [2]
    st = make(n=3, cur=0, hands=[["REV", "1"], ["1"], ["1"]], pile=["6", "REV"], direction=-1)
    st = E.apply(st, 0, "play:REV")
    v = E.view(st, None)
    assert v["direction"] == "clockwise" and v["current"] == 1 and v["pile_value"] == 6


def test_reverse_with_two_players_is_a_free_play_and_the_turn_passes():
    st = make(n=2, cur=0, hands=[["REV", "1"], ["9"]], pile=["8"])
    st = E.apply(st, 0, "play:REV")
    v = E.view(st, None)
    assert v["current"] == 1 and v["direction"] == "clockwise" and v["pile_value"] == 8
    assert E.events(st) == ["Reverse with two players is a free play"]
    st = E.apply(st, 1, "play:9")
    assert E.to_act(st) == [0]


def test_bomb_removes_the_pile_from_the_game_and_the_next_player_starts_a_new_pile():
    st = make(n=3, cur=0, hands=[["BOMB", "1", "1"], ["2", "3"], ["1"]], pile=["4", "11", "REV"])
    st = E.apply(st, 0, "play:BOMB")
    v = E.view(st, None)
    assert v["pile"] == [] and v["removed_count"] == 4 and sorted(v["removed"]) == ["11", "4", "BOMB", "REV"]
    assert v["current"] == 1 and v["pile_value"] == 0
    assert E.legal_actions(st, 1) == ["play:2", "play:3"]   # a new pile; nothing to take
    assert "4 cards" in E.events(st)[0]


# ------------------------------------------------------------------ the end
def test_first_player_with_no_cards_wins_at_once_others_ranked_by_cards_left():
    st = make(n=4, cur=0, hands=[[], ["1", "1"], ["1", "1", "1"], ["1", "1"]],
              up=[[None] * 3, [None] * 3, [None] * 3, [None] * 3],
              down=[["9", None, None], [None] * 3, [None] * 3, [None] * 3], pile=["5"])
    st = E.apply(st, 0, "flip:0")
    assert E.is_over(st) and E.to_act(st) == [] and E.legal_actions(st, 1) == []
    assert E.outcome(st) == [1, 2, 4, 2]  # seat 1 and 3 tie with 2 cards, seat 2 has 3
    v = E.view(st, None)
    assert v["over"] and v["outcome"] == [1, 2, 4, 2] and v["winner"] == 0
    assert "{p0} has no cards left and wins" in E.events(st)
    assert_refuses(E, st, 1, "play:1")


def test_winning_from_the_hand_when_the_draw_pile_is_empty():
    st = make(n=2, cur=1, hands=[["1"], ["7"]], up=[["2"] * 3, [None] * 3], down=[["3"] * 3, [None] * 3])
    st = E.apply(st, 1, "play:7")
    assert E.is_over(st) and E.outcome(st) == [2, 1]


def test_no_win_while_face_down_cards_remain():
    st = make(n=2, cur=0, hands=[[], ["1"]], up=[["9", None, None], ["2"] * 3], down=[["3", None, None], ["3"] * 3])
    st = E.apply(st, 0, "up:0")
    assert not E.is_over(st) and E.view(st, None)["seats"][0]["cards_left"] == 1


def test_option_max_turns_ends_the_game_and_ranks_everyone_by_cards_left():
    st = make(n=3, cur=0, hands=[["9"], ["1", "1"], ["1"]], up=[[None] * 3] * 3, down=[[None] * 3] * 3,
              pile=["10"], options={"max_turns": 4}, turns=2)
    st = E.apply(st, 0, "take")        # turn 3
    assert not E.is_over(st)
    st = E.apply(st, 1, "play:1")      # turn 4: limit
    assert E.is_over(st) and E.view(st, None)["winner"] is None
    assert E.outcome(st) == [3, 1, 1]  # 2 cards, 1 card, 1 card
    assert "turn limit" in E.events(st)[0]


def test_max_turns_counts_discards_takes_and_flips():
    st = ready_all(E.new_game(3, 8, {"max_turns": 5}))
    for k in range(1, 6):
        assert E.view(st, None)["turns"] == k - 1
        seat = E.to_act(st)[0]
        st = E.apply(st, seat, E.legal_actions(st, seat)[0])
    assert E.is_over(st)


@pytest.mark.parametrize("card", ["9", "2"])
def test_max_turns_counts_a_flip_whether_it_stays_or_not(card):
    st = make(n=3, cur=0, hands=[[], ["1"], ["1"]], up=[[None] * 3, ["1"] * 3, ["1"] * 3],
              down=[[card, "3", None], ["1"] * 3, ["1"] * 3], pile=["5"], options={"max_turns": 8}, turns=7)
    st = E.apply(st, 0, "flip:0")
    assert E.is_over(st) and E.view(st, None)["turns"] == 8 and E.view(st, None)["winner"] is None


def test_a_real_game_ends_and_all_cards_stay_accounted_for():
    st = E.new_game(4, 21)
    full = Counter(edition.DECK)
    k = 0
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        acts = E.legal_actions(st, seat)
        st = E.apply(st, seat, acts[k % len(acts)])
        k += 1
        assert all_cards(st) == full
    assert sorted(E.outcome(st))[0] == 1


# ------------------------------------------------------------------ refusals and the contract
def test_refusals_wrong_seat_not_your_turn_garbled_and_unknown():
    st = make(n=3, cur=0, hands=[["5", "6", "7"], ["5"], ["5"]], pile=["5"])
    for seat, action in [(1, "play:5"), (3, "play:5"), (-1, "play:5"), (0, "play:99"), (0, "play:"),
                         (0, "play"), (0, "dance"), (0, ""), (0, "take:now"), (0, "take:"), (0, "up:9"), (0, "up:x"),
                         (0, "flip:-1"), (0, "ready"), (0, "swap:5:0"), (0, "play:1")]:
        assert_refuses(E, st, seat, action)
    with pytest.raises(IllegalAction):
        E.apply(st, 0, None)  # type: ignore[arg-type]
    st1 = make(n=3, cur=1, hands=[["5"], ["5"], ["5"]], pile=["5"])
    assert E.legal_actions(st1, True) == [] and E.legal_actions(st1, 3) == []  # True is not seat 1
    assert_refuses(E, st1, True, "play:5")


def test_apply_does_not_mutate_its_input():
    st = make(n=3, hands=[["5", "BOMB"], ["1"], ["1"]], pile=["2", "3"], draw=["9", "9"])
    before = canonical(E.dump(st))
    views = [canonical(E.view(st, seat)) for seat in (None, 0, 1, 2)]
    for act in E.legal_actions(st, 0):
        E.apply(st, 0, act)
    assert canonical(E.dump(st)) == before
    assert [canonical(E.view(st, seat)) for seat in (None, 0, 1, 2)] == views
    swap = E.new_game(3, 5)
    before = canonical(E.dump(swap))
    views = [canonical(E.view(swap, seat)) for seat in (None, 0, 1, 2)]
    for act in E.legal_actions(swap, 1):
        E.apply(swap, 1, act)
    assert canonical(E.dump(swap)) == before
    assert [canonical(E.view(swap, seat)) for seat in (None, 0, 1, 2)] == views


def test_dump_load_round_trip_and_json_safety():
    st = E.new_game(5, 77)
    assert_roundtrip(E, st)
    st = ready_all(st)
    st = E.apply(st, E.to_act(st)[0], E.legal_actions(st, E.to_act(st)[0])[0])
    assert_roundtrip(E, st)
    json.dumps(E.view(st, None))
    json.dumps(E.view(st, 2))


def test_views_have_the_required_keys():
    st = E.new_game(4, 3)
    pub = E.view(st, None)
    for key in ("game", "num_players", "status", "to_act", "over", "pile", "pile_value", "draw_count",
                "direction", "removed_count", "current", "seats"):
        assert key in pub
    assert "hand" not in pub and "seat" not in pub
    for key in ("hand_count", "up", "down", "cards_left"):
        assert key in pub["seats"][0]
    mine = E.view(st, 2)
    assert mine["seat"] == 2 and len(mine["hand"]) == 3


def test_describe_and_public_label():
    st = make(n=3, hands=[["5", "DO"], ["1"], ["1"]], pile=["2"])
    assert E.describe(st, "play:DO") == "Play Do Over! from your Hand on the pile"
    assert E.public_label(st, 0, "play:5") == "plays 5"
    assert E.public_label(st, 0, "take") == "takes the pile (1 card)"
    for act in ("play:5", "take", "up:0", "flip:0", "swap:5:0", "ready", "junk"):
        assert len(E.describe(st, act)) <= 100
    st = make(hands=[[], ["1"], ["1"]], up=[["7", None, "2"], ["1"] * 3, ["1"] * 3], pile=["5"])
    assert E.public_label(st, 0, "up:0") == "plays 7 from their face-up Reserve"
    assert E.public_label(st, 0, "flip:1") == "flips a face-down Reserve card"
