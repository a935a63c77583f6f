"""Random playouts of King Pedro: thousands of rounds, hundreds of full games, leak and replay checks."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from data.editions import king_pedro as edition
from engines.king_pedro import ENGINE, pretty, trump_cards
from engines.rng import Rng
from tests.engines.harness import (
    assert_replay_deterministic,
    assert_roundtrip,
    canonical,
    json_strings,
    random_playout,
)

E = ENGINE
DECK = set(edition.DECK)
SEEDS = st.integers(min_value=0, max_value=2**40)


def all_cards(s: object) -> list[str]:
    cards = list(s.stock)
    for p in range(4):
        cards += s.hands[p]
        cards += s.folded_cards[p]
        cards += s.facedown[p]
    cards += [c for _, c in s.faceup]
    cards += [c for _, c in s.trick]
    cards += s.won[0] + s.won[1]
    return cards


def check_cards(s: object) -> None:
    cards = all_cards(s)
    assert len(cards) == 52 and set(cards) == DECK, "every card accounted for exactly once"


class RoundChecker:
    """At each finished round: the credited points plus face-up discards add up to 62."""

    def __init__(self) -> None:
        self.rounds = 0
        self.seen = None

    def __call__(self, s: object) -> None:
        check_cards(s)
        last = s.last_round
        if last is not None and last["round"] != self.seen:
            self.seen = last["round"]
            self.rounds += 1
            assert sum(last["points"]) + last["faceup_points"] == 62
            bt = last["bidding_team"]
            made = last["points"][bt] >= last["bid"]
            assert last["made"] == made
            assert last["deltas"][bt] == (last["points"][bt] if made else -last["bid"])
            assert last["deltas"][1 - bt] == last["points"][1 - bt]
        if s.phase == "playing":
            active = [p for p in range(4) if not s.folded[p]]
            assert len({len(s.hands[p]) + any(q == p for q, _ in s.trick) for p in active}) == 1
        if s.phase == "over":
            assert s.round <= s.max_rounds


def visible(s: object, viewer: int | None) -> set[str]:
    seen = {c for _, c in s.faceup} | {c for _, c in s.trick} | set(s.won[0]) | set(s.won[1])
    seen |= {c for _, c in s.last_trick}
    if viewer is not None:
        seen |= set(s.hands[viewer]) | set(s.facedown[viewer]) | set(s.folded_cards[viewer])
    return seen


def check_no_leak(s: object) -> None:
    for viewer in (None, 0, 1, 2, 3):
        view = E.view(s, viewer)
        json.dumps(view)
        strings = set(json_strings(view))
        hidden = DECK - visible(s, viewer)
        leaked = hidden & strings
        assert not leaked, f"viewer {viewer} sees {leaked}"
        text = canonical(view)
        assert str(s.rng) not in text
        for key in ("game", "num_players", "status", "to_act", "over"):
            assert key in view
        assert view["to_act"] == E.to_act(s)
        if viewer is not None:
            assert view["seat"] == viewer and "hand" in view
            trumps = set(view["trumps"])
            hand = view["hand"]
            assert hand[:len(trumps)] == [c for c in hand if c in trumps], "trumps first"


# ---------------------------------------------------------------- cheap playouts

def fast_playout(seed: int, options: dict | None, contract_checks: bool = True,
                 every_step: bool = True) -> tuple[object, int]:
    """A random game with the cheap checks after every action; returns the end state and rounds played.

    ``contract_checks``: to_act/legal_actions consistency for all four seats at every step. The
    mutation and round-trip checks live in the expensive test below (harness.random_playout).
    ``every_step``: card accounting after every action, else only after actions with events (phase changes).
    """
    rng = Rng(seed * 31 + 7)
    s = E.new_game(4, seed, options)
    checker = RoundChecker()
    checker(s)
    steps = 0
    while True:
        seats = E.to_act(s)
        assert E.is_over(s) == (not seats)
        if not seats:
            break
        if contract_checks:
            for p in range(4):
                acts = E.legal_actions(s, p)
                assert (p in seats) == bool(acts)
                assert len(set(acts)) == len(acts) and all(len(a) <= 80 for a in acts)
        seat = rng.choice(seats)
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
        if every_step or s.events:
            checker(s)
        steps += 1
        assert steps < 50_000, "game did not end"
    return s, checker.rounds


# ---------------------------------------------------------------- 2000 random rounds

@settings(max_examples=2000, deadline=None, derandomize=True)
@given(seed=SEEDS, options=st.sampled_from([{"max_rounds": 1}, {"max_rounds": 1, "target": 30}]))
def test_random_rounds_keep_every_card_and_62_points(seed: int, options: dict) -> None:
    state, rounds = fast_playout(seed, options)
    assert E.is_over(state)
    assert rounds == 1
    places = E.outcome(state)
    assert places[0] == places[2] and places[1] == places[3]
    assert sorted(places) in ([1, 1, 1, 1], [1, 1, 3, 3])
    last = state.last_round
    if last["made"] and last["totals"][last["bidding_team"]] >= state.target:
        assert state.winner == last["bidding_team"]


# ---------------------------------------------------------------- 200+ full games with the default options

@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_random_full_games_with_default_options_end(seed: int) -> None:
    s, rounds = fast_playout(seed, None, contract_checks=False, every_step=False)
    assert E.is_over(s)
    assert rounds == s.round <= 100
    if s.winner in (0, 1) and s.round < 100:
        assert s.scores[s.winner] >= 262 and s.last_round["made"] and s.last_round["bidding_team"] == s.winner


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=SEEDS, target=st.sampled_from([30, 60, 100]))
def test_random_full_games_with_small_targets_are_won_on_a_made_bid(seed: int, target: int) -> None:
    s, _ = fast_playout(seed, {"target": target, "max_rounds": 30})
    assert E.is_over(s)
    if s.round < 30:
        last = s.last_round
        assert last["made"] and s.winner == last["bidding_team"] and s.scores[s.winner] >= target


# ---------------------------------------------------------------- expensive per-step checks

@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=SEEDS, options=st.sampled_from([{"max_rounds": 1}, {"max_rounds": 1}, {"max_rounds": 2, "target": 40}]))
def test_views_leak_nothing_roundtrip_and_replay(seed: int, options: dict) -> None:
    def on_step(s: object) -> None:
        check_cards(s)
        check_no_leak(s)
        assert_roundtrip(E, s)

    state, log = random_playout(E, 4, seed, options, on_step=on_step)
    assert_replay_deterministic(E, 4, seed, options, log, state)
    # labels and events never name a card the table could not see and the action does not reveal
    s = E.new_game(4, seed, options)
    for seat, action in log:
        label = E.public_label(s, seat, action)
        assert 0 < len(label) <= 100 and 0 < len(E.describe(s, action)) <= 100
        verb, _, card = action.partition(":")
        revealed = {card} if verb == "play" or (verb == "discard" and card in trump_cards(s.trump)) else set()
        hidden = DECK - visible(s, None) - revealed
        after = E.apply(s, seat, action)
        for text in [label, *E.events(after)]:
            assert not any(pretty(c) in text or c in text.split() for c in hidden), text
        s = after
