"""Random Pedwar games: every game ends, 90 cards always accounted for, no leaks, replay and round trip."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from data.editions import pedwar as edition
from engines.pedwar import ENGINE as E
from engines.pedwar import bids as B
from engines.pedwar import rules as R
from engines.pedwar.state import OVER, TRUMP, State
from engines.rng import Rng
from tests.engines.harness import assert_replay_deterministic, assert_roundtrip, json_strings, random_playout

OBJECTS = sorted(edition.OBJECT_CARDS)
MANEUVERS = sorted(edition.MANEUVER_CARDS)
GOALS = sorted(edition.GOALS)
KINDS = set(edition.MANEUVER_KINDS)
CODES = set(edition.OBJECT_CARDS)


def census(s: State) -> None:
    """All 40 Object and 50 Maneuver cards are somewhere, once; the 8 Goals too."""
    objects = [c for c in s.row if c is not None] + s.odeck
    for coll in s.colls:
        objects += coll
    assert sorted(objects) == OBJECTS
    maneuvers = s.mdeck + s.mdisc + s.spent
    for hand in s.hands:
        maneuvers += hand
    for slot in s.bids:
        for _seat, text in slot:
            maneuvers += B.BY_TEXT[text][1]
    assert sorted(maneuvers) == MANEUVERS
    assert sorted(s.goals + s.goals_out) == GOALS
    assert all(len(h) <= edition.HAND_LIMIT for h in s.hands)


def visible_maneuvers(s: State, seat: int | None) -> Counter:
    seen = Counter(s.discarded) + Counter(s.spent)
    for slot in s.bids:
        for _seat, text in slot:
            seen += Counter(B.BY_TEXT[text][1])
    if seat is not None:
        seen += Counter(s.hands[seat])
    if s.final is not None:
        seen += Counter(card for rnd in s.final["tiebreak"] for _seat, card in rnd if card)
    return seen


def check_no_leak(s: State, seat: int | None) -> None:
    view = E.view(s, seat)
    strings = list(json_strings(view))
    # Maneuver cards: exactly the face-up ones (bids, this turn's discards) and the viewer's own hand
    assert Counter(x for x in strings if x in KINDS) == visible_maneuvers(s, seat)
    # Object cards: no card of the face-down Object deck, unless the viewer's own Goal names it
    shown = {c for c in s.row if c} | {c for coll in s.colls for c in coll}
    if seat is not None:
        shown |= set(edition.GOALS[s.goals[seat]])
    if s.phase == OVER:
        shown |= {c for g in s.goals for c in edition.GOALS[g]}
    assert {x for x in strings if x in CODES} <= shown
    text = json.dumps(view)
    for deck in (s.odeck, s.mdeck):  # deck order (short lists could match a hand or a bid by chance)
        if len(deck) > 8:
            assert json.dumps(deck) not in text
    assert str(s.rng) not in text
    # Goals: nobody sees another player's Goal before the end
    for p in view["players"]:
        if s.phase != OVER:
            assert p["goal"] is None
    if seat is not None:
        assert view["goal"] == s.goals[seat] and view["hand"] == s.hands[seat]
    else:
        assert "hand" not in view and "goal" not in view


def check_rules_step(before: State, seat: int, actions: list[str], after: State) -> None:
    """Rules that every single step must keep (rules/pedwar.md), checked on random games."""
    if before.phase == TRUMP:  # every offered raise is a legal raise on a card in play
        refs = R.refs(before)
        for act in actions:
            if not act.startswith("raise:"):
                continue
            _, ref, text = act.split(":")
            slot = refs.index(ref)
            assert slot in before.inplay and slot not in before.raised
            top_seat, top_text = before.bids[slot][-1]
            top, bid = B.BY_TEXT[top_text], B.BY_TEXT[text]
            assert top_seat != seat  # never over your own highest bid
            if top[2] is None:  # after another player's OP: only the active player, only an OP
                assert seat == before.active and bid[2] is None
            elif bid[2] is not None:
                assert bid[2] >= top[2] + 1
    for i in range(before.n):  # only the active player draws; a player who starts a turn with no cards skips it
        if i != before.active and len(after.hands[i]) > len(before.hands[i]):
            assert f"{{p{i}}} has no Maneuver cards and skips to the End phase" in after.events
    if after.phase == OVER:
        assert not after.odeck or after.turns >= after.max_turns
    elif after.turns != before.turns:  # a turn ended: its player drew up to 6 if the cards were there
        assert len(after.hands[before.active]) == edition.HAND_LIMIT or not (after.mdeck or after.mdisc)
        assert after.odeck and all(after.row)  # the row is full again and the game goes on


def perturbed(s: State, seat: int | None, rnd: random.Random) -> State:
    """The same game as far as ``seat`` can tell: other hands, Goals, deck orders and rng changed."""
    t = s.clone()
    others = [i for i in range(s.n) if i != seat]
    pool = list(t.mdeck) + [k for i in others for k in t.hands[i]]
    rnd.shuffle(pool)
    for i in others:
        size = len(t.hands[i])
        t.hands[i] = sorted(pool[:size], key=B.RANK.__getitem__)
        del pool[:size]
    t.mdeck = pool
    goals = [t.goals[i] for i in others] + t.goals_out
    rnd.shuffle(goals)
    for i in others:
        t.goals[i] = goals.pop()
    t.goals_out = goals
    rnd.shuffle(t.odeck)
    t.rng = rnd.getrandbits(64)
    return t


def check_views_independent_of_hidden(s: State, rnd: random.Random) -> None:
    if s.phase == OVER:
        return
    for seat in [None, *range(s.n)]:
        assert E.view(perturbed(s, seat, rnd), seat) == E.view(s, seat)


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_with_all_cards_accounted_for(n: int, seed: int) -> None:
    """Cheap checks on 2000 games: ends, 90 cards after every action, to_act/legal consistency, labels."""
    s = E.new_game(n, seed)
    rng = Rng(seed)
    census(s)
    steps = 0
    while not E.is_over(s):
        seats = E.to_act(s)
        assert len(seats) == 1
        seat = seats[0]
        actions = E.legal_actions(s, seat)
        assert actions and len(set(actions)) == len(actions)
        assert E.legal_actions(s, (seat + 1) % n) == []
        groups = Counter(a.split(":")[0] for a in actions)
        assert len(groups) <= 3
        sub = Counter(tuple(a.split(":")[:2]) for a in actions)
        assert max(sub.values()) <= 25
        action = rng.choice(actions)
        assert len(action) <= 80
        assert len(E.describe(s, action)) <= 100 and len(E.public_label(s, seat, action)) <= 100
        after = E.apply(s, seat, action)
        check_rules_step(s, seat, actions, after)
        s = after
        census(s)
        steps += 1
        assert steps < 5000
    assert E.to_act(s) == []
    places = E.outcome(s)
    assert len(places) == n and min(places) == 1
    scores = s.final["scores"]  # type: ignore[index]
    for i in range(n):  # a place is 1 + the number of players ranked ahead
        if places[i] > 1:
            assert places[i] == 1 + sum(1 for j in range(n) if places[j] < places[i])
            assert all(scores[j] >= scores[i] for j in range(n) if places[j] < places[i])
    assert all(isinstance(e, str) for e in E.events(s))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_no_leaks_roundtrip_and_replay(n: int, seed: int) -> None:
    rnd = random.Random(seed)

    def on_step(s: State) -> None:
        census(s)
        assert_roundtrip(E, s)
        for seat in [None, *range(n)]:
            check_no_leak(s, seat)
        if rnd.random() < 0.2:
            check_views_independent_of_hidden(s, rnd)
        json.dumps(E.dump(s))

    final, log = random_playout(E, n, seed, on_step=on_step)
    assert E.is_over(final)
    assert_replay_deterministic(E, n, seed, None, log, final)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32),
       max_turns=st.integers(min_value=1, max_value=12))
def test_max_turns_games_end_and_score(n: int, seed: int, max_turns: int) -> None:
    final, log = random_playout(E, n, seed, {"max_turns": max_turns}, on_step=census)
    assert E.is_over(final) and final.turns <= max_turns
    assert_replay_deterministic(E, n, seed, {"max_turns": max_turns}, log, final)
