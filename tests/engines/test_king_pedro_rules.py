"""One test (or more) per rule of rules/king-pedro.md, with stacked decks."""

from __future__ import annotations

import itertools
import json

import pytest

from data.editions import king_pedro as edition
from engines import IllegalAction, get_engine
from engines.king_pedro import (
    ENGINE,
    card_points,
    legal_discards,
    legal_plays,
    score_round,
    sort_hand,
    trick_winner,
    trump_cards,
)
from engines.rng import Rng, seed_state
from tests.engines.harness import assert_refuses, canonical

E = ENGINE
DECK = edition.DECK


# ---------------------------------------------------------------- builders

def build_hands(spec: dict[int, list[str]], trump: str, sink: int | None = None) -> list[list[str]]:
    """13 cards per seat: the given cards, leftover trumps to ``sink`` (overflowing clockwise), then non-trumps."""
    used = {c for cards in spec.values() for c in cards}
    assert len(used) == sum(len(c) for c in spec.values())
    trumps = set(trump_cards(trump))
    hands = [list(spec.get(s, [])) for s in range(4)]
    left_trumps = [c for c in trump_cards(trump) if c not in used]
    if left_trumps:
        assert sink is not None, "leftover trumps need a sink seat"
        for k in range(4):
            h = hands[(sink + k) % 4]
            while left_trumps and len(h) < 13:
                h.append(left_trumps.pop(0))
    plain = [c for c in DECK if c not in used and c not in trumps]
    for h in hands:
        while len(h) < 13:
            h.append(plain.pop(0))
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    return hands


def stacked(hands13: list[list[str]], dealer: int, seed: int = 1, **options) -> object:
    """A fresh game whose first deal gives each seat hands13[s][:9] and whose second deal gives the rest."""
    s = E.new_game(4, seed, options or None)
    s.dealer = dealer
    s.turn = (dealer + 1) % 4
    s.hands = tuple(tuple(h[:9]) for h in hands13)
    s.stock = tuple(c for k in range(1, 5) for c in hands13[(dealer + k) % 4][9:])
    return s


def to_passing(hands13: list[list[str]], trump: str, bidder: int, bid: int = 30, **options) -> object:
    """Stack, let ``bidder`` open with ``bid`` while the rest pass, and name ``trump``."""
    s = stacked(hands13, (bidder - 1) % 4, **options)
    s = E.apply(s, bidder, f"bid:{bid}")
    for k in range(1, 4):
        s = E.apply(s, (bidder + k) % 4, "pass")
    assert s.phase == "trump"
    return E.apply(s, bidder, f"trump:{trump}")


def keep_all(s: object) -> object:
    while s.phase == "passing":
        s = E.apply(s, s.turn, "keep")
    return s


def discard_first(s: object) -> object:
    """Everyone still discarding takes the first legal discard until done."""
    while s.phase == "discarding":
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, E.legal_actions(s, seat)[0])
    return s


def play_state(hands: dict[int, list[str]], trump: str, bidder: int, bid: int = 30,
               faceup: tuple = (), turn: int | None = None, trick_no: int = 0) -> object:
    """A round in the play phase with the given 6-card hands; seats without a hand have folded."""
    s = E.new_game(4, 7)
    s.phase = "playing"
    s.trump = trump
    s.bid, s.bidder = bid, bidder
    s.stock = ()
    s.hands = tuple(sort_hand(hands.get(p, ()), trump) for p in range(4))
    s.folded = tuple(p not in hands for p in range(4))
    s.faceup = tuple(faceup)
    s.trick_no = trick_no
    s.turn = bidder if turn is None else turn
    return s


def play(s: object, *cards: str) -> object:
    for card in cards:
        s = E.apply(s, s.turn, f"play:{card}")
    return s


# ---------------------------------------------------------------- cards and ranks

@pytest.mark.parametrize("trump,other", [("S", "5C"), ("C", "5S"), ("H", "5D"), ("D", "5H")])
def test_trumps_are_the_suit_plus_the_other_five(trump: str, other: str) -> None:
    cards = trump_cards(trump)
    assert len(cards) == 14
    assert other in cards
    assert all(c[-1] == trump for c in cards if c != other)
    assert {c for c in DECK if c[-1] == trump} < set(cards)
    # the five of the opposite colour is not a trump
    assert not any(c.startswith("5") and c not in (other, "5" + trump) for c in cards)


def test_trump_rank_order_with_the_other_five_between_5_and_4() -> None:
    assert trump_cards("H") == ("AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "5D", "4H", "3H", "2H")
    order = trump_cards("S")
    for hi, lo in itertools.pairwise(order):
        assert trick_winner([lo, hi], "S") == 1
        assert trick_winner([hi, lo], "S") == 0
    assert trick_winner(["4C", "5S"], "C") == 1  # the other five beats the 4
    assert trick_winner(["5S", "5C"], "C") == 1  # the trump 5 beats the other five


def test_non_trumps_have_no_rank_trumpless_trick_goes_to_leader() -> None:
    assert trick_winner(["2C", "AC", "KC", "QC"], "H") == 0
    assert trick_winner(["3D", "AS", "AC", "KS"], "H") == 0
    assert trick_winner(["5C", "AD", "AS", "AH"], "H") == 3


def test_trick_winner_is_the_highest_trump_anywhere() -> None:
    assert trick_winner(["AC", "2H", "KC", "3H"], "H") == 3
    assert trick_winner(["AC", "2C", "KC", "5D"], "H") == 3
    assert trick_winner(["2H"], "H") == 0
    assert trick_winner(["KD", "AD"], "D") == 1


def test_points_table_only_trumps_score_and_total_62() -> None:
    for t in "SHDC":
        assert sum(card_points(c, t) for c in DECK) == 62
    assert card_points("KH", "H") == 30 and card_points("10H", "H") == 10 and card_points("9H", "H") == 9
    assert card_points("5H", "H") == 5 and card_points("5D", "H") == 5
    assert card_points("AH", "H") == card_points("JH", "H") == card_points("2H", "H") == 1
    for rank in ("Q", "8", "7", "6", "4", "3"):
        assert card_points(rank + "H", "H") == 0
    assert card_points("KS", "H") == 0 and card_points("5C", "H") == 0


# ---------------------------------------------------------------- setup and the deal

def test_exactly_four_players_and_options_checked() -> None:
    assert E.min_players == E.max_players == 4
    for n in (2, 3, 5):
        with pytest.raises(ValueError):
            E.new_game(n, 1)
    with pytest.raises(ValueError):
        E.new_game(4, 1, {"nope": 1})
    with pytest.raises(ValueError):
        E.new_game(4, 1, {"target": "262"})
    assert E.default_options == {"target": 262, "max_rounds": 100}
    assert get_engine("king_pedro") is E


def test_first_deal_nine_each_in_threes_from_dealers_left_then_four_more() -> None:
    seed = 42
    rng = Rng(seed_state(seed))
    dealer = rng.below(4)
    deck = list(DECK)
    rng.shuffle(deck)
    s = E.new_game(4, seed)
    assert s.dealer == dealer
    expected: list[list[str]] = [[], [], [], []]
    i = 0
    for _ in range(3):
        for k in range(1, 5):
            expected[(dealer + k) % 4] += deck[i:i + 3]
            i += 3
    for p in range(4):
        assert sorted(s.hands[p]) == sorted(expected[p])
        assert len(s.hands[p]) == 9
    assert list(s.stock) == deck[36:]
    # second deal: 4 each from the dealer's left, the whole deck is used
    bidder = (dealer + 1) % 4
    s = E.apply(s, bidder, "bid:30")
    for k in range(1, 4):
        s = E.apply(s, (bidder + k) % 4, "pass")
    s = E.apply(s, bidder, "trump:S")
    for k in range(1, 5):
        p = (dealer + k) % 4
        held = set(s.hands[p]) | set(s.folded_cards[p])  # no trumps can have been passed yet
        assert held == set(expected[p]) | set(deck[36 + 4 * (k - 1): 36 + 4 * k])
    assert s.stock == ()


def test_first_dealer_is_random_then_deal_passes_left() -> None:
    dealers = {E.new_game(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    hands = build_hands({0: ["AH"]}, "H", sink=0)
    s = to_passing(hands, "H", 0)
    s = discard_first(keep_all(s))
    first_dealer = s.dealer
    while s.phase == "playing":
        s = E.apply(s, s.turn, E.legal_actions(s, s.turn)[0])
    assert s.round == 2
    assert s.dealer == (first_dealer + 1) % 4
    assert E.to_act(s) == [(s.dealer + 1) % 4]


# ---------------------------------------------------------------- bidding

def test_bidding_starts_left_of_dealer() -> None:
    for seed in range(8):
        s = E.new_game(4, seed)
        assert E.to_act(s) == [(s.dealer + 1) % 4]
        assert s.phase == "bidding"


def test_bids_range_30_to_62_and_must_increase_by_at_least_one() -> None:
    s = stacked(build_hands({}, "S", sink=0), dealer=3)
    acts = E.legal_actions(s, 0)
    assert acts[0] == "bid:30" and acts[-2] == "bid:62" and acts[-1] == "pass" and len(acts) == 34
    assert_refuses(E, s, 0, "bid:29")
    assert_refuses(E, s, 0, "bid:63")
    assert_refuses(E, s, 0, "bid:abc")
    assert_refuses(E, s, 0, "bid:031")
    s = E.apply(s, 0, "bid:30")
    assert_refuses(E, s, 1, "bid:30")
    assert E.legal_actions(s, 1)[0] == "bid:31"
    s = E.apply(s, 1, "bid:31")  # an increase of 1 is allowed
    s = E.apply(s, 2, "bid:62")
    assert E.legal_actions(s, 3) == ["pass"]
    assert s.bid == 62 and s.bidder == 2


def test_a_pass_is_final_and_bidding_goes_round_several_circuits() -> None:
    s = stacked(build_hands({}, "S", sink=0), dealer=3)
    s = E.apply(s, 0, "bid:30")
    s = E.apply(s, 1, "pass")
    s = E.apply(s, 2, "bid:31")
    s = E.apply(s, 3, "bid:32")
    assert E.to_act(s) == [0]
    s = E.apply(s, 0, "bid:33")  # second circuit
    assert E.to_act(s) == [2]  # seat 1 passed and is skipped
    assert_refuses(E, s, 1, "bid:40")
    s = E.apply(s, 2, "pass")
    s = E.apply(s, 3, "bid:34")
    assert E.to_act(s) == [0]
    assert s.phase == "bidding"


def test_three_passes_after_a_bid_end_the_auction_and_bidder_names_trump() -> None:
    s = stacked(build_hands({}, "S", sink=0), dealer=3)
    s = E.apply(s, 0, "pass")
    s = E.apply(s, 1, "bid:40")
    s = E.apply(s, 2, "pass")
    assert s.phase == "bidding"
    s = E.apply(s, 3, "pass")
    assert s.phase == "trump" and E.to_act(s) == [1]
    assert E.legal_actions(s, 1) == ["trump:S", "trump:H", "trump:C", "trump:D"]
    assert any("wins the auction with 40" in e for e in E.events(s))
    assert_refuses(E, s, 1, "trump:X")
    assert_refuses(E, s, 1, "bid:41")
    assert_refuses(E, s, 0, "trump:S")
    s = E.apply(s, 1, "trump:D")
    assert s.trump == "D"
    assert all(len(h) + len(f) == 13 for h, f in zip(s.hands, s.folded_cards, strict=True))


def test_last_player_may_still_bid_after_three_passes_without_a_bid() -> None:
    s = stacked(build_hands({}, "S", sink=0), dealer=3)
    for p in (0, 1, 2):
        s = E.apply(s, p, "pass")
    assert s.phase == "bidding" and E.to_act(s) == [3]
    s = E.apply(s, 3, "bid:30")
    assert s.phase == "trump" and s.bidder == 3


def test_four_passes_mean_a_redeal_by_the_same_dealer_not_a_round() -> None:
    s = E.new_game(4, 5, {"max_rounds": 1})
    dealer, old = s.dealer, s.hands
    for k in range(1, 5):
        s = E.apply(s, (dealer + k) % 4, "pass")
    assert s.phase == "bidding"
    assert s.dealer == dealer and s.round == 1
    assert s.hands != old
    assert all(len(h) == 9 for h in s.hands)
    assert E.to_act(s) == [(dealer + 1) % 4]
    assert any("deals again" in e for e in E.events(s))
    assert not E.is_over(s)  # max_rounds=1 not reached by a redeal


# ---------------------------------------------------------------- passing and folding

def test_passing_goes_in_turn_order_from_the_bidder_and_passer_folds() -> None:
    # trump H; seat 1 (bidder) many trumps, seat 2 one trump, seat 3 two trumps, seat 0 one trump
    hands = build_hands({2: ["7H"], 3: ["6H", "4H"], 0: ["3H"]}, "H", sink=1)
    s = to_passing(hands, "H", bidder=1)
    assert s.phase == "passing"
    assert E.to_act(s) == [2]  # the bidder has more than two trumps and is skipped
    assert E.legal_actions(s, 2) == ["pass_trumps", "keep"]
    assert_refuses(E, s, 3, "keep")
    assert_refuses(E, s, 2, "pass")
    s = E.apply(s, 2, "pass_trumps")
    assert s.folded[2] and s.hands[2] == ()
    assert "7H" in s.hands[0]
    assert any("passes 1 trump to {p0} and folds" in e for e in E.events(s))
    assert E.to_act(s) == [3]
    s = E.apply(s, 3, "keep")
    # seat 0 received trumps from its partner and may not pass
    assert s.phase == "discarding"
    assert not s.folded[0] and not s.folded[3]
    assert "7H" in s.hands[0] and "3H" in s.hands[0]


def test_a_player_who_received_may_not_pass_even_with_one_or_two_trumps() -> None:
    # seat 0 bidder with 1 trump passes to seat 2, who had none: seat 2 now holds 1 trump but may not pass
    hands = build_hands({0: ["KS"], 2: []}, "S", sink=1)
    s = to_passing(hands, "S", bidder=0)
    assert E.to_act(s) == [0]
    s = E.apply(s, 0, "pass_trumps")
    assert s.folded[0] and s.received[2]
    assert s.phase == "discarding"  # nobody else decides: seat 2 received, seats 1 and 3 ...
    assert not s.folded[2]
    assert "KS" in s.hands[2]


def test_players_without_trumps_fold_after_passing() -> None:
    # seat 0 holds 13 trumps, its partner the 14th: the partner passes, the other two hold none
    hands = build_hands({2: ["2D"]}, "D", sink=0)
    s = to_passing(hands, "D", bidder=0)
    assert E.to_act(s) == [2]
    s = E.apply(s, 2, "pass_trumps")
    assert s.phase == "discarding"
    assert s.folded == (False, True, True, True)
    assert len(s.hands[0]) == 14
    assert all(len(s.folded_cards[p]) == 13 for p in (1, 3)) and len(s.folded_cards[2]) == 12
    assert E.to_act(s) == [0]
    assert sum(1 for e in E.events(s) if "no trumps and folds" in e) == 2
    # folded cards are out of play: their owner may still see them, nobody else
    folded = s.folded_cards[1]
    assert E.view(s, 1)["folded_cards"] == list(folded)
    for viewer in (None, 0, 2, 3):
        assert not set(folded) & set(json.dumps(E.view(s, viewer)).replace('"', " ").replace(",", " ").split())
    s = discard_first(s)
    assert len(s.hands[0]) == 6 and len(s.faceup) == 8
    faceup = [c for _, c in s.faceup]
    assert set(faceup) == {"QD", "8D", "7D", "6D", "4D", "3D", "2D", faceup[-1]}  # then one scoring trump
    assert E.to_act(s) == [0]
    s = play(s, *s.hands[0])  # six one-card tricks: the only player wins them all
    last = s.last_round
    assert s.round == 2 and last["points"][1] == 0
    # the face-up 2 (and the other face-up trump) score for nobody
    assert last["faceup_points"] == 1 + card_points(faceup[-1], "D")
    assert last["points"][0] == 62 - last["faceup_points"]


def test_keep_and_players_with_three_or_more_trumps_are_not_asked() -> None:
    hands = build_hands({0: ["AH", "KH", "QH"], 1: ["JH"], 2: ["10H", "9H", "8H"], 3: ["7H", "6H"]}, "H", sink=0)
    s = to_passing(hands, "H", bidder=0)
    assert E.to_act(s) == [1]
    s = E.apply(s, 1, "keep")
    assert E.to_act(s) == [3]
    s = E.apply(s, 3, "keep")
    assert s.phase == "discarding" and not any(s.folded)


# ---------------------------------------------------------------- reducing to 6

def test_reduce_with_six_trumps_or_fewer_keeps_every_trump() -> None:
    hands = build_hands({0: ["AH", "KH", "QH", "JH"], 1: ["10H", "9H", "8H"], 2: ["7H", "6H", "5H"],
                         3: ["5D", "4H", "3H", "2H"]}, "H")
    s = keep_all(to_passing(hands, "H", bidder=0))
    assert s.phase == "discarding" and E.to_act(s) == [0, 1, 2, 3]
    legal = legal_discards(s.hands[0], "H")
    assert len(legal) == 9 and not set(legal) & set(trump_cards("H"))
    assert_refuses(E, s, 0, "discard:QH")
    assert_refuses(E, s, 0, "done")
    assert_refuses(E, s, 0, "discard:AS" if "AS" not in s.hands[0] else "discard:AC")
    assert_refuses(E, s, 0, "discard:ZZ")
    s = discard_first(s)
    assert set(s.hands[0]) >= {"AH", "KH", "QH", "JH"}
    assert all(len(s.hands[p]) == 6 for p in range(4))
    assert s.faceup == ()


def test_reduce_with_more_than_six_trumps_non_scoring_first_then_the_2_then_choice() -> None:
    # seat 0 holds 11 trumps: four non-scoring Q 8 7 6, the 2, and six scoring A K J 10 9 5
    held = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "2S"]
    hands = build_hands({0: held, 1: ["4S"], 2: ["5C"], 3: ["3S"]}, "S")
    s = to_passing(hands, "S", bidder=0)
    s = keep_all(s)
    assert sorted(legal_discards(s.hands[0], "S")) == sorted([c for c in s.hands[0] if c not in held]
                                                             + ["QS", "8S", "7S", "6S"])
    assert_refuses(E, s, 0, "discard:2S")
    assert_refuses(E, s, 0, "discard:KS")
    for c in ("QS", "8S", "7S", "6S"):
        s = E.apply(s, 0, f"discard:{c}")
    # only the 2 among trumps now
    assert [c for c in legal_discards(s.hands[0], "S") if c in held] == ["2S"]
    assert_refuses(E, s, 0, "discard:9S")
    s = E.apply(s, 0, "discard:2S")
    trumps_now = [c for c in s.hands[0] if c in held]
    assert len(trumps_now) == 6  # A K J 10 9 5: six remain, all kept now
    assert [c for c in legal_discards(s.hands[0], "S") if c in held] == []
    assert [c for _, c in s.faceup] == ["QS", "8S", "7S", "6S", "2S"]


def test_reduce_discards_scoring_trumps_of_choice_when_still_over_six() -> None:
    held = ["AH", "KH", "JH", "10H", "9H", "5H", "5D", "2H"]  # eight scoring trumps only
    hands = build_hands({0: held, 1: ["QH"], 2: ["8H", "7H", "6H"], 3: ["4H", "3H"]}, "H")
    s = keep_all(to_passing(hands, "H", bidder=0))
    trump_legal = [c for c in legal_discards(s.hands[0], "H") if c in held]
    assert trump_legal == ["2H"]
    s = E.apply(s, 0, "discard:2H")
    trump_legal = [c for c in legal_discards(s.hands[0], "H") if c in held]
    assert sorted(trump_legal) == sorted(held[:-1])  # any scoring trump, player's choice
    s = E.apply(s, 0, "discard:KH")
    assert [c for c in legal_discards(s.hands[0], "H") if c in held] == []
    assert [c for _, c in s.faceup] == ["2H", "KH"]


def test_non_trump_discards_are_face_down_and_hidden() -> None:
    hands = build_hands({0: ["AH"], 1: ["KH"], 2: ["QH"], 3: ["JH"]}, "H", sink=0)
    s = keep_all(to_passing(hands, "H", bidder=0))
    card = legal_discards(s.hands[1], "H")[0]
    label = E.public_label(s, 1, f"discard:{card}")
    assert card not in label and "face down" in label
    s = E.apply(s, 1, f"discard:{card}")
    assert s.facedown[1] == (card,)
    assert card in E.view(s, 1)["facedown_discards"]
    for viewer in (None, 0, 2, 3):
        assert card not in json.dumps(E.view(s, viewer))
    assert E.view(s, None)["facedown_counts"] == [0, 1, 0, 0]


def test_face_up_discards_are_public_with_the_discarder() -> None:
    held = ["AC", "KC", "QC", "JC", "10C", "9C", "8C"]
    hands = build_hands({0: held}, "C", sink=1)
    s = keep_all(to_passing(hands, "C", bidder=0))
    assert "face up" in E.public_label(s, 0, "discard:QC") and "Q" in E.public_label(s, 0, "discard:QC")
    s = E.apply(s, 0, "discard:QC")
    assert E.view(s, None)["faceup_discards"] == [[0, "QC"]]
    assert E.view(s, 3)["faceup_discards"] == [[0, "QC"]]


def test_done_only_at_six_and_everyone_reduces_before_play() -> None:
    hands = build_hands({0: ["AH"], 1: ["KH"], 2: ["QH"], 3: ["JH"]}, "H", sink=0)
    s = keep_all(to_passing(hands, "H", bidder=0))
    while len(s.hands[1]) > 6:
        s = E.apply(s, 1, E.legal_actions(s, 1)[0])
    assert E.legal_actions(s, 1) == ["done"]
    assert_refuses(E, s, 1, "discard:" + s.hands[0][-1])  # another player's card
    assert_refuses(E, s, 1, "discard:" + s.hands[1][-1])
    s = E.apply(s, 1, "done")
    assert 1 not in E.to_act(s)
    assert_refuses(E, s, 1, "done")
    assert E.legal_actions(s, 1) == []
    s = discard_first(s)
    assert s.phase == "playing"


# ---------------------------------------------------------------- play

def test_bidder_leads_and_first_lead_must_be_trump() -> None:
    hands = build_hands({2: ["AH", "KH"]}, "H", sink=0)
    s = discard_first(keep_all(to_passing(hands, "H", bidder=2)))
    assert s.phase == "playing" and E.to_act(s) == [2]
    plays = [a[5:] for a in E.legal_actions(s, 2)]
    assert plays and all(c in trump_cards("H") for c in plays)
    non_trump = next(c for c in s.hands[2] if c not in trump_cards("H"))
    with pytest.raises(IllegalAction, match="first lead"):
        E.apply(s, 2, f"play:{non_trump}")


def test_folded_bidder_first_lead_goes_to_next_active_player_clockwise() -> None:
    # bidder seat 1 has two trumps and passes them to seat 3; seat 2 has none; seat 3 leads
    hands = build_hands({1: ["AH", "KH"], 2: [], 0: ["QH"]}, "H", sink=3)
    s = to_passing(hands, "H", bidder=1)
    s = E.apply(s, 1, "pass_trumps")
    s = keep_all(s)
    assert s.folded[1] and s.folded[2]
    s = discard_first(s)
    assert E.to_act(s) == [3]


def test_trump_led_must_follow_with_trump_if_possible() -> None:
    s = play_state({0: ["AH", "2S", "3S", "4S", "6S", "7S"], 1: ["KH", "2C", "3C", "4C", "6C", "7C"],
                    2: ["2D", "3D", "4D", "6D", "7D", "8D"], 3: ["10H", "9H", "5H", "5D", "8S", "9S"]}, "H", 0)
    s = play(s, "AH")
    assert E.legal_actions(s, 1) == ["play:KH"]
    assert_refuses(E, s, 1, "play:2C")
    s = play(s, "KH")
    # no trump: any card
    assert len(E.legal_actions(s, 2)) == 6


def test_non_trump_led_must_follow_with_any_non_trump_and_trump_only_when_only_trumps() -> None:
    s = play_state({0: ["AH", "2S"], 1: ["KH", "2C"], 2: ["3H", "4H"], 3: ["10H", "8S"]}, "H", 0,
                   trick_no=4, turn=0)
    s = play(s, "2S")
    assert E.legal_actions(s, 1) == ["play:2C"]  # a club follows a spade lead; no trumping in
    with pytest.raises(IllegalAction, match="non-trump"):
        E.apply(s, 1, "play:KH")
    s = play(s, "2C")
    assert E.legal_actions(s, 2) == ["play:4H", "play:3H"]  # only trumps left: plays a trump
    s = play(s, "4H", "8S")
    assert s.last_winner == 2  # the trump wins the non-trump lead


def test_after_the_first_trick_any_card_may_be_led_and_winner_leads() -> None:
    s = play_state({0: ["AH", "2S", "3S", "4S", "6S", "7S"], 1: ["KH", "2C", "3C", "4C", "6C", "7C"],
                    2: ["3H", "2D", "3D", "4D", "6D", "7D"], 3: ["10H", "9H", "5H", "5D", "8S", "9S"]}, "H", 0)
    s = play(s, "AH", "KH", "3H", "10H")
    assert s.last_winner == 0 and E.to_act(s) == [0]
    assert len(E.legal_actions(s, 0)) == 5
    assert any("{p0} wins trick 1" in e for e in E.events(s))


def test_folded_players_are_skipped_in_play() -> None:
    s = play_state({0: ["AH", "2S"], 2: ["KH", "2C"], 3: ["QH", "3C"]}, "H", 0, trick_no=4)
    s = play(s, "AH")
    assert E.to_act(s) == [2]
    s = play(s, "KH")
    assert E.to_act(s) == [3]
    s = play(s, "QH")
    assert s.trick == () and s.tricks_won == (1, 0) and s.last_winner == 0
    assert_refuses(E, s, 1, "play:2S")


def test_full_round_scoring_the_2_counts_for_whoever_played_it_and_faceup_scores_for_nobody() -> None:
    faceup = ((3, "QH"), (3, "JH"), (3, "8H"), (1, "7H"), (1, "6H"), (1, "4H"))
    hands = {0: ["AH", "2H", "2S", "3S", "4S", "6S"], 1: ["KH", "2C", "3C", "4C", "6C", "7C"],
             2: ["3H", "2D", "3D", "4D", "6D", "7D"], 3: ["10H", "9H", "5H", "5D", "8S", "9S"]}
    s = play_state(hands, "H", 0, bid=42, faceup=faceup)  # made only because the 2 counts toward the bid
    s = play(s, "AH", "KH", "3H", "10H")          # seat 0 wins 41
    s = play(s, "2S", "2C", "2D", "8S")           # trumpless: leader seat 0 wins
    assert s.last_winner == 0
    s = play(s, "2H", "3C", "3D", "9H")           # seat 3 wins 9; the 2 scores 1 for seat 0's team
    assert s.last_winner == 3
    assert s.team_pts == (42, 9)
    assert any("played the 2♥" in e for e in E.events(s))
    s = play(s, "5H", "3S", "4C", "4D")
    s = play(s, "9S", "4S", "6C", "6D")
    assert s.last_winner == 3
    s = play(s, "5D", "6S", "7C", "7D")
    assert s.round == 2
    last = s.last_round
    assert last["points"] == [42, 19] and last["faceup_points"] == 1
    assert sum(last["points"]) + last["faceup_points"] == 62
    assert last["made"] and last["deltas"] == [42, 19]
    assert s.scores == (42, 19)
    assert any("made their bid of 42" in e for e in E.events(s))


def test_set_penalty_bidding_team_loses_its_bid_defenders_still_score() -> None:
    hands = {0: ["AH", "2H", "2S", "3S", "4S", "6S"], 1: ["KH", "2C", "3C", "4C", "6C", "7C"],
             2: ["3H", "2D", "3D", "4D", "6D", "7D"], 3: ["10H", "9H", "5H", "5D", "8S", "9S"]}
    s = play_state(hands, "H", 0, bid=43)
    s = play(s, "AH", "KH", "3H", "10H", "2S", "2C", "2D", "8S", "2H", "3C", "3D", "9H",
             "5H", "3S", "4C", "4D", "9S", "4S", "6C", "6D", "5D", "6S", "7C", "7D")
    assert s.last_round["points"] == [42, 19] and not s.last_round["made"]
    assert s.scores == (-43, 19)
    assert any("were set" in e for e in E.events(s))


def test_score_round_pure_function() -> None:
    assert score_round(40, 0, (42, 19)) == (42, 19)
    assert score_round(42, 0, (42, 19)) == (42, 19)  # reaching the bid exactly makes it
    assert score_round(43, 0, (42, 19)) == (-43, 19)
    assert score_round(30, 1, (40, 22)) == (40, -30)
    assert score_round(62, 1, [0, 62]) == (0, 62)


def test_legal_plays_pure_function() -> None:
    assert legal_plays(["AH", "2S"], None, "H", True) == ["AH"]
    assert legal_plays(["AH", "2S"], None, "H", False) == ["AH", "2S"]
    assert legal_plays(["AH", "5D", "2S"], "3H", "H", False) == ["AH", "5D"]
    assert legal_plays(["2S", "3C"], "3H", "H", False) == ["2S", "3C"]
    assert legal_plays(["AH", "2S", "3C"], "4D", "H", False) == ["2S", "3C"]
    assert legal_plays(["AH", "5D"], "4D", "H", False) == ["AH", "5D"]


# ---------------------------------------------------------------- end of the game

def finish_round_with(s: object, bidding_team_points: int, bid: int, bidder: int) -> object:
    """Jump to the last trick of a round where the bidding team already holds some points."""
    others = [p for p in range(4) if p != bidder]
    hands = {bidder: ["2S"], others[0]: ["3S"], others[1]: ["4S"], others[2]: ["6S"]}
    s.phase, s.trump, s.bid, s.bidder = "playing", "H", bid, bidder
    s.hands = tuple(tuple(hands[p]) for p in range(4))
    s.folded = (False,) * 4
    s.trick, s.trick_no, s.turn = (), 5, bidder
    pts = [0, 0]
    pts[bidder % 2] = bidding_team_points
    s.team_pts = tuple(pts)
    return play(s, "2S", *[hands[(bidder + k) % 4][0] for k in range(1, 4)])


def test_win_on_a_made_bid_at_or_over_target() -> None:
    s = E.new_game(4, 3)
    s.scores = (230, 0)
    s = finish_round_with(s, 35, 30, bidder=2)
    assert E.is_over(s) and s.scores == (265, 0)
    assert E.outcome(s) == [1, 3, 1, 3]
    assert E.to_act(s) == [] and E.legal_actions(s, 0) == []
    assert any("{p0} & {p2} win the game" in e for e in E.events(s))
    assert E.view(s, None)["outcome"] == [1, 3, 1, 3]
    assert_refuses(E, s, 0, "pass")


def test_no_win_on_a_set_bid_or_as_defenders_even_over_target() -> None:
    s = E.new_game(4, 3)
    s.scores = (300, 250)
    s = finish_round_with(s, 20, 40, bidder=1)  # team 1 set; team 0 over target but not bidding
    assert not E.is_over(s)
    assert s.scores == (300, 210)
    s = E.new_game(4, 3)
    s.scores = (250, 0)
    s = finish_round_with(s, 20, 40, bidder=0)  # bidders set: no win
    assert not E.is_over(s) and s.scores == (210, 0)


def test_target_option_200() -> None:
    s = E.new_game(4, 3, {"target": 200})
    s.scores = (0, 170)
    s = finish_round_with(s, 30, 30, bidder=3)
    assert E.is_over(s) and E.outcome(s) == [3, 1, 3, 1]
    s = E.new_game(4, 3)
    s.scores = (0, 170)
    s = finish_round_with(s, 30, 30, bidder=3)
    assert not E.is_over(s)


def test_max_rounds_ends_the_game_more_points_wins_ties_share() -> None:
    s = E.new_game(4, 3, {"max_rounds": 2})
    s = finish_round_with(s, 30, 30, bidder=0)
    assert not E.is_over(s) and s.round == 2
    s = finish_round_with(s, 20, 30, bidder=0)
    assert E.is_over(s) and s.scores == (0, 0)
    assert E.outcome(s) == [1, 1, 1, 1]
    assert any("tie" in e for e in E.events(s))
    s = E.new_game(4, 3, {"max_rounds": 1})
    s = finish_round_with(s, 20, 30, bidder=0)
    assert E.is_over(s) and E.outcome(s) == [3, 1, 3, 1]


# ---------------------------------------------------------------- contract details

def test_refusals_wrong_seat_garbled_and_not_your_turn() -> None:
    s = E.new_game(4, 9)
    turn = E.to_act(s)[0]
    other = (turn + 1) % 4
    assert_refuses(E, s, other, "pass")
    assert_refuses(E, s, 4, "pass")
    assert_refuses(E, s, -1, "pass")
    assert_refuses(E, s, turn, "")
    assert_refuses(E, s, turn, "fold")
    assert_refuses(E, s, turn, "play:AS")
    assert_refuses(E, s, turn, "bid:")
    with pytest.raises(IllegalAction):
        E.apply(s, turn, None)  # type: ignore[arg-type]
    assert E.legal_actions(s, other) == []


def test_play_refusals_card_not_held_and_bad_code() -> None:
    s = play_state({0: ["AH", "2S"], 1: ["KH", "2C"], 2: ["3H", "4H"], 3: ["10H", "8S"]}, "H", 0, trick_no=4)
    assert_refuses(E, s, 0, "play:KH")
    assert_refuses(E, s, 0, "play:1H")
    assert_refuses(E, s, 0, "play:")
    assert_refuses(E, s, 0, "discard:AH")
    assert_refuses(E, s, 1, "play:KH")


def test_passing_refusals() -> None:
    hands = build_hands({0: ["AH"], 1: ["KH", "QH", "JH"], 2: ["10H", "9H", "8H"], 3: ["7H", "6H", "5H"]}, "H",
                        sink=1)
    s = to_passing(hands, "H", bidder=0)
    assert E.to_act(s) == [0]
    assert_refuses(E, s, 0, "pass")
    assert_refuses(E, s, 0, "discard:AH")
    assert_refuses(E, s, 2, "keep")


def test_seat_view_hand_sorted_trumps_first_with_playable_and_scoring() -> None:
    s = play_state({0: ["2S", "AH", "5D", "3C", "KH", "9S"], 1: ["QH"], 2: ["JH"], 3: ["10H"]}, "H", 0)
    v = E.view(s, 0)
    assert v["hand"] == ["AH", "KH", "5D", "9S", "2S", "3C"]
    assert v["playable"] == ["AH", "KH", "5D"]
    assert v["scoring"] == ["AH", "KH", "5D"]
    assert v["trumps"] == ["AH", "KH", "5D"]
    assert v["seat"] == 0
    pub = E.view(s, None)
    for key in ("game", "num_players", "status", "to_act", "over"):
        assert key in pub
    assert "hand" not in pub and "AH" not in json.dumps(pub)
    assert pub["trump"] == "H" and pub["other_five_suit"] == "D"
    assert "AH" not in json.dumps(E.view(s, 1))


def test_describe_and_labels() -> None:
    s = E.new_game(4, 1)
    assert E.describe(s, "bid:35") == "Bid 35"
    assert E.public_label(s, 0, "bid:35") == "bids 35"
    assert E.public_label(s, 0, "play:10H") == "plays 10♥"
    assert E.public_label(s, 0, "keep") == "keeps their trumps"
    assert E.public_label(s, 0, "pass") == "passes"
    assert "♥" in E.describe(s, "trump:H")
    for a in ("pass_trumps", "keep", "done", "play:10H", "discard:2C", "bid:62", "trump:D"):
        assert 0 < len(E.describe(s, a)) <= 100
        assert 0 < len(E.public_label(s, 0, a)) <= 100
    assert "10♥" in E.describe(s, "play:10H")


def test_dump_load_roundtrip_and_events_reset() -> None:
    s = E.new_game(4, 11)
    d = E.dump(s)
    assert canonical(E.dump(E.load(json.loads(json.dumps(d))))) == canonical(d)
    turn = E.to_act(s)[0]
    s2 = E.apply(s, turn, "bid:30")
    assert E.events(s2) == []
    assert E.events(s) and "deals 9 cards" in E.events(s)[0]


# ---------------------------------------------------------------- partnerships on the engine object

def test_engine_teams_attribute_matches_the_partnership_scoring() -> None:
    assert E.teams == ((0, 2), (1, 3))
    assert get_engine("king_pedro").teams == E.teams
    assert E.view(E.new_game(4, 1), None)["teams"] == [list(t) for t in E.teams]
    for team, seats in enumerate(E.teams):
        for winner in seats:
            # ``winner`` takes the only trick worth points; the 2 is played by a seat of the other team
            other = E.teams[1 - team][0]
            partner = next(p for p in seats if p != winner)
            hands = {winner: ["KH"], partner: ["3S"], other: ["2H"], E.teams[1 - team][1]: ["4S"]}
            s = play_state(hands, "H", bidder=winner, bid=30, trick_no=5)
            s = play(s, *[hands[(winner + k) % 4][0] for k in range(4)])
            pts = s.last_round["points"]
            assert pts[team] == 30 and pts[1 - team] == 1  # trick to the winner's team, the 2 to its player's
            assert s.scores[team] == 30 and s.scores[1 - team] == 1
    # the game's result is shared by partners
    s = E.new_game(4, 3)
    s.scores = (0, 240)
    s = finish_round_with(s, 30, 30, bidder=1)
    places = E.outcome(s)
    for a, b in E.teams:
        assert places[a] == places[b]
    assert [places[p] for p in E.teams[1]] == [1, 1] and [places[p] for p in E.teams[0]] == [3, 3]


# ---------------------------------------------------------------- review additions

def test_the_other_five_is_a_trump_for_following_not_a_card_of_its_printed_suit() -> None:
    # hearts trump: the 5 of diamonds is led as a trump, so a plain diamond does not follow it
    assert legal_plays(["AD", "2H"], "5D", "H", False) == ["2H"]
    assert legal_plays(["AD", "2S"], "5D", "H", False) == ["AD", "2S"]  # no trump: any card
    # a plain diamond led: the 5 of diamonds is a trump, so any non-trump must be played instead
    assert legal_plays(["5D", "2S"], "AD", "H", False) == ["2S"]
    assert legal_plays(["5D", "3H"], "AD", "H", False) == ["5D", "3H"]  # only trumps left
    # the other five may open the round (it is a trump) and wins against lower trumps
    assert legal_plays(["5D", "AD"], None, "H", True) == ["5D"]
    assert trick_winner(["AD", "4H", "5D", "KD"], "H") == 2


def test_passing_starts_with_the_bidder_even_when_the_bidder_is_not_left_of_the_dealer() -> None:
    # dealer 3 (left of dealer: seat 0); seat 1 wins the auction. Seats 0, 1, 2 hold one or two trumps.
    hands = build_hands({0: ["AH"], 1: ["KH", "QH"], 2: ["JH"]}, "H", sink=3)
    s = stacked(hands, dealer=3)
    for seat, action in ((0, "pass"), (1, "bid:30"), (2, "pass"), (3, "pass")):
        s = E.apply(s, seat, action)
    assert s.phase == "trump" and s.bidder == 1
    s = E.apply(s, 1, "trump:H")
    assert E.to_act(s) == [1]  # the bidder decides first, not the player left of the dealer
    s = E.apply(s, 1, "keep")
    assert E.to_act(s) == [2]
    s = E.apply(s, 2, "keep")
    assert E.to_act(s) == [0]  # seat 3 holds more than two trumps and is not asked; seat 0 comes last
    s = E.apply(s, 0, "keep")
    assert s.phase == "discarding"


def test_folded_bidder_first_lead_goes_clockwise_not_to_the_partner() -> None:
    # bidder seat 1 passes its two trumps to seat 3; seat 2, next clockwise, leads (not the partner)
    hands = build_hands({1: ["AH", "KH"], 0: ["QH"], 3: ["JH"]}, "H", sink=2)
    s = to_passing(hands, "H", bidder=1)
    s = E.apply(s, 1, "pass_trumps")
    assert s.received[3] and s.folded[1]
    assert E.to_act(s) == [0]  # seats 2 (many trumps) and 3 (received) are not asked
    s = discard_first(E.apply(s, 0, "keep"))
    assert s.phase == "playing" and E.to_act(s) == [2]
    assert all(a[5:] in trump_cards("H") for a in E.legal_actions(s, 2))


def test_a_defender_plays_the_2_into_the_bidders_trick_it_still_scores_for_the_defenders() -> None:
    # bid 31: the bidders win 30 (the K) in the trick where a defender plays the 2: set by one point
    hands = {0: ["KH", "3S"], 1: ["2H", "4S"], 2: ["3H", "6S"], 3: ["4H", "7S"]}
    s = play_state(hands, "H", bidder=0, bid=31, trick_no=4)
    s = play(s, "KH", "2H", "3H", "4H")
    assert s.last_winner == 0 and s.team_pts == (30, 1)
    assert any("{p1} played the 2♥: 1 point for {p1} & {p3}" in e for e in E.events(s))
    s = play(s, "3S", "4S", "6S", "7S")
    assert s.last_round["points"] == [30, 1] and not s.last_round["made"]
    assert s.scores == (-31, 1)


def test_defenders_over_the_target_do_not_win_when_the_bidders_make_their_bid() -> None:
    s = E.new_game(4, 3)
    s.scores = (300, 0)
    s = finish_round_with(s, 35, 30, bidder=1)  # team 1 makes its bid; team 0 (300) only defended
    assert not E.is_over(s) and s.scores == (300, 35)


def test_the_bidders_win_on_a_made_bid_at_target_even_if_the_defenders_have_more() -> None:
    s = E.new_game(4, 3)
    s.scores = (400, 240)
    s = finish_round_with(s, 30, 30, bidder=3)
    assert E.is_over(s) and s.scores == (400, 270)
    assert E.outcome(s) == [3, 1, 3, 1]


def test_a_made_bid_at_target_wins_in_the_last_round_even_if_the_defenders_have_more() -> None:
    """The target is checked before ``max_rounds``' more-points rule."""
    s = E.new_game(4, 3, {"max_rounds": 1})
    s.scores = (400, 240)
    s = finish_round_with(s, 30, 30, bidder=3)
    assert E.is_over(s) and s.scores == (400, 270)
    assert E.outcome(s) == [3, 1, 3, 1]
