"""Property tests for Ogre Cheerleaders: thousands of random playouts through the shared harness."""

from __future__ import annotations

import json
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from data.editions import ogre_cheerleaders as edition
from engines.ogre_cheerleaders import ENGINE as E
from engines.ogre_cheerleaders.state import State, all_cards
from tests.engines.harness import (
    assert_replay_deterministic,
    assert_roundtrip,
    canonical,
    json_strings,
    random_playout,
)

ALL = sorted(edition.CARDS)
CODE = re.compile(r"\b[OSCU](?:10|[1-9])\b")

players = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**40)
options = st.sampled_from([None, None, None, {"max_turns": 3}, {"max_turns": 12}])


def cards_in(obj) -> set[str]:
    """Card codes anywhere in a JSON-like value: whole strings and codes inside sentences."""
    found: set[str] = set()
    for text in json_strings(obj):
        found.update(CODE.findall(text))
    return found


def hidden_from(s: State, viewer: int | None) -> set[str]:
    """Cards ``viewer`` (None = the table) may not see: the deck, other hands, cards in transit
    (the 6's stolen card, the 7's and 8's deck cards) except for the acting seat, and the 1's
    bench card, which is public."""
    hidden = set(s.deck)
    for q, hand in enumerate(s.hands):
        if q != viewer:
            hidden.update(hand)
    if s.transit:
        public = s.pending == ["join", "bench"]
        if not public and viewer != s.seat:
            hidden.update(s.transit)
    return hidden


def check_accounting(s: State) -> None:
    assert sorted(all_cards(s)) == ALL, "all 40 cards across hands, deck, field, bench, piles, transit"
    assert not s.transit or (s.pending and s.pending[0] in ("place", "join", "eight"))


def check_consistency(s: State) -> None:
    check_accounting(s)
    seats = E.to_act(s)
    assert seats == ([] if s.over else [s.seat])
    if seats:
        acts = E.legal_actions(s, s.seat)
        assert acts and len(acts) == len(set(acts))
        assert len({a.partition(":")[0] for a in acts}) <= 3
        assert all(len(a) <= 80 for a in acts)
    else:
        assert len(E.outcome(s)) == s.n and min(E.outcome(s)) == 1


def check_no_leaks(s: State) -> None:
    deck_order = list(s.deck)
    for viewer in [None, *range(s.n)]:
        view = E.view(s, viewer)
        hidden = hidden_from(s, viewer)
        seen = set(json_strings(view))
        assert not (seen & hidden), f"viewer {viewer} sees hidden cards {seen & hidden}"
        assert not (cards_in(view) & hidden), f"viewer {viewer} reads hidden cards in text"
        assert "deck" not in view and "rng" not in view and "transit" not in view
        if len(deck_order) > 1:
            assert deck_order not in list(_lists(view)) and deck_order[::-1] not in list(_lists(view))
        for key in ("game", "num_players", "status", "to_act", "over"):
            assert key in view
        if viewer is not None:
            assert view["seat"] == viewer and view["hand"] == s.hands[viewer]
        if s.over:
            assert view["outcome"] == E.outcome(s)


def _lists(obj):
    if isinstance(obj, list):
        yield obj
        for v in obj:
            yield from _lists(v)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _lists(v)


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(n=players, seed=seeds, opts=options)
def test_random_games_end_with_every_card_accounted_for(n, seed, opts):
    final, log = random_playout(E, n, seed, opts, on_step=check_consistency)
    assert final.over and final.result in ("deck", "stalemate", "max_turns")
    if opts:
        assert final.turns <= opts["max_turns"]
    if final.result == "deck":
        # the seat to the right of the first player took the last turn: everyone had as many turns
        assert final.seat == (final.first - 1) % n and final.turns % n == 0
        assert not final.deck and final.turns > final.deck_out >= final.turns - n
    elif final.result == "stalemate":
        assert final.streak_len == edition.STALEMATE_TURNS and E.outcome(final) == [1] * n
    assert log


@settings(max_examples=250, deadline=None, derandomize=True)
@given(n=players, seed=seeds)
def test_random_games_leak_nothing_roundtrip_and_replay(n, seed):
    labels_checked = Counter()
    prev: list[State] = []

    def on_step(s: State) -> None:
        check_accounting(s)
        check_no_leaks(s)
        assert_roundtrip(E, s)
        if prev:
            # Events may name a card the table saw before or after the action, never one hidden in both.
            leaked = cards_in(E.events(s)) & hidden_from(prev[-1], None) & hidden_from(s, None)
            assert not leaked, f"events name hidden cards {leaked}"
        prev[:] = [s]
        if not s.over:
            # A loaded snapshot plays on exactly like the original.
            first = E.legal_actions(s, s.seat)[0]
            loaded = E.load(json.loads(json.dumps(E.dump(s))))
            assert canonical(E.dump(E.apply(loaded, s.seat, first))) == canonical(E.dump(E.apply(s, s.seat, first)))
            hidden_now = hidden_from(s, None)
            for action in E.legal_actions(s, s.seat):
                label = E.public_label(s, s.seat, action)
                assert 0 < len(label) <= 100 and 0 < len(E.describe(s, action)) <= 100
                after = hidden_from(E.apply(s, s.seat, action), None)
                # A label may name a card the table sees before or after the action, never one hidden in both.
                assert not (set(CODE.findall(label)) & hidden_now & after), (action, label)
                labels_checked[action.partition(":")[0]] += 1

    final, log = random_playout(E, n, seed, None, on_step=on_step)
    assert_replay_deterministic(E, n, seed, None, log, final)
    assert labels_checked
