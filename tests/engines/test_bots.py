"""Bot levels: legal, reproducible, and blind to the cards their seat cannot see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_engine
from engines.bots import BOT_LEVELS, bot_action
from tests.engines.search_states import GAMES, midgame

#: Small search budgets keep the default suite fast; the real levels are tested on a few states below.
SMALL = {"random": None, "easy": None, "normal": 12, "hard": 8}


def test_levels() -> None:
    assert BOT_LEVELS == ("random", "easy", "normal", "hard")
    engine = get_engine("pentawar")
    state = engine.new_game(2, 1)
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_action(engine, state, engine.to_act(state)[0], 1, level="expert")


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32), salt=st.integers(min_value=0, max_value=2**32))
def test_no_peeking(game_id: str, level: str, seed: int, salt: int) -> None:
    """A state and a redeal of it that the seat cannot tell apart get the same move, for the same salt."""
    engine = get_engine(game_id)
    state, seat = midgame(game_id, seed)
    redealt = engine.determinize(state, seat, random.Random(salt))
    a = bot_action(engine, state, seat, salt, level=level, iterations=SMALL[level])
    b = bot_action(engine, redealt, seat, salt, level=level, iterations=SMALL[level])
    assert a == b
    assert a in engine.legal_actions(state, seat)
    assert bot_action(engine, state, seat, salt, level=level, iterations=SMALL[level]) == a, "reproducible"


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("game_id", GAMES)
def test_no_peeking_at_real_levels(game_id: str, level: str) -> None:
    engine = get_engine(game_id)
    for seed in (3,):
        state, seat = midgame(game_id, seed, steps=25)
        while len(engine.legal_actions(state, seat)) < 2:
            state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
            seat = engine.to_act(state)[0]
        redealt = engine.determinize(state, seat, random.Random(seed))
        assert bot_action(engine, state, seat, seed, level=level) == \
            bot_action(engine, redealt, seat, seed, level=level)


def _peek(s: object, seat: int) -> tuple:
    return tuple(tuple(sorted(h)) for p, h in enumerate(s.hands) if p != seat)  # type: ignore[attr-defined]


def test_a_bot_that_peeks_is_caught() -> None:
    """The no-peeking check has teeth: a 'bot' that reads the other hands fails it."""
    engine = get_engine("pentawar")
    caught = 0
    for seed in range(20):
        state, seat = midgame("pentawar", seed)
        redealt = engine.determinize(state, seat, random.Random(seed))

        caught += _peek(state, seat) != _peek(redealt, seat)
    assert caught >= 10


@pytest.mark.parametrize("game_id", GAMES)
def test_default_level_is_easy(game_id: str) -> None:
    engine = get_engine(game_id)
    state, seat = midgame(game_id, 11)
    assert bot_action(engine, state, seat, 5) == bot_action(engine, state, seat, 5, level="easy")


def test_pedwar_search_values_a_card_that_scores_nothing_yet() -> None:
    """Most Object cards end in a Straight or better, so a card won now is worth something to the
    search before it scores: with the same scores, the seat holding more cards is valued higher."""
    from engines.pedwar.scoring import score_collection

    engine = get_engine("pedwar")
    state, _ = midgame("pedwar", 4, steps=0)
    s = state.clone()
    s.colls = [["R1"], ["B5", "G8"]] + [[] for _ in range(s.n - 2)]
    s.goals = [5, 5, *s.goals[2:]]    # Goal 5 lists R5 B6 G7 Y8: none of these cards
    assert score_collection(s.colls[0], 5) == score_collection(s.colls[1], 5) == 0
    values = engine.evaluate(s)  # type: ignore[attr-defined]
    assert values[1] > values[0]
