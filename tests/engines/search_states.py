"""States part-way through games, for the determinize and bot tests: a random number of random moves."""

from __future__ import annotations

import random
from typing import Any

from engines import get_engine

#: Players per game for the test tables, and short games (so playouts finish fast).
PLAYERS = {"do_over": (2, 3, 4), "pedwar": (2, 3, 4), "king_pedro": (4,), "ogre_cheerleaders": (2, 3, 4),
           "pentawar": (2, 3, 5)}
SHORT = {"king_pedro": {"max_rounds": 2}, "do_over": {"max_turns": 300}, "pedwar": {"max_turns": 40},
         "ogre_cheerleaders": {"max_turns": 60}, "pentawar": {}}
GAMES = tuple(PLAYERS)


def midgame(game_id: str, seed: int, steps: int | None = None, options: dict | None = None) -> tuple[Any, int]:
    """(state, seat to act) after up to ``steps`` random moves from a new short game; never a finished state."""
    engine = get_engine(game_id)
    r = random.Random(seed)
    n = r.choice(PLAYERS[game_id])
    opts = SHORT[game_id] if options is None else options
    state = engine.new_game(n, seed, opts)
    target = r.randrange(0, 400) if steps is None else steps
    for _ in range(target):
        seats = engine.to_act(state)
        acts = engine.legal_actions(state, seats[0])
        nxt = engine.apply(state, seats[0], r.choice(acts))
        if engine.is_over(nxt):
            break
        state = nxt
    return state, engine.to_act(state)[0]


def play_out(engine: Any, state: Any, r: random.Random, limit: int = 50_000) -> Any:
    """Random legal moves to the end; fails if some seat to act has no legal action."""
    for _ in range(limit):
        seats = engine.to_act(state)
        if not seats:
            assert engine.is_over(state)
            return state
        seat = r.choice(seats)
        acts = engine.legal_actions(state, seat)
        assert acts, f"seat {seat} is to act but has no legal action"
        state = engine.apply(state, seat, r.choice(acts))
    raise AssertionError("the playout did not finish")
