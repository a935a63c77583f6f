"""The determinize hook of every game: a state the seat cannot tell from the real one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_engine
from tests.engines.harness import canonical
from tests.engines.search_states import GAMES, midgame, play_out


def _hidden_places(game_id: str, engine, state, seat: int) -> str:
    """Everything in the dump except the RNG: two dumps differ here only if hidden cards moved."""
    d = engine.dump(state)
    d.pop("rng", None)
    return canonical(d)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32), salt=st.integers(min_value=0, max_value=2**32))
def test_same_view_and_playable(game_id: str, seed: int, salt: int) -> None:
    engine = get_engine(game_id)
    state, to_act = midgame(game_id, seed)
    before = canonical(engine.dump(state))
    for seat in sorted({to_act, seed % engine.view(state, None)["num_players"]}):
        d = engine.determinize(state, seat, random.Random(salt))
        assert canonical(engine.dump(state)) == before, "determinize must not change its input"
        assert engine.view(d, seat) == engine.view(state, seat)
        assert engine.view(d, None) == engine.view(state, None)
        assert engine.to_act(d) == engine.to_act(state)
        assert engine.legal_actions(d, seat) == engine.legal_actions(state, seat)
        assert engine.events(d) == engine.events(state)
        play_out(engine, d, random.Random(salt))


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32), salt=st.integers(min_value=0, max_value=2**32))
def test_blind_to_the_hidden_cards(game_id: str, seed: int, salt: int) -> None:
    """Two states the seat cannot tell apart give the very same determinization for the same ``rng``:
    the hook reads nothing but what the seat sees."""
    engine = get_engine(game_id)
    state, seat = midgame(game_id, seed)
    other = engine.determinize(state, seat, random.Random(salt + 1))
    a = engine.determinize(state, seat, random.Random(salt))
    b = engine.determinize(other, seat, random.Random(salt))
    assert canonical(engine.dump(a)) == canonical(engine.dump(b))


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_hidden_cards_move(game_id: str, seed: int) -> None:
    engine = get_engine(game_id)
    state, seat = midgame(game_id, seed, steps=3 + seed * 7)
    seen = {_hidden_places(game_id, engine, engine.determinize(state, seat, random.Random(k)), seat)
            for k in range(20)}
    assert len(seen) > 5, "determinize must redeal the hidden cards, not copy them"


@pytest.mark.parametrize("game_id", GAMES)
def test_rng_reseeded(game_id: str) -> None:
    """The engine's own generator is drawn from ``rng``: future shuffles are not the real ones."""
    engine = get_engine(game_id)
    state, seat = midgame(game_id, 5, steps=4)
    rngs = {engine.dump(engine.determinize(state, seat, random.Random(k)))["rng"] for k in range(10)}
    assert engine.dump(state)["rng"] not in rngs
    assert len(rngs) == 10


def test_king_pedro_honours_voids_and_face_up_discards() -> None:
    """A player who did not follow a trump lead gets no trump; one who trumped a non-trump lead, or
    discarded a trump face up, gets only trumps; face-down discards are never trumps."""
    from engines.king_pedro.rules import _TRUMPS

    engine = get_engine("king_pedro")
    checked = 0
    for seed in range(300):
        state, seat = midgame("king_pedro", seed)
        if state.phase not in ("discarding", "playing"):
            continue
        trumps = _TRUMPS[state.trump]
        for k in range(3):
            d = engine.determinize(state, seat, random.Random(k))
            for trick in (state.trick, state.last_trick):
                if not trick:
                    continue
                led_trump = trick[0][1] in trumps
                for p, c in trick[1:]:
                    if p == seat:
                        continue
                    if led_trump and c not in trumps:
                        assert not any(x in trumps for x in d.hands[p])
                        checked += 1
                    if not led_trump and c in trumps:
                        assert all(x in trumps for x in d.hands[p])
                        checked += 1
            for p, c in state.faceup:
                if p != seat and c in trumps:
                    assert all(x in trumps for x in d.hands[p])
            for p in range(4):
                assert not any(x in trumps for x in d.facedown[p] + d.folded_cards[p])
    assert checked > 20


def _facts(trick: tuple, trumps: frozenset[str]) -> tuple[set[int], set[int]]:
    """(did not follow a trump lead, trumped a plain lead) in one trick."""
    if not trick:
        return set(), set()
    led_trump = trick[0][1] in trumps
    return ({p for p, c in trick[1:] if led_trump and c not in trumps},
            {p for p, c in trick[1:] if not led_trump and c in trumps})


def test_king_pedro_remembers_voids_all_round() -> None:
    """What any trick of the round showed (not only this trick and the last) binds the redeal: a
    player who did not follow a trump lead gets no trump, one who trumped a plain lead only trumps."""
    from engines.king_pedro.rules import _TRUMPS

    engine = get_engine("king_pedro")
    checked = 0
    for seed in range(40):
        r = random.Random(seed)
        state = engine.new_game(4, seed, {"max_rounds": 2})
        no_trump: set[int] = set()
        only_trump: set[int] = set()
        round_no = state.round
        while not engine.is_over(state):
            if state.round != round_no:
                round_no, no_trump, only_trump = state.round, set(), set()
            seat = engine.to_act(state)[0]
            if state.phase == "playing" and state.trick_no >= 2:
                recent_no, recent_only = _facts(state.trick, _TRUMPS[state.trump])
                last_no, last_only = _facts(state.last_trick, _TRUMPS[state.trump])
                older = (no_trump - recent_no - last_no) | (only_trump - recent_only - last_only)
                for k in range(2):
                    d = engine.determinize(state, seat, random.Random(k))
                    trumps = _TRUMPS[state.trump]
                    for p in no_trump - {seat}:
                        assert not any(c in trumps for c in d.hands[p])
                    for p in only_trump - {seat}:
                        assert all(c in trumps for c in d.hands[p])
                    checked += len(older - {seat})
            action = r.choice(engine.legal_actions(state, seat))
            if state.phase == "playing" and state.trick:
                trumps = _TRUMPS[state.trump]
                led_trump = state.trick[0][1] in trumps
                card = action[5:]
                if led_trump and card not in trumps:
                    no_trump.add(seat)
                elif not led_trump and card in trumps:
                    only_trump.add(seat)
            state = engine.apply(state, seat, action)
    assert checked > 20, "too few facts from tricks before the last one"


def test_king_pedro_loads_snapshots_without_the_void_record() -> None:
    """A snapshot from before ``no_trump``/``only_trump`` loads with nothing known, and redeals."""
    engine = get_engine("king_pedro")
    state, seat = midgame("king_pedro", 7, steps=60)
    data = engine.dump(state)
    del data["no_trump"], data["only_trump"]
    old = engine.load(data)
    assert old.no_trump == old.only_trump == (False,) * 4
    d = engine.determinize(old, seat, random.Random(1))
    assert engine.view(d, seat) == engine.view(old, seat)


def test_do_over_keeps_known_cards_in_their_hands() -> None:
    """Cards a player took with the pile, or swapped away from their face-up Reserve, are known to
    be in their Hand until they play them: the redeal leaves them there."""
    from engines.do_over import INDEX, NCODES

    engine = get_engine("do_over")
    checked = 0
    for seed in range(30):
        r = random.Random(seed)
        n = 3 + seed % 2
        state = engine.new_game(n, seed, {"max_turns": 300})
        dealt = [u[:] for u in state.up]
        known = [[0] * NCODES for _ in range(n)]
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            if state.phase == "play" and r.random() < 0.3:
                d = engine.determinize(state, seat, random.Random(seed))
                for p in range(n):
                    if p != seat:
                        assert all(d.hands[p][c] >= known[p][c] for c in range(NCODES))
                        checked += sum(known[p])
            action = r.choice(engine.legal_actions(state, seat))
            before = state
            state = engine.apply(state, seat, action)
            if before.phase == "swap" and state.phase == "play":
                for p in range(n):
                    for c in dealt[p]:
                        known[p][c] += 1
                    for c in state.up[p]:
                        if known[p][c]:
                            known[p][c] -= 1
            elif action.startswith("play:") and known[seat][INDEX[action[5:]]]:
                known[seat][INDEX[action[5:]]] -= 1
            elif action == "take" or (action.startswith("flip:") and state.hand_n[seat]):
                for c in before.pile:                   # the pile, and a blind card too low for it
                    known[seat][c] += 1
                if action.startswith("flip:"):
                    known[seat][before.down[seat][int(action[5:])]] += 1
            assert state.phase != "play" or state.known == known
    assert checked > 100


def test_ogre_cheerleaders_keeps_cards_taken_from_the_field() -> None:
    """A card a 4 took from the field into a hand is known to be there until it leaves it: the
    redeal leaves it there."""
    engine = get_engine("ogre_cheerleaders")
    checked = 0
    for seed in range(60):
        r = random.Random(seed)
        n = 2 + seed % 3
        state = engine.new_game(n, seed, {"max_turns": 60})
        taken: list[set[str]] = [set() for _ in range(n)]
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            if any(taken[p] for p in range(n) if p != seat):
                d = engine.determinize(state, seat, random.Random(seed))
                for p in range(n):
                    if p != seat:
                        assert taken[p] <= set(d.hands[p])
                        checked += len(taken[p])
            before = state
            state = engine.apply(state, seat, r.choice(engine.legal_actions(state, seat)))
            for p in range(n):
                taken[p] &= set(state.hands[p])
            taken[seat] |= set(before.field) & set(state.hands[seat]) - set(before.hands[seat])
    assert checked > 50


#: Per game: a midgame to dump, and what "nothing known" is in its state (counts per card, or cards).
NOTHING_KNOWN = {
    "do_over": (11, 80, lambda s: [[0] * len(s.known[0])] * s.n),
    "ogre_cheerleaders": (3, 30, lambda s: [[] for _ in range(s.n)]),
}


@pytest.mark.parametrize("game", sorted(NOTHING_KNOWN))
def test_snapshots_without_known_cards_load_knowing_none(game: str) -> None:
    """Snapshots stored before ``known`` existed load with nothing known, and still determinize."""
    seed, steps, nothing = NOTHING_KNOWN[game]
    engine = get_engine(game)
    state, seat = midgame(game, seed, steps=steps)
    data = engine.dump(state)
    del data["known"]
    old = engine.load(data)
    assert old.known == nothing(old)
    d = engine.determinize(old, seat, random.Random(1))
    assert engine.view(d, seat) == engine.view(old, seat)


def test_ogre_cheerleaders_blind_while_a_stolen_card_waits() -> None:
    """While a 6's stolen card waits to be played, which card it is (known to be in the victim's hand
    or not) must not show through the record of known cards, to any seat."""
    engine = get_engine("ogre_cheerleaders")
    found = 0
    for seed in range(400):
        state, _ = midgame("ogre_cheerleaders", seed)
        if state.steal_from < 0 or not state.known[state.steal_from]:
            continue
        found += 1
        for seat in range(state.n):
            other = engine.determinize(state, seat, random.Random(seed + 1))
            a = engine.determinize(state, seat, random.Random(seed))
            b = engine.determinize(other, seat, random.Random(seed))
            assert canonical(engine.dump(a)) == canonical(engine.dump(b))
            assert engine.view(a, seat) == engine.view(state, seat)
    assert found >= 3


def test_pedwar_deck_after_a_reshuffle_holds_only_cards_of_that_reshuffle() -> None:
    """After a reshuffle the Maneuver deck is the public discard pile less what was drawn from it:
    the redealt deck keeps within those cards (less the seat's own draws), and the record the rules
    keep of it is exact."""
    from collections import Counter

    engine = get_engine("pedwar")
    binding = checked = 0
    for seed in range(40):
        r = random.Random(seed)
        n = 2 + seed % 3
        state = engine.new_game(n, seed, {"max_turns": 200})
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            if state.reshuffled:
                drawn = Counter(c for d in state.drawn for c in d)
                assert Counter(state.mdeck) + drawn == Counter(state.reshuffled)  # the record is exact
                if r.random() < 0.2:
                    room = Counter(state.reshuffled) - Counter(state.drawn[seat])
                    unseen = Counter(state.mdeck) + sum((Counter(state.hands[p]) for p in range(n) if p != seat),
                                                        Counter())
                    binding += not unseen <= room   # a plain redeal could put these cards in the deck
                    for k in range(3):
                        d = engine.determinize(state, seat, random.Random(k))
                        assert Counter(d.mdeck) <= room
                        checked += 1
            state = engine.apply(state, seat, r.choice(engine.legal_actions(state, seat)))
    assert checked > 100 and binding > 30


def test_pedwar_loads_snapshots_without_the_reshuffle_record() -> None:
    engine = get_engine("pedwar")
    for seed in range(40):
        state, seat = midgame("pedwar", seed, steps=300)
        if state.reshuffled:
            break
    data = engine.dump(state)
    del data["reshuffled"], data["drawn"]
    old = engine.load(data)
    assert old.reshuffled == [] and old.drawn == [[] for _ in range(old.n)]
    d = engine.determinize(old, seat, random.Random(1))
    assert engine.view(d, seat) == engine.view(old, seat)
