"""Pentawar property tests: thousands of random playouts with 2 to 5 players."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from data.editions import pentawar as edition
from engines.pentawar import ENGINE, PLACES, can_kill
from engines.rng import Rng
from tests.engines.harness import (
    assert_replay_deterministic,
    assert_roundtrip,
    canonical,
    json_strings,
    random_playout,
)

E = ENGINE
FULL_DECK = Counter(edition.DECK)
SORTED_DECK = sorted(edition.DECK)
CARD_CODES = frozenset(edition.KINDS)


def all_cards(s) -> Counter:
    c = Counter(s.war) + Counter(s.deck) + Counter(s.discard) + Counter(s.tableau)
    for h in s.hands:
        c += Counter(h)
    for w in s.wings:
        c += Counter(k for k in w if k is not None)
    if s.pending is not None:
        c[s.pending[1]] += 1
    return c


def visible_to(s, seat: int | None) -> set[str]:
    seen = set(s.war) | set(s.discard) | set(s.tableau)
    for w in s.wings:
        seen.update(k for k in w if k is not None)
    if s.pending is not None:
        seen.add(s.pending[1])
    if seat is not None:
        seen.update(s.hands[seat])
    return seen


def hidden_from(s, seat: int | None) -> set[str]:
    hidden = set(s.deck)
    for other, h in enumerate(s.hands):
        if other != seat:
            hidden.update(h)
    return hidden


def lists_in(obj):
    if isinstance(obj, list):
        yield obj
        for v in obj:
            yield from lists_in(v)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from lists_in(v)


def permuted_hidden(s, seat: int | None, salt: int):
    """A copy of ``s`` where every card hidden from ``seat`` (deck, other hands) is shuffled among those places."""
    t = E.load(E.dump(s))
    owners = [o for o in range(s.n) if o != seat]
    pool = list(t.deck) + [k for o in owners for k in t.hands[o]]
    Rng(salt).shuffle(pool)
    t.deck = pool[:len(t.deck)]
    at = len(t.deck)
    for o in owners:
        size = len(t.hands[o])
        t.hands[o] = pool[at:at + size]
        at += size
    return t


def check_cards(s) -> None:
    cards = s.war + s.deck + s.discard + s.tableau
    for h in s.hands:
        cards += h
    for w in s.wings:
        cards += [k for k in w if k is not None]
    if s.pending is not None:
        cards.append(s.pending[1])
    assert sorted(cards) == SORTED_DECK, "all 40 cards must be accounted for"
    assert len(s.war) == 5
    for w in s.wings:
        for i, k in enumerate(w):
            if k is not None and i >= 2:
                below = (i - 2,) if i < 4 else (2, 3)
                assert all(w[j] is not None for j in below), "a card lies only on filled places"


def check_cheap(s) -> None:
    check_cards(s)
    if E.is_over(s):
        places = E.outcome(s)
        assert len(places) == s.n and min(places) == 1
        assert E.view(s, None)["outcome"] == places
    else:
        for a in E.legal_actions(s, E.to_act(s)[0]):
            assert len(a) <= 80 and " " not in a


def check_views(s) -> None:
    assert_roundtrip(E, s)
    for seat in [None, *range(s.n)]:
        v = E.view(s, seat)
        if seat is None or seat == s.turn:
            assert json.loads(canonical(v)) == v  # JSON-safe
        assert v["game"] == "pentawar" and v["num_players"] == s.n and v["to_act"] == E.to_act(s)
        assert v["over"] == E.is_over(s) and isinstance(v["status"], str) and v["status"]
        # a kind is a leak only if no copy of it is visible to this viewer
        candidates = hidden_from(s, seat) - visible_to(s, seat)
        if candidates:
            leaked = candidates.intersection(json_strings(v))
            assert not leaked, f"view for {seat} leaks {leaked}"
        if seat in (None, s.turn) and len(s.deck) >= 5 and len(set(s.deck)) >= 3:  # short decks: chance matches
            assert all(lst != s.deck and lst != s.deck[::-1] for lst in lists_in(v)), "deck order leaked"
        assert "rng" not in v and "deck" not in v
        if seat is None:
            assert "hand" not in v and "seat" not in v
        else:
            assert v["seat"] == seat and sorted(v["hand"]) == sorted(s.hands[seat])
        # the view depends on nothing the viewer cannot see
        other = permuted_hidden(s, seat, len(s.deck) * 7 + (seat or 0))
        assert E.view(other, seat) == v, f"view for {seat} depends on hidden cards"
    if not E.is_over(s):
        actor = E.to_act(s)[0]
        other = permuted_hidden(s, actor, 99)
        for a in E.legal_actions(s, actor):
            label = E.public_label(s, actor, a)
            assert 0 < len(label) <= 100 and 0 < len(E.describe(s, a)) <= 100
            if a in E.legal_actions(other, actor):
                assert E.public_label(other, actor, a) == label
    for sentence in E.events(s):
        assert isinstance(sentence, str) and sentence
    check_kills_match_rule_helper(s)


#: rules/pentawar.md, written out again: C lies on A, D on B, E on both C and D; rows A B / C D / E.
LIES_ON = {"C": "A", "D": "B", "E": "CD"}
ROWS = ("AB", "CD", "E")


def uncovered(wing: list) -> list[str]:
    filled = {PLACES[i] for i, k in enumerate(wing) if k is not None}
    return [p for p in PLACES if p in filled and not any(p in LIES_ON.get(q, "") for q in filled)]


def open_places(wing: list) -> list[str]:
    for row in ROWS:
        free = [p for p in row if wing[PLACES.index(p)] is None]
        if free:
            return free
    return []


def check_kills_match_rule_helper(s) -> None:
    """The offered actions are exactly what the rules allow, with kills judged by ``can_kill``."""
    if s.phase not in ("turn", "alter_kill"):
        return
    seat = s.turn
    offered = set(E.legal_actions(s, seat))
    expected = set()
    for src, cards in (("hand", s.hands[seat]), ("tableau", s.tableau)):
        for a in set(cards):
            for v in range(s.n):
                for p in uncovered(s.wings[v]):
                    if v != seat and can_kill(s.war, a, s.wings[v][PLACES.index(p)]):
                        expected.add(f"kill:{src}:{a}:{v}:{p}")
            if s.phase == "turn":
                expected.add(f"alter:{src}:{a}")
                if a in s.war:
                    expected.update(f"wing:{src}:{a}:{p}" for p in open_places(s.wings[seat]))
    if s.phase == "alter_kill":
        expected.add("skip")
    elif s.deck:
        expected.add("gather")
    assert offered == (expected or {"pass"})


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**40))
def test_random_games_end_with_all_cards_accounted(n, seed):
    final, log = random_playout(E, n, seed, on_step=check_cheap)
    assert E.is_over(final) and log


@settings(max_examples=200, deadline=None, derandomize=True)
@given(n=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**40))
def test_random_games_roundtrip_leak_nothing_and_replay(n, seed):
    final, log = random_playout(E, n, seed, on_step=check_views)
    assert_replay_deterministic(E, n, seed, None, log, final)
    assert E.view(final, None) == E.view(E.load(E.dump(final)), None)


def test_all_player_counts_reach_both_endings():
    reasons = Counter()
    for n in range(2, 6):
        for seed in range(80):
            final, _ = random_playout(E, n, seed)
            reason = final.end_reason
            kind = "wing" if "5 dragons" in reason else ("second" if "second" in reason else "deck")
            reasons[(n, kind)] += 1
    assert sum(reasons[(n, "wing")] for n in range(2, 6)), "no game ended by a full flight wing"
    for n in (2, 3):
        assert reasons[(n, "deck")] and not reasons[(n, "second")]
    for n in (4, 5):
        assert reasons[(n, "second")], f"{n} players: no game ended after the reshuffle"
