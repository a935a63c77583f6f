"""The King Pedro bot player: always a legal move, sensible bids, and games that end on a made bid."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bots import RandomBot, bot_action
from engines.king_pedro import ENGINE
from engines.king_pedro.bot import best_suit, choose, hand_strength
from tests.engines.test_king_pedro_rules import play, play_state

E = ENGINE


def never(n: int) -> int:
    raise AssertionError("this decision should not need a random draw")


def bidding_state(hand: list[str], bid: int = 0, bidder: int = -1, turn: int = 1) -> object:
    s = E.new_game(4, 3)
    hands = list(s.hands)
    hands[turn] = tuple(hand)
    s.hands = tuple(hands)
    s.turn, s.bid, s.bidder = turn, bid, bidder
    return s


STRONG = ["AS", "KS", "10S", "9S", "5S", "5C", "JS", "2H", "3D"]
WEAK = ["3S", "4H", "6D", "7C", "8S", "9H", "QD", "JC", "2D"]


def test_a_strong_hand_bids_the_least_it_may() -> None:
    s = bidding_state(STRONG)
    assert best_suit(STRONG)[0] == "S"
    assert choose(s, 1, E.legal_actions(s, 1), never) == "bid:30"
    s = bidding_state(STRONG, bid=41, bidder=0)
    assert choose(s, 1, E.legal_actions(s, 1), never) == "bid:42"


def test_a_weak_hand_passes_and_nobody_outbids_past_their_count() -> None:
    s = bidding_state(WEAK)
    assert hand_strength(WEAK, best_suit(WEAK)[0]) < 30
    assert choose(s, 1, E.legal_actions(s, 1), never) == "pass"
    cap = best_suit(STRONG)[1]
    s = bidding_state(STRONG, bid=min(cap, 61), bidder=0)
    assert choose(s, 1, E.legal_actions(s, 1), never) == "pass"


def test_the_bot_does_not_outbid_its_partner() -> None:
    s = bidding_state(STRONG, bid=30, bidder=3)  # seat 3 is seat 1's partner
    assert choose(s, 1, E.legal_actions(s, 1), never) == "pass"


def test_the_bidder_names_its_strongest_suit() -> None:
    hand = ["AH", "KH", "10H", "5D", "2H", "3S", "4S", "6C", "7C", "8D", "9D", "QS", "JC"]
    s = bidding_state(hand)
    s.phase, s.bid, s.bidder = "trump", 30, 1
    assert choose(s, 1, E.legal_actions(s, 1), never) == "trump:H"


def test_one_or_two_trumps_go_to_a_partner_who_bid_and_stay_otherwise() -> None:
    s = E.new_game(4, 3)
    s.phase, s.trump, s.bidder = "passing", "S", 3
    assert choose(s, 1, ["pass_trumps", "keep"], never) == "pass_trumps"
    s.bidder = 0
    assert choose(s, 1, ["pass_trumps", "keep"], never) == "keep"


def test_the_leader_leads_its_highest_trump() -> None:
    s = play_state({0: ["KS", "2S", "9S", "AH", "QH", "3D"], 1: ["AS", "4H", "5H", "6H", "7H", "8H"],
                    2: ["10S", "JH", "10H", "9H", "2H", "3H"], 3: ["QS", "KH", "KD", "QD", "JD", "10D"]},
                   "S", bidder=0)
    assert choose(s, 0, E.legal_actions(s, 0), never) == "play:KS"


def test_a_follower_wins_as_cheaply_as_it_can_or_throws_the_least() -> None:
    hands = {0: ["9S", "AH", "QH", "3D", "4D", "6D"], 1: ["AS", "10S", "QS", "5H", "6H", "7H"],
             2: ["2S", "JH", "10H", "9H", "8H", "3H"], 3: ["KS", "4S", "KD", "QD", "JD", "10D"]}
    s = play(play_state(hands, "S", bidder=0), "9S")
    assert choose(s, 1, E.legal_actions(s, 1), never) == "play:QS", "Q beats the 9 and scores nothing"
    s = play(s, "QS")
    assert choose(s, 2, E.legal_actions(s, 2), never) == "play:2S", "the 2 scores for whoever plays it"
    s = play(s, "2S")
    assert choose(s, 3, E.legal_actions(s, 3), never) == "play:KS"


def test_the_last_player_gives_its_partner_the_richest_card() -> None:
    hands = {0: ["AS", "AH", "QH", "3D", "4D", "6D"], 1: ["3S", "6S", "QS", "5H", "6H", "7H"],
             2: ["10S", "JH", "10H", "9H", "8H", "3H"], 3: ["KS", "4S", "KD", "QD", "JD", "10D"]}
    s = play(play_state(hands, "S", bidder=1), "3S", "10S", "KS")  # seat 3's K wins so far; seat 0 plays last
    assert choose(s, 0, E.legal_actions(s, 0), never) == "play:AS", "the A takes the K"
    s = play(play_state(hands, "S", bidder=3, turn=3), "4S")
    s = play(s, "AS")  # seat 0 takes the lead; seat 1 is an opponent
    assert choose(s, 1, E.legal_actions(s, 1), never) == "play:3S", "no trump beats the A: throw the least"
    s = play(s, "3S")
    assert choose(s, 2, E.legal_actions(s, 2), never) == "play:10S", "last to a partner's trick: the 10"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), smart=st.sets(st.integers(0, 3)))
def test_every_bot_move_is_legal_in_games_mixed_with_random_players(seed: int, smart: set[int]) -> None:
    state = E.new_game(4, seed, {"max_rounds": 3})
    random_player = RandomBot(seed)
    moves = 0
    while not E.is_over(state):
        seat = E.to_act(state)[0]
        if seat in smart:
            action = bot_action(E, state, seat, seed + moves)
            assert action in E.legal_actions(state, seat)
        else:
            action = random_player.choose(E, state, seat)
        state = E.apply(state, seat, action)
        moves += 1


def test_four_bots_end_games_on_a_made_bid_long_before_the_round_limit() -> None:
    rounds = []
    for seed in range(12):
        state = E.new_game(4, seed)
        moves = 0
        while not E.is_over(state):
            seat = E.to_act(state)[0]
            state = E.apply(state, seat, bot_action(E, state, seat, seed * 100_000 + moves))
            moves += 1
        assert not any("round limit" in e for e in E.events(state))
        assert state.last_round["made"] and state.scores[state.winner] >= 262
        rounds.append(state.round)
    assert sum(rounds) / len(rounds) < 40, rounds


def test_the_same_salt_gives_the_same_move() -> None:
    s = E.new_game(4, 11)
    for _ in range(40):
        seat = E.to_act(s)[0]
        assert bot_action(E, s, seat, 5) == bot_action(E, s, seat, 5)
        s = E.apply(s, seat, bot_action(E, s, seat, 5))
