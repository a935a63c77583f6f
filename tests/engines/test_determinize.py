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
