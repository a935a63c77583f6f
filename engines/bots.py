"""Bot players that fill seats."""

from __future__ import annotations

import random
from collections.abc import Callable

from engines.contract import Engine


def bot_draws(seed: int) -> Callable[[int], int]:
    """A seeded draw of a uniform index in ``[0, n)``: what ``RandomBot`` picks its moves with.

    Engines keep their own generator (``engines.rng``) inside the state, so it
    must be tiny and stable. A bot's generator is never stored, so it can be
    the standard library's, whose draw costs a third of a pure-Python SplitMix64
    step; random playouts make one draw per move.
    """
    return random.Random(seed).randrange


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._draw = bot_draws(seed)

    def choose(self, engine: Engine, state: object, seat: int) -> str:
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return actions[self._draw(len(actions))]


def bot_action(engine: Engine, state: object, seat: int, salt: int) -> str:
    """A reproducible bot move: the same state, seat and salt give the same action.

    The host passes the table seed plus the table version as ``salt``, so a
    bot's move survives a restart without storing the bot's generator. A game
    with its own bot player (King Pedro's, see ``engines.king_pedro.bot``)
    uses it; the others move like ``RandomBot``.
    """
    draw = bot_draws(salt * 7919 + seat)
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if engine.game_id == "king_pedro":
        # Imported here: the King Pedro package imports this module for its playouts.
        from engines.king_pedro.bot import choose

        return choose(state, seat, actions, draw)  # type: ignore[arg-type]
    return actions[draw(len(actions))]
